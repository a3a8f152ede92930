"""Strings of the Serving page (keys "serving.*", its navigation and home-page entries)."""

EN = {
    "nav.serving": "Serving",
    "home.tool.serving": "Serving at a latency target: GPUs for a request rate at a TTFT / TPOT "
                         "target, tokens/s per GPU against tokens/s per user, $ per million "
                         "tokens and J per token, with the KV-cache budget first.",
    "serving.title": "Serving at a latency target",
    "serving.intro": "How many GPUs for your traffic, at what time to first token (TTFT) and time "
                     "per output token (TPOT), and what a million tokens cost. Each candidate "
                     "(device × precision × tensor-parallel size) is a curve: more sequences in a "
                     "batch give more tokens/s per GPU and fewer per user. The KV cache comes "
                     "first: no batch beyond what fits after the weights and the 10 % reserve is "
                     "shown. Step times are the Decode page's records (weights, KV cache, FLOP "
                     "per GPU) at the published achievable fractions.",
    "serving.definitions": "**Definitions.** Throughput counts **output (generated) tokens** unless "
                           "a label says input + output. **TTFT** runs from a request's arrival to "
                           "its first token: queueing + prefill (+ the KV transfer when prefill and "
                           "decode are disaggregated). **TPOT** is the mean time between output "
                           "tokens after the first. Tokens/s **per user** = 1 / TPOT; per GPU = "
                           "output tokens/s ÷ GPUs. **Not counted:** an engine's fixed cost per "
                           "request (scheduling, tokenizing, sampling, launching kernels): against "
                           "TensorRT-LLM's published batch-1 latencies this TTFT is 0.8-1.1× the "
                           "measurement for 2,048-token prompts but 0.4-0.6× for 128-token ones "
                           "(README, \"First-token latency at batch 1\"). Type your stack's under "
                           "Engine and accuracy (Fixed cost per step).",
    "serving.no_model": "The sidebar's model is \"Custom: parameters only\": serving needs the "
                        "architecture (its KV cache). Showing **{name}**; choose any model in the "
                        "sidebar.",
    "serving.use_default": "Use {name}",
    "serving.use_default_help": "Select it as the sidebar's model (kept in the link as model=…).",
    "serving.model_caption": "Model: **{name}** · source: {source}",
    "serving.inputs_heading": "Inputs",
    "serving.workload_heading": "Workload",
    "serving.isl": "Prompt tokens (input length)",
    "serving.isl_help": "Mean prompt length in tokens, e.g. 4000. URL name s_isl.",
    "serving.osl": "Output tokens (answer length)",
    "serving.osl_help": "Mean generated tokens per request, at least 2 (TPOT is the time between "
                        "them), e.g. 500. URL name s_osl.",
    "serving.rate": "Request rate (requests/s)",
    "serving.rate_help": "Requests per second the whole deployment must serve (Poisson arrivals "
                         "in the simulator), e.g. 20. URL name s_rate.",
    "serving.prefix": "Prefix-cache hit rate",
    "serving.prefix_help": "Share of each prompt's tokens already in the prefix cache (a shared "
                           "system prompt): they are not prefilled again. 500 of 4000 tokens = "
                           "12.5 %. URL name s_prefix.",
    "serving.dist": "Length distribution",
    "serving.dist_help": "Fixed lengths, or drawn per request in the simulator: uniform around the "
                         "mean, or lognormal with this mean. The analytic curves use the means. "
                         "URL name s_dist.",
    "serving.dist.fixed": "Fixed",
    "serving.dist.uniform": "Uniform",
    "serving.dist.lognormal": "Lognormal",
    "serving.spread": "Spread",
    "serving.spread_help.uniform": "Half-width as a fraction of the mean: 0.5 draws lengths "
                                   "between 0.5× and 1.5× the mean (0 to 0.95). URL name s_spread.",
    "serving.spread_help.lognormal": "σ of the log-length (0 to 2; 0.5 is a moderate tail). URL "
                                     "name s_spread.",
    "serving.targets_heading": "Targets",
    "serving.ttft_target": "TTFT target",
    "serving.ttft_target_help": "Longest acceptable time to first token. URL name s_ttft (seconds).",
    "serving.ttft_stat": "TTFT target holds for",
    "serving.ttft_stat_help": "Which TTFT the target bounds under random (Poisson) arrivals: the "
                              "mean, the median (p50: what vLLM's benchmark_serving and most published serving "
                              "runs report first), or the 90th / 99th percentile (a p90 target: 9 requests in 10 "
                              "see their first token within it). A percentile target needs more "
                              "headroom, so it can size more GPUs. TPOT has no spread in the steady "
                              "state, so its target holds for every percentile. URL name s_ttft_stat.",
    "serving.stat.mean": "mean",
    "serving.stat.p50": "p50",
    "serving.stat.p90": "p90",
    "serving.stat.p99": "p99",
    "serving.max_load": "Most load per replica (optional)",
    "serving.max_load_help": "The highest share of its capacity (the most requests/s it reaches at any batch "
                             "its memory holds) a sized replica or instance may run at, so that more traffic "
                             "than planned still fits: 70% leaves room for 1/0.7 − 1 = 43% more. Blank: no "
                             "limit, the TTFT and TPOT targets alone size it (a replica may then run near "
                             "100%, where a few per cent more traffic fills its queue). URL name s_max_load.",
    "serving.max_load_placeholder": "none, e.g. 70%",
    "serving.headroom": "Sized with headroom: every replica and instance at most {max_load} of its capacity "
                        "(the answer's replicas run at {load}).",
    "serving.tpot_target": "TPOT target",
    "serving.tpot_target_help": "Longest acceptable time per output token; 50 ms = 20 tokens/s per "
                                "user. The red line on the chart. URL name s_tpot (seconds).",
    "serving.candidates_heading": "Candidates",
    "serving.devices": "Devices",
    "serving.devices_help": "Accelerators to compare (hardware.toml, those with a memory size). "
                            "URL name s_devices (comma-separated ids).",
    "serving.precisions": "Weight precisions",
    "serving.precisions_help": "BF16, FP8 or FP4 (NVFP4, 0.5625 bytes per weight with its scales). "
                               "The matrix units compute in the same precision where the device "
                               "has a peak for it (FP8 on Hopper, FP4 on Blackwell), else in BF16 "
                               "(weight-only quantization). URL name s_prec.",
    "serving.kv": "KV cache precision",
    "serving.kv_help": "The KV cache's element format; \"same\" stores it in the weights' "
                       "precision. URL name s_kv.",
    "serving.kv.same": "Same as the weights",
    "serving.tps": "Tensor-parallel sizes (GPUs per replica)",
    "serving.tps_help": "GPUs per model replica to try; each must divide the attention heads "
                        "(the Model page's rule). URL name s_tp.",
    "serving.engine_heading": "Engine and accuracy",
    "serving.mode": "Serving mode",
    "serving.mode_help": "Aggregated: prefill chunks and decode tokens share each step (continuous "
                         "batching, chunked prefill). Disaggregated: separate prefill and decode "
                         "pools, the KV cache sent between them over the network. Both: the page "
                         "sizes each and keeps the one with fewer GPUs. URL name s_mode.",
    "serving.mode.both": "Both",
    "serving.mode.aggregated": "Aggregated",
    "serving.mode.disaggregated": "Disaggregated",
    "serving.budget": "Token budget per step",
    "serving.budget_help": "Most tokens one step processes (vLLM's max_num_batched_tokens): "
                           "decode tokens plus prompt chunks. URL name s_budget.",
    "serving.eff": "Numbers shown",
    "serving.eff_help": "Estimate: the achievable fractions published runs reach — HBM bandwidth "
                        "from gpt-fast's decode rows (published_mfu.toml), matrix efficiency by "
                        "GEMM size from Calculon scaled to the device's measured best GEMM, capped "
                        "at the best MFU published for the device's family, and every all-reduce by "
                        "the ring formula on the device's network, both as on the Training layout "
                        "page (NVLink at {link_eff} and {link_us} per ring "
                        "step, the network at {net_eff} and {net_us}; Calculon). Bound: "
                        "100 % of the datasheet and communication hidden — a ceiling no real "
                        "server exceeds. URL name s_eff.",
    "serving.eff.estimate": "Estimate",
    "serving.eff.bound": "Bound (ceiling)",
    "serving.sim": "Run the simulator (TTFT / TPOT against the rate)",
    "serving.sim_help": "Simulates continuous batching at rates up to beyond capacity for the best "
                        "aggregated layout (1,000 requests per rate). URL name s_sim.",
    "serving.overhead": "Fixed cost per step (optional)",
    "serving.overhead_help": "Time your serving stack spends on every engine step beyond the work the "
                             "roofline counts — scheduling on the host, kernel launches, sampling — "
                             "added to every prefill and decode step of the estimate, the bound and the "
                             "simulator, e.g. 4 ms. Blank: none (the roofline alone). To measure it, "
                             "send one short request (128 prompt tokens) through your server: its TTFT "
                             "minus this page's TTFT for one request alone is the fixed cost. URL name "
                             "s_overhead.",
    "serving.overhead_placeholder": "none, e.g. 4 ms",
    "serving.overhead_source": "; plus {overhead} fixed per step (typed)",
    "serving.spec_heading": "Speculative decoding",
    "serving.spec": "Use speculative decoding",
    "serving.spec_help": "A draft proposes γ tokens, the model verifies them in one pass; on "
                         "average (1 − α^(γ+1)) / (1 − α) tokens per pass (Leviathan et al. "
                         "2023). URL name s_spec.",
    "serving.spec_method": "Draft",
    "serving.spec_method_help": "MTP: the model's own multi-token-prediction module (DeepSeek-V3 "
                                "has one), or for a model without one a separately trained "
                                "one-layer draft head (EAGLE-style); either costs about one layer "
                                "of the model per draft token, and its weights and cache come out "
                                "of the KV budget. Draft model: a smaller catalog model on the "
                                "same GPUs, its weights and cache in the budget too. URL name s_spec_m.",
    "serving.spec_method.mtp": "Multi-token prediction",
    "serving.spec_method.head": "One-layer draft head",
    "serving.spec_head_note": "{model} has no multi-token-prediction module: this option is a "
                              "one-layer draft head trained for it (EAGLE-style), costed as one "
                              "layer of the model per draft token.",
    "serving.spec_method.draft": "Draft model",
    "serving.draft": "Draft model",
    "serving.draft_help": "A catalog model run γ times per verification. URL name s_draft.",
    "serving.alpha": "Acceptance rate α",
    "serving.alpha_help": "Share of draft tokens the model accepts: depends on the draft, the model "
                          "and the text. 0.8 is Leviathan et al.'s worked example, not a measured "
                          "value for your pair: measure it (EAGLE and Medusa report α per task). "
                          "URL name s_alpha.",
    "serving.alpha_source": "typed on the Serving page",
    "serving.gamma": "Draft length γ",
    "serving.gamma_help": "Draft tokens per verification pass, e.g. 4. URL name s_gamma.",
    "serving.spec_invalid": "Speculative decoding needs a valid α and γ.",
    "serving.cost_heading": "Cost and energy",
    "serving.price": "Price per GPU-hour",
    "serving.price_help": "e.g. $2 or ¥15 (the currency is read from what you type; a bare number "
                          "is in the currency chosen on the Training and Plans pages). Blank: "
                          "InferenceX's hyperscaler price where it has one (H100 $1.30, H200 "
                          "$1.41, B200 $1.95). URL name s_price.",
    "serving.price_placeholder": "InferenceX price",
    "serving.kw": "All-in power per GPU",
    "serving.kw_help": "Facility power per GPU (cooling, CPUs, network), e.g. 1.73 kW. Blank: "
                       "InferenceX's figure where it has one (H100 / H200 1.73 kW, B200 2.17 kW). "
                       "J/token is also given at the board's TDP. URL name s_kw.",
    "serving.kw_placeholder": "InferenceX figure",
    "serving.answer_heading": "GPUs for the rate",
    "serving.no_layout": "No candidate meets both targets at this rate: loosen a target, add "
                         "devices, precisions or tensor-parallel sizes.",
    "serving.no_layout.tpot": "The TPOT target {target} is below the fastest any candidate decodes "
                              "aggregated, {best} ({cand}; a decode-only instance is a little "
                              "faster, without the prompt chunks).",
    "serving.no_layout.ttft": "The TTFT target {target} is below the fastest first token any "
                              "candidate gives, {best} ({cand}, one prompt alone, no queueing).",
    "serving.no_layout.both": "Each target alone is within reach (TPOT {tpot}, TTFT {ttft}), but "
                              "not both at once: the batches fast enough for the TPOT target leave "
                              "the token budget too busy with prompts, or its steps too slow, for "
                              "the TTFT target. Loosen either, or add tensor-parallel sizes.",
    "serving.metric.gpus": "GPUs needed",
    "serving.metric.gpus_help": "Fewest GPUs of the candidates that serve the rate within both "
                                "targets (whole replicas or pools).",
    "serving.metric.cost": "Cost per million output tokens",
    "serving.metric.cost_help": "Price per GPU-hour ÷ (tokens/s per GPU × 3600 / 1e6), at the rate: "
                                "H100 at $1.30 and 2,568 tokens/s per GPU gives $0.141.",
    "serving.metric.energy": "Energy per output token (TDP)",
    "serving.metric.energy_help": "Board power (TDP) ÷ tokens/s per GPU; the table also gives it "
                                  "at the all-in power.",
    "serving.metric.bound": "Limited by",
    "serving.metric.bound_help": "What sets the step time of the chosen layout: reading the "
                                 "weights, reading the KV cache, compute, or the network "
                                 "(all-reduce).",
    "serving.best": "Best: **{device}**, {prec} weights, KV {kv}, {mode}: {layout}. TTFT {ttft}, "
                    "TPOT {tpot}, **{per_gpu}** per GPU, {per_user} per user (analytic steady "
                    "state; the TTFT is the {stat} with queueing for the prompt work under "
                    "random arrivals; the simulator below runs the engine step by step).",
    "serving.near_capacity": "Each replica runs at {load} of its capacity, little headroom: above {limit} a few per cent "
                             "more traffic than planned fills the queue and the TTFT grows without bound (a simulated "
                             "Llama 3.1 8B replica sized at 95% keeps its p90 TTFT under 0.5 s, but at 5% more traffic its "
                             "p90 is 1.4-5 s). Tick *Run the simulator* below to see this replica's queue, or plan one more "
                             "replica: type a *Most load per replica* under the targets, e.g. 80% (README, "
                             "\"Where the steady state and the simulator part\").",
    "serving.price_inferencex": "Cost at InferenceX's hyperscaler price per GPU-hour (USD); type a "
                                "price under \"Cost and energy\" for yours.",
    "serving.none": "none meets the targets",
    "serving.pool": "{role} {n} × TP{tp} at {load}",
    "serving.near_capacity.prefill": "Its prefill pool runs at {load} of its capacity, little headroom: above {limit} a "
                                     "few per cent more traffic than planned fills the prompt queue and the TTFT grows "
                                     "without bound. Plan one more prefill instance: type a *Most load per replica* under "
                                     "the targets, e.g. 80% (it caps every instance too).",
    "serving.near_capacity.decode": "Its decode pool runs at {load} of its capacity (at the largest batch its memory holds), "
                                    "little headroom: above {limit} a few per cent more traffic than planned leaves new "
                                    "requests waiting for KV room, and the TTFT grows without bound. Plan one more decode "
                                    "instance: type a *Most load per replica* under the targets, e.g. 80% (it caps every "
                                    "instance too).",
    "serving.headroom_pools": "Sized with headroom: every replica and instance at most {max_load} of its capacity "
                              "(the answer's prefill pool runs at {prefill}, its decode pool at {decode}).",
    "serving.role.aggregated": "replicas",
    "serving.role.prefill": "prefill",
    "serving.role.decode": "decode",
    "serving.frontier_heading": "Tokens/s per GPU against tokens/s per user",
    "serving.eff_source.estimate": "HBM bandwidth at {bw} (top of gpt-fast's measured band, "
                                   "published_mfu.toml), matrix efficiency by GEMM size (Calculon, "
                                   "scaled to the device's measured best GEMM) capped at the family's "
                                   "best published MFU, all-reduces on the "
                                   "device's network (NVLink at {link_eff}, {link_us} per ring step)",
    "serving.eff_source.bound": "100 % of the datasheet, communication hidden",
    "serving.frontier_caption": "{eff}: {source}. One curve per device × precision × TP, one point "
                                "per batch size that fits; filled points meet both targets. Right "
                                "of the red line the TPOT target is met; the grey band is the "
                                "Pareto front of the points within the TTFT target.",
    "serving.no_candidate": "No candidate fits: the weights alone exceed the memory of each. Add "
                            "GPUs per replica (TP) or a lower precision.",
    "serving.fig.title": "Throughput per GPU vs speed per user (output tokens)",
    "serving.fig.x": "tokens/s per user (1 / TPOT)",
    "serving.fig.y": "output tokens/s per GPU",
    "serving.fig.label": "{device} · {prec} · TP{tp}",
    "serving.fig.hover": "<b>{label}</b><br>batch {batch}<br>TTFT {ttft} ({stat}, queued at this point's rate) · TPOT {tpot}<br>memory per "
                         "GPU {mem}<br>limited by {bound}",
    "serving.fig.pareto": "Pareto front",
    "serving.fig.target": "TPOT target ({value} per user)",
    "serving.bound.weights": "weights",
    "serving.bound.kv": "KV cache",
    "serving.bound.compute": "compute",
    "serving.bound.network": "network",
    "serving.bound.budget": "KV budget",
    "serving.col.device": "Device",
    "serving.col.precision": "Precision",
    "serving.col.mode": "Mode",
    "serving.col.layout": "Layout",
    "serving.col.gpus": "GPUs",
    "serving.col.ttft": "TTFT ({stat}, queued)",
    "serving.col.tpot": "TPOT",
    "serving.col.per_gpu": "Output tokens/s per GPU",
    "serving.col.cost": "$/Mtok",
    "serving.col.energy": "J/token (TDP)",
    "serving.col.energy_all_in": "J/token (all-in)",
    "serving.col.bound": "Limited by",
    "serving.table_caption": "Each row: the fewest GPUs of that device and precision meeting both "
                             "targets at the rate (tokens/s per GPU = rate × output tokens ÷ GPUs); "
                             "TTFT and TPOT where each replica runs at the rate (its share of the "
                             "requests, at the batch that carries them), not at its capacity. "
                             "Cost and energy per output token at the rate, for each row's layout "
                             "(they follow the GPU count: same GPUs, same cost). \"Add this setup "
                             "to the plans\" adds the best aggregated layout (one replica and its "
                             "batch; the Plans table has no disaggregated plans).",
    "serving.skipped": "{n} candidates left out",
    "serving.skipped_row": "- {device} · {prec} · TP{tp}: {why}",
    "serving.no_fit": "the weights leave no room for one sequence's KV cache",
    "serving.sim_heading": "Where queueing starts",
    "serving.sim_none": "No aggregated layout meets the targets: nothing to simulate.",
    "serving.context_overflow": "**Prompt tokens (input length)** {isl} + **Output tokens (answer length)** {osl} "
                                "is more than {model}'s context length, {limit} tokens: no "
                                "engine serves such a request. Shorten one of them.",
    "serving.sim_too_long": "Not simulated: the length distribution drew a request of {tokens} "
                            "tokens (prompt and output), whose KV cache needs {need} per GPU — "
                            "more than one replica of TP {tp} × {device} holds ({budget}). "
                            "Narrow **Spread**, shorten **Prompt tokens (input length)**, or give "
                            "a replica more GPUs.",
    "serving.sim_intro": "One replica of {device}, {prec}, TP{tp}, simulated with {n} requests per "
                         "rate (Poisson arrivals, iteration-level scheduling with the token budget "
                         "and the KV limit).",
    "serving.sim_spec": "With speculative decoding: every decode step is a verification pass of "
                        "γ = {gamma} draft tokens per sequence (the draft's steps included), and each "
                        "request's passes are drawn from an acceptance rate of α = {alpha} "
                        "({tokens} tokens per pass on average), so TPOT varies from request to "
                        "request.",
    "serving.sim_not_answer": "The answer above is {mode}; the simulator runs one aggregated replica "
                              "(the best aggregated layout of the table), so its curves are that "
                              "layout's, not the answer's.",
    "serving.sim_caption": "TTFT includes the queueing; beyond the capacity (dotted line) the queue "
                           "grows without bound. Dashed lines: the targets.",
    "serving.rate_fig.title": "Simulated TTFT and TPOT against the request rate (one replica)",
    "serving.rate_fig.x": "requests/s",
    "serving.rate_fig.y_ttft": "TTFT (s)",
    "serving.rate_fig.y_tpot": "TPOT (s)",
    "serving.rate_fig.ttft_p50": "TTFT p50",
    "serving.rate_fig.ttft_p90": "TTFT p90",
    "serving.rate_fig.ttft_p99": "TTFT p99",
    "serving.rate_fig.ttft_mean": "TTFT mean",
    "serving.rate_fig.tpot_p50": "TPOT p50",
    "serving.rate_fig.tpot_p90": "TPOT p90",
    "serving.rate_fig.capacity": "capacity",
    "serving.how.budget": "**KV budget first.** Memory M less the 10 % reserve r and this GPU's "
                          "weights W (÷ tp); each sequence needs its KV cache at i + o tokens "
                          "÷ s_kv (min(tp, KV heads); MLA's latent is not split).",
    "serving.how.step": "**One step** of B decode tokens at context c and P prompt tokens: the "
                        "larger of memory and compute time, plus two all-reduces per layer "
                        "(the ring formula on the group's network tier: 2(t − 1)/t of the volume "
                        "and 2(t − 1) steps of latency α; NVLink at η_l = {link_eff}, α = {link_us}), "
                        "each of (B + P)·d elements of a = 2 bytes: the GEMM output is BF16 even "
                        "with FP8 or FP4 weights. The bound takes η = 1 and no communication. "
                        "t_fixed is the fixed cost per step typed under Engine and accuracy (0 when "
                        "blank), in both.",
    "serving.how.mix": "**Aggregated** (chunked prefill): a prompt's n new tokens are prefilled in "
                       "n_c = ⌈n / (T − B)⌉ chunks; a = B / o prompts arrive per step, and a share "
                       "f of the steps carries prompt tokens: one chunk, or, when more than one "
                       "prompt arrives per step, all a·n of them (engines fill the budget). This "
                       "even spread is the closed loop's (a prompt enters as a sequence finishes) "
                       "and the offline benchmark's.",
    "serving.how.random": "**At a request rate** (random arrivals) whole prompts enter a step as they "
                          "come: 0, 1, 2 … per step, the ones that arrived during the step before. A long "
                          "step lets more in, so their count K is more spread than Poisson(a): variance "
                          "a / (1 − u²), u = λ·s, s what one more prompt adds to a step (a negative "
                          "binomial of that mean and variance). A step's time is convex in its prompt "
                          "tokens (memory-bound with none, compute-bound with many), so the mean step "
                          "averages over that mix, and R takes the same mix. A request's TPOT is the mean "
                          "of its o passes, and a pass with more sequences counts for more requests, so "
                          "TPOT adds Cov(B, t) / B: the prompts' clustering (ρ: K's correlation from one "
                          "step to the next) and the batch's spread times t_B, what one more sequence "
                          "adds to a step. The rate stays B / (step · o). A prompt's own step holds it "
                          "and Poisson(a/2) others (those that came while the step in flight ran; the "
                          "earlier ones are the queue below). Prompts beyond the budget carry to the next "
                          "step at the last prompt's cost. Prompts longer than one step (n_c > 1) keep "
                          "the even spread.",
    "serving.how.agg_queue": "**An aggregated replica's queue** (requests arrive at random, Poisson "
                             "at λ per replica). A prompt first waits for the step in flight to end "
                             "(the engine schedules between steps): R, the mean rest of a step, which "
                             "counts the long prompt steps by their length. Then it waits for the "
                             "prompt tokens ahead of it: the budget's T − B prompt tokens per step "
                             "serve the waiting prompts in order, several in a step or one over "
                             "several, one server of S_w seconds per prompt (M/D/1, "
                             "Pollaczek–Khinchine). A p90 or p99 target takes that quantile of the "
                             "wait (M/D/1's exact distribution). Against the simulator (four workloads, six "
                             "runs of 12,000 requests each, README) the mean TTFT reads 0.89-1.12 × and the "
                             "mean TPOT 0.94-1.00 × up to 90 % of capacity; nearer, a plan has no headroom.",
    "serving.how.disagg": "**Disaggregated:** prefill instances (k prompts per step) and decode "
                          "instances in the ratio r_d / r_p; the KV cache crosses the network "
                          "once per GPU, on the prefill device's scale-out network (hardware.toml; "
                          "H100: 50 GB/s per GPU) at {net_eff}, plus {net_us}.",
    "serving.how.queue": "**A prefill pool's queue** (disaggregated): n instances of k prompts per "
                         "step are c = n·k servers of S seconds each (S = its step). C is Erlang C; "
                         "halving M/M/c's wait is the Allen–Cunneen rule for fixed service times, "
                         "exact at c = 1 (Pollaczek–Khinchine). The sizing holds the TTFT target by "
                         "the mean with queueing, so no pool runs near 100 % load. A p90 or p99 "
                         "target holds S + t_q, the wait's quantile, with the wait of a request that "
                         "waits taken as exponential (exact for M/M/c; Whitt 1993 for G/G/c; its "
                         "p90 within 5 % of a simulated queue); at c = 1, M/D/1's exact distribution "
                         "(Erlang's series, the Cramér–Lundberg tail for long waits). The simulator "
                         "runs the engine step by step.",
    "serving.how.spec": "**Speculative decoding** (Leviathan et al. 2023): tokens per "
                        "verification pass; the pass reads the weights once and computes γ + 1 "
                        "tokens per sequence, plus the draft, whose weights and cache come out "
                        "of the KV budget. The simulator draws each request's passes: a pass "
                        "yields 1 + min(G, γ) tokens, G the draft tokens accepted before the "
                        "first rejection, P(G = k) = α^k (1 − α).",
    "serving.how.cost": "**Cost and energy** (InferenceX).",
}

