"""The Roofline import report's line about the Trace doctor: how much of the trace's GPU
time the roofline placed, and that the diagnosis covers all of it (with a link)."""
from __future__ import annotations

import streamlit as st

from calc.diagnosis import roofline_coverage
from calc.units import format_percent, format_si
from ui import trace_session as S
from ui.i18n import Translator
from ui.pages import page_file

DOCTOR_PAGE = page_file("diagnosis")


def render_coverage(t: Translator, filename: str, report) -> None:
    """For a torch trace imported on the Roofline page (``report``: its ImportReport)."""
    session = st.session_state
    loaded = S.current(session)
    if loaded is None or loaded.source != "roofline" or loaded.filename != filename:
        st.caption(t("diagnosis.rl.no_gpu"))
        return
    try:
        d = S.diagnosis(session, loaded)
    except ValueError:
        st.caption(t("diagnosis.rl.no_gpu"))
        return
    several = len(d.devices) > 1          # the doctor diagnoses one GPU: compare on that one
    placed = report.placed_gpu_seconds_on(d.device) if several else report.placed_gpu_seconds
    st.info(t("diagnosis.rl.coverage_gpu" if several else "diagnosis.rl.coverage",
              placed=format_si(placed, "s"), share=format_percent(roofline_coverage(placed, d)),
              covered=format_si(d.covered_seconds, "s"), kernels=f"{d.kernel_count:,}",
              verdicts=len(d.verdicts), device=d.device, n_devices=len(d.devices)),
            icon=":material/troubleshoot:")
    st.page_link(DOCTOR_PAGE, label=t("diagnosis.rl.link"), icon=":material/troubleshoot:")
