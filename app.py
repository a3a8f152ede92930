"""Roofline Lab: the entry point and home page.

Run with `streamlit run app.py`. The tool pages live in pages/ (Streamlit's
pages-directory mode; the page registry is ui.pages); the sidebar and navigation are
drawn by ui.frame. A list of sections; each is a function of ui.home.
"""
import streamlit as st

from ui.frame import page_frame
from ui.home.sections import render_live, render_questions, render_tools
from ui.learn.link import why_link

ctx = page_frame("home")
t = ctx.t

st.title(t("home.title"))
st.markdown(t("home.tagline"))

left, right = st.columns([1.05, 1], gap="large")
with left:
    render_questions(t)
with right:
    if render_live(ctx):
        why_link(t, 1)        # the ridge point
        why_link(t, 2)        # the intensity-2 ceiling

st.divider()
render_tools(t)
