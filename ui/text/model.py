"""Strings of the Model page: a whole model's operators on the roofline (keys "model.*")."""

EN = {
    "model.title": "A whole model on the roofline",
    "model.intro": "Every operator of one transformer block — and the embedding and LM head — "
                 "as a point on the device's roofline, for one **prefill** (the prompt) or "
                 "**decode** (one new token per request) step. Move the batch: the matrix "
                 "multiplications slide right and cross the ridge, while attention in decode "
                 "stays on the slope (each request reads its own KV cache). The times are "
                 "bounds, max(FLOPs ÷ peak, bytes ÷ bandwidth) per operator, summed over the "
                 "layers.",
    "model.no_model": "This page needs an architecture, not only a parameter count. Pick a model "
                    "in the sidebar (**Model**), or paste a `config.json` there.",
    "model.use_default": "Use Llama 2 7B",
    "model.use_default_help": "Selects Llama 2 7B (the chapter's 7B model) in the sidebar.",
    "model.opened_on_default": "Opened on Llama 2 7B, the chapter's 7B model: choose another "
                             "model in the sidebar (**Model**), or paste a `config.json` there.",
    "model.inputs_heading": "The step",
    "model.phase": "Phase",
    "model.phase_help": "Prefill processes the whole prompt at once (time to first token); decode "
                      "generates one token per request, reading the weights and the KV cache "
                      "once per step.",
    "model.phase.prefill": "Prefill (the prompt)",
    "model.phase.decode": "Decode (one token)",
    "model.batch": "Batch size (requests)",
    "model.batch_help": "Requests processed together in one step. One read of the weights serves "
                      "the whole batch, so the matrix multiplications do more math per byte as it "
                      "grows; each request's KV cache is read for that request only.",
    "model.prompt": "Prompt length (tokens)",
    "model.prompt_help": "Tokens of each prompt processed in the prefill step, e.g. 2048 or 32k. "
                       "Attention is causal: a query sees the tokens before it.",
    "model.context": "Context length (tokens)",
    "model.context_help": "Tokens already in each request's KV cache when the new token is "
                        "generated, e.g. 4096 or 128k. Sliding-window layers read at most their "
                        "window.",
    "model.weights": "Weight precision",
    "model.weights_help": "How the weights are stored: BF16/FP16 = 2 bytes, FP8/INT8 = 1, INT4 = "
                        "0.5 (quantisation scales ignored).",
    "model.act": "Activation precision",
    "model.act_help": "Element size of the activations between operators (inputs and outputs of "
                    "every kernel).",
    "model.kv": "KV cache precision",
    "model.kv_help": "Element size of the cached keys and values.",
    "model.dtype_label": "{name} ({bytes} bytes)",
    "model.tp": "Tensor-parallel GPUs",
    "model.tp_help": "GPUs one model copy is split across (Megatron-LM): each does 1/n of every "
                   "projection, expert and attention head; norms, residual adds, the router and "
                   "the embedding run on every GPU. Times are per GPU (all run in parallel); the "
                   "all-reduces between them are not counted.",
    "model.attention": "Attention kernel",
    "model.attention_help": "Fused (FlashAttention): the scores stay on chip, each tensor is read "
                          "once. Unfused: QKᵀ, softmax and ·V are three kernels and the score "
                          "matrix goes through memory twice.",
    "model.attention.flash": "Fused (FlashAttention)",
    "model.attention.unfused": "Unfused (QKᵀ, softmax, ·V)",
    "model.overlay": "Overlay my kernels",
    "model.fig.and_more": "{label} (+{n} more here)",
    "model.overlay_help": "Draw the kernels of the Roofline page's kernel table (typed, built or "
                        "imported from a trace) on this chart, and match them to the model's "
                        "operators below.",
    "model.tp_invalid": "Tensor-parallel GPUs must divide the model's {heads} attention heads (each GPU takes whole heads).",
    "model.model_caption": "{name}: {layers} layers, d_model {d}, {heads} heads × {hd} "
                         "({kv} KV heads){moe}. [Source]({source})",
    "model.model_caption_moe": ", {experts} experts, {k} per token",
    "model.op.embedding": "Embedding (gather)",
    "model.op.norm_in": "Input norm",
    "model.op.qkv": "QKV projection",
    "model.op.mla_absorb": "MLA K/V up-projections",
    "model.op.rope": "Rotary embedding",
    "model.op.attn_fused": "Attention (fused)",
    "model.op.attn_qk": "Attention QKᵀ",
    "model.op.attn_softmax": "Attention softmax",
    "model.op.attn_pv": "Attention ·V",
    "model.op.o_proj": "Output projection",
    "model.op.residual_attn": "Residual add (attention)",
    "model.op.norm_post": "Post-attention norm",
    "model.op.norm_extra": "Extra norm",
    "model.op.router": "MoE router",
    "model.op.experts": "Routed experts",
    "model.op.shared_experts": "Shared experts",
    "model.op.mlp_gate": "MLP gate",
    "model.op.mlp_up": "MLP up",
    "model.op.mlp_act": "MLP activation",
    "model.op.mlp_down": "MLP down",
    "model.op.residual_mlp": "Residual add (MLP)",
    "model.op.norm_final": "Final norm",
    "model.op.lm_head": "LM head",
    "model.kind.model": "once per model",
    "model.kind.dense": "dense layers",
    "model.kind.moe": "MoE layers",
    "model.kind.dense_sliding": "dense, sliding-window layers",
    "model.kind.moe_sliding": "MoE, sliding-window layers",
    "model.op_label": "{op} · {kind}",
    "model.metric.step": "Step time bound",
    "model.metric.step_help": "max(FLOPs ÷ peak, bytes ÷ bandwidth) of the whole step on one GPU of the tensor-parallel group (calc.inference: the Decode page's and Plans' number). The operator-by-operator sum is below the table's summary.",
    "model.metric.decode_tps": "Tokens/s bound (batch {batch})",
    "model.metric.decode_tps_help": "Batch ÷ step time: the fastest the whole batch can generate.",
    "model.metric.per_request": "Per request",
    "model.metric.per_request_help": "1 ÷ step time: the speed one request sees.",
    "model.metric.ttft": "Time to first token bound",
    "model.metric.ttft_help": "The prefill of the whole batch (calc.inference.prefill, as on the Decode page): no request gets its first token sooner.",
    "model.metric.prefill_tps": "Prompt tokens/s",
    "model.metric.prefill_tps_help": "Batch × prompt length ÷ the prefill time bound.",
    "model.metric.whole": "Operator by operator",
    "model.metric.whole_help": "Σ over operators and layers of max(FLOPs ÷ peak, bytes ÷ bandwidth), activations included: longer than the bound beside it when some operators are compute-bound and others memory-bound.",
    "model.whole_caption": "Summed operator by operator, each at its own bound and with the activations' traffic: {whole} per step, {tps}. Longer than the step bound above when some operators are compute-bound and others memory-bound.",
    "model.needs": "needs {mem}",
    "model.fits": "Memory per GPU: {weights} of weights + {kv} of KV cache = {total} of {mem}, with at least {reserve} left for activations and the runtime.",
    "model.no_fit": "Does not fit: each GPU would hold {weights} of weights + {kv} of KV cache = {total}, more than its {mem}. Use more tensor-parallel GPUs, a smaller batch or context, or fewer bytes per weight.",
    "model.summary_decode": "Decode reads **{weights}** of weights and **{kv}** of KV cache per GPU "
                          "per step; **{mem_share}** of the time bound goes to memory-bound "
                          "operators. Largest: **{top}** ({top_share}).",
    "model.summary_prefill": "The prompt does **{flops}** per GPU; **{cmp_share}** of the time bound "
                           "goes to compute-bound operators. Largest: **{top}** ({top_share}).",
    "model.decode_link": "Same setup on the Decode page →",
    "model.chart_heading": "The operators on the roofline",
    "model.chart_caption": "Each point is one operator at its ceiling (the roofline at its "
                         "arithmetic intensity); its size shows its share of the step's time. "
                         "Zero-FLOP operators (the embedding gather) sit on the left edge.",
    "model.fig.memory": "memory-bound operator",
    "model.fig.compute": "compute-bound operator",
    "model.fig.zero": "zero-FLOP operator (drawn at the left edge)",
    "model.fig.measured": "measured kernels",
    "model.fig.hover": "<b>{name}</b><br>{op}s: {flops}<br>Bytes: {bytes}"
                     "<br>Arithmetic intensity: {intensity}<br>Ceiling: {ceiling}"
                     "<br>Time bound (all layers): {time}<br>Share of the step: "
                     "{share}<br>{formula}",
    "model.table_heading": "Every operator",
    "model.col.operator": "Operator",
    "model.col.layers": "Layers",
    "model.col.count": "Runs",
    "model.col.flops": "{op}s (each)",
    "model.col.bytes": "Bytes (each)",
    "model.col.intensity": "Arithmetic intensity ({op}/B)",
    "model.col.bound": "Bound",
    "model.col.time": "Time bound (all)",
    "model.col.share": "Share",
    "model.col.formula": "Formula",
    "model.download_csv": "Download the operators (CSV)",
    "model.download_help": "Every operator with its FLOPs, bytes, arithmetic intensity, bound, time "
                         "and share, in SI base units (FLOP, bytes, seconds).",
    "model.measured_heading": "Measured beside modelled",
    "model.measured_intro": "Kernels of the Roofline page's kernel table with a measured time, "
                          "matched to this model's operators: first by the kind of work the "
                          "kernel's name shows (GEMM, attention, norm, element-wise), then to "
                          "the operator of that kind whose FLOPs are closest (within 2×). "
                          "**Of bound** = the operator's modelled time bound ÷ the kernel's "
                          "measured time (100 % = at the roofline).",
    "model.measured_none": "No kernel of the Roofline page's table has a measured time. Import a "
                         "trace or type times on the Roofline page to compare.",
    "model.col.kernel": "Kernel",
    "model.col.class": "Kind",
    "model.col.matched": "Matched operator",
    "model.col.measured": "Measured",
    "model.col.model_time": "Modelled bound",
    "model.col.of_bound": "Of bound",
    "model.unmatched": "— (no operator of this kind within 2× of its FLOPs)",
    "model.class.matmul": "GEMM",
    "model.class.attention": "attention",
    "model.class.norm": "norm",
    "model.class.elementwise": "element-wise",
    "model.class.other": "other",
    "model.how.tokens": "Tokens in the step: batch × new tokens per request (prefill: the prompt, "
                      "decode: 1).",
    "model.how.gemm": "A projection of a d_in × d_out weight over T tokens: 2 {op}s per weight and "
                    "token; the weights are read once for the whole batch, so the arithmetic "
                    "intensity grows with T (about T {op}/byte for 2-byte weights).",
    "model.how.attention": "Attention: each query attends k̄ keys (decode: the whole cache, "
                         "capped at a sliding window; prefill: about half the prompt, causal). "
                         "Each request reads its own KV cache, so its arithmetic intensity does "
                         "not grow with the batch.",
    "model.how.step": "The step's time bound: every operator at its own roofline, summed over the "
                    "layers (per GPU of the tensor-parallel group).",
    "model.how.tokens_per_s": "Decode: tokens/s of the batch; prefill: the time to first token "
                              "is the step itself.",
    "model.how.experts": "MoE: the batch's T tokens each pick k of E experts; under uniform routing "
                       "D = E·(1 − (1 − k/E)^T) distinct experts are touched and their weights "
                       "read (an assumption: real routers are skewed).",
    "model.tight": "Tight: each GPU holds {weights} of weights + {kv} of KV cache = {total} of its {mem}, leaving less than the {reserve} kept free for activations and the runtime.",
}

