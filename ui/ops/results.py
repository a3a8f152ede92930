"""The Model page's results: the step's totals (time per token and tokens/s for decode, the
time to first token for prefill), a sentence on where the time goes, every operator in a
table and its CSV, and a link to the Decode page with the same setup."""
from __future__ import annotations

import csv
import io

import streamlit as st

from calc.model_ops import ModelOps
from calc.units import format_si
from ui.ops.chart import operator_labels
from ui.ops.inputs import StepInputs
from ui.state import nav_query_params


def _tps(x: float) -> str:
    return format_si(x, "tok/s")


def render_totals(ctx, ops: ModelOps, inputs: StepInputs) -> None:
    t = ctx.t
    c1, c2, c3 = st.columns(3)
    if ops.phase == "decode":
        c1.metric(t("ops.metric.step"), format_si(ops.step_seconds, "s"), help=t("ops.metric.step_help"))
        c2.metric(t("ops.metric.decode_tps", batch=ops.batch), _tps(ops.tokens_per_sec),
                  help=t("ops.metric.decode_tps_help"))
        c3.metric(t("ops.metric.per_request"), _tps(ops.per_sequence_tokens_per_sec),
                  help=t("ops.metric.per_request_help"))
    else:
        c1.metric(t("ops.metric.ttft"), format_si(ops.step_seconds, "s"), help=t("ops.metric.ttft_help"))
        c2.metric(t("ops.metric.prefill_tps"), _tps(ops.tokens_per_sec),
                  help=t("ops.metric.prefill_tps_help"))
        c3.metric(t("ops.metric.whole"), format_si(ops.whole_step_seconds, "s"),
                  help=t("ops.metric.whole_help"))
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
                  "weights": inputs.weights, "kv_dtype": inputs.kv, "gpus": str(inputs.tp)}
        st.page_link("pages/4_Decode_speed.py", label=t("ops.decode_link"), icon=":material/bolt:",
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
        rows.append({
            t("ops.col.operator"): label,
            t("ops.col.layers"): t(f"ops.kind.{o.layer_kind}"),
            t("ops.col.count"): o.count,
            t("ops.col.flops"): format_si(o.flops, "FLOP"),
            t("ops.col.bytes"): format_si(o.bytes_moved, "B"),
            t("ops.col.intensity"): f"{o.intensity:.3g}",
            t("ops.col.bound"): t(f"fig.bound.{o.bound(p, bw)}") if o.flops > 0 else "—",
            t("ops.col.time"): format_si(ops.op_seconds(o), "s"),
            t("ops.col.share"): f"{ops.share(o):.1%}",
        })
    return rows


def operators_csv(ops: ModelOps) -> str:
    """The operators as CSV in SI base units (FLOP, bytes, seconds; share 0..1)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["operator", "layer_kind", "count", "flops", "bytes", "weight_bytes", "kv_bytes",
                "intensity_flop_per_byte", "bound", "seconds_each", "seconds_all", "share", "formula"])
    p, bw = ops.peak_flops, ops.mem_bw
    for o in ops.operators:
        w.writerow([o.key, o.layer_kind, o.count, repr(o.flops), repr(o.bytes_moved),
                    repr(o.weight_bytes), repr(o.kv_bytes), repr(o.intensity), o.bound(p, bw),
                    repr(o.seconds(p, bw)), repr(ops.op_seconds(o)), repr(ops.share(o)), o.formula])
    return out.getvalue()


def render_table(ctx, ops: ModelOps, model_name: str) -> None:
    t = ctx.t
    st.subheader(t("ops.table_heading"))
    st.dataframe(table_rows(t, ops), hide_index=True, width="stretch")
    stem = f"operators_{model_name}_{ops.phase}_b{ops.batch}_{ctx.device_id}_{ctx.precision}"
    st.download_button(t("ops.download_csv"), operators_csv(ops), file_name=f"{stem}.csv",
                       mime="text/csv", help=t("ops.download_help"), icon=":material/download:")
