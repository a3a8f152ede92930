"""The Model page's inputs: phase, batch, prompt or context length, weight / activation /
KV precisions, tensor-parallel degree, attention kernel, and the measured-kernel overlay.

URL names (README, "Share links"): ``phase``, ``batch``, ``prompt``, ``context``,
``weights``, ``act``, ``kv_dtype``, ``tp``, ``attn_impl``, ``overlay``. ``batch``,
``prompt``, ``context``, ``weights`` and ``kv_dtype`` mean what they mean on the Decode
page and are kept across the two pages.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calc.decode import BYTES_PER_PARAM
from calc.model_ops import PHASES
from calc.models import ModelArch
from ui.state import bound
from ui.widgets import COUNT, bound_checkbox, bound_select, quantity_input

BATCH_OPTIONS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
WEIGHT_OPTIONS = ["bf16", "fp16", "fp8", "int8", "int4"]
ACT_OPTIONS = ["bf16", "fp16", "fp8", "fp32"]
KV_OPTIONS = ["bf16", "fp16", "fp8", "int8"]
ATTN_OPTIONS = ["flash", "unfused"]


@dataclass(frozen=True)
class StepInputs:
    """What the page computes for. tokens = prompt length (prefill) or context (decode)."""
    phase: str
    batch: int
    tokens: int | None
    weights: str
    act: str
    kv: str
    tp: int | None
    flash: bool
    overlay: bool

    @property
    def ok(self) -> bool:
        return self.tokens is not None and self.tp is not None


def _dtype(t, label_key: str, options: list[str], key: str, help_key: str) -> str:
    return bound_select(t(label_key), options, key,
                        format_func=lambda p: t("ops.dtype_label", name=p.upper(),
                                                bytes=f"{BYTES_PER_PARAM[p]:g}"),
                        help=t(help_key))


def render_inputs(t, arch: ModelArch) -> StepInputs:
    """Draw the inputs (in the current container) and return them."""
    phase = bound(st.radio, t("ops.phase"), list(PHASES), key="phase", index=1,
                  horizontal=True, format_func=lambda p: t(f"ops.phase.{p}"),
                  help=t("ops.phase_help"), is_valid=lambda v: v in PHASES)
    batch = bound(st.select_slider, t("ops.batch"), key="batch", options=BATCH_OPTIONS, value=1,
                  help=t("ops.batch_help"), is_valid=lambda v: v in BATCH_OPTIONS)
    if phase == "prefill":
        tokens = quantity_input(t, t("ops.prompt"), "prompt", "2048", kind="count", bounds=COUNT,
                                help=t("ops.prompt_help"), slider=(16, 131072))
    else:
        tokens = quantity_input(t, t("ops.context"), "context", "4096", kind="count",
                                bounds=COUNT, help=t("ops.context_help"), slider=(128, 2e6))
    weights = _dtype(t, "ops.weights", WEIGHT_OPTIONS, "weights", "ops.weights_help")
    act = _dtype(t, "ops.act", ACT_OPTIONS, "act", "ops.act_help")
    kv = _dtype(t, "ops.kv", KV_OPTIONS, "kv_dtype", "ops.kv_help")
    # A text field like the Training page's "tp" (the same name, kept across the pages).
    tp = quantity_input(t, t("ops.tp"), "tp", "1", kind="count", bounds=COUNT, help=t("ops.tp_help"))
    if tp is not None and (tp > arch.n_heads or arch.n_heads % tp):
        st.error(t("ops.tp_invalid", heads=arch.n_heads), icon=":material/warning:")
        tp = None
    attn = bound(st.radio, t("ops.attention"), ATTN_OPTIONS, key="attn_impl", index=0,
                 horizontal=True, format_func=lambda a: t(f"ops.attention.{a}"),
                 help=t("ops.attention_help"), is_valid=lambda v: v in ATTN_OPTIONS)
    overlay = bound_checkbox(t("ops.overlay"), "overlay", value=False, help=t("ops.overlay_help"))
    n = None if tokens is None else int(round(tokens))
    return StepInputs(phase, int(batch), n, weights, act, kv, None if tp is None else int(tp),
                      attn == "flash", overlay)
