"""Strings on charts: axis titles, legends, hover labels (shared by all figure builders)."""

EN = {
    "fig.x_title": "Arithmetic intensity ({op}/byte)",
    "fig.y_title": "Performance ({op}/s)",
    "fig.x_title_mixed": "Arithmetic intensity (FLOP/byte; INT8: OP/byte)",
    "fig.y_title_mixed": "Performance (FLOP/s; INT8: OP/s)",
    "fig.memory_bound": "memory-bound: moving data limits",
    "fig.compute_bound": "compute-bound: math limits",
    "fig.ridge": "Ridge point",
    "fig.ridge_label": "ridge {ridge}",
    "fig.ridge_hover": "Ridge point: {ridge}<br>Roof: {peak}",
    "fig.roof_hover": "<b>{label}</b><br>Roof: {peak}<br>Slope: {bw}<br>Ridge: {ridge}",
    "fig.gap": "Gap to roof",
    "fig.top_n": "Top kernels by time",
    "fig.bound.memory": "memory-bound",
    "fig.bound.compute": "compute-bound",
    "fig.bound.zero_flop": "zero-FLOP (moves data only)",
    "fig.zero_flop_strip": "zero-FLOP kernels:<br>height = % of the memory roof",
    "fig.kernel_hover_zero": "<b>{name}</b><br>0 FLOPs: moves data only<br>Bytes: {bytes}"
                             "<br>Achieved bandwidth: {achieved}<br>Of memory roof: {fraction}"
                             "<br>Verdict: {verdict}",
    "fig.verdict.near_roof": "Near the roof",
    "fig.verdict.below_roof": "Below the roof",
    "fig.verdict.above_roof": "Above the roof (check the numbers)",
    "fig.verdict.unmeasured": "No time given (drawn at its ceiling)",
    "fig.kernel_hover": "<b>{name}</b><br>{op}s: {flops}<br>Bytes: {bytes}"
                        "<br>Intensity: {intensity}<br>Bound: {bound}"
                        "<br>Attainable: {attainable}<br>Achieved: {achieved}"
                        "<br>Of ceiling: {fraction}<br>Verdict: {verdict}",
    "fig.kernel_hover_light": "<b>{name}</b><br>{intensity}{op}/B · {perf}{op}/s · of ceiling {fraction}",
}

ZH = {
    "fig.x_title": "算术强度（{op}/字节）",
    "fig.y_title": "性能（{op}/s）",
    "fig.x_title_mixed": "算术强度（FLOP/字节；INT8 为 OP/字节）",
    "fig.y_title_mixed": "性能（FLOP/s；INT8 为 OP/s）",
    "fig.memory_bound": "带宽受限：搬不过来",
    "fig.compute_bound": "算力受限：算不过来",
    "fig.ridge": "拐点",
    "fig.ridge_label": "拐点 {ridge}",
    "fig.ridge_hover": "拐点：{ridge}<br>屋顶：{peak}",
    "fig.roof_hover": "<b>{label}</b><br>屋顶：{peak}<br>斜坡：{bw}<br>拐点：{ridge}",
    "fig.gap": "距屋顶的差距",
    "fig.top_n": "耗时最多的 kernel",
    "fig.bound.memory": "带宽受限",
    "fig.bound.compute": "算力受限",
    "fig.bound.zero_flop": "零 FLOP（只搬数据）",
    "fig.zero_flop_strip": "零 FLOP 的 kernel：<br>高度 = 占带宽上限的比例",
    "fig.kernel_hover_zero": "<b>{name}</b><br>0 FLOP：只搬数据<br>字节：{bytes}"
                             "<br>实测带宽：{achieved}<br>占带宽上限：{fraction}"
                             "<br>结论：{verdict}",
    "fig.verdict.near_roof": "接近上限",
    "fig.verdict.below_roof": "低于上限",
    "fig.verdict.above_roof": "超过上限（请检查数字）",
    "fig.verdict.unmeasured": "未给时间（画在可达性能处）",
    "fig.kernel_hover": "<b>{name}</b><br>{op}：{flops}<br>字节：{bytes}"
                        "<br>算术强度：{intensity}<br>瓶颈：{bound}"
                        "<br>可达性能：{attainable}<br>实测性能：{achieved}"
                        "<br>占上限：{fraction}<br>结论：{verdict}",
    "fig.kernel_hover_light": "<b>{name}</b><br>{intensity}{op}/B · {perf}{op}/s · 占上限 {fraction}",
}
