"""The Training page's inputs: the model (or N), tokens, GPUs, the MFU (typed or on a 1 %
slider, URL ``mfu``), the MFU to compare with, the sequence and recomputation, the price
and its currency; the peak comes from the sidebar."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import streamlit as st

from calc.arch import ModelArch, param_counts
from calc.currency import CURRENCY_CODES, DEFAULT_CURRENCY, currency_label
from calc.training import CHINCHILLA_TOKENS_PER_PARAM, tokens_for_params
from calc.training_flops import CAUSAL_DEFAULT
from calc.units import QuantityError, format_si, parse_price, parse_quantity
from ui import live
from ui.model_sections import params_input, recompute_select, seq_input
from ui.state import bound, set_value
from ui.predicted_mfu import mfu_text, predicted_caption
from ui.widgets import (COUNT, FRACTION, bound_checkbox, bound_select, format_quantity,
                        quantity_input)

# The compare slider's options: percent labels, the URL reads "compare_mfu=25%".
MFU_OPTIONS = [f"{k}%" for k in range(5, 81)]
# The MFU field's slider: 1 % steps (the field itself takes any value: 37.5 %, 0.375).
MFU_STEPS = [parse_quantity(f"{k}%", kind="fraction") for k in range(1, 101)]



@dataclass(frozen=True)
class TrainingInputs:
    """What the Training page's fields hold (None: unreadable, the field says why)."""

    model: Optional[ModelArch]
    n_params: Optional[float]
    n_tokens: Optional[float]
    n_gpus: Optional[float]
    mfu: Optional[float]
    compare_text: str             # the compare slider's label ("25%", MFU_OPTIONS)
    seq: Optional[float]
    causal: bool
    recompute: str
    price: Optional[float]
    currency: str
    rate: str = "FLOP/s"          # the peak's unit: OP/s at the sidebar's INT8 (calc.hardware.rate_unit)

    @property
    def compare_mfu(self) -> float:
        return parse_quantity(self.compare_text, kind="fraction")

    @property
    def mfu_text(self) -> str:
        return mfu_text(self.mfu) if self.mfu is not None else "—"


def _use_chinchilla(model: Optional[ModelArch]) -> None:
    """Button callback: D = 20 × N (when N is readable)."""
    try:
        if model is not None:
            n = param_counts(model).total
        else:
            n = parse_quantity(st.session_state.get("params", "7B"), kind="count")
        set_value("tokens", format_quantity(tokens_for_params(n)))
    except (QuantityError, ValueError, TypeError):
        st.session_state["_training_chinchilla_failed"] = True


def _price(t) -> tuple[Optional[float], str]:
    price_col, currency_col = st.columns([2, 1])
    price = quantity_input(t, t("training.price"), "price", "", kind="price",
                           help=t("training.price_help"), placeholder="2.5", optional=True,
                           container=price_col)
    # A currency typed with the price ($2, 15 元) sets the choice; otherwise the selector's.
    typed_code = parse_price(st.session_state.get("price", ""))[1] if price is not None else None
    if typed_code is not None:
        set_value("currency", typed_code)
    codes = [typed_code] if typed_code is not None else list(CURRENCY_CODES)
    code = bound_select(t("training.currency"), codes, "currency", container=currency_col,
                        index=codes.index(typed_code or DEFAULT_CURRENCY),
                        format_func=currency_label, help=t("training.currency_help"),
                        disabled=typed_code is not None)
    return price, code


# The sliders are live fields (ui.live): moving one reruns it and the results only; each
# returns its TrainingInputs field by name.
@live.field("training", "n_tokens")
def _tokens_field(t) -> Optional[float]:
    return quantity_input(t, t("training.tokens"), "tokens", "1T", kind="count",
                          help=t("training.tokens_help"), slider=(1e9, 1e14))


@live.field("training", "mfu")
def _mfu_field(ctx) -> Optional[float]:
    t = ctx.t
    mfu = quantity_input(t, t("training.mfu"), "mfu", "45%", kind="fraction", bounds=FRACTION,
                         help=t("training.mfu_help"), steps=MFU_STEPS, step_text=mfu_text)
    predicted_caption(ctx, mfu)                 # "Use this layout" (Training layout page)
    return mfu


@live.field("training", "compare_text")
def _compare_field(t) -> str:
    return bound(st.select_slider, t("training.compare_mfu"), key="compare_mfu",
                 options=MFU_OPTIONS, value="25%", help=t("training.compare_mfu_help"),
                 is_valid=lambda v: v in MFU_OPTIONS)


@live.field("training", "seq")
def _seq_field(t) -> Optional[float]:
    return seq_input(t)


@live.field("training", "n_params")
def _params_field(t, model) -> Optional[float]:
    return params_input(t, model, "training")


def training_inputs(ctx) -> tuple[TrainingInputs, Any]:
    """Draw the inputs column; return what it holds and the empty container under the MFU
    field where the page draws what published runs reached (a result part: it follows N
    and the GPUs, ui.live)."""
    t, model = ctx.t, ctx.model
    st.subheader(t("training.inputs_heading"))
    n_params = _params_field(t, model)
    n_tokens = _tokens_field(t)
    st.button(t("training.chinchilla", k=f"{CHINCHILLA_TOKENS_PER_PARAM:g}"),
              on_click=_use_chinchilla, args=(model,), help=t("training.chinchilla_help"))
    if st.session_state.pop("_training_chinchilla_failed", False):
        st.error(t("training.chinchilla_failed"))
    n_gpus = quantity_input(t, t("training.gpus"), "gpus", "64", kind="count", bounds=COUNT,
                            help=t("training.gpus_help"))
    mfu = _mfu_field(ctx)
    published_box = st.container()
    compare_text = _compare_field(t)
    seq, causal = None, CAUSAL_DEFAULT
    if model is not None:
        seq = _seq_field(t)
        causal = bound_checkbox(t("mfu.causal"), "causal", value=CAUSAL_DEFAULT,
                                help=t("mfu.causal_help"))
    recompute = recompute_select(t)
    price, code = _price(t)
    if ctx.ready:
        st.caption(t("training.peak_used", peak=format_si(ctx.peak_flops, ctx.op() + "/s"),
                     device=ctx.device_label(), precision=t(f"common.prec.{ctx.precision}")))
    return live.record("training", TrainingInputs, dict(
        model=model, n_params=n_params, n_tokens=n_tokens, n_gpus=n_gpus, mfu=mfu,
        compare_text=compare_text, seq=seq, causal=causal, recompute=recompute,
        price=price, currency=code, rate=ctx.op() + "/s")), published_box
