"""Placeholder: the roofline page is being built."""
import streamlit as st

from ui.frame import page_frame

ctx = page_frame("roofline")
st.title(ctx.t("nav.roofline"))
