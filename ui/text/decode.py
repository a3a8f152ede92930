"""Strings of the decode-speed page (keys "decode.*")."""

EN = {
    "decode.title": "Decode speed: bandwidth ÷ model size",
    "decode.intro": "Generating one token reads **every weight once**. So the fastest a single "
                    "request can decode is the memory bandwidth divided by the model's size in "
                    "bytes — the most useful mental arithmetic in inference. It explains why "
                    "quantisation speeds decoding up directly (half the bytes, twice the speed) "
                    "and why batching is nearly free (one read of the weights serves every "
                    "request in the batch).",
    "decode.seed_button": "Seed example: 7B BF16 on 2 TB/s",
    "decode.seed_button_help": "Sets 7B parameters, BF16 weights, batch 1, and a custom device "
                               "with 2 TB/s and 312 TFLOP/s: 2 TB/s ÷ 14 GB ≈ 143 tokens/s. "
                               "(The A100 80GB preset's 2.039 TB/s gives ≈ 146.)",
    "decode.inputs_heading": "The model and the serving setup",
    "decode.params": "Model parameters N",
    "decode.params_help": "Parameter count, e.g. 7B, 70B (for MoE: the parameters read per "
                          "token, i.e. the active ones at batch 1).",
    "decode.weights": "Weight precision",
    "decode.weights_help": "How the weights are stored: BF16/FP16 = 2 bytes per parameter, "
                           "FP8/INT8 = 1, INT4 = 0.5 (quantisation scales ignored).",
    "decode.dtype_label": "{name} ({bytes} bytes)",
    "decode.gpus": "Tensor-parallel GPUs (tp)",
    "decode.gpus_help": "GPUs one model copy is split across with tensor parallelism (Megatron-LM). Each GPU holds and reads its share: the weights ÷ tp, the KV cache ÷ min(tp, KV heads) (beyond the KV heads they are copied; MLA's latent cache is on every GPU). Must divide the attention heads. The all-reduce per layer is ignored unless switched on below. Kept in the link as tp.",
    "decode.batch": "Batch size (concurrent requests)",
    "decode.batch_help": "Sequences decoded together in one step. Every step reads the weights "
                         "once for the whole batch.",
    "decode.kv_heading": "KV cache (optional)",
    "decode.kv": "Include the KV cache",
    "decode.kv_help": "Each step also reads the keys and values of every earlier token, per "
                      "request. Long contexts and large batches make this read as big as the "
                      "weights.",
    "decode.layers": "Layers L",
    "decode.layers_help": "Transformer blocks, e.g. 32 for a 7B Llama, 80 for 70B.",
    "decode.kv_heads": "KV heads",
    "decode.kv_heads_help": "Key/value heads: equal to the attention heads without GQA "
                            "(32 for a 7B Llama), fewer with GQA/MQA (8 for Llama-2/3 70B).",
    "decode.head_dim": "Head dimension",
    "decode.head_dim_help": "Size of one head, usually 128.",
    "decode.context": "Context length (tokens)",
    "decode.context_help": "Tokens already in each request's cache (prompt + generated), "
                           "e.g. 4096, 32k.",
    "decode.kv_dtype": "KV cache precision",
    "decode.kv_dtype_help": "Bytes per cached element: BF16/FP16 = 2, FP8/INT8 = 1.",
    "decode.kv_missing": "Fix the KV-cache inputs or turn the KV cache off.",
    "decode.measured": "Measured decode speed (optional, tokens/s)",
    "decode.measured_help": "Tokens/s you measured for the whole batch at the batch size above, e.g. 120, 3.5k tok/s "
                            "or 120 tokens/秒. The page turns it into the bandwidth you actually use.",
    "decode.results_heading": "Result",
    "decode.metric.bound": "Ceiling, 1 request",
    "decode.metric.bound_help": "Memory bandwidth ÷ the bytes one token reads: the weights "
                                "once, plus the request's whole KV cache when it is switched "
                                "on (batch 1). Shows the memory needed instead when it does "
                                "not fit.",
    "decode.metric.needs": "Memory per GPU, batch {batch}",
    "decode.metric.has": "Memory of one GPU",
    "decode.metric.throughput": "Total, batch {batch}",
    "decode.metric.throughput_help": "Tokens/s of the whole batch: batch ÷ step time. A "
                                     "ceiling, not a prediction. When the weights and KV "
                                     "caches of this batch do not fit in memory, the memory "
                                     "they would need is shown instead.",
    "decode.metric.per_request": "Per request, batch {batch}",
    "decode.metric.per_request_help": "The speed one user sees: one token per step.",
    "decode.headline": "**{bw} ÷ {model} ({weights} weights) = {bound}** for one request. No "
                       "kernel tuning gets a single request past this: it is a hardware limit.",
    "decode.headline_kv": "**{bw} ÷ ({model} {weights} weights + {kv} KV cache) = {bound}** "
                          "for one request: every token reads the weights and the request's "
                          "whole cache (without the cache: {without}). No kernel tuning gets "
                          "a single request past this: it is a hardware limit.",
    "decode.headline_no_fit": "One request does not fit: each GPU needs {need} (its weights and its share of one request's KV cache) but holds {mem}, so no speed is shown. Use more GPUs, a smaller weight or KV precision, or a shorter context.",
    "decode.max_fit": "Largest batch that fits in memory: **{batch}** (each request adds {kv} of KV cache per GPU); marked on the chart.",
    "decode.max_fit_none": "Not even one request fits in memory with this context.",
    "decode.knee_text": "**The knee at batch ≈ {knee}.** Below it each step is limited by "
                        "reading the weights, and the step takes about as long for 1 request "
                        "as for {knee}: batching is nearly free — throughput grows with the "
                        "batch while each request still gets about {per}. Above the knee "
                        "the math itself becomes the limit: throughput flattens at about "
                        "{thr} and each request slows down.",
    "decode.knee_never": "**No knee:** with this KV cache every extra request reads more bytes "
                         "than its math costs, so decoding stays bandwidth-bound at any batch "
                         "size. Shorter contexts, fewer KV heads (GQA) or an FP8 cache help.",
    "decode.fits": "Fits: each GPU holds weights {model} + KV cache {kv} = {total} of its {mem} ({gpus}), leaving at least {reserve} for activations and the runtime.",
    "decode.fits_tight": "Tight: each GPU's weights {model} + KV cache {kv} = {total} fit in its {mem} ({gpus}) but leave less than the {reserve} kept free for activations and the runtime (vLLM's default).",
    "decode.no_fit": "Does not fit: each GPU would hold weights {model} + KV cache {kv} = {total}, more than its {mem} ({gpus}). Use more GPUs, a smaller weight or KV precision, or a smaller batch or context.",
    "decode.kv_not_counted": "(not counted: turn it on under KV cache)",
    "decode.memory_unknown": "The custom device has no memory size, so the fit check is "
                             "skipped.",
    "decode.measured_result": "Measured {measured} means the weights and cache stream at "
                              "**{ach}**, **{mbu}** of the {bw} bound.",
    "decode.measured_advice": "{result} Above about 70–80 % the kernels are near the hardware limit; much lower means overheads (launches, small batches, synchronisation) are worth chasing.",
    "decode.measured_over": "{result} More than the hardware can stream: check the measurement, the batch size and the weight precision.",
    "decode.roofline_heading": "Why decode MFU is low: the physics",
    "decode.step_name": "decode step, batch {batch}",
    "decode.roofline_text": "At batch 1 a decode step does about **{intensity} FLOP per byte** "
                            "it reads — far left of the ridge ({ridge}). The step sits on the "
                            "memory slope, so the best possible MFU is intensity ÷ ridge = "
                            "2 ÷ (bytes per parameter × ridge) = 2 ÷ ({bpp} × {ridge}) = "
                            "**{mfu1}**, however good the kernels are. It grows about in "
                            "proportion to the batch: {reach}{at_batch} Inference is sped up "
                            "by raising the intensity (batching, quantisation, speculative "
                            "decoding), not by buying more FLOP/s.",
    "decode.roofline_text_kv": "At batch 1 a decode step does about **{intensity} FLOP per "
                               "byte** it reads (the weights and the request's KV cache) — "
                               "far left of the ridge ({ridge}). The best possible MFU is "
                               "**{mfu1}** (without the cache 2 ÷ (bytes per parameter × "
                               "ridge) = {rule}), however good the kernels are. It grows "
                               "with the batch, more slowly than without the cache because "
                               "every request adds its own cache to read: {reach}{at_batch} "
                               "Inference is sped up by raising the intensity (batching, "
                               "quantisation, a smaller cache), not by buying more FLOP/s.",
    "decode.reach": "on this device it reaches 1 % at batch ≈ {b1} and 5 % at batch ≈ {b5}.",
    "decode.reach_b1": "batch 1 already passes 1 % on this device, and 5 % is reached at "
                       "batch ≈ {b5}.",
    "decode.reach_never": "with this KV cache it never reaches 5 % at any batch (batch 1: "
                          "{mfu}).",
    "decode.at_batch": " At batch {batch}: {mfub}.",
    "decode.at_batch_no_fit": " Batch {batch} does not fit in memory, so no MFU is given "
                              "for it.",
    "decode.at_batch_knee": " Batch {batch} is at or past the knee (≈ {knee}), where this "
                            "estimate would read 100 %: that needs attention and the KV-cache "
                            "reads to be free, and they are not. No MFU is given there; switch "
                            "on the KV cache above for a bound that counts its reads.",
    "decode.at_batch_knee_kv": " Batch {batch} is at or past the knee (≈ {knee}), where this "
                               "estimate would read 100 %: that needs attention's FLOPs and "
                               "softmax to be free, and they are not, so no MFU is given there.",
    "decode.how.weights": "Weight bytes (N parameters × bytes per parameter):",
    "decode.how.bound": "Single-request upper bound. Bytes counted per token: all the "
                        "weights W, once (the KV cache is off, so KV_seq = 0):",
    "decode.how.bound_kv": "Single-request upper bound. Bytes counted per token: all the "
                           "weights W once, plus the request's whole KV cache KV_seq:",
    "decode.how.step": "One decode step for batch b = {batch}: the slower of reading the bytes "
                       "(the weights once for the whole batch, plus every request's KV "
                       "cache) and doing the math:",
    "decode.how.knee": "The knee (critical batch) where the two terms are equal:",
    "decode.how.kv": "KV cache (K and V, per layer, head, position and request):",
    "decode.fig.throughput": "Throughput, whole batch",
    "decode.fig.per_request": "Speed per request",
    "decode.fig.throughput_hover": "batch %{x:.0f}<br>%{y:,.0f} tok/s in total",
    "decode.fig.per_request_hover": "batch %{x:.0f}<br>%{y:,.1f} tok/s per request",
    "decode.fig.current": "Your batch",
    "decode.fig.max_fit": "largest batch that fits: {batch}",
    "decode.fig.none_fit": "nothing fits in memory",
    "decode.fig.current_hover": "batch {batch}: {tps}",
    "decode.fig.step_hover": "<b>{name}</b><br>Per weight: {flops} {op}, {bytes} B read"
                             "<br>Intensity: {intensity}<br>Bound: {bound}<br>Attainable: {attainable}"
                             "<br>The step's totals (× the parameter count): “How this is computed”",
    "decode.fig.knee": "knee ≈ {batch}",
    "decode.fig.free_zone": "batching is nearly free here",
    "decode.fig.x_title": "Batch size (requests)",
    "decode.fig.y_title": "Throughput (tokens/s)",
    "decode.fig.y2_title": "Per request (tokens/s)",
    "decode.takeaway": "**Bandwidth ÷ model size** is the number behind the three main "
                       "inference optimisations: quantisation (fewer bytes per token), batching "
                       "(more tokens per byte read) and speculative decoding (several tokens "
                       "checked per read of the weights).",
    "decode.metric.needs_help": "What one GPU would hold: its share of the weights and of the batch's KV cache. Shown instead of a speed when it is more than the GPU has.",
    "decode.no_fit_batch": "Batch {batch} does not fit: each GPU would hold {need}, more than its {mem}, so no speed is shown for it.",
    "decode.per_gpu": "Tensor parallel on {gpus}: every GPU reads its share at its own bandwidth, so the bytes above are one GPU's (weights ÷ {tp}, KV cache ÷ {split}).",
    "decode.per_gpu_copies": "Tensor parallel on {gpus}: every GPU reads its share at its own bandwidth, so the bytes above are one GPU's (weights ÷ {tp}). The model has only {split} KV heads: the KV cache splits {split} ways and every KV head is stored on {copies} GPUs.",
    "decode.per_gpu_mla": "Tensor parallel on {gpus}: every GPU reads its share of the weights (÷ {tp}) at its own bandwidth, but the latent KV cache (multi-head latent attention) is shared by all heads and kept whole on every GPU.",
    "decode.how.placement": "Weights one GPU holds: the sharded part ÷ tp, the K and V projections ÷ the KV split s_kv = min(tp, KV heads) (1 for MLA), the replicated part (norms, router, MLA down-projections) whole:",
    "decode.how.kv_placed": "KV cache per token of context; at {ctx} tokens one sequence holds {seq} on each GPU (split {split} ways), and one GPU holds the batch's share:",
}

