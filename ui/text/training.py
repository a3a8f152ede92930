"""Strings of the training-time page (keys "training.*")."""

EN = {
    "training.title": "Training time: days, GPU-hours and money before you start",
    "training.intro": "Training a dense transformer costs about **6·N·D** FLOP (N parameters, "
                      "D training tokens). Divide by what the cluster really delivers — GPUs × "
                      "peak × MFU — and you have the wall-clock time, the GPU-hours and the bill, "
                      "before the first step runs.",
    "training.inputs_heading": "The run",
    "training.params": "Model parameters N",
    "training.params_help": "Parameter count, e.g. 7B, 70B, 1.3e9 (for MoE: active parameters "
                            "per token).",
    "training.tokens": "Training tokens D",
    "training.tokens_help": "Total tokens the model sees in training, e.g. 1T, 300B, 2e12 "
                            "(epochs included).",
    "training.chinchilla": "Set D = {k} tokens per parameter",
    "training.chinchilla_help": "Chinchilla's compute-optimal rule of thumb (Hoffmann et al. "
                                "2022): about 20 training tokens per parameter. Many models "
                                "today train far longer than that on purpose.",
    "training.chinchilla_failed": "Fix the parameter count first; the helper needs it.",
    "training.gpus": "Number of GPUs",
    "training.gpus_help": "GPUs the job runs on, a whole number.",
    "training.mfu": "MFU of the run",
    "training.mfu_help": "The MFU you expect (45–55 % is a well-tuned job, 20–35 % is common "
                         "before tuning): type it (37.5%, 0.375) or move the slider. Measure it "
                         "on the MFU page.",
    "training.compare_mfu": "Compare with MFU",
    "training.compare_mfu_help": "A second MFU to compare against, e.g. where you are today "
                                 "before optimising.",
    "training.price": "Price per GPU-hour (optional)",
    "training.price_help": "What one GPU-hour costs you, e.g. 2.5, in the currency chosen next "
                           "to it; or type the currency with the price: $2, ¥15, 2 USD, 15 元 "
                           "(it then sets the currency). Leave blank to skip the cost.",
    "training.currency": "Currency",
    "training.currency_help": "The currency of the price. The cost, the comparison and the "
                              "sentence below are written in it, with symbol and code; "
                              "nothing is converted. A currency typed with the price "
                              "($2, ¥15, 2 USD, 15 元) sets it.",
    "training.peak_used": "Peak per GPU: **{peak}** ({device}, {precision}, from the sidebar).",
    "training.results_heading": "Result",
    "training.metric.flops": "Total training FLOP",
    "training.metric.flops_help": "C = 6·N·D: forward 2N + backward 4N FLOP per token, times "
                                  "D tokens.",
    "training.metric.days": "Wall-clock time",
    "training.metric.days_help": "C ÷ (GPUs × peak × MFU), in days of 24 h.",
    "training.metric.gpu_hours": "GPU-hours",
    "training.metric.gpu_hours_help": "GPUs × hours. It does not depend on the number of GPUs "
                                      "at a fixed MFU: more GPUs finish sooner, not cheaper.",
    "training.metric.cost": "Cost",
    "training.metric.cost_help": "GPU-hours × {price} per GPU-hour.",
    "training.metric.cost_none": "Enter a price per GPU-hour to see the cost.",
    "training.log_y": "Logarithmic days axis",
    "training.log_y_help": "Show the days on a log scale (useful for very long or very "
                           "short runs).",
    "training.compare_same": "The two MFUs are the same: pick a different comparison MFU "
                             "to see what the difference is worth.",
    "training.compare_slower": "At **{cmp}** MFU the run takes **{cmp_time}** instead "
                               "of {time} at {chosen}: **{diff}** longer and **{hours}** "
                               "more machine time.",
    "training.compare_faster": "At **{cmp}** MFU the run takes **{cmp_time}** instead "
                               "of {time} at {chosen}: **{diff}** sooner and **{hours}** "
                               "less machine time.",
    "training.compare_money": "That is **{money}** in money at your price.",
    "training.deadline_heading": "Solve the other way: GPUs for a deadline",
    "training.deadline_days": "Finish within (days)",
    "training.deadline_days_help": "The wall-clock budget in days, e.g. 30 or 14.5.",
    "training.deadline_result": "To finish in {deadline} at {mfu} MFU you need **{gpus}** "
                                "({exact} exactly, rounded up).",
    "training.deadline_one": "**One GPU is enough:** at {mfu} MFU it finishes in {time}, "
                             "within the {deadline} allowed.",
    "training.how.flops": "Total training FLOP:",
    "training.how.time": "Wall-clock time:",
    "training.how.gpu_hours": "GPU-hours (the GPU count cancels out):",
    "training.how.cost": "Cost:",
    "training.how.deadline": "GPUs for a deadline (the time formula solved for the GPU count):",
    "training.fig.curve": "Days to train",
    "training.fig.curve_hover": "MFU %{x:.0%}<br>%{y:,.3~g} days",
    "training.fig.chosen": "{mfu}: {time}",
    "training.fig.compare": "{mfu}: {time}",
    "training.fig.x_title": "MFU",
    "training.fig.y_title": "Wall-clock time (days)",
    "training.takeaway": "**Why this matters:** the formula prices a run before it starts. "
                         "For this run ({params} parameters, {tokens} tokens, {gpus} × "
                         "{device}), raising MFU from {lo} to {hi} takes it from about "
                         "{lo_time} to about {hi_time}: {saved} sooner, and {hours} less "
                         "machine time.",
    "training.takeaway_money": "At {price} per GPU-hour that is **{money}**.",
    "training.takeaway_no_price": "Enter a price per GPU-hour above to see what that is worth.",
    "training.takeaway_same": "**Why this matters:** the formula prices a run before it starts: "
                              "this run ({params} parameters, {tokens} tokens, {gpus} × "
                              "{device}) takes {time} and {hours} at {mfu} MFU. Pick a "
                              "different comparison MFU to see what a better MFU is worth.",
    "training.takeaway_static": "**Why this matters:** the formula prices a run before it "
                                "starts. In the chapter's worked example (7B, 1T tokens, 64 × "
                                "A100) raising MFU from 25 % to 45 % takes the run from about "
                                "97 to about 54 days: 43 days of a 64-GPU cluster saved, about "
                                "66,000 GPU-hours.",
    # HFU above 100 %, the memory layout (calc.training_memory)
    "training.hfu_over_100": "At {mfu} MFU, {recompute} recomputation means **{hfu} HFU**: above "
                             "100 %, which is impossible — no GPU executes more than its peak. "
                             "Either this MFU is out of reach with this much recomputation, or "
                             "the recomputation is counted twice (the run does not recompute "
                             "that much, or the MFU you started from already counts it).",
    "training.mem.cp": "Context-parallel size",
    "training.mem.cp_help": "GPUs one sequence is split across (ring attention): each keeps the "
                            "activations of seq ÷ cp tokens. The cluster is tp × pp × cp × dp GPUs.",
    "training.mem.ep": "Expert-parallel size",
    "training.mem.ep_help": "GPUs the routed experts are spread over, taken from the data-parallel "
                            "GPUs (it must divide dp × cp); each expert is split over the "
                            "tensor-parallel GPUs as well.",
    "training.mem.sp": "Sequence parallelism",
    "training.mem.sp_help": "Megatron's sequence parallelism splits the norms' and dropouts' "
                            "activations (and full recomputation's saved inputs) over the "
                            "tensor-parallel GPUs. Kept in the link as sp=true/false.",
    "training.mem.schedule": "Pipeline schedule",
    "training.mem.schedule_help": "How micro-batches flow through the stages: it sets how many "
                                  "micro-batches' activations the first stage holds.",
    "training.mem.schedule.1f1b": "1F1B (interleaved with chunks > 1)",
    "training.mem.schedule.zb1p": "Zero bubble (ZB1P)",
    "training.mem.schedule.dualpipe": "DualPipe (2× parameters)",
    "training.mem.interleave": "Model chunks per stage (interleaving)",
    "training.mem.interleave_help": "Megatron's interleaved 1F1B: v chunks per GPU. The first "
                                    "stage then holds 1 + (p − 1)/(p·v) times 1F1B's activations.",
    "training.mem.microbatches": "Micro-batches per step (optional)",
    "training.mem.microbatches_help": "Micro-batches per optimizer step and pipeline. Fewer than "
                                      "the stages leaves fewer in flight; blank: at least as many "
                                      "as the stages.",
    "training.mem.at_least_pp": "≥ pipeline stages",
    "training.mem.bytes_help": "{b} bytes per parameter, divided as the sharding says.",
    "training.mem.zero3": "ZeRO-3 buffers",
    "training.mem.zero3_help": "FSDP / ZeRO-3 gathers each unit's full weights before using it: "
                               "the unit in use and the prefetched one, plus one unit's "
                               "unsharded gradients before their reduce-scatter. U is the "
                               "largest unit this GPU gathers: one layer (for a mixture of "
                               "experts, an MoE layer with this GPU's experts), the embedding "
                               "or the LM head (each wrapped as its own unit, as torchtitan does).",
    "training.mem.bad_split": "{gpus} GPUs cannot be split into tensor {tp} × pipeline {pp} × "
                              "context {cp} × data-parallel groups: the GPUs must be a multiple "
                              "of {tp} × {pp} × {cp}.",
    "training.mem.bad_layout": "This layout cannot split the model: {message}.",
    "training.mem.worst_stage": "The worst pipeline stage, the first: it holds the embedding "
                                "beside its layers, and {inflight} layer-micro-batches of "
                                "activations ({schedule}; {layers} layers per stage).",
    "training.mem.one_stage": "One stage holds the whole model: {inflight} layer-micro-batches "
                              "of activations ({schedule}).",
    "training.how.mem_first_stage": " (the first stage: its share of the layers and the embedding)",
    "training.how.mem_states": "Weights, gradients and optimizer states per GPU: the {n} parameters "
                               "placed over tensor {tp} (norms and router replicated) × pipeline "
                               "{pp}{first}, then ZeRO stage {zero} shards them over the {dp} × {cp} "
                               "data- and context-parallel GPUs.",
    "training.how.mem_acts": "Activations of one micro-batch per layer (Korthikanti et al. 2022), "
                             "times the layer-micro-batches the first stage holds ({schedule}).",
}


