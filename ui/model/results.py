"""The Model page's results: the step's totals (time per token and tokens/s for decode, the
time to first token for prefill), a sentence on where the time goes, every operator in a
table and its CSV, and a link to the Decode page with the same setup."""
from __future__ import annotations


import streamlit as st

from calc.csv_out import write_csv
from dataclasses import dataclass

from calc.decode import bytes_per_param
from calc.inference import DecodeStep, Prefill, decode_step, prefill
from calc.model_ops import ModelOps
from calc.placement import MemoryFit, Placement, memory_fit, place
from calc.units import format_percent, format_si
from ui.model.chart import operator_labels
from ui.model.inputs import StepInputs
from ui.pages import page_file
from ui.state import nav_query_params


DECODE_PAGE = page_file("decode")


def _tps(x: float) -> str:
    return format_si(x, "tok/s")


@dataclass(frozen=True)
class ModelAnswer:
    """The step's headline numbers from calc.inference (the same records as the Decode page
    and Plans): ``step`` for decode or ``prefill`` for prefill, and what one GPU holds
    (``placement``) against its memory by the one rule (``fit``, None when unknown)."""
    step: DecodeStep | None
    prefill: Prefill | None
    placement: Placement
    fit: MemoryFit | None


def model_answer(ctx, arch, inputs: StepInputs) -> ModelAnswer:
    """The Model page's one call into calc.inference for its headline (tests use it)."""
    mem = ctx.device.memory_bytes if ctx.device is not None else None
    w, kv = bytes_per_param(inputs.weights), bytes_per_param(inputs.kv)
    if inputs.phase == "decode":
        s = decode_step(arch, float(inputs.batch), inputs.tokens, peak_flops=ctx.peak_flops,
                        mem_bw=ctx.mem_bw, memory_bytes=mem, tp=inputs.tp, bytes_per_param=w,
                        kv_bytes_per_elem=kv)
        return ModelAnswer(s, None, s.placement, s.fit)
    pf = prefill(arch, inputs.tokens, peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw, tp=inputs.tp,
                 bytes_per_param=w, batch=inputs.batch)
    pl = place(arch, inputs.tp, 1, w, kv, inputs.tokens, inputs.batch)
    return ModelAnswer(None, pf, pl, memory_fit(pl.total_bytes, mem))


def render_totals(ctx, ops: ModelOps, inputs: StepInputs) -> None:
    """The headline numbers (calc.inference's records, as on the Decode page and Plans);
    when the step does not fit in memory, the memory it needs and the GPU's, with the
    sentence below; the operator sum of the table as a caption."""
    t = ctx.t
    ans = model_answer(ctx, ctx.model, inputs)
    c1, c2, c3 = st.columns(3)
    if ans.fit is not None and not ans.fit.holds:
        c1.metric(t("decode.metric.needs", batch=ops.batch), format_si(ans.placement.total_bytes, "B"),
                  help=t("decode.metric.needs_help"))
        c2.metric(t("decode.metric.has"), format_si(ans.fit.capacity_bytes, "B"),
                  help=t("decode.metric.needs_help"))
    elif ans.step is not None:
        c1.metric(t("model.metric.step"), format_si(ans.step.seconds, "s"), help=t("model.metric.step_help"))
        c2.metric(t("model.metric.decode_tps", batch=ops.batch), _tps(ans.step.tokens_per_s),
                  help=t("model.metric.decode_tps_help"))
        c3.metric(t("model.metric.per_request"), _tps(ans.step.tokens_per_s_per_request),
                  help=t("model.metric.per_request_help"))
    else:
        c1.metric(t("model.metric.ttft"), format_si(ans.prefill.seconds, "s"),
                  help=t("model.metric.ttft_help"))
        c2.metric(t("model.metric.prefill_tps"), _tps(ans.prefill.tokens_per_s),
                  help=t("model.metric.prefill_tps_help"))
        c3.metric(t("model.metric.whole"), format_si(ops.step_seconds, "s"),
                  help=t("model.metric.whole_help"))
    render_memory(ctx, ans)
    p, bw = ops.peak_flops, ops.mem_bw
    top = max(ops.operators, key=ops.op_seconds)
    labels = dict(zip(map(id, ops.operators), operator_labels(t, ops)))
    if ops.phase == "decode":
        mem = sum(ops.share(o) for o in ops.operators if o.bound(p, bw) == "memory")
        st.markdown(t("model.summary_decode", weights=format_si(ops.weight_bytes, "B"),
                      kv=format_si(ops.kv_bytes, "B"), mem_share=format_percent(mem, 0),
                      top=labels[id(top)], top_share=format_percent(ops.share(top), 0)))
        st.caption(t("model.whole_caption", whole=format_si(ops.step_seconds, "s"),
                     tps=_tps(ops.tokens_per_s)))
        params = {**nav_query_params(), "batch": str(ops.batch), "context": str(inputs.tokens),
                  "weights": inputs.weights, "kv_dtype": inputs.kv, "tp": str(inputs.tp)}
        st.page_link(DECODE_PAGE, label=t("model.decode_link"), icon=":material/bolt:",
                     query_params=params)
    else:
        cmp_ = sum(ops.share(o) for o in ops.operators if o.bound(p, bw) == "compute")
        st.markdown(t("model.summary_prefill", flops=format_si(ops.flops, ctx.op()),
                      cmp_share=format_percent(cmp_, 0), top=labels[id(top)],
                      top_share=format_percent(ops.share(top), 0)))


