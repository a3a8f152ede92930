"""'How this is computed' for the Trace doctor: the definitions of calc.diagnosis with this
trace's numbers."""
from __future__ import annotations

from calc.diagnosis import TraceDiagnosis
from calc.units import format_percent, format_si
from ui.frame import how_computed, latex_text
from ui.i18n import Translator


def how_items(t: Translator, d: TraceDiagnosis) -> list[tuple[str, str]]:
    s = lambda x: latex_text(format_si(x, "s"))          # noqa: E731
    p = lambda x: latex_text(format_percent(x))          # noqa: E731
    return [
        (r"\text{busy} = \frac{|\bigcup_i [t_i, t_i + d_i) \cap W|}{|W|} = \frac{"
         + s(d.busy_seconds) + "}{" + s(d.window_seconds) + "} = " + p(d.busy_fraction),
         t("diagnosis.how.busy")),
        (r"\text{small} = \frac{\#\{d_i < " + s(d.small_kernel_threshold_seconds) + r"\}}{\#\text{kernels}} = \frac{"
         + f"{d.small_kernel_count:,}" + "}{" + f"{d.kernel_count:,}" + "} = "
         + p(d.small_kernel_count_share), t("diagnosis.how.small")),
        (r"\text{comm} = \frac{\sum_{\text{nccl}} d_i}{\sum_{\text{kernels}} d_i} = \frac{"
         + s(d.comm_seconds) + "}{" + s(d.kernel_seconds) + "} = " + p(d.comm_share)
         + r",\quad \text{exposed} = |\text{comm} \setminus \text{compute}| = "
         + s(d.exposed_comm_seconds), t("diagnosis.how.comm")),
        (r"\text{non-matmul} = 1 - \frac{T_{\text{matmul}} + T_{\text{attention}}}{T - T_{\text{comm}}} = "
         + p(d.non_matmul_share), t("diagnosis.how.non_matmul")),
        (r"\text{MFU}_{\text{step}} = \frac{6 N \cdot \text{tokens}_{\text{step}} / T_{\text{step}}}"
         r"{n_{\text{GPU}} \cdot \text{peak}},\quad \text{HFU} = \frac{(6N + 2N r)\,\text{tokens}/T}"
         r"{n_{\text{GPU}} \cdot \text{peak}}", t("diagnosis.how.mfu")),
    ]


def render_how(t: Translator, d: TraceDiagnosis) -> None:
    how_computed(t, how_items(t, d))
