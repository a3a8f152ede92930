"""The Decode page's title, introduction, the seed's example button and the closing
takeaway."""
from __future__ import annotations

import streamlit as st

from ui.decode.inputs import seed_example


def render_header(ctx) -> None:
    t = ctx.t
    st.title(t("decode.title"))
    st.markdown(t("decode.intro"))
    st.button(t("decode.seed_button"), on_click=seed_example, help=t("decode.seed_button_help"),
              icon=":material/science:")


def render_takeaway(ctx) -> None:
    st.divider()
    st.markdown(ctx.t("decode.takeaway"))
