"""Roofline page sections (ui.roofline): import panel, view controls, hierarchical view,
device comparison, scenario files (keys ``roofline.*``, with ui/text/roofline.py)."""

EN = {
    # ---------------------------------------------------------------- import panel
    "roofline.imp.heading": "Import kernels",
    "roofline.imp.intro": "Bring what you already have: a PyTorch profiler trace "
                     "(export_chrome_trace, .json or .json.gz), an Nsight Compute CSV "
                     "(ncu --csv) or a kernel-table CSV (name, flops, bytes, seconds, count). "
                     "Imported kernels join the kernel table; nothing is dropped "
                     "silently — the report lists what was skipped and why.",
    "roofline.imp.dtype": "Data type when the trace has none",
    "roofline.imp.dtype_help": "Traces recorded without 'Input type' (older PyTorch) do not say "
                          "how many bytes an element has. This type is assumed for them; "
                          "the report says when it was used.",
    "roofline.imp.tensor_k": "Tensor-core FLOPs per instruction (ncu; blank = from the GPU)",
    "roofline.imp.tensor_k_help": "Nsight Compute counts tensor-core work as warp-level MMA "
                             "instructions (sm__inst_executed_pipe_tensor.sum); FLOPs = this "
                             "factor × that count. Left blank, it comes from the report's GPU "
                             "(its CC column or device name, else the sidebar's device): 512 on "
                             "Volta (V100, HMMA.884), 2048 on Turing (T4, m16n8k8), 4096 on "
                             "Ampere, Ada, Hopper and Blackwell (mma m16n8k16 = 2·16·8·16). "
                             "The import report says which value was used. Type a number to "
                             "override it.",
    "roofline.imp.tensor_k_placeholder": "from the GPU",
    "roofline.imp.uploader": "Profiler trace or CSV",
    "roofline.imp.uploader_help": "At most 25 MB per file (gzip a larger trace: .json.gz). "
                             "The file is read once; upload it again to import it again. "
                             "A kernel-table CSV has the columns name, flops, bytes, seconds, "
                             "count (bytes required); a unit goes in a cell (1.2 ms, 14 GB) or "
                             "in the header (time (ms), bytes [GB]). Several files selected "
                             "together are one import: Nsight Compute files (a metrics.csv "
                             "and a timing.csv of the same program) are merged launch by launch "
                             "(kernel name, grid, block, device and launch ID).",
    "roofline.imp.ncu_heading": "Nsight Compute: the command that collects every metric used",
    "roofline.imp.ncu_caption": "Run your program under ncu with this command (replace "
                           "python train.py with your program). It writes a long-format CSV "
                           "with time, DRAM/L2/L1 bytes and the FLOP counters.",
    "roofline.imp.ncu_tensor": "On Ampere and later, this one adds the tensor-core op counters: they "
                               "count tensor FLOPs exactly, where an instruction count times one "
                               "instruction shape is wrong for TF32, FP64 and INT8 and for Hopper's "
                               "wgmma. A GPU without one of them (no BF16 or TF32 before Ampere) makes "
                               "ncu refuse the run; FP8 counters differ by GPU: "
                               "ncu --query-metrics | grep ops_path_tensor lists yours.",
    "roofline.imp.ncu_after": "Have a .ncu-rep report already? Export it: "
                         "ncu --import report.ncu-rep --csv --page details > profile.csv",
    "roofline.imp.progress": "Reading {file}…",
    "roofline.imp.counts": "Items read: {read:,} = {placed:,} placed on the roofline + {skipped:,} "
                      "skipped (listed below) + {other:,} with no GPU work of their own (CPU-only "
                      "operators, or operators whose kernels are counted in an enclosing one).",
    "roofline.imp.device_same": "Recorded on {trace}: the sidebar's device ({sidebar}), so the "
                           "kernels are judged against its roofs.",
    "roofline.imp.device_unknown": "Recorded on {trace}, which is not in the device list: the kernels "
                              "are judged against the sidebar's {sidebar}.",
    "roofline.imp.device_differs": "This trace was recorded on **{trace}**, but the sidebar's device is "
                              "**{sidebar}**: every kernel is judged against the wrong roof. "
                              "Switch the sidebar to {device}?",
    "roofline.imp.switch_device": "Switch the sidebar to {device}",
    "roofline.imp.replace_examples": "Replace the example rows with the imported kernels",
    "roofline.imp.replace_examples_help": "The table still holds the example kernels. Leave this on to "
                                     "replace them with the file's kernels; turn it off to keep "
                                     "them and append.",
    "roofline.imp.done": "Imported {file} ({format}): {read:,} items read, {n:,} kernels, "
                    "{placed:,} of them with FLOPs (drawn on the roofline); {added:,} rows "
                    "added to the table in {seconds} s.",
    "roofline.imp.unplaced": "{share} of the total time ({skipped} of {total}; times: {basis}) "
                        "could not be placed on the roofline — see the skipped items below.",
    "roofline.imp.no_time": "The file has no times, so time shares and the top-N highlight "
                       "cannot be used for these kernels.",
    "roofline.imp.skipped_heading": "Skipped: {n:,} items in {groups:,} groups, and why",
    "roofline.imp.skipped_more": "Showing the {shown:,} groups with the most time of {n:,}.",
    "roofline.imp.col.name": "Name",
    "roofline.imp.col.reason": "Why skipped",
    "roofline.imp.col.count": "Count",
    "roofline.imp.col.time": "Time",
    "roofline.imp.col.detail": "Detail",
    "roofline.imp.download": "Download the imported kernels (CSV)",
    "roofline.imp.download_help": "The kernels of this import in the table's CSV format "
                             "(name, flops, bytes, seconds, count, source, per-level bytes).",
    "roofline.imp.error": "{file} could not be imported; the table was not changed.",
    "roofline.imp.error_internal": "{file} could not be imported because of an unexpected "
                              "problem in the importer (please report it); the table was "
                              "not changed.",
    "roofline.imp.dismiss": "Hide the import report",
    "roofline.imp.basis.gpu_kernels": "GPU kernel time",
    "roofline.imp.basis.cpu_ops": "operator time on the CPU",
    "roofline.imp.basis.measured": "as measured in the file",
    "roofline.imp.basis.none": "none",
    "roofline.imp.basis.mixed": "mixed",
    "roofline.imp.format.csv": "kernel table CSV",
    "roofline.imp.format.torch_trace": "PyTorch profiler trace",
    "roofline.imp.format.ncu_long": "Nsight Compute CSV, details page",
    "roofline.imp.format.ncu_wide": "Nsight Compute CSV, raw page",
    "roofline.imp.format.ncu_summary": "Nsight Compute CSV, per-kernel summary",
    "roofline.imp.format.scenario": "scenario file (kernels only)",
    "roofline.imp.format.mixed": "several formats",
    # skip reasons (calc.importers.SKIP_REASONS keys)
    "roofline.reason.no_formula": "no FLOP formula for this op",
    "roofline.reason.no_shapes": "input shapes not recorded (profile with record_shapes=True)",
    "roofline.reason.bad_shapes": "the recorded shapes do not fit the formula",
    "roofline.reason.zero_work": "the formula gives zero FLOPs or bytes (empty tensors)",
    "roofline.reason.zero_flops": "moves data but does no arithmetic (intensity 0 cannot be "
                             "drawn on a log roofline)",
    "roofline.reason.memory_copy": "memory copy or memset (no FLOPs)",
    "roofline.reason.orphan_kernel": "GPU kernel not linked to any operator",
    "roofline.reason.cell_error": "a cell could not be read",
    "roofline.reason.no_bytes": "no memory-traffic metric for this kernel",
    "roofline.reason.op_overhead": "operator time outside its GPU kernels (CPU overhead)",
    # warnings (calc.importers.WARNING_KEYS)
    "roofline.note.tensor_k": "Tensor-core FLOPs: {value} FLOPs per tensor instruction ({arch}, {inst}; from {basis}).",
    "roofline.note.tensor_k_option": "Tensor-core FLOPs: {value} FLOPs per tensor instruction (set in the import options).",
    "roofline.note.header_units": "Plain numbers in {columns} are read in the unit the header names; "
                                  "a cell that names its own unit keeps it.",
    "roofline.warn.tensor_k_wgmma": "Tensor-core FLOPs on {arch} were counted from instructions at "
                                    "{value} FLOPs each, but its GEMM and attention kernels issue wgmma "
                                    "/ tcgen05 instructions whose work depends on the tile and the type "
                                    "(a wgmma m64n256 does 2·64·256·16 FLOPs at BF16 and 2·64·256·32 at "
                                    "FP8 or INT8; tcgen05 tiles are larger still): their FLOPs, "
                                    "intensity and rate can be many times too low. Collect the tensor "
                                    "op counters (sm__ops_path_tensor_src_*.sum, the second command in "
                                    "the Nsight Compute section), which count FLOPs; on a GPU that "
                                    "names them otherwise, list its own with "
                                    "`ncu --query-metrics | grep ops_path_tensor`.",
    "roofline.warn.tensor_k_unknown": "The report names no GPU and the selected device is not an NVIDIA GPU "
                                 "with tensor cores: tensor FLOPs assume {value} FLOPs per instruction "
                                 "(mma m16n8k16, Ampere and later). Set the value in the import options "
                                 "for an older GPU.",
    "roofline.warn.flops_missing": "Kernels without a FLOP count: {n} (common for Nsight Compute "
                              "files without FLOP counters). Type their FLOPs in the table "
                              "to place them on the roofline.",
    "roofline.warn.dtype_assumed": "Some operators have no 'Input type' in the trace; {dtype} "
                              "was assumed (the data type chosen above).",
    "roofline.warn.conv_geometry_assumed": "Convolutions without stride/padding in the trace: {n}. "
                                      "Stride 1 and 'same' padding were assumed (an upper bound "
                                      "on FLOPs for strided convolutions).",
    "roofline.warn.no_gpu_time": "The trace has no GPU kernels; times are the operators' own "
                            "durations on the CPU (wall time, including launch overhead).",
    "roofline.warn.names_truncated": "Some kernel names were too long and were shortened.",
    "roofline.warn.last_row_short": "The last row of {file} has {cells} of {columns} cells and "
                                   "the file does not end with a line break: it may be cut short "
                                   "(a partial download or copy). Check its last kernel.",
    "roofline.warn.unit_assumed": "{metrics}: {file} gives no unit, so the values are read in "
                               "Nsight Compute's base unit, nanoseconds (its exports print \"ns\"; "
                               "a rate is per nanosecond). "
                               "If they are in another unit, export with --print-units base.",
    "roofline.warn.dram_missing": "Kernels without a DRAM metric: {n}. Their bytes are {levels} "
                               "traffic, which is at least the DRAM traffic, so their intensity "
                               "against the HBM roof is a lower bound. Collect dram__bytes.sum "
                               "(the command above does).",
    "roofline.warn.time_missing": "Some launches had no time metric; their time is not counted.",
    "roofline.warn.unit_unknown": "Some metric units were not understood and those values were "
                             "ignored: {units}",
    "roofline.warn.scenario_kernels": "Only the kernels of this scenario file were imported; "
                                 "open it under “Scenario files” to restore the devices "
                                 "and settings too.",
    "roofline.warn.time_only": "This file has only times, no memory-traffic metrics: select it "
                          "together with the file that has them in the uploader (both at once; "
                          "kernels are merged launch by launch).",
    # ---------------------------------------------------------------- view controls
    "roofline.view.top": "Highlight top N by time",
    "roofline.view.top_help": "Ring the N kernels with the most total time (0 = off). Kernels "
                         "without a time are never highlighted.",
    "roofline.view.size_by": "Point size",
    "roofline.view.size_by_help": "Fixed, or by each kernel's share of the total measured time "
                             "(the area grows with the share).",
    "roofline.view.size_by.none": "fixed",
    "roofline.view.size_by.time": "by time share",
    "roofline.view.filter": "Filter kernels by name",
    "roofline.view.filter_help": "Show only kernels whose name contains this text (not case "
                            "sensitive). The table keeps every kernel.",
    "roofline.view.filter_placeholder": "e.g. gemm, attention, aten::mm",
    # ---------------------------------------------------------------- hierarchy
    "roofline.hier.heading": "Memory hierarchy (Nsight Compute imports)",
    "roofline.hier.toggle": "Show one point per memory level (DRAM, L2, L1)",
    "roofline.hier.toggle_help": "For kernels imported from Nsight Compute with bytes per "
                            "memory level: each level is drawn at the kernel's FLOP/s with "
                            "intensity = FLOPs / bytes at that level, joined by a line. "
                            "The more traffic a level carries, the further left its point.",
    "roofline.hier.no_levels": "No kernel in the table has bytes per memory level (they come "
                          "from Nsight Compute imports with L2/L1 metrics) and FLOPs.",
    "roofline.hier.l2": "L2 bandwidth ceiling (bytes/s)",
    "roofline.hier.l1": "L1 bandwidth ceiling (bytes/s)",
    "roofline.hier.ceiling_placeholder": "blank = not drawn, e.g. 7 TB/s",
    "roofline.hier.ceiling_help": "Drawn as an extra slope under the same compute roof. Leave "
                             "blank to hide it.",
    "roofline.hier.caption": "Datasheets rarely give cache bandwidths. Measure them with a "
                        "microbenchmark (e.g. a streaming kernel sized to fit in L2 / L1), "
                        "or read them from Nsight Compute's own roofline section "
                        "(--section SpeedOfLight_HierarchicalTensorRooflineChart).",
    "roofline.hier.roof.l2": "L2 ceiling {bw}",
    "roofline.hier.roof.l1": "L1 ceiling {bw}",
    "roofline.hier.level.dram": "DRAM",
    "roofline.hier.level.l2": "L2",
    "roofline.hier.level.l1": "L1",
    "roofline.hier.level_legend": "{level} level",
    "roofline.hier.link": "memory levels of one kernel",
    "roofline.hier.hover": "<b>{name}</b><br>{level}: {bytes}<br>intensity {intensity}"
                      "<br>{flops}",
    # ---------------------------------------------------------------- compare
    "roofline.cmp.heading": "Compare devices",
    "roofline.cmp.pick": "Devices to compare (up to three)",
    "roofline.cmp.pick_help": "Their rooflines are drawn dashed on the chart, at the precision "
                         "you pick for each. The link remembers them.",
    "roofline.cmp.placeholder": "Choose a device and precision",
    "roofline.cmp.empty": "Pick devices to see, for each kernel, how fast it could run there.",
    "roofline.cmp.no_devices": "No device list is available (the hardware file could not be read).",
    "roofline.cmp.no_kernels": "The table has no kernel with FLOPs and bytes to compare.",
    "roofline.cmp.col.kernel": "Kernel",
    "roofline.cmp.col.intensity": "Intensity",
    "roofline.cmp.col.attainable": "Attainable on {device}",
    "roofline.cmp.col.ratio": "Speed-up bound → {device}",
    "roofline.cmp.col.regime": "Bound by → {device}",
    "roofline.cmp.regime.memory": "memory on both (bandwidth ratio)",
    "roofline.cmp.regime.compute": "compute on both (peak ratio)",
    "roofline.cmp.regime.mixed": "memory on one, compute on the other",
    "roofline.cmp.sentence.memory": "Moving this memory-bound kernel (**{name}**) from {src} "
                               "to {dst} can speed it up by at most **{ratio}×**, the "
                               "bandwidth ratio.",
    "roofline.cmp.sentence.compute": "Moving this compute-bound kernel (**{name}**) from {src} "
                                "to {dst} can speed it up by at most **{ratio}×**, the peak "
                                "ratio.",
    "roofline.cmp.sentence.mixed": "Moving **{name}** from {src} to {dst} can speed it up by "
                              "at most **{ratio}×**: it is memory-bound on one device and "
                              "compute-bound on the other.",
    "roofline.cmp.sentence.slower": "On {dst}, **{name}** would have a lower ceiling than on "
                               "{src}: at best {ratio}× the speed ({slow}× slower).",
    "roofline.cmp.caption": "Bounds are the ratio of attainable FLOP/s (roofline ceilings) at "
                       "each kernel's intensity; a kernel already below its roof on the "
                       "current device may gain more or less. Sentences cover the {n} "
                       "kernels with the most time.",
    # ---------------------------------------------------------------- scenarios
    "roofline.scn.heading": "Scenario files",
    "roofline.scn.intro": "Save the whole page — device, precision, custom peak and bandwidth, "
                     "compared devices, L2/L1 ceilings, extra roofs and the kernel table — as "
                     "a versioned JSON file, and open it again later or send it to a "
                     "colleague.",
    "roofline.scn.save": "Save scenario (JSON)",
    "roofline.scn.save_help": "The file name names the device, the precision and today's date.",
    "roofline.scn.save_error": "The page cannot be saved as a scenario: {message}",
    "roofline.scn.open": "Open a scenario file",
    "roofline.scn.open_help": "A .json file saved by Roofline Lab. It is checked completely "
                         "before anything changes.",
    "roofline.scn.paste_heading": "…or paste scenario JSON",
    "roofline.scn.paste": "Scenario JSON",
    "roofline.scn.apply": "Open scenario",
    "roofline.scn.nothing": "Choose a scenario file (or paste its JSON) first.",
    "roofline.scn.error": "This scenario file cannot be opened; nothing on the page was changed.",
    "roofline.scn.opened": "Scenario opened: {device}, {precision}, {n:,} kernels.",
}