ZH = {
    "training.title": "训练时长：开训之前就算清天数、GPU 小时和花费",
    "training.intro": "训练一个稠密 Transformer 大约需要 **6·N·D** FLOP（N 为参数量，D 为训练 token 数）。"
                      "再除以集群真正能交付的算力——GPU 数 × 峰值 × MFU——就得到训练天数、GPU 小时和账单，第一步还没跑就心里有数。",
    "training.inputs_heading": "训练配置",
    "training.params": "模型参数量 N",
    "training.params_help": "参数量，例如 7B、70B、1.3e9（MoE 填每 token 激活的参数量）。",
    "training.tokens": "训练 token 数 D",
    "training.tokens_help": "整个训练过程模型看到的 token 总数，例如 1T、300B、2e12（多个 epoch 要算进去）。",
    "training.chinchilla": "按每参数 {k} 个 token 设置 D",
    "training.chinchilla_help": "Chinchilla 的算力最优经验值（Hoffmann 等，2022）：每个参数约 20 个训练 token。"
                                "如今很多模型会有意训练得比这长得多。",
    "training.chinchilla_failed": "请先把参数量填对，这个按钮要用到它。",
    "training.gpus": "GPU 数",
    "training.gpus_help": "任务使用的 GPU 数，整数。",
    "training.mfu": "本次训练的 MFU",
    "training.mfu_help": "你预期能达到的 MFU（调好的任务一般 45–55%，没调过的常见 20–35%）：可以直接输入（37.5%、0.375），"
                         "也可以拖动滑块。可以在「MFU」页实测。",
    "training.compare_mfu": "对比的 MFU",
    "training.compare_mfu_help": "拿来对比的另一个 MFU，比如优化前的现状。",
    "training.price": "每 GPU 小时价格（可选）",
    "training.price_help": "一个 GPU 小时（一张卡用一小时）的费用，例如 2.5，币种在右边选；"
                           "也可以连币种一起填：$2、¥15、2 USD、15 元（此时币种随之确定）。留空则不算花费。",
    "training.currency": "币种",
    "training.currency_help": "价格所用的币种。花费、对比和下面的说明都按它写出（符号和代码），不做汇率换算。"
                              "价格里带了币种（$2、¥15、2 USD、15 元）时以它为准。",
    "training.peak_used": "单卡峰值：**{peak}**（{device}，{precision}，来自侧边栏）。",
    "training.results_heading": "结果",
    "training.metric.flops": "训练总 FLOP",
    "training.metric.flops_help": "C = 6·N·D：每个 token 前向 2N + 反向 4N FLOP，再乘以 D 个 token。",
    "training.metric.days": "训练天数",
    "training.metric.days_help": "C ÷ (GPU 数 × 峰值 × MFU)，按每天 24 小时计。",
    "training.metric.gpu_hours": "GPU 小时",
    "training.metric.gpu_hours_help": "GPU 数 × 小时。MFU 不变时它与 GPU 数无关：加卡只会更快，不会更省。",
    "training.metric.cost": "花费",
    "training.metric.cost_help": "GPU 小时 × 每 GPU 小时 {price}。",
    "training.metric.cost_none": "填入每 GPU 小时价格即可看到花费。",
    "training.log_y": "天数用对数坐标",
    "training.log_y_help": "纵轴天数改用对数刻度（训练特别长或特别短时更好看）。",
    "training.compare_same": "两个 MFU 一样。换一个对比 MFU，就能看到差距值多少。",
    "training.compare_slower": "MFU 为 **{cmp}** 时要训练 **{cmp_time}**，而 {chosen} 时只要 {time}："
                               "多花 **{diff}**、多用 **{hours}**。",
    "training.compare_faster": "MFU 为 **{cmp}** 时只要训练 **{cmp_time}**，而 {chosen} 时要 {time}："
                               "早 **{diff}** 完成、少用 **{hours}**。",
    "training.compare_money": "按你的单价，折合 **{money}**。",
    "training.deadline_heading": "反过来算：要按期完成需要多少卡",
    "training.deadline_days": "期限（天）",
    "training.deadline_days_help": "允许的训练天数，例如 30 或 14.5。",
    "training.deadline_result": "要在 {deadline}内、以 {mfu} 的 MFU 训完，需要 **{gpus}**"
                                "（精确值 {exact}，向上取整）。",
    "training.deadline_one": "**一张卡就够了**：以 {mfu} 的 MFU 只要 {time}，在 {deadline}的期限之内。",
    "training.how.flops": "训练总 FLOP：",
    "training.how.time": "训练时长：",
    "training.how.gpu_hours": "GPU 小时（GPU 数被约掉了）：",
    "training.how.cost": "花费：",
    "training.how.deadline": "按期限反推 GPU 数（把时长公式对 GPU 数求解）：",
    "training.fig.curve": "训练天数",
    "training.fig.curve_hover": "MFU %{x:.0%}<br>%{y:,.3~g} 天",
    "training.fig.chosen": "{mfu}：{time}",
    "training.fig.compare": "{mfu}：{time}",
    "training.fig.x_title": "MFU",
    "training.fig.y_title": "训练时长（天）",
    "training.takeaway": "**这个公式的用处**：开训之前就能估算成本。对这次训练（{params} 参数、{tokens} token、"
                         "{gpus} × {device}），MFU 从 {lo} 提到 {hi}，训练时间从约 {lo_time} 缩短到约 {hi_time}："
                         "早 {saved} 完成，少用 {hours}。",
    "training.takeaway_money": "按每 GPU 小时 {price} 计，值 **{money}**。",
    "training.takeaway_no_price": "在上面填入每 GPU 小时价格，就能看到这值多少钱。",
    "training.takeaway_same": "**这个公式的用处**：开训之前就能估算成本：这次训练（{params} 参数、{tokens} token、"
                              "{gpus} × {device}）在 MFU 为 {mfu} 时要 {time}、{hours}。"
                              "换一个对比 MFU，就能看到提高 MFU 值多少。",
    "training.takeaway_static": "**这个公式的用处**：开训之前就能估算成本。以本章算例为例（7B、1T token、64 张 A100），"
                                "MFU 从 25% 提到 45%，训练从约 97 天缩短到约 54 天——64 卡集群省下 43 天，"
                                "约 6.6 万 GPU 小时。",
    "training.hfu_over_100": "MFU 为 {mfu}、{recompute}重计算，意味着 **{hfu} HFU**：超过 100%，"
                             "这不可能——GPU 执行的计算不会超过它的峰值。要么在这么多重计算下达不到这个 MFU，"
                             "要么重计算被算了两次（实际并没有重计算这么多，或者你起步的 MFU 已经算进去了）。",
    "training.mem.cp": "上下文并行度",
    "training.mem.cp_help": "一条序列切到几张卡上（环形注意力，Ring Attention）：每张卡只保存 seq ÷ cp 个 token 的激活。"
                            "集群 = tp × pp × cp × dp 张卡。",
    "training.mem.ep": "专家并行度",
    "training.mem.ep_help": "路由专家分布在几张卡上，这些卡取自数据并行（必须整除 dp × cp）；每个专家还会在张量并行的各卡上切分。",
    "training.mem.sp": "序列并行",
    "training.mem.sp_help": "Megatron 的序列并行把归一化和 dropout 的激活（以及全量重计算保存的输入）切到张量并行的各卡上。链接里记作 sp=true/false。",
    "training.mem.schedule": "流水线调度",
    "training.mem.schedule_help": "微批如何流过各级：它决定第一级要保存几个微批的激活。",
    "training.mem.schedule.1f1b": "1F1B（分块 > 1 时为交错式）",
    "training.mem.schedule.zb1p": "零气泡（ZB1P）",
    "training.mem.schedule.dualpipe": "DualPipe（参数 2 倍）",
    "training.mem.interleave": "每级的模型分块数（交错）",
    "training.mem.interleave_help": "Megatron 的交错式 1F1B：每卡 v 个分块。第一级的激活是 1F1B 的 1 + (p − 1)/(p·v) 倍。",
    "training.mem.microbatches": "每步的微批数（可选）",
    "training.mem.microbatches_help": "每个优化器步、每条流水线的微批数。少于级数时在途的微批更少；"
                                      "留空：不少于级数。",
    "training.mem.at_least_pp": "≥ 流水线级数",
    "training.mem.bytes_help": "每个参数 {b} 字节，按切分方式分摊。",
    "training.mem.zero3": "ZeRO-3 缓冲",
    "training.mem.zero3_help": "FSDP / ZeRO-3 在用到一个单元之前先收集它的完整权重：正在用的单元和预取的单元，"
                               "再加一个单元在 reduce-scatter 之前未切分的梯度。U 是这张卡收集的最大单元："
                               "一层（混合专家模型取一个 MoE 层，连同这张卡上的专家）、词嵌入或输出头（lm_head；各自单独包装，"
                               "和 torchtitan 一样）。",
    "training.mem.bad_split": "{gpus} 张卡无法分成张量并行 {tp} × 流水线 {pp} × 上下文 {cp} × 数据并行：GPU 数必须是 {tp} × {pp} × {cp} 的倍数。",
    "training.mem.bad_layout": "这个并行方式切不开这个模型：{message}。",
    "training.mem.worst_stage": "最吃显存的流水线级是第一级：除了它的层还有词嵌入，并保存 {inflight} 个“层 × 微批”的激活"
                                "（{schedule}；每级 {layers} 层）。",
    "training.mem.one_stage": "一级装下整个模型：保存 {inflight} 个“层 × 微批”的激活（{schedule}）。",
    "training.how.mem_first_stage": "（第一级：它分到的层和词嵌入）",
    "training.how.mem_states": "每卡的权重、梯度和优化器状态：{n} 个参数按张量并行 {tp}（归一化和路由器复制）× 流水线 {pp} 放置{first}，再由 ZeRO 阶段 {zero} 在 {dp} × "
                               "{cp} 张数据/上下文并行的卡上切分。",
    "training.how.mem_acts": "一个微批每层的激活（Korthikanti 等，2022），乘以第一级保存的“层 × 微批”数（{schedule}）。",
}
