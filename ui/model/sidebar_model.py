"""The model the Model page draws: the sidebar's model (a catalog id or a pasted
config.json). A new visitor (no model in the URL, none picked in this session) opens the
page on the chapter's 7B model, selected in the sidebar; after an explicit "Custom:
parameters only" there is no architecture: say so and offer that model."""
from __future__ import annotations

import streamlit as st

from calc.models import ModelArch
from ui.model_picker import CUSTOM_MODEL, MODEL_KEY, chosen_in_session, picked_in_sidebar
from ui.state import kept, set_value

DEFAULT_MODEL = "llama-2-7b"
_OPENED_ON_DEFAULT = "_ops.opened_on_default"


def open_on_catalog_model() -> None:
    """Before the sidebar is drawn: a visitor who has not picked a model (the sidebar would
    show its default, "Custom: parameters only", which has no architecture to draw) gets
    DEFAULT_MODEL selected, so the page opens on a whole model instead of an empty page."""
    if chosen_in_session() or kept(MODEL_KEY) not in (None, CUSTOM_MODEL):
        return
    set_value(MODEL_KEY, DEFAULT_MODEL)
    st.session_state[_OPENED_ON_DEFAULT] = True


def _use_default() -> None:
    set_value("model", DEFAULT_MODEL)


def render_model(ctx) -> ModelArch | None:
    """The sidebar's architecture and a caption with its shape and source, or None after
    explaining that this page needs one (with a button that picks Llama 2 7B)."""
    t = ctx.t
    arch = ctx.model
    if arch is None:
        st.info(t("model.no_model"), icon=":material/info:")
        st.button(t("model.use_default"), on_click=_use_default, help=t("model.use_default_help"),
                  icon=":material/model_training:")
        return None
    if st.session_state.get(_OPENED_ON_DEFAULT) and arch.id == DEFAULT_MODEL and not picked_in_sidebar():
        st.caption(t("model.opened_on_default"))
    moe = t("model.model_caption_moe", experts=arch.n_experts, k=arch.experts_per_token) \
        if arch.is_moe else ""
    st.caption(t("model.model_caption", name=arch.name, layers=arch.n_layers, d=arch.d_model,
                 heads=arch.n_heads, hd=arch.head_dim, kv=arch.n_kv_heads, moe=moe,
                 source=arch.source))
    return arch
