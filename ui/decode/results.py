"""The Decode page's results: the three metrics (a number each; a batch that does not fit
shows the memory it needs, and the sentence goes below), the headline, the MoE and
all-reduce notes, the batch chart with its knee, the memory fit and a measured speed.

Every number is a field of :class:`calc.inference.DecodeReport` (one GPU's bytes and
memory, the group's tokens/s); this module lays them out and does no arithmetic.
"""
from __future__ import annotations

import math

import streamlit as st

from calc.decode import achieved_bandwidth, bandwidth_utilisation
from calc.inference import DecodeReport, link_bw_one_way
from calc.placement import MEMORY_RESERVE
from calc.units import format_percent, format_si
from ui.decode.inputs import DecodeInputs
from ui.figures.decode import batch_figure
from ui.numbers import format_count, plural


def tps(x: float) -> str:
    return format_si(x, "tok/s")


def _holds(step) -> bool:
    return step.fit is None or bool(step.fit.holds)


def render_metrics(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    """Ceiling for one request, total and per request at the batch (or memory needed)."""
    t, s1, sb = ctx.t, r.step_1, r.step
    c1, c2, c3 = st.columns(3)
    if _holds(s1):
        c1.metric(t("decode.metric.bound"), tps(s1.tokens_per_s), help=t("decode.metric.bound_help"))
    else:
        c1.metric(t("decode.metric.needs", batch=1), format_si(s1.memory_per_gpu, "B"),
                  help=t("decode.metric.needs_help"))
    if _holds(sb):
        c2.metric(t("decode.metric.throughput", batch=inputs.batch), tps(sb.tokens_per_s),
                  help=t("decode.metric.throughput_help"))
        c3.metric(t("decode.metric.per_request", batch=inputs.batch),
                  tps(sb.tokens_per_s_per_request), help=t("decode.metric.per_request_help"))
    else:
        c2.metric(t("decode.metric.needs", batch=inputs.batch), format_si(sb.memory_per_gpu, "B"),
                  help=t("decode.metric.needs_help"))
        c3.metric(t("decode.metric.has"), format_si(sb.fit.capacity_bytes, "B"),
                  help=t("decode.metric.needs_help"))
        st.caption(t("decode.no_fit_batch", batch=inputs.batch,
                     need=format_si(sb.memory_per_gpu, "B"),
                     mem=format_si(sb.fit.capacity_bytes, "B")))


def render_headline(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    """The ceiling's arithmetic in one sentence, what one GPU holds under tensor
    parallelism, the experts a batch routes to and the all-reduce time."""
    t, s1, sb, arch = ctx.t, r.step_1, r.step, inputs.arch
    if not _holds(s1):
        st.error(t("decode.headline_no_fit", need=format_si(s1.memory_per_gpu, "B"),
                   mem=format_si(s1.fit.capacity_bytes, "B")), icon=":material/error:")
    elif inputs.from_model:
        st.info(t("arch.decode.headline", bw=format_si(s1.mem_bw, "B/s"),
                  read=format_si(s1.weight_bytes, "B"), kv=format_si(s1.kv_bytes, "B"),
                  bound=tps(s1.tokens_per_s), weights=inputs.weights.upper(),
                  total=format_si(s1.placement.weight_bytes, "B")), icon=":material/bolt:")
    elif inputs.kv:
        st.info(t("decode.headline_kv", bw=format_si(s1.mem_bw, "B/s"),
                  model=format_si(s1.weight_bytes, "B"), kv=format_si(s1.kv_bytes, "B"),
                  bound=tps(s1.tokens_per_s), weights=inputs.weights.upper(),
                  without=tps(r.weights_only_1.tokens_per_s)), icon=":material/bolt:")
    else:
        st.info(t("decode.headline", bw=format_si(s1.mem_bw, "B/s"),
                  model=format_si(s1.weight_bytes, "B"), bound=tps(s1.tokens_per_s),
                  weights=inputs.weights.upper()), icon=":material/bolt:")
    pl = s1.placement
    if pl.tp > 1:
        key = "decode.per_gpu_mla" if arch.is_mla else (
            "decode.per_gpu_copies" if pl.kv_copies > 1 else "decode.per_gpu")
        st.caption(t(key, gpus=plural(t, "common.n_gpus", pl.tp), tp=pl.tp, split=pl.kv_split,
                     copies=format_count(pl.kv_copies)))
    if arch.is_moe:
        st.caption(t("arch.decode.moe" if inputs.batch > 1 else "arch.decode.moe_b1",
                     batch=inputs.batch, d=f"{sb.distinct_experts:.1f}",
                     d1=f"{s1.distinct_experts:g}", e=arch.n_experts,
                     read=format_si(sb.weight_bytes, "B"),
                     total=format_si(pl.weight_bytes, "B")))
    if inputs.tp_comm and pl.tp > 1:
        dev = ctx.device
        if dev is not None and dev.interconnect_bytes_per_s:
            st.caption(t("arch.decode.comm", time=format_si(sb.comm_seconds, "s"), gpus=f"{pl.tp:,}",
                         link=format_si(link_bw_one_way(dev.interconnect_bytes_per_s), "B/s")))
        else:
            st.caption(t("arch.decode.comm_unknown"))


def render_batch_chart(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    """Throughput and per-request speed against batch, the knee and the largest batch."""
    t, sb = ctx.t, r.step
    fig = batch_figure(t, r.curve_batches, r.curve.tokens_per_s, r.curve.tokens_per_s_per_request,
                       knee=r.knee, current=(inputs.batch, sb.tokens_per_s,
                                             sb.tokens_per_s_per_request), max_fit=r.max_fit)
    st.plotly_chart(fig, config=ctx.chart_config("decode_batch"), key="decode_batch")
    if r.knee_step is not None:
        st.markdown(t("decode.knee_text", knee=f"{r.knee:,.0f}", thr=tps(r.knee_step.tokens_per_s),
                      per=tps(r.step_1.tokens_per_s)))
    else:
        st.markdown(t("decode.knee_never"))


def render_memory_fit(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    """One GPU's weights + its share of the batch's KV cache against its memory, by the one
    rule (calc.placement.memory_fit), and the largest batch that fits."""
    t, sb = ctx.t, r.step
    if sb.fit is None:
        st.caption(t("decode.memory_unknown"))
        return
    pl = sb.placement
    kv = format_si(pl.kv_bytes, "B") if inputs.kv else t("decode.kv_not_counted")
    args = dict(model=format_si(pl.weight_bytes, "B"), kv=kv,
                total=format_si(pl.total_bytes, "B"), mem=format_si(sb.fit.capacity_bytes, "B"),
                gpus=plural(t, "common.n_gpus", pl.tp), reserve=format_percent(MEMORY_RESERVE, 0))
    if sb.fit.verdict == "fits":
        st.success(t("decode.fits", **args), icon=":material/check_circle:")
    elif sb.fit.verdict == "tight":
        st.warning(t("decode.fits_tight", **args), icon=":material/warning:")
    else:
        st.error(t("decode.no_fit", **args), icon=":material/error:")
    if inputs.kv and r.max_fit is not None and math.isfinite(r.max_fit):
        st.caption(t("decode.max_fit", batch=f"{r.max_fit:,.0f}",
                     kv=format_si(pl.kv_bytes_per_seq, "B"))
                   if r.max_fit >= 1 else t("decode.max_fit_none"))


def render_measured(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    """A measured decode speed (whole batch) turned into one GPU's achieved bandwidth and
    its share of the bound (calc.decode.achieved_bandwidth, bandwidth_utilisation)."""
    if inputs.measured is None:
        return
    t, sb = ctx.t, r.step
    ach = achieved_bandwidth(inputs.measured, sb.weight_bytes, inputs.batch, sb.kv_bytes)
    mbu = bandwidth_utilisation(ach, sb.mem_bw)
    msg = t("decode.measured_result", measured=tps(inputs.measured), ach=format_si(ach, "B/s"),
            bw=format_si(sb.mem_bw, "B/s"), mbu=format_percent(mbu, 0))
    if mbu > 1.0:
        st.error(t("decode.measured_over", result=msg), icon=":material/error:")
    else:
        st.info(t("decode.measured_advice", result=msg), icon=":material/speed:")
