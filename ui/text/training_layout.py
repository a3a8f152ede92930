"""Strings of the Training layout page (keys "training_layout.*")."""

EN = {
    "training_layout.title": "Training layout: which split, how long a step, where the time goes",
    "training_layout.intro": "Give the cluster, the sequence length and the global batch: every "
                             "tensor × pipeline × data × expert × context-parallel layout that "
                             "fits the GPUs' memory is timed term by term — compute at the "
                             "efficiency its GEMM sizes reach, the pipeline bubble of the "
                             "schedule, each collective on the network tier it crosses — and "
                             "sorted fastest first. The MFU it predicts can go to the Training "
                             "time page and Plans.",
    "training_layout.no_model": "This page needs an architecture: pick a model in the sidebar "
                                "(**Model**).",
    "training_layout.inputs_heading": "The run",
    "training_layout.gpus": "GPUs (the cluster)",
    "training_layout.gpus_help": "Accelerators of the whole run, e.g. 1024. Every layout uses all "
                                 "of them: tp × pp × dp × cp = GPUs.",
    "training_layout.seq": "Sequence length (tokens)",
    "training_layout.seq_help": "Tokens per training sequence, e.g. 4096 or 8192. Context "
                                "parallelism is tried from 32k tokens on.",
    "training_layout.gbatch": "Global batch",
    "training_layout.gbatch_help": "What one optimizer step consumes over all data-parallel "
                                   "GPUs, in sequences or tokens (Llama 3 405B: 16M tokens = "
                                   "2048 sequences of 8192).",
    "training_layout.gbatch_unit": "Global batch in",
    "training_layout.gbatch_unit_help": "Sequences, or tokens (divided by the sequence length).",
    "training_layout.unit.seq": "sequences",
    "training_layout.unit.tokens": "tokens",
    "training_layout.gbatch_tokens_note": "{tokens} tokens = {seqs} sequences of {seq}.",
    "training_layout.gbatch_too_small": "The global batch is less than one sequence of {seq} "
                                        "tokens: give more tokens.",
    "training_layout.recompute": "Activation recomputation",
    "training_layout.recompute_help": "None keeps every activation; selective recomputes core "
                                      "attention (Korthikanti et al. 2022); full reruns the "
                                      "forward pass in the backward pass (less memory, +1/3 "
                                      "compute). Changes HFU, not MFU.",
    "training_layout.recompute.none": "none",
    "training_layout.recompute.selective": "selective",
    "training_layout.recompute.full": "full",
    "training_layout.zero": "ZeRO stage",
    "training_layout.zero_help": "What data parallelism shards: 0 nothing, 1 optimizer states "
                                 "(Megatron's distributed optimizer), 2 + gradients, 3 + "
                                 "weights (FSDP): weights are gathered for every micro-batch.",
    "training_layout.zero.0": "0 (none)",
    "training_layout.zero.1": "1 (optimizer states)",
    "training_layout.zero.2": "2 (+ gradients)",
    "training_layout.zero.3": "3 (+ weights, FSDP)",
    "training_layout.schedule": "Pipeline schedule",
    "training_layout.schedule_help": "1F1B (Narayanan et al. 2021), interleaved with v ≥ 2 model "
                                     "chunks per GPU (smaller bubble, more point-to-point "
                                     "traffic and activations); ZB1P, zero bubble (Qi et al. "
                                     "2023); DualPipe (DeepSeek-V3: two copies of the "
                                     "parameters, hides the expert all-to-all).",
    "training_layout.schedule.1f1b": "1F1B (interleaved with v ≥ 2)",
    "training_layout.schedule.interleaved": "interleaved 1F1B",
    "training_layout.schedule.zb1p": "ZB1P (zero bubble)",
    "training_layout.schedule.dualpipe": "DualPipe",
    "training_layout.interleave": "Model chunks per GPU (v)",
    "training_layout.interleave_help": "1F1B only: with v ≥ 2 each GPU holds v chunks of L/(p·v) "
                                       "layers (the interleaved schedule); the bubble shrinks v "
                                       "times. Needs micro-batches divisible by pp.",
    "training_layout.sp": "Sequence parallelism",
    "training_layout.sp_help": "Split norms and dropouts along the sequence across the "
                               "tensor-parallel GPUs (Korthikanti et al. 2022): the same bytes "
                               "on the wire as all-reduces, tp times less activation memory.",
    "training_layout.flash": "FlashAttention",
    "training_layout.flash_help": "Fused attention (Dao et al. 2022): the s×s scores never reach "
                                  "memory. Off: QKᵀ, softmax and ·V as separate kernels, as "
                                  "the 2021-2022 Megatron runs did (slower, more activation "
                                  "memory without recomputation).",
    "training_layout.dropout": "Attention dropout",
    "training_layout.dropout_help": "Megatron-LM drops 10 % of the attention probabilities by "
                                    "default; without FlashAttention that is one more pass over "
                                    "the s×s probabilities (read, write and a 1-byte mask, in "
                                    "the backward pass too). On for the 2021-2022 Megatron runs; "
                                    "Llama-style runs train without dropout.",
    "training_layout.net_heading": "The network",
    "training_layout.net": "Network",
    "training_layout.net_help": "The device's reference system from hardware.toml (GPUs per "
                                "NVLink domain, bandwidth per GPU inside it and to the "
                                "InfiniBand network), or your own.",
    "training_layout.net.device": "the device's ({domain} GPUs per domain, {up} and {out} per GPU)",
    "training_layout.net.device_missing": "the device's (none in hardware.toml)",
    "training_layout.net.custom": "typed here",
    "training_layout.net_missing": "hardware.toml gives no network for this device: type one.",
    "training_layout.net_gpus": "GPUs per scale-up domain",
    "training_layout.net_gpus_help": "GPUs joined by NVLink / xGMI / ICI: 8 in an HGX node, 72 in "
                                     "a GB200 NVL72 rack. A group wider than this crosses the "
                                     "slow tier.",
    "training_layout.net_up": "Scale-up bandwidth per GPU, one direction",
    "training_layout.net_up_help": "NVLink bandwidth of one GPU in one direction: H100 SXM 450 "
                                   "GB/s (the datasheet's 900 GB/s counts both).",
    "training_layout.net_out": "Scale-out bandwidth per GPU, one direction",
    "training_layout.net_out_help": "The GPU's NIC: 400 Gb/s InfiniBand NDR = 50 GB/s, 200 Gb/s "
                                    "HDR = 25 GB/s.",
    "training_layout.net.custom_source": "the figures typed above.",
    "training_layout.net_caption": "Collectives reach {up_eff} of the scale-up and {out_eff} of the "
                                   "scale-out bandwidth (Calculon's system files). Source: {source}",
    "training_layout.results_heading": "Layouts that fit, fastest first",
    "training_layout.none_fit": "No layout fits: {count} were tried. Open the rejected "
                                "layouts below to see why (more GPUs, full recomputation, "
                                "ZeRO-3 or a shorter sequence help memory).",
    "training_layout.count": "{fit} layouts fit of {tried} tried; searched in {ms} ms.",
    "training_layout.col.layout": "Layout",
    "training_layout.col.tp": "tp",
    "training_layout.col.pp": "pp",
    "training_layout.col.dp": "dp",
    "training_layout.col.ep": "ep",
    "training_layout.col.cp": "cp",
    "training_layout.col.mb": "micro-batch",
    "training_layout.col.step": "Step time",
    "training_layout.col.mfu": "MFU (predicted)",
    "training_layout.col.memory": "Memory per GPU",
    "training_layout.col.largest": "Largest cost besides compute",
    "training_layout.col.reason": "Why rejected",
    "training_layout.part.compute": "compute",
    "training_layout.part.bubble": "pipeline bubble",
    "training_layout.part.tp": "tensor-parallel comm.",
    "training_layout.part.cp": "context-parallel comm.",
    "training_layout.part.ep": "expert all-to-all",
    "training_layout.part.pp": "pipeline send/receive",
    "training_layout.part.dp": "data-parallel comm.",
    "training_layout.part.optimizer": "optimizer step",
    "training_layout.choose": "Layout to inspect",
    "training_layout.choose_fastest": "The fastest ({layout})",
    "training_layout.choose_help": "One of the layouts that fit (the fastest first); its step, "
                                   "memory and schedule are drawn below. \"The fastest\" follows "
                                   "the inputs; a layout picked by name stays while it fits.",
    "training_layout.layout_label": "tp {tp} · pp {pp} · dp {dp} · ep {ep} · cp {cp} · micro-batch {mb}",
    "training_layout.metric.step": "Step time",
    "training_layout.metric.mfu": "MFU (predicted)",
    "training_layout.metric.hfu": "HFU (predicted)",
    "training_layout.metric.tokens": "Tokens/s (cluster)",
    "training_layout.metric.bubble": "Bubble share",
    "training_layout.metric.memory": "Memory per GPU (worst stage)",
    "training_layout.tiers": "Groups and the tier they run on: {tiers}.",
    "training_layout.tier.scale_up": "scale-up",
    "training_layout.tier.scale_out": "scale-out",
    "training_layout.warn.tp_crosses_domain": "The tensor-parallel group ({tp} GPUs) is wider "
                                              "than the scale-up domain ({domain}): its "
                                              "all-reduces run on the slow network.",
    "training_layout.hidden": "Overlapped with compute (not in the bar): context-parallel "
                              "{cp}, expert all-to-all {ep}, data-parallel {dp}.",
    "training_layout.use_heading": "Use this layout",
    "training_layout.use": "Use this layout's MFU on the Training time page",
    "training_layout.use_help": "Opens the Training time page with this cluster and the predicted "
                                "MFU, shown there as predicted beside the published band.",
    "training_layout.predicted_caption": "**Predicted** by the Training layout page: MFU {mfu} "
                                         "for {layout} on {gpus} GPUs (a prediction; the "
                                         "published runs' band is below).",
    "training_layout.use_plans": "Add it to Plans",
    "training_layout.use_plans_help": "Adds a training plan with this model, device, GPUs and "
                                      "predicted MFU to the Plans page.",
    "training_layout.plans_added": "Added to Plans: {label}.",
    "training_layout.rejected": "Show the rejected layouts and why",
    "training_layout.rejected_help": "Every layout the search tried and did not keep, with its "
                                     "reason: memory, divisibility, a tensor-parallel group "
                                     "across nodes.",
    "training_layout.rejected_more": "Showing {shown} of {total}.",
    "training_layout.reason.gpus_not_divisible": "tp·pp·cp = {product} does not divide {gpus} GPUs",
    "training_layout.reason.tp_heads": "tp {tp} does not divide the {heads} attention heads",
    "training_layout.reason.tp_crosses_domain": "tensor-parallel group of {tp} crosses the {domain}-GPU scale-up domain",
    "training_layout.reason.pp_layers": "{chunks} pipeline chunks for {layers} layers",
    "training_layout.reason.cp_seq": "sequence {seq_len} is not divisible by 2·cp = {double}",
    "training_layout.reason.ep_dense": "expert parallelism on a dense model",
    "training_layout.reason.ep_experts": "ep {ep} does not divide the {experts} experts",
    "training_layout.reason.ep_dp": "ep {ep} does not divide dp {dp}",
    "training_layout.reason.batch_not_divisible": "global batch {global_batch} is not a multiple of dp × micro-batch = {product}",
    "training_layout.reason.interleave_pp": "interleaving needs v ≥ 2",
    "training_layout.reason.interleave_microbatches": "{m} micro-batches not divisible by pp {pp} (interleaved)",
    "training_layout.reason.dualpipe_pp_even": "DualPipe needs an even pp (got {pp})",
    "training_layout.reason.memory": "needs {memory} per GPU; {usable} usable of {capacity}",
    "training_layout.reason.no_network": "no network: type one",
    "training_layout.fig.step_title": "Where one step's time goes",
    "training_layout.fig.seconds": "seconds per step",
    "training_layout.fig.memory_title": "Memory per GPU, worst stage",
    "training_layout.fig.memory_axis": "bytes per GPU",
    "training_layout.fig.capacity": "capacity {capacity}",
    "training_layout.fig.usable": "usable {usable}",
    "training_layout.mem.weights": "weights",
    "training_layout.mem.gradients": "gradients",
    "training_layout.mem.optimizer": "optimizer states",
    "training_layout.mem.activations": "activations",
    "training_layout.mem.zero3_buffers": "ZeRO-3 buffers",
    "training_layout.fig.gantt_title": "Schedule: {schedule}, p = {p}, m = {m}{v}",
    "training_layout.fig.gantt_v": ", v = {v}",
    "training_layout.fig.schedule.1f1b": "1F1B",
    "training_layout.fig.schedule.interleaved": "interleaved 1F1B",
    "training_layout.fig.schedule.zb1p": "ZB1P",
    "training_layout.fig.schedule.dualpipe": "DualPipe",
    "training_layout.fig.gantt_trimmed": "first {m} of {total} micro-batches drawn",
    "training_layout.fig.stage": "stage {s}",
    "training_layout.fig.time": "time (s)",
    "training_layout.fig.F": "forward",
    "training_layout.fig.B": "backward",
    "training_layout.fig.W": "weight gradients",
    "training_layout.fig.idle": "idle (bubble) {share}",
    "training_layout.gantt_caption": "The timeline is a simulation of the schedule with this "
                                     "layout's forward and backward times per micro-batch; "
                                     "DualPipe is drawn as its zero-bubble half (the bubble "
                                     "figure uses DualPipe's own formula).",
    "training_layout.caveat": "**A prediction, not a measurement.** Not modelled: stragglers "
                              "and slow nodes, data loading, kernel launch gaps and CPU "
                              "overhead, checkpoint saves, failures and restarts, NCCL's "
                              "algorithm choice and network congestion, clock throttling, "
                              "uneven expert routing. Published runs reached 0.5–1.2× these "
                              "MFUs (README, \"Training layouts: predicted vs published\").",
    "training_layout.how.gemm": "Each GEMM of one micro-batch on one GPU runs at the share of "
                                "peak its size reaches: Calculon's table (0.95 ≥ 128 GFLOP, "
                                "0.90 ≥ 16, 0.60 ≥ 1, else 0.10), scaled to this device's "
                                "measured best GEMM (hardware.toml matmul_fraction, "
                                "stas00/ml-engineering MAMF). Attention at 0.5 of peak "
                                "(FlashAttention-2); norms, activations and residual adds at "
                                "the memory bandwidth.",
    "training_layout.how.fb": "Forward and backward of one micro-batch on the worst stage "
                              "({layers} layers), each with its tensor-parallel, "
                              "context-parallel, expert and pipeline communication inside.",
    "training_layout.how.tp": "Tensor parallelism: per layer 2 all-reduces forward and 2 "
                              "backward of b·s·h·2 bytes (with sequence parallelism all-gathers "
                              "and reduce-scatters of the same bytes), ring cost "
                              "2(n−1)/n · bytes ÷ bandwidth; at the model's ends one more pair "
                              "for the LM head's input (and the embedding's output when one "
                              "stage holds the whole model) and the vocab-parallel cross "
                              "entropy's 3 all-reduces of one FP32 number per token.",
    "training_layout.how.bubble": "The schedule's bubble (1F1B (p−1)(F+B); interleaved ÷ v; "
                                  "ZB1P (p−1)(F+B−2W); DualPipe (p/2−1)(F&B+B−3W)).",
    "training_layout.how.dp": "Data parallelism: the gradients' reduce-scatter (and the weights' "
                              "all-gather) overlap the backward of the last micro-batch; "
                              "what does not fit, and at least one bucket, is exposed.",
    "training_layout.how.step": "The step: pipeline time, exposed data-parallel time and the "
                                "optimizer step.",
    "training_layout.how.mfu": "MFU: model FLOPs per token (6N plus attention) × tokens per step "
                               "÷ (step time × GPUs × peak).",
}

