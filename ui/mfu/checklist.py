"""The MFU page's checklist: its heading names the run's band (or that the numbers are
impossible), then the chapter's six steps, the snippets and the trace-reading table."""
from __future__ import annotations

from typing import Optional

import streamlit as st

from calc.mfu import MeasuredMfu


def checklist_heading(t, rec: Optional[MeasuredMfu]) -> None:
    st.divider()
    if rec is None:
        key = "mfu.diag_heading"
    elif rec.verdict == "mfu_impossible":
        key = "mfu.diag_heading.impossible"
    else:
        key = f"mfu.diag_heading.{rec.band.key}"
    st.subheader(t(key))


def checklist(t, why) -> None:
    """The chapter's steps; ``why(t, lesson)`` links a step to its Learn lesson."""
    st.markdown(t("mfu.diag_intro"))
    for step in range(1, 7):
        st.markdown(t(f"mfu.diag.{step}"))
        if step == 2:
            st.code(t("mfu.snippet.random"), language="python")
            st.caption(t("mfu.diag.2_after"))
        if step == 4:
            st.code(t("mfu.snippet.profiler"), language="python")
    why(t, 6)
    st.subheader(t("mfu.trace_heading"))
    st.markdown(t("mfu.trace_table"))
    why(t, 7)
