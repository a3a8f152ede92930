"""Strings of the MFU page (keys "mfu.*")."""

_RANDOM_SNIPPET = """\
# {comment1}
batch = torch.randint(0, vocab, (B, S), device="cuda")
# {comment2}"""

_PROFILER_SNIPPET = """\
from torch.profiler import profile, ProfilerActivity, schedule

with profile(
    activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
    schedule=schedule(wait=1, warmup=2, active=3),   # {c1}
    record_shapes=True, profile_memory=True, with_stack=True,
) as prof:
    for _ in range(6):
        train_step()
        prof.step()

print(prof.key_averages().table(
    sort_by="self_cuda_time_total", row_limit=20))   # {c2}
prof.export_chrome_trace("trace.json")               # {c3}"""

EN = {
    "mfu.title": "MFU: how far is your training run from the ceiling?",
    "mfu.intro": "Model FLOPs Utilisation is the share of the GPUs' peak that does useful "
                 "model math. Without it every optimisation is a guess: it turns "
                 "\"the GPUs feel busy\" into one number you can compare across runs, "
                 "clusters and teams.",
    "mfu.inputs_heading": "Your run",
    "mfu.params": "Model parameters N",
    "mfu.params_help": "Parameter count of the dense model, e.g. 7B, 70B, 1.3e9. For a "
                       "mixture-of-experts model use the parameters active per token.",
    "mfu.tokens_per_s": "Measured throughput, whole job (tokens/s)",
    "mfu.tokens_per_s_help": "Training tokens processed per second by the whole job (all GPUs together), measured "
                             "over steady-state steps, e.g. 12k, 1.5M or 12k tokens/s (Chinese units too: 12k tokens/秒). "
                             "Count each token once: not per GPU, not × data parallel degree again.",
    "mfu.gpus": "Number of GPUs",
    "mfu.gpus_help": "All GPUs the job runs on (data × tensor × pipeline parallel), a "
                     "whole number.",
    "mfu.peak_override": "Peak per GPU ({rate}), optional",
    "mfu.peak_override_help": "Leave blank to use the dense peak of the device and "
                              "precision chosen in the sidebar. Type e.g. 312T or "
                              "989 TFLOP/s to override. Use the dense figure of the "
                              "precision you train in, not the sparse headline: the "
                              "2:4-sparse figure is twice the dense one and would halve "
                              "your MFU.",
    "mfu.peak_from_sidebar": "{device}, {precision} (sidebar)",
    "mfu.peak_from_override": "typed above",
    "mfu.peak_used": "Peak used: **{peak}** per GPU — {source}.",
    "mfu.peak_is_sparse": "{peak} is the 2:4-sparse headline of the {device}, twice its dense "
                          "peak ({dense}). Dense training runs at most at the dense peak, so "
                          "this MFU reads half of what it is: leave the field empty to use {dense}.",
    "mfu.attn_heading": "Attention term (long sequences)",
    "mfu.attn_intro": "6N ignores attention's O(s²) part. From about 8K tokens per sequence "
                      "it is no longer small: add 12·L·h·s FLOP per token (6·L·h·s when the causal mask's "
                      "skipped half is not counted, the default below).",
    "mfu.attn": "Add the attention term 12·L·h·s",
    "mfu.attn_help": "Count the FLOP of QKᵀ and attention·V too (forward + backward). "
                     "Turn it on for sequences of 8K tokens and more.",
    "mfu.layers": "Layers L",
    "mfu.layers_help": "Number of transformer blocks, e.g. 32 for a 7B Llama.",
    "mfu.hidden": "Hidden size h (d_model)",
    "mfu.hidden_help": "Model width, e.g. 4096 for a 7B Llama.",
    "mfu.seq": "Sequence length s (tokens)",
    "mfu.seq_help": "Tokens per training sequence, e.g. 4096, 8k, 32k.",
    "mfu.causal": "Causal mask: count half (FlashAttention-style)",
    "mfu.causal_help": "Kernels that skip the masked half of the score matrix do half the "
                       "attention FLOP. Off reproduces the plain 12·L·h·s formula (PaLM).",
    "mfu.attn_missing": "Fix the attention inputs (layers, hidden size, sequence length) "
                        "or turn the attention term off.",
    "mfu.inverse_heading": "The other way round",
    "mfu.target_mfu": "Target MFU",
    "mfu.target_mfu_help": "The MFU you want to reach; the page tells you the tokens/s "
                           "that would mean on this cluster.",
    "mfu.results_heading": "Result",
    "mfu.metric.mfu": "MFU",
    "mfu.metric.mfu_help": "Useful model FLOP/s divided by the peak FLOP/s of all GPUs.",
    "mfu.metric.achieved": "Useful FLOP/s per GPU",
    "mfu.metric.achieved_help": "Model FLOP/s each GPU delivers (FLOP per token × tokens/s "
                                "÷ GPUs), against a peak of {peak}.",
    "mfu.metric.fpt": "Training FLOP per token",
    "mfu.metric.fpt_help": "6N: forward 2N, backward 4N (gradients w.r.t. inputs and "
                           "w.r.t. weights), plus the attention term when turned on.",
    "mfu.attn_share": "The attention term is {share} of the FLOP per token.",
    "mfu.band.problem.short": "problem",
    "mfu.band.low.short": "low",
    "mfu.band.fair.short": "fair",
    "mfu.band.good.short": "good",
    "mfu.band.excellent.short": "great",
    "mfu.band.suspicious.short": "suspicious",
    "mfu.metric.peak": "Peak per GPU",
    "mfu.metric.peak_help": "Dense peak FLOP/s of one GPU used in the denominator.",
    "mfu.band.problem.name": "< 20% problem",
    "mfu.band.low.name": "20–35% low",
    "mfu.band.fair.name": "35–45% fair",
    "mfu.band.good.name": "45–55% good",
    "mfu.band.excellent.name": "55–60% excellent",
    "mfu.band.suspicious.name": "> 60% suspicious",
    "mfu.band.problem.advice": "Something is clearly wrong. Check the data pipeline first: "
                               "most often the GPUs are simply not being fed.",
    "mfu.band.low.advice": "Look at activation checkpointing, communication and "
                           "kernel fusion.",
    "mfu.band.fair.advice": "The usual optimisations still have room.",
    "mfu.band.good.advice": "This is already a well-run job.",
    "mfu.band.excellent.advice": "You are close to the practical ceiling.",
    "mfu.band.suspicious.advice": "Check your formula before celebrating.",
    "mfu.band_verdict": "**MFU {mfu}: {name}.** {advice}",
    "mfu.over_60": "Above 60 % is rare in practice: check before celebrating. Is the peak "
                   "too small — training in FP8 but dividing by the BF16 peak, or a PCIe "
                   "part's peak for SXM GPUs? Are the FLOPs too high — the total instead of "
                   "the active parameters of a mixture-of-experts model, or 6N counted per "
                   "GPU and again for the cluster? Are tokens counted once, not per "
                   "data-parallel rank and summed again? Is the step timed after a "
                   "synchronise? (A 2:4-sparse peak is twice the dense one: it would make "
                   "MFU lower, not higher.)",
    "mfu.hfu_over_100": "**HFU {hfu}** is above 100 %, which is impossible: no GPU executes more "
                        "than its peak. The MFU ({mfu}) is possible, so the likely cause is the "
                        "recomputation counted twice: the run does not recompute as much as "
                        "\"{recompute}\" says, or the tokens/s already include the recomputed work. "
                        "Check the recomputation setting against the training config.",
    "mfu.over_100": "MFU above 100 % is impossible: the inputs are wrong. The causes that "
                    "push it up: a peak that is too small (the BF16 peak for an FP8 run, a "
                    "PCIe peak for an SXM part); FLOPs counted too high (total instead of "
                    "active parameters of a mixture-of-experts model, 6N counted per GPU "
                    "and again per cluster); tokens counted per data-parallel rank and "
                    "summed twice; or a time measured too short (asynchronous launches timed "
                    "without synchronising). A 2:4-sparse peak cannot cause it: it is twice "
                    "the dense peak and makes MFU lower.",
    "mfu.ceiling_note": "Why the ceiling is about 60 %, not 100 %: communication, non-matmul "
                        "work (LayerNorm, softmax, activations), data loading, kernel "
                        "launches and the optimizer step all take time but do no "
                        "“useful” model FLOP.",
    "mfu.seq_warning": "Sequences of {seq} tokens: the attention term (off) would add "
                       "{share} of the FLOP per token, so this MFU is under-counted. "
                       "Turn on the attention term above.",
    "mfu.inverse_result": "To reach **{target}** MFU on {gpus} you need "
                          "**{needed}** (now: {now}).",
    "mfu.how.fpt": "Training FLOP per token (N parameters; L layers, h hidden size, s "
                   "sequence length for the attention term):",
    "mfu.how.mfu": "MFU = useful FLOP/s over peak FLOP/s:",
    "mfu.how.inverse": "Tokens/s needed for a target MFU (the same formula solved for tok/s):",
    "mfu.fig.x_title": "MFU",
    "mfu.fig.marker_hover": "Your MFU: {mfu}",
    "mfu.fig.marker_label": "your run: {mfu}",
    "mfu.diag_heading": "Where MFU goes: check in this order",
    "mfu.diag_heading.problem": "MFU is very low: check in this order",
    "mfu.diag_heading.low": "MFU is low: check in this order",
    "mfu.diag_heading.fair": "MFU is fair: where the rest goes, in this order",
    "mfu.diag_heading.good": "MFU is good: if you want more, look in this order",
    "mfu.diag_heading.excellent": "MFU is near the practical ceiling: what is left, in this order",
    "mfu.diag_heading.suspicious": "MFU is suspiciously high: check the inputs first, then this list",
    "mfu.diag_heading.impossible": "MFU above 100 % is impossible: fix the inputs first (above); "
                                   "this list is for a real MFU",
    "mfu.per_gpu_caption": "= {per} per GPU ({total} in total on {gpus} GPUs). The field wants "
                           "the whole job's total.",
    "mfu.per_gpu_hint": "Was {typed} the throughput of **one GPU**? The field wants the whole "
                        "job's total: {typed} per GPU on {gpus} GPUs is {total} in total, which "
                        "would give an MFU of **{would}** — a plausible value. If so, type "
                        "{total}.",
    "mfu.diag_intro": "Work down the list: each step rules out a whole class of causes "
                      "before you spend time on the next.",
    "mfu.diag.1": "**1. Are the GPUs busy at all?** Watch `nvidia-smi`: utilisation "
                  "staying under 90 % means the GPUs are waiting, not computing.",
    "mfu.diag.2": "**2. Can the data pipeline keep up?** The most useful first "
                  "experiment: replace the dataloader with fixed random tensors and "
                  "change nothing else.",
    "mfu.diag.2_after": "If MFU jumps, the bottleneck is the data pipeline, not the model. "
                        "Five minutes, and a whole class of problems is settled.",
    "mfu.diag.3": "**3. How much is communication?** Compare MFU on one GPU with MFU on "
                  "the full cluster; the gap is what communication costs you.",
    "mfu.diag.4": "**4. How much is non-matmul work?** Profile a few steps and look at "
                  "how kernel time splits between GEMMs and everything else.",
    "mfu.diag.5": "**5. Are the Tensor Cores used?** Check the precision (BF16/FP16/FP8, "
                  "not FP32) and that matrix dimensions are aligned (multiples of 8, "
                  "better 64).",
    "mfu.diag.6": "**6. Is activation checkpointing too aggressive?** Recomputing every "
                  "layer costs 30 % or more; checkpoint selectively.",
    "mfu.snippet.random": _RANDOM_SNIPPET.format(
        comment1="replace the real batch with a fixed random one, keep everything else",
        comment2="MFU rises a lot -> the data pipeline is the bottleneck, not the model"),
    "mfu.snippet.profiler": _PROFILER_SNIPPET.format(
        c1="skip warm-up steps", c2="who takes the most GPU time",
        c3="open in chrome://tracing or Perfetto"),
    "mfu.trace_heading": "Reading the trace: three signals",
    "mfu.trace_table": "| What you see | What it means | Where to look |\n"
                       "|---|---|---|\n"
                       "| Gaps on the GPU timeline | The GPU waits for the CPU or for data | "
                       "Data pipeline, CPU overhead, synchronisations |\n"
                       "| Many tiny kernels packed together | Nothing is fused; launch "
                       "overhead dominates | Kernel fusion, `torch.compile`, CUDA graphs |\n"
                       "| Communication kernels (`nccl…`) take a large share | "
                       "Communication-bound | Topology, overlap, another parallelism "
                       "strategy |",
}

