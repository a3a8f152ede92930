"""The Serving page's answer: the headline metrics (GPUs for the rate, $/Mtok, J/token, the
bound) and the sizing table, one row per device × precision.  Numbers from
calc.serving.compare_candidates."""
from __future__ import annotations

import streamlit as st

from calc.currency import format_money
from calc.serving.plan import STEADY_STATE_LOAD_LIMIT
from calc.units import format_percent, format_si
from ui.figures.serving import candidate_label

COST_DECIMALS = 3            # $/Mtok is cents: 0.141


def money(amount, code) -> str:
    return "—" if amount is None else format_money(amount, code or "USD", decimals=COST_DECIMALS)


def joules(amount) -> str:
    return "—" if amount is None else format_si(amount, "J")


def layout_text(t, option) -> str:
    """'replicas 3 × TP2 at 77%' or 'prefill 3 × TP1 at 93% + decode 3 × TP1 at 81%': each
    pool and the share of its capacity it runs at (calc.serving.plan.PoolLayout.load)."""
    if option is None:
        return t("serving.none")
    parts = [t("serving.pool", role=t(f"serving.role.{p.role}"), n=p.instances, tp=p.tp,
               load="—" if p.load is None else format_percent(p.load, 0))
             for p in option.pools]
    return " + ".join(parts)


def near_capacity_text(t, option) -> str | None:
    """What a layout with a pool above the steady state's load limit says (None: it has
    headroom): an aggregated replica points to the simulator, a disaggregated option names
    its busiest pool."""
    if not option.near_capacity:
        return None
    limit = format_percent(STEADY_STATE_LOAD_LIMIT, 0)
    if option.mode == "aggregated":
        return t("serving.near_capacity", load=format_percent(option.load, 0), limit=limit)
    return t(f"serving.near_capacity.{option.busiest_pool.role}", load=format_percent(option.load, 0),
             limit=limit)


def headroom_text(t, option, max_load: float) -> str:
    """The caption under a headroom typed under Targets: the cap and where the answer runs."""
    cap = format_percent(max_load, 0)
    loads = {p.role: format_percent(p.load, 0) for p in option.pools}      # sized pools say theirs
    if option.mode == "disaggregated":
        return t("serving.headroom_pools", max_load=cap, prefill=loads["prefill"], decode=loads["decode"])
    return t("serving.headroom", max_load=cap, load=loads["aggregated"])


def no_layout_text(ctx, comp, inp) -> str:
    """Why no layout meets the targets: each target against the fastest any candidate
    reaches (calc.serving.Comparison.fastest), naming the target out of reach."""
    t = ctx.t
    f = comp.fastest()
    if f is None:
        return t("serving.no_layout")
    name = lambda c: candidate_label(t, ctx.devices[c.device_id].name_for(ctx.lang), c.precision, c.tp)
    parts = []
    if f.tpot_seconds > inp.tpot_target:
        parts.append(t("serving.no_layout.tpot", target=format_si(inp.tpot_target, "s"),
                       best=format_si(f.tpot_seconds, "s"), cand=name(f.tpot_candidate)))
    if f.ttft_seconds > inp.ttft_target:
        parts.append(t("serving.no_layout.ttft", target=format_si(inp.ttft_target, "s"),
                       best=format_si(f.ttft_seconds, "s"), cand=name(f.ttft_candidate)))
    if not parts:
        parts.append(t("serving.no_layout.both", tpot=format_si(inp.tpot_target, "s"),
                       ttft=format_si(inp.ttft_target, "s")))
    return " ".join([t("serving.no_layout"), *parts])


def render_answer(ctx, comp, inp) -> None:
    t = ctx.t
    best = comp.best
    st.subheader(t("serving.answer_heading"))
    if best is None:
        st.warning(no_layout_text(ctx, comp, inp), icon=":material/warning:")
        return
    o = best.option
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    c1.metric(t("serving.metric.gpus"), f"{o.gpus:,}", help=t("serving.metric.gpus_help"))
    c2.metric(t("serving.metric.cost"), money(best.economics.cost_per_mtok, inp.currency),
              help=t("serving.metric.cost_help"))
    c3.metric(t("serving.metric.energy"), joules(best.economics.joules_per_token_tdp),
              help=t("serving.metric.energy_help"))
    c4.metric(t("serving.metric.bound"), t(f"serving.bound.{o.bound}"), help=t("serving.metric.bound_help"))
    st.markdown(t("serving.best", device=ctx.devices[best.device_id].name_for(ctx.lang), prec=best.precision.upper(),
                  kv=best.kv.upper(), mode=t(f"serving.mode.{o.mode}"), layout=layout_text(t, o),
                  ttft=format_si(o.ttft_seconds, "s"), tpot=format_si(o.tpot_seconds, "s"),
                  stat=t(f"serving.stat.{inp.ttft_stat}"),
                  per_gpu=format_si(o.tokens_per_s_per_gpu, "tok/s"),
                  per_user=format_si(o.tokens_per_s_per_user, "tok/s")))
    near = near_capacity_text(t, o)
    if near:
        st.caption(near)
    if inp.max_load < 1.0:             # the headroom typed under Targets
        st.caption(headroom_text(t, o, inp.max_load))
    if best.price_source == "inferencex":
        st.caption(t("serving.price_inferencex"))


def render_table(ctx, comp, inp) -> None:
    t = ctx.t
    rows = []
    for s in comp.sized:
        for mode in inp.modes:
            o = getattr(s.deployment, mode)
            e = s.by_mode.get(mode)
            # the answer's columns first (GPUs, latency, throughput, cost), the layout and
            # the rest after them: a 1,400 px screen shows the cost without scrolling
            rows.append({
                t("serving.col.device"): ctx.devices[s.device_id].name_for(ctx.lang),
                t("serving.col.precision"): f"{s.precision.upper()} / KV {s.kv.upper()}",
                t("serving.col.mode"): t(f"serving.mode.{mode}"),
                t("serving.col.gpus"): "—" if o is None else f"{o.gpus:,}",
                t("serving.col.ttft", stat=t(f"serving.stat.{inp.ttft_stat}")):
                    "—" if o is None else format_si(o.ttft_seconds, "s"),
                t("serving.col.tpot"): "—" if o is None else format_si(o.tpot_seconds, "s"),
                t("serving.col.per_gpu"): "—" if o is None else format_si(o.tokens_per_s_per_gpu, "tok/s"),
                t("serving.col.cost"): money(e.cost_per_mtok if e else None, inp.currency),
                t("serving.col.energy"): joules(e.joules_per_token_tdp if e else None),
                t("serving.col.layout"): layout_text(t, o),
                t("serving.col.energy_all_in"): joules(e.joules_per_token_all_in if e else None),
                t("serving.col.bound"): "—" if o is None else t(f"serving.bound.{o.bound}"),
            })
    # the device stays in view while the table scrolls sideways
    st.dataframe(rows, hide_index=True, width="stretch",
                 column_config={t("serving.col.device"): st.column_config.TextColumn(pinned=True)})
    st.caption(t("serving.table_caption"))
    if comp.skipped:
        with st.expander(t("serving.skipped", n=len(comp.skipped))):
            for dev, p, tp, why in comp.skipped:
                st.markdown(t("serving.skipped_row", device=ctx.devices[dev].name_for(ctx.lang), prec=p.upper(),
                              tp=tp, why=t("serving.no_fit") if why == "no_fit" else why))
