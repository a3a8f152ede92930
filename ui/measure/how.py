"""'How this is computed' for the Measure page: (LaTeX, explanation) pairs."""
from __future__ import annotations


def how_items(t) -> list[tuple[str, str]]:
    return [
        (r"\text{bandwidth} = \frac{\text{bytes per call}}{t_{\text{best}}},\quad "
         r"\text{copy: } 2 \cdot n \cdot 8,\quad \text{triad: } 5 \cdot n \cdot 8",
         t("measure.how.bandwidth")),
        (r"\text{rate} = \frac{2 n^3}{t_{\text{best}}}", t("measure.how.gemm")),
        (r"\text{plateau}_k = \max_{\text{kernel}}\ \operatorname{median}_{C_{k-1} < W \le C_k/2}"
         r"\ \text{bandwidth}(W)", t("measure.how.plateau")),
        (r"\frac{\text{measured}}{\text{datasheet}}", t("measure.how.ratio")),
        (r"\text{attainable} = \min\left(\text{peak},\ I \times \text{bandwidth}_{\text{level}}\right),"
         r"\quad I = \frac{\text{FLOP}}{\text{bytes}}", t("measure.how.live")),
    ]
