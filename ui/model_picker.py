"""The sidebar's Model choice: the catalog (models.toml), "Custom: parameters only" (the
seed's bare N, the default), or a pasted / uploaded Hugging Face config.json.

URL names: `model` (a catalog id, `config` for a pasted config; absent = custom) and
`mcfg` (the pasted architecture, compressed: calc.models.encode_arch). Both travel with the
navigation links. The model's facts (parameters, layers, heads, KV bytes per token, source)
are shown under the choice. Pages read `ctx.model` (a calc.models.ModelArch, or None for
custom).
"""
from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from calc.models import (DEFAULT_MODELS_PATH, ModelArch, ModelConfigError, ModelFileError,
                         attention_width, decode_arch, encode_arch, from_hf_config,
                         kv_bytes_per_token, load_models, param_counts)
from calc.units import format_si
from ui.i18n import Translator
from ui.state import bound, kept, remember, url_changed, write_url
from ui.widgets import format_quantity, uploader_note

CUSTOM_MODEL = "custom"
PASTED = "config"
MODEL_KEY = "model"
TOKEN_KEY = "mcfg"
_PASTED_STATE = "_model.pasted"        # the pasted ModelArch (not a widget key)
_PASTE_ERROR = "_model.paste_error"
_PASTE_OK = "_model.paste_ok"
_TOKEN_ERROR = "_model.token_error"
_CHOSEN = "_model.chosen"              # True once the user picked a model in this session

# Set ROOFLINE_LAB_MODELS to read another models file (tests, private models).
MODELS_ENV = "ROOFLINE_LAB_MODELS"


@st.cache_resource(show_spinner=False)
def _load_models_cached(path: str | None, mtime: float) -> dict[str, ModelArch]:
    return load_models(path)


def catalog() -> tuple[dict[str, ModelArch], str | None]:
    """Models from models.toml, or ({}, message) when the file is malformed."""
    path = os.environ.get(MODELS_ENV) or None
    try:
        target = Path(path) if path else DEFAULT_MODELS_PATH
        mtime = target.stat().st_mtime if target.exists() else 0.0
        return _load_models_cached(path, mtime), None
    except (ModelFileError, ValueError, OSError) as exc:
        return {}, str(exc)


def _mark_chosen() -> None:
    st.session_state[_CHOSEN] = True


def picked_in_sidebar() -> bool:
    """True once the visitor picked a model (any, "Custom" included) in the sidebar during
    this session."""
    return bool(st.session_state.get(_CHOSEN))


def chosen_in_session() -> bool:
    """True when the visitor picked a model in the sidebar during this session, or the URL
    names one (`model`, `mcfg`: a link, or a choice already made)."""
    return picked_in_sidebar() or MODEL_KEY in st.query_params or TOKEN_KEY in st.query_params


def pasted_model() -> ModelArch | None:
    return st.session_state.get(_PASTED_STATE)


def _set_pasted(arch: ModelArch) -> None:
    st.session_state[_PASTED_STATE] = arch
    token = encode_arch(arch)
    remember(TOKEN_KEY, token)
    write_url(TOKEN_KEY, token)


def _use_pasted_config() -> None:
    """Button callback: parse the pasted text (or the uploaded file) and select it."""
    st.session_state.pop(_PASTE_ERROR, None)
    upload = st.session_state.get("model_upload")
    text = st.session_state.get("model_paste") or ""
    name = None
    if upload is not None:
        text = upload.getvalue()          # bytes: calc.json_in reads the encoding
        name = Path(upload.name).stem
    if not text.strip():
        st.session_state[_PASTE_ERROR] = "empty"
        return
    try:
        arch = from_hf_config(text, id="pasted-config", name=name)
    except ModelConfigError as exc:
        st.session_state[_PASTE_ERROR] = str(exc)
        return
    _set_pasted(arch)
    st.session_state[MODEL_KEY] = PASTED
    remember(MODEL_KEY, PASTED)
    st.session_state[_PASTE_OK] = True


def _restore_pasted_from_url(sb, t: Translator) -> None:
    """A link (or a navigation link) carries `mcfg`: decode it once."""
    token = url_changed(TOKEN_KEY) or (None if pasted_model() else kept(TOKEN_KEY))
    if not token:
        return
    try:
        arch = decode_arch(token)
    except ModelConfigError as exc:
        st.session_state[_TOKEN_ERROR] = str(exc)      # shown until another model is chosen
        remember(TOKEN_KEY, None)
        write_url(TOKEN_KEY, None)
        return
    st.session_state.pop(_TOKEN_ERROR, None)
    st.session_state[_PASTED_STATE] = arch
    remember(TOKEN_KEY, token)
    write_url(TOKEN_KEY, token)


