"""Roofline page strings ("roofline.*"). Figure strings live in figures.py ("fig.*")."""

EN = {
    "roofline.title": "Roofline: where is the bottleneck, and how fast can it NOT go?",
    "roofline.intro": (
        "Three steps: **①** count a kernel's FLOPs and bytes → its arithmetic intensity; "
        "**②** find it on the chart → its ceiling on this device; **③** compare with the "
        "measured time: near the ceiling → done, optimise something else; far below → a bug "
        "or a poor implementation, worth digging in. The roofline's biggest value is telling "
        "you how fast a kernel can **not** go: at intensity 2 on this device nothing beats "
        "**{capped}**."),
    "roofline.roofs": "Extra roofs (other precisions)",
    "roofline.roofs_help": "Draw this device's roof for other precisions too (dashed), e.g. FP32 "
                           "vs BF16 vs FP8. The slope (memory bandwidth) is the same for all.",
    "roofline.roofs_placeholder": "None: only the selected precision",
    "roofline.roofs_none": "This device has no other precision to compare.",
    "roofline.chart_labels": "Numbers next to the points are table rows.",
    "roofline.chart_caption": "Dotted lines join a "
                              "measured kernel to its ceiling; a kernel without a time is drawn "
                              "at its ceiling. Hover a point for its numbers.",
    "roofline.view_heading": "View: highlight the slowest kernels, size by time, filter by name",
    "roofline.tab.table": "Kernel table",
    "roofline.tab.builder": "Kernel builder",
    "roofline.tab.import": "Import a file",
    "roofline.table_intro": (
        "One row per kernel; all numbers are totals over **count** calls. Cells accept "
        "numbers, units and arithmetic: `2*8192**3`, `1.1T`, `14 GB`, `1.2 ms`, `20 us`. "
        "Leave the time blank if you have not measured it. Add rows at the bottom, delete "
        "them by selecting their left edge, then press **Apply edits**."),
    "roofline.apply": "Apply edits",
    "roofline.apply_help": "Put what you typed in the table on the chart and in the results. "
                           "Typing does not redraw the page, so fast typing (name, Tab, FLOPs, "
                           "Tab, …) keeps every cell.",
    "roofline.reset": "Reset to the examples",
    "roofline.reset_help": "Replace the table with the four preloaded examples.",
    "roofline.clear": "Clear the table",
    "roofline.clear_help": "Remove every row (e.g. before importing a file).",
    "roofline.col.name": "Kernel",
    "roofline.col.name_help": "Any name; shown as plain text.",
    "roofline.col.flops": "FLOPs",
    "roofline.col.flops_help": "Floating-point operations of all calls (a multiply-add is 2). "
                               "Examples: 2*8192**3, 1.1T, 3 TFLOP, 1.5e9. 0 for a kernel that "
                               "only moves data (copy, fill, memset): it is judged by its "
                               "bandwidth. Blank if unknown. At most 1e30.",
    "roofline.col.bytes": "Bytes",
    "roofline.col.bytes_help": "Bytes moved to and from DRAM/HBM by all calls. Examples: 14 GB, "
                               "402 MB, 3*8192**2*2, 1.5e9.",
    "roofline.col.seconds": "Time",
    "roofline.col.seconds_help": "Measured time of all calls together (optional). Examples: 1.2 ms, 20 us, 0.004 (seconds); "
                                 "Chinese units too (1.2 毫秒, 3 秒).",
    "roofline.col.count": "Count",
    "roofline.col.count_help": "How many calls the row adds up (a whole number, default 1).",
    "roofline.err.heading.one": "{n} row could not be read and is not plotted; the other rows are:",
    "roofline.err.heading.other": "{n} rows could not be read and are not plotted; the other rows are:",
    "roofline.err.cell": "Row {row}, {column}: {detail}",
    "roofline.err.more": "… and {n} more cells.",
    "roofline.link.too_long": "The table is too long for a share link, so the link does not carry "
                              "it (the other settings still travel). To send the kernels, save a "
                              "scenario file or download the table as CSV.",
    "roofline.link.bad": "The link's kernel table could not be read, so the examples are shown "
                         "instead. Details: {message}",
    # builder
    "roofline.b.intro": "Pick a kernel and its shapes: the FLOPs and bytes are counted for you "
                        "(ideal traffic: every tensor read or written once), with the formula.",
    "roofline.b.kind": "Kernel",
    "roofline.b.kind_help": "Which kernel to count. GEMM = matrix multiply; GEMV = matrix × vector "
                            "(batch-1 decode).",
    "roofline.b.kind.gemm": "GEMM (matrix × matrix)",
    "roofline.b.kind.gemv": "GEMV (matrix × vector)",
    "roofline.b.kind.elementwise": "Element-wise (activation, add, …)",
    "roofline.b.kind.softmax": "Softmax (row-wise)",
    "roofline.b.kind.layernorm": "LayerNorm",
    "roofline.b.kind.attention": "Attention (softmax(QKᵀ)V)",
    "roofline.b.dtype": "Data type",
    "roofline.b.dtype_opt": "{name} ({bytes} B/element)",
    "roofline.b.dtype_help": "Element size: FP32 4 bytes, BF16/FP16 2, FP8/INT8 1. Sets the bytes, "
                             "not the FLOPs.",
    "roofline.b.time": "Measured time (optional)",
    "roofline.b.time_help": "Time of one call, if you measured it, e.g. 1.2 ms, 20 us (Chinese units too: 1.2 毫秒). "
                            "Leave blank to see only the ceiling.",
    "roofline.b.time_placeholder": "e.g. 1.2 ms",
    "roofline.b.time_bad": "Could not read the time “{text}”. Examples: 1.2 ms, 20 us, 0.004.",
    "roofline.b.calc_error": "These shapes cannot be counted: {message}",
    "roofline.b.too_large": "These shapes give {flops} and {bytes}: more than the {limit} a table "
                            "cell holds. Check the shapes (a typo such as 8192**3 for 8192?).",
    "roofline.b.shape_help": "A whole number of elements; arithmetic and k/M suffixes work "
                             "(8192, 8k, 4096*4).",
    "roofline.b.m": "m (rows of A and C)",
    "roofline.b.n": "n (columns of B and C)",
    "roofline.b.k": "k (inner dimension)",
    "roofline.b.gemv_m": "m (rows of the matrix, outputs)",
    "roofline.b.gemv_n": "n (columns of the matrix, inputs)",
    "roofline.b.elems": "Elements n",
    "roofline.b.inputs": "Input tensors",
    "roofline.b.fpe": "FLOPs per element",
    "roofline.b.fpe_help": "Operations per output element, e.g. 1 for add or scale, ~8 for GELU. "
                           "0 is a plain copy.",
    "roofline.b.rows": "Rows (tokens)",
    "roofline.b.cols": "Columns (hidden size)",
    "roofline.b.batch": "Batch",
    "roofline.b.heads": "Heads",
    "roofline.b.seq": "Sequence length",
    "roofline.b.hd": "Head dimension",
    "roofline.b.flash": "FlashAttention (fused)",
    "roofline.b.flash_help": "Fused: the s×s score matrix never goes through memory. Off: the "
                             "standard kernel writes and reads it (4·s² extra elements).",
    "roofline.b.causal": "Causal mask",
    "roofline.b.causal_help": "With FlashAttention, masked blocks are skipped: half the FLOPs.",
    "roofline.b.flops": "FLOPs",
    "roofline.b.bytes": "Bytes moved",
    "roofline.b.intensity": "Intensity",
    "roofline.b.how": "**How it was counted** (numbers substituted):",
    "roofline.b.model.gemm": "A and B are read once, C written once (perfect tiling): a lower bound "
                             "on bytes, so an upper bound on intensity.",
    "roofline.b.model.gemv": "The matrix is read once per call: about 1 FLOP per byte in BF16, "
                             "always memory-bound.",
    "roofline.b.model.elementwise": "Each input read once and the output written once; nothing is "
                                    "reused, so it is memory-bound.",
    "roofline.b.model.softmax": "Fused one-pass softmax: input read once, output written once; "
                                "5 FLOPs per element.",
    "roofline.b.model.layernorm": "Input read once, output written once, plus γ and β; 8 FLOPs per "
                                  "element.",
    "roofline.b.model.attention": "Q·Kᵀ and P·V count 2·s²·d each; softmax FLOPs are not counted "
                                  "(as in the FlashAttention paper).",
    "roofline.b.add": "Add to the table",
    "roofline.b.add_help": "Append this kernel as a new row (name, FLOPs, bytes, time).",
    "roofline.b.added": "Added “{name}” to the table.",
    # results
    "roofline.results_heading": "Results",
    "roofline.r.row": "Row",
    "roofline.r.intensity": "Intensity",
    "roofline.r.bound": "Bound",
    "roofline.r.attainable": "Ceiling (attainable)",
    "roofline.r.floor": "Time floor",
    "roofline.r.achieved": "Achieved",
    "roofline.r.achieved_bw": "Achieved bandwidth",
    "roofline.r.fraction": "% of ceiling",
    "roofline.r.verdict": "Verdict",
    "roofline.r.none": "No kernel to place yet: add rows to the table, build one, or import a file.",
    "roofline.r.summary": "**{n}** kernels placed, **{measured}** with a measured time: "
                          "{near} near the roof (≥ {near_pct}), {below} below it, {above} above "
                          "it (> {above_pct}: impossible).",
    "roofline.r.top_note": "Sentences for the {shown} slowest of {n} kernels (by measured time, "
                           "else by time floor); the table above lists them all.",
    "roofline.r.no_flops.one": "{n} kernel has no FLOPs (e.g. an Nsight Compute file without FLOP "
                               "counters) and cannot be placed: fill in its FLOPs in the table.",
    "roofline.r.no_flops.other": "{n} kernels have no FLOPs (e.g. an Nsight Compute file without FLOP "
                                 "counters) and cannot be placed: fill in their FLOPs in the table.",
    "roofline.s.head": "**{row}. {name}** — {bound} (intensity {intensity}): it cannot run faster "
                       "than **{ceiling}** on this device, so it needs at least **{floor}**.",
    "roofline.s.unmeasured": "No time given, so it is drawn at its ceiling; enter the measured time "
                             "to see how close it gets.",
    "roofline.s.head_zero": "**{row}. {name}** — zero-FLOP: it only moves data ({bytes}), so it is "
                            "judged by bandwidth against the memory roof ({bw}): it needs at least "
                            "**{floor}**.",
    "roofline.s.unmeasured_zero": "No time given, so it is drawn at the memory roof in the zero-FLOP "
                                  "strip; enter the measured time to see its bandwidth.",
    "roofline.s.measured_zero": "Measured {time} ⇒ {achieved}, **{pct} of the memory roof** "
                                "(bandwidth utilisation):",
    "roofline.s.fix.zero_flop": "It does no math, so the only fix is moving fewer bytes: fuse it into "
                                "its neighbours, avoid the copy (views, in-place ops), or use a "
                                "smaller data type.",
    "roofline.s.near_roof_zero": "close to the memory roof — it moves its bytes as fast as the "
                                 "memory allows; the only gain left is not moving them (fuse it "
                                 "into its neighbours, views, in-place ops).",
    "roofline.s.above_roof_zero": "above the memory roof, which is impossible — the numbers are "
                                  "wrong. Likely causes: bytes counted too high (data still in "
                                  "cache never reaches DRAM; a copy's bytes counted twice), a time "
                                  "measured too short (asynchronous launches timed without "
                                  "synchronising, ms read as µs), or a roof too low (the bandwidth "
                                  "of a PCIe part for an SXM one).",
    "roofline.s.measured": "Measured {time} ⇒ {achieved}, **{pct} of its ceiling**:",
    "roofline.s.below": "far below the roof — a bug or a poor implementation; worth digging in.",
    "roofline.s.fix.memory": "It is memory-bound, so optimise data movement (fuse kernels, fewer "
                             "passes, smaller data types, better reuse); faster math will not help.",
    "roofline.s.fix.compute": "It is compute-bound, so optimise the math (Tensor Cores, the right "
                              "precision, aligned shapes, better tiling).",
    "roofline.s.near_roof": "close to the roof — this kernel is done; optimise something else "
                            "(or raise its intensity to lift its ceiling).",
    "roofline.s.above_roof_winograd": "above the direct-convolution roof. For a 3×3 (small-window) "
                                      "convolution the usual reason is the **algorithm**: cuDNN "
                                      "often runs Winograd or FFT, which do fewer multiplications "
                                      "than the direct count used here (Winograd F(2×2, 3×3): "
                                      "2.25× fewer, F(4×4, 3×3): 4×), so the point's FLOPs are "
                                      "more than the GPU executed. Only if the algorithm is direct "
                                      "or implicit GEMM are the numbers wrong: then check the "
                                      "sidebar's precision, the counted bytes and the timing.",
    "roofline.s.above_roof_conv": "above the direct-convolution roof. For a convolution, check the "
                                  "**algorithm** first: Winograd or FFT (cuDNN's choice for many "
                                  "3×3 layers) do fewer multiplications than the direct count used "
                                  "here, so the point's FLOPs are more than the GPU executed. "
                                  "Otherwise the numbers are wrong: the sidebar's precision, the "
                                  "counted bytes or the timing.",
    "roofline.s.above_roof": "above the roof, which is impossible — your numbers are wrong. Likely "
                             "causes: a roof that is too low (a lower precision in the sidebar than "
                             "the kernel runs in, e.g. BF16 for an FP8 kernel, or a PCIe part for an "
                             "SXM one); FLOPs counted too high (twice); bytes counted too high for a "
                             "kernel whose data really comes from cache (its true DRAM intensity is "
                             "higher, so it belongs further right); or a time measured too short "
                             "(asynchronous launches timed without synchronising, ms read as µs). "
                             "Counting MACs as FLOPs or using a 2:4-sparse peak would put it below "
                             "the roof, never above.",
    "roofline.dl.table": "⬇️ Kernel table (CSV)",
    "roofline.dl.table_help": "The readable rows as CSV (name, flops, bytes, seconds, count); the "
                              "Import panel reads it back exactly.",
    "roofline.dl.results": "⬇️ Results (CSV)",
    "roofline.dl.results_help": "Per kernel: intensity, bound, ceiling, time floor, achieved FLOP/s, "
                                "fraction of the ceiling and verdict, in SI base units.",
    "roofline.how.attainable": "A kernel's ceiling is the lower of the compute roof and its "
                               "intensity times the memory bandwidth:",
    "roofline.how.ridge": "The ridge point, where the slope meets the roof; left of it a kernel is "
                          "memory-bound, right of it compute-bound:",
    "roofline.how.example": "For table row {row}:",
    "roofline.how.sym_bytes": "bytes",
    "roofline.how.sym_fraction": "% of ceiling",
    "roofline.how.measured": "With a measured time t: the floor, the achieved FLOP/s and the fraction "
                             "of the ceiling (≥ {near}: near the roof; > {above}: above it, the "
                             "numbers are wrong):",
    "roofline.extras_heading": "Compare and save",
}

