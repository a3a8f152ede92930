"""The Training page's "How this is computed": the FLOP per token's formulas, then C, T,
GPU-hours, cost, GPUs for the deadline and the implied MFU with the record's numbers."""
from __future__ import annotations

from calc.currency import format_money, format_price
from calc.training import TrainingRun
from ui.formula import Formula, count, formula, si
from ui.model_sections import TrainingFlops
from ui.numbers import format_count, format_duration, format_exact
from ui.training.inputs import TrainingInputs
from ui.widgets import format_quantity, percent_text


def training_formulas(t, inp: TrainingInputs, run: TrainingRun, tf: TrainingFlops) -> list[Formula]:
    F, P, M = si(run.total_flops, "FLOP"), si(run.peak_flops, inp.rate), inp.mfu_text
    items = [
        *tf.formulas,
        formula(r"C = C_{\text{tok}}\,D = @fpt \times @tokens = @flops", t("arch.how.training_flops"),
                fpt=si(run.flops.model, "FLOP"), tokens=format_quantity(run.n_tokens), flops=F)
        if inp.model is not None else
        formula(r"C = 6\,N\,D = 6 \times @params \times @tokens = @flops", t("training.how.flops"),
                params=format_quantity(inp.n_params), tokens=format_quantity(run.n_tokens), flops=F),
        formula(r"\begin{aligned} T &= \frac{C}{n_{\text{GPU}} \times P_{\text{peak}} \times \text{MFU}}"
                r" \\ &= \frac{@flops}{@gpus \times @peak \times @mfu} = @secs = @days\end{aligned}",
                t("training.how.time"), flops=F, gpus=count(run.n_gpus), peak=P, mfu=M,
                secs=f"{run.seconds:,.0f} s", days=format_duration(t, run.seconds)),
        formula(r"\text{GPU·h} = \frac{C}{P_{\text{peak}} \times \text{MFU} \times 3600} = @hours",
                t("training.how.gpu_hours"), hours=format_count(run.gpu_hours)),
    ]
    if run.cost is not None:
        items.append(formula("@name = @hours \\times @price = @cost", t("training.how.cost"),
                             name=t("training.metric.cost"), hours=format_count(run.gpu_hours),
                             price=format_price(inp.price, inp.currency),
                             cost=format_money(run.cost, inp.currency)))
    if run.gpus_for_deadline is not None:
        items.append(formula(
            r"\begin{aligned} n_{\text{GPU}} &= \frac{C}{T_{\text{deadline}} \times P_{\text{peak}}"
            r" \times \text{MFU}} \\ &= \frac{@flops}{@deadline \times @peak \times @mfu} = @need"
            r"\end{aligned}", t("training.how.deadline"), flops=F,
            deadline=f"{run.deadline_days:,.4g} d", peak=P, mfu=M,
            need=format_exact(run.gpus_for_deadline)))
    if run.implied_mfu is not None:
        items.append(formula(r"\text{MFU} = \frac{C}{\text{GPU·h} \times 3600 \times P_{\text{peak}}}"
                             r" = \frac{@flops}{@hours \times 3600 \times @peak} = @mfu",
                             t("arch.how.implied_mfu"), flops=F, hours=count(run.published_gpu_hours),
                             peak=P, mfu=percent_text(t, run.implied_mfu)))
    return items
