"""The Serving page's simulator chart: TTFT (p50 and what the target holds for) and TPOT
(p50, p90) against the request rate
for the best aggregated layout's replica, where queueing starts (calc.serving.rate_sweep)."""
from __future__ import annotations

import streamlit as st

from calc.serving import Replica, RequestTooLongError, Workload, default_act, named_efficiency, rate_sweep
from calc.units import format_si
from ui.figures.serving import rate_figure

SWEEP = (0.2, 0.4, 0.6, 0.8, 0.9, 1.0, 1.15)
N_REQUESTS = 1000


@st.cache_data(show_spinner=False, max_entries=16)
def _sweep(_arch, arch_key: str, _device, device_id: str, tp: int, prec: str, kv: str,
           isl: float, osl: float, dist: str, spread: float, prefix: float, budget: int, eff: str,
           _spec, spec_key: str, overhead: float = 0.0):
    r = Replica(arch=_arch, device=_device, tp=tp, weights=prec, kv=kv, act=default_act(_device, prec))
    wl = Workload(isl=isl, osl=osl, distribution=dist, spread=spread, prefix_hit=prefix)
    return rate_sweep(r, wl, SWEEP, n_requests=N_REQUESTS, eff=named_efficiency(eff, overhead),
                      token_budget=budget, spec=_spec)


def render_queueing(ctx, arch, comp, inp) -> None:
    t = ctx.t
    st.subheader(t("serving.sim_heading"))
    best = next((s for s in sorted((s for s in comp.sized if s.deployment.aggregated is not None),
                                   key=lambda s: s.deployment.aggregated.gpus)), None)
    if best is None:
        st.info(t("serving.sim_none"), icon=":material/info:")
        return
    opt = best.deployment.aggregated
    tp = opt.pools[0].tp
    dev = ctx.devices[best.device_id]
    try:
        cap, sweep = _sweep(arch, repr(arch), dev, best.device_id, tp, best.precision, best.kv,
                            inp.isl, inp.osl, inp.distribution, inp.spread, inp.prefix_hit,
                            inp.token_budget, inp.efficiency, inp.spec, repr(inp.spec), inp.step_overhead)
    except RequestTooLongError as exc:       # a long tail of the length distribution
        st.warning(t("serving.sim_too_long", tokens=f"{exc.tokens:,.0f}",
                     need=format_si(exc.kv_bytes, "B"), budget=format_si(exc.budget_bytes, "B"),
                     tp=tp, device=dev.name_for(ctx.lang)), icon=":material/warning:")
        return
    if not sweep:
        st.info(t("serving.sim_none"), icon=":material/info:")
        return
    st.markdown(t("serving.sim_intro", device=dev.name_for(ctx.lang), prec=best.precision.upper(), tp=tp,
                  n=N_REQUESTS))
    if inp.spec is not None:           # every decode step of the simulation is a verification pass
        st.caption(t("serving.sim_spec", gamma=inp.spec.gamma, alpha=f"{inp.spec.alpha:g}",
                     tokens=f"{inp.spec.tokens_per_step:.2f}"))
    answer = comp.best
    if answer is not None and answer.option.mode != "aggregated":
        # the simulator runs one replica's continuous batching: say it is not the answer's layout
        st.caption(t("serving.sim_not_answer", mode=t(f"serving.mode.{answer.option.mode}").lower()))
    fig = rate_figure(t, cap, sweep, ttft_target=inp.ttft_target, tpot_target=inp.tpot_target,
                      ttft_stat=inp.ttft_stat)      # the TTFT the target holds for, beside p50
    st.plotly_chart(fig, config=ctx.chart_config("serving_rate"), key="serving_rate")
    st.caption(t("serving.sim_caption"))
