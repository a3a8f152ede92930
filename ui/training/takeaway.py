"""The Training page's closing "why this matters": the chapter's worked example until the
inputs can be read, then this run's own numbers (the defaults are the worked example)."""
from __future__ import annotations

from typing import Optional

import streamlit as st

from calc.currency import format_money, format_price
from calc.training import TrainingRun
from ui.numbers import format_count, format_duration, plural
from ui.training.inputs import TrainingInputs
from ui.widgets import format_quantity


def takeaway(ctx, inp: TrainingInputs, run: Optional[TrainingRun]) -> None:
    t = ctx.t
    st.divider()
    if run is None:
        st.markdown(t("training.takeaway_static"))
        return
    facts = {"params": format_quantity(inp.n_params), "tokens": format_quantity(run.n_tokens),
             "gpus": format_count(run.n_gpus), "device": ctx.device_label()}
    if run.compare_mfu == run.mfu:
        st.markdown(t("training.takeaway_same", **facts, mfu=inp.mfu_text,
                      time=format_duration(t, run.seconds),
                      hours=plural(t, "common.n_gpu_hours", run.gpu_hours)))
        return
    this = (run.mfu, inp.mfu_text, run.seconds)
    other = (run.compare_mfu, inp.compare_text, run.compare_seconds)
    lo, hi = sorted([this, other])
    text = t("training.takeaway", **facts, lo=lo[1], hi=hi[1], lo_time=format_duration(t, lo[2]),
             hi_time=format_duration(t, hi[2]), saved=format_duration(t, abs(run.saved_seconds)),
             hours=plural(t, "common.n_gpu_hours", abs(run.gain.gpu_hours)))
    text += " " + (t("training.takeaway_money", price=format_price(inp.price, inp.currency),
                     money=format_money(abs(run.gain.cost), inp.currency))
                   if run.cost is not None else t("training.takeaway_no_price"))
    st.markdown(text)
