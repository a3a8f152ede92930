"""Home page strings."""

EN = {
    "home.title": "Roofline Lab",
    "home.tagline": "Where is my bottleneck, and how far am I from the ceiling? Roofline Lab "
                    "answers both with the numbers of a real accelerator, then turns them "
                    "into days of training and tokens per second of decoding.",
    "home.questions_heading": "What it answers",
    "home.questions": "- **Where is the bottleneck?** The roofline places each kernel by its "
                      "arithmetic intensity: left of the ridge it waits on memory, right of it "
                      "on math. It also tells you how fast a kernel can *never* be.\n"
                      "- **How far from the ceiling?** MFU, the share of the hardware's peak "
                      "your training turns into useful model FLOPs.\n"
                      "- **What does it cost?** Days and GPU-hours to train N parameters on D "
                      "tokens, and the tokens per second a model can decode.",
    "home.formulas_heading": "The two formulas",
    "home.roofline_formula_intro": "**Roofline.** Either compute or bandwidth limits you; "
                                   "take the smaller (I = FLOPs per byte moved):",
    "home.mfu_formula_intro": "**MFU.** Training costs about 6 FLOPs per parameter per "
                              "token (forward 2N, backward 4N):",
    "home.live_heading": "Live roofline: {device}",
    "home.live_caption": "Ridge point at {ridge}. A kernel with intensity 2 FLOP/byte can "
                         "never exceed {capped} on this device, however well its math is "
                         "optimised.",
    "home.tools_heading": "Tools",
    "home.tool.roofline": "Place kernels on the roofline: type them, build them from shapes, "
                          "or import a PyTorch trace or an Nsight Compute CSV.",
    "home.tool.mfu": "Model FLOPs utilisation of a training run, its rating and the "
                     "diagnosis checklist when it is low.",
    "home.tool.training": "Days, GPU-hours and cost of a training run, and the GPUs "
                          "needed to meet a deadline.",
    "home.tool.decode": "The tokens/s ceiling of decoding: bandwidth ÷ model bytes, "
                        "batching and the KV cache.",
    "home.tool.model": "Every operator of a model (attention, MLP, experts, norms) on the "
                       "roofline for one prefill or decode step, timed and summed, beside "
                       "measured kernels.",
    "home.tool.learn": "The chapter's eight checkpoint questions as lessons, with your own "
                       "numbers, checked as you type: for a class or on your own.",
    "home.tool.plans": "Setups side by side for a planning meeting: days, cost, tokens/s and "
                       "memory fit per plan, the MFU published runs reached, a baseline, a "
                       "share link and a one-page report.",
    "home.tool.diagnosis": "Upload a PyTorch profiler trace: idle gaps, tiny kernels, "
                            "communication, time by class and MFU per step — the chapter's "
                            "diagnosis in numbers.",
    "home.tool.training_layout": "Which TP × PP × DP × EP × CP split fits your GPUs, how long "
                                 "a step takes and where the time goes: a predicted MFU from "
                                 "the roofline and the network, checked against published runs.",
    "home.tool.measure": "Measure the machine this app runs on: its real peaks and "
                          "bandwidths beside the datasheet's, and live numpy kernels on its roofline.",
}

ZH = {
    "home.title": "Roofline Lab",
    "home.tagline": "瓶颈在哪？离天花板还有多远？Roofline Lab 用真实加速器的参数回答这两个问题，"
                    "再把答案换算成训练要多少天、解码每秒多少 token。",
    "home.questions_heading": "它回答什么",
    "home.questions": "- **瓶颈在哪？** Roofline 按算术强度给每个 kernel 定位：拐点左边卡在显存带宽，"
                      "右边卡在算力。它还告诉你一个 kernel **不可能**快过多少。\n"
                      "- **离天花板多远？** MFU：训练时硬件峰值算力里，有多少变成了有效的模型 FLOP。\n"
                      "- **要花多少？** 用 D 个 token 训练 N 参数的模型要几天、多少 GPU 小时；"
                      "一个模型每秒最多能解码多少 token。",
    "home.formulas_heading": "两个公式",
    "home.roofline_formula_intro": "**Roofline。** 要么被算力卡住，要么被带宽卡住，取小的那个"
                                   "（I = 每搬运一个字节做多少 FLOP）：",
    "home.mfu_formula_intro": "**MFU。** 训练每个 token 每个参数约 6 FLOP（前向 2N，反向 4N）：",
    "home.live_heading": "实时 Roofline：{device}",
    "home.live_caption": "拐点在 {ridge}。算术强度只有 2 FLOP/字节 的 kernel，在这块卡上无论怎么优化"
                         "计算，都不可能超过 {capped}。",
    "home.tools_heading": "工具",
    "home.tool.roofline": "把 kernel 放到 Roofline 上：手动输入、按形状生成，"
                          "或导入 PyTorch trace / Nsight Compute CSV。",
    "home.tool.mfu": "训练的模型算力利用率（MFU）、评级，以及偏低时按顺序排查的清单。",
    "home.tool.training": "一次训练要几天、多少 GPU 小时、多少钱；以及按期完成需要多少张卡。",
    "home.tool.decode": "解码速度的上限：带宽 ÷ 模型大小、批处理和 KV cache。",
    "home.tool.model": "模型的每个算子（attention、MLP、expert、norm）在一次 prefill 或 decode 中放上 "
                       "Roofline，逐个计时并求和，并与实测 kernel 对照。",
    "home.tool.learn": "把本章的八个检查点问题做成小课，用你自己的数字，边做边检查：适合课堂，也适合自学。",
    "home.tool.plans": "为规划会议并排对比多个配置：每个方案的天数、费用、tokens/s 和显存是否够，"
                       "公开训练达到的 MFU、基准方案、分享链接和一页报告。",
    "home.tool.diagnosis": "上传 PyTorch Profiler 的 trace：空隙、小 kernel、通信、按类别的时间分布和每一步的 MFU——用数字给出本章的诊断。",
    "home.tool.training_layout": "给定 GPU 数量，哪种 TP × PP × DP × EP × CP 并行布局放得下、单步时间多长、时间花在哪里：从 Roofline 和网络预测 MFU，并与公开的实测训练对照。",
    "home.tool.measure": "实测运行本应用的机器：真实的峰值算力和带宽与规格书对比，再把现场运行的 numpy kernel 画到它的 Roofline 上。",
}