def table_rows(t, ops: ModelOps, op: str = "FLOP") -> list[dict]:
    """One display row per operator (translated labels, SI text); ``op`` is what the roof
    counts, "FLOP" or "OP" (INT8: calc.hardware.rate_unit)."""
    p, bw = ops.peak_flops, ops.mem_bw
    rows = []
    for o, label in zip(ops.operators, operator_labels(t, ops)):
        # What a reader looks at first comes first: which operator, its share, its time, why.
        rows.append({
            t("model.col.operator"): label,
            t("model.col.share"): format_percent(ops.share(o), 1),
            t("model.col.time"): format_si(ops.op_seconds(o), "s"),
            t("model.col.bound"): t(f"fig.bound.{o.bound(p, bw)}") if o.flops > 0 else "—",
            t("model.col.intensity", op=op): f"{o.intensity:.3g}",
            t("model.col.flops", op=op): format_si(o.flops, op),
            t("model.col.bytes"): format_si(o.bytes_moved, "B"),
            t("model.col.count"): o.count,
            t("model.col.layers"): t(f"model.kind.{o.layer_kind}"),
        })
    return rows


def operators_csv(ops: ModelOps) -> str:
    """The operators as CSV in SI base units (FLOP, bytes, seconds; share 0..1), through
    the one CSV writer (calc.csv_out: exact floats, formula-looking text escaped)."""
    p, bw = ops.peak_flops, ops.mem_bw
    header = ["operator", "layer_kind", "count", "flops", "bytes", "weight_bytes", "kv_bytes",
              "intensity_flop_per_byte", "bound", "seconds_each", "seconds_all", "share", "formula"]
    rows = ([o.key, o.layer_kind, o.count, float(o.flops), float(o.bytes_moved),
             float(o.weight_bytes), float(o.kv_bytes), float(o.intensity), o.bound(p, bw),
             float(o.seconds(p, bw)), float(ops.op_seconds(o)), float(ops.share(o)), o.formula]
            for o in ops.operators)
    return write_csv(header, rows, exact_floats=True)


def render_table(ctx, ops: ModelOps, model_name: str) -> None:
    t = ctx.t
    st.subheader(t("model.table_heading"))
    st.dataframe(table_rows(t, ops, ctx.op()), hide_index=True, width="stretch")
    stem = f"operators_{model_name}_{ops.phase}_b{ops.batch}_{ctx.device_id}_{ctx.precision}"
    # the CSV is built when the button is pressed, not on every slider step
    st.download_button(t("model.download_csv"), lambda: operators_csv(ops), file_name=f"{stem}.csv",
                       mime="text/csv", help=t("model.download_help"), icon=":material/download:",
                       on_click="ignore")


def render_memory(ctx, ans: ModelAnswer) -> None:
    """Whether one GPU holds its share of the weights and the batch's KV cache (the one
    memory rule, calc.placement.memory_fit)."""
    t = ctx.t
    if ans.fit is None:
        return
    pl = ans.placement
    args = dict(weights=format_si(pl.weight_bytes, "B"), kv=format_si(pl.kv_bytes, "B"),
                total=format_si(pl.total_bytes, "B"), mem=format_si(ans.fit.capacity_bytes, "B"),
                reserve=format_percent(ans.fit.reserve_fraction, 0))
    if ans.fit.verdict == "fits":
        st.caption(t("model.fits", **args))
    elif ans.fit.verdict == "tight":
        st.warning(t("model.tight", **args), icon=":material/memory:")
    else:
        st.warning(t("model.no_fit", **args), icon=":material/memory:")