ZH = {
    "model.title": "整个模型放上 Roofline",
    "model.intro": "一个 Transformer 块的每个算子（以及词嵌入和输出头）都是设备 Roofline 上的一个点，对应一次**预填充**（处理提示词）或一次**解码**（每个请求生成一个新 "
                 "token）。拖动批大小：矩阵乘向右移动并越过拐点，而解码时的注意力一直停在斜坡上（每个请求读自己的 KV cache）。"
                 "这里的时间都是下限：每个算子取 max(FLOP ÷ 峰值算力, 字节 ÷ 显存带宽)，再对所有层求和。",
    "model.no_model": "这个页面需要模型结构，而不只是参数量。请在侧边栏（「模型」）里选一个模型，或在那里粘贴 `config.json`。",
    "model.use_default": "使用 Llama 2 7B",
    "model.use_default_help": "在侧边栏选中 Llama 2 7B（本章的 7B 模型）。",
    "model.opened_on_default": "已用本章的 7B 模型 Llama 2 7B 打开：可在侧边栏（**模型**）里换一个模型，"
                             "或在那里粘贴 `config.json`。",
    "model.inputs_heading": "这一步",
    "model.phase": "阶段",
    "model.phase_help": "预填充一次处理整个提示词（决定首 token 时间）；解码每个请求生成一个 token，每一步把权重和 KV cache 各读一遍。",
    "model.phase.prefill": "预填充（处理提示词）",
    "model.phase.decode": "解码（一个 token）",
    "model.batch": "批大小（请求数）",
    "model.batch_help": "一步里一起处理的请求数。权重读一遍就服务整个 batch，所以批大小越大，"
                      "矩阵乘每字节做的计算越多；而每个请求的 KV cache 只为它自己读。",
    "model.prompt": "提示词长度（token）",
    "model.prompt_help": "预填充这一步里每个提示词的 token 数，例如 2048 或 32k。注意力是因果的：每个 query 只看它之前的 token。",
    "model.context": "上下文长度（token）",
    "model.context_help": "生成新 token 时每个请求 KV cache 里已有的 token 数，例如 4096 或 128k。"
                        "滑动窗口层最多读它的窗口。",
    "model.weights": "权重精度",
    "model.weights_help": "权重的存储格式：BF16/FP16 = 2 字节，FP8/INT8 = 1，INT4 = 0.5（不计量化缩放因子）。",
    "model.act": "激活精度",
    "model.act_help": "算子之间激活的元素大小（每个 kernel 的输入和输出）。",
    "model.kv": "KV cache 精度",
    "model.kv_help": "缓存的 key 和 value 的元素大小。",
    "model.dtype_label": "{name}（{bytes} 字节）",
    "model.tp": "张量并行 GPU 数",
    "model.tp_help": "一份模型切分到几张卡上（Megatron-LM）：每张卡做每个投影、专家和注意力头的 1/n；归一化、残差加、路由器和词嵌入每张卡都做一遍。"
                   "时间按单卡计（各卡并行）；卡间的 all-reduce 不计入。",
    "model.attention": "注意力 kernel",
    "model.attention_help": "融合（FlashAttention）：分数矩阵留在片上，每个张量只读一遍。不融合："
                          "QKᵀ、softmax 和 ·V 是三个 kernel，分数矩阵要进出显存两次。",
    "model.attention.flash": "融合（FlashAttention）",
    "model.attention.unfused": "不融合（QKᵀ、softmax、·V）",
    "model.overlay": "叠加我的 kernel",
    "model.fig.and_more": "{label}（此处另有 {n} 个）",
    "model.overlay_help": "把「Roofline」页 kernel 表里的 kernel（手填、Kernel 计算器生成或从 trace 导入）画到这张图上，"
                        "并在下面与模型的算子对应起来。",
    "model.tp_invalid": "张量并行 GPU 数必须整除模型的 {heads} 个注意力头（每张卡分到整数个头）。",
    "model.model_caption": "{name}：{layers} 层，d_model {d}，{heads} 个头 × {hd}（{kv} 个 KV 头）{moe}。"
                         "[来源]({source})",
    "model.model_caption_moe": "，{experts} 个专家，每个 token 选 {k} 个",
    "model.op.embedding": "词嵌入（按行读取）",
    "model.op.norm_in": "输入归一化",
    "model.op.qkv": "QKV 投影",
    "model.op.mla_absorb": "MLA 的 K/V 上投影",
    "model.op.rope": "旋转位置编码",
    "model.op.attn_fused": "注意力（融合）",
    "model.op.attn_qk": "注意力 QKᵀ",
    "model.op.attn_softmax": "注意力 softmax",
    "model.op.attn_pv": "注意力 ·V",
    "model.op.o_proj": "输出投影",
    "model.op.residual_attn": "残差加（注意力）",
    "model.op.norm_post": "注意力后的归一化",
    "model.op.norm_extra": "额外的归一化",
    "model.op.router": "MoE 路由器",
    "model.op.experts": "路由专家",
    "model.op.shared_experts": "共享专家",
    "model.op.mlp_gate": "MLP gate 投影",
    "model.op.mlp_up": "MLP up 投影",
    "model.op.mlp_act": "MLP 激活",
    "model.op.mlp_down": "MLP down 投影",
    "model.op.residual_mlp": "残差加（MLP）",
    "model.op.norm_final": "最后的归一化",
    "model.op.lm_head": "输出头（lm_head）",
    "model.kind.model": "每个模型一次",
    "model.kind.dense": "稠密层",
    "model.kind.moe": "MoE 层",
    "model.kind.dense_sliding": "稠密、滑动窗口层",
    "model.kind.moe_sliding": "MoE、滑动窗口层",
    "model.op_label": "{op} · {kind}",
    "model.metric.step": "单步时间下限",
    "model.metric.step_help": "整步在张量并行组中一张卡上的 max(FLOP ÷ 峰值算力, 字节 ÷ 显存带宽)（calc.inference："
                            "与「解码速度」页和「方案对比」页同一个数）。逐个算子求和的结果在表格摘要下面。",
    "model.metric.decode_tps": "tokens/秒上限（批大小 {batch}）",
    "model.metric.decode_tps_help": "批大小 ÷ 单步时间：整个 batch 最快的生成速度。",
    "model.metric.per_request": "每个请求",
    "model.metric.per_request_help": "1 ÷ 单步时间：单个请求看到的速度。",
    "model.metric.ttft": "首 token 时间下限",
    "model.metric.ttft_help": "整批的预填充（calc.inference.prefill，与「解码速度」页相同）：没有请求能更早拿到第一个 token。",
    "model.metric.prefill_tps": "提示词 tokens/秒",
    "model.metric.prefill_tps_help": "批大小 × 提示词长度 ÷ 预填充时间下限。",
    "model.metric.whole": "逐个算子求和",
    "model.metric.whole_help": "对所有算子和层求 max(FLOP ÷ 峰值算力, 字节 ÷ 显存带宽) 之和，含激活的读写：有的算子算力受限、有的带宽受限时，比旁边的下限更长。",
    "model.whole_caption": "逐个算子按各自的下限求和（含激活的读写）：每步 {whole}，{tps}。有的算子算力受限、有的带宽受限时，比上面的单步下限更长。",
    "model.needs": "需要 {mem}",
    "model.fits": "每卡显存：权重 {weights} + KV cache {kv} = {total}，容量 {mem}，至少还留出 {reserve} 给激活和运行时。",
    "model.no_fit": "放不下：每张卡要存 {weights} 权重 + {kv} KV cache = {total}，超过它的 {mem}。请用更多张量并行 GPU、更小的批大小或上下文，或每个权重更少的字节。",
    "model.summary_decode": "解码每一步每卡读 **{weights}** 权重和 **{kv}** KV cache；时间下限的 **{mem_share}** 花在带宽受限的算子上。"
                          "最大的是 **{top}**（{top_share}）。",
    "model.summary_prefill": "提示词每卡要做 **{flops}**；时间下限的 **{cmp_share}** 花在算力受限的算子上。最大的是 **{top}**（{top_share}）。",
    "model.decode_link": "在「解码速度」页看同样的设置 →",
    "model.chart_heading": "Roofline 上的算子",
    "model.chart_caption": "每个点是一个算子，画在它的上限处（Roofline 在其算术强度处的值）；点的大小表示它占单步时间的比例。零 FLOP 的算子（词嵌入按行读取）画在左边缘。",
    "model.fig.memory": "带宽受限的算子",
    "model.fig.compute": "算力受限的算子",
    "model.fig.zero": "零 FLOP 的算子（画在左边缘）",
    "model.fig.measured": "实测 kernel",
    "model.fig.hover": "<b>{name}</b><br>{op}：{flops}<br>字节：{bytes}<br>算术强度："
                     "{intensity}<br>上限：{ceiling}<br>时间下限（所有层）：{time}<br>占单步时间："
                     "{share}<br>{formula}",
    "model.table_heading": "全部算子",
    "model.col.operator": "算子",
    "model.col.layers": "层",
    "model.col.count": "次数",
    "model.col.flops": "{op}（每次）",
    "model.col.bytes": "字节（每次）",
    "model.col.intensity": "算术强度（{op}/字节）",
    "model.col.bound": "瓶颈",
    "model.col.time": "时间下限（全部）",
    "model.col.share": "占比",
    "model.col.formula": "公式",
    "model.download_csv": "下载算子表（CSV）",
    "model.download_help": "每个算子的 FLOP、字节、算术强度、瓶颈、时间和占比，单位为 SI 基本单位（FLOP、字节、秒）。",
    "model.measured_heading": "实测与模型对照",
    "model.measured_intro": "「Roofline」页 kernel 表里有实测时间的 kernel，与本模型的算子对应：先按 kernel 名字显示的工作类型（GEMM、"
                          "注意力、归一化、逐元素），再对应到同类中 FLOP 最接近（2 倍以内）的算子。**占下限** = 算子模型的时间下限 ÷ kernel 的实测时间（100% = 到达 Roofline）。",
    "model.measured_none": "「Roofline」页的 kernel 表里没有带实测时间的 kernel。在「Roofline」页导入 trace 或填上时间后再对照。",
    "model.col.kernel": "kernel",
    "model.col.class": "类型",
    "model.col.matched": "对应的算子",
    "model.col.measured": "实测",
    "model.col.model_time": "模型下限",
    "model.col.of_bound": "占下限",
    "model.unmatched": "—（同类算子中没有 FLOP 在 2 倍以内的）",
    "model.class.matmul": "GEMM",
    "model.class.attention": "注意力",
    "model.class.norm": "归一化",
    "model.class.elementwise": "逐元素",
    "model.class.other": "其他",
    "model.how.tokens": "这一步的 token 数：批大小 × 每个请求的新 token 数（预填充：提示词长度；解码：1）。",
    "model.how.gemm": "对 T 个 token 做 d_in × d_out 的投影：每个权重、每个 token 2 {op}；权重对整个 batch 只读一遍，"
                    "所以算术强度随 T 增长（2 字节权重时约 T {op}/字节）。",
    "model.how.attention": "注意力：每个 query 看 k̄ 个 key（解码：整个 cache，滑动窗口层不超过窗口；预填充：因果，约为提示词的一半）。"
                         "每个请求读自己的 KV cache，所以它的算术强度不随批大小增长。",
    "model.how.step": "单步时间下限：每个算子按自己的 Roofline 计时，对所有层求和（按张量并行组里的单卡计）。",
    "model.how.tokens_per_s": "解码：整个 batch 的 tokens/秒；预填充：首 token 时间就是这一步本身。",
    "model.how.experts": "MoE：batch 里 T 个 token 各从 E 个专家中选 k 个；在均匀路由假设下，会用到 D = E·(1 − (1 − k/E)^T) 个不同的专家，"
                       "读它们的权重（这是假设：真实的路由器分布不均）。",
    "model.tight": "偏紧：每张卡存权重 {weights} + KV cache {kv} = {total}，单卡 {mem}，留给激活和运行时的不到 {reserve}。",
}