ZH = {
    "training_layout.title": "并行布局：怎么切分、单步时间多长、时间花在哪里",
    "training_layout.intro": "给出集群规模、序列长度和全局批大小，本页会对显存放得下的每一种张量 × 流水线 × 数据 × 专家 × 上下文并行布局逐项计时，"
                             "并按从快到慢排序：计算按其 GEMM 尺寸能达到的效率计，流水线气泡按所选调度计，每个集合通信按它经过的网络层级计。"
                             "预测的 MFU 可以带到「训练时长」页和「方案对比」页。",
    "training_layout.no_model": "本页需要模型结构：请在侧边栏（**模型**）选择一个模型。",
    "training_layout.inputs_heading": "训练任务",
    "training_layout.gpus": "GPU 数（整个集群）",
    "training_layout.gpus_help": "整个训练任务的加速器数量，例如 1024。每种布局都用满全部 GPU："
                                 "tp × pp × dp × cp = GPU 数。",
    "training_layout.seq": "序列长度（token）",
    "training_layout.seq_help": "每条训练序列的 token 数，例如 4096 或 8192。从 32k token 起才尝试"
                                "上下文并行。",
    "training_layout.gbatch": "全局批大小",
    "training_layout.gbatch_help": "一次优化器更新在所有数据并行 GPU 上消耗的数据量，按序列或 token 计（Llama 3 405B："
                                   "16M token = 2048 条长度为 8192 的序列）。",
    "training_layout.gbatch_unit": "全局批大小的单位",
    "training_layout.gbatch_unit_help": "序列条数，或 token 数（除以序列长度）。",
    "training_layout.unit.seq": "序列",
    "training_layout.unit.tokens": "token",
    "training_layout.gbatch_tokens_note": "{tokens} 个 token = {seqs} 条长度为 {seq} 的序列。",
    "training_layout.gbatch_too_small": "全局批大小还不到一条 {seq} token 的序列：请增大 token 数。",
    "training_layout.recompute": "激活重计算",
    "training_layout.recompute_help": "不重计算则保留全部激活；选择性重计算只重计算核心注意力（Korthikanti 等，2022）；"
                                      "全量重计算在反向时重跑一遍前向（省显存，计算量多 1/3）。它改变 HFU，不改变 MFU。",
    "training_layout.recompute.none": "不重计算",
    "training_layout.recompute.selective": "选择性",
    "training_layout.recompute.full": "全量",
    "training_layout.zero": "ZeRO 阶段",
    "training_layout.zero_help": "数据并行切分什么：0 不切分，1 优化器状态（Megatron 的分布式优化器），"
                                 "2 再加梯度，3 再加权重（FSDP）：每个微批都要收集权重。",
    "training_layout.zero.0": "0（不切分）",
    "training_layout.zero.1": "1（优化器状态）",
    "training_layout.zero.2": "2（+ 梯度）",
    "training_layout.zero.3": "3（+ 权重，FSDP）",
    "training_layout.schedule": "流水线调度",
    "training_layout.schedule_help": "1F1B（Narayanan 等，2021），v ≥ 2 时为交错 1F1B，每卡 v 个模型块（气泡更小，"
                                     "但点对点通信和激活更多）；ZB1P，零气泡（Qi 等，2023）；DualPipe（DeepSeek-V3：保存两份参数，"
                                     "隐藏专家 all-to-all）。",
    "training_layout.schedule.1f1b": "1F1B（v ≥ 2 时为交错调度）",
    "training_layout.schedule.interleaved": "交错 1F1B",
    "training_layout.schedule.zb1p": "ZB1P（零气泡）",
    "training_layout.schedule.dualpipe": "DualPipe",
    "training_layout.interleave": "每卡模型块数（v）",
    "training_layout.interleave_help": "仅用于 1F1B：v ≥ 2 时为交错调度，每卡放 v 块、每块 L/(p·v) 层；气泡缩小为 1/v。"
                                       "要求微批数能被 pp 整除。",
    "training_layout.sp": "序列并行",
    "training_layout.sp_help": "把归一化和 dropout 沿序列维切分到张量并行的各卡上（Korthikanti 等，2022）："
                               "通信字节数与 all-reduce 相同，激活显存降为 1/tp。",
    "training_layout.flash": "FlashAttention",
    "training_layout.flash_help": "融合的注意力（Dao 等，2022）：s×s 的注意力分数不写回显存。关闭时，QKᵀ、"
                                  "softmax 和 ·V 是三个独立的 kernel，与 2021–2022 年的 Megatron 训练一样（更慢；"
                                  "不重计算时激活显存更多）。",
    "training_layout.dropout": "注意力 dropout",
    "training_layout.dropout_help": "Megatron-LM 默认丢弃 10% 的注意力概率；不用 FlashAttention 时，"
                                    "这意味着对 s×s 概率矩阵多做一遍处理（读、写，外加 1 字节的掩码；反向同样如此）。"
                                    "2021–2022 年的 Megatron 训练开启了它；Llama 一类的训练不用 dropout。",
    "training_layout.net_heading": "网络",
    "training_layout.net": "网络",
    "training_layout.net_help": "hardware.toml 中该设备的参考系统（每个 NVLink 域的 GPU 数、域内及到 "
                                "InfiniBand 网络的每卡带宽），或自行输入。",
    "training_layout.net.device": "该设备的参考配置（每域 {domain} 张卡，每卡 {up} 与 {out}）",
    "training_layout.net.device_missing": "该设备的参考配置（hardware.toml 中没有）",
    "training_layout.net.custom": "在此输入",
    "training_layout.net_missing": "hardware.toml 没有给出该设备的网络：请输入一个。",
    "training_layout.net_gpus": "每个高速互联域的 GPU 数",
    "training_layout.net_gpus_help": "由 NVLink / xGMI / ICI 相连的 GPU：HGX 节点 8 张，GB200 NVL72 机柜 "
                                     "72 张。比它宽的通信组要走慢速网络。",
    "training_layout.net_up": "每卡高速互联带宽（单向）",
    "training_layout.net_up_help": "一张卡单方向的 NVLink 带宽：H100 SXM 450 GB/s（规格书的 900 GB/s "
                                   "是双向之和）。",
    "training_layout.net_out": "每卡跨节点带宽（单向）",
    "training_layout.net_out_help": "该卡的网卡：400 Gb/s InfiniBand NDR = 50 GB/s，200 Gb/s HDR = 25 GB/s。",
    "training_layout.net.custom_source": "上面输入的数值。",
    "training_layout.net_caption": "集合通信可达高速互联带宽的 {up_eff}、跨节点带宽的 {out_eff}"
                                   "（Calculon 的系统文件）。来源：{source}",
    "training_layout.results_heading": "放得下的布局（从快到慢）",
    "training_layout.none_fit": "没有放得下的布局：共尝试 {count} 种。展开下方被排除的布局查看原因（增加 GPU、全量重计算、"
                                "ZeRO-3 或缩短序列都能降低显存占用）。",
    "training_layout.count": "尝试 {tried} 种，放得下 {fit} 种；搜索耗时 {ms} ms。",
    "training_layout.col.layout": "布局",
    "training_layout.col.tp": "tp",
    "training_layout.col.pp": "pp",
    "training_layout.col.dp": "dp",
    "training_layout.col.ep": "ep",
    "training_layout.col.cp": "cp",
    "training_layout.col.mb": "微批",
    "training_layout.col.step": "单步时间",
    "training_layout.col.mfu": "MFU（预测）",
    "training_layout.col.memory": "每卡显存",
    "training_layout.col.largest": "计算之外最大的开销",
    "training_layout.col.reason": "排除原因",
    "training_layout.part.compute": "计算",
    "training_layout.part.bubble": "流水线气泡",
    "training_layout.part.tp": "张量并行通信",
    "training_layout.part.cp": "上下文并行通信",
    "training_layout.part.ep": "专家 all-to-all",
    "training_layout.part.pp": "流水线收发",
    "training_layout.part.dp": "数据并行通信",
    "training_layout.part.optimizer": "优化器更新",
    "training_layout.choose": "要查看的布局",
    "training_layout.choose_fastest": "最快的（{layout}）",
    "training_layout.choose_help": "放得下的布局之一（最快的排在最前）；下方画出它的单步时间构成、显存和调度。"
                                   "“最快的”随输入而变；按名字选中的布局只要还放得下就保持不变。",
    "training_layout.layout_label": "tp {tp} · pp {pp} · dp {dp} · ep {ep} · cp {cp} · 微批 {mb}",
    "training_layout.metric.step": "单步时间",
    "training_layout.metric.mfu": "MFU（预测）",
    "training_layout.metric.hfu": "HFU（预测）",
    "training_layout.metric.tokens": "tokens/秒（整个集群）",
    "training_layout.metric.bubble": "气泡占比",
    "training_layout.metric.memory": "每卡显存（最吃紧的流水线级）",
    "training_layout.tiers": "各通信组及其所在网络层级：{tiers}。",
    "training_layout.tier.scale_up": "高速互联",
    "training_layout.tier.scale_out": "跨节点",
    "training_layout.warn.tp_crosses_domain": "张量并行组（{tp} 张卡）超出了高速互联域（{domain} 张卡）："
                                              "它的 all-reduce 要走慢速网络。",
    "training_layout.hidden": "与计算重叠（不计入柱状图）：上下文并行 {cp}，专家 all-to-all {ep}，"
                              "数据并行 {dp}。",
    "training_layout.use_heading": "使用这个布局",
    "training_layout.use": "在「训练时长」页使用这个布局的 MFU",
    "training_layout.use_help": "打开「训练时长」页，带上这个集群规模和预测的 MFU；那里会把它标为预测值，"
                                "与公开实测区间并列。",
    "training_layout.predicted_caption": "**预测值**（来自「并行布局」页）：{gpus} 张卡上 {layout} 的 MFU 为 "
                                         "{mfu}（这是预测；公开训练的区间见下方）。",
    "training_layout.use_plans": "加入方案对比",
    "training_layout.use_plans_help": "在「方案对比」页添加一个训练方案：本模型、设备、GPU 数和预测的 MFU。",
    "training_layout.plans_added": "已加入方案对比：{label}。",
    "training_layout.rejected": "显示被排除的布局及原因",
    "training_layout.rejected_help": "搜索尝试过但未保留的每种布局及原因：显存、整除关系、跨节点的张量并行组。",
    "training_layout.rejected_more": "共 {total} 条，显示其中 {shown} 条。",
    "training_layout.reason.gpus_not_divisible": "tp·pp·cp = {product} 不能整除 {gpus} 张卡",
    "training_layout.reason.tp_heads": "tp {tp} 不能整除 {heads} 个注意力头",
    "training_layout.reason.tp_crosses_domain": "{tp} 卡的张量并行组跨出 {domain} 卡的高速互联域",
    "training_layout.reason.pp_layers": "流水线块数 {chunks} 多于层数 {layers}",
    "training_layout.reason.cp_seq": "序列长度 {seq_len} 不能被 2·cp = {double} 整除",
    "training_layout.reason.ep_dense": "稠密模型不能用专家并行",
    "training_layout.reason.ep_experts": "ep {ep} 不能整除 {experts} 个专家",
    "training_layout.reason.ep_dp": "ep {ep} 不能整除 dp {dp}",
    "training_layout.reason.batch_not_divisible": "全局批大小 {global_batch} 不是 dp × 微批 = {product} 的倍数",
    "training_layout.reason.interleave_pp": "交错调度需要 v ≥ 2",
    "training_layout.reason.interleave_microbatches": "{m} 个微批不能被 pp {pp} 整除（交错调度）",
    "training_layout.reason.dualpipe_pp_even": "DualPipe 需要偶数的 pp（现为 {pp}）",
    "training_layout.reason.memory": "每卡需要 {memory}；{capacity} 中可用 {usable}",
    "training_layout.reason.no_network": "没有网络：请输入一个",
    "training_layout.fig.step_title": "一步的时间花在哪里",
    "training_layout.fig.seconds": "每步秒数",
    "training_layout.fig.memory_title": "每卡显存（最吃紧的流水线级）",
    "training_layout.fig.memory_axis": "每卡字节数",
    "training_layout.fig.capacity": "容量 {capacity}",
    "training_layout.fig.usable": "可用 {usable}",
    "training_layout.mem.weights": "权重",
    "training_layout.mem.gradients": "梯度",
    "training_layout.mem.optimizer": "优化器状态",
    "training_layout.mem.activations": "激活",
    "training_layout.mem.zero3_buffers": "ZeRO-3 缓冲区",
    "training_layout.fig.gantt_title": "调度：{schedule}，p = {p}，m = {m}{v}",
    "training_layout.fig.gantt_v": "，v = {v}",
    "training_layout.fig.schedule.1f1b": "1F1B",
    "training_layout.fig.schedule.interleaved": "交错 1F1B",
    "training_layout.fig.schedule.zb1p": "ZB1P",
    "training_layout.fig.schedule.dualpipe": "DualPipe",
    "training_layout.fig.gantt_trimmed": "只画出 {total} 个微批中的前 {m} 个",
    "training_layout.fig.stage": "第 {s} 级",
    "training_layout.fig.time": "时间（秒）",
    "training_layout.fig.F": "前向",
    "training_layout.fig.B": "反向",
    "training_layout.fig.W": "权重梯度",
    "training_layout.fig.idle": "空闲（气泡）{share}",
    "training_layout.gantt_caption": "时间轴按本布局每个微批的前向、反向时间模拟调度；"
                                     "DualPipe 只画出其零气泡的那一半（气泡占比仍按 DualPipe 自身的公式计算）。",
    "training_layout.caveat": "**这是预测，不是实测。** 未建模：掉队节点与慢节点、数据加载、kernel 启动间隔与 CPU 开销、保存检查点、故障与重启、"
                              "NCCL 的算法选择与网络拥塞、降频、专家路由不均。"
                              "公开训练的实测 MFU 是这些预测值的 0.5–1.2 倍（见 README「Training layouts: predicted vs published」"
                              "一节）。",
    "training_layout.how.gemm": "单卡上一个微批的每个 GEMM 按其尺寸能达到的峰值比例运行：Calculon 的表（≥ 128 GFLOP 为 0.95，"
                                "≥ 16 为 0.90，≥ 1 为 0.60，否则 0.10），按本设备实测的最佳 GEMM 缩放（hardware.toml 的 matmul_fraction，"
                                "stas00/ml-engineering 的 MAMF）。注意力按峰值的 0.5（FlashAttention-2）；"
                                "归一化、激活函数和残差加法按显存带宽。",
    "training_layout.how.fb": "最慢的流水线级（{layers} 层）上一个微批的前向与反向，各自包含张量并行、上下文并行、专家和流水线通信。",
    "training_layout.how.tp": "张量并行：每层前向 2 次、反向 2 次 all-reduce，"
                              "每次 b·s·h·2 字节（开启序列并行时换成同样字节数的 all-gather 和 reduce-scatter），"
                              "环形通信代价为 2(n−1)/n · 字节 ÷ 带宽。模型两端再加一对：输出头（lm_head）的输入（只有一个流水线级、装下整个模型时，"
                              "还有词嵌入的输出）；此外还有词表并行交叉熵的 3 次 all-reduce（每个 token 一个 FP32 数）。",
    "training_layout.how.bubble": "调度的气泡（1F1B (p−1)(F+B)；交错调度再除以 v；ZB1P (p−1)(F+B−2W)；"
                                  "DualPipe (p/2−1)(F&B+B−3W)）。",
    "training_layout.how.dp": "数据并行：梯度的 reduce-scatter（以及权重的 all-gather）与最后一个微批的反向重叠；重叠不下的部分（至少一个桶）"
                              "是暴露的通信。",
    "training_layout.how.step": "单步时间：流水线时间、暴露的数据并行通信与优化器更新之和。",
    "training_layout.how.mfu": "MFU：每 token 模型 FLOP（6N 加注意力）× 每步 token 数 ÷ (单步时间 × GPU 数 × 峰值算力)。",
}
