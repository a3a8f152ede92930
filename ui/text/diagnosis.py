"""Trace doctor page (pages/6_Trace_doctor.py, ui/diagnosis/, ui/figures/diagnosis.py)."""

EN = {
    "diagnosis.title": "Trace doctor",
    "diagnosis.intro": "Upload a PyTorch profiler trace and get the chapter's diagnosis in numbers. "
                       "It reads the whole GPU timeline — every kernel, copy and memset, with or "
                       "without `record_shapes` — and looks for the three signals: **gaps in the "
                       "GPU timeline** (the GPU waits for the CPU or the data), **many tiny "
                       "kernels packed together** (no fusion, launch overhead) and **a large "
                       "share of NCCL kernels** (communication-bound); then the checklist's step ④ "
                       "(how much time is not matrix multiplication) and MFU per step.",
    "diagnosis.record_heading": "How to record a trace",
    "diagnosis.record_text": "Profile a few steady-state steps with CPU and CUDA activities and "
                             "export a chrome trace. Gzip it before uploading (`gzip trace.json`): "
                             "traces compress about ten times.",
    "diagnosis.record_code": "from torch.profiler import profile, ProfilerActivity, schedule\n\n"
                             "with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],\n"
                             "             schedule=schedule(wait=1, warmup=2, active=3)) as prof:  # skip warm-up\n"
                             "    for _ in range(6):\n"
                             "        train_step()\n"
                             "        prof.step()\n"
                             "prof.export_chrome_trace(\"trace.json\")",
    "diagnosis.uploader": "Profiler trace (.json or .json.gz)",
    "diagnosis.uploader_help": "A chrome trace from prof.export_chrome_trace (Kineto; the 2021 "
                               "schema and the current one; CUDA or ROCm). At most {limit} MB per "
                               "file: gzip large traces first.",
    "diagnosis.limit": "Upload limit: {limit} MB per file. A 100 MB trace.json gzips to about "
                       "10 MB. Nothing is stored: the trace stays in this browser session.",
    "diagnosis.progress": "Reading {file}…",
    "diagnosis.error": "{file} could not be read as a profiler trace. The diagnosis shown (if any) "
                       "is unchanged, and so is the Roofline page's kernel table.",
    "diagnosis.error_internal": "Reading {file} failed unexpectedly (a bug — please report it "
                                "with the file). Nothing else was changed.",
    "diagnosis.still_showing": "Still showing the diagnosis of {file}.",
    "diagnosis.empty": "Upload a trace above to see its diagnosis. A trace imported on the "
                       "Roofline page is diagnosed here too.",
    "diagnosis.threshold": "Small-kernel threshold (s)",
    "diagnosis.threshold_help": "Kernels shorter than this count as small: below about 10 µs (the CPU cost of launching "
                                "one kernel) the launch, not the math, sets the pace. E.g. 10 µs, 5us, 2e-5, or in Chinese "
                                "units 10 微秒.",
    "diagnosis.device": "GPU to diagnose",
    "diagnosis.device_help": "This trace holds activity of several GPUs; the one with the most GPU "
                             "time is chosen first.",
    "diagnosis.device_option": "GPU {device}",
    "diagnosis.read_caption": "{file}: {size}, {events} events read in {seconds} s · {schema} · "
                              "{platform} · {device}.",
    "diagnosis.source.roofline": "(Imported on the Roofline page.)",
    "diagnosis.source.sample": "(The sample trace: ResNet-50 training on a Tesla V100 with the data "
                               "loaded in the training process, `num_workers=0`; PyTorch Kineto's own "
                               "profiler sample, BSD-3-Clause, see `samples/README.md`.)",
    "diagnosis.sample": "Try it on a sample trace",
    "diagnosis.sample_help": "A real trace from PyTorch's profiler samples (pytorch/kineto): ResNet-50 "
                             "training on a Tesla V100 of a 4-GPU DGX Station, worker 0, with the "
                             "DataLoader in the training process (num_workers=0). It shows the "
                             "chapter's signals on real data: the GPU waiting for the data loader, "
                             "the time outside matrix multiplication, FP32 without Tensor Cores. "
                             "Your own upload replaces it.",
    "diagnosis.schema.kineto": "Kineto schema",
    "diagnosis.schema.legacy": "2021 legacy schema",
    # verdicts
    "diagnosis.verdicts_heading": "Diagnosis",
    "diagnosis.verdicts_caption": "In the order of the chapter's checklist: ① is the GPU running, "
                                  "② the data pipeline, ③ communication, ④ non-matmul work and "
                                  "fusion, ⑤ Tensor Cores. Each signal fires on a fixed threshold "
                                  "(see How this is computed).",
    "diagnosis.verdict.idle": "**The GPU is idle {idle_fraction} of the time** ({idle_seconds} of "
                              "{window_seconds}; the largest gap is {largest_gap_seconds}, CPU "
                              "during it: {cpu_name}). Gaps in the GPU timeline mean the GPU waits for "
                              "the CPU or the data — check step ② first: feed a fixed random batch "
                              "instead of the data loader; if MFU rises clearly, the bottleneck is "
                              "the data pipeline, not the model.",
    "diagnosis.verdict.idle_data": "**The GPU is idle {idle_fraction} of the time, waiting for the "
                                   "data loader** ({idle_seconds} of {window_seconds}; during the "
                                   "largest gap, {largest_gap_seconds}, the CPU was in {cpu_name}). "
                                   "Step ②: the data pipeline does not keep up — more DataLoader "
                                   "workers, pin_memory, prefetching. Confirm with a fixed random "
                                   "batch: MFU should rise.",
    "diagnosis.verdict.comm": "**Communication kernels take {comm_share} of GPU kernel time**, and "
                              "only {overlap_fraction} of it overlaps compute: {exposed_seconds} "
                              "({exposed_fraction} of the timeline) is exposed. Step ③: "
                              "communication-bound — check the topology (NVLink, InfiniBand), "
                              "gradient buckets and overlap, or change the parallel strategy; "
                              "compare single-GPU with multi-GPU MFU.",
    "diagnosis.verdict.comm_hidden": "**Communication kernels take {comm_share} of GPU kernel "
                                     "time, but {overlap_fraction} of it runs beside compute** "
                                     "(exposed: {exposed_seconds}, {exposed_fraction} of the "
                                     "timeline). Step ③: mostly hidden — it costs little time now, "
                                     "but it shares the SMs and memory bandwidth with compute.",
    "diagnosis.verdict.non_matmul": "**{non_matmul_share} of the GPU time (communication aside) is "
                                    "not matrix multiplication** (largest: {top_class}, "
                                    "{top_share}). Step ④: normalisation, activations, softmax, "
                                    "copies and optimizer updates take time but add no useful "
                                    "FLOPs — why the practical MFU ceiling is about 60 %, not "
                                    "100 %. Fuse them (torch.compile, fused kernels); see the top "
                                    "kernels below.",
    "diagnosis.verdict.small_kernels": "**{small_count_share} of the kernels ({small_count} of "
                                       "{kernel_count}) run shorter than {threshold_seconds}**, "
                                       "together {small_time_share} of kernel time, "
                                       "{kernels_per_ms} kernels per ms. Many tiny kernels packed "
                                       "together: no kernel fusion, launch overhead dominates "
                                       "(chapter 7) — fuse (torch.compile), use CUDA graphs or "
                                       "larger batches.",
    "diagnosis.verdict.no_tensor_core": "**{simt_share} of the matmul time runs in FP32/FP64 "
                                        "kernels that do not use Tensor Cores** (sgemm / dgemm "
                                        "names). Step ⑤: train in BF16/FP16 (autocast) or allow "
                                        "TF32, and keep matrix dimensions multiples of 8.",
    "diagnosis.verdict.clear": "**None of the chapter's trace signals fires**: the GPU is busy "
                               "{busy_fraction} of the time, communication is {comm_share} of "
                               "kernel time, non-matmul work {non_matmul_share}, small kernels "
                               "{small_count_share} of the launches. Next: MFU from the step time "
                               "below, then steps ⑤ (Tensor Cores: precision, dimension alignment) "
                               "and ⑥ (activation checkpointing).",
    # key numbers
    "diagnosis.numbers_heading": "Key numbers",
    "diagnosis.m.busy": "GPU busy",
    "diagnosis.m.busy_help": "Union of all kernels, copies and memsets ({busy}) over the window "
                             "({window}): the ProfilerStep# spans when the trace has them, "
                             "otherwise from the first to the last GPU activity.",
    "diagnosis.m.kernels": "Kernels",
    "diagnosis.m.kernels_help": "GPU kernel launches in the trace (copies and memsets not "
                                "counted); {per_ms} per ms.",
    "diagnosis.m.small": "Small kernels",
    "diagnosis.m.small_help": "Share of kernels shorter than {threshold}: {n} kernels, {time} of "
                              "kernel time.",
    "diagnosis.m.comm": "Communication",
    "diagnosis.m.comm_help": "NCCL/RCCL kernel time ÷ all kernel time. Overlapped with compute: "
                             "{overlap}; exposed: {exposed}.",
    "diagnosis.m.window": "GPU window",
    "diagnosis.m.window_help": "From the first to the last GPU activity in the trace.",
    "diagnosis.m.window_steps": "Steps' time",
    "diagnosis.m.window_steps_help": "The {n} ProfilerStep# spans together: the time the program "
                                     "ran. GPU busy and the idle gaps are measured over it, so a "
                                     "step in which the GPU waited counts as idle. GPU activity "
                                     "itself spans {activity}.",
    "diagnosis.m.per_ms": "Kernels per ms",
    "diagnosis.m.per_ms_help": "Kernel launches ÷ the window in milliseconds.",
    "diagnosis.m.too_few": "too few kernels to judge ({n}; at least {min} needed)",
    "diagnosis.m.small_caption": "{time} of kernel time. {verdict}",
    "diagnosis.m.small_fires": "Fusion verdict: fires (≥ 50 % of launches and ≥ 10 % of time).",
    "diagnosis.m.small_silent": "No fusion verdict: they take under 10 % of kernel time, so "
                                "fusing them would save little.",
    "diagnosis.m.small_few_launches": "No fusion verdict: under 50 % of launches.",
    "diagnosis.verdict.too_few_kernels": "**Too few kernels to judge** launch overhead: the trace "
                                         "has {kernel_count} kernels (at least {min_count} are "
                                         "needed for a launch rate or a small-kernel share that "
                                         "means something). Profile a few whole training steps.",
    "diagnosis.m.non_matmul": "Non-matmul work",
    "diagnosis.m.non_matmul_help": "Share of GPU time, communication aside, not in matmul, "
                                   "convolution or attention kernels (step ④).",
    "diagnosis.m.step": "Mean step",
    "diagnosis.m.step_help": "Mean duration of the {n} ProfilerStep# spans (the time between two "
                             "prof.step() calls).",
    "diagnosis.gaps_heading": "Largest idle gaps",
    "diagnosis.gaps_none": "No idle gaps: some GPU activity runs at every moment of the window.",
    "diagnosis.gaps_caption": "What the CPU was doing: the op or annotation that overlaps the gap "
                              "longest (the innermost on ties; ProfilerStep spans left out).",
    "diagnosis.gap.col.at": "At",
    "diagnosis.gap.col.length": "Length",
    "diagnosis.gap.col.share": "Of window",
    "diagnosis.gap.col.cpu": "CPU was in",
    "diagnosis.gap.col.cover": "Covers",
    "diagnosis.gap.no_cpu": "no profiled op",
    # charts
    "diagnosis.timeline_heading": "GPU timeline",
    "diagnosis.timeline_caption": "Top row: when any GPU activity runs (holes are idle gaps; × "
                                  "marks the largest). Below: the streams ({n}), kernels coloured by "
                                  "class, communication thicker. Zoom with the mouse.",
    "diagnosis.classes_heading": "GPU time by class",
    "diagnosis.classes_caption": "From kernel names (cuBLAS, cutlass, nvjet, flash, nccl, Memcpy …) "
                                 "and, where the name says nothing, the operator that launched the "
                                 "kernel. Covers every kernel, shapes or not.",
    "diagnosis.hist_heading": "Kernel durations",
    "diagnosis.hist_caption": "Number of kernels per duration bin (log scale); bins below the "
                              "small-kernel threshold are yellow. Hover for the time in each bin.",
    "diagnosis.top_heading": "Top {n} kernels by time",
    "diagnosis.streams_heading": "Streams",
    "diagnosis.k.col.name": "Kernel",
    "diagnosis.k.col.class": "Class",
    "diagnosis.k.col.count": "Launches",
    "diagnosis.k.col.time": "Total time",
    "diagnosis.k.col.mean": "Mean",
    "diagnosis.k.col.share": "Share of GPU time",
    "diagnosis.s.col.stream": "Stream",
    "diagnosis.s.col.kernels": "Kernels",
    "diagnosis.s.col.kernel_time": "Kernel time",
    "diagnosis.s.col.memory_time": "Copy/memset time",
    "diagnosis.s.col.comm_time": "Communication time",
    "diagnosis.class.matmul": "Matmul / conv",
    "diagnosis.class.attention": "Attention",
    "diagnosis.class.norm": "Normalisation",
    "diagnosis.class.elementwise": "Elementwise / activation",
    "diagnosis.class.reduction": "Reduction / softmax",
    "diagnosis.class.communication": "Communication",
    "diagnosis.class.memory": "Memory copy / set",
    "diagnosis.class.optimizer": "Optimizer",
    "diagnosis.class.other": "Other",
    "diagnosis.fig.busy": "GPU busy",
    "diagnosis.fig.busy_row": "GPU busy",
    "diagnosis.fig.gap": "Largest idle gaps",
    "diagnosis.fig.gap_hover": "Idle {length} at {at}<br>CPU: {cpu}",
    "diagnosis.fig.segment_hover": "{cls}<br>%{{x:.3f}} ms",
    "diagnosis.fig.stream": "stream {stream}",
    "diagnosis.fig.time_ms": "Time since the first GPU activity (ms)",
    "diagnosis.fig.share": "Share of GPU time",
    "diagnosis.fig.duration": "Kernel duration",
    "diagnosis.fig.count": "Kernels",
    "diagnosis.fig.kernels": "Kernels",
    "diagnosis.fig.hist_hover": "{lo} – {hi}<br>{n} kernels, {time} in total",
    "diagnosis.fig.threshold": "Small-kernel threshold ({threshold})",
    "diagnosis.fig.step": "Step",
    "diagnosis.fig.ms": "Time (ms)",
    "diagnosis.fig.step_time": "Step time",
    "diagnosis.fig.step_busy": "GPU busy in the step",
    "diagnosis.fig.step_hover": "{step}<br>Step time: {time}<br>GPU busy: {busy}<br>MFU: {mfu}",
    # MFU from the trace
    "diagnosis.mfu_heading": "MFU per step",
    "diagnosis.mfu_intro": "The step time measured in the trace gives the throughput, hence MFU = "
                           "6·N·tokens per step ÷ step time ÷ (GPUs × peak) — with the sidebar's "
                           "model, its FLOPs per token (attention included) instead of 6·N. Peak: "
                           "the sidebar's device and precision.",
    "diagnosis.mfu_no_steps": "This trace has no ProfilerStep# spans, so it has no step time. "
                              "Profile with a schedule and call prof.step() after each step.",
    "diagnosis.params": "Model parameters N",
    "diagnosis.params_help": "Parameters of the model, e.g. 7B, 125M, 6.7e9 (the 6·N rule: "
                             "dense transformers; active parameters for MoE).",
    "diagnosis.tokens_step": "Tokens per step",
    "diagnosis.tokens_step_help": "Tokens the whole job processes in one step: global batch × "
                                  "sequence length, e.g. 1024 × 4096 = 4M.",
    "diagnosis.gpus": "GPUs",
    "diagnosis.gpus_help": "GPUs the step's tokens are spread over (the trace is one of them).",
    "diagnosis.seq": "Sequence length",
    "diagnosis.seq_help": "Tokens per sequence: with the sidebar's model the attention FLOPs "
                          "depend on it, e.g. 4096, 8k.",
    "diagnosis.causal": "Causal attention",
    "diagnosis.causal_help": "A causal mask skips half of the score matrix (FlashAttention): "
                             "the attention FLOPs are halved.",
    "diagnosis.mfu_mean": "MFU (mean step)",
    "diagnosis.mfu_mean_help": "Useful model FLOP/s ÷ peak of all GPUs, from the mean step time. "
                               "Band: {band}.",
    "diagnosis.hfu_mean": "HFU (mean step)",
    "diagnosis.hfu_mean_help": "Hardware FLOPs utilisation: counts the recomputed forward pass too.",
    "diagnosis.tokens_per_s": "Throughput",
    "diagnosis.tokens_per_s_help": "Tokens per step ÷ mean step time ({step}).",
    "diagnosis.mfu_caption": "Peak {peak} per GPU ({device}, {precision}); {fpt} per token for "
                             "MFU, {hw} for HFU. Band: {band}.",
    "diagnosis.mfu_link": "Open the MFU page with these inputs",
    "diagnosis.device_same": "Recorded on {trace}: the sidebar's device ({sidebar}), whose peak "
                             "the MFU below divides by.",
    "diagnosis.device_unknown": "Recorded on {trace}, which is not in the device list: the MFU "
                                "below divides by the sidebar's {sidebar} peak.",
    "diagnosis.device_differs": "This trace was recorded on **{trace}**, but the sidebar's device "
                                "is **{sidebar}**: the MFU below would divide by the wrong peak. "
                                "Switch the sidebar to {device}?",
    "diagnosis.mfu_fill": "Enter the parameters and the tokens per step to see MFU and HFU per step.",
    "diagnosis.step.col.step": "Step",
    "diagnosis.step.col.time": "Step time",
    "diagnosis.step.col.busy": "GPU busy",
    "diagnosis.step.col.tokens": "Throughput",
    "diagnosis.step.col.mfu": "MFU",
    "diagnosis.step.col.hfu": "HFU",
    # the Roofline page's import report
    "diagnosis.rl.coverage": "The roofline placed {placed} of this trace's {covered} of GPU time "
                             "({share}): only kernels linked to an operator with shapes can be "
                             "placed. The Trace doctor covers all of it — {kernels} kernels plus "
                             "copies and memsets, classified by name — and has findings "
                             "for it: {verdicts}.",
    "diagnosis.rl.coverage_gpu": "The trace holds {n_devices} GPUs; the Trace doctor diagnoses "
                                 "GPU {device}. On it the roofline placed {placed} of {covered} "
                                 "of GPU time ({share}): only kernels linked to an operator with "
                                 "shapes can be placed. The Trace doctor covers all of it — "
                                 "{kernels} kernels plus copies and memsets, classified by name "
                                 "— and has findings for it: {verdicts}.",
    "diagnosis.rl.no_gpu": "The Trace doctor needs GPU activity; this trace has none.",
    "diagnosis.rl.link": "Open the Trace doctor for this trace",
    # how computed
    "diagnosis.how.busy": "**GPU busy**: the union of every kernel, copy and memset interval over "
                          "the window W (the ProfilerStep# spans when the trace has them, "
                          "otherwise first to last GPU activity). The GPU is considered not fed below 90 % (the chapter: "
                          "utilisation long below 90 % = not fed); the idle verdict fires at 10 % "
                          "idle.",
    "diagnosis.how.small": "**Small kernels**: launches shorter than the threshold. The verdict "
                           "fires when at least 50 % of launches are small and they take at least "
                           "10 % of kernel time (below that, fusing them saves little).",
    "diagnosis.how.comm": "**Communication**: NCCL/RCCL kernels. Overlap: the part of their time "
                          "during which a compute kernel ran on another stream; exposed: "
                          "communication with no compute beside it. Fires at 20 % of kernel time; "
                          "informational when 80 % or more is overlapped.",
    "diagnosis.how.non_matmul": "**Non-matmul work** (step ④): fires at 30 % — with a third of "
                                "the time outside matrix units, MFU stays below 0.7 × the matmul "
                                "kernels' own efficiency.",
    "diagnosis.how.mfu": "**MFU per step**: N parameters, tokens per step of the whole job, "
                         "step time from ProfilerStep#; HFU adds 2·N per token for a recomputed "
                         "forward pass (r = 1 with full activation checkpointing).",
}