ZH = {
    "nav.serving": "推理服务",
    "home.tool.serving": "按延迟目标规划推理服务：给定 TTFT / TPOT 目标，某个请求速率需要多少张卡；每卡 tokens/秒与每用户 tokens/秒如何取舍；"
                         "每百万 token 的费用和每 token 的能耗。第一步先算 KV cache 预算。",
    "serving.title": "按延迟目标规划推理服务",
    "serving.intro": "你的流量需要多少张卡，首 token 时间（TTFT）和每个输出 token 的时间（TPOT）是多少，每百万 token 花多少钱。"
                     "每个候选（设备 × 精度 × 张量并行度）是一条曲线：批大小越大，每卡 tokens/秒越高，每用户 tokens/秒越低。KV cache 先行："
                     "扣除权重和 10% 预留后放不下的批大小不显示。单步时间取自「解码速度」页的同一记录（每卡的权重、KV cache、FLOP），"
                     "按公开结果达到的可达比例计算。",
    "serving.definitions": "**定义。** 除非标注为输入 + 输出，吞吐只计**输出（生成的）token**。**TTFT**（首 token 时间）从请求到达算起，"
                           "到生成第一个 token 为止：排队 + 预填充（预填充与解码分离时再加 KV 传输）。**TPOT** 是第一个 token 之后相邻输出 "
                           "token 的平均间隔。**每用户** tokens/秒 = 1 / TPOT；"
                           "每卡 tokens/秒 = 输出 tokens/秒 ÷ GPU 数。**未计入：** 推理引擎处理每个请求的固定开销（调度、分词、采样、"
                           "启动 kernel）。与 TensorRT-LLM 公布的批大小为 1 的延迟相比，"
                           "这里的 TTFT 对 2,048 token 的提示词是实测的 0.8–1.1 倍，"
                           "对 128 token 的提示词只有 0.4–0.6 倍（见 README「First-token latency」一节）。"
                           "你的推理栈的这部分开销可在「推理引擎与精确度」里的「每步固定开销」输入。",
    "serving.no_model": "侧边栏的模型是「自定义：只填参数量」：规划推理服务需要模型结构（它的 KV cache）。这里显示 **{name}**；"
                        "可在侧边栏选择任意模型。",
    "serving.use_default": "使用 {name}",
    "serving.use_default_help": "把它设为侧边栏的模型（链接中保存为 model=…）。",
    "serving.model_caption": "模型：**{name}** · 来源：{source}",
    "serving.inputs_heading": "输入",
    "serving.workload_heading": "负载",
    "serving.isl": "提示词长度（token）",
    "serving.isl_help": "提示词的平均长度（token），例如 4000。URL 参数 s_isl。",
    "serving.osl": "输出 token 数（回答长度）",
    "serving.osl_help": "每个请求平均生成的 token 数，至少 2（TPOT 是它们之间的间隔），例如 500。"
                        "URL 参数 s_osl。",
    "serving.rate": "请求速率（请求/秒）",
    "serving.rate_help": "整个部署每秒要处理的请求数（模拟器中按泊松到达），例如 20。URL 参数 s_rate。",
    "serving.prefix": "前缀缓存命中率",
    "serving.prefix_help": "每个提示词中已在前缀缓存里的 token 比例（如共享的系统提示词）：这些 token 不再预填充。"
                           "4000 个 token 中有 500 个 = 12.5%。URL 参数 s_prefix。",
    "serving.dist": "长度分布",
    "serving.dist_help": "固定长度，或在模拟器中为每个请求抽样：均值附近的均匀分布，或给定均值的"
                         "对数正态分布。解析曲线用均值。URL 参数 s_dist。",
    "serving.dist.fixed": "固定",
    "serving.dist.uniform": "均匀",
    "serving.dist.lognormal": "对数正态",
    "serving.spread": "离散程度",
    "serving.spread_help.uniform": "半宽占均值的比例：0.5 表示长度在均值的 0.5 到 1.5 倍之间"
                                   "（0 到 0.95）。URL 参数 s_spread。",
    "serving.spread_help.lognormal": "对数长度的 σ（0 到 2；0.5 是中等的长尾）。URL 参数 s_spread。",
    "serving.targets_heading": "目标",
    "serving.ttft_target": "TTFT 目标",
    "serving.ttft_target_help": "可接受的最长首 token 时间。URL 参数 s_ttft（秒）。",
    "serving.ttft_stat": "TTFT 目标针对",
    "serving.ttft_stat_help": "请求随机（泊松）到达时，目标约束的是哪个 TTFT：均值、中位数（p50：vLLM 的 benchmark_serving 和多数公开的推理服务测量首先报告的就是它），还是第 90 / 99 百分位（p90 目标："
                              "10 个请求里有 9 个在目标之内拿到第一个 token）。百分位目标需要更多余量，因此可能需要更多 GPU。稳态下 TPOT 没有波动，"
                              "所以 TPOT 目标对每个百分位都成立。URL 参数 s_ttft_stat。",
    "serving.stat.mean": "均值",
    "serving.stat.p50": "p50",
    "serving.stat.p90": "p90",
    "serving.stat.p99": "p99",
    "serving.max_load": "每个副本的最高负载（可选）",
    "serving.max_load_help": "规划出的副本或实例最多可运行到其容量（内存能容纳的任意批大小下所能达到的最高请求/秒）的多少，"
                             "使流量比计划多时仍能承载：70% 可再容纳 1/0.7 − 1 = 43% 的流量。留空：不设上限，只由 TTFT 和 TPOT "
                             "目标决定规模（副本可能运行在接近 100% 的负载，此时流量只要多几个百分点，队列就会堆积）。URL 参数 s_max_load。",
    "serving.max_load_placeholder": "不设，例如 70%",
    "serving.headroom": "已预留余量：每个副本和实例最多运行在其容量的 {max_load}（答案中的副本运行在 {load}）。",
    "serving.tpot_target": "TPOT 目标",
    "serving.tpot_target_help": "每个输出 token 可接受的最长时间；50 ms = 每用户 20 tokens/秒。即图中的红线。"
                                "URL 参数 s_tpot（秒）。",
    "serving.candidates_heading": "候选配置",
    "serving.devices": "设备",
    "serving.devices_help": "要比较的加速器（hardware.toml 中标有显存容量的）。URL 参数 s_devices"
                            "（逗号分隔的 id）。",
    "serving.precisions": "权重精度",
    "serving.precisions_help": "BF16、FP8 或 FP4（NVFP4，含缩放因子每个权重 0.5625 字节）。设备有该精度的峰值算力时，"
                               "矩阵单元就以该精度计算（Hopper 的 FP8、Blackwell 的 FP4），否则以 BF16 计算（仅权重量化）。"
                               "URL 参数 s_prec。",
    "serving.kv": "KV cache 精度",
    "serving.kv_help": "KV cache 的数据类型；「与权重相同」即用权重的精度存储。URL 参数 s_kv。",
    "serving.kv.same": "与权重相同",
    "serving.tps": "张量并行度（每个副本的 GPU 数）",
    "serving.tps_help": "每个模型副本要尝试的 GPU 数；每个都必须整除注意力头数（与「整个模型的 Roofline」页同一规则）。URL 参数 s_tp。",
    "serving.engine_heading": "推理引擎与精确度",
    "serving.mode": "服务方式",
    "serving.mode_help": "聚合：预填充分块与解码 token 共用每一步（连续批处理、分块预填充）。分离：预填充与解码各自成池，KV cache 经网络在两池之间传输。两者："
                         "分别规划，保留 GPU 数较少的一种。URL 参数 s_mode。",
    "serving.mode.both": "两者",
    "serving.mode.aggregated": "聚合",
    "serving.mode.disaggregated": "预填充/解码分离",
    "serving.budget": "每步 token 预算",
    "serving.budget_help": "一步最多处理的 token 数（vLLM 的 max_num_batched_tokens）：解码 token "
                           "加上提示词分块。URL 参数 s_budget。",
    "serving.eff": "显示的数字",
    "serving.eff_help": "估计：按公开结果实际达到的比例计算。显存带宽取自 gpt-fast 的解码数据（published_mfu.toml）；"
                        "矩阵效率按 GEMM 大小取自 Calculon，按该设备实测的最佳 GEMM 缩放，且不超过该系列公开的最高 MFU；"
                        "每次 all-reduce 都按环形公式在设备的网络上计算。后两项与「并行布局」页的算法相同（NVLink 按 {link_eff}、"
                        "每个环步 {link_us}；网络按 {net_eff}、{net_us}；取自 Calculon）。理论界限：规格书的 100%、"
                        "通信完全隐藏——真实服务的吞吐不会超过它，时间不会短于它。URL 参数 s_eff。",
    "serving.eff.estimate": "估计",
    "serving.eff.bound": "理论界限",
    "serving.sim": "运行模拟器（TTFT / TPOT 随请求速率的变化）",
    "serving.sim_help": "对最佳的聚合部署模拟连续批处理，请求速率从低一直取到超过容量（每个速率 1,000 个请求）。URL 参数 s_sim。",
    "serving.overhead": "每步固定开销（可选）",
    "serving.overhead_help": "推理栈在每个引擎步上、Roofline 所计工作之外花的时间：主机端调度、kernel 启动、采样。"
                             "它加到估计、理论界限和模拟器的每个预填充步和解码步上，例如 4 ms。留空：不加（只算 Roofline）。"
                             "测法：向你的服务发一个短请求（提示词 128 token），它的 TTFT 减去本页单个请求时的 TTFT，"
                             "就是这个固定开销。URL 参数 s_overhead。",
    "serving.overhead_placeholder": "不加，例如 4 ms",
    "serving.overhead_source": "；另加每步固定开销 {overhead}（手动输入）",
    "serving.spec_heading": "投机解码",
    "serving.spec": "使用投机解码",
    "serving.spec_help": "草稿提出 γ 个 token，主模型在一次前向中验证它们；"
                         "平均每次前向得到 (1 − α^(γ+1)) / (1 − α) 个 token（Leviathan 等，2023）。URL 参数 s_spec。",
    "serving.spec_method": "草稿",
    "serving.spec_method_help": "MTP：模型自带的多 token 预测模块（DeepSeek-V3 就有）；模型没有时，用为它单独训练的一层草稿头（EAGLE 式）"
                                "代替。两者每生成一个草稿 token，代价都约等于主模型的一层；其权重和 KV cache 从 KV 预算中扣除。草稿模型："
                                "同一组卡上一个较小的目录模型，其权重和 KV cache 同样计入预算。URL 参数 s_spec_m。",
    "serving.spec_method.mtp": "多 token 预测（MTP）",
    "serving.spec_method.head": "一层草稿头",
    "serving.spec_head_note": "{model} 没有多 token 预测模块：这个选项是为它训练的一层草稿头（EAGLE 式），"
                              "每个草稿 token 按主模型一层计代价。",
    "serving.spec_method.draft": "草稿模型",
    "serving.draft": "草稿模型",
    "serving.draft_help": "每次验证前运行 γ 次的目录模型。URL 参数 s_draft。",
    "serving.alpha": "接受率 α",
    "serving.alpha_help": "主模型接受草稿 token 的比例：取决于草稿、主模型和文本。0.8 是 Leviathan "
                          "等人的算例，不是你这对模型的实测值：请实测（EAGLE 和 Medusa 按任务报告 "
                          "α）。URL 参数 s_alpha。",
    "serving.alpha_source": "在「推理服务」页输入",
    "serving.gamma": "草稿长度 γ",
    "serving.gamma_help": "每次验证的草稿 token 数，例如 4。URL 参数 s_gamma。",
    "serving.spec_invalid": "投机解码需要有效的 α 和 γ。",
    "serving.cost_heading": "费用与能耗",
    "serving.price": "每 GPU 小时价格",
    "serving.price_help": "例如 $2 或 ¥15（币种按你输入的符号识别；只写数字时，用「训练时长」页和「方案对比」页所选的币种）。留空：如有，"
                          "用 InferenceX 的超大规模云厂商价格（H100 $1.30、H200 $1.41、B200 $1.95）。URL 参数 s_price。",
    "serving.price_placeholder": "InferenceX 价格",
    "serving.kw": "每卡全口径功耗",
    "serving.kw_help": "每卡分摊的机房总功耗（含制冷、CPU、网络），例如 1.73 kW。留空：如有，"
                       "用 InferenceX 的数字（H100 / H200 1.73 kW、B200 2.17 kW）。同时也给出按板卡 TDP 计算的 J/token。"
                       "URL 参数 s_kw。",
    "serving.kw_placeholder": "InferenceX 数字",
    "serving.answer_heading": "该速率需要的 GPU 数",
    "serving.no_layout": "在这个速率下没有候选能同时满足两个目标：请放宽某个目标，或增加候选的设备、精度或张量并行度。",
    "serving.no_layout.tpot": "TPOT 目标 {target} 比所有候选以聚合方式解码能达到的最短 TPOT {best} 还短（{cand}；"
                              "只做解码的实例没有提示词分块，会稍快一些）。",
    "serving.no_layout.ttft": "TTFT 目标 {target} 比所有候选能达到的最短 TTFT {best} 还短（{cand}，单个提示词、不排队）。",
    "serving.no_layout.both": "单看每个目标都能达到（TPOT {tpot}、TTFT {ttft}），但两者无法同时满足：快到能满足 TPOT 目标的批大小，"
                              "要么让每步 token 预算被提示词占满，要么让每步太慢，都达不到 TTFT 目标。请放宽其中一个目标，或增加张量并行度。",
    "serving.metric.gpus": "所需 GPU 数",
    "serving.metric.gpus_help": "各候选在同时满足两个目标的前提下承载该速率所需 GPU 数的最小值（按整数个副本或池计）。",
    "serving.metric.cost": "每百万输出 token 费用",
    "serving.metric.cost_help": "每 GPU 小时价格 ÷ (每卡 tokens/秒 × 3600 / 1e6)，按该速率计：H100 每小时 $1.30、"
                                "每卡 2,568 tokens/秒，得 $0.141。",
    "serving.metric.energy": "每个输出 token 的能耗（TDP）",
    "serving.metric.energy_help": "板卡功耗（TDP）÷ 每卡 tokens/秒；表中也给出按全口径功耗计算的值。",
    "serving.metric.bound": "瓶颈",
    "serving.metric.bound_help": "决定所选部署单步时间的因素：读权重、读 KV cache、算力，或网络（all-reduce）。",
    "serving.best": "最佳：**{device}**，{prec} 权重，KV {kv}，{mode}：{layout}。TTFT {ttft}，TPOT {tpot}，"
                    "每卡 **{per_gpu}**，每用户 {per_user}（稳态解析值；TTFT 是请求随机到达、计入提示词预填充排队时的{stat}；"
                    "下方的模拟器逐步运行引擎）。",
    "serving.near_capacity": "每个副本运行在其容量的 {load}，余量很小：超过 {limit} 时，流量只要比计划多几个百分点，队列就会堆积，"
                             "TTFT 无限增长（模拟的 Llama 3.1 8B 副本按 95% 的负载规划时，p90 TTFT 在 0.5 秒以内；流量多 5% 时 p90 就到 1.4-5 秒）。"
                             "勾选下方的「运行模拟器」查看这个副本的排队情况，或多规划一个副本：在目标下填写「每个副本的最高负载」，例如 80%（README 中 “Where the steady state and the simulator part” 一节）。",
    "serving.price_inferencex": "费用按 InferenceX 的超大规模云厂商每 GPU 小时价格（USD）计算；在「费用与能耗」中输入你自己的价格。",
    "serving.none": "没有满足目标的",
    "serving.pool": "{role} {n} × TP{tp}，负载 {load}",
    "serving.near_capacity.prefill": "其预填充池运行在容量的 {load}，余量很小：超过 {limit} 时，流量只要比计划多几个百分点，"
                                     "提示词队列就会堆积，TTFT 无限增长。多规划一个预填充实例：在目标下填写「每个副本的最高负载」，"
                                     "例如 80%（它同样限制每个实例）。",
    "serving.near_capacity.decode": "其解码池运行在容量的 {load}（以显存能容纳的最大批次计），余量很小：超过 {limit} 时，"
                                    "流量只要比计划多几个百分点，新请求就要等待 KV 空间，TTFT 无限增长。多规划一个解码实例："
                                    "在目标下填写「每个副本的最高负载」，例如 80%（它同样限制每个实例）。",
    "serving.headroom_pools": "已预留余量：每个副本和实例最多运行在其容量的 {max_load}（答案中的预填充池运行在 {prefill}，"
                              "解码池运行在 {decode}）。",
    "serving.role.aggregated": "副本",
    "serving.role.prefill": "预填充",
    "serving.role.decode": "解码",
    "serving.frontier_heading": "每卡 tokens/秒与每用户 tokens/秒",
    "serving.eff_source.estimate": "显存带宽按 {bw}（gpt-fast 实测区间的上端，published_mfu.toml），"
                                   "矩阵效率按 GEMM 大小（Calculon，按设备实测的最佳 GEMM 缩放），不超过同系列公开的最高 MFU，"
                                   "all-reduce 在设备的网络上计算（NVLink 按 {link_eff}，每个环步 {link_us}）",
    "serving.eff_source.bound": "规格书的 100%，通信完全隐藏",
    "serving.frontier_caption": "{eff}：{source}。每条曲线是一个设备 × 精度 × TP，每个点是一个放得下"
                                "的批大小；实心点同时满足两个目标。红线右侧满足 TPOT 目标；灰色带"
                                "是满足 TTFT 目标的点的帕累托前沿。",
    "serving.no_candidate": "没有放得下的候选：单是权重就超出了每个候选的显存。请增加每个副本的 GPU 数（TP）或降低精度。",
    "serving.fig.title": "每卡吞吐与每用户速度（输出 token）",
    "serving.fig.x": "每用户 tokens/秒（1 / TPOT）",
    "serving.fig.y": "每卡输出 tokens/秒",
    "serving.fig.label": "{device} · {prec} · TP{tp}",
    "serving.fig.hover": "<b>{label}</b><br>批大小 {batch}<br>TTFT {ttft}（按该点的请求速率排队时的{stat}）"
                         "· TPOT {tpot}<br>每卡显存 {mem}<br>瓶颈：{bound}",
    "serving.fig.pareto": "帕累托前沿",
    "serving.fig.target": "TPOT 目标（每用户 {value}）",
    "serving.bound.weights": "权重",
    "serving.bound.kv": "KV cache",
    "serving.bound.compute": "算力",
    "serving.bound.network": "网络",
    "serving.bound.budget": "KV 预算",
    "serving.col.device": "设备",
    "serving.col.precision": "精度",
    "serving.col.mode": "方式",
    "serving.col.layout": "部署",
    "serving.col.gpus": "GPU 数",
    "serving.col.ttft": "TTFT（{stat}，含排队）",
    "serving.col.tpot": "TPOT",
    "serving.col.per_gpu": "每卡输出 tokens/秒",
    "serving.col.cost": "$/Mtok",
    "serving.col.energy": "J/token（TDP）",
    "serving.col.energy_all_in": "J/token（全口径）",
    "serving.col.bound": "瓶颈",
    "serving.table_caption": "每行是该设备与精度在该速率下同时满足两个目标所需的最少 GPU 数（每卡 tokens/秒 = 速率 × 输出 token 数 ÷ GPU 数）。"
                             "TTFT 与 TPOT 取每个副本按该速率运行时的值（即它分到的请求，以及承载这些请求的批大小），而不是满载时的值。"
                             "费用与能耗是各行部署在该速率下每个输出 token 的值，随 GPU 数变化：GPU 数相同，费用就相同。「把这个配置加入方案」"
                             "加入的是最佳的聚合部署（一个副本及其批大小；方案表不支持预填充/解码分离的方案）。",
    "serving.skipped": "{n} 个候选未列入",
    "serving.skipped_row": "- {device} · {prec} · TP{tp}：{why}",
    "serving.no_fit": "放下权重后，连一个序列的 KV cache 都放不下",
    "serving.sim_heading": "从哪个速率开始排队",
    "serving.sim_none": "没有满足目标的聚合部署，无法模拟。",
    "serving.context_overflow": "**提示词长度（token）** {isl} + **输出 token 数（回答长度）** {osl} 超过了 {model} 的上下文长度 {limit} token："
                                "任何推理引擎都无法处理这样的请求。请缩短其中一项。",
    "serving.sim_too_long": "未模拟：长度分布抽到了一个 {tokens} token（提示词加输出）的请求，它的 KV cache 每卡需要 {need}，"
                            "超过一个 TP {tp} × {device} 副本能容纳的 {budget}。请调小 **离散程度**、"
                            "缩短 **提示词长度（token）**，或给每个副本更多 GPU。",
    "serving.sim_intro": "{device}、{prec}、TP{tp} 的一个副本，每个速率模拟 {n} 个请求（泊松到达；迭代级调度，"
                         "受 token 预算和 KV 上限约束）。",
    "serving.sim_spec": "开启了投机解码：模拟中的每个解码步都是一次验证，每个序列验证 γ = {gamma} 个草稿 token（草稿的各步也计入时间）。"
                        "每个请求需要几次验证，按接受率 α = {alpha} 随机抽取（平均每次 {tokens} 个 token），所以各请求的 TPOT 不同。",
    "serving.sim_not_answer": "上面的答案采用{mode}；模拟器运行的是一个聚合副本（即表中最佳的聚合部署），所以这些曲线反映的是该部署，而不是上面的答案。",
    "serving.sim_caption": "TTFT 含排队；超过容量（点线）后队列无限增长。虚线：目标。",
    "serving.rate_fig.title": "模拟的 TTFT 与 TPOT 随请求速率的变化（一个副本）",
    "serving.rate_fig.x": "请求/秒",
    "serving.rate_fig.y_ttft": "TTFT（秒）",
    "serving.rate_fig.y_tpot": "TPOT（秒）",
    "serving.rate_fig.ttft_p50": "TTFT p50",
    "serving.rate_fig.ttft_p90": "TTFT p90",
    "serving.rate_fig.ttft_p99": "TTFT p99",
    "serving.rate_fig.ttft_mean": "TTFT 均值",
    "serving.rate_fig.tpot_p50": "TPOT p50",
    "serving.rate_fig.tpot_p90": "TPOT p90",
    "serving.rate_fig.capacity": "容量",
    "serving.how.budget": "**先算 KV 预算。** 显存 M 减去 10% 预留 r 和这张卡上的权重 W（÷ tp）；每个序列需要 i + o 个 token 的 KV cache ÷ s_kv（min(tp, "
                          "KV 头数)；MLA 的潜在向量不切分）。",
    "serving.how.step": "**一步**包含 B 个解码 token（上下文为 c）和 P 个提示词 token。单步时间取显存时间与算力时间中的较大者，"
                        "再加每层两次 all-reduce（按所在网络层级的环形公式：通信量的 2(t − 1)/t，加 2(t − 1) 步、每步延迟 α；"
                        "NVLink 按 η_l = {link_eff}，α = {link_us}）。每次 all-reduce 传 (B + P)·d 个元素，"
                        "每个 a = 2 字节：即使权重是 FP8 或 FP4，GEMM 的输出也是 BF16。理论界限取 η = 1、不计通信。"
                        "t_fixed 是在「推理引擎与精确度」里输入的每步固定开销（留空为 0），估计和理论界限都加上它。",
    "serving.how.mix": "**聚合**（分块预填充）：一个提示词的 n 个新 token 分 n_c = ⌈n / (T − B)⌉ "
                       "块预填充；每步到达 a = B / o 个提示词，比例为 f 的步带有提示词 token：一块，"
                       "或在每步到达不止一个提示词时带上全部 a·n 个（引擎会把预算填满）。"
                       "这种平均分摊适用于闭环（一个序列结束时进来一个提示词）和离线基准测试。",
    "serving.how.random": "**按请求速率**（随机到达）时，整条提示词随到随进入一步：每步 0、1、2 … 个，即上一步执行期间到达的那些。"
                          "一步越长，进来的就越多，所以个数 K 比 Poisson(a) 更分散：方差为 a / (1 − u²)，u = λ·s，"
                          "s 是多一个提示词给一步增加的时间（取该均值与方差的负二项分布）。"
                          "一步的时间对其提示词 token 数是凸的（没有提示词时带宽受限，提示词多时算力受限），"
                          "所以平均单步时间对这种混合取平均，R 用同一混合。一个请求的 TPOT 是它所在 o 步的平均，"
                          "而序列更多的那一步被更多请求计入，所以 TPOT 要加上 Cov(B, t) / B：提示词的聚集"
                          "（ρ：K 在相邻两步之间的相关）与批大小的波动乘以 t_B（多一个序列给一步增加的时间）。"
                          "请求速率仍为 B / (step · o)。一个提示词自己所在的那一步除它之外还有 Poisson(a/2) 个"
                          "（在正在执行的那一步期间到达的；更早到达的计入下面的排队）。"
                          "超出预算的提示词按最后一个提示词的代价顺延到下一步。一步装不下的提示词（n_c > 1）仍按平均分摊。",
    "serving.how.agg_queue": "**聚合副本的排队**（请求随机到达，每个副本按泊松过程以 λ 到达）。"
                             "提示词先要等正在执行的这一步结束（引擎在步与步之间调度）：R 是一步剩余时间的均值，"
                             "较长的带提示词的步按其长度计入。然后等排在它前面的提示词 token："
                             "每步预算中的 T − B 个提示词 token 按到达顺序处理等待的提示词，一步可装几个，"
                             "一个也可分几步，相当于每个提示词用时 S_w 秒的单服务台（M/D/1，Pollaczek–Khinchine）。"
                             "p90 或 p99 目标取等待时间的该分位数（M/D/1 的精确分布）。与模拟器相比，"
                             "（四种负载，每格 6 次、每次 12,000 个请求，见 README）负载在容量的 90% 以内时平均 TTFT 为模拟值的 0.89-1.12 倍，"
                             "平均 TPOT 为 0.94-1.00 倍；再接近容量，规划就没有余量了。",
    "serving.how.disagg": "**预填充/解码分离：** 预填充实例（每步 k 个提示词）与解码实例之比为 r_d / r_p；KV cache 每卡经网络传输一次，"
                          "走预填充设备的跨节点网络（hardware.toml；H100：每卡 50 GB/s），按 {net_eff}，另加 {net_us}。",
    "serving.how.queue": "**预填充池的排队**（预填充/解码分离）：n 个预填充实例、每步各处理 k 个提示词，相当于 c = n·k 个服务台，"
                         "每个用时 S 秒（S 为实例的一步）。C 是 Erlang C；把 M/M/c 的等待时间减半，"
                         "是服务时间固定时的 Allen–Cunneen 近似，c = 1 时精确（Pollaczek–Khinchine）。"
                         "规划按含排队的均值满足 TTFT 目标，因此没有哪个池会接近 100% 负载。p90 或 p99 目标按 S + t_q 满足，"
                         "t_q 是等待时间的分位数：需要等待的请求，其等待时间按指数分布近似（M/M/c 时精确；G/G/c 见 Whitt 1993；"
                         "p90 与排队模拟相差 5% 以内）；c = 1 时用 M/D/1 的精确分布（Erlang 级数，"
                         "长等待用 Cramér–Lundberg 尾部）。模拟器逐步模拟引擎。",
    "serving.how.spec": "**投机解码**（Leviathan 等，2023）：每次验证得到的 token 数；验证一次读一遍"
                        "权重，每个序列计算 γ + 1 个 token，另加草稿的开销；草稿的权重和 KV cache 从 KV 预算中扣除。"
                        "模拟器为每个请求随机抽取验证次数：一次验证得到 1 + min(G, γ) 个 token，G 是第一次被拒之前"
                        "接受的草稿 token 数，P(G = k) = α^k (1 − α)。",
    "serving.how.cost": "**费用与能耗**（InferenceX）。",
}
