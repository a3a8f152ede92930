"""Placeholder: the mfu page is being built."""
import streamlit as st

from ui.frame import page_frame

ctx = page_frame("mfu")
st.title(ctx.t("nav.mfu"))
