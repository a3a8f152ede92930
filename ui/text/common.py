"""Strings shared by every page: navigation, sidebar, device facts, input errors."""

EN = {
    # navigation
    "nav.home": "Home",
    "nav.roofline": "Roofline",
    "nav.mfu": "MFU",
    "nav.training": "Training time",
    "nav.decode": "Decode speed",
    "common.nav_heading": "Tools",
    "common.lang_help": "Every label, explanation, chart and message switches language; "
                        "the numbers stay the same. Kept in the link as lang=en / lang=zh.",
    # device and precision
    "common.device_heading": "Accelerator",
    "common.device": "Device",
    "common.device_help": "Accelerator presets from hardware.toml, with DENSE peak "
                          "throughput per precision. Choose Custom… to type your own "
                          "peak and bandwidth.",
    "common.custom_option": "Custom…",
    "common.custom_device": "Custom device",
    "common.custom_peak": "Peak compute (FLOP/s)",
    "common.custom_peak_help": "Dense peak of the precision you run, e.g. 312T, "
                               "989.4 TFLOP/s, 1.2e15. Not the 2:4-sparse headline: it is twice the "
                               "dense peak and would make MFU and the fraction of the roof "
                               "too low.",
    "common.custom_bw": "Memory bandwidth (bytes/s)",
    "common.custom_bw_help": "Peak DRAM/HBM bandwidth, e.g. 2 TB/s, 3350 GB/s, 2.039e12.",
    "common.custom_incomplete": "Enter a valid peak and bandwidth for the custom device; "
                                "the numbers below need both.",
    "common.precision": "Precision",
    "common.precision_help": "The number format of the math. Only the precisions this "
                             "device has are listed; peaks are dense (no 2:4 sparsity).",
    "common.prec.fp64": "FP64",
    "common.prec.fp32": "FP32",
    "common.prec.tf32": "TF32",
    "common.prec.bf16": "BF16",
    "common.prec.fp16": "FP16",
    "common.prec.fp8": "FP8",
    "common.prec.int8": "INT8 (ops/s)",
    "common.prec.fp4": "FP4",
    "common.fact.peak": "Peak {precision} (dense)",
    "common.fact.bw": "Memory bandwidth",
    "common.fact.ridge": "Ridge point",
    "common.fact.memory": "Memory",
    "common.fact.memory_binary": "{gib} ({gb})",
    "common.sparse_caption": "The vendor's {precision} headline ({sparse}) assumes 2:4 "
                             "structured sparsity, twice the dense figure. Roofline Lab "
                             "always uses the dense figure ({dense}); real training and "
                             "inference run dense.",
    "common.device_notes": "Notes on these figures",
    "common.source": "Source: {source}",
    "common.hardware_error": "The hardware file could not be read, so only the custom "
                             "device is available. {message}",
    "common.img_format": "Chart download format",
    "common.img_format_help": "What the camera button above each chart saves.",
    # errors and generic UI
    "common.err.field": "{label}: {message}",
    "common.absurd": "{value} — check the inputs",
    "common.err.parse": "could not read “{text}” as a number. Examples: 7B, 312T, "
                        "2 TB/s, 1.2 ms, 1.5e9, 2*8192**3.",
    "common.err.not_finite": "must be a finite number.",
    "common.err.integer": "must be a whole number.",
    "common.err.gt": "must be greater than {limit}.",
    "common.err.ge": "must be at least {limit}.",
    "common.err.le": "must be at most {limit}.",
    "common.slider_for": "Quick adjust: {label}",
    "common.how_computed": "How this is computed",
    "common.missing_inputs": "Fix the inputs marked above to see the results.",
}

ZH = {
    "nav.home": "首页",
    "nav.roofline": "Roofline 屋顶线",
    "nav.mfu": "MFU 算力利用率",
    "nav.training": "训练时长",
    "nav.decode": "解码速度",
    "common.nav_heading": "工具",
    "common.lang_help": "所有标签、说明、图表和提示都会切换语言，数字不变。链接里记作 lang=en / lang=zh。",
    "common.device_heading": "加速器",
    "common.device": "设备",
    "common.device_help": "来自 hardware.toml 的加速器预设，按精度给出**稠密**峰值算力。"
                          "选「自定义…」可以自己填峰值算力和带宽。",
    "common.custom_option": "自定义…",
    "common.custom_device": "自定义设备",
    "common.custom_peak": "峰值算力（FLOP/s）",
    "common.custom_peak_help": "所用精度的稠密峰值，例如 312T、989.4 TFLOP/s、1.2e15。"
                               "不要填 2:4 稀疏的宣传值：它是稠密峰值的两倍，会让 MFU 和占上限的比例偏低。",
    "common.custom_bw": "显存带宽（字节/秒）",
    "common.custom_bw_help": "DRAM/HBM 峰值带宽，例如 2 TB/s、3350 GB/s、2.039e12。",
    "common.custom_incomplete": "请为自定义设备填入有效的峰值算力和带宽，下面的数字两者都要用到。",
    "common.precision": "精度",
    "common.precision_help": "计算所用的数值格式。只列出该设备支持的精度；峰值均为稠密值（不含 2:4 稀疏）。",
    "common.prec.fp64": "FP64",
    "common.prec.fp32": "FP32",
    "common.prec.tf32": "TF32",
    "common.prec.bf16": "BF16",
    "common.prec.fp16": "FP16",
    "common.prec.fp8": "FP8",
    "common.prec.int8": "INT8（ops/s）",
    "common.prec.fp4": "FP4",
    "common.fact.peak": "{precision} 峰值（稠密）",
    "common.fact.bw": "显存带宽",
    "common.fact.ridge": "拐点",
    "common.fact.memory": "显存",
    "common.fact.memory_binary": "{gib}（{gb}）",
    "common.sparse_caption": "厂商宣传的 {precision} 数字 {sparse} 是按 2:4 结构化稀疏算的，是稠密值的两倍。"
                             "Roofline Lab 一律用稠密值（{dense}）——真实的训练和推理都是稠密计算。",
    "common.device_notes": "关于这些数字的说明",
    "common.source": "来源：{source}",
    "common.hardware_error": "硬件配置文件读取失败，目前只能使用自定义设备。{message}",
    "common.img_format": "图表下载格式",
    "common.img_format_help": "每张图右上角相机按钮保存的文件格式。",
    "common.err.field": "{label}：{message}",
    "common.absurd": "{value}——请检查输入",
    "common.err.parse": "无法把“{text}”读成数字。可以这样写：7B、312T、2 TB/s、1.2 ms、1.5e9、2*8192**3。",
    "common.err.not_finite": "必须是有限的数。",
    "common.err.integer": "必须是整数。",
    "common.err.gt": "必须大于 {limit}。",
    "common.err.ge": "不能小于 {limit}。",
    "common.err.le": "不能大于 {limit}。",
    "common.slider_for": "快速调节：{label}",
    "common.how_computed": "计算过程",
    "common.missing_inputs": "请先修正上面标出的输入，再查看结果。",
}