ZH = {
    "mfu.title": "MFU：你的训练离天花板还有多远？",
    "mfu.intro": "MFU（模型算力利用率）= 真正花在模型计算上的算力 ÷ 硬件峰值算力。不会算 MFU，所有优化都是盲调；有了它，“GPU 看着挺忙”就变成一个能跨任务、"
                 "跨集群、跨团队横向比较的数字。",
    "mfu.inputs_heading": "你的训练任务",
    "mfu.params": "模型参数量 N",
    "mfu.params_help": "稠密模型的参数量，例如 7B、70B、1.3e9。MoE 模型填每个 token "
                       "实际激活的参数量。",
    "mfu.tokens_per_s": "实测吞吐，整个任务（tokens/秒）",
    "mfu.tokens_per_s_help": "整个任务（所有卡加起来）每秒处理的训练 token 数，取稳定阶段的平均值，例如 12k、1.5M 或 12k tokens/秒。"
                             "每个 token 只算一次：不要填单卡的，也不要再乘一遍数据并行度。",
    "mfu.gpus": "GPU 数",
    "mfu.gpus_help": "任务用到的全部 GPU（数据并行 × 张量并行 × 流水线并行），整数。",
    "mfu.peak_override": "单卡峰值算力（{rate}），可选",
    "mfu.peak_override_help": "留空则使用侧边栏所选设备和精度的稠密峰值。"
                              "想改就填，例如 312T、989 TFLOP/s。"
                              "要填训练所用精度的稠密峰值，不要填稀疏宣传值：2:4 稀疏值是稠密值的两倍，"
                              "会让 MFU 只剩一半。",
    "mfu.peak_from_sidebar": "{device}，{precision}（侧边栏）",
    "mfu.peak_from_override": "上面手动填写",
    "mfu.peak_used": "采用的峰值：单卡 **{peak}**——{source}。",
    "mfu.peak_is_sparse": "{peak} 是 {device} 按 2:4 结构化稀疏宣传的数字，是稠密峰值（{dense}）的两倍。"
                          "稠密训练最多只能跑到稠密峰值，所以这样算出的 MFU 只有实际的一半：把这一栏留空就用 {dense}。",
    "mfu.attn_heading": "注意力项（长序列时需要）",
    "mfu.attn_intro": "6N 忽略了注意力的 O(s²) 部分。序列到 8K 左右这一项就不能再忽略了：每个 token 要再加 12·L·h·s FLOP（不计因果掩码跳过的一半时是 6·L·h·s，即下面的默认设置）。",
    "mfu.attn": "加上注意力项 12·L·h·s",
    "mfu.attn_help": "把 QKᵀ 和注意力·V 的计算量（前向 + 反向）也算进去。序列 ≥ 8K 时请打开。",
    "mfu.layers": "层数 L",
    "mfu.layers_help": "Transformer 块的数量，例如 7B Llama 是 32。",
    "mfu.hidden": "隐藏维度 h（d_model）",
    "mfu.hidden_help": "模型宽度，例如 7B Llama 是 4096。",
    "mfu.seq": "序列长度 s（token）",
    "mfu.seq_help": "每条训练样本的 token 数，例如 4096、8k、32k。",
    "mfu.causal": "因果掩码：只算一半（FlashAttention 的做法）",
    "mfu.causal_help": "跳过分数矩阵中被掩码的那一半的 kernel，注意力计算量只有一半。不勾选就是原始的 12·L·h·s 公式（PaLM）。",
    "mfu.attn_missing": "请修正注意力项的输入（层数、隐藏维度、序列长度），或者关掉注意力项。",
    "mfu.inverse_heading": "反过来算",
    "mfu.target_mfu": "目标 MFU",
    "mfu.target_mfu_help": "你想达到的 MFU；下面会告诉你在这套集群上需要多少 tokens/秒。",
    "mfu.results_heading": "结果",
    "mfu.metric.mfu": "MFU",
    "mfu.metric.mfu_help": "模型有效 FLOP/s ÷ 所有卡的峰值 FLOP/s。",
    "mfu.metric.achieved": "单卡有效算力",
    "mfu.metric.achieved_help": "每张卡实际贡献的模型 FLOP/s（每 token FLOP × tokens/秒 ÷ GPU 数），峰值是 {peak}。",
    "mfu.metric.fpt": "每 token 训练 FLOP",
    "mfu.metric.fpt_help": "6N：前向 2N，反向 4N（对输入和对权重各求一次梯度）；打开注意力项时再加上它。",
    "mfu.attn_share": "注意力项占每 token FLOP 的 {share}。",
    "mfu.band.problem.short": "有明显问题",
    "mfu.band.low.short": "偏低",
    "mfu.band.fair.short": "一般",
    "mfu.band.good.short": "良好",
    "mfu.band.excellent.short": "优秀",
    "mfu.band.suspicious.short": "可疑",
    "mfu.metric.peak": "单卡峰值",
    "mfu.metric.peak_help": "分母里用的单卡稠密峰值 FLOP/s。",
    "mfu.band.problem.name": "< 20% 有明显问题",
    "mfu.band.low.name": "20–35% 偏低",
    "mfu.band.fair.name": "35–45% 一般",
    "mfu.band.good.name": "45–55% 良好",
    "mfu.band.excellent.name": "55–60% 优秀",
    "mfu.band.suspicious.name": "> 60% 可疑",
    "mfu.band.problem.advice": "肯定哪里出了问题。先查数据管线——多半是 GPU 没喂饱。",
    "mfu.band.low.advice": "去查激活检查点的配置、通信和算子融合。",
    "mfu.band.fair.advice": "常规优化还有空间。",
    "mfu.band.good.advice": "已经是跑得不错的任务了。",
    "mfu.band.excellent.advice": "已经接近实际能达到的天花板。",
    "mfu.band.suspicious.advice": "先别高兴，检查一下你的公式。",
    "mfu.band_verdict": "**MFU {mfu}：{name}。** {advice}",
    "mfu.over_60": "实际中很少能超过 60%，先别急着庆祝，检查一下：峰值是不是太小了——用 FP8 训练却除以 BF16 峰值，"
                   "或者 SXM 的卡用了 PCIe 版的峰值？FLOP 是不是算多了——混合专家（MoE）模型用了总参数量而不是激活参数量，"
                   "或者 6N 按卡算了一遍又按集群算了一遍？token 是不是只算了一次，而不是按数据并行 rank 算了又加一遍？"
                   "计时前有没有同步？（2:4 稀疏峰值是稠密值的两倍，只会让 MFU 变低，不会变高。）",
    "mfu.hfu_over_100": "**HFU {hfu}** 超过了 100%，这不可能：GPU 执行的计算不会超过它的峰值。MFU（{mfu}）本身可能，"
                        "所以最可能的原因是重计算被算了两次：实际没有“{recompute}”说的那么多重计算，或者 tokens/秒已经包含了重计算的工作。"
                        "请对照训练配置检查重计算设置。",
    "mfu.over_100": "MFU 不可能超过 100%，输入一定有错。会把它推高的原因：峰值太小（FP8 训练用了 BF16 峰值、"
                    "SXM 的卡用了 PCIe 版峰值）；FLOP 算多了（MoE 模型用了总参数量而不是激活参数量，"
                    "6N 按卡算了又按集群算）；token 按数据并行 rank 算了又加了一遍；或者时间测短了"
                    "（异步启动没有同步就计时）。2:4 稀疏峰值不会造成这种情况：它是稠密峰值的两倍，只会让 MFU 变低。",
    "mfu.ceiling_note": "为什么天花板是 60% 左右而不是 100%：通信、非矩阵乘操作（LayerNorm、Softmax、"
                        "激活函数）、数据加载、kernel 启动、优化器更新都要占时间，却不算“有效”的模型 FLOP。",
    "mfu.seq_warning": "序列长度 {seq} 个 token：注意力项（当前未打开）会让每 token FLOP 多出 {share}，所以这里的 MFU 被低估了。请在上面打开注意力项。",
    "mfu.inverse_result": "要在 {gpus}上达到 **{target}** 的 MFU，需要 **{needed}**（现在是 {now}）。",
    "mfu.how.fpt": "每 token 训练 FLOP（N 为参数量；注意力项里 L 为层数、h 为隐藏维度、s 为序列长度）：",
    "mfu.how.mfu": "MFU = 有效 FLOP/s ÷ 峰值 FLOP/s：",
    "mfu.how.inverse": "达到目标 MFU 需要的 tokens/秒（同一个公式反解）：",
    "mfu.fig.x_title": "MFU",
    "mfu.fig.marker_hover": "你的 MFU：{mfu}",
    "mfu.fig.marker_label": "你的任务：{mfu}",
    "mfu.diag_heading": "MFU 损失在哪里：按这个顺序查",
    "mfu.diag_heading.problem": "MFU 很低：按这个顺序查",
    "mfu.diag_heading.low": "MFU 偏低：按这个顺序查",
    "mfu.diag_heading.fair": "MFU 一般：剩下的损失在哪里，按这个顺序看",
    "mfu.diag_heading.good": "MFU 良好：还想再提高，按这个顺序看",
    "mfu.diag_heading.excellent": "MFU 已接近天花板：剩下的空间，按这个顺序看",
    "mfu.diag_heading.suspicious": "MFU 高得可疑：先检查输入，再看这个清单",
    "mfu.diag_heading.impossible": "MFU 超过 100% 是不可能的：先修正上面的输入；这个清单是给真实 MFU 用的",
    "mfu.per_gpu_caption": "= 每张卡 {per}（{gpus} 张卡共 {total}）。这里要填整个任务的总吞吐。",
    "mfu.per_gpu_hint": "{typed} 是不是**单张卡**的吞吐？这里要填整个任务的总吞吐：每张卡 {typed}、{gpus} 张卡，"
                        "总共是 {total}，对应的 MFU 是 **{would}**——这才是合理的数值。如果是这样，请填 {total}。",
    "mfu.diag_intro": "从上往下查：每一步都能先排除一整类原因，再花时间看下一步。",
    "mfu.diag.1": "**① GPU 到底有没有在跑？** 看 `nvidia-smi`：利用率长期低于 90%，"
                  "说明 GPU 在等，而不是在算。",
    "mfu.diag.2": "**② 数据管线跟得上吗？** 最值得先做的一个实验："
                  "把 dataloader 换成固定的随机张量，其他一概不动。",
    "mfu.diag.2_after": "如果 MFU 明显上升，瓶颈就在数据管线，不在模型。"
                        "五分钟的实验，就能排除掉一整类问题。",
    "mfu.diag.3": "**③ 通信占了多少？** 对比单卡和整个集群的 MFU，差出来的就是通信的代价。",
    "mfu.diag.4": "**④ 非矩阵乘操作占了多少？** 用 profiler 抓几步，看 kernel 时间在 GEMM "
                  "和其他算子之间怎么分布。",
    "mfu.diag.5": "**⑤ Tensor Core 用上了吗？** 检查精度（BF16/FP16/FP8，而不是 FP32），"
                  "以及矩阵维度是否对齐（8 的倍数，最好 64 的倍数）。",
    "mfu.diag.6": "**⑥ 激活检查点是不是开得太狠？** 每层全量重计算会掉 30% 以上，改成选择性重计算。",
    "mfu.snippet.random": _RANDOM_SNIPPET.format(
        comment1="把真实 batch 换成固定的随机张量，其他保持不变",
        comment2="MFU 显著上升 -> 瓶颈在数据管线，不在模型"),
    "mfu.snippet.profiler": _PROFILER_SNIPPET.format(
        c1="跳过预热的几步", c2="看谁最耗 GPU 时间",
        c3="拖进 chrome://tracing 或 Perfetto 查看"),
    "mfu.trace_heading": "读 trace 的三个信号",
    "mfu.trace_table": "| 你看到的 | 说明什么 | 往哪里查 |\n"
                       "|---|---|---|\n"
                       "| GPU 时间轴上有空隙 | GPU 在等 CPU 或等数据 | 数据管线、CPU 开销、同步点 |\n"
                       "| 一堆小 kernel 密集排列 | 没有融合，kernel 启动开销占比高 | "
                       "算子融合、`torch.compile`、CUDA Graph |\n"
                       "| 通信 kernel（`nccl…`）占比大 | 通信瓶颈 | 检查拓扑、计算通信重叠、换并行策略 |",
}
