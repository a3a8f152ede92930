"""The model the Model page draws: the sidebar's model (a catalog id or a pasted
config.json). With "Custom: parameters only" there is no architecture: say so and offer
the chapter's 7B model."""
from __future__ import annotations

import streamlit as st

from calc.models import ModelArch
from ui.state import set_value

DEFAULT_MODEL = "llama-2-7b"


def _use_default() -> None:
    set_value("model", DEFAULT_MODEL)


def render_model(ctx) -> ModelArch | None:
    """The sidebar's architecture and a caption with its shape and source, or None after
    explaining that this page needs one (with a button that picks Llama 2 7B)."""
    t = ctx.t
    arch = ctx.model
    if arch is None:
        st.info(t("ops.no_model"), icon=":material/info:")
        st.button(t("ops.use_default"), on_click=_use_default, help=t("ops.use_default_help"),
                  icon=":material/model_training:")
        return None
    moe = t("ops.model_caption_moe", experts=arch.n_experts, k=arch.experts_per_token) \
        if arch.is_moe else ""
    st.caption(t("ops.model_caption", name=arch.name, layers=arch.n_layers, d=arch.d_model,
                 heads=arch.n_heads, hd=arch.head_dim, kv=arch.n_kv_heads, moe=moe,
                 source=arch.source))
    return arch
