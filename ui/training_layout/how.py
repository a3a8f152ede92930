"""'How this is computed' on the Training layout page: the chosen layout's terms with its
numbers substituted (ui.formula)."""
from __future__ import annotations

from calc.parallel import TrainingStep
from ui.formula import count, formula, si, text
from ui.frame import how_computed
from calc.units import format_percent


def render_how(ctx, step: TrainingStep) -> None:
    t = ctx.t
    sc = step.stage
    items = [
        formula(r"\bar\eta_{\text{GEMM}} = @eff,\quad "
                r"t = \max\!\left(\frac{F}{P\,\eta(F)}, \frac{\text{bytes}}{B\,\eta_{\text{mem}}}\right)",
                t("training_layout.how.gemm"), eff=text(format_percent(step.gemm_efficiency))),
        formula(r"F = @F,\quad B = @B,\quad W = @W", t("training_layout.how.fb", layers=sc.layers),
                F=si(step.forward_seconds, "s"), B=si(step.backward_seconds, "s"),
                W=si(step.weight_grad_seconds, "s")),
        formula(r"t_{\text{TP}} = m \cdot L_s \cdot 4 \cdot \frac{2(n-1)}{n}\cdot\frac{b\,s\,h\cdot 2}{B_{\text{link}}}"
                r" = @tp", t("training_layout.how.tp"), tp=si(step.tp_comm_seconds, "s")),
        formula(r"t_{\text{bubble}} = @bubble = @share \cdot t_{\text{step}},\quad p = @p,\ m = @m",
                t("training_layout.how.bubble"), bubble=si(step.bubble_seconds, "s"),
                share=text(format_percent(step.bubble_fraction)), p=count(step.pp),
                m=count(step.n_microbatches)),
        formula(r"t_{\text{DP}} = @dp,\quad t_{\text{DP, overlapped}} = @hidden", t("training_layout.how.dp"),
                dp=si(step.dp_comm_seconds, "s"), hidden=si(step.dp_comm_hidden_seconds, "s")),
        formula(r"t_{\text{step}} = m(F+B) + t_{\text{bubble}} + t_{\text{DP}} + t_{\text{opt}} = @step",
                t("training_layout.how.step"), step=si(step.step_seconds, "s")),
        formula(r"\text{MFU} = \frac{@fpt \times @tokens}{@step \times @gpus \times @peak} = @mfu",
                t("training_layout.how.mfu"), fpt=si(step.model_flops_per_token, "FLOP"),
                tokens=count(step.tokens_per_step), step=si(step.step_seconds, "s"),
                gpus=count(step.gpus), peak=si(step.peak_flops, "FLOP/s"),
                mfu=text(format_percent(step.mfu))),
    ]
    how_computed(t, items, key="tl_how")