def model_picker(sb, t: Translator) -> tuple[str, ModelArch | None]:
    """Draw the Model section of the sidebar; return (choice id, ModelArch or None)."""
    sb.markdown(f"### {t('arch.heading')}")
    models, error = catalog()
    _restore_pasted_from_url(sb, t)
    pasted = pasted_model()
    dense = [mid for mid, a in models.items() if not a.is_moe]
    moe = [mid for mid, a in models.items() if a.is_moe]
    options = [CUSTOM_MODEL] + dense + moe + ([PASTED] if pasted is not None else [])

    def label(mid: str) -> str:
        if mid == CUSTOM_MODEL:
            return t("arch.custom")
        if mid == PASTED:
            return t("arch.pasted_option", name=pasted.name if pasted else "")
        a = models[mid]
        return t("arch.option_moe" if a.is_moe else "arch.option_dense", name=a.name)

    choice = bound(sb.selectbox, t("arch.label"), options, key=MODEL_KEY, index=0,
                   format_func=label, help=t("arch.help"),
                   is_valid=lambda v: v in options, on_change=_mark_chosen)
    if error:
        sb.error(t("arch.file_error", message=error), icon=":material/error:")
    if st.session_state.get(_TOKEN_ERROR):
        if choice == CUSTOM_MODEL:
            sb.error(t("arch.token_error", message=st.session_state[_TOKEN_ERROR]),
                     icon=":material/error:")
        else:
            st.session_state.pop(_TOKEN_ERROR, None)
    if choice == PASTED:
        arch = pasted
    elif choice == CUSTOM_MODEL:
        arch = None
    else:
        arch = models[choice]
    if choice != PASTED and pasted is None:
        write_url(TOKEN_KEY, None)
    if arch is not None:
        model_facts(sb, t, arch)
    else:
        sb.caption(t("arch.custom_caption"))
    _paste_box(sb, t)
    return choice, arch


def _paste_box(sb, t: Translator) -> None:
    with sb.expander(t("arch.paste_heading"), expanded=bool(st.session_state.get(_PASTE_ERROR))):
        st.caption(t("arch.paste_intro"))
        st.text_area(t("arch.paste_label"), key="model_paste", height=120,
                     help=t("arch.paste_help"), placeholder='{"model_type": "llama", ...}')
        st.file_uploader(t("arch.upload_label"), type=["json"], key="model_upload",
                         help=t("arch.upload_help"))
        uploader_note(t, ["json"])
        st.button(t("arch.paste_button"), on_click=_use_pasted_config,
                  help=t("arch.paste_button_help"), icon=":material/input:")
        problem = st.session_state.get(_PASTE_ERROR)
        if problem == "empty":
            st.warning(t("arch.paste_empty"))
        elif problem:
            st.error(t("arch.paste_error", message=problem), icon=":material/error:")
        elif st.session_state.pop(_PASTE_OK, False):
            st.success(t("arch.paste_ok"), icon=":material/check_circle:")


def model_facts(sb, t: Translator, arch: ModelArch) -> None:
    """Total / active parameters, layers, heads, attention width, KV bytes, source."""
    pc = param_counts(arch)
    wqk, _ = attention_width(arch)
    rows = [
        (t("arch.fact.total"), format_quantity(pc.total)),
        (t("arch.fact.active"), format_quantity(pc.active)),
        (t("arch.fact.layers"), f"{arch.n_layers:,}"),
        (t("arch.fact.heads"), t("arch.fact.heads_value", heads=arch.n_heads,
                                  kv=arch.n_kv_heads, hd=arch.head_dim)),
        (t("arch.fact.width"), t("arch.fact.width_value", width=f"{wqk:,}",
                                  d=f"{arch.d_model:,}")),
        (t("arch.fact.kv"), format_si(float(kv_bytes_per_token(arch, 2.0)), "B")),
    ]
    if arch.is_moe:
        rows.insert(2, (t("arch.fact.experts"), t(
            "arch.fact.experts_value", k=arch.experts_per_token, e=arch.n_experts,
            shared=arch.n_shared_experts, moe=arch.n_moe_layers, layers=arch.n_layers)))
    if arch.is_mla:
        rows.append((t("arch.fact.mla"), t("arch.fact.mla_value", r=arch.kv_lora_rank,
                                            rope=arch.qk_rope_head_dim)))
    if arch.sliding_window:
        rows.append((t("arch.fact.window"), t("arch.fact.window_value",
                                               w=f"{arch.sliding_window:,}",
                                               n=arch.n_sliding_layers, layers=arch.n_layers)))
    sb.markdown("\n".join("- " + t("common.fact.row", name=name, value=value) for name, value in rows))
    sb.caption(t("arch.fact.convention"))
    arch_notes = arch.notes_for(getattr(t, "lang", "en"))
    if arch_notes:
        with sb.expander(t("arch.notes")):
            st.text(arch_notes)
    sb.caption(t("common.source", source=arch.source))
