"""Strings of the sidebar's Model choice and the model sections of the pages (keys "arch.*")."""

EN = {
    "arch.heading": "Model",
    "arch.label": "Model",
    "arch.help": "A model from models.toml (each with its config.json or paper as the source) "
                  "drives the MFU, training and decode numbers from its architecture: active "
                  "and total parameters, attention width, KV cache, experts. \"Custom: "
                  "parameters only\" uses the parameter count you type (the chapter's lesson). "
                  "Kept in the link as model=<id>.",
    "arch.custom": "Custom: parameters only",
    "arch.option_dense": "Dense · {name}",
    "arch.option_moe": "MoE · {name}",
    "arch.pasted_option": "Pasted config · {name}",
    "arch.custom_caption": "The pages use the parameter count you type: 6·N per token for "
                            "training, N × bytes per weight for decoding.",
    "arch.file_error": "The models file could not be read, so only \"Custom: parameters "
                        "only\" is available. {message}",
    "arch.token_error": "The model in this link could not be read and was dropped: {message}",
    "arch.paste_heading": "Paste a config.json",
    "arch.paste_intro": "Your own model: paste or upload its Hugging Face config.json (Llama, "
                         "Mistral, Mixtral, Qwen2/Qwen3 and their MoE variants, DeepSeek-V2/V3, "
                         "Gemma 2, GPT-NeoX, gpt-oss). Nothing is downloaded. The architecture "
                         "travels in the link, compressed.",
    "arch.paste_label": "config.json text",
    "arch.paste_help": "The whole file, as JSON. Only the architecture keys are read "
                        "(layers, hidden size, heads, KV heads, FFN and expert sizes, ...).",
    "arch.upload_label": "…or upload config.json",
    "arch.upload_help": "A config.json file from the model's repository; it wins over the "
                         "pasted text.",
    "arch.paste_button": "Use this config",
    "arch.paste_button_help": "Read the config and select it as the model.",
    "arch.paste_empty": "Paste a config.json or choose a file first.",
    "arch.paste_error": "This config cannot be used: {message}. The model choice and every "
                         "other input are unchanged.",
    "arch.paste_ok": "Config read and selected as the model.",
    "arch.fact.total": "Total parameters",
    "arch.fact.active": "Active per token",
    "arch.fact.experts": "Experts",
    "arch.fact.experts_value": "{k} of {e} routed + {shared} shared, in {moe} of {layers} layers",
    "arch.fact.layers": "Layers",
    "arch.fact.heads": "Heads / KV heads",
    "arch.fact.heads_value": "{heads} / {kv} × {hd}",
    "arch.fact.width": "Attention width",
    "arch.fact.width_value": "{width} (d_model {d})",
    "arch.fact.kv": "KV cache per token (BF16)",
    "arch.fact.mla": "Latent attention (MLA)",
    "arch.fact.mla_value": "cache {r} + {rope} per layer",
    "arch.fact.window": "Sliding window",
    "arch.fact.window_value": "{w} tokens on {n} of {layers} layers",
    "arch.fact.convention": "Total: every stored weight (memory). Active: the weights one "
                             "token multiplies by — the LM head in, the input-embedding lookup "
                             "and the experts it is not routed to out. FLOP per token use the "
                             "active count on every page.",
    "arch.notes": "Notes on this model",
    # MFU and Training pages
    "arch.params_from_model": "N comes from the sidebar's model **{name}**: **{active}** active "
                               "parameters per token ({total} in total).",
    "arch.attn_heading": "Attention term (from the model)",
    "arch.attn_intro": "The architecture is known, so the attention term is always counted: "
                        "2 FLOP per multiply-add over the attended keys, with the attention width "
                        "heads × head dim (not d_model), sliding-window layers capped at their window.",
    "arch.recompute": "Activation recomputation",
    "arch.recompute_help": "What the backward pass recomputes (activation checkpointing). It "
                            "changes the hardware FLOP (HFU), not the useful model FLOP (MFU). "
                            "Kept in the link as recompute=none / selective / full.",
    "arch.recompute.none": "None",
    "arch.recompute.selective": "Selective (core attention)",
    "arch.recompute.full": "Full (one more forward pass)",
    "arch.metric.hfu": "HFU",
    "arch.metric.hfu_help": "Hardware FLOPs Utilisation: like MFU but counting the work the "
                             "GPUs really do, recomputation included ({recompute}).",
    "arch.metric.hw_fpt": "Hardware FLOP per token",
    "arch.metric.hw_fpt_help": "Model FLOP per token plus what recomputation runs again: full "
                                "recompute gives 8N instead of 6N and 4/3 of the attention term.",
    "arch.hfu_note": "Published reports usually quote **MFU** (PaLM, Chinchilla-era papers, "
                      "MosaicML's MFU column): recomputed work is not useful work. Megatron-LM's "
                      "papers and llm-foundry's HFU column count it (HFU); with full recomputation "
                      "HFU = 4/3 × MFU.",
    "arch.breakdown": "Per token: matmuls 6·N = {matmul}, attention {attn}, total {total} "
                       "(attention {share}).",
    "arch.causal_yes": "causal (each query sees the keys before it)",
    "arch.causal_no": "not causal (every key counted, the PaLM / llm-foundry convention)",
    "arch.how.fpt_model": "FLOP per token of the chosen model: 6 per active parameter (forward 2, "
                           "backward 4) plus three times the forward attention A.",
    "arch.how.attn": "Forward attention per token: QKᵀ and attention·V, 2 FLOP per multiply-add "
                      "over k attended keys, width heads × head dim. Mask: {causal}. {groups}.",
    "arch.how.attn_group_full": "{n} full-attention layers, k = {k}",
    "arch.how.attn_group_window": "{n} sliding-window layers (window {w}), k = {k}",
    "arch.how.hw_selective": "Selective recomputation re-runs the core attention once more in "
                              "the backward pass (Korthikanti et al. 2022).",
    "arch.how.hw_full": "Full recomputation re-runs every layer's forward pass: 8N instead of "
                         "6N, and 4/3 of the attention term.",
    "arch.how.hfu": "HFU counts the hardware FLOP per token instead of the model FLOP.",
    "arch.training.hfu": "At {mfu} MFU with {recompute} recomputation the GPUs run at "
                          "**{hfu} HFU** (the hardware FLOP the job really executes).",
    "arch.training.inverse_heading": "Check a published run: from GPU-hours to MFU",
    "arch.training.gpu_hours": "GPU-hours of the run (optional)",
    "arch.training.gpu_hours_help": "The GPU-hours a run reports (e.g. 30.84M for Llama 3.1 "
                                     "405B on H100), with the tokens above and the sidebar's "
                                     "device: the MFU those hours imply. Kept in the link as "
                                     "gpu_hours.",
    "arch.training.implied": "{hours} GPU-hours for {tokens} tokens imply an MFU of **{mfu}** "
                              "(averaged over the whole run, restarts and stalls included).",
    "arch.training.implied_over": "Above 100 %: the GPU-hours, tokens, model or peak do not fit "
                                   "together (a sparse peak? GPU-hours of a different run?).",
    "arch.how.training_flops": "Training FLOP of the chosen model: FLOP per token (attention "
                                "included) times the training tokens.",
    "arch.how.implied_mfu": "The MFU a run's GPU-hours imply: the GPU-hours formula solved for MFU.",
    # Decode page
    "arch.decode.kv_heading": "KV cache (from the model)",
    "arch.decode.kv_from_model": "Layers, KV heads and head size come from the model (GQA, MQA "
                                  "or MLA as the architecture has it; sliding-window layers keep "
                                  "at most their window).",
    "arch.decode.prompt": "Prompt length for prefill (optional, tokens)",
    "arch.decode.prompt_help": "Tokens of the prompt processed before the first new token, e.g. "
                                "2048. Gives the time-to-first-token bound beside the per-token "
                                "time. Kept in the link as prompt.",
    "arch.decode.tp_comm": "Add the tensor-parallel all-reduce time",
    "arch.decode.tp_comm_help": "With several GPUs, each layer ends in two all-reduces of the "
                                 "batch's hidden states over the device's interconnect (ring, "
                                 "one direction = half the hardware.toml figure). Latency is not "
                                 "counted. Kept in the link as tp_comm=true/false.",
    "arch.decode.bound_help": "Memory bandwidth ÷ the bytes one token reads: the dense weights, "
                               "the experts it is routed to, and its KV cache (when on).",
    "arch.decode.headline": "**{bw} ÷ ({read} weights read + {kv} KV cache) = {bound}** for one request ({weights}). Each GPU holds {total} of weights.",
    "arch.decode.no_fit_b1": "One request does not fit: the total weights are {total} ({weights}) "
                              "plus {kv} of KV cache, more than {mem} ({gpus}). Use more "
                              "GPUs or fewer bytes per weight.",
    "arch.decode.moe": "Mixture of experts: at batch {batch} each MoE layer reads about **{d} of {e} experts** ({d1} at batch 1), so a step reads {read} of weights per GPU, less than the {total} each GPU holds. Assumption: uniform routing (real routers are skewed and touch fewer).",
    "arch.decode.moe_b1": "Mixture of experts: one token reads **{d1} of {e} experts** per MoE layer, so a step reads {read} of weights per GPU while each GPU holds {total}. Larger batches route to more experts (uniform routing assumed).",
    "arch.decode.comm": "Tensor-parallel all-reduce: **{time}** per step on {gpus} GPUs at {link} "
                         "per direction, added to the step time.",
    "arch.decode.comm_unknown": "The device has no interconnect figure, so no all-reduce time is added.",
    "arch.decode.prefill_heading": "Prefill: time to first token",
    "arch.decode.ttft": "Time to first token (bound)",
    "arch.decode.ttft_help": "The prompt's forward FLOP over the peak, or reading the weights "
                              "once, whichever is longer; queueing and scheduling not counted.",
    "arch.decode.per_token": "Then per token (batch 1)",
    "arch.decode.per_token_help": "One decode step at batch 1 after the prompt.",
    "arch.decode.prefill_flops": "Prefill FLOP",
    "arch.decode.prefill_flops_help": "P × (2 FLOP per weight + causal attention), logits for the last position only; multi-head latent attention in its non-absorbed form, as engines run prefill.",
    "arch.decode.prefill_flops_params_help": "2 FLOP per parameter per prompt token (2·N·P); "
                                              "no attention term without a model.",
    "arch.decode.prefill_params_note": "Parameters only: the attention term is left out; choose a "
                                        "model in the sidebar to count it.",
    "arch.how.prefill_params": "Time to first token from the parameter count: the prompt's 2·N·P "
                                "forward FLOP over the peak, or one read of the weights:",
    "arch.decode.prefill_compute": "A {prompt}-token prompt is compute-bound: {compute} of math "
                                    "against {memory} to read the weights.",
    "arch.decode.prefill_memory": "A {prompt}-token prompt is still bandwidth-bound: reading the "
                                   "weights takes {memory}, the math only {compute}.",
    "arch.decode.roofline_text": "At batch 1 a decode step of this model does about **{intensity} "
                                  "FLOP per byte** (arithmetic intensity), far left of the ridge "
                                  "at {ridge}: MFU {mfu1}. At batch {batch}: {mfub}.",
    "arch.how.decode_total": "Memory holds every weight (all experts):",
    "arch.how.decode_moe": "Expected distinct experts per MoE layer for b tokens choosing k of E "
                            "uniformly, and the weights one step reads (dense part once, routed "
                            "experts only those used; the untied input table is a gather of b rows):",
    "arch.how.decode_dense": "Weights one step reads (the untied input table is a gather of b rows):",
    "arch.how.decode_kv": "KV cache per token of context; at {ctx} tokens one sequence holds "
                           "{seq}{windows}:",
    "arch.how.decode_windows": " (sliding-window layers capped at their window)",
    "arch.how.decode_step": "One decode step for batch b = {batch}: the slower of reading the "
                             "bytes and doing the math (2 FLOP per active weight plus attention "
                             "over the context), plus the all-reduce time when on:",
    "arch.how.decode_knee": "The knee (critical batch) where the two terms are equal, found "
                             "numerically (the MoE weight read grows with b):",
    "arch.how.prefill": "Time to first token: the prompt's forward FLOP (causal attention, logits "
                         "of the last position only) over the peak, or one read of the weights:",
    "arch.how.comm": "Ring all-reduce, two per layer, of b × d_model BF16 values, 2(t−1)/t of "
                      "them over each GPU's link:",
    # training memory
    "arch.mem.heading": "Training memory per GPU",
    "arch.mem.needs_model": "Choose a model in the sidebar to see the memory per GPU: the "
                             "activations need the layers, width and heads.",
    "arch.mem.zero": "Sharding (ZeRO / FSDP)",
    "arch.mem.zero_help": "What is split across the data-parallel GPUs. Kept in the link as "
                           "zero=0…3.",
    "arch.mem.zero.0": "0: none (plain data parallel)",
    "arch.mem.zero.1": "1: optimizer states",
    "arch.mem.zero.2": "2: + gradients",
    "arch.mem.zero.3": "3: + weights (FSDP full shard)",
    "arch.mem.optim": "Optimizer",
    "arch.mem.optim_help": "Bytes of optimizer state per parameter. Adam in mixed precision "
                            "keeps an FP32 copy of the weights and two FP32 moments: 12 bytes.",
    "arch.mem.optim.adam-mixed": "Adam, mixed precision (FP32 gradients 4 B + states 12 B/param)",
    "arch.mem.optim.adam-fp32": "Adam, FP32 weights and gradients (4 + 4 + 8 B/param)",
    "arch.mem.optim.adam-8bit": "Adam, 8-bit states (2 B/param)",
    "arch.mem.optim.sgd-momentum": "SGD with momentum (4 B/param)",
    "arch.mem.mbs": "Micro-batch (sequences per GPU)",
    "arch.mem.mbs_help": "Sequences each GPU processes in one forward/backward pass.",
    "arch.mem.tp": "Tensor-parallel size",
    "arch.mem.tp_help": "GPUs one layer is split across (with sequence parallelism).",
    "arch.mem.pp": "Pipeline-parallel size",
    "arch.mem.pp_help": "Pipeline stages; each GPU holds the layers of one stage.",
    "arch.mem.bad_split": "{gpus} GPUs cannot be split into tensor {tp} × pipeline {pp} × data "
                           "parallel groups: the GPUs must be a multiple of {tp} × {pp}.",
    "arch.mem.flash": "FlashAttention (scores not stored)",
    "arch.mem.flash_help": "FlashAttention never stores the s × s attention scores, which "
                            "removes Korthikanti's 5·a·s/h term even without recomputation. "
                            "Kept in the link as flash=true/false.",
    "arch.mem.weights": "Weights",
    "arch.mem.grads": "Gradients",
    "arch.mem.optimizer": "Optimizer states",
    "arch.mem.acts": "Activations",
    "arch.mem.acts_help": "One micro-batch, recomputation: {recompute} (Korthikanti et al. 2022).",
    "arch.mem.total": "Total per GPU",
    "arch.mem.fits": "**{total}** per GPU fits in {mem} ({pct}), {diff} to spare.",
    "arch.mem.tight": "**{total}** per GPU is {pct} of {mem}: it fits on paper, but the CUDA "
                       "context, fragmentation and temporary buffers need the last 10 %.",
    "arch.mem.no_fit": "**{total}** per GPU does not fit in {mem}: {diff} too much ({pct}). Shard "
                        "more (a higher ZeRO stage), recompute, or use a smaller micro-batch.",
    "arch.mem.unknown_memory": "The device's memory is not known, so the fit cannot be checked.",
    "arch.mem.assumptions": "Weights and gradients in BF16 (2 bytes; 4 with FP32 Adam), placed "
                             "as tensor parallelism places them; the layers split evenly over the "
                             "pipeline stages, the embedding on the first, which is the stage "
                             "shown when there is a pipeline (it also holds the most micro-batches). Activations per Korthikanti et al. 2022 (16-bit, "
                             "GPT layer); the logits, the CUDA context and fragmentation are left "
                             "to the 10 % reserve.",
    "arch.how.mem_states": "Weights, gradients and optimizer states per GPU: N parameters split "
                            "over tensor × pipeline parallel, then ZeRO stage {zero} shards "
                            "them over the {dp} data-parallel GPUs.",
    "arch.how.mem_acts": "Activations of one micro-batch per layer (Korthikanti et al. 2022), "
                          "times the layers on this GPU.",
}

