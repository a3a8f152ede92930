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
from ui import live
from ui.state import bound
from ui.widgets import COUNT, batch_input, bound_checkbox, bound_select, quantity_input, tp_input

WEIGHT_OPTIONS = ["bf16", "fp16", "fp8", "int8", "int4"]
ACT_OPTIONS = ["bf16", "fp16", "fp8", "fp32"]
KV_OPTIONS = ["bf16", "fp16", "fp8", "int8"]
ATTN_OPTIONS = ["flash", "unfused"]


@dataclass(frozen=True)
class StepInputs:
    """What the page computes for. tokens = prompt length (prefill) or context (decode)."""
    phase: str
    batch: int | None
    tokens: int | None
    weights: str
    act: str
    kv: str
    tp: int | None
    flash: bool
    overlay: bool

    @property
    def ok(self) -> bool:
        return None not in (self.tokens, self.tp, self.batch)


def _dtype(t, label_key: str, options: list[str], key: str, help_key: str) -> str:
    return bound_select(t(label_key), options, key,
                        format_func=lambda p: t("model.dtype_label", name=p.upper(),
                                                bytes=f"{BYTES_PER_PARAM[p]:g}"),
                        help=t(help_key))


def step_inputs(*, phase: str, batch: int | None, prompt: float | None, context: float | None,
                weights: str, act: str, kv: str, tp: int | None, attn: str, overlay: bool) -> StepInputs:
    """The page's record from its fields (ui.live.record: a full run and a live press build
    it here): the step's tokens are the prompt (prefill) or the context (decode)."""
    tokens = prompt if phase == "prefill" else context
    return StepInputs(phase, batch, None if tokens is None else int(round(tokens)), weights, act,
                      kv, tp, attn == "flash", bool(overlay))


# The batch and the prompt / context sliders are live fields (ui.live): moving one reruns it
# and the results only; each returns its field of step_inputs by name.
@live.field("model", "batch")
def _batch_field(t) -> int | None:
    return batch_input(t, t("model.batch"), help=t("model.batch_help"))


@live.field("model", "prompt")
def _prompt_field(t) -> float | None:
    return quantity_input(t, t("model.prompt"), "prompt", "2048", kind="count", bounds=COUNT,
                          help=t("model.prompt_help"), slider=(16, 131072))


@live.field("model", "context")
def _context_field(t) -> float | None:
    return quantity_input(t, t("model.context"), "context", "4096", kind="count",
                          bounds=COUNT, help=t("model.context_help"), slider=(128, 2e6))


def render_inputs(t, arch: ModelArch) -> StepInputs:
    """Draw the inputs (in the current container) and return the record they make (the
    result parts read it: ui.live)."""
    phase = bound(st.radio, t("model.phase"), list(PHASES), key="phase", index=1,
                  horizontal=True, format_func=lambda p: t(f"model.phase.{p}"),
                  help=t("model.phase_help"), is_valid=lambda v: v in PHASES)
    batch = _batch_field(t)
    prompt = context = None
    if phase == "prefill":
        prompt = _prompt_field(t)
    else:
        context = _context_field(t)
    weights = _dtype(t, "model.weights", WEIGHT_OPTIONS, "weights", "model.weights_help")
    act = _dtype(t, "model.act", ACT_OPTIONS, "act", "model.act_help")
    kv = _dtype(t, "model.kv", KV_OPTIONS, "kv_dtype", "model.kv_help")
    # The tensor-parallel group: the same name, field and rule as the Decode page's
    # (calc.placement.check_tp), kept across the pages.
    tp = tp_input(t, arch, t("model.tp"), help=t("model.tp_help"))
    attn = bound(st.radio, t("model.attention"), ATTN_OPTIONS, key="attn_impl", index=0,
                 horizontal=True, format_func=lambda a: t(f"model.attention.{a}"),
                 help=t("model.attention_help"), is_valid=lambda v: v in ATTN_OPTIONS)
    overlay = bound_checkbox(t("model.overlay"), "overlay", value=False, help=t("model.overlay_help"))
    return live.record("model", step_inputs, dict(
        phase=phase, batch=batch, prompt=prompt, context=context, weights=weights, act=act,
        kv=kv, tp=tp, attn=attn, overlay=overlay))