ZH = {
    # ---------------------------------------------------------------- import panel
    "roofline.imp.heading": "导入 kernel",
    "roofline.imp.intro": "直接用手头已有的文件：PyTorch profiler trace（export_chrome_trace，"
                     ".json 或 .json.gz）、Nsight Compute CSV（ncu --csv），或 kernel 表 CSV"
                     "（name, flops, bytes, seconds, count）。导入的 kernel 会加入 kernel 表；"
                     "不会悄悄丢掉任何东西——报告会列出跳过了什么以及原因。",
    "roofline.imp.dtype": "trace 没有数据类型时按此类型",
    "roofline.imp.dtype_help": "没有记录 'Input type' 的 trace（较旧的 PyTorch）不知道每个元素几个字节，"
                          "此时按这里选的类型计算；用到时报告会注明。",
    "roofline.imp.tensor_k": "每条 Tensor Core 指令的 FLOP（ncu；留空 = 按 GPU 取值）",
    "roofline.imp.tensor_k_help": "Nsight Compute 以 warp 级 MMA 指令数统计 Tensor Core 工作量（sm__inst_executed_pipe_tensor.sum），"
                             "FLOP = 本系数 × 该计数。留空时按报告里的 GPU 取值（CC 列或设备名，否则用侧边栏选的设备）：Volta（V100，"
                             "HMMA.884）为 512，Turing（T4，m16n8k8）为 2048，Ampere、Ada、Hopper 和 Blackwell（mma m16n8k16 = "
                             "2·16·8·16）为 4096。导入报告会注明用了哪个值。填一个数可以覆盖它。",
    "roofline.imp.tensor_k_placeholder": "按 GPU 取值",
    "roofline.imp.uploader": "Profiler trace 或 CSV",
    "roofline.imp.uploader_help": "每个文件最多 25 MB（更大的 trace 请压缩成 .json.gz）。"
                             "同一个文件只读一次；想重新导入就再上传一次。"
                             "kernel 表 CSV 的列是 name、flops、bytes、seconds、count（bytes 必填）；"
                             "单位可以写在单元格里（1.2 ms、14 GB），也可以写在表头里（time (ms)、bytes [GB]）。"
                             "同时选中的多个文件算一次导入：同一程序的 Nsight Compute 文件（metrics.csv 和 timing.csv）逐次启动合并（kernel 名称、grid、block、设备和启动 ID）。",
    "roofline.imp.ncu_heading": "Nsight Compute：采集所需全部指标的命令",
    "roofline.imp.ncu_caption": "用这条命令在 ncu 下运行你的程序（把 python train.py 换成你的程序）。"
                           "它输出长格式 CSV，含时间、DRAM/L2/L1 字节数和 FLOP 计数器。",
    "roofline.imp.ncu_tensor": "Ampere 及以后的 GPU 用这一条：它多采集 Tensor Core 运算计数器，直接数出 Tensor "
                               "Core 的 FLOP；按“指令数 × 一种指令形状”估算，对 TF32、FP64、INT8 和 Hopper 的 "
                               "wgmma 都不对。GPU 缺其中任何一个计数器（Ampere 之前没有 BF16、TF32）ncu 就会拒绝运行；"
                               "FP8 计数器因 GPU 而异，用 ncu --query-metrics | grep ops_path_tensor 查看你的 GPU 有哪些。",
    "roofline.imp.ncu_after": "已经有 .ncu-rep 报告？先导出："
                         "ncu --import report.ncu-rep --csv --page details > profile.csv",
    "roofline.imp.progress": "正在读取 {file}…",
    "roofline.imp.counts": "读取的项目：{read:,} = {placed:,} 个放到 Roofline 上 + {skipped:,} 个跳过（见下方）+ {other:,} 个自身没有 GPU "
                      "工作（只在 CPU 上的算子，或其 kernel 已算在外层算子里）。",
    "roofline.imp.device_same": "记录于 {trace}：就是侧边栏选的设备（{sidebar}），kernel 按它的屋顶评判。",
    "roofline.imp.device_unknown": "记录于 {trace}，它不在设备列表里：kernel 按侧边栏的 {sidebar} 评判。",
    "roofline.imp.device_differs": "这个 trace 记录于 **{trace}**，但侧边栏选的设备是 **{sidebar}**：每个 kernel 都在按错误的屋顶评判。"
                              "要把侧边栏切换到 {device} 吗？",
    "roofline.imp.switch_device": "把侧边栏切换到 {device}",
    "roofline.imp.replace_examples": "用导入的 kernel 替换表格里的示例",
    "roofline.imp.replace_examples_help": "表格里还是示例 kernel。保持勾选则用文件里的 kernel 替换它们；"
                                     "取消勾选则保留示例并追加。",
    "roofline.imp.done": "已导入 {file}（{format}）：读取 {read:,} 项，得到 {n:,} 个 kernel，其中 {placed:,} 个有 FLOP（画在 Roofline "
                    "上）；{added:,} 行加入表格，耗时 {seconds} 秒。",
    "roofline.imp.unplaced": "总时间中有 {share}（{total} 中的 {skipped}；时间来源：{basis}）无法放到 Roofline 上——见下方跳过的项目。",
    "roofline.imp.no_time": "文件里没有时间，因此这些 kernel 无法计算时间占比，也无法高亮前 N 个。",
    "roofline.imp.skipped_heading": "跳过：{groups:,} 组共 {n:,} 项，及原因",
    "roofline.imp.skipped_more": "共 {n:,} 组，只显示时间最多的 {shown:,} 组。",
    "roofline.imp.col.name": "名称",
    "roofline.imp.col.reason": "跳过原因",
    "roofline.imp.col.count": "次数",
    "roofline.imp.col.time": "时间",
    "roofline.imp.col.detail": "详情",
    "roofline.imp.download": "下载导入的 kernel（CSV）",
    "roofline.imp.download_help": "本次导入的 kernel，采用表格的 CSV 格式"
                             "（name, flops, bytes, seconds, count, source，以及各级存储字节数）。",
    "roofline.imp.error": "无法导入 {file}；表格没有改动。",
    "roofline.imp.error_internal": "导入器出现意外问题，无法导入 {file}（请反馈此问题）；表格没有改动。",
    "roofline.imp.dismiss": "隐藏导入报告",
    "roofline.imp.basis.gpu_kernels": "GPU kernel 时间",
    "roofline.imp.basis.cpu_ops": "CPU 上的算子时间",
    "roofline.imp.basis.measured": "文件中的实测时间",
    "roofline.imp.basis.none": "无",
    "roofline.imp.basis.mixed": "混合",
    "roofline.imp.format.csv": "kernel 表 CSV",
    "roofline.imp.format.torch_trace": "PyTorch profiler 导出的 trace",
    "roofline.imp.format.ncu_long": "Nsight Compute CSV（details 页）",
    "roofline.imp.format.ncu_wide": "Nsight Compute CSV（raw 页）",
    "roofline.imp.format.ncu_summary": "Nsight Compute CSV（逐 kernel 汇总）",
    "roofline.imp.format.scenario": "场景文件（仅 kernel）",
    "roofline.imp.format.mixed": "多种格式",
    "roofline.reason.no_formula": "该算子没有 FLOP 公式",
    "roofline.reason.no_shapes": "没有记录输入形状（profile 时请加 record_shapes=True）",
    "roofline.reason.bad_shapes": "记录的形状与公式不符",
    "roofline.reason.zero_work": "公式得到 0 FLOP 或 0 字节（空张量）",
    "roofline.reason.zero_flops": "只搬数据、不做运算（算术强度为 0，无法画在对数 Roofline 上）",
    "roofline.reason.memory_copy": "显存拷贝或 memset（没有 FLOP）",
    "roofline.reason.orphan_kernel": "GPU kernel 没有关联到任何算子",
    "roofline.reason.cell_error": "有单元格无法读取",
    "roofline.reason.no_bytes": "该 kernel 没有访存指标",
    "roofline.reason.op_overhead": "算子在其 GPU kernel 之外的时间（CPU 开销）",
    "roofline.note.tensor_k": "Tensor Core FLOP：每条 Tensor Core 指令按 {value} FLOP 计（{arch}，"
                         "{inst}；依据：{basis}）。",
    "roofline.note.tensor_k_option": "Tensor Core FLOP：每条 Tensor Core 指令按 {value} FLOP 计（在导入选项里设定）。",
    "roofline.note.header_units": "{columns} 列里的纯数字按表头写的单位读取；自带单位的单元格按它自己的单位。",
    "roofline.warn.tensor_k_wgmma": "{arch} 上的 Tensor Core FLOP 是按指令数、每条 {value} FLOP 估算的，但它的 GEMM "
                                    "和注意力 kernel 发的是 wgmma / tcgen05 指令，每条的工作量取决于分块大小和数据类型（一条 "
                                    "wgmma m64n256 在 BF16 下是 2·64·256·16 FLOP，在 FP8 或 INT8 下是 2·64·256·32；"
                                    "tcgen05 的分块更大）：这些 kernel 的 FLOP、算术强度和算力可能被低估好几倍。请采集 "
                                    "Tensor Core 运算计数器（sm__ops_path_tensor_src_*.sum，Nsight Compute 一节里的"
                                    "第二条命令），它们直接数 FLOP；如果某款 GPU 的计数器名字不同，用 "
                                    "`ncu --query-metrics | grep ops_path_tensor` 列出它自己的。",
    "roofline.warn.tensor_k_unknown": "报告里没有 GPU 信息，侧边栏选的设备也不是带 Tensor Core 的 NVIDIA GPU：Tensor Core FLOP 按每条指令 {value} FLOP "
                                 "计（mma m16n8k16，Ampere 及以后）。如果是更老的 GPU，请在导入选项里填写。",
    "roofline.warn.flops_missing": "{n} 个 kernel 没有 FLOP 计数（没有 FLOP 计数器的 Nsight Compute 文件常见）："
                              "在表格里填上 FLOP 才能画到 Roofline 上。",
    "roofline.warn.dtype_assumed": "trace 中部分算子没有 'Input type'，按 {dtype} 计算（上面选择的数据类型）。",
    "roofline.warn.conv_geometry_assumed": "{n} 个卷积在 trace 中没有 stride/padding：按 stride 1、'same' padding 计算（对带 stride 的卷积是 FLOP 上限）。",
    "roofline.warn.no_gpu_time": "trace 中没有 GPU kernel；时间取算子在 CPU 上的持续时间"
                            "（墙钟时间，含启动开销）。",
    "roofline.warn.names_truncated": "部分 kernel 名称过长，已截短。",
    "roofline.warn.last_row_short": "{file} 的最后一行只有 {cells} 个单元格（表头有 {columns} 列），"
                                   "而且文件没有以换行结尾：可能被截断了（下载或复制不完整）。请检查最后一个 kernel。",
    "roofline.warn.unit_assumed": "{metrics}：{file} 没有给出单位，按 Nsight Compute 的基本单位纳秒读取"
                               "（它导出的文件写作 \"ns\"；速率按每纳秒）。如果实际是别的单位，请用 --print-units base 导出。",
    "roofline.warn.dram_missing": "{n} 个 kernel 没有 DRAM 指标：它们的字节数取的是 {levels} 流量（不少于 DRAM 流量），"
                               "所以对 HBM 屋顶的算术强度是下限。请采集 dram__bytes.sum（上面的命令会采集）。",
    "roofline.warn.time_missing": "部分启动没有时间指标，其时间未计入。",
    "roofline.warn.unit_unknown": "部分指标的单位无法识别，这些值已忽略：{units}",
    "roofline.warn.scenario_kernels": "只导入了这个场景文件中的 kernel；要同时恢复设备和设置，请在「场景文件」中打开它。",
    "roofline.warn.time_only": "这个文件只有时间，没有访存指标：请在上传框里把它和含访存指标的文件"
                          "同时选中（逐次启动合并）。",
    # ---------------------------------------------------------------- view controls
    "roofline.view.top": "高亮耗时前 N 个",
    "roofline.view.top_help": "给总时间最多的 N 个 kernel 加圈（0 = 关闭）。没有时间的 kernel 不会被高亮。",
    "roofline.view.size_by": "点的大小",
    "roofline.view.size_by_help": "固定大小，或按每个 kernel 占总实测时间的比例（面积随占比增大）。",
    "roofline.view.size_by.none": "固定",
    "roofline.view.size_by.time": "按时间占比",
    "roofline.view.filter": "按名称筛选 kernel",
    "roofline.view.filter_help": "只显示名称包含此文字的 kernel（不区分大小写）。表格保留全部 kernel。",
    "roofline.view.filter_placeholder": "例如 gemm、attention、aten::mm",
    # ---------------------------------------------------------------- hierarchy
    "roofline.hier.heading": "存储层级（Nsight Compute 导入）",
    "roofline.hier.toggle": "每个存储层级画一个点（DRAM、L2、L1）",
    "roofline.hier.toggle_help": "针对从 Nsight Compute 导入、带有各级存储字节数的 kernel：每一级都画在该 kernel 的 FLOP/s 高度，"
                            "算术强度 = FLOP / 该级字节数，并用线连起来。某一级流量越大，它的点越靠左。",
    "roofline.hier.no_levels": "表格中没有同时带 FLOP 和各级存储字节数的 kernel（它们来自含 L2/L1 指标的 Nsight Compute 导入）。",
    "roofline.hier.l2": "L2 带宽上限（字节/秒）",
    "roofline.hier.l1": "L1 带宽上限（字节/秒）",
    "roofline.hier.ceiling_placeholder": "留空 = 不画，例如 7 TB/s",
    "roofline.hier.ceiling_help": "在同一算力屋顶下多画一条斜线。留空则不画。",
    "roofline.hier.caption": "规格书很少给出缓存带宽。请用微基准测试测量（例如数据量刚好放进 L2 / L1 的流式 kernel），或读取 Nsight Compute 自带的 Roofline "
                        "分析（--section SpeedOfLight_HierarchicalTensorRooflineChart）。",
    "roofline.hier.roof.l2": "L2 上限 {bw}",
    "roofline.hier.roof.l1": "L1 上限 {bw}",
    "roofline.hier.level.dram": "DRAM",
    "roofline.hier.level.l2": "L2",
    "roofline.hier.level.l1": "L1",
    "roofline.hier.level_legend": "{level} 层级",
    "roofline.hier.link": "同一 kernel 的各存储层级",
    "roofline.hier.hover": "<b>{name}</b><br>{level}：{bytes}<br>算术强度 {intensity}<br>{flops}",
    # ---------------------------------------------------------------- compare
    "roofline.cmp.heading": "对比设备",
    "roofline.cmp.pick": "要对比的设备（最多三个）",
    "roofline.cmp.pick_help": "它们的 Roofline 以虚线画在图上，精度可逐个选择。链接会记住这些设备。",
    "roofline.cmp.placeholder": "选择设备和精度",
    "roofline.cmp.empty": "选择设备后，可以看到每个 kernel 在那里最快能跑多快。",
    "roofline.cmp.no_devices": "没有可用的设备列表（硬件文件无法读取）。",
    "roofline.cmp.no_kernels": "表格中没有同时带 FLOP 和字节数、可以对比的 kernel。",
    "roofline.cmp.col.kernel": "Kernel",
    "roofline.cmp.col.intensity": "算术强度",
    "roofline.cmp.col.attainable": "{device} 上可达",
    "roofline.cmp.col.ratio": "加速上限 → {device}",
    "roofline.cmp.col.regime": "受限于 → {device}",
    "roofline.cmp.regime.memory": "两边都受限于带宽（带宽之比）",
    "roofline.cmp.regime.compute": "两边都受限于算力（峰值之比）",
    "roofline.cmp.regime.mixed": "一边受限于带宽，另一边受限于算力",
    "roofline.cmp.sentence.memory": "把这个带宽受限的 kernel（**{name}**）从 {src} 换到 {dst}，"
                               "最多能快 **{ratio}×**，即带宽之比。",
    "roofline.cmp.sentence.compute": "把这个算力受限的 kernel（**{name}**）从 {src} 换到 {dst}，"
                                "最多能快 **{ratio}×**，即峰值算力之比。",
    "roofline.cmp.sentence.mixed": "把 **{name}** 从 {src} 换到 {dst}，最多能快 **{ratio}×**："
                              "它在一台设备上带宽受限，在另一台上算力受限。",
    "roofline.cmp.sentence.slower": "在 {dst} 上，**{name}** 的上限比在 {src} 上低："
                               "最好也只有 {ratio}× 的速度（慢 {slow}×）。",
    "roofline.cmp.caption": "上限是每个 kernel 在其算术强度下可达 FLOP/s（Roofline 上限）之比；在当前设备上已经低于屋顶的 kernel，"
                       "实际收益可能更多或更少。文字说明只列出时间最多的 {n} 个 kernel。",
    # ---------------------------------------------------------------- scenarios
    "roofline.scn.heading": "场景文件",
    "roofline.scn.intro": "把整个页面——设备、精度、自定义峰值和带宽、对比设备、L2/L1 上限、额外的屋顶"
                     "和 kernel 表——保存为带版本号的 JSON 文件，之后再打开，或发给同事。",
    "roofline.scn.save": "保存场景（JSON）",
    "roofline.scn.save_help": "文件名包含设备、精度和今天的日期。",
    "roofline.scn.save_error": "无法把页面保存为场景：{message}",
    "roofline.scn.open": "打开场景文件",
    "roofline.scn.open_help": "Roofline Lab 保存的 .json 文件。改动页面之前会完整校验。",
    "roofline.scn.paste_heading": "……或粘贴场景 JSON",
    "roofline.scn.paste": "场景 JSON",
    "roofline.scn.apply": "打开场景",
    "roofline.scn.nothing": "请先选择场景文件（或粘贴其 JSON）。",
    "roofline.scn.error": "无法打开这个场景文件；页面上没有任何改动。",
    "roofline.scn.opened": "已打开场景：{device}，{precision}，{n:,} 个 kernel。",
}