ZH = {
    "decode.title": "解码速度：带宽 ÷ 模型大小",
    "decode.intro": "每生成一个 token，都要把**全部权重读一遍**。所以单个请求的理论最快解码速度 = "
                    "显存带宽 ÷ 模型字节数——这是推理领域最有用的心算公式。它解释了为什么量化能直接提速"
                    "（模型小一半，速度快一倍），也解释了为什么批处理几乎是免费的（读一遍权重，服务整批请求）。",
    "decode.seed_button": "本章算例：7B BF16，带宽 2 TB/s",
    "decode.seed_button_help": "设为 7B 参数、BF16 权重、批大小 1，设备改成自定义（2 TB/s、312 TFLOP/s）：2 TB/s ÷ 14 GB ≈ 143 tokens/秒。"
                               "（用 A100 80GB 预设的 2.039 TB/s 则约 146。）",
    "decode.inputs_heading": "模型与部署方式",
    "decode.params": "模型参数量 N",
    "decode.params_help": "参数量，例如 7B、70B（MoE 填每个 token 要读的参数量，即批大小 1 时激活的参数）。",
    "decode.weights": "权重精度",
    "decode.weights_help": "权重的存储格式：BF16/FP16 每参数 2 字节，FP8/INT8 1 字节，INT4 0.5 字节"
                           "（忽略量化缩放因子）。",
    "decode.dtype_label": "{name}（{bytes} 字节）",
    "decode.gpus": "张量并行 GPU 数（tp）",
    "decode.gpus_help": "一份模型用张量并行（Megatron-LM）切到几张卡上。每张卡只存、只读自己那份：权重 ÷ tp，KV cache ÷ min(tp, KV 头数)（GPU 数超过 "
                        "KV 头数时 KV 头被复制；MLA 的潜变量缓存每张卡都存一整份）。必须整除注意力头数。除非在下面打开，否则不计每层的 all-reduce。链接里记作 tp。",
    "decode.batch": "批大小（并发请求数）",
    "decode.batch_help": "一步里一起解码的序列数。每一步整批只读一遍权重。",
    "decode.kv_heading": "KV cache（可选）",
    "decode.kv": "计入 KV cache",
    "decode.kv_help": "每一步还要读出每个请求之前所有 token 的 K 和 V。上下文一长、batch 一大，"
                      "这部分读取量能和权重一样大。",
    "decode.layers": "层数 L",
    "decode.layers_help": "Transformer 块数，例如 7B Llama 是 32，70B 是 80。",
    "decode.kv_heads": "KV 头数",
    "decode.kv_heads_help": "Key/Value 的头数：不用 GQA 时等于注意力头数（7B Llama 为 32），"
                            "用 GQA/MQA 时更少（Llama-2/3 70B 为 8）。",
    "decode.head_dim": "每头维度",
    "decode.head_dim_help": "单个注意力头的维度，通常是 128。",
    "decode.context": "上下文长度（token）",
    "decode.context_help": "每个请求缓存里已有的 token 数（提示词 + 已生成），例如 4096、32k。",
    "decode.kv_dtype": "KV cache 精度",
    "decode.kv_dtype_help": "每个缓存元素的字节数：BF16/FP16 为 2，FP8/INT8 为 1。",
    "decode.kv_missing": "请修正 KV cache 的输入，或者关掉 KV cache。",
    "decode.measured": "实测解码速度（可选，tokens/秒）",
    "decode.measured_help": "在上面的批大小下实测的整批 tokens/秒，例如 120、3.5k 或 120 tokens/秒。页面会换算成你实际用到的显存带宽。",
    "decode.results_heading": "结果",
    "decode.metric.bound": "单请求理论上限",
    "decode.metric.bound_help": "显存带宽 ÷ 每个 token 要读的字节数：权重读一遍，打开 KV cache 时再加上这个请求的全部缓存（批大小 1）。"
                                "放不下时改为显示需要多少显存。",
    "decode.metric.needs": "批大小 {batch} 每卡需要",
    "decode.metric.has": "单卡显存",
    "decode.metric.throughput": "批大小 {batch} 的总吞吐",
    "decode.metric.throughput_help": "整批每秒生成的 token 数：批大小 ÷ 单步时间。这是上限，不是预测。"
                                     "这个 batch 的权重和 KV cache 放不进显存时，改为显示需要多少显存。",
    "decode.metric.per_request": "批大小 {batch} 时每个请求",
    "decode.metric.per_request_help": "单个用户感受到的速度：每一步一个 token。",
    "decode.headline": "**{bw} ÷ {model}（{weights} 权重）= {bound}**，这是单个请求的上限。"
                       "kernel 调得再好也超不过它：这是硬件决定的。",
    "decode.headline_kv": "**{bw} ÷ ({model} {weights} 权重 + {kv} KV cache) = {bound}**，"
                          "这是单个请求的上限：每个 token 都要读一遍权重和这个请求的全部缓存（不计缓存时为 {without}）。kernel 调得再好也超不过它：这是硬件决定的。",
    "decode.headline_no_fit": "一个请求都放不下：每张卡需要 {need}（它那份权重和一个请求 KV cache 中它那一份），而它只有 {mem}，所以不显示速度。请用更多 GPU、更小的权重或 KV 精度，或更短的上下文。",
    "decode.max_fit": "显存放得下的最大批大小：**{batch}**（每多一个请求，每张卡多 {kv} KV cache）；已在图上标出。",
    "decode.max_fit_none": "在这个上下文长度下，连一个请求都放不进显存。",
    "decode.knee_text": "**临界批大小 ≈ {knee}。** 低于它时，每一步的瓶颈是读权重，1 个请求和 {knee} 个请求"
                        "一步花的时间差不多：批处理几乎免费——吞吐随 batch 增长，每个请求仍然能拿到约 {per}。"
                        "超过它，计算本身成了瓶颈：吞吐停在约 {thr}，每个请求开始变慢。",
    "decode.knee_never": "**没有临界批大小**：在这样的 KV cache 下，每多一个请求多读的字节比它的计算更费时，所以无论批大小多大，"
                         "解码都一直带宽受限。缩短上下文、减少 KV 头数（GQA）或者用 FP8 缓存会有帮助。",
    "decode.fits": "放得下：每张卡存权重 {model} + KV cache {kv} = {total}，单卡 {mem}（{gpus}），至少留出 {reserve} 给激活和运行时。",
    "decode.fits_tight": "偏紧：每张卡的权重 {model} + KV cache {kv} = {total} 放得进单卡 {mem}（{gpus}），但留给激活和运行时的不到 {reserve}（vLLM 的默认预留）。",
    "decode.no_fit": "放不下：每张卡要存权重 {model} + KV cache {kv} = {total}，超过单卡 {mem}（{gpus}）。请用更多 GPU、更小的权重或 KV 精度，或更小的批大小或上下文。",
    "decode.kv_not_counted": "（未计入：在 KV cache 里打开）",
    "decode.memory_unknown": "自定义设备没有填显存大小，跳过显存检查。",
    "decode.measured_result": "实测 {measured}，说明权重和缓存的实际读取速度是 **{ach}**，达到 {bw} 上限的 **{mbu}**。",
    "decode.measured_advice": "{result} 达到约 70–80% 说明 kernel 已接近硬件极限；低很多则说明开销（kernel 启动、批太小、同步）值得优化。",
    "decode.measured_over": "{result} 超过了硬件能提供的带宽：请检查测量值、批大小和权重精度。",
    "decode.roofline_heading": "为什么解码的 MFU 这么低：物理决定的",
    "decode.step_name": "解码一步，批大小 {batch}",
    "decode.roofline_text": "批大小 1 时，解码一步每读 1 字节只做约 **{intensity} 次 FLOP**——远在拐点（{ridge}）左边。"
                            "它落在带宽斜坡上，kernel 写得再好，MFU 最多也只有算术强度 ÷ 拐点 = 2 ÷ (每参数字节数 × 拐点) = 2 ÷ ({bpp} × {ridge}) "
                            "= **{mfu1}**。它大致和批大小成正比地增长：{reach}{at_batch}所以推理优化的方向是提高算术强度（批处理、"
                            "量化、投机解码），而不是买更强的算力。",
    "decode.roofline_text_kv": "批大小 1 时，解码一步每读 1 字节（权重加上这个请求的 KV cache）只做约 **{intensity} 次 FLOP**——远在拐点（{ridge}）左边。"
                               "kernel 写得再好，MFU 最多也只有 **{mfu1}**（不计缓存时为 2 ÷ (每参数字节数 × 拐点) = {rule}）。"
                               "它随批大小增长，但比不计缓存时慢，因为每个请求都要多读自己的缓存：{reach}{at_batch}所以推理优化的方向是提高算术强度（批处理、"
                               "量化、更小的缓存），而不是买更强的算力。",
    "decode.reach": "在这台设备上，批大小 ≈ {b1} 时达到 1%，批大小 ≈ {b5} 时达到 5%。",
    "decode.reach_b1": "在这台设备上批大小 1 就已超过 1%，批大小 ≈ {b5} 时达到 5%。",
    "decode.reach_never": "在这样的 KV cache 下，批大小再大也到不了 5%（批大小 1 时为 {mfu}）。",
    "decode.at_batch": "批大小 {batch} 时为 {mfub}。",
    "decode.at_batch_no_fit": "批大小 {batch} 放不进显存，所以不给出它的 MFU。",
    "decode.at_batch_knee": "批大小 {batch} 已达到或超过临界批大小（≈ {knee}），这个估算在那里会得出 100%：那要求注意力计算和读 KV cache 都不花时间，"
                            "而实际并非如此。所以这里不给出 MFU；打开上面的 KV cache，可以得到计入缓存读取的上限。",
    "decode.at_batch_knee_kv": "批大小 {batch} 已达到或超过临界批大小（≈ {knee}），这个估算在那里会得出 100%：那要求注意力的 FLOP 和 softmax 都不花时间，"
                               "而实际并非如此，所以这里不给出 MFU。",
    "decode.how.weights": "权重字节数（参数量 × 每参数字节数）：",
    "decode.how.bound": "单请求上限。每个 token 计入的字节：全部权重 W 读一遍（KV cache 关闭，KV_seq = 0）：",
    "decode.how.bound_kv": "单请求上限。每个 token 计入的字节：全部权重 W 读一遍，再加上这个请求的全部 KV cache KV_seq：",
    "decode.how.step": "批大小 b = {batch} 时的一步解码：读数据（整批读一遍权重，加上每个请求的 KV cache）"
                       "和做计算，取较慢的那个：",
    "decode.how.knee": "临界批大小：读数据和做计算两项相等的批大小：",
    "decode.how.kv": "KV cache（K 和 V，按层、头、位置、请求计）：",
    "decode.fig.throughput": "整批吞吐",
    "decode.fig.per_request": "每个请求的速度",
    "decode.fig.throughput_hover": "batch %{x:.0f}<br>共 %{y:,.0f} tok/s",
    "decode.fig.per_request_hover": "batch %{x:.0f}<br>每请求 %{y:,.1f} tok/s",
    "decode.fig.current": "当前批大小",
    "decode.fig.max_fit": "显存最多放得下的批大小：{batch}",
    "decode.fig.none_fit": "显存里什么都放不下",
    "decode.fig.current_hover": "批大小 {batch}：{tps}",
    "decode.fig.step_hover": "<b>{name}</b><br>每个权重：{flops} {op}，读 {bytes} B<br>算术强度：{intensity}<br>瓶颈："
                             "{bound}<br>可达性能：{attainable}<br>这一步的总量（× 参数量）：见「计算过程」",
    "decode.fig.knee": "临界批大小 ≈ {batch}",
    "decode.fig.free_zone": "这一段批处理几乎免费",
    "decode.fig.x_title": "批大小（请求数）",
    "decode.fig.y_title": "吞吐（tokens/秒）",
    "decode.fig.y2_title": "每个请求（tokens/秒）",
    "decode.takeaway": "**带宽 ÷ 模型大小** 是推理三大优化的共同依据：量化（每个 token 读的字节更少）、"
                       "批处理（每读一字节产出更多 token）、投机解码（读一遍权重验证多个 token）。",
    "decode.metric.needs_help": "一张卡要存的东西：它那份权重和这批 KV cache 中它那一份。超过单卡显存时，显示这个数而不显示速度。",
    "decode.no_fit_batch": "批大小 {batch} 放不下：每张卡要存 {need}，超过它的 {mem}，所以不显示这个批大小的速度。",
    "decode.per_gpu": "在 {gpus} 上做张量并行：每张卡按自己的带宽读自己那份，所以上面的字节数是单卡的（权重 ÷ {tp}，KV cache ÷ {split}）。",
    "decode.per_gpu_copies": "在 {gpus} 上做张量并行：每张卡按自己的带宽读自己那份，所以上面的字节数是单卡的（权重 ÷ {tp}）。模型只有 {split} 个 KV 头：KV cache 只能切成 {split} 份，每个 KV 头存在 {copies} 张卡上。",
    "decode.per_gpu_mla": "在 {gpus} 上做张量并行：每张卡按自己的带宽读自己那份权重（÷ {tp}），但潜变量 KV cache（多头潜在注意力）由所有头共享，每张卡都存一整份。",
    "decode.how.placement": "一张卡存的权重：切分部分 ÷ tp，K 和 V 投影 ÷ KV 切分数 s_kv = min(tp, KV 头数)（MLA 为 1），复制部分（归一化层、路由器、MLA 降维投影）整份：",
    "decode.how.kv_placed": "每个上下文 token 的 KV cache；{ctx} 个 token 时一条序列在每张卡上占 {seq}（切成 {split} 份），一张卡存这批中它那一份：",
}