ZH = {
    "roofline.title": "Roofline：瓶颈在哪？它**不能**快过多少？",
    "roofline.intro": (
        "三步用起来：**①** 算出 kernel 的 FLOP 和字节数 → 得到算术强度；**②** 在图上找到它的位置 → "
        "知道它在这台设备上的理论上限；**③** 和实测对比：接近上限 → 这个 kernel 已经到头了，去优化别的；"
        "远低于上限 → 有 bug 或实现差，值得深挖。Roofline 最大的价值是告诉你**不能**快多少："
        "算术强度为 2 的 kernel 在这台设备上无论如何都超不过 **{capped}**。"),
    "roofline.roofs": "额外的屋顶（其他精度）",
    "roofline.roofs_help": "把本设备其他精度的屋顶也画出来（虚线），例如 FP32 / BF16 / FP8 对比。"
                           "斜坡（显存带宽）对所有精度都一样。",
    "roofline.roofs_placeholder": "不加：只画所选精度",
    "roofline.roofs_none": "这台设备没有其他精度可对比。",
    "roofline.chart_labels": "点旁边的数字是表格行号。",
    "roofline.chart_caption": "虚线把实测的 kernel 连到它的上限；"
                              "没给时间的 kernel 直接画在上限处。鼠标悬停可看具体数字。",
    "roofline.view_heading": "显示：突出最耗时的 kernel、按时间决定点的大小、按名称筛选",
    "roofline.tab.table": "Kernel 表",
    "roofline.tab.builder": "Kernel 计算器",
    "roofline.tab.import": "导入文件",
    "roofline.table_intro": "每行一个 kernel；所有数字都是这一行全部调用（见「调用次数」列）的总和。单元格可填数字、单位和算式：`2*8192**3`、"
                            "`1.1T`、`14 GB`、`1.2 ms`、`20 us`。没测时间就留空。在表格底部添加行；选中行的左边缘即可删除；改完按「应用修改」。",
    "roofline.apply": "应用修改",
    "roofline.apply_help": "把表格里填好的内容画到图上、写进结果。输入时页面不会刷新，"
                           "所以快速输入（名称、Tab、FLOP、Tab……）每个单元格都会保留。",
    "roofline.reset": "恢复示例",
    "roofline.reset_help": "用预置的四个示例替换当前表格。",
    "roofline.clear": "清空表格",
    "roofline.clear_help": "删除所有行（例如在导入文件之前）。",
    "roofline.col.name": "Kernel",
    "roofline.col.name_help": "任意名称，按纯文本显示。",
    "roofline.col.flops": "FLOP",
    "roofline.col.flops_help": "所有调用的浮点运算次数（一次乘加算 2）。例如 2*8192**3、1.1T、"
                               "3 TFLOP、1.5e9。只搬数据的 kernel（拷贝、填充、memset）填 0：按带宽评判。"
                               "不知道就留空。最大 1e30。",
    "roofline.col.bytes": "字节数",
    "roofline.col.bytes_help": "所有调用与 DRAM/HBM 之间搬运的字节数。例如 14 GB、402 MB、"
                               "3*8192**2*2、1.5e9。",
    "roofline.col.seconds": "时间",
    "roofline.col.seconds_help": "所有调用的实测总时间（可选）。例如 1.2 ms、20 us、0.004（秒），也可以写中文单位：1.2 毫秒、3 秒。",
    "roofline.col.count": "调用次数",
    "roofline.col.count_help": "这一行合计了多少次调用（整数，默认 1）。",
    "roofline.err.heading.one": "有 {n} 行读不出来，没有画到图上；其他行照常显示：",
    "roofline.err.heading.other": "有 {n} 行读不出来，没有画到图上；其他行照常显示：",
    "roofline.err.cell": "第 {row} 行「{column}」列：{detail}",
    "roofline.err.more": "……还有 {n} 个单元格有问题。",
    "roofline.link.too_long": "表格太长，分享链接装不下，所以链接里不带 kernel 表（其他设置照常带上）。"
                              "要把 kernel 发给别人，请保存场景文件或把表格下载为 CSV。",
    "roofline.link.bad": "链接里的 kernel 表读不出来，已改为显示示例。详情：{message}",
    # builder
    "roofline.b.intro": "选一种 kernel 并填好形状，FLOP 和字节数会自动算出（理想访存：每个张量只读或写一次），"
                        "并列出公式。",
    "roofline.b.kind": "Kernel 类型",
    "roofline.b.kind_help": "要计算哪种 kernel。GEMM = 矩阵乘；GEMV = 矩阵乘向量（批大小为 1 的解码）。",
    "roofline.b.kind.gemm": "GEMM（矩阵 × 矩阵）",
    "roofline.b.kind.gemv": "GEMV（矩阵 × 向量）",
    "roofline.b.kind.elementwise": "逐元素（激活、加法等）",
    "roofline.b.kind.softmax": "Softmax（按行）",
    "roofline.b.kind.layernorm": "LayerNorm",
    "roofline.b.kind.attention": "注意力（softmax(QKᵀ)V）",
    "roofline.b.dtype": "数据类型",
    "roofline.b.dtype_opt": "{name}（每元素 {bytes} 字节）",
    "roofline.b.dtype_help": "每个元素的字节数：FP32 为 4，BF16/FP16 为 2，FP8/INT8 为 1。只影响字节数，不影响 FLOP。",
    "roofline.b.time": "实测时间（可选）",
    "roofline.b.time_help": "单次调用的实测时间，例如 1.2 ms、20 us，也可以写 1.2 毫秒、20 微秒。留空则只看理论上限。",
    "roofline.b.time_placeholder": "例如 1.2 ms",
    "roofline.b.time_bad": "读不出时间“{text}”。示例：1.2 ms、20 us、0.004、1.5 秒。",
    "roofline.b.calc_error": "这组形状无法计算：{message}",
    "roofline.b.too_large": "这组形状得到 {flops} 和 {bytes}：超过表格单元格能容纳的 {limit}。"
                            "请检查形状（是否把 8192 误写成了 8192**3？）。",
    "roofline.b.shape_help": "元素个数（整数）；支持算式和 k/M 后缀（8192、8k、4096*4）。",
    "roofline.b.m": "m（A 和 C 的行数）",
    "roofline.b.n": "n（B 和 C 的列数）",
    "roofline.b.k": "k（内积维度）",
    "roofline.b.gemv_m": "m（矩阵行数，即输出长度）",
    "roofline.b.gemv_n": "n（矩阵的列数，即输入向量的维度）",
    "roofline.b.elems": "元素个数 n",
    "roofline.b.inputs": "输入张量个数",
    "roofline.b.fpe": "每元素 FLOP",
    "roofline.b.fpe_help": "每个输出元素的运算次数，例如加法或缩放为 1，GELU 约为 8；0 表示纯拷贝。",
    "roofline.b.rows": "行数（token 数）",
    "roofline.b.cols": "列数（隐藏维度）",
    "roofline.b.batch": "Batch",
    "roofline.b.heads": "头数",
    "roofline.b.seq": "序列长度",
    "roofline.b.hd": "每头维度",
    "roofline.b.flash": "FlashAttention（融合）",
    "roofline.b.flash_help": "融合实现：s×s 的分数矩阵不经过显存。关闭：标准实现要把它写出再读回（多 4·s² 个元素）。",
    "roofline.b.causal": "因果掩码",
    "roofline.b.causal_help": "配合 FlashAttention 时会跳过被掩码的块：FLOP 减半。",
    "roofline.b.flops": "FLOP",
    "roofline.b.bytes": "搬运字节数",
    "roofline.b.intensity": "算术强度",
    "roofline.b.how": "**怎么算的**（代入了具体数字）：",
    "roofline.b.model.gemm": "A、B 各读一次，C 写一次（理想分块）：字节数是下限，所以算术强度是上限。",
    "roofline.b.model.gemv": "每次调用都要把整个矩阵读一遍：BF16 下约 1 FLOP/字节，永远是带宽受限。",
    "roofline.b.model.elementwise": "每个输入读一次、输出写一次，没有任何复用，所以是带宽受限。",
    "roofline.b.model.softmax": "融合的单遍 softmax：输入读一次、输出写一次；每元素 5 FLOP。",
    "roofline.b.model.layernorm": "输入读一次、输出写一次，外加 γ 和 β；每元素 8 FLOP。",
    "roofline.b.model.attention": "Q·Kᵀ 和 P·V 各算 2·s²·d；softmax 的 FLOP 不计入（与 FlashAttention 论文一致）。",
    "roofline.b.add": "加入表格",
    "roofline.b.add_help": "把这个 kernel 作为新的一行追加到表格（名称、FLOP、字节数、时间）。",
    "roofline.b.added": "已把“{name}”加入表格。",
    # results
    "roofline.results_heading": "结果",
    "roofline.r.row": "行",
    "roofline.r.intensity": "算术强度",
    "roofline.r.bound": "瓶颈",
    "roofline.r.attainable": "上限（可达性能）",
    "roofline.r.floor": "最短时间",
    "roofline.r.achieved": "实测性能",
    "roofline.r.achieved_bw": "实测带宽",
    "roofline.r.fraction": "占上限 %",
    "roofline.r.verdict": "结论",
    "roofline.r.none": "还没有可以画的 kernel：在表格里加几行、用计算器生成一个，或者导入文件。",
    "roofline.r.summary": "共放置 **{n}** 个 kernel，其中 **{measured}** 个有实测时间：{near} 个接近上限（≥ {near_pct}），"
                          "{below} 个低于上限，{above} 个超过上限（> {above_pct}：不可能）。",
    "roofline.r.top_note": "下面只为 {n} 个 kernel 中最慢的 {shown} 个写了结论（按实测时间，没有则按最短时间排序）；"
                           "上面的表格列出了全部。",
    "roofline.r.no_flops.one": "有 {n} 个 kernel 没有 FLOP（例如 Nsight Compute 文件里没有 FLOP 计数器），"
                           "无法放到图上：请在表格里补上它们的 FLOP。",
    "roofline.r.no_flops.other": "有 {n} 个 kernel 没有 FLOP（例如 Nsight Compute 文件里没有 FLOP 计数器），"
                           "无法放到图上：请在表格里补上它们的 FLOP。",
    "roofline.s.head": "**{row}. {name}**——{bound}（算术强度 {intensity}）：在这台设备上不可能快过 **{ceiling}**，"
                       "所以至少需要 **{floor}**。",
    "roofline.s.unmeasured": "没给时间，所以画在上限处；填上实测时间就能看到离上限有多远。",
    "roofline.s.head_zero": "**{row}. {name}**——零 FLOP：它只搬数据（{bytes}），所以按带宽和显存带宽上限（{bw}）比较："
                            "至少需要 **{floor}**。",
    "roofline.s.unmeasured_zero": "没给时间，所以画在零 FLOP 区域的带宽上限处；填上实测时间就能看到它的带宽。",
    "roofline.s.measured_zero": "实测 {time} ⇒ {achieved}，**达到带宽上限的 {pct}**（带宽利用率）：",
    "roofline.s.fix.zero_flop": "它不做计算，唯一的优化是少搬字节：和前后的 kernel 做算子融合、避免拷贝（用 view、原地操作），"
                                "或者换更小的数据类型。",
    "roofline.s.near_roof_zero": "接近带宽上限——它搬字节已经和显存允许的一样快；剩下的收益只有不搬："
                                 "和前后的 kernel 做算子融合、用 view、原地操作。",
    "roofline.s.above_roof_zero": "超过了带宽上限，这在物理上不可能——数字有误。常见原因：字节数算多了"
                                  "（还在缓存里的数据不会到达显存；拷贝的字节数算了两遍）、时间测短了"
                                  "（异步启动没有同步就计时，把 ms 当成 µs），或者上限太低（拿 PCIe 版的带宽"
                                  "去衡量 SXM 版）。",
    "roofline.s.measured": "实测 {time} ⇒ {achieved}，**达到上限的 {pct}**：",
    "roofline.s.below": "远低于上限——有 bug 或实现差，值得深挖。",
    "roofline.s.fix.memory": "它是带宽受限，应该优化**数据搬运**（算子融合、减少读写遍数、更小的数据类型、提高复用）；"
                             "算得再快也没用。",
    "roofline.s.fix.compute": "它是算力受限，应该优化**计算**（用上 Tensor Core、选对精度、维度对齐、更好的分块）。",
    "roofline.s.near_roof": "接近上限——这个 kernel 已经到头了，去优化别的（或者提高它的算术强度，把上限抬高）。",
    "roofline.s.above_roof_winograd": "超过了直接卷积算出的屋顶。对 3×3（小窗口）卷积，常见原因是**算法**：cuDNN 常用 Winograd 或 FFT，"
                                      "它们的乘法次数比这里用的直接计数少（Winograd F(2×2, 3×3) 少 2.25 倍，F(4×4, 3×3) 少 4 倍），"
                                      "所以点的 FLOP 比 GPU 实际执行的多。只有算法是直接卷积或隐式 GEMM 时，数字才有误：再查侧边栏的精度、字节数和计时。",
    "roofline.s.above_roof_conv": "超过了直接卷积算出的屋顶。对卷积，先查**算法**：Winograd 或 FFT（cuDNN 对很多 3×3 层的选择）的乘法次数比这里用的直接计数少，"
                                  "所以点的 FLOP 比 GPU 实际执行的多。否则就是数字有误：侧边栏的精度、字节数或计时。",
    "roofline.s.above_roof": "超过了屋顶，这在物理上不可能——你算错了。常见原因：屋顶太低（侧边栏选的精度比 kernel 实际用的低，比如 FP8 kernel 却选了 BF16，"
                             "或者 SXM 的卡选成了 PCIe 版）；FLOP 算多了（重复计数）；数据其实来自缓存、字节却按显存流量算多了（真实的显存算术强度更高，"
                             "点应该更靠右）；或者时间测短了（异步启动没有同步就计时、把 ms 当成 µs）。把 MAC 当成 FLOP、或者用 2:4 稀疏峰值，"
                             "只会让点落到屋顶下面，不会超过屋顶。",
    "roofline.dl.table": "⬇️ Kernel 表（CSV）",
    "roofline.dl.table_help": "可读的行导出为 CSV（name, flops, bytes, seconds, count），导入面板可以原样读回。",
    "roofline.dl.results": "⬇️ 结果（CSV）",
    "roofline.dl.results_help": "每个 kernel 的算术强度、瓶颈、上限、最短时间、实测 FLOP/s、占上限比例和结论，单位为 SI 基本单位。",
    "roofline.how.attainable": "一个 kernel 的上限 = min(算力屋顶, 算术强度 × 显存带宽)：",
    "roofline.how.ridge": "拐点是斜坡与屋顶的交点；在它左边是带宽受限，右边是算力受限：",
    "roofline.how.example": "以表格第 {row} 行为例：",
    "roofline.how.sym_bytes": "字节数",
    "roofline.how.sym_fraction": "占上限 %",
    "roofline.how.measured": "有实测时间 t 时：最短时间、实测 FLOP/s 和占上限的比例（≥ {near}：接近上限；> {above}：超过上限，请检查数字）：",
    "roofline.extras_heading": "对比与保存",
}
