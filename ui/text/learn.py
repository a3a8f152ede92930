"""Strings of the Learn page (pages/0_Learn.py, ui/learn/): the seed chapter's eight
checkpoint questions as lessons, their hints and the chapter's answers in our words."""

EN = {
    "learn.title": "Learn: the chapter's eight checkpoints",
    "learn.intro": "Eight short lessons, one per checkpoint question of the chapter "
                   "*Roofline and MFU*, in its order. Each one asks you to do the thing — read "
                   "the ridge, compute an MFU, name a trace signal — with numbers drawn for "
                   "you from the **quiz number** and the device in the sidebar. Every answer "
                   "is checked by the same code that computes the other pages.",
    "learn.quiz": "Quiz number",
    "learn.quiz_help": "Draws this lesson's numbers (0 … 999999). The same quiz number and "
                       "device give everyone the same numbers: a teacher's link (it carries "
                       "quiz= and lesson=) opens a whole class on the same problem. Quiz 0 on "
                       "the chapter's numbers (the button) is the chapter's own worked example.",
    "learn.quiz_bad": "Quiz number: “{text}” is not a whole number from 0 to 999999; "
                      "keeping quiz {quiz}.",
    "learn.new_numbers": "New numbers",
    "learn.new_numbers_help": "Draw a new quiz number: new numbers for every lesson.",
    "learn.textbook": "The chapter's numbers",
    "learn.textbook_help": "Quiz 0 on the textbook A100 (312 TFLOP/s BF16, 2 TB/s): the "
                           "chapter's own worked examples, the numbers of its checkpoint answers.",
    "learn.lesson": "Lesson",
    "learn.lesson_help": "The chapter's checkpoint questions, in order. Kept in the link "
                         "as lesson=1 … lesson=8.",
    "learn.lesson_label": "{n} · {title}",
    "learn.progress": "Progress: **{done} / {total}** lessons done",
    "learn.progress_help": "Kept for this browser session, on every page. A lesson is done "
                           "when all its answers are right.",
    "learn.progress_reset": "Reset progress",
    "learn.progress_reset_help": "Mark all eight lessons as not done (the numbers stay).",
    "learn.teacher": "Teacher view",
    "learn.teacher_help": "Shows the answers for the current numbers, for a projector or "
                          "for checking a class. Not kept in the link, so a shared link never "
                          "shows the answers.",
    "learn.teacher_heading": "Teacher view: the answers for these numbers",
    "learn.teacher_row": "{question}: **{answer}**",
    "learn.prev": "Previous lesson",
    "learn.prev_help": "Go to the previous checkpoint question.",
    "learn.next": "Next lesson",
    "learn.next_help": "Go to the next checkpoint question.",
    "learn.checkpoint": "Checkpoint {n}: {question}",
    "learn.device_line": "Device: **{device}**, {precision}: peak **{peak}** (dense), "
                         "memory bandwidth **{bw}**.",
    "learn.tolerance": "Type answers as you would write them — `250`, `2.5e2`, `7 TFLOP/s`, "
                       "`7T`, `35%`, `0.35`. Within {tol} of the exact value counts as right; "
                       "three significant figures always do.",
    "learn.no_device": "This lesson needs a device with a peak and a bandwidth: choose one "
                       "in the sidebar or fill in the custom fields.",
    "learn.check": "Check",
    "learn.check_help": "Check this answer. After two wrong tries the answer is shown.",
    "learn.choice_none": "Choose an answer first.",
    "learn.correct": "Right: {value}.",
    "learn.wrong": "Not yet: {value} is not within {tol} of the answer.",
    "learn.wrong_choice": "Not this one.",
    "learn.unreadable": "Could not read that answer: {message}",
    "learn.tries": "Wrong tries: {n}",
    "learn.revealed": "The answer: **{answer}**",
    "learn.done": "Lesson {n} done.",
    "learn.chapter_answer": "The chapter's answer",
    "learn.worked": "Worked out for these numbers",
    "learn.answer_placeholder": "e.g. {example}",
    "learn.run_line": "**Run {i}:** {params} parameters, {gpus} GPUs, {tokens} tokens/s "
                      "for the whole job",
    "learn.status_done": "done",
    "learn.status_open": "open",
    # --- lesson 1: the ridge
    "learn.l1.title": "The two lines and the ridge",
    "learn.l1.question": "What do the roofline's two lines stand for, and where is the ridge?",
    "learn.l1.task": "**(a)** The chart is the roofline of this device, without its labels. "
                     "The sloped line rises with the memory bandwidth; the flat line is the "
                     "peak. At which arithmetic intensity do they meet? Read it off the chart "
                     "or compute it, and type the ridge point in FLOP/byte.",
    "learn.q.ridge": "Ridge point (FLOP/byte)",
    "learn.q.ridge.help": "The arithmetic intensity where the slope meets the roof. Units "
                          "FLOP/byte; e.g. 250 or 2.5e2.",
    "learn.l1.answer": "The sloped line is the **bandwidth limit**: its slope is the memory "
                       "bandwidth, and a kernel on it cannot get its bytes fast enough. The "
                       "flat line is the **compute limit**, the peak FLOP/s. They meet at the "
                       "ridge point, arithmetic intensity = peak ÷ bandwidth: on the A100 "
                       "312 TFLOP/s ÷ 2 TB/s = **156 FLOP/byte**. Left of it a kernel is "
                       "memory-bound, right of it compute-bound.",
    "learn.l1.worked": "ridge = peak ÷ bandwidth = {peak} ÷ {bw} = **{answer}**.",
    "learn.l1.task_b": "**(b)** A kernel does **{intensity} FLOP per byte** it moves. On this "
                       "device, which of the two lines sets its ceiling?",
    "learn.q.line": "Which line caps this kernel?",
    "learn.q.line.help": "Compare the kernel's arithmetic intensity with the ridge point.",
    "learn.line.memory": "The slope: the memory bandwidth (memory-bound)",
    "learn.line.compute": "The roof: the peak compute (compute-bound)",
    "learn.l1.worked_memory": "Arithmetic intensity {intensity} < ridge {ridge}: the slope caps "
                              "the kernel, it is memory-bound.",
    "learn.l1.worked_compute": "Arithmetic intensity {intensity} > ridge {ridge}: the roof caps "
                               "the kernel, it is compute-bound.",
    "learn.hint.line_memory": "Compare with the ridge: right of it (higher arithmetic "
                              "intensity) the flat roof is lower than the slope.",
    "learn.hint.line_compute": "Compare with the ridge: left of it (lower arithmetic "
                               "intensity) the slope is lower than the roof.",
    # --- lesson 2: the ceiling
    "learn.l2.title": "What the roofline is really for",
    "learn.l2.question": "What is the roofline's greatest value? (Not “how much faster "
                         "you can get”.)",
    "learn.l2.task": "A kernel does **{intensity} FLOP per byte** it moves to and from memory "
                     "(its arithmetic intensity). On this device, what is the most FLOP/s it "
                     "can ever reach, however well its math is written?",
    "learn.q.ceiling": "Best possible FLOP/s",
    "learn.q.ceiling.help": "The kernel's ceiling on this device, a rate: e.g. 7 TFLOP/s, 7T or 7e12 (three ways "
                            "to write one value).",
    "learn.l2.answer": "It tells you how fast a kernel can **not** get. A kernel whose "
                       "arithmetic intensity is 2 can never beat 2 × 2 TB/s = **4 TFLOP/s** on "
                       "an A100, whatever you do to its math; knowing that keeps you from "
                       "spending a week optimising in the wrong place.",
    "learn.l2.worked_memory": "ceiling = min(peak, arithmetic intensity × bandwidth) = "
                              "min({peak}, {intensity} × {bw}) = **{answer}**. The kernel is "
                              "left of the ridge ({ridge}): memory-bound, so only moving fewer "
                              "bytes per FLOP makes it faster.",
    "learn.l2.worked_compute": "ceiling = min(peak, arithmetic intensity × bandwidth) = "
                               "min({peak}, {intensity} × {bw}) = **{answer}**, the peak: the "
                               "kernel is right of the ridge ({ridge}), compute-bound.",
    # --- lesson 3: MFU
    "learn.l3.title": "Computing MFU",
    "learn.l3.question": "How is MFU computed? How many training FLOPs does a Transformer "
                         "spend per token?",
    "learn.l3.task": "A **{params}**-parameter dense Transformer trains on **{gpus} GPUs** of "
                     "this device at **{tokens} tokens/s** for the whole job. What is its MFU?",
    "learn.q.fpt": "(a) Training FLOPs per token",
    "learn.q.fpt.help": "FLOPs one token costs in training (forward and backward), a count: "
                        "e.g. 1.2e11 or 120 GFLOP.",
    "learn.q.why60": "(b) Why is the practical ceiling about 60 %, not 100 %?",
    "learn.q.why60.help": "What takes GPU time in every real training step?",
    "learn.why60.overheads": "Some time is never useful model FLOPs: communication, the "
                             "non-matmul operators, data loading, kernel launches, the "
                             "optimizer step",
    "learn.why60.datasheet": "Datasheet peaks are inflated by about 40 %",
    "learn.why60.precision": "BF16 rounding throws away about 40 % of the FLOPs",
    "learn.why60.memory": "A GPU can only use about 60 % of its memory",
    "learn.hint.why60_datasheet": "The dense datasheet peak is reachable by a large GEMM "
                                  "alone; the loss is in everything around it.",
    "learn.hint.why60_precision": "Rounding changes the values, not the number of FLOPs done.",
    "learn.hint.why60_memory": "Memory capacity limits the batch, not the share of time "
                               "spent on useful FLOPs.",
    "learn.hint.forward_only_n": "Off by 3×: 2N per token is the forward pass only; the "
                                 "backward pass costs twice as much again (6N in all).",
    "learn.q.mfu": "(b) MFU",
    "learn.q.mfu.help": "A percentage or a fraction: 35%, 35 or 0.35. MFU = "
                        "FLOPs per token × tokens/s ÷ (GPUs × peak per GPU).",
    "learn.l3.answer": "MFU = (6 × parameters × tokens/s) ÷ (number of GPUs × peak FLOP/s). "
                       "A Transformer's training costs about **6 FLOPs per parameter per "
                       "token**: 2N forward, 4N backward. The chapter's example: 7B on 8 A100s "
                       "at 12 000 tokens/s gives 6 × 7e9 × 12 000 ÷ (8 × 312e12) = **20.2 %**.",
    "learn.l3.worked": "(a) 6 × {params} = **{fpt}** per token. (b) MFU = 6 × {params} × "
                       "{tokens} tokens/s ÷ ({gpus} × {peak}) = {achieved} ÷ {total} = "
                       "**{answer}**.",
    # --- lesson 4: why 6N
    "learn.l4.title": "Why 6N, and when it fails",
    "learn.l4.question": "Why 6N? When does the formula go wrong?",
    "learn.l4.task_a": "**(a)** A weight matrix W is **{m} × {n}**, that is {weights} "
                       "parameters. For one token, how many FLOPs do its forward pass and its "
                       "backward pass take together? (A multiply and an add are 2 FLOPs.)",
    "learn.l4.task_b": "**(b)** 6N ignores attention's O(s²) part, which costs 12·L·h·s FLOPs "
                       "per token (L layers, hidden size h, sequence length s). A **{params}** "
                       "model with L = {layers} and h = {hidden} trains at s = **{seq}** "
                       "tokens. What share of its training FLOPs per token is attention?",
    "learn.q.fwd_bwd": "Forward + backward FLOPs per token",
    "learn.q.fwd_bwd.help": "A count of FLOPs, e.g. 1.2e8, 120M or 6*4096*4096.",
    "learn.q.attn_share": "Attention share of FLOPs per token",
    "learn.q.attn_share.help": "A percentage or fraction: the attention term ÷ "
                               "(6N + the attention term). E.g. 15% or 0.15.",
    "learn.l4.answer": "Forward, y = Wx costs 2mn FLOPs. The backward pass computes two "
                       "gradients, for the input (Wᵀ∂y) and for the weights (∂y xᵀ), 2mn each. "
                       "That is **6mn**, and mn is the matrix's parameter count: 6 × parameters. "
                       "The rule ignores attention's O(n²) part; from about **8K tokens** of "
                       "sequence it no longer holds, add 12·L·h·s per token.",
    "learn.l4.worked": "(a) 2mn + 2mn + 2mn = 6 × {weights} = **{fwd_bwd}**. "
                       "(b) 12 × {layers} × {hidden} × {seq} = {attn}; 6N = {six_n}; share = "
                       "{attn} ÷ ({six_n} + {attn}) = **{share}**.",
    # --- lesson 5: bands
    "learn.l5.title": "MFU bands and the 60 % ceiling",
    "learn.l5.question": "What MFU is good? Why is the ceiling about 60 % and not 100 %?",
    "learn.l5.task": "**(a)** Three training runs on this device (peak {peak} per GPU, 6N "
                     "FLOPs per token). Compute each run's MFU and put it in its band.",
    "learn.q.run": "Run {i}: band",
    "learn.q.run.help": "The chapter's MFU bands: below 20 % something is wrong, 20–35 % "
                        "low, 35–45 % fair, 45–55 % good, 55–60 % excellent, above 60 % "
                        "check your formula.",
    "learn.l5.answer": "**45–55 % is good, 55–60 % excellent**; above 60 % check your formula "
                       "(or you train in FP8). The ceiling is about 60 % because some costs "
                       "never go away: communication, the non-matmul operators (LayerNorm, "
                       "Softmax, activations), data loading, kernel launches and the optimizer "
                       "step take time but are not counted as useful FLOPs.",
    "learn.l5.worked": "Run {i}: 6 × {params} × {tokens} ÷ ({gpus} × {peak}) = {mfu}: "
                       "**{band}**.",
    # --- lesson 6: the first experiment
    "learn.l6.title": "The first diagnostic experiment",
    "learn.l6.question": "MFU is low: which single diagnostic experiment is worth doing first?",
    "learn.q.first": "Your MFU is low. Which experiment do you run first?",
    "learn.q.first.help": "One experiment, five minutes, rules out a whole class of causes.",
    "learn.exp.random_tensors": "Replace the dataloader with fixed random tensors and change "
                                "nothing else",
    "learn.exp.more_gpus": "Add more GPUs",
    "learn.exp.bigger_batch": "Double the batch size",
    "learn.exp.no_checkpointing": "Turn activation checkpointing off",
    "learn.exp.custom_kernels": "Rewrite the slowest kernel in CUDA or Triton",
    "learn.l6.task_b": "You run it. A **{params}** model on **{gpus} GPUs** of this device "
                       "makes **{before} tokens/s** with the real dataloader and **{after} "
                       "tokens/s** with fixed random tensors.",
    "learn.q.verdict": "What does that tell you?",
    "learn.q.verdict.help": "Compare the two MFUs (or the two throughputs: the model and the "
                            "GPUs are the same).",
    "learn.verdict.data_pipeline": "The data pipeline is the bottleneck: fix data loading first",
    "learn.verdict.not_data": "The data pipeline is not the bottleneck: look at communication "
                              "and the model next",
    "learn.l6.answer": "Swap the dataloader for **fixed random tensors**, change nothing else. "
                       "If MFU rises markedly, the bottleneck is the **data pipeline**, not the "
                       "model. Five minutes, and a whole class of causes is ruled in or out.",
    "learn.l6.worked": "MFU with the dataloader {before_mfu}, with random tensors {after_mfu}: "
                       "{ratio}× ({rule}).",
    "learn.l6.rule_data": "a rise of {rise}× or more: the GPUs were waiting for data",
    "learn.l6.rule_not": "less than {rise}×: the GPUs were not waiting for data",
    # --- lesson 7: the trace
    "learn.l7.title": "Reading a profiler trace",
    "learn.l7.question": "Reading a profiler trace: what does a gap in the GPU timeline mean?",
    "learn.l7.task": "A synthetic GPU timeline of a few training steps ({kernels} kernels; "
                     "top: the whole window, bottom: a zoom on its first kernels). Hover over the "
                     "kernels for their names and durations. Which signal does it show?",
    "learn.q.signal": "What does this trace tell you?",
    "learn.q.signal.help": "The chapter's three trace signals, or none of them.",
    "learn.signal.gaps": "Gaps in the GPU timeline: the GPU waits for the CPU or the data "
                         "(data pipeline or CPU overhead)",
    "learn.signal.tiny_kernels": "Many tiny kernels packed together: no kernel fusion, the "
                                 "launch overhead dominates",
    "learn.signal.nccl": "A large share of NCCL kernels: communication-bound (check the "
                         "topology or the parallel strategy)",
    "learn.signal.none": "Nothing stands out: large kernels back to back, the GPU is busy",
    "learn.l7.answer": "A gap in the GPU timeline means the GPU is **waiting for the CPU or "
                       "for data**: look at the data pipeline or the CPU overhead. The other "
                       "two signals: many tiny kernels packed together mean no fusion (launch "
                       "overhead), a large share of NCCL kernels a communication bottleneck.",
    "learn.l7.worked": "This trace: the GPU is busy {busy} of the window, {small} of the "
                       "kernels are shorter than {threshold}, NCCL takes {comm} of GPU kernel "
                       "time. Signal: **{signal}**.",
    "learn.fig.slope": "Slope: arithmetic intensity × bandwidth",
    "learn.fig.roof": "Roof: the peak",
    "learn.fig.kernel": "The kernel",
    "learn.fig.kernel_at": "The kernel: {intensity} FLOP/B",
    "learn.fig.window": "Whole window",
    "learn.fig.zoom": "Zoom: the first {span}",
    "learn.fig.time": "Time (ms)",
    "learn.fig.stream": "Stream {stream}",
    "learn.fig.class.compute": "Compute kernels",
    "learn.fig.class.comm": "NCCL (communication)",
    "learn.fig.kernel_hover": "%{hovertext}<br>%{customdata:.1f} µs",
    # --- lesson 8: decode
    "learn.l8.title": "The decode rule of thumb",
    "learn.l8.question": "What is the most useful mental formula of inference, and which two "
                         "things does it explain?",
    "learn.l8.task": "A **{params}** model decodes on one GPU of this device (ignore the KV "
                     "cache; a ceiling, not a prediction).",
    "learn.q.bf16": "(a) Weights in BF16 (2 bytes each), one request: fastest tokens/s",
    "learn.q.bf16.help": "Tokens per second, e.g. 90, 90 tok/s or 90 tokens/秒.",
    "learn.q.int8": "(b) Weights quantised to 8 bits (1 byte each), one request: tokens/s",
    "learn.q.int8.help": "Tokens per second; the same device and model.",
    "learn.q.batch": "(c) Back in BF16, {batch} requests decoded together: total tokens/s",
    "learn.q.batch.help": "Tokens per second of the whole batch (all requests together).",
    "learn.l8.answer": "**Fastest decode speed = memory bandwidth ÷ model size**: each new "
                       "token reads all the weights once (7B in BF16 = 14 GB on 2 TB/s ≈ "
                       "143 tokens/s). It explains why **quantisation** speeds decoding up "
                       "directly (half the bytes, twice the speed) and why **batching is "
                       "free** (one read of the weights serves every request in the batch).",
    "learn.l8.worked": "(a) {bw} ÷ {bytes16} = **{bf16}**. (b) {bw} ÷ {bytes8} = **{int8}**. "
                       "(c) one step reads the weights once for all {batch} requests: "
                       "**{batch_total}** (below the critical batch size, the knee, the "
                       "step stays bandwidth-bound).",
    # --- hints (known mistakes)
    "learn.hint.none": "No known slip matches. Check the formula in the field's help (?).",
    "learn.hint.unit": "A bare number is read in plain units (FLOP/s, bytes/s, …). Add the "
                       "prefix or the unit: 7 TFLOP/s, 7T or 7e12.",
    "learn.hint.prefix": "Off by a factor of 1000: a prefix slipped (T vs G, TB/s vs GB/s).",
    "learn.hint.gib": "Off by 7–10 %: GB vs GiB. Datasheets use decimal units (1 TB/s = "
                      "10¹² bytes/s, 1 GB = 10⁹ bytes), not binary ones (1 TiB = 2⁴⁰ bytes).",
    "learn.hint.sparse": "Off by 2×: that is the vendor's 2:4-sparse headline ({sparse}). "
                         "Real training and this tool use the dense peak ({dense}).",
    "learn.hint.inverted": "Upside down: that is bandwidth ÷ peak. The ridge is peak ÷ "
                           "bandwidth (FLOP/s ÷ bytes/s = FLOP/byte).",
    "learn.hint.roof_not_slope": "That is the peak, but this kernel is left of the ridge: "
                                 "its ceiling is on the slope, arithmetic intensity × bandwidth.",
    "learn.hint.times_peak": "Arithmetic intensity × peak mixes the units: the slope is "
                             "arithmetic intensity × bandwidth (FLOP/byte × bytes/s = FLOP/s).",
    "learn.hint.above_roof": "That is above the roof: no kernel beats the peak. Right of the "
                             "ridge the ceiling is the peak itself.",
    "learn.hint.gpus": "Off by the number of GPUs: the tokens/s are the whole job's, so "
                       "divide by GPUs × peak per GPU.",
    "learn.hint.macs": "Off by 2×: a multiply-add is 2 FLOPs, not 1. Count FLOPs, not MACs "
                       "(6N per token, not 3N).",
    "learn.hint.two_n": "Off by 3×: 2N per token is the forward pass only; training costs "
                        "6N (the backward pass is twice the forward).",
    "learn.hint.forward_only": "That is the forward pass only (2mn). The backward pass adds "
                               "two more matrix products.",
    "learn.hint.one_gradient": "The backward pass computes two gradients, not one: for the "
                               "input (Wᵀ∂y) and for the weights (∂y xᵀ).",
    "learn.hint.params_only": "That is the parameter count. Each weight costs 2 FLOPs per "
                              "matrix product, and training does three products per token.",
    "learn.hint.ratio_not_share": "That is 12·L·h·s ÷ 6N. The share divides by the whole: "
                                  "6N + 12·L·h·s.",
    "learn.hint.causal": "You halved the attention term (causal mask). The chapter's "
                         "12·L·h·s counts the full score matrix: use it as it is.",
    "learn.hint.bytes_per_param": "2× too fast: a BF16 weight is 2 bytes, so the model is "
                                  "2 × N bytes.",
    "learn.hint.flops_bound": "That is peak ÷ 2N, the compute limit. Decoding is "
                              "bandwidth-bound: each token reads all the weights, so divide "
                              "the bandwidth by the model bytes.",
    "learn.hint.quant_same": "Quantisation halves the bytes each token reads, so the "
                             "ceiling moves.",
    "learn.hint.quant_inverted": "Upside down: fewer bytes per token means faster, not slower.",
    "learn.hint.batch_per_request": "That is what each request gets. The question asks for "
                                    "the whole batch: one read of the weights serves all "
                                    "{batch} requests.",
    "learn.hint.batch_divided": "Batching does not split the speed: one read of the weights "
                                "serves every request, so the total grows with the batch.",
    "learn.hint.band_gpus": "That band fits the MFU without dividing by the number of GPUs.",
    "learn.hint.band_macs": "That band fits half the MFU: count 6N FLOPs per token (a "
                            "multiply-add is 2 FLOPs) and the dense peak.",
    "learn.hint.exp_more_gpus": "More GPUs only help a job that keeps its GPUs busy; if they "
                                "wait for data, MFU drops further. Rule out the data pipeline "
                                "first.",
    "learn.hint.exp_bigger_batch": "A bigger batch changes memory, convergence and the data "
                                   "rate at once: it cannot tell you where the time goes.",
    "learn.hint.exp_no_checkpointing": "Checkpointing is checklist step ⑥; it may not fit in "
                                       "memory without it. First make sure the GPUs are fed.",
    "learn.hint.exp_custom_kernels": "A week of work before you know whether the GPUs are "
                                     "even busy. The five-minute experiment comes first.",
    "learn.hint.verdict_not_data": "Compare the two MFUs: a clear rise (here {rise}× or more) "
                                   "with random tensors means the GPUs were waiting for data.",
    "learn.hint.verdict_data_pipeline": "MFU barely moved with random tensors: the GPUs were "
                                        "not waiting for data; the bottleneck is elsewhere.",
    "learn.hint.trace_gaps": "Gaps would be long stretches with no kernel on any stream. Look "
                             "at how busy the timeline is.",
    "learn.hint.trace_tiny_kernels": "Tiny kernels would fill the zoom with thin slivers of a "
                                     "few microseconds. Hover over a few kernels.",
    "learn.hint.trace_nccl": "NCCL would show as long kernels on the communication stream. "
                             "Look at the legend's colours.",
    "learn.hint.trace_none": "Look again: one of the three signals is there.",
    # link from the other pages
    "learn.why": "Why? → {topic}",
    "learn.why_help": "The Learn page's lesson on this (lesson {n}).",
    "learn.topic.1": "the ridge point",
    "learn.topic.2": "what the roofline is for",
    "learn.topic.3": "computing MFU",
    "learn.topic.4": "why 6N",
    "learn.topic.5": "the MFU bands",
    "learn.topic.6": "the first experiment",
    "learn.topic.7": "reading a trace",
    "learn.topic.8": "bandwidth ÷ model bytes",
}

