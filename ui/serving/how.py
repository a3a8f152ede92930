"""The Serving page's definitions and 'How this is computed' (formulas from calc.serving)."""
from __future__ import annotations

import streamlit as st

from calc.parallel.network import (SCALE_OUT_EFFICIENCY, SCALE_OUT_LATENCY, SCALE_UP_EFFICIENCY,
                                   SCALE_UP_LATENCY)
from calc.units import format_percent, format_si
from ui.frame import how_computed


def network_terms() -> dict:
    """The estimate's network constants as the texts quote them (calc.parallel.network:
    Calculon's efficiencies and latencies per ring step), so no text carries a copy."""
    return dict(link_eff=format_percent(SCALE_UP_EFFICIENCY, 0), link_us=format_si(SCALE_UP_LATENCY, "s"),
                net_eff=format_percent(SCALE_OUT_EFFICIENCY, 0), net_us=format_si(SCALE_OUT_LATENCY, "s"))


def render_definitions(t) -> None:
    st.info(t("serving.definitions"), icon=":material/menu_book:")


def render_how(t) -> None:
    net = network_terms()
    how_computed(t, [
        (r"\text{KV budget} = M\,(1-r) - W_{\text{GPU}},\quad B_{\max} = \left\lfloor \frac{\text{KV budget}}{\mathrm{KV}(i+o)/s_{kv}} \right\rfloor",
         t("serving.how.budget")),
        (r"\begin{aligned} t(B,P) &= \max\!\left(\frac{W(B+P) + B\,\mathrm{KV}(c) + P\,kv}{\eta_{m}\,\mathrm{BW}},\ \frac{B(2N_a + A(c)) + P\,F_p}{\eta_c\,\mathrm{peak}}\right) + t_{\text{net}} + t_{\text{fixed}} \\ t_{\text{net}} &= 2L\left(\frac{2(t-1)}{t}\,\frac{(B+P)\,d\,a}{\eta_l\,\mathrm{link}} + 2(t-1)\,\alpha\right) \end{aligned}",
         t("serving.how.step", **net)),
        (r"a = \frac{B}{o},\ f = \min(a\,n_c,\,1),\ P = \max\!\left(\tfrac{n}{n_c},\,a\,n\right),\quad \mathrm{TPOT} = (1-f)\,t(B,0) + f\,t(B,P),\quad \mathrm{TTFT} = n_c\,t(B,P)",
         t("serving.how.mix")),
        (r"\begin{aligned} n_c = 1:\quad \mathrm{step} &= \sum_k p_k\, t\!\left(B,\, \min(k\,n,\ T-B)\right) + \text{carry},\quad"
         r" p_k = \mathrm{NegBin}\!\left(a,\ \tfrac{a}{1-u^2}\right)_{\!k},\ u = \frac{a\,s}{\mathrm{step}} \\"
         r" \mathrm{TPOT} &= \mathrm{step} + \frac{\mathrm{Cov}(B,t)}{B},\quad \rho = \frac{a\,\mathrm{Cov}(K,t)}{\mathrm{Var}(K)\,\mathrm{step}} \\"
         r" \mathrm{Cov}(B,t) &= \mathrm{Cov}(K,t)\,\frac{\rho\,(1-\rho^{o})}{1-\rho} + t_B\, o\, \mathrm{Var}(K)\,\frac{1+\rho}{1-\rho} \\"
         r" \mathrm{TTFT} &= \sum_j \mathrm{Poisson}(a/2)_j\; t\!\left(B,\,(j+1)\,n\right) \end{aligned}",
         t("serving.how.random")),
        (r"R = \frac{(1-f)\,t(B,0)^2 + f\,t(B,P)^2}{2\,\mathrm{step}},\quad S_w = \frac{n\,t(B,\,T-B)}{T-B},\quad"
         r"\overline{\mathrm{TTFT}} = \mathrm{TTFT} + R + \frac{\rho\,S_w}{2(1-\rho)},\ \rho = \lambda S_w",
         t("serving.how.agg_queue")),
        (r"r_p = \frac{k}{t_p(k\,n)},\quad r_d = \frac{B}{\mathrm{TPOT}\cdot o},\quad \frac{\text{tokens/s}}{\text{GPU}} = \frac{o}{t_p/r_p + t_d/r_d}",
         t("serving.how.disagg", **net)),
        (r"\begin{aligned} W_q &= \frac{C(c,\,\lambda S)\,S}{2\,(c-\lambda S)},\quad \overline{\mathrm{TTFT}} = S + W_q\quad"
         r"\left(c = 1:\ W_q = \frac{\rho\,S}{2(1-\rho)},\ \rho = \lambda S\right) \\"
         r" t_q &= \frac{W_q}{C}\,\ln\frac{C}{1-q},\quad \mathrm{TTFT}_q = S + t_q \end{aligned}", t("serving.how.queue")),
        (r"E = \frac{1-\alpha^{\gamma+1}}{1-\alpha}\quad(\alpha=0.8,\ \gamma=4:\ 3.36)", t("serving.how.spec")),
        (r"\$/\text{Mtok} = \frac{\$/\text{GPU-hour}}{\text{tokens/s per GPU}\times 3600/10^6},\quad \text{J/token} = \frac{W}{\text{tokens/s per GPU}}",
         t("serving.how.cost")),
    ], key="serving_how")
