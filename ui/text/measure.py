"""Measure page strings (pages/8_Measure.py, ui/measure/, ui/figures/measure.py)."""

EN = {
    "measure.title": "Measure this machine",
    "measure.intro": "Datasheet peaks are what the vendor promises; a real machine delivers "
                     "less. Measure the machine this app runs on — peak FLOP/s per precision, "
                     "cache and DRAM bandwidth — and see its roofs beside the datasheet's, then "
                     "run numpy kernels and watch their points land on the measured roofline.",
    "measure.run_heading": "Run the benchmarks",
    "measure.gpu.available": "GPU: torch {torch} sees a {backend} device; it is measured too "
                             "(matmul per precision, device copy).",
    "measure.gpu.no_torch": "GPU: torch is not installed, so only the CPU is measured. To measure "
                            "a GPU, install the optional extra on the server: "
                            "`pip install -e \".[gpu]\"` (a CUDA, ROCm or Apple MPS build of torch).",
    "measure.gpu.no_device": "GPU: torch {torch} is installed but sees no CUDA, ROCm or MPS "
                             "device, so only the CPU is measured.",
    "measure.quick": "Quick run (about 10 s)",
    "measure.quick_help": "On: shorter sweeps and fewer matrix sizes, about 10 s. Off: the "
                          "default run, about 30 s, closer to the machine's real ceilings.",
    "measure.use_gpu": "Measure the GPU",
    "measure.use_gpu_help": "Also time torch matmuls per precision and a device-to-device "
                            "copy. Off: CPU only.",
    "measure.plan": "{n} benchmarks, about {seconds} s of samples (at most {limit} s with "
                    "warm-up). Each is bounded in time.",
    "measure.start": "Start measuring",
    "measure.start_help": "Runs every benchmark on this server, one at a time, with a progress "
                          "bar each. Other users wait while it runs.",
    "measure.cancel": "Cancel",
    "measure.cancel_help": "Stop the measurement now; nothing is kept.",
    "measure.cancelled": "The measurement was cancelled; nothing was kept.",
    "measure.waiting": "waiting",
    "measure.done": "done",
    "measure.bench.stream": "Bandwidth sweep (copy, triad)",
    "measure.bench.gemm_fp64": "GEMM FP64",
    "measure.bench.gemm_fp32": "GEMM FP32",
    "measure.bench.gemm_small": "GEMM FP16 and INT8 (numpy loops)",
    "measure.bench.gpu_matmul": "GPU matmul per precision",
    "measure.bench.gpu_copy": "GPU device copy",
    "measure.what.benchmark": "A measurement",
    "measure.what.kernels": "A live-kernel run",
    "measure.busy": "{what} started by {owner} is running ({elapsed} s so far, about {left} s "
                    "left). One measurement at a time per server, so that two users do not "
                    "disturb each other's timings.",
    "measure.busy_short": "Another measurement is running; try again in a few seconds.",
    "measure.check_again": "Check again",
    "measure.check_again_help": "Look again whether the other measurement has finished.",
    "measure.finished": "Measured in {seconds} s. Added to the sidebar's device list for this "
                        "session: {devices}.",
    "measure.load_heading": "Load a measured file",
    "measure.load": "Measured file (.toml)",
    "measure.load_help": "A file written by `python -m measure` or downloaded from this page "
                         "(the hardware.toml format with measured = true). Its measured "
                         "devices join the sidebar's device list for this session.",
    "measure.load_not_utf8": "{name} is not UTF-8 text.",
    "measure.load_error": "The file could not be read: {message}",
    "measure.load_none": "{name} has no measured device (measured = true).",
    "measure.load_ok": "Measured devices added to the sidebar's list from {name}: {n}.",
    "measure.none_yet": "Nothing measured yet in this session: press Start measuring (or load "
                        "a measured file). The command line does the same: "
                        "`python -m measure [--quick] [--out FILE.toml]`.",
    "measure.results_heading": "Measured against the datasheet",
    "measure.measured_device": "Measured device",
    "measure.measured_device_help": "A device measured in this session (a run or a loaded file).",
    "measure.precision": "Precision of the roof",
    "measure.precision_help": "Which measured peak forms the flat roof on the chart. FP16 and "
                              "INT8 on a CPU are numpy's own loops (no BLAS), far below FP32.",
    "measure.custom_note": "The custom device's peak is compared with the measured {precision} "
                           "peak.",
    "measure.other_precision": "{device} has no {wanted} peak; its {used} peak (the sidebar's "
                               "precision) is drawn instead.",
    "measure.not_comparable": "{measured} is a {kind}; the sidebar's {sidebar} is {other}: "
                              "their figures are not comparable, so no ratio is shown. To "
                              "compare, choose a device of the same kind in the sidebar (for "
                              "this CPU: a CPU datasheet entry, kind = \"cpu\" in "
                              "hardware.toml, or \"Custom…\" with its datasheet numbers).",
    "measure.kind.cpu": "CPU",
    "measure.kind.accelerator": "an accelerator (GPU)",
    "measure.no_datasheet": "The sidebar shows a measured device. Choose the datasheet device "
                            "to compare with in the sidebar (or Custom… with the datasheet "
                            "figures of this machine).",
    "measure.chart_caption": "Solid green: the measured roofline (peak at the chosen precision, "
                             "DRAM bandwidth). Dotted: measured cache bandwidths under the same "
                             "roof. Dashed grey: the sidebar device's datasheet. Numbered points: "
                             "the live kernels, each against the bandwidth of the memory level "
                             "its data fits in.",
    "measure.table_heading": "Ceilings: measured ÷ datasheet",
    "measure.col.ceiling": "Ceiling",
    "measure.col.measured": "Measured (best)",
    "measure.col.median": "Median",
    "measure.col.spread": "Spread",
    "measure.col.where": "Reached at",
    "measure.col.datasheet": "Datasheet",
    "measure.col.ratio": "Measured ÷ datasheet",
    "measure.ceiling.peak": "Peak {precision}",
    "measure.ceiling.dram": "DRAM bandwidth",
    "measure.ceiling.cache": "{level} cache bandwidth",
    "measure.table_caption": "Best = the fastest sample (noise only ever slows a run down); "
                             "median and spread ((slowest − fastest) ÷ median) show how noisy "
                             "the machine was. A datasheet lists no cache bandwidths (—).",
    "measure.host_heading": "Where and how it was measured",
    "measure.host_line": "**Host:** {host}  \n**Date (UTC):** {date}  \n**Source:** {source}",
    "measure.download": "Download measured.toml",
    "measure.download_help": "The measured devices in the hardware.toml format: load it on "
                             "this page later, or point ROOFLINE_LAB_HARDWARE at it.",
    "measure.curve_heading": "Bandwidth against working-set size",
    "measure.curve_needs_run": "The curve needs a measurement run in this session (a loaded file "
                               "keeps only the plateaus).",
    "measure.curve_caption_cpu": "numpy copy and triad on one thread over growing working sets. "
                                 "The steps are the caches (vertical lines: their capacities) and "
                                 "DRAM; the dotted lines are the plateaus used as roofs. The "
                                 "smallest sets include numpy's per-call overhead (about a "
                                 "microsecond), so their plateau is what numpy code gets, below "
                                 "the hardware's.",
    "measure.curve_caption_gpu": "torch device-to-device copy (read + write counted) over "
                                 "growing working sets; the step is the L2 cache.",
    "measure.live_heading": "Live kernels on the measured roofline",
    "measure.live_intro": "Pick numpy operations and sizes, run them here, and their points "
                          "land on the chart above: FLOPs and bytes from the same formulas as "
                          "the Roofline page, time measured now.",
    "measure.live_needs_cpu": "Live kernels are numpy operations on this server's CPU: choose "
                              "this session's measured CPU above to run them.",
    "measure.live_precision": "Kernel precision",
    "measure.live_precision_help": "FP64 (8 bytes per element) or FP32 (4 bytes).",
    "measure.kind.gemm": "GEMM n × n",
    "measure.kind.gemm_help": "C = A · B with n × n matrices: 2·n³ FLOP, (3·n²)·b bytes.",
    "measure.kind.gemv": "GEMV m × n",
    "measure.kind.gemv_help": "y = A · x: 2·m·n FLOP, (m·n + n + m)·b bytes. Always "
                              "memory-bound.",
    "measure.kind.add": "Elementwise add",
    "measure.kind.add_help": "c = a + b over n elements: n FLOP, 3·n·b bytes.",
    "measure.kind.sum": "Reduction (sum)",
    "measure.kind.sum_help": "s = Σ a over n elements: n − 1 FLOP, (n + 1)·b bytes.",
    "measure.size.m_gemm_n": "n",
    "measure.size.m_gemv_m": "m (rows)",
    "measure.size.m_gemv_n": "n (columns)",
    "measure.size.m_add_n": "n (elements)",
    "measure.size.m_sum_n": "n (elements)",
    "measure.size_help": "A whole number of elements, e.g. 4096, 8M, 2**24. At most 1 GiB of "
                         "data and about 2 s per kernel.",
    "measure.kernel_cost": "{flops} · {bytes} · intensity {intensity}",
    "measure.kernel_too_big": "{message}",
    "measure.kernel_too_slow": "{label} would take at least {seconds} s on the measured roofline; "
                               "the limit is {limit} s per kernel.",
    "measure.run_kernels": "Run the kernels",
    "measure.run_kernels_help": "Times each chosen kernel (warm-up, then samples for a few "
                                "seconds in all) and puts it on the chart.",
    "measure.col.kernel": "Kernel",
    "measure.col.flops": "FLOPs",
    "measure.col.bytes": "Bytes",
    "measure.col.intensity": "Intensity",
    "measure.col.time": "Time (best)",
    "measure.col.time_median": "Time (median)",
    "measure.col.achieved": "Achieved",
    "measure.col.achieved_bw": "Achieved bandwidth",
    "measure.col.level": "Memory level (bandwidth)",
    "measure.col.attainable": "Ceiling",
    "measure.col.of_roof": "% of ceiling",
    "measure.live_caption": "Achieved uses the median time (the roofs use the best samples, "
                            "so noise shows as a gap under the roof). Memory level: the smallest "
                            "cache the kernel's data (mostly) fits in, else DRAM; its ceiling "
                            "uses the fastest measured bandwidth at that level or below. A point "
                            "above 100 % means the machine was quieter now than during the "
                            "measurement.",
    "measure.fig.measured_roof": "Measured {precision}",
    "measure.fig.above_measured": "Above the measured roof (quieter machine now)",
    "measure.fig.measured_roof_ratio": "Measured {precision} ({peak} of the datasheet's peak, "
                                       "{bw} of its bandwidth)",
    "measure.fig.datasheet_roof": "Datasheet: {device}",
    "measure.fig.cache_roof": "Measured {level} cache",
    "measure.fig.ws_title": "Working set (bytes)",
    "measure.fig.bw_title": "Bandwidth (bytes/s)",
    "measure.fig.kernel.copy": "copy",
    "measure.fig.kernel.triad": "triad",
    "measure.fig.curve_hover": "<b>{kernel}</b><br>Working set: {ws}<br>Best: {best}"
                               "<br>Median: {median}<br>Spread: {spread}",
    "measure.fig.cache_size": "{level} {size}",
    "measure.fig.plateau": "{level} plateau {bw}",
    "measure.fig.dram": "DRAM",
    "measure.fig.datasheet_bw": "datasheet {device}: {bw}",
    "measure.how.bandwidth": "Streaming bandwidth: bytes moved per call over the fastest "
                             "sample's time per call. Copy reads and writes n float64 values; "
                             "triad a = b + s·c runs in numpy as two passes that move five arrays.",
    "measure.how.gemm": "Matrix-multiply throughput: one multiply and one add per "
                        "multiply-accumulate, n³ of them.",
    "measure.how.plateau": "A cache level's plateau: the median bandwidth over the working sets "
                           "W that fit in half its capacity C_k but not in the level below; "
                           "DRAM: W of at least twice the last-level cache.",
    "measure.how.ratio": "Each ceiling's measured value over the datasheet's: how much of the "
                         "promise the machine delivers.",
    "measure.how.live": "A live kernel's ceiling: the measured roof at its intensity I, with the "
                        "bandwidth of the memory level its data fits in; % of ceiling = "
                        "achieved FLOP/s ÷ ceiling.",
}

