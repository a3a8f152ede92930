"""The Decode page's roofline: the decode step at batch 1 (and at the chosen batch) on one
GPU's roofline, and why decode MFU is low (intensity ÷ ridge), the batches that reach
1 % and 5 % MFU, and the MFU at the batch (none past the knee or when it does not fit)."""
from __future__ import annotations

import math

import streamlit as st

from calc.decode import batch1_decode_mfu
from calc.inference import DecodeReport
from calc.units import format_percent, format_si
from ui.decode.inputs import DecodeInputs
from ui.figures.decode import decode_roofline_figure


def _reach_text(t, r: DecodeReport) -> str:
    b1, b5 = r.mfu_reach
    if not math.isfinite(b5):
        return t("decode.reach_never", mfu=format_percent(r.step_1.mfu, 1))
    if b1 < 1:
        return t("decode.reach_b1", b5=f"{max(b5, 1):,.0f}")
    return t("decode.reach", b1=f"{b1:,.0f}", b5=f"{b5:,.0f}")


def _at_batch(t, inputs: DecodeInputs, r: DecodeReport) -> str:
    sb = r.step
    if inputs.batch == 1:
        return ""                                  # batch 1's MFU is already in the sentence
    if sb.fit is not None and not sb.fit.holds:
        return t("decode.at_batch_no_fit", batch=inputs.batch)
    if sb.bound == "compute":
        return t("decode.at_batch_knee_kv" if inputs.kv else "decode.at_batch_knee",
                 batch=inputs.batch, knee=f"{r.knee:,.0f}")
    return t("decode.at_batch", batch=inputs.batch, mfub=format_percent(sb.mfu, 1))


def render_roofline(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    t = ctx.t
    st.subheader(t("decode.roofline_heading"))
    roof = ctx.roof()
    steps = [r.step_1] if inputs.batch == 1 else [r.step_1, r.step]
    names = [t("decode.step_name", batch=b) for b in ([1] if inputs.batch == 1 else [1, inputs.batch])]
    # Parameters only: the hover gives the work per weight, so moving the parameters slider
    # leaves this figure identical and Streamlit keeps the chart (ui.figures.decode).
    fig = decode_roofline_figure(t, roof, names, [s.flops for s in steps], [s.bytes for s in steps],
                                 n_params=inputs.n_params if ctx.model is None else None)
    st.plotly_chart(fig, config=ctx.chart_config("decode_roofline"), key="decode_roofline")
    mfu1 = r.step_1.mfu
    st.markdown(t("decode.roofline_text_kv" if inputs.kv else "decode.roofline_text",
                  intensity=f"{r.step_1.intensity:.2g}", ridge=format_si(roof.ridge, roof.unit("/B")),
                  mfu1=format_percent(mfu1, 2 if mfu1 < 0.01 else 1), bpp=f"{inputs.bytes_per_param:g}",
                  rule=format_percent(batch1_decode_mfu(inputs.bytes_per_param, roof.ridge), 2),
                  reach=_reach_text(t, r), at_batch=_at_batch(t, inputs, r)))
