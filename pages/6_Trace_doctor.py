"""Trace doctor: the seed chapter's reading of a PyTorch profiler trace, in numbers — the
verdicts first, then the GPU timeline, time by class, kernel durations, the top kernels,
and MFU per step.

Thin by design: layout and calls. Numbers come from calc.diagnosis; sections live in
ui.diagnosis.
"""
import streamlit as st

from ui.diagnosis.charts import render_breakdown, render_timeline
from ui.diagnosis.how import render_how
from ui.diagnosis.mfu import render_mfu
from ui.diagnosis.summary import render_gaps, render_numbers
from ui.diagnosis.tables import render_tables
from ui.diagnosis.upload import render_sample_button, render_upload
from ui.diagnosis.verdicts import render_verdicts
from ui.frame import page_frame
from ui.learn.link import why_link

ctx = page_frame("diagnosis")
t = ctx.t

st.title(t("diagnosis.title"))
st.markdown(t("diagnosis.intro"))
with st.expander(t("diagnosis.record_heading")):
    st.markdown(t("diagnosis.record_text"))
    st.code(t("diagnosis.record_code"), language="python")

d = render_upload(ctx)
if d is None:
    st.info(t("diagnosis.empty"), icon=":material/upload_file:")
    render_sample_button(t)
else:
    render_verdicts(t, d)
    why_link(t, 7)
    render_numbers(t, d)
    render_timeline(ctx, d)
    render_gaps(t, d)
    render_breakdown(ctx, d)
    render_tables(t, d)
    render_mfu(ctx, d)
    render_how(t, d)