ZH = {
    "measure.title": "实测本机",
    "measure.intro": "规格书上的峰值是厂商的承诺，真实机器跑不到那么高。在这台运行本应用的机器上实测："
                     "各精度的峰值算力、缓存和 DRAM 带宽，把实测屋顶和规格书的画在同一张图上；"
                     "再运行 numpy kernel，看它们的点落在实测 Roofline 上。",
    "measure.run_heading": "运行基准测试",
    "measure.gpu.available": "GPU：torch {torch} 检测到 {backend} 设备，也一并实测（各精度矩阵乘、设备内拷贝）。",
    "measure.gpu.no_torch": "GPU：未安装 torch，只实测 CPU。要实测 GPU，请在服务器上安装可选依赖："
                            "`pip install -e \".[gpu]\"`（CUDA、ROCm 或 Apple MPS 版的 torch）。",
    "measure.gpu.no_device": "GPU：已安装 torch {torch}，但没有检测到 CUDA、ROCm 或 MPS 设备，只实测 CPU。",
    "measure.quick": "快速测量（约 10 秒）",
    "measure.quick_help": "打开：扫描更短、矩阵尺寸更少，约 10 秒。关闭：默认测量，约 30 秒，更接近机器真实的上限。",
    "measure.use_gpu": "实测 GPU",
    "measure.use_gpu_help": "同时测 torch 各精度矩阵乘和设备内拷贝。关闭则只测 CPU。",
    "measure.plan": "共 {n} 项基准测试，采样约 {seconds} 秒（含预热最多 {limit} 秒）。每一项的运行时间都有上限（时间预算）。",
    "measure.start": "开始实测",
    "measure.start_help": "在本服务器上逐项运行基准测试，每项一个进度条。运行期间其他用户需要等待。",
    "measure.cancel": "取消",
    "measure.cancel_help": "立即停止实测，不保留任何结果。",
    "measure.cancelled": "实测已取消，没有保留结果。",
    "measure.waiting": "等待中",
    "measure.done": "完成",
    "measure.bench.stream": "带宽扫描（copy、triad）",
    "measure.bench.gemm_fp64": "GEMM FP64",
    "measure.bench.gemm_fp32": "GEMM FP32",
    "measure.bench.gemm_small": "GEMM FP16 和 INT8（numpy 自带循环）",
    "measure.bench.gpu_matmul": "GPU 各精度矩阵乘",
    "measure.bench.gpu_copy": "GPU 设备内拷贝",
    "measure.what.benchmark": "一次实测",
    "measure.what.kernels": "一次 kernel 实测",
    "measure.busy": "{owner} 发起的{what}正在运行（已 {elapsed} 秒，约剩 {left} 秒）。"
                    "每台服务器同一时间只跑一项测量，两位用户才不会互相干扰计时。",
    "measure.busy_short": "另一项测量正在运行，请几秒后再试。",
    "measure.check_again": "再看一次",
    "measure.check_again_help": "重新检查另一项测量是否已经结束。",
    "measure.finished": "实测用时 {seconds} 秒。已加入本次会话侧边栏的设备列表：{devices}。",
    "measure.load_heading": "载入实测文件",
    "measure.load": "实测文件（.toml）",
    "measure.load_help": "由 `python -m measure` 写出或从本页下载的文件（hardware.toml 格式，带 measured = true）。"
                         "其中的实测设备会加入本次会话侧边栏的设备列表。",
    "measure.load_not_utf8": "{name} 不是 UTF-8 文本。",
    "measure.load_error": "文件读取失败：{message}",
    "measure.load_none": "{name} 里没有实测设备（measured = true）。",
    "measure.load_ok": "已从 {name} 把 {n} 个实测设备加入侧边栏列表。",
    "measure.none_yet": "本次会话还没有实测：点「开始实测」（或载入实测文件）。命令行也能做同样的事："
                        "`python -m measure [--quick] [--out FILE.toml]`。",
    "measure.results_heading": "实测对比规格书",
    "measure.measured_device": "实测设备",
    "measure.measured_device_help": "本次会话实测（或载入）的设备。",
    "measure.precision": "屋顶的精度",
    "measure.precision_help": "图上平的屋顶用哪个精度的实测峰值。CPU 上的 FP16 和 INT8 走 numpy 自带循环（不走 BLAS），"
                              "远低于 FP32。",
    "measure.custom_note": "自定义设备的峰值与实测的 {precision} 峰值对比。",
    "measure.other_precision": "{device} 没有 {wanted} 峰值，图上画的是它的 {used} 峰值（侧边栏所选精度）。",
    "measure.not_comparable": "{measured} 是{kind}；侧边栏的 {sidebar} 是{other}：两者的数字不可比，"
                              "所以不显示比值。要对比，请在侧边栏选同类设备（对这台 CPU：hardware.toml 中 "
                              "kind = \"cpu\" 的 CPU 规格书条目，或用「自定义…」填它规格书上的数字）。",
    "measure.kind.cpu": "CPU",
    "measure.kind.accelerator": "加速器（GPU）",
    "measure.no_datasheet": "侧边栏选的是实测设备。请在侧边栏选要对比的规格书设备（或用「自定义…」填这台机器规格书上的数字）。",
    "measure.chart_caption": "绿色实线：实测 Roofline（所选精度的峰值算力、DRAM 带宽）。点线：同一屋顶下的实测缓存带宽。"
                             "灰色虚线：侧边栏设备的规格书。带编号的点：实测 kernel，各自对照其数据所在存储层级的带宽。",
    "measure.table_heading": "上限：实测 ÷ 规格书",
    "measure.col.ceiling": "上限",
    "measure.col.measured": "实测（最佳）",
    "measure.col.median": "中位数",
    "measure.col.spread": "波动",
    "measure.col.where": "达到时的规模",
    "measure.col.datasheet": "规格书",
    "measure.col.ratio": "实测 ÷ 规格书",
    "measure.ceiling.peak": "{precision} 峰值算力",
    "measure.ceiling.dram": "DRAM 带宽",
    "measure.ceiling.cache": "{level} 缓存带宽",
    "measure.table_caption": "最佳 = 最快的一次采样（干扰只会让运行变慢）；中位数和波动（(最慢 − 最快) ÷ 中位数）说明这台机器当时的测量结果有多不稳定。"
                             "规格书不给缓存带宽（—）。",
    "measure.host_heading": "在哪里、怎样测的",
    "measure.host_line": "**主机：** {host}  \n**日期（UTC）：** {date}  \n**来源：** {source}",
    "measure.download": "下载 measured.toml",
    "measure.download_help": "hardware.toml 格式的实测设备：以后可在本页载入，或把 ROOFLINE_LAB_HARDWARE 指向它。",
    "measure.curve_heading": "带宽随工作集大小的变化",
    "measure.curve_needs_run": "这条曲线需要本次会话里跑过一次实测（载入的文件只保存平台值）。",
    "measure.curve_caption_cpu": "numpy 单线程 copy 和 triad，工作集逐渐增大。台阶对应各级缓存（竖线为容量）和 DRAM；"
                                 "点线是作为屋顶的平台值。最小的工作集包含 numpy 每次调用的开销（约 1 微秒），"
                                 "所以它们的平台值是 numpy 代码能拿到的，低于硬件本身。",
    "measure.curve_caption_gpu": "torch 设备内拷贝（读 + 写都计入），工作集逐渐增大；台阶是 L2 缓存。",
    "measure.live_heading": "实测 Roofline 上的 kernel",
    "measure.live_intro": "选几个 numpy 运算和规模，在这里运行，它们的点会落在上面的图上：FLOP 和字节数用与「Roofline」页相同的公式，时间是现场测的。",
    "measure.live_needs_cpu": "这些 kernel 是本服务器 CPU 上的 numpy 运算：请在上面选本次会话实测的 CPU 再运行。",
    "measure.live_precision": "kernel 精度",
    "measure.live_precision_help": "FP64（每个元素 8 字节）或 FP32（4 字节）。",
    "measure.kind.gemm": "GEMM n × n",
    "measure.kind.gemm_help": "C = A · B，n × n 矩阵：2·n³ FLOP，(3·n²)·b 字节。",
    "measure.kind.gemv": "GEMV m × n",
    "measure.kind.gemv_help": "y = A · x：2·m·n FLOP，(m·n + n + m)·b 字节。总是带宽受限。",
    "measure.kind.add": "逐元素加法",
    "measure.kind.add_help": "c = a + b，n 个元素：n FLOP，3·n·b 字节。",
    "measure.kind.sum": "归约（求和）",
    "measure.kind.sum_help": "s = Σ a，n 个元素：n − 1 FLOP，(n + 1)·b 字节。",
    "measure.size.m_gemm_n": "n",
    "measure.size.m_gemv_m": "m（行）",
    "measure.size.m_gemv_n": "n（列）",
    "measure.size.m_add_n": "n（元素数）",
    "measure.size.m_sum_n": "n（元素数）",
    "measure.size_help": "元素个数（整数），例如 4096、8M、2**24。每个 kernel 最多 1 GiB 数据、约 2 秒。",
    "measure.kernel_cost": "{flops} · {bytes} · 算术强度 {intensity}",
    "measure.kernel_too_big": "{message}",
    "measure.kernel_too_slow": "{label} 在实测 Roofline 上至少要 {seconds} 秒；每个 kernel 的上限是 {limit} 秒。",
    "measure.run_kernels": "运行 kernel",
    "measure.run_kernels_help": "逐个计时所选 kernel（先预热，再共采样几秒），并画到图上。",
    "measure.col.kernel": "kernel",
    "measure.col.flops": "FLOP",
    "measure.col.bytes": "字节",
    "measure.col.intensity": "算术强度",
    "measure.col.time": "时间（最佳）",
    "measure.col.time_median": "时间（中位数）",
    "measure.col.achieved": "实测性能",
    "measure.col.achieved_bw": "实测带宽",
    "measure.col.level": "存储层级（带宽）",
    "measure.col.attainable": "上限",
    "measure.col.of_roof": "占上限",
    "measure.live_caption": "实测性能用时间的中位数（屋顶用最快的采样，所以噪声表现为屋顶下方的差距）。"
                            "存储层级：kernel 的数据（大部分）能放进的最小一级缓存，否则是 DRAM；"
                            "其上限取该层级及更低层级里最快的实测带宽。点超过 100% 说明此刻机器比实测时更空闲。",
    "measure.fig.measured_roof": "实测 {precision}",
    "measure.fig.above_measured": "高于实测屋顶（此刻机器更空闲）",
    "measure.fig.measured_roof_ratio": "实测 {precision}（峰值算力为规格书的 {peak}，带宽为其 {bw}）",
    "measure.fig.datasheet_roof": "规格书：{device}",
    "measure.fig.cache_roof": "实测 {level} 缓存",
    "measure.fig.ws_title": "工作集（字节）",
    "measure.fig.bw_title": "带宽（字节/秒）",
    "measure.fig.kernel.copy": "copy",
    "measure.fig.kernel.triad": "triad",
    "measure.fig.curve_hover": "<b>{kernel}</b><br>工作集：{ws}<br>最佳：{best}<br>中位数：{median}<br>波动：{spread}",
    "measure.fig.cache_size": "{level} {size}",
    "measure.fig.plateau": "{level} 平台 {bw}",
    "measure.fig.dram": "DRAM",
    "measure.fig.datasheet_bw": "规格书 {device}：{bw}",
    "measure.how.bandwidth": "流式带宽：每次调用搬运的字节数 ÷ 最快那次采样的单次调用时间。copy 读写 n 个 float64；"
                             "triad a = b + s·c 在 numpy 里是两遍，共搬运五个数组。",
    "measure.how.gemm": "矩阵乘吞吐：每次乘加算一次乘法和一次加法，共 n³ 次乘加。",
    "measure.how.plateau": "某级缓存的平台值：能放进其容量 C_k 一半、但放不进下一级的工作集 W 上带宽的中位数；"
                           "DRAM：W 至少是末级缓存的两倍。",
    "measure.how.ratio": "每个上限的实测值 ÷ 规格书值：机器兑现了多少承诺。",
    "measure.how.live": "实测 kernel 的上限：在其算术强度 I 处的实测屋顶，带宽取其数据所在存储层级的带宽；"
                        "占上限 = 实测 FLOP/s ÷ 上限。",
}
