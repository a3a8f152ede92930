"""Live kernels: the user picks numpy operations and sizes; they run here, and their
points land on the measured roofline (FLOP and bytes from calc.kernels, through
measure.kernels; placement by calc.roofline.place_kernels)."""
from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd
import streamlit as st

from calc.hardware import Accelerator
from calc.roofline import place_kernels, verdict_decimals
from calc.units import format_percent, format_si
from measure import lock
from measure.device import device_id
from measure.kernels import (LIVE_DTYPES, LiveKernel, bandwidth_for, kernel_cost,
                             predicted_seconds, run_kernels)
from measure.system import CacheLevel
from ui.figures.measure import measured_translator
from ui.figures.roofline import KernelPoints, kernel_points
from ui.frame import PageContext
from ui.measure import state
from ui.measure.run_panel import busy_message
from ui.state import bound
from ui.widgets import Bounds, bound_checkbox, quantity_input

LIVE_BUDGET_S = 4.0
"""Seconds of samples for one live-kernel run (split over the kernels)."""
MAX_PREDICTED_S = 2.0
"""A kernel whose roofline floor is above this (s) is refused: the run stays short."""

_SIZE = Bounds(lo=2.0, lo_open=False, hi=1e9, integer=True)
_DEFAULTS = {"m_gemm_n": "1024", "m_gemv_m": "4096", "m_gemv_n": "4096", "m_add_n": "8M",
             "m_sum_n": "16M"}


def _caches(m, dev: Accelerator) -> tuple[CacheLevel, ...]:
    if m is not None:
        return m.host.caches
    return ()


def is_cpu_of(m, dev: Accelerator) -> bool:
    """True when `dev` is the CPU device of measurement `m` (numpy kernels belong there)."""
    return m is not None and dev.id == device_id("cpu", m.host.hostname) \
        and dev.date == m.started.strftime("%Y-%m-%dT%H:%M:%SZ")


def render_live_controls(ctx: PageContext, dev: Accelerator) -> None:
    t = ctx.t
    st.subheader(t("measure.live_heading"))
    st.markdown(t("measure.live_intro"))
    m = state.measurement()
    if not is_cpu_of(m, dev):
        st.info(t("measure.live_needs_cpu"), icon=":material/info:")
        return
    precision = bound(st.radio, t("measure.live_precision"), list(LIVE_DTYPES), key="m_dtype",
                      index=0, horizontal=True, format_func=lambda p: t(f"common.prec.{p}"),
                      help=t("measure.live_precision_help"), is_valid=lambda v: v in LIVE_DTYPES)
    todo: list[LiveKernel] = []
    errors = False
    cols = st.columns(4)
    specs = (("gemm", ("m_gemm_n",)), ("gemv", ("m_gemv_m", "m_gemv_n")), ("add", ("m_add_n",)),
             ("sum", ("m_sum_n",)))
    for col, (kind, keys) in zip(cols, specs):
        with col:
            on = bound_checkbox(t(f"measure.kind.{kind}"), f"m_{kind}", value=True,
                                help=t(f"measure.kind.{kind}_help"))
            sizes = [quantity_input(t, t(f"measure.size.{key}"), key, _DEFAULTS[key],
                                    help=t("measure.size_help"), bounds=_SIZE, kind="count")
                     for key in keys]
            if not on:
                continue
            if any(s is None for s in sizes):
                errors = True
                continue
            k = (LiveKernel(kind, precision, int(sizes[1]), m=int(sizes[0])) if kind == "gemv"
                 else LiveKernel(kind, precision, int(sizes[0])))
            try:
                cost = kernel_cost(k)
            except ValueError as exc:
                st.error(t("measure.kernel_too_big", message=str(exc)), icon=":material/warning:")
                errors = True
                continue
            secs = predicted_seconds(cost, dev.peak_flops(precision), dev.mem_bw)
            if secs > MAX_PREDICTED_S:
                st.error(t("measure.kernel_too_slow", label=cost.label, seconds=f"{secs:.1f}",
                           limit=f"{MAX_PREDICTED_S:g}"), icon=":material/warning:")
                errors = True
                continue
            st.caption(t("measure.kernel_cost", flops=format_si(cost.flops, "FLOP"),
                         bytes=format_si(cost.bytes_moved, "B"),
                         intensity=format_si(cost.intensity, "FLOP/B")))
            todo.append(k)
    holder = lock.holder()
    busy = holder is not None and holder.owner != state.owner()
    if busy:
        st.warning(busy_message(t, holder), icon=":material/hourglass_top:")
    clicked = st.button(t("measure.run_kernels"), key="measure_run_kernels", type="primary",
                        disabled=busy or errors or not todo, help=t("measure.run_kernels_help"),
                        icon=":material/play_arrow:")
    if clicked:
        bar = st.progress(0.0, text=t("measure.waiting"))
        try:
            with lock.exclusive(state.owner(), "kernels", LIVE_BUDGET_S):
                results = run_kernels(todo, LIVE_BUDGET_S,
                                      progress=lambda f, text: bar.progress(min(1.0, f), text=text))
        except lock.Busy as exc:
            st.warning(busy_message(t, exc.holder) if exc.holder else t("measure.busy_short"))
            return
        bar.progress(1.0, text=t("measure.done"))
        st.session_state[state.LIVE] = results


