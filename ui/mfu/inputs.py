"""The MFU page's inputs: the model (or N, with the optional attention term), tokens/s,
GPUs, the peak (the sidebar's unless typed), the sequence and causal mask, recomputation,
and the target MFU of the inverse question."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import streamlit as st

from calc.arch import ModelArch
from calc.mfu import tokens_per_s_per_gpu
from calc.training_flops import CAUSAL_DEFAULT
from calc.units import format_si, parse_quantity
from ui import live
from ui.model_sections import params_input, recompute_select, seq_input
from ui.state import bound
from ui.widgets import COUNT, Bounds, arch_count, bound_checkbox, is_blank, quantity_input

# Percent labels as options: the URL reads "target_mfu=45%", calc.units turns it into 0.45.
TARGET_OPTIONS = [f"{k}%" for k in range(5, 81)]
ATTN_FIELDS = ("attn", "layers", "hidden", "seq", "causal")   # URL names in the attention expander


@dataclass(frozen=True)
class MfuInputs:
    """What the MFU page's fields hold (None: unreadable, the field says why)."""

    model: Optional[ModelArch]
    n_params: Optional[float]
    tokens_per_s: Optional[float]
    n_gpus: Optional[float]
    peak: Optional[float]
    use_attn: bool
    n_layers: Optional[float]
    hidden: Optional[float]
    seq: Optional[float]
    causal: bool
    recompute: str
    target_text: str              # the target slider's label ("45%", TARGET_OPTIONS)
    rate: str = "FLOP/s"          # the peak's unit: OP/s at the sidebar's INT8 (calc.hardware.rate_unit)

    @property
    def target(self) -> float:
        return parse_quantity(self.target_text, kind="fraction")

    @property
    def core_ok(self) -> bool:
        return None not in (self.n_params, self.tokens_per_s, self.n_gpus, self.peak)

    @property
    def attn_ok(self) -> bool:
        return None not in (self.n_layers, self.hidden, self.seq)


def _peak(ctx) -> Optional[float]:
    """The sidebar's device and precision, unless typed here; None when a typed one is refused."""
    t = ctx.t
    rate = ctx.op() + "/s"          # OP/s at the sidebar's INT8 (both read as a compute rate)
    override = quantity_input(t, t("mfu.peak_override", rate=rate), "peak_override", "", unit="FLOP/s",
                              kind="flop_rate", bounds=Bounds(hi=1e21), optional=True,
                              help=t("mfu.peak_override_help"),
                              placeholder=format_si(ctx.peak_flops, rate) if ctx.ready else "")
    if is_blank("peak_override"):
        peak = ctx.peak_flops
        source = t("mfu.peak_from_sidebar", device=ctx.device_label(),
                   precision=t(f"common.prec.{ctx.precision}"))
    else:
        peak, source = override, t("mfu.peak_from_override")
        if peak is not None and ctx.device is not None and \
                ctx.device.is_sparse_headline(peak, ctx.precision):
            st.warning(t("mfu.peak_is_sparse", peak=format_si(peak, rate),
                         dense=format_si(ctx.peak_flops, rate), device=ctx.device_label()),
                       icon=":material/warning:")
    if peak is not None:
        st.caption(t("mfu.peak_used", peak=format_si(peak, rate), source=source))
    return peak


# The sliders are live fields (ui.live): moving one reruns it and the results only; each
# returns its MfuInputs field by name.
@live.field("mfu", "n_params")
def _params_field(t, model) -> Optional[float]:
    return params_input(t, model, "mfu")


@live.field("mfu", "tokens_per_s")
def _tokens_field(t) -> Optional[float]:
    return quantity_input(t, t("mfu.tokens_per_s"), "tokens_per_s", "12k", kind="token_rate",
                          help=t("mfu.tokens_per_s_help"), slider=(100, 1e8))


@live.field("mfu", "seq")
def _seq_field(t) -> Optional[float]:
    return seq_input(t)


@live.field("mfu", "target_text")
def _target_field(t) -> str:
    return bound(st.select_slider, t("mfu.target_mfu"), key="target_mfu", options=TARGET_OPTIONS,
                 value="45%", help=t("mfu.target_mfu_help"), is_valid=lambda v: v in TARGET_OPTIONS)


def per_gpu_caption(t, inp: MfuInputs) -> None:
    """Under the GPUs field: the throughput per GPU (a result part: it follows the tokens/s
    slider, ui.live)."""
    if inp.tokens_per_s is not None and inp.n_gpus is not None:
        st.caption(t("mfu.per_gpu_caption",
                     per=format_si(tokens_per_s_per_gpu(inp.tokens_per_s, inp.n_gpus), "tok/s"),
                     total=format_si(inp.tokens_per_s, "tok/s"), gpus=f"{inp.n_gpus:,.0f}"))


def _attention(t, model: Optional[ModelArch]):
    """(use_attn, n_layers, hidden, seq, causal): the architecture's when a model is chosen."""
    if model is not None:           # the architecture is known: the attention term is always in
        with st.expander(t("arch.attn_heading"), expanded=True):
            st.caption(t("arch.attn_intro"))
            seq = _seq_field(t)
            causal = bound_checkbox(t("mfu.causal"), "causal", value=CAUSAL_DEFAULT,
                                    help=t("mfu.causal_help"))
        return True, model.n_layers, model.d_model, seq, causal
    # Open when a link sets one of its fields: a rejected one must be in sight.
    with st.expander(t("mfu.attn_heading"), expanded=any(k in st.query_params for k in ATTN_FIELDS)):
        st.caption(t("mfu.attn_intro"))
        use_attn = bound_checkbox(t("mfu.attn"), "attn", value=False, help=t("mfu.attn_help"))
        n_layers = quantity_input(t, t("mfu.layers"), "layers", "32", kind="count",
                                  bounds=arch_count("n_layers"),
                                  help=t("mfu.layers_help"))
        hidden = quantity_input(t, t("mfu.hidden"), "hidden", "4096", kind="count",
                                bounds=arch_count("d_model"),
                                help=t("mfu.hidden_help"))
        seq = _seq_field(t)
        causal = bound_checkbox(t("mfu.causal"), "causal", value=CAUSAL_DEFAULT,
                                help=t("mfu.causal_help"))
    return use_attn, n_layers, hidden, seq, causal


def mfu_inputs(ctx) -> Any:
    """Draw the inputs column and build the page's record (ui.live.record, read by the result
    parts); return the empty container under the GPUs field where the page puts the
    throughput per GPU (a result part)."""
    t, model = ctx.t, ctx.model
    st.subheader(t("mfu.inputs_heading"))
    n_params = _params_field(t, model)
    tokens_per_s = _tokens_field(t)
    n_gpus = quantity_input(t, t("mfu.gpus"), "gpus", "8", kind="count", bounds=COUNT,
                            help=t("mfu.gpus_help"))
    per_gpu_box = st.container()
    peak = _peak(ctx)
    use_attn, n_layers, hidden, seq, causal = _attention(t, model)
    recompute = recompute_select(t)
    st.subheader(t("mfu.inverse_heading"))
    target_text = _target_field(t)
    live.record("mfu", MfuInputs, dict(
        model=model, n_params=n_params, tokens_per_s=tokens_per_s, n_gpus=n_gpus, peak=peak,
        use_attn=use_attn, n_layers=n_layers, hidden=hidden, seq=seq, causal=causal,
        recompute=recompute, target_text=target_text, rate=ctx.op() + "/s"))
    return per_gpu_box
