"""The Model page's results: the step's totals (time per token and tokens/s for decode, the
time to first token for prefill), a sentence on where the time goes, every operator in a
table and its CSV, and a link to the Decode page with the same setup."""
from __future__ import annotations


import streamlit as st

from calc.csv_out import write_csv
from calc.decode import bytes_per_param
from calc.model_ops import ModelOps, memory_per_gpu
from calc.units import format_si
from ui.model.chart import operator_labels
from ui.model.inputs import StepInputs
from ui.pages import page_file
from ui.state import nav_query_params


DECODE_PAGE = page_file("decode")


def _tps(x: float) -> str:
    return format_si(x, "tok/s")


def render_totals(ctx, ops: ModelOps, inputs: StepInputs) -> None:
    """The headline numbers; when the step does not fit in memory, what it would need
    instead (as the Decode page: no throughput is headlined that the memory cannot hold)."""
    t = ctx.t
    need = memory_needed(ctx, ops, inputs)

    def show(value: str) -> str:
        return value if need is None else "—"

    c1, c2, c3 = st.columns(3)
    if need is not None:
        # it does not fit: the headline is the number that decides (memory per GPU); the
        # speeds are not headlined (the sentence under them says why), and no metric
        # value is a sentence ("needs 93.9 …" was cut three times)
        c1.metric(t("ops.metric.need"), format_si(need, "B"), help=t("ops.metric.need_help"))
        c1, c2 = c2, c3
        c3 = None
    if ops.phase == "decode":
        c1.metric(t("ops.metric.step"), show(format_si(ops.step_seconds, "s")),
                  help=t("ops.metric.step_help"))
        c2.metric(t("ops.metric.decode_tps", batch=ops.batch), show(_tps(ops.tokens_per_s)),
                  help=t("ops.metric.decode_tps_help"))
        if c3 is not None:
            c3.metric(t("ops.metric.per_request"), show(_tps(ops.per_sequence_tokens_per_s)),
                      help=t("ops.metric.per_request_help"))
    else:
        c1.metric(t("ops.metric.ttft"), show(format_si(ops.step_seconds, "s")),
                  help=t("ops.metric.ttft_help"))
        c2.metric(t("ops.metric.prefill_tps"), show(_tps(ops.tokens_per_s)),
                  help=t("ops.metric.prefill_tps_help"))
        if c3 is not None:
            c3.metric(t("ops.metric.whole"), show(format_si(ops.whole_step_seconds, "s")),
                      help=t("ops.metric.whole_help"))
    render_memory(ctx, ops, inputs)
    p, bw = ops.peak_flops, ops.mem_bw
    top = max(ops.operators, key=ops.op_seconds)
    labels = dict(zip(map(id, ops.operators), operator_labels(t, ops)))
    if ops.phase == "decode":
        mem = sum(ops.share(o) for o in ops.operators if o.bound(p, bw) == "memory")
        st.markdown(t("ops.summary_decode", weights=format_si(ops.weight_bytes, "B"),
                      kv=format_si(ops.kv_bytes, "B"), mem_share=f"{mem:.0%}",
                      top=labels[id(top)], top_share=f"{ops.share(top):.0%}"))
        st.caption(t("ops.whole_caption", whole=format_si(ops.whole_step_seconds, "s"),
                     tps=_tps(ops.batch / ops.whole_step_seconds)))
        params = {**nav_query_params(), "batch": str(ops.batch), "context": str(inputs.tokens),
                  "weights": inputs.weights, "kv_dtype": inputs.kv, "gpus": str(inputs.tp),
                  "kv": "true"}           # attention reads the KV cache: count it there too
        st.page_link(DECODE_PAGE, label=t("ops.decode_link"), icon=":material/bolt:",
                     query_params=params)
    else:
        cmp_ = sum(ops.share(o) for o in ops.operators if o.bound(p, bw) == "compute")
        st.markdown(t("ops.summary_prefill", flops=format_si(ops.flops, "FLOP"),
                      cmp_share=f"{cmp_:.0%}", top=labels[id(top)],
                      top_share=f"{ops.share(top):.0%}"))


def table_rows(t, ops: ModelOps) -> list[dict]:
    """One display row per operator (translated labels, SI text)."""
    p, bw = ops.peak_flops, ops.mem_bw
    rows = []
    for o, label in zip(ops.operators, operator_labels(t, ops)):
        # What a reader looks at first comes first: which operator, its share, its time, why.
        rows.append({
            t("ops.col.operator"): label,
            t("ops.col.share"): f"{ops.share(o):.1%}",
            t("ops.col.time"): format_si(ops.op_seconds(o), "s"),
            t("ops.col.bound"): t(f"fig.bound.{o.bound(p, bw)}") if o.flops > 0 else "—",
            t("ops.col.intensity"): f"{o.intensity:.3g}",
            t("ops.col.flops"): format_si(o.flops, "FLOP"),
            t("ops.col.bytes"): format_si(o.bytes_moved, "B"),
            t("ops.col.count"): o.count,
            t("ops.col.layers"): t(f"ops.kind.{o.layer_kind}"),
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
    st.subheader(t("ops.table_heading"))
    st.dataframe(table_rows(t, ops), hide_index=True, width="stretch")
    stem = f"operators_{model_name}_{ops.phase}_b{ops.batch}_{ctx.device_id}_{ctx.precision}"
    st.download_button(t("ops.download_csv"), operators_csv(ops), file_name=f"{stem}.csv",
                       mime="text/csv", help=t("ops.download_help"), icon=":material/download:")


def _memory(ctx, ops: ModelOps, inputs: StepInputs) -> tuple[float, float, float] | None:
    """(weights, KV cache, device memory) per GPU, or None when the device's memory is unknown."""
    mem = ctx.device.memory_bytes if ctx.device is not None else None
    if not mem:
        return None
    weights, kv = memory_per_gpu(ctx.model, batch=ops.batch, context=ops.context,
                                 weight_bytes=bytes_per_param(inputs.weights),
                                 kv_bytes=bytes_per_param(inputs.kv), tp=ops.tp)
    return weights, kv, mem


def memory_needed(ctx, ops: ModelOps, inputs: StepInputs) -> float | None:
    """Bytes per GPU the step needs when that is more than the GPU has, else None."""
    m = _memory(ctx, ops, inputs)
    return m[0] + m[1] if m is not None and m[0] + m[1] > m[2] else None


def render_memory(ctx, ops: ModelOps, inputs: StepInputs) -> None:
    """Whether one GPU holds its share of the weights and the batch's KV cache."""
    t = ctx.t
    m = _memory(ctx, ops, inputs)
    if m is None:
        return
    weights, kv, mem = m
    args = dict(weights=format_si(weights, "B"), kv=format_si(kv, "B"),
                total=format_si(weights + kv, "B"), mem=format_si(mem, "B"))
    if weights + kv <= mem:
        st.caption(t("ops.fits", **args))
    else:
        st.warning(t("ops.no_fit", **args), icon=":material/memory:")
