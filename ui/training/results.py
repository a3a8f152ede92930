"""The Training page's results: calc.training.training_run's record as it is — FLOP, days,
GPU-hours, cost, HFU (impossible above 100 %), days against MFU, the comparison, GPUs for a
deadline and the MFU a run's GPU-hours imply."""
from __future__ import annotations

from typing import Optional

import numpy as np
import streamlit as st

from calc.currency import format_money, format_price
from calc.training import TrainingRun, days_curve, training_run
from calc.units import format_si
from ui.figures.training import days_vs_mfu_figure
from ui.model_sections import TrainingFlops, flops_breakdown, training_flops
from ui.numbers import format_count, format_duration, format_exact, plural
from ui.training.inputs import MFU_STEPS, TrainingInputs, mfu_text
from ui.widgets import bound_checkbox, format_quantity, percent_text, quantity_input

MFU_GRID = np.array(MFU_STEPS[4:80])          # the chart's MFU axis: 5 % … 80 %


def deadline_input(t) -> Optional[float]:
    """The deadline field under its heading (drawn whether or not the run can be computed,
    so that a bad entry elsewhere never makes it disappear)."""
    st.subheader(t("training.deadline_heading"))
    return quantity_input(t, t("training.deadline_days"), "deadline_days", "30", kind="count",
                          help=t("training.deadline_days_help"))


def gpu_hours_input(t) -> Optional[float]:
    """The published GPU-hours field of the inverse (GPU-hours → MFU), under its heading."""
    st.subheader(t("arch.training.inverse_heading"))
    return quantity_input(t, t("arch.training.gpu_hours"), "gpu_hours", "", kind="count",
                          help=t("arch.training.gpu_hours_help"), placeholder="1.8M",
                          optional=True)


def ready(ctx, inp: TrainingInputs) -> bool:
    return ctx.ready and None not in (inp.n_params, inp.n_tokens, inp.n_gpus, inp.mfu) \
        and (inp.model is None or inp.seq is not None)


def _metrics(t, run: TrainingRun, inp: TrainingInputs) -> None:
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    c1.metric(t("training.metric.flops"), format_si(run.total_flops, "FLOP"),
              help=t("training.metric.flops_help"))
    c2.metric(t("training.metric.days"), format_duration(t, run.seconds),
              help=t("training.metric.days_help"))
    c3.metric(t("training.metric.gpu_hours"), format_count(run.gpu_hours),
              help=t("training.metric.gpu_hours_help"))
    if run.cost is not None:
        c4.metric(t("training.metric.cost"), format_money(run.cost, inp.currency),
                  help=t("training.metric.cost_help", price=format_price(inp.price, inp.currency)))
    else:
        c4.metric(t("training.metric.cost"), "—", help=t("training.metric.cost_none"))


def _hfu(t, run: TrainingRun, inp: TrainingInputs) -> None:
    args = dict(mfu=inp.mfu_text, hfu=percent_text(t, run.hfu),
                recompute=t(f"arch.recompute.{inp.recompute}"))
    if run.verdict == "hfu_impossible":
        st.error(t("training.hfu_over_100", **args), icon=":material/error:")
    elif inp.recompute != "none":
        st.caption(t("arch.training.hfu", **args))


def _chart(ctx, run: TrainingRun, inp: TrainingInputs) -> None:
    t = ctx.t
    log_y = bound_checkbox(t("training.log_y"), "logy", value=False, help=t("training.log_y_help"))
    grid_days = days_curve(run.flops, run.n_tokens, run.n_gpus, run.peak_flops, MFU_GRID)
    fig = days_vs_mfu_figure(t, MFU_GRID, grid_days, (run.mfu, run.days),
                             (run.compare_mfu, run.compare_days), log_y=log_y)
    st.plotly_chart(fig, config=ctx.chart_config("training_days_vs_mfu"), key="training_days_vs_mfu")


def _compare(t, run: TrainingRun, inp: TrainingInputs) -> None:
    if run.compare_mfu == run.mfu:
        st.info(t("training.compare_same"))
        return
    key = "training.compare_slower" if run.saved_seconds > 0 else "training.compare_faster"
    text = t(key, cmp=inp.compare_text, chosen=inp.mfu_text,
             cmp_time=format_duration(t, run.compare_seconds), time=format_duration(t, run.seconds),
             diff=format_duration(t, abs(run.saved_seconds)),
             hours=plural(t, "common.n_gpu_hours", abs(run.gain.gpu_hours)))
    if run.cost is not None:
        text += " " + t("training.compare_money", money=format_money(abs(run.gain.cost), inp.currency))
    st.info(text, icon=":material/payments:")


def _deadline(t, run: TrainingRun, inp: TrainingInputs) -> None:
    if run.gpus_for_deadline is None:
        return
    deadline_text = plural(t, "common.dur.days", run.deadline_days)     # as typed: "30 days"
    if run.gpus_for_deadline <= 1:
        # One GPU already meets the deadline: say so, with its own time.
        st.success(t("training.deadline_one", mfu=inp.mfu_text,
                     time=format_duration(t, run.one_gpu_seconds), deadline=deadline_text),
                   icon=":material/calculate:")
    else:
        st.success(t("training.deadline_result", deadline=deadline_text, mfu=inp.mfu_text,
                     gpus=plural(t, "common.n_gpus", run.gpus_for_deadline_whole),
                     exact=format_exact(run.gpus_for_deadline)), icon=":material/calculate:")


def _implied(t, run: TrainingRun) -> None:
    if run.implied_mfu is None:
        return
    msg = t("arch.training.implied", hours=f"{run.published_gpu_hours:,.0f}",
            mfu=percent_text(t, run.implied_mfu), tokens=format_quantity(run.n_tokens))
    if run.implied_verdict == "mfu_impossible":
        st.error(msg + " " + t("arch.training.implied_over"), icon=":material/error:")
    else:
        st.info(msg, icon=":material/history:")


def training_results(ctx, inp: TrainingInputs, why) -> Optional[tuple[TrainingRun, TrainingFlops]]:
    """Draw the results column; return the run's record and its FLOP count (None while an
    input is unreadable: the deadline and GPU-hours fields are still drawn).  ``why(t,
    lesson)``: the Learn link (ui.learn.link.why_link, passed by the page)."""
    t = ctx.t
    st.subheader(t("training.results_heading"))
    if not ready(ctx, inp):
        st.warning(t("common.missing_inputs"))
        deadline_input(t)
        gpu_hours_input(t)
        return None
    tf = training_flops(t, inp.model, n_params=inp.n_params, use_attn=False, n_layers=None,
                        hidden=None, seq=inp.seq, causal=inp.causal, recompute=inp.recompute)
    main = st.container()
    deadline = deadline_input(t)
    deadline_box = st.container()
    published = gpu_hours_input(t)
    implied_box = st.container()
    run = training_run(tf.flops, inp.n_tokens, inp.n_gpus, ctx.peak_flops, inp.mfu,
                       price_per_gpu_hour=inp.price, deadline_days=deadline,
                       published_gpu_hours=published, compare_mfu=inp.compare_mfu)
    with main:
        _metrics(t, run, inp)
        why(t, 4)
        if inp.model is not None:
            flops_breakdown(t, tf.flops)
        _hfu(t, run, inp)
        _chart(ctx, run, inp)
        _compare(t, run, inp)
    with deadline_box:
        _deadline(t, run, inp)
    with implied_box:
        _implied(t, run)
    return run, tf


__all__ = ["training_results", "deadline_input", "gpu_hours_input", "ready", "mfu_text"]
