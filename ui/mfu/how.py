"""The MFU page's "How this is computed": the FLOP per token's formulas, then MFU, HFU and
the inverse with the record's numbers."""
from __future__ import annotations

from calc.mfu import MeasuredMfu
from ui.formula import Formula, count, formula, si
from ui.model_sections import TrainingFlops
from ui.widgets import percent_text


def mfu_formulas(t, rec: MeasuredMfu, tf: TrainingFlops, rate: str = "FLOP/s") -> list[Formula]:
    """``rate``: the peak's unit (OP/s at INT8, ui.mfu.inputs.MfuInputs.rate)."""
    shared = dict(fpt=si(rec.flops.model, "FLOP"), gpus=count(rec.n_gpus),
                  peak=si(rec.peak_flops, rate))
    tps = si(rec.tokens_per_s, "tok/s")
    return [
        *tf.formulas,
        formula(r"\begin{aligned}\text{MFU} &= \frac{C_{\text{tok}} \times \text{tok/s}}"
                r"{n_{\text{GPU}} \times P_{\text{peak}}} = \frac{@fpt \times @tps}{@gpus \times @peak}"
                r" \\ &= \frac{@achieved}{@peak} = @mfu\end{aligned}",
                t("mfu.how.mfu"), **shared, tps=tps,
                achieved=si(rec.achieved_flops_per_gpu, rate), mfu=percent_text(t, rec.mfu)),
        formula(r"\text{HFU} = \frac{C^{\text{HW}}_{\text{tok}} \times \text{tok/s}}"
                r"{n_{\text{GPU}} \times P_{\text{peak}}} = \frac{@hw \times @tps}{@gpus \times @peak}"
                r" = @hfu", t("arch.how.hfu"), hw=si(rec.flops.hardware, "FLOP"), tps=tps,
                gpus=shared["gpus"], peak=shared["peak"], hfu=percent_text(t, rec.hfu)),
        formula(r"\begin{aligned}\text{tok/s}_{\text{target}} &= \frac{\text{MFU}_{\text{target}}"
                r" \times n_{\text{GPU}} \times P_{\text{peak}}}{C_{\text{tok}}} \\"
                r" &= \frac{@target \times @gpus \times @peak}{@fpt} = @needed\end{aligned}",
                t("mfu.how.inverse"), **shared, target=f"{rec.target_mfu:.0%}",
                needed=si(rec.target_tokens_per_s, "tok/s")),
    ]