ZH = {
    "learn.title": "学习：本章的八个检查点",
    "learn.intro": "八个小课，对应《Roofline 与 MFU》一章的八个检查点问题，顺序与原文一致。每一课都要你亲手做一遍——读出拐点、"
                   "算出 MFU、说出 trace 里的信号；题目里的数字由**题号**和侧边栏选的设备生成。每个答案都由计算其他页面的同一套代码检查。",
    "learn.quiz": "题号",
    "learn.quiz_help": "决定本课的数字（0 … 999999）。题号和设备相同，大家拿到的数字就相同："
                       "老师的链接（带 quiz= 和 lesson=）能让全班打开同一道题。题号 0 配合「用本章的数字」就是本章自己的算例。",
    "learn.quiz_bad": "题号：“{text}”不是 0 到 999999 之间的整数，仍用题号 {quiz}。",
    "learn.new_numbers": "换一组数字",
    "learn.new_numbers_help": "随机换一个题号：每一课都换成新的数字。",
    "learn.textbook": "用本章的数字",
    "learn.textbook_help": "题号 0 加教材版 A100（BF16 312 TFLOP/s，2 TB/s）：本章自己的算例"
                           "，也就是检查点答案里的那些数字。",
    "learn.lesson": "课",
    "learn.lesson_help": "本章的检查点问题，按原文顺序。链接里记作 lesson=1 … lesson=8。",
    "learn.lesson_label": "{n} · {title}",
    "learn.progress": "进度：已完成 **{done} / {total}** 课",
    "learn.progress_help": "在本次浏览器会话中保留，换页面也不丢。一课的所有答案都对了，这一课才算完成。",
    "learn.progress_reset": "清空进度",
    "learn.progress_reset_help": "把八课都标回未完成（数字不变）。",
    "learn.teacher": "教师视图",
    "learn.teacher_help": "显示当前这组数字的答案，适合投影或批改。它不写进链接，分享出去的链接不会带答案。",
    "learn.teacher_heading": "教师视图：这组数字的答案",
    "learn.teacher_row": "{question} → **{answer}**",
    "learn.prev": "上一课",
    "learn.prev_help": "回到上一个检查点问题。",
    "learn.next": "下一课",
    "learn.next_help": "进入下一个检查点问题。",
    "learn.checkpoint": "检查点 {n}：{question}",
    "learn.device_line": "设备：**{device}**，{precision}：峰值算力 **{peak}**（稠密），显存带宽 **{bw}**。",
    "learn.tolerance": "答案照平常的写法输入即可——`250`、`2.5e2`、`7 TFLOP/s`、`7T`、`35%`、"
                       "`0.35`。与精确值相差不超过 {tol} 就算对；保留三位有效数字一定没问题。",
    "learn.no_device": "这一课需要一个有峰值算力和带宽的设备：请在侧边栏选一个，或填好自定义设备的两项。",
    "learn.check": "检查",
    "learn.check_help": "检查这个答案。错两次之后会显示答案。",
    "learn.choice_none": "请先选一个答案。",
    "learn.correct": "对了：{value}。",
    "learn.wrong": "还不对：{value} 与答案相差超过 {tol}。",
    "learn.wrong_choice": "不是这个。",
    "learn.unreadable": "读不懂这个答案：{message}",
    "learn.tries": "答错次数：{n}",
    "learn.revealed": "答案：**{answer}**",
    "learn.done": "第 {n} 课完成。",
    "learn.chapter_answer": "本章的答案",
    "learn.worked": "按这组数字算一遍",
    "learn.answer_placeholder": "例如 {example}",
    "learn.run_line": "**第 {i} 次训练：** {params} 参数，{gpus} 张卡，整个任务 {tokens} tokens/秒",
    "learn.status_done": "已完成",
    "learn.status_open": "未完成",
    "learn.l1.title": "两条线与拐点",
    "learn.l1.question": "Roofline 模型的两条线分别代表什么？拐点在哪？",
    "learn.l1.task": "**(a)** 图上是这个设备的 Roofline，去掉了标注。斜的那条线随显存带宽上升，平的那条线是峰值算力。"
                     "它们在多大的算术强度处相交？从图上读出来或者算出来，输入拐点（FLOP/字节）。",
    "learn.q.ridge": "拐点（FLOP/字节）",
    "learn.q.ridge.help": "斜坡与屋顶相交处的算术强度。单位 FLOP/字节，例如 250 或 2.5e2。",
    "learn.l1.answer": "斜坡是**带宽上限**：斜率就是显存带宽，落在斜坡上的 kernel 是数据搬不过来。"
                       "平的屋顶是**算力上限**，即峰值算力。两者的交点就是拐点，算术强度 = 峰值算力 ÷ 带宽："
                       "A100 上 312 TFLOP/s ÷ 2 TB/s = **156 FLOP/字节**。拐点左边带宽受限，右边算力受限。",
    "learn.l1.worked": "拐点 = 峰值算力 ÷ 带宽 = {peak} ÷ {bw} = **{answer}**。",
    "learn.l1.task_b": "**(b)** 一个 kernel 每搬运 1 字节做 **{intensity} 个 FLOP**。在这个设备上，"
                       "两条线中哪一条决定它的上限？",
    "learn.q.line": "哪条线限制了这个 kernel？",
    "learn.q.line.help": "把这个 kernel 的算术强度和拐点比一比。",
    "learn.line.memory": "斜坡：显存带宽（带宽受限）",
    "learn.line.compute": "屋顶：峰值算力（算力受限）",
    "learn.l1.worked_memory": "算术强度 {intensity} < 拐点 {ridge}：斜坡限制了这个 kernel，它是带宽受限。",
    "learn.l1.worked_compute": "算术强度 {intensity} > 拐点 {ridge}：屋顶限制了这个 kernel，它是算力受限。",
    "learn.hint.line_memory": "和拐点比一比：在拐点右边（算术强度更高），平的屋顶比斜坡低。",
    "learn.hint.line_compute": "和拐点比一比：在拐点左边（算术强度更低），斜坡比屋顶低。",
    "learn.l2.title": "Roofline 真正的用处",
    "learn.l2.question": "Roofline 最大的价值是什么？（不是“能快多少”）",
    "learn.l2.task": "一个 kernel 每搬运 1 字节做 **{intensity} 个 FLOP**（它的算术强度）。"
                     "在这个设备上，无论它的计算写得多好，最多能达到多少 FLOP/s？",
    "learn.q.ceiling": "最高可达 FLOP/s",
    "learn.q.ceiling.help": "这个 kernel 在这个设备上的上限，是一个速率：例如 7 TFLOP/s、7T 或 7e12。",
    "learn.l2.answer": "它告诉你**不能**快多少。算术强度只有 2 的 kernel，在 A100 上无论怎么优化计算，"
                       "都超不过 2 × 2 TB/s = **4 TFLOP/s**——知道这一点，就不会在错误的地方浪费一周。",
    "learn.l2.worked_memory": "上限 = min(峰值算力, 算术强度 × 带宽) = min({peak}, {intensity} × {bw}) = "
                              "**{answer}**。这个 kernel 在拐点（{ridge}）左边，带宽受限：只有少搬数据才能变快。",
    "learn.l2.worked_compute": "上限 = min(峰值算力, 算术强度 × 带宽) = min({peak}, {intensity} × {bw}) = "
                               "**{answer}**，就是峰值算力：这个 kernel 在拐点（{ridge}）右边，算力受限。",
    "learn.l3.title": "MFU 怎么算",
    "learn.l3.question": "MFU 怎么算？Transformer 每个 token 的训练 FLOP 是多少？",
    "learn.l3.task": "一个 **{params}** 参数的稠密 Transformer，在 **{gpus} 张**这种卡上训练，整个任务的吞吐是 **{tokens} tokens/秒**。它的 MFU 是多少？",
    "learn.q.fpt": "(a) 每 token 的训练 FLOP",
    "learn.q.fpt.help": "训练时一个 token 的计算量（前向加反向），是一个 FLOP 个数：例如 1.2e11 或 120 GFLOP。",
    "learn.q.why60": "(b) 为什么实际天花板是 60% 左右，而不是 100%？",
    "learn.q.why60.help": "真实的每个训练步里，还有什么在占 GPU 时间？",
    "learn.why60.overheads": "有些时间永远不是有效的模型 FLOP：通信、非矩阵乘操作、数据加载、kernel 启动、优化器更新",
    "learn.why60.datasheet": "规格书上的峰值虚标了约 40%",
    "learn.why60.precision": "BF16 舍入丢掉了约 40% 的 FLOP",
    "learn.why60.memory": "GPU 只能用上约 60% 的显存",
    "learn.hint.why60_datasheet": "单个大 GEMM 就能接近规格书上的稠密峰值；损失在它周围的其他一切里。",
    "learn.hint.why60_precision": "舍入改变的是数值，不是要做的 FLOP 个数。",
    "learn.hint.why60_memory": "显存大小限制的是批大小，而不是有效 FLOP 占时间的比例。",
    "learn.hint.forward_only_n": "差了 3 倍：每 token 2N 只是前向；反向还要再花两倍（合计 6N）。",
    "learn.q.mfu": "(b) MFU",
    "learn.q.mfu.help": "百分数或小数：35%、35 或 0.35。MFU = 每 token FLOP × tokens/秒 ÷ (GPU 数 × 单卡峰值算力)。",
    "learn.l3.answer": "MFU = (6 × 参数量 × tokens/秒) ÷ (GPU 数 × 峰值算力)。Transformer 训练时"
                       "**每个 token 每个参数约 6 个 FLOP**：前向 2N，反向 4N。本章的算例：7B 模型、8 张 A100、"
                       "12 000 tokens/秒，6 × 7e9 × 12 000 ÷ (8 × 312e12) = **20.2%**。",
    "learn.l3.worked": "(a) 6 × {params} = 每 token **{fpt}**。(b) MFU = 6 × {params} × "
                       "{tokens} tokens/秒 ÷ ({gpus} × {peak}) = {achieved} ÷ {total} = **{answer}**。",
    "learn.l4.title": "为什么是 6N，何时失准",
    "learn.l4.question": "为什么是 6N？这个公式什么时候会失准？",
    "learn.l4.task_a": "**(a)** 一个权重矩阵 W 是 **{m} × {n}**，即 {weights} 个参数。处理一个 token，"
                       "它的前向加反向一共要多少 FLOP？（一次乘加算 2 个 FLOP。）",
    "learn.l4.task_b": "**(b)** 6N 忽略了注意力的 O(s²) 部分，它每个 token 要 12·L·h·s 个 FLOP（L 层数，"
                       "h 隐藏维度，s 序列长度）。一个 **{params}** 模型，L = {layers}，h = {hidden}，"
                       "序列长度 s = **{seq}**。注意力占每 token 训练 FLOP 的多少？",
    "learn.q.fwd_bwd": "每 token 前向 + 反向 FLOP",
    "learn.q.fwd_bwd.help": "FLOP 个数，例如 1.2e8、120M 或 6*4096*4096。",
    "learn.q.attn_share": "注意力占每 token FLOP 的比例",
    "learn.q.attn_share.help": "百分数或小数：注意力项 ÷ (6N + 注意力项)。例如 15% 或 0.15。",
    "learn.l4.answer": "前向 y = Wx 要 2mn 个 FLOP。反向要算两组梯度：对输入的（Wᵀ∂y）和对权重的（∂y xᵀ），各 2mn。"
                       "合计 **6mn**，而 mn 正是这个矩阵的参数量：6 × 参数量。这个公式忽略了注意力的 O(n²) 部分，序列 **≥ 8K** 时会失准，"
                       "每 token 要加上 12·L·h·s。",
    "learn.l4.worked": "(a) 2mn + 2mn + 2mn = 6 × {weights} = **{fwd_bwd}**。"
                       "(b) 12 × {layers} × {hidden} × {seq} = {attn}；6N = {six_n}；比例 = "
                       "{attn} ÷ ({six_n} + {attn}) = **{share}**。",
    "learn.l5.title": "MFU 的档位与 60% 天花板",
    "learn.l5.question": "MFU 多少算良好？为什么天花板是 60% 而不是 100%？",
    "learn.l5.task": "**(a)** 这种卡上的三次训练（单卡峰值算力 {peak}，每 token 6N 个 FLOP）。"
                     "算出每次的 MFU，放进对应的档位。",
    "learn.q.run": "第 {i} 次：档位",
    "learn.q.run.help": "本章的 MFU 档位：< 20% 有明显问题，20–35% 偏低，35–45% 一般，45–55% 良好，"
                        "55–60% 优秀，> 60% 检查你的公式。",
    "learn.l5.answer": "**45–55% 良好，55–60% 优秀**；超过 60% 先检查公式（或者用了 FP8）。天花板是 60% 左右，"
                       "因为有些开销消除不了：通信、非矩阵乘操作（LayerNorm、Softmax、激活函数）、数据加载、kernel 启动、"
                       "优化器更新——它们占时间，却不算有效 FLOP。",
    "learn.l5.worked": "第 {i} 次：6 × {params} × {tokens} ÷ ({gpus} × {peak}) = {mfu}：**{band}**。",
    "learn.l6.title": "第一个诊断实验",
    "learn.l6.question": "MFU 低了，最值得先做的一个诊断实验是什么？",
    "learn.q.first": "你的 MFU 偏低。先做哪个实验？",
    "learn.q.first.help": "一个实验，五分钟，排除一整类问题。",
    "learn.exp.random_tensors": "把 dataloader 换成固定的随机张量，其他都不变",
    "learn.exp.more_gpus": "加更多的卡",
    "learn.exp.bigger_batch": "把批大小翻倍",
    "learn.exp.no_checkpointing": "关掉激活检查点",
    "learn.exp.custom_kernels": "用 CUDA 或 Triton 重写最慢的 kernel",
    "learn.l6.task_b": "你做了这个实验。一个 **{params}** 模型在 **{gpus} 张**这种卡上，用真实 dataloader "
                       "是 **{before} tokens/秒**，换成固定随机张量后是 **{after} tokens/秒**。",
    "learn.q.verdict": "这说明什么？",
    "learn.q.verdict.help": "比较两个 MFU（或两个吞吐：模型和卡都没变）。",
    "learn.verdict.data_pipeline": "瓶颈在数据管线：先修数据加载",
    "learn.verdict.not_data": "瓶颈不在数据管线：接下来查通信和模型本身",
    "learn.l6.answer": "把 dataloader 换成**固定的随机张量**，其他不变。如果 MFU 显著上升，瓶颈就在"
                       "**数据管线**，不在模型。五分钟就能排除（或确认）一整类问题。",
    "learn.l6.worked": "用 dataloader 时 MFU {before_mfu}，换成随机张量后 {after_mfu}：{ratio} 倍（{rule}）。",
    "learn.l6.rule_data": "上升到 {rise} 倍或更多：卡在等数据",
    "learn.l6.rule_not": "不到 {rise} 倍：卡没有在等数据",
    "learn.l7.title": "读 profiler trace",
    "learn.l7.question": "读 profiler trace 时，“GPU 时间轴有空隙”说明什么？",
    "learn.l7.task": "几个训练步的合成 GPU 时间轴（{kernels} 个 kernel；上：整个时间窗口，下：放大开头的几个 kernel）。"
                     "把鼠标放在 kernel 上能看到名字和时长。它显示的是哪个信号？",
    "learn.q.signal": "这个 trace 说明什么？",
    "learn.q.signal.help": "本章读 trace 的三个信号，或者都不是。",
    "learn.signal.gaps": "GPU 时间轴上有空隙：GPU 在等 CPU 或数据（数据管线 / CPU 开销）",
    "learn.signal.tiny_kernels": "一堆小 kernel 密集排列：没有算子融合，kernel 启动开销占比高",
    "learn.signal.nccl": "通信 kernel（NCCL）占比大：通信瓶颈（检查拓扑或换并行策略）",
    "learn.signal.none": "没有明显信号：大 kernel 一个接一个，GPU 很忙",
    "learn.l7.answer": "GPU 时间轴上有空隙，说明 GPU 在**等 CPU 或等数据**：去查数据管线或 CPU 开销。"
                       "另外两个信号：一堆小 kernel 密集排列说明没有融合（启动开销），NCCL 占比大说明是通信瓶颈。",
    "learn.l7.worked": "这个 trace：GPU 忙碌时间占时间窗口的 {busy}，{small} 的 kernel 短于 {threshold}，"
                       "NCCL 占 GPU kernel 时间的 {comm}。信号：**{signal}**。",
    "learn.fig.slope": "斜坡：算术强度 × 带宽",
    "learn.fig.roof": "屋顶：峰值算力",
    "learn.fig.kernel": "这个 kernel",
    "learn.fig.kernel_at": "这个 kernel：{intensity} FLOP/字节",
    "learn.fig.window": "整个时间窗口",
    "learn.fig.zoom": "放大：开头 {span}",
    "learn.fig.time": "时间（ms）",
    "learn.fig.stream": "stream {stream}",
    "learn.fig.class.compute": "计算 kernel",
    "learn.fig.class.comm": "NCCL（通信）",
    "learn.fig.kernel_hover": "%{hovertext}<br>%{customdata:.1f} µs",
    "learn.l8.title": "解码的心算公式",
    "learn.l8.question": "推理领域最有用的心算公式是什么？它解释了哪两件事？",
    "learn.l8.task": "一个 **{params}** 模型在一张这种卡上解码（忽略 KV cache；这是上限，不是预测）。",
    "learn.q.bf16": "(a) BF16 权重（每个 2 字节），单个请求：最快 tokens/秒",
    "learn.q.bf16.help": "每秒 token 数，例如 90 或 90 tokens/秒。",
    "learn.q.int8": "(b) 权重量化到 8 bit（每个 1 字节），单个请求：tokens/秒",
    "learn.q.int8.help": "每秒 token 数；设备和模型不变。",
    "learn.q.batch": "(c) 回到 BF16，{batch} 个请求一起解码：总 tokens/秒",
    "learn.q.batch.help": "整个 batch（所有请求合计）的每秒 token 数。",
    "learn.l8.answer": "**理论最快解码速度 = 显存带宽 ÷ 模型大小**：每生成一个 token 都要把全部权重读一遍"
                       "（7B BF16 = 14 GB，在 2 TB/s 上 ≈ 143 tokens/秒）。它解释了为什么**量化**能直接提速"
                       "（模型小一半，速度快一倍），也解释了为什么**批处理是免费的**（读一遍权重服务 batch 里所有请求）。",
    "learn.l8.worked": "(a) {bw} ÷ {bytes16} = **{bf16}**。(b) {bw} ÷ {bytes8} = **{int8}**。"
                       "(c) 一步只读一遍权重，同时服务 {batch} 个请求：**{batch_total}**"
                       "（批大小低于临界批大小时，这一步仍是带宽受限）。",
    "learn.hint.none": "没有对上已知的常见错误。看看输入框帮助（?）里的公式。",
    "learn.hint.unit": "不带单位的数按基本单位读（FLOP/s、字节/秒……）。请加上前缀或单位：7 TFLOP/s、7T 或 7e12。",
    "learn.hint.prefix": "差了 1000 倍：前缀弄错了（T 和 G，TB/s 和 GB/s）。",
    "learn.hint.gib": "差了 7–10%：GB 和 GiB 混了。规格书用十进制单位（1 TB/s = 10¹² 字节/秒，1 GB = 10⁹ 字节），"
                      "不是二进制（1 TiB = 2⁴⁰ 字节）。",
    "learn.hint.sparse": "差了 2 倍：这是厂商按 2:4 稀疏宣传的峰值（{sparse}）。真实训练和本工具用的是稠密峰值（{dense}）。",
    "learn.hint.inverted": "倒过来了：这是带宽 ÷ 峰值算力。拐点是峰值算力 ÷ 带宽（FLOP/s ÷ 字节/秒 = FLOP/字节）。",
    "learn.hint.roof_not_slope": "这是峰值算力，但这个 kernel 在拐点左边：它的上限在斜坡上，等于算术强度 × 带宽。",
    "learn.hint.times_peak": "算术强度 × 峰值算力，单位对不上：斜坡是算术强度 × 带宽（FLOP/字节 × 字节/秒 = FLOP/s）。",
    "learn.hint.above_roof": "这超过了屋顶：没有 kernel 能超过峰值算力。拐点右边的上限就是峰值算力本身。",
    "learn.hint.gpus": "差了 GPU 数那么多倍：tokens/秒是整个任务的，要除以 GPU 数 × 单卡峰值算力。",
    "learn.hint.macs": "差了 2 倍：一次乘加是 2 个 FLOP，不是 1 个。要数 FLOP，不是 MAC（每 token 6N，不是 3N）。",
    "learn.hint.two_n": "差了 3 倍：每 token 2N 只是前向；训练要 6N（反向是前向的 2 倍）。",
    "learn.hint.forward_only": "这只是前向（2mn）。反向还要再做两次矩阵乘。",
    "learn.hint.one_gradient": "反向要算两组梯度，不是一组：对输入的（Wᵀ∂y）和对权重的（∂y xᵀ）。",
    "learn.hint.params_only": "这是参数量。每次矩阵乘每个权重 2 个 FLOP，训练每个 token 要做三次矩阵乘。",
    "learn.hint.ratio_not_share": "这是 12·L·h·s ÷ 6N。比例要除以总数：6N + 12·L·h·s。",
    "learn.hint.causal": "你把注意力项减半了（因果掩码）。本章的 12·L·h·s 按完整的分数矩阵算，照用即可。",
    "learn.hint.bytes_per_param": "快了 2 倍：BF16 权重每个 2 字节，模型是 2 × N 字节。",
    "learn.hint.flops_bound": "这是峰值算力 ÷ 2N，算力的上限。解码是带宽受限：每个 token 都要读一遍全部权重，"
                              "所以要用带宽除以模型字节数。",
    "learn.hint.quant_same": "量化让每个 token 要读的字节减半，上限也跟着变。",
    "learn.hint.quant_inverted": "倒过来了：每个 token 读的字节少了，是更快，不是更慢。",
    "learn.hint.batch_per_request": "这是每个请求拿到的速度。题目问的是整个 batch：读一遍权重服务全部 {batch} 个请求。",
    "learn.hint.batch_divided": "批处理不会把速度分掉：读一遍权重服务每一个请求，总吞吐随批大小增长。",
    "learn.hint.band_gpus": "这个档位对应的是没除以 GPU 数的 MFU。",
    "learn.hint.band_macs": "这个档位对应的是一半的 MFU：每 token 数 6N 个 FLOP（一次乘加 2 个 FLOP），用稠密峰值。",
    "learn.hint.exp_more_gpus": "加卡只对能把卡喂饱的任务有用；如果卡在等数据，MFU 只会更低。先排除数据管线。",
    "learn.hint.exp_bigger_batch": "加大批大小同时改变了显存、收敛和数据速率：它说明不了时间花在哪里。",
    "learn.hint.exp_no_checkpointing": "激活检查点是排查清单的第 ⑥ 步；关掉它可能显存就不够了。先确认卡喂饱了。",
    "learn.hint.exp_custom_kernels": "还不知道卡忙不忙就先花一周。五分钟的实验应该先做。",
    "learn.hint.verdict_not_data": "比较两个 MFU：换成随机张量后明显上升（这里到 {rise} 倍或更多），说明卡在等数据。",
    "learn.hint.verdict_data_pipeline": "换成随机张量后 MFU 几乎没变：卡没有在等数据，瓶颈在别处。",
    "learn.hint.trace_gaps": "空隙是所有 stream 上都没有 kernel 的长段。看看时间轴有多满。",
    "learn.hint.trace_tiny_kernels": "小 kernel 会在放大图里挤满几微秒宽的细条。把鼠标放在几个 kernel 上看看。",
    "learn.hint.trace_nccl": "NCCL 会在通信 stream 上显示为长 kernel。看看图例的颜色。",
    "learn.hint.trace_none": "再看看：三个信号中有一个在这里。",
    "learn.why": "为什么？→ {topic}",
    "learn.why_help": "「学习」页里讲这个的一课（第 {n} 课）。",
    "learn.topic.1": "拐点",
    "learn.topic.2": "Roofline 的用处",
    "learn.topic.3": "MFU 怎么算",
    "learn.topic.4": "为什么是 6N",
    "learn.topic.5": "MFU 的档位",
    "learn.topic.6": "第一个诊断实验",
    "learn.topic.7": "读 trace",
    "learn.topic.8": "带宽 ÷ 模型字节数",
}