def placed(dev: Accelerator, m, results: list):
    """(placement, levels, bandwidths) of live results on `dev`'s measured roofs."""
    bandwidths = {"dram": dev.mem_bw, **{k.upper(): v for k, v in dev.cache_bw.items()}}
    lv = [bandwidth_for(r.cost.bytes_moved, _caches(m, dev), bandwidths) for r in results]
    placement = place_kernels(np.array([r.cost.flops for r in results]),
                              np.array([r.cost.bytes_moved for r in results]),
                              np.array([dev.peak_flops(r.kernel.precision) for r in results]),
                              np.array([bw for _, bw in lv]),
                              np.array([r.seconds for r in results]))
    return placement, [name for name, _ in lv], [bw for _, bw in lv]


def live_points(t, dev: Accelerator) -> Optional[KernelPoints]:
    """The session's live results as chart points on `dev` (None when there are none)."""
    results = state.live_results()
    m = state.measurement()
    if not results or not is_cpu_of(m, dev):
        return None
    placement, _, _ = placed(dev, m, results)
    return kernel_points(measured_translator(t), [r.cost.label for r in results], np.array([r.cost.flops for r in results]),
                         np.array([r.cost.bytes_moved for r in results]), placement,
                         labels=[str(i + 1) for i in range(len(results))])


def render_live_results(ctx: PageContext, dev: Accelerator) -> None:
    t = ctx.t
    results = state.live_results()
    m = state.measurement()
    if not results or not is_cpu_of(m, dev):
        return
    placement, levels, bws = placed(dev, m, results)
    rows = []
    for i, r in enumerate(results):
        level = t("measure.fig.dram") if levels[i] == "dram" else levels[i]
        rows.append({
            "#": i + 1,
            t("measure.col.kernel"): r.cost.label,
            t("measure.col.flops"): format_si(r.cost.flops, "FLOP"),
            t("measure.col.bytes"): format_si(r.cost.bytes_moved, "B"),
            t("measure.col.intensity"): format_si(r.cost.intensity, "FLOP/B"),
            t("measure.col.time_median"): format_si(r.timing.median, "s"),
            t("measure.col.time"): format_si(r.timing.best, "s"),
            t("measure.col.achieved"): format_si(r.achieved_flops, "FLOP/s"),
            t("measure.col.achieved_bw"): format_si(r.achieved_bw, "B/s"),
            t("measure.col.level"): f"{level} ({format_si(bws[i], 'B/s')})",
            t("measure.col.attainable"): format_si(float(placement.attainable_flops[i]), "FLOP/s"),
            t("measure.col.of_roof"): format_percent(float(placement.fraction_of_roof[i]),
                                                     verdict_decimals(float(placement.fraction_of_roof[i]))),
        })
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(t("measure.live_caption"))
