"""Placeholder: the decode page is being built."""
import streamlit as st

from ui.frame import page_frame

ctx = page_frame("decode")
st.title(ctx.t("nav.decode"))
