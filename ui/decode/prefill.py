"""The Decode page's prefill section: the time-to-first-token bound of the prompt, the
per-token time after it, the prompt's FLOP and which bound applies
(:func:`calc.inference.prefill`, MLA in its non-absorbed prefill form)."""
from __future__ import annotations

import streamlit as st

from calc.inference import DecodeReport
from calc.units import format_si
from ui.decode.inputs import DecodeInputs


def render_prefill(ctx, inputs: DecodeInputs, r: DecodeReport) -> None:
    if r.prefill is None:
        return
    t, pf = ctx.t, r.prefill
    st.subheader(t("arch.decode.prefill_heading"))
    p1, p2, p3 = st.columns(3)
    p1.metric(t("arch.decode.ttft"), format_si(pf.seconds, "s"), help=t("arch.decode.ttft_help"))
    p2.metric(t("arch.decode.per_token"), format_si(r.step_1.seconds, "s"),
              help=t("arch.decode.per_token_help"))
    p3.metric(t("arch.decode.prefill_flops"), format_si(pf.flops, "FLOP"),
              help=t("arch.decode.prefill_flops_help"))
    st.caption(t(f"arch.decode.prefill_{pf.bound}", prompt=f"{inputs.prompt:,.0f}",
                 compute=format_si(pf.compute_seconds, "s"), memory=format_si(pf.memory_seconds, "s")))
