"""Placeholder: the training page is being built."""
import streamlit as st

from ui.frame import page_frame

ctx = page_frame("training")
st.title(ctx.t("nav.training"))
