"""The model the Serving page plans for: the sidebar's model; with "Custom: parameters
only" (no KV cache without an architecture) the page says so and uses Qwen3 32B."""
from __future__ import annotations

import streamlit as st

from calc.models import ModelArch, load_models
from ui.state import set_value

DEFAULT_MODEL = "qwen3-32b"


@st.cache_resource(show_spinner=False)
def catalog() -> dict:
    """models.toml (the draft-model choices); {} when the file cannot be read."""
    try:
        return load_models()
    except Exception:  # noqa: BLE001 - the sidebar already reports a broken models file
        return {}


def _use_default() -> None:
    set_value("model", DEFAULT_MODEL)


def render_model(ctx) -> ModelArch:
    t = ctx.t
    arch = ctx.model
    if arch is None:
        arch = catalog()[DEFAULT_MODEL]
        st.info(t("serving.no_model", name=arch.name), icon=":material/info:")
        st.button(t("serving.use_default", name=arch.name), on_click=_use_default,
                  help=t("serving.use_default_help"), icon=":material/model_training:")
    st.caption(t("serving.model_caption", name=arch.name, source=arch.source))
    return arch