ZH = {
    "diagnosis.title": "Trace 诊断",
    "diagnosis.intro": "上传一份 PyTorch Profiler 的 trace，用数字给出本章的诊断。它读整条 GPU 时间轴——每个 kernel、"
                       "拷贝和 memset，有没有 `record_shapes` 都行——找三个信号：**GPU 时间轴上有空隙**（GPU 在等 CPU 或数据）、"
                       "**一堆小 kernel 密集排列**（没有算子融合，kernel 启动开销占比高）、**通信 kernel（nccl）占比大**（通信瓶颈）；"
                       "再看排查清单第 ④ 步（非矩阵乘操作占多少时间）和每一步的 MFU。",
    "diagnosis.record_heading": "怎样录一份 trace",
    "diagnosis.record_text": "打开 CPU 和 CUDA 两类活动，录几个稳定阶段的训练步，导出 chrome trace。"
                             "上传前先 gzip（`gzip trace.json`）：trace 大约能压缩到十分之一。",
    "diagnosis.record_code": "from torch.profiler import profile, ProfilerActivity, schedule\n\n"
                             "with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],\n"
                             "             schedule=schedule(wait=1, warmup=2, active=3)) as prof:  # 跳过预热\n"
                             "    for _ in range(6):\n"
                             "        train_step()\n"
                             "        prof.step()\n"
                             "prof.export_chrome_trace(\"trace.json\")  # 再 gzip trace.json",
    "diagnosis.uploader": "Profiler trace（.json 或 .json.gz）",
    "diagnosis.uploader_help": "prof.export_chrome_trace 导出的 chrome trace（Kineto；2021 年的旧格式"
                               "和现在的格式都行；CUDA 或 ROCm）。每个文件最多 {limit} MB：大的 trace "
                               "请先 gzip。",
    "diagnosis.limit": "上传上限：每个文件 {limit} MB。100 MB 的 trace.json 用 gzip 压缩后约 10 MB。"
                       "文件不会被保存：trace 只留在这个浏览器会话里。",
    "diagnosis.progress": "正在读取 {file}…",
    "diagnosis.error": "{file} 无法作为 profiler trace 读取。已显示的诊断（如果有）不变，「Roofline」页的 kernel 表也不变。",
    "diagnosis.error_internal": "读取 {file} 时出现意外错误（这是程序缺陷——请连同文件一起反馈）。"
                                "其他内容没有改动。",
    "diagnosis.still_showing": "仍在显示 {file} 的诊断。",
    "diagnosis.empty": "在上面上传一份 trace 就能看到诊断。在「Roofline」页导入的 trace 也会在这里诊断。",
    "diagnosis.threshold": "小 kernel 阈值（秒）",
    "diagnosis.threshold_help": "比它短的 kernel 算作小 kernel：低于约 10 µs（CPU 启动一个 kernel 的开销）时，决定速度的是启动而不是计算。"
                                "例如 10 µs、5us、2e-5，也可以写 10 微秒。",
    "diagnosis.device": "要诊断的 GPU",
    "diagnosis.device_help": "这份 trace 里有多张卡的活动；默认选 GPU 时间最多的那张卡。",
    "diagnosis.device_option": "GPU {device}",
    "diagnosis.read_caption": "{file}：{size}，读取 {events} 个事件用时 {seconds} 秒 · {schema} · "
                              "{platform} · {device}。",
    "diagnosis.source.roofline": "（在「Roofline」页导入。）",
    "diagnosis.source.sample": "（示例 trace：ResNet-50 在 Tesla V100 上训练，数据在训练进程里加载，"
                               "`num_workers=0`；PyTorch Kineto 自带的 profiler 示例，BSD-3-Clause 许可，"
                               "见 `samples/README.md`。）",
    "diagnosis.sample": "用示例 trace 试一试",
    "diagnosis.sample_help": "PyTorch profiler 官方示例（pytorch/kineto）里的一份真实 trace：ResNet-50 在 "
                             "4 卡 DGX Station 的一张 Tesla V100 上训练（0 号进程），DataLoader 在训练进程里加载数据"
                             "（num_workers=0）。它用真实数据展示本章的几个信号：GPU 在等 dataloader、"
                             "矩阵乘法之外的时间、没用上 Tensor Core 的 FP32。上传你自己的 trace 就会替换它。",
    "diagnosis.schema.kineto": "Kineto 格式",
    "diagnosis.schema.legacy": "2021 年旧格式",
    "diagnosis.verdicts_heading": "诊断",
    "diagnosis.verdicts_caption": "按本章排查清单的顺序：① GPU 有没有在跑，② 数据管线，③ 通信，④ 非矩阵乘操作和算子融合，⑤ Tensor Core。"
                                  "每个信号都有固定的触发阈值（见「计算过程」）。",
    "diagnosis.verdict.idle": "**GPU 有 {idle_fraction} 的时间空闲**（{window_seconds} 中的 "
                              "{idle_seconds}；最大的空隙 {largest_gap_seconds}，其间 CPU："
                              "{cpu_name}）。GPU 时间轴上有空隙，说明 GPU 在等 CPU 或数据——先做"
                              "第 ② 步：把 dataloader 换成固定的随机张量；如果 MFU 明显上升，"
                              "瓶颈在数据管线，不在模型。",
    "diagnosis.verdict.idle_data": "**GPU 有 {idle_fraction} 的时间空闲，在等 dataloader**"
                                   "（{window_seconds} 中的 {idle_seconds}；最大的空隙 "
                                   "{largest_gap_seconds} 期间 CPU 在 {cpu_name}）。第 ② 步："
                                   "数据管线跟不上——增加 DataLoader 的 worker、用 pin_memory、"
                                   "预取。用固定的随机张量确认：MFU 应当上升。",
    "diagnosis.verdict.comm": "**通信 kernel 占 GPU kernel 时间的 {comm_share}**，其中只有 "
                              "{overlap_fraction} 与计算重叠：{exposed_seconds}（时间轴的 "
                              "{exposed_fraction}）是暴露的通信。第 ③ 步：通信瓶颈——检查拓扑"
                              "（NVLink、InfiniBand）、梯度分桶和重叠，或者换并行策略；"
                              "对比单卡和多卡的 MFU。",
    "diagnosis.verdict.comm_hidden": "**通信 kernel 占 GPU kernel 时间的 {comm_share}，但其中 "
                                     "{overlap_fraction} 与计算同时进行**（暴露的通信：{exposed_seconds}，"
                                     "时间轴的 {exposed_fraction}）。第 ③ 步：大部分被掩盖——现在"
                                     "花的时间不多，但它和计算共用 SM 和显存带宽。",
    "diagnosis.verdict.non_matmul": "**GPU 时间（通信除外）中有 {non_matmul_share} 不是矩阵乘**"
                                    "（最多的是{top_class}，{top_share}）。第 ④ 步：归一化、激活函数、"
                                    "Softmax、拷贝和优化器更新要占时间，却不算有效 FLOP——这正是 "
                                    "MFU 天花板约 60% 而不是 100% 的原因。做算子融合（torch.compile、"
                                    "融合 kernel）；看下面耗时最多的 kernel。",
    "diagnosis.verdict.small_kernels": "**{small_count_share} 的 kernel（{kernel_count} 个中的 "
                                       "{small_count} 个）短于 {threshold_seconds}**，合计占 kernel "
                                       "时间的 {small_time_share}，每毫秒 {kernels_per_ms} 个 kernel。"
                                       "一堆小 kernel 密集排列：没有算子融合，kernel 启动开销占比高"
                                       "（第 7 章）——做融合（torch.compile）、用 CUDA Graph 或更大的 batch。",
    "diagnosis.verdict.no_tensor_core": "**矩阵乘时间中有 {simt_share} 跑在不用 Tensor Core 的 "
                                        "FP32/FP64 kernel 上**（名字是 sgemm / dgemm）。第 ⑤ 步："
                                        "用 BF16/FP16（autocast）训练或打开 TF32，矩阵维度保持 8 的倍数。",
    "diagnosis.verdict.clear": "**本章的 trace 信号都没有触发**：GPU 有 {busy_fraction} 的时间在忙，通信占 kernel 时间的 {comm_share}，"
                               "非矩阵乘操作 {non_matmul_share}，小 kernel 占启动次数的 {small_count_share}。"
                               "下一步：用下面的单步时间算 MFU，再查第 ⑤ 步（Tensor Core：精度、维度对齐）和第 ⑥ 步（激活检查点）。",
    "diagnosis.numbers_heading": "关键数字",
    "diagnosis.m.busy": "GPU 忙碌",
    "diagnosis.m.busy_help": "所有 kernel、拷贝和 memset 的并集（{busy}）除以时间窗口（{window}）："
                             "trace 有 ProfilerStep# 区间时取这些区间，否则取从第一个到最后一个 GPU 活动。",
    "diagnosis.m.kernels": "Kernel 数",
    "diagnosis.m.kernels_help": "trace 中 GPU kernel 的启动次数（不含拷贝和 memset）；每毫秒 {per_ms} 个。",
    "diagnosis.m.small": "小 kernel",
    "diagnosis.m.small_help": "短于 {threshold} 的 kernel 所占比例：{n} 个，占 kernel 时间的 {time}。",
    "diagnosis.m.comm": "通信",
    "diagnosis.m.comm_help": "NCCL/RCCL kernel 时间 ÷ 全部 kernel 时间。与计算重叠：{overlap}；"
                             "暴露的通信：{exposed}。",
    "diagnosis.m.window": "GPU 时间窗口",
    "diagnosis.m.window_help": "trace 中从第一个到最后一个 GPU 活动。",
    "diagnosis.m.window_steps": "各训练步总时长",
    "diagnosis.m.window_steps_help": "{n} 个 ProfilerStep# 区间之和，即程序运行的时间。GPU 忙碌和空闲"
                                     "空隙都在这段时间上计算，所以 GPU 在等待的训练步算作空闲。GPU "
                                     "活动本身跨越 {activity}。",
    "diagnosis.m.per_ms": "每毫秒 kernel 数",
    "diagnosis.m.per_ms_help": "kernel 启动次数 ÷ 以毫秒计的时间窗口。",
    "diagnosis.m.too_few": "kernel 太少，无法判断（{n} 个；至少需要 {min} 个）",
    "diagnosis.m.small_caption": "占 kernel 时间的 {time}。{verdict}",
    "diagnosis.m.small_fires": "融合结论：触发（≥ 50% 的启动且 ≥ 10% 的时间）。",
    "diagnosis.m.small_silent": "没有融合结论：它们占 kernel 时间不到 10%，融合省不了多少。",
    "diagnosis.m.small_few_launches": "没有融合结论：不到 50% 的启动。",
    "diagnosis.verdict.too_few_kernels": "**kernel 太少，无法判断**启动开销：trace 中只有 "
                                         "{kernel_count} 个 kernel（至少需要 {min_count} 个，"
                                         "启动速率和小 kernel 占比才有意义）。请录制几个完整的训练步。",
    "diagnosis.m.non_matmul": "非矩阵乘操作",
    "diagnosis.m.non_matmul_help": "GPU 时间（通信除外）中不在矩阵乘、卷积或注意力 kernel 上的比例（第 ④ 步）。",
    "diagnosis.m.step": "平均单步时间",
    "diagnosis.m.step_help": "{n} 个 ProfilerStep# 区间的平均时长（两次 prof.step() 之间的时间）。",
    "diagnosis.gaps_heading": "最大的空隙",
    "diagnosis.gaps_none": "没有空隙：时间窗口内每一刻都有 GPU 活动。",
    "diagnosis.gaps_caption": "当时 CPU 在做什么：与空隙重叠最长的算子或标注（相同时取最内层；"
                              "不计 ProfilerStep 区间）。",
    "diagnosis.gap.col.at": "位置",
    "diagnosis.gap.col.length": "长度",
    "diagnosis.gap.col.share": "占时间窗口",
    "diagnosis.gap.col.cpu": "CPU 当时在",
    "diagnosis.gap.col.cover": "覆盖",
    "diagnosis.gap.no_cpu": "没有被记录的算子",
    "diagnosis.timeline_heading": "GPU 时间轴",
    "diagnosis.timeline_caption": "第一行：任何 GPU 活动在运行的时刻（中间的缺口就是空隙；× 标出最大的几个）。"
                                  "下面：{n} 个 stream，kernel 按类别着色，通信画得更粗。可用鼠标缩放。",
    "diagnosis.classes_heading": "按类别的 GPU 时间分布",
    "diagnosis.classes_caption": "根据 kernel 名字（cuBLAS、cutlass、nvjet、flash、nccl、Memcpy……）"
                                 "判断；名字看不出来时，看启动它的算子。覆盖全部 kernel，有没有形状都算。",
    "diagnosis.hist_heading": "Kernel 时长分布",
    "diagnosis.hist_caption": "每个时长区间的 kernel 个数（对数坐标）；低于小 kernel 阈值的区间为黄色。"
                              "悬停可看每个区间的总时间。",
    "diagnosis.top_heading": "耗时最多的 {n} 个 kernel",
    "diagnosis.streams_heading": "Stream",
    "diagnosis.k.col.name": "Kernel",
    "diagnosis.k.col.class": "类别",
    "diagnosis.k.col.count": "启动次数",
    "diagnosis.k.col.time": "总时间",
    "diagnosis.k.col.mean": "平均",
    "diagnosis.k.col.share": "占 GPU 时间",
    "diagnosis.s.col.stream": "Stream",
    "diagnosis.s.col.kernels": "Kernel 数",
    "diagnosis.s.col.kernel_time": "Kernel 时间",
    "diagnosis.s.col.memory_time": "拷贝/memset 时间",
    "diagnosis.s.col.comm_time": "通信时间",
    "diagnosis.class.matmul": "矩阵乘 / 卷积",
    "diagnosis.class.attention": "注意力",
    "diagnosis.class.norm": "归一化",
    "diagnosis.class.elementwise": "逐元素 / 激活函数",
    "diagnosis.class.reduction": "归约 / Softmax",
    "diagnosis.class.communication": "通信",
    "diagnosis.class.memory": "显存拷贝 / 置值",
    "diagnosis.class.optimizer": "优化器",
    "diagnosis.class.other": "其他",
    "diagnosis.fig.busy": "GPU 忙碌",
    "diagnosis.fig.busy_row": "GPU 忙碌",
    "diagnosis.fig.gap": "最大的空隙",
    "diagnosis.fig.gap_hover": "空闲 {length}，位于 {at}<br>CPU：{cpu}",
    "diagnosis.fig.segment_hover": "{cls}<br>%{{x:.3f}} ms",
    "diagnosis.fig.stream": "stream {stream}",
    "diagnosis.fig.time_ms": "距第一个 GPU 活动的时间（ms）",
    "diagnosis.fig.share": "占 GPU 时间",
    "diagnosis.fig.duration": "Kernel 时长",
    "diagnosis.fig.count": "Kernel 数",
    "diagnosis.fig.kernels": "Kernel 数",
    "diagnosis.fig.hist_hover": "{lo} – {hi}<br>{n} 个 kernel，共 {time}",
    "diagnosis.fig.threshold": "小 kernel 阈值（{threshold}）",
    "diagnosis.fig.step": "训练步",
    "diagnosis.fig.ms": "时间（ms）",
    "diagnosis.fig.step_time": "单步时间",
    "diagnosis.fig.step_busy": "步内 GPU 忙碌",
    "diagnosis.fig.step_hover": "{step}<br>单步时间：{time}<br>GPU 忙碌：{busy}<br>MFU：{mfu}",
    "diagnosis.mfu_heading": "每一步的 MFU",
    "diagnosis.mfu_intro": "trace 里测到的单步时间给出吞吐，于是 MFU = 6·N·每步 token 数 ÷ 单步时间 ÷ (GPU 数 × 峰值算力)——选了侧边栏的模型时，"
                           "用它每个 token 的 FLOP（含注意力）代替 6·N。峰值算力取侧边栏的设备和精度。",
    "diagnosis.mfu_no_steps": "这份 trace 没有 ProfilerStep# 区间，所以没有单步时间。录制时用 schedule，并在每一步之后调用 prof.step()。",
    "diagnosis.params": "模型参数量 N",
    "diagnosis.params_help": "模型的参数量，例如 7B、125M、6.7e9（6·N 规则适用于稠密 Transformer；"
                             "MoE 用激活参数量）。",
    "diagnosis.tokens_step": "每步 token 数",
    "diagnosis.tokens_step_help": "整个任务一步处理的 token 数：全局批大小 × 序列长度，例如 1024 × 4096 = 4M。",
    "diagnosis.gpus": "GPU 数",
    "diagnosis.gpus_help": "这一步的 token 分布在多少张卡上（这份 trace 是其中一张卡的）。",
    "diagnosis.seq": "序列长度",
    "diagnosis.seq_help": "每条序列的 token 数：用侧边栏的模型时，注意力的 FLOP 取决于它，例如 4096、8k。",
    "diagnosis.causal": "因果注意力",
    "diagnosis.causal_help": "因果掩码跳过一半的分数矩阵（FlashAttention）：注意力的 FLOP 减半。",
    "diagnosis.mfu_mean": "MFU（按平均单步时间）",
    "diagnosis.mfu_mean_help": "有效模型 FLOP/s ÷ 所有 GPU 的峰值算力，按平均单步时间计算。档位：{band}。",
    "diagnosis.hfu_mean": "HFU（按平均单步时间）",
    "diagnosis.hfu_mean_help": "硬件算力利用率：把重计算的前向也算进去。",
    "diagnosis.tokens_per_s": "吞吐",
    "diagnosis.tokens_per_s_help": "每步 token 数 ÷ 平均单步时间（{step}）。",
    "diagnosis.mfu_caption": "每卡峰值算力 {peak}（{device}，{precision}）；每个 token MFU 按 {fpt}，HFU 按 {hw}。档位：{band}。",
    "diagnosis.device_same": "记录于 {trace}：就是侧边栏选的设备（{sidebar}），下面的 MFU 除以它的峰值。",
    "diagnosis.device_unknown": "记录于 {trace}，它不在设备列表里：下面的 MFU 除以侧边栏 {sidebar} 的峰值。",
    "diagnosis.device_differs": "这个 trace 记录于 **{trace}**，但侧边栏选的设备是 **{sidebar}**：下面的 MFU 会除以错误的峰值。"
                                "要把侧边栏切换到 {device} 吗？",
    "diagnosis.mfu_link": "用这些输入打开「MFU」页",
    "diagnosis.mfu_fill": "填入参数量和每步 token 数，就能看到每一步的 MFU 和 HFU。",
    "diagnosis.step.col.step": "训练步",
    "diagnosis.step.col.time": "单步时间",
    "diagnosis.step.col.busy": "GPU 忙碌",
    "diagnosis.step.col.tokens": "吞吐",
    "diagnosis.step.col.mfu": "MFU",
    "diagnosis.step.col.hfu": "HFU",
    "diagnosis.rl.coverage": "Roofline 放置了这份 trace {covered} GPU 时间中的 {placed}（{share}）："
                             "只有关联到带形状算子的 kernel 才能放上去。Trace 诊断覆盖全部时间——"
                             "{kernels} 个 kernel 加上拷贝和 memset，按名字分类——共有 {verdicts} 条发现。",
    "diagnosis.rl.coverage_gpu": "这份 trace 含 {n_devices} 块 GPU；Trace 诊断分析的是 GPU {device}。"
                                 "在这块 GPU 上，Roofline 放置了 {covered} GPU 时间中的 {placed}（{share}）："
                                 "只有关联到带形状算子的 kernel 才能放上去。Trace 诊断覆盖全部时间——"
                                 "{kernels} 个 kernel 加上拷贝和 memset，按名字分类——共有 {verdicts} 条发现。",
    "diagnosis.rl.no_gpu": "Trace 诊断需要 GPU 活动；这份 trace 没有。",
    "diagnosis.rl.link": "用 Trace 诊断打开这份 trace",
    "diagnosis.how.busy": "**GPU 忙碌**：所有 kernel、拷贝和 memset 区间的并集占时间窗口 W 的比例"
                          "（trace 有 ProfilerStep# 区间时取这些区间，否则取从第一个到最后一个 GPU 活动）。低于 90% 就算没喂饱（本章：利用率长期低于 90% = 没喂饱）；空闲达到 10% 时触发空闲诊断。",
    "diagnosis.how.small": "**小 kernel**：短于阈值的启动。至少 50% 的启动是小 kernel、并且它们至少占 "
                           "kernel 时间的 10% 时触发（低于这个比例，融合它们省不了多少时间）。",
    "diagnosis.how.comm": "**通信**：NCCL/RCCL kernel。重叠：其间另一个 stream 上有计算 kernel 在跑的那部分时间；"
                          "暴露的通信：旁边没有计算的通信时间。占 kernel 时间 20% 时触发；"
                          "80% 以上被重叠时只作提示。",
    "diagnosis.how.non_matmul": "**非矩阵乘操作**（第 ④ 步）：达到 30% 时触发——三分之一的时间不在矩阵单元上，"
                                "MFU 就会低于矩阵乘 kernel 自身效率的 0.7 倍。",
    "diagnosis.how.mfu": "**每一步的 MFU**：N 为参数量，每步 token 数按整个任务计，单步时间来自 ProfilerStep#；"
                         "HFU 为重计算的前向每个 token 再加 2·N（全量激活检查点时 r = 1）。",
}