ZH = {
    "arch.heading": "模型",
    "arch.label": "模型",
    "arch.help": "从 models.toml 选一个模型（每个都注明来源：config.json 或论文），MFU、训练和解码的数字"
                  "就按它的结构来算：激活参数和总参数、注意力宽度、KV cache、专家。「自定义：只填参数量」"
                  "用你输入的参数量（本章的思路）。链接里记作 model=<id>。",
    "arch.custom": "自定义：只填参数量",
    "arch.option_dense": "稠密 · {name}",
    "arch.option_moe": "MoE · {name}",
    "arch.pasted_option": "粘贴的配置 · {name}",
    "arch.custom_caption": "各页面使用你输入的参数量：训练按每 token 6·N，解码按 N × 每个权重的字节数。",
    "arch.file_error": "模型配置文件读取失败，目前只能用「自定义：只填参数量」。{message}",
    "arch.token_error": "链接里的模型无法读取，已忽略：{message}",
    "arch.paste_heading": "粘贴 config.json",
    "arch.paste_intro": "你自己的模型：粘贴或上传它的 Hugging Face config.json（Llama、Mistral、Mixtral、"
                         "Qwen2/Qwen3 及其 MoE 版本、DeepSeek-V2/V3、Gemma 2、GPT-NeoX、gpt-oss）。"
                         "不会下载任何东西。模型结构会压缩后放进链接。",
    "arch.paste_label": "config.json 内容",
    "arch.paste_help": "整个文件（JSON）。只读取结构相关的键（层数、隐藏维度、头数、KV 头数、FFN 和专家大小等）。",
    "arch.upload_label": "……或上传 config.json",
    "arch.upload_help": "模型仓库里的 config.json 文件；上传的文件优先于粘贴的文本。",
    "arch.paste_button": "使用这个配置",
    "arch.paste_button_help": "读取配置并把它选为当前模型。",
    "arch.paste_empty": "请先粘贴 config.json 或选择文件。",
    "arch.paste_error": "这个配置无法使用：{message}。模型选择和其他所有输入都保持不变。",
    "arch.paste_ok": "配置已读取，并已选为当前模型。",
    "arch.fact.total": "总参数",
    "arch.fact.active": "每 token 激活参数",
    "arch.fact.experts": "专家",
    "arch.fact.experts_value": "{e} 个路由专家中选 {k} 个 + {shared} 个共享专家，{layers} 层中有 {moe} 层",
    "arch.fact.layers": "层数",
    "arch.fact.heads": "头数 / KV 头数",
    "arch.fact.heads_value": "{heads} / {kv} × {hd}",
    "arch.fact.width": "注意力宽度",
    "arch.fact.width_value": "{width}（d_model {d}）",
    "arch.fact.kv": "每 token 的 KV cache（BF16）",
    "arch.fact.mla": "潜在注意力（MLA）",
    "arch.fact.mla_value": "每层缓存 {r} + {rope}",
    "arch.fact.window": "滑动窗口",
    "arch.fact.window_value": "{layers} 层中有 {n} 层，窗口 {w} 个 token",
    "arch.fact.convention": "总参数：存下来的全部权重（决定显存）。激活参数：一个 token 要乘到的权重——算上输出头（lm_head），不算输入词嵌入的查表，"
                             "也不算它没被路由到的专家。各页面的每 token FLOP 都用激活参数。",
    "arch.notes": "关于这个模型的说明",
    "arch.params_from_model": "N 来自侧边栏选的模型 **{name}**：每 token **{active}** 激活参数（总共 {total}）。",
    "arch.attn_heading": "注意力项（来自模型）",
    "arch.attn_intro": "模型结构已知，所以注意力项总会计入：对被关注的每个 key 每次乘加算 2 FLOP，"
                        "注意力宽度是头数 × 每头维度（不是 d_model），滑动窗口层最多只看窗口内的 key。",
    "arch.recompute": "激活重计算",
    "arch.recompute_help": "反向传播时重新计算哪些激活（激活检查点）。它改变硬件 FLOP（HFU），不改变有效的模型 FLOP（MFU）。链接里记作 recompute=none / selective / full。",
    "arch.recompute.none": "不重计算",
    "arch.recompute.selective": "选择性（只重计算注意力核心）",
    "arch.recompute.full": "全量（多一次前向）",
    "arch.metric.hfu": "HFU",
    "arch.metric.hfu_help": "硬件算力利用率：和 MFU 一样，但按 GPU 实际做的计算来算，包括重计算（{recompute}）。",
    "arch.metric.hw_fpt": "每 token 硬件 FLOP",
    "arch.metric.hw_fpt_help": "每 token 模型 FLOP 加上重计算再做一遍的部分：全量重计算是 8N 而不是 6N，注意力项也变成 4/3 倍。",
    "arch.hfu_note": "公开报告通常给的是 **MFU**（PaLM、Chinchilla 时代的论文、MosaicML 的 MFU 一栏）："
                      "重计算的部分不是有效计算。Megatron-LM 的论文和 llm-foundry 的 HFU 一栏会把它算进去（HFU）；"
                      "全量重计算时 HFU = 4/3 × MFU。",
    "arch.breakdown": "每 token：矩阵乘 6·N = {matmul}，注意力 {attn}，合计 {total}（注意力占 {share}）。",
    "arch.causal_yes": "因果（每个 query 只看它之前的 key）",
    "arch.causal_no": "非因果（所有 key 都算，PaLM / llm-foundry 的算法）",
    "arch.how.fpt_model": "所选模型的每 token FLOP：每个激活参数 6 FLOP（前向 2、反向 4），加上前向注意力 A 的 3 倍。",
    "arch.how.attn": "每 token 的前向注意力：QKᵀ 和注意力·V，对 k 个被关注的 key 每次乘加 2 FLOP，宽度为头数 × 每头维度。"
                      "掩码：{causal}。{groups}。",
    "arch.how.attn_group_full": "{n} 个全注意力层，k = {k}",
    "arch.how.attn_group_window": "{n} 个滑动窗口层（窗口 {w}），k = {k}",
    "arch.how.hw_selective": "选择性重计算在反向传播时把注意力核心再算一遍（Korthikanti 等，2022）。",
    "arch.how.hw_full": "全量重计算把每层的前向再跑一遍：8N 而不是 6N，注意力项也是 4/3 倍。",
    "arch.how.hfu": "HFU 用每 token 硬件 FLOP 代替模型 FLOP。",
    "arch.training.hfu": "MFU 为 {mfu}、激活重计算选「{recompute}」时，GPU 实际跑在 **{hfu} HFU**（任务真正执行的硬件 FLOP）。",
    "arch.training.inverse_heading": "核对公开的训练：从 GPU 小时反推 MFU",
    "arch.training.gpu_hours": "这次训练的 GPU 小时（可选）",
    "arch.training.gpu_hours_help": "报告里给出的 GPU 小时（例如 Llama 3.1 405B 在 H100 上是 30.84M），结合上面的 token 数和侧边栏的设备，"
                                     "算出这些 GPU 小时对应的 MFU。链接里记作 gpu_hours。",
    "arch.training.implied": "{tokens} 个 token 用了 {hours} GPU 小时，对应的 MFU 是 **{mfu}**（整个训练的平均值，包括重启和停顿）。",
    "arch.training.implied_over": "超过 100%：GPU 小时、token 数、模型或峰值对不上（用了稀疏峰值？是另一次训练的 GPU 小时？）。",
    "arch.how.training_flops": "所选模型的训练 FLOP：每 token FLOP（含注意力）乘以训练 token 数。",
    "arch.how.implied_mfu": "GPU 小时对应的 MFU：把 GPU 小时的公式反过来解出 MFU。",
    "arch.decode.kv_heading": "KV cache（来自模型）",
    "arch.decode.kv_from_model": "层数、KV 头数和每头维度来自模型（按结构是 GQA、MQA 或 MLA；滑动窗口层最多只存窗口内的 token）。",
    "arch.decode.prompt": "预填充的提示词长度（可选，token）",
    "arch.decode.prompt_help": "生成第一个新 token 之前要处理的提示词 token 数，例如 2048。给出首 token 时间的下限，和每 token 时间并列。"
                                "链接里记作 prompt。",
    "arch.decode.tp_comm": "计入张量并行的 all-reduce 时间",
    "arch.decode.tp_comm_help": "用多张卡做张量并行时，每层结束要对这批的隐藏状态做两次 all-reduce，走设备的互联（ring 算法，单方向 = hardware.toml 数字的一半）。"
                                 "不计延迟。链接里记作 tp_comm=true/false。",
    "arch.decode.bound_help": "显存带宽 ÷ 一个 token 要读的字节：稠密权重、它被路由到的专家，以及它的 KV cache（打开时）。",
    "arch.decode.headline": "一个请求（{weights}）的上限：**{bw} ÷ (读 {read} 权重 + {kv} KV cache) = {bound}**。"
                             "每张卡存 {total} 权重。",
    "arch.decode.no_fit_b1": "一个请求都放不下：全部权重 {total}（{weights}）加上 {kv} KV cache，超过了 {mem}（{gpus}）。请用更多 GPU 或每个权重更少的字节。",
    "arch.decode.moe": "混合专家：批大小 {batch} 时每个 MoE 层大约要读 **{e} 个专家中的 {d} 个**（批大小 1 时是 {d1} 个），所以每张卡一步读 {read} 权重，少于每张卡存的 {total}。假设：均匀路由（真实路由有偏斜，读得更少）。",
    "arch.decode.moe_b1": "混合专家：一个 token 在每个 MoE 层只读 **{e} 个专家中的 {d1} 个**，所以每张卡一步读 {read} 权重，而每张卡要存 {total}。批越大路由到的专家越多（假设均匀路由）。",
    "arch.decode.comm": "张量并行 all-reduce：{gpus} 张卡、单方向 {link} 时每步 **{time}**，加到单步时间上。",
    "arch.decode.comm_unknown": "设备没有互联带宽数据，所以没有加 all-reduce 时间。",
    "arch.decode.prefill_heading": "预填充：首 token 时间",
    "arch.decode.ttft": "首 token 时间（下限）",
    "arch.decode.ttft_help": "提示词的前向 FLOP ÷ 峰值算力，或把权重读一遍的时间，取较长者；不计排队和调度。",
    "arch.decode.per_token": "之后每 token（批大小 1）",
    "arch.decode.per_token_help": "处理完提示词后，批大小 1 的一个解码步。",
    "arch.decode.prefill_flops": "预填充 FLOP",
    "arch.decode.prefill_flops_help": "P × (每个权重 2 FLOP + 因果注意力)，只算最后一个位置的 logits；多头潜在注意力按推理引擎预填充时的非吸收形式计算。",
    "arch.decode.prefill_flops_params_help": "每个提示词 token 每个参数 2 FLOP（2·N·P）；没有选模型时不含注意力项。",
    "arch.decode.prefill_params_note": "只填了参数量：不含注意力项；在侧边栏选一个模型才能把它算进去。",
    "arch.how.prefill_params": "由参数量得到的首 token 时间：提示词的 2·N·P 前向 FLOP ÷ 峰值算力，或把权重读一遍：",
    "arch.decode.prefill_compute": "{prompt} 个 token 的提示词是算力受限的：计算要 {compute}，读权重只要 {memory}。",
    "arch.decode.prefill_memory": "{prompt} 个 token 的提示词仍是带宽受限的：读权重要 {memory}，计算只要 {compute}。",
    "arch.decode.roofline_text": "批大小 1 时，这个模型的一个解码步每字节只做约 **{intensity} FLOP**（算术强度），"
                                  "远在拐点 {ridge} 的左边：MFU {mfu1}。批大小 {batch} 时：{mfub}。",
    "arch.how.decode_total": "显存里要放下全部权重（所有专家）：",
    "arch.how.decode_moe": "b 个 token 各自从 E 个专家里均匀选 k 个时，每个 MoE 层用到的不同专家数的期望，以及一步要读的权重（稠密部分读一次，"
                            "路由专家只读用到的；未共享的输入词嵌入表只取 b 行）：",
    "arch.how.decode_dense": "一步要读的权重（未共享的输入词嵌入表只取 b 行）：",
    "arch.how.decode_kv": "每个上下文 token 的 KV cache；{ctx} 个 token 时一条序列占 {seq}{windows}：",
    "arch.how.decode_windows": "（滑动窗口层最多存窗口大小）",
    "arch.how.decode_step": "批大小 b = {batch} 的一个解码步：读字节和做计算（每个激活权重 2 FLOP 加上对上下文的注意力）取较慢者，打开时再加 all-reduce 时间：",
    "arch.how.decode_knee": "两项相等时的临界批大小，用数值方法求（MoE 要读的权重随 b 增加）：",
    "arch.how.prefill": "首 token 时间：提示词的前向 FLOP（因果注意力，只算最后一个位置的 logits）÷ 峰值算力，或者把权重读一遍：",
    "arch.how.comm": "Ring all-reduce，每层两次，每次 b × d_model 个 BF16 数，每卡的链路上走其中的 2(t−1)/t：",
    "arch.mem.heading": "每卡的训练显存",
    "arch.mem.needs_model": "在侧边栏选一个模型，才能看到每卡的显存：激活需要层数、宽度和头数。",
    "arch.mem.zero": "切分（ZeRO / FSDP）",
    "arch.mem.zero_help": "哪些东西在数据并行的 GPU 之间切分。链接里记作 zero=0…3。",
    "arch.mem.zero.0": "0：不切分（普通数据并行）",
    "arch.mem.zero.1": "1：优化器状态",
    "arch.mem.zero.2": "2：+ 梯度",
    "arch.mem.zero.3": "3：+ 权重（FSDP 全切分）",
    "arch.mem.optim": "优化器",
    "arch.mem.optim_help": "每个参数的优化器状态字节数。混合精度 Adam 保存一份 FP32 权重和两个 FP32 动量：12 字节。",
    "arch.mem.optim.adam-mixed": "Adam，混合精度（FP32 梯度 4 字节 + 状态 12 字节/参数）",
    "arch.mem.optim.adam-fp32": "Adam，FP32 权重和梯度（4 + 4 + 8 字节/参数）",
    "arch.mem.optim.adam-8bit": "Adam，8 位状态（2 字节/参数）",
    "arch.mem.optim.sgd-momentum": "带动量的 SGD（4 字节/参数）",
    "arch.mem.mbs": "微批大小（每卡的序列数）",
    "arch.mem.mbs_help": "每卡一次前向/反向处理的序列数。",
    "arch.mem.tp": "张量并行度",
    "arch.mem.tp_help": "一层被切到几张卡上（带序列并行）。",
    "arch.mem.pp": "流水线并行度",
    "arch.mem.pp_help": "流水线的级数；每卡只放一级的层。",
    "arch.mem.bad_split": "{gpus} 张卡无法分成张量并行 {tp} × 流水线 {pp} × 数据并行：GPU 数必须是 {tp} × {pp} 的倍数。",
    "arch.mem.flash": "FlashAttention（不保存注意力分数）",
    "arch.mem.flash_help": "FlashAttention 从不保存 s × s 的注意力分数，所以即使不重计算，Korthikanti 公式里的 5·a·s/h 项也没有了。"
                            "链接里记作 flash=true/false。",
    "arch.mem.weights": "权重",
    "arch.mem.grads": "梯度",
    "arch.mem.optimizer": "优化器状态",
    "arch.mem.acts": "激活",
    "arch.mem.acts_help": "一个微批，重计算：{recompute}（Korthikanti 等，2022）。",
    "arch.mem.total": "每卡合计",
    "arch.mem.fits": "每卡 **{total}**，装得进 {mem}（{pct}），还剩 {diff}。",
    "arch.mem.tight": "每卡 **{total}**，占 {mem} 的 {pct}：纸面上装得下，但 CUDA 上下文、碎片和临时缓冲需要最后那 10%。",
    "arch.mem.no_fit": "每卡 **{total}**，装不进 {mem}：多了 {diff}（{pct}）。请切分得更多（更高的 ZeRO 阶段）、重计算，或减小微批。",
    "arch.mem.unknown_memory": "不知道设备的显存大小，无法判断是否装得下。",
    "arch.mem.assumptions": "权重和梯度按 BF16（2 字节；FP32 Adam 为 4 字节），按张量并行的方式放置；各层在流水线各级间平均分配，词嵌入在第一级；有流水线时这里显示的就是第一级（它同时持有最多的微批）。"
                             "激活按 Korthikanti 等（2022）的公式（16 位，GPT 结构的层）；logits、CUDA 上下文和碎片留给 10% 的余量。",
    "arch.how.mem_states": "每卡的权重、梯度和优化器状态：N 个参数先按张量并行 × 流水线并行切分，再由 ZeRO 阶段 {zero} 在 {dp} 张数据并行 GPU 上切分。",
    "arch.how.mem_acts": "一个微批每层的激活（Korthikanti 等，2022），乘以这张卡上的层数。",
}
