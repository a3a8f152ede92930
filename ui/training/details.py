"""The Training page under its two columns: memory per GPU, "How this is computed" and the
takeaway, for the run the results column computed (ui.training.results)."""
from __future__ import annotations

import streamlit as st

from ui.frame import how_computed
from ui.training.how import training_formulas
from ui.training.memory import training_memory_section
from ui.training.takeaway import takeaway


def training_details(ctx, inp, out) -> None:
    """``out``: the results column's (run, FLOP count), None while an input is unreadable."""
    t = ctx.t
    if out is not None:
        run, tf = out
        st.divider()
        memory = training_memory_section(t, inp.model, n_gpus=inp.n_gpus, seq=inp.seq,
                                         recompute=inp.recompute,
                                         memory_bytes=ctx.device.memory_bytes if ctx.device else None)
        how_computed(t, [*training_formulas(t, inp, run, tf), *memory])
    takeaway(ctx, inp, out[0] if out else None)
