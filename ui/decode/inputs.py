"""The Decode page's inputs: the model (the sidebar's, or "Custom: parameters only" as a
dense architecture with N given), weight precision, the tensor-parallel group ``tp``, the
batch, the KV cache (always counted with a model; a checkbox only for the seed's
weights-only lesson in parameters-only mode), a measured speed, a prompt for prefill and
the all-reduce switch.

URL names (README, "Share links"): ``params``, ``weights``, ``tp``, ``batch``, ``kv``,
``layers``, ``kv_heads``, ``head_dim``, ``context``, ``kv_dtype``, ``measured``,
``prompt``, ``tp_comm``.  An old link's ``gpus`` (this page's tensor-parallel group before
the name was freed for the cluster size) is read once as ``tp`` (:func:`legacy_gpus`).
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calc.arch import ModelArch, params_only
from calc.decode import BYTES_PER_PARAM, bytes_per_param
from ui import live
from ui.model_sections import model_params_note
from ui.state import LEGACY_NAMES, set_value
from ui.widgets import (COUNT, arch_count, batch_input, bound_checkbox, bound_select,
                        quantity_input, tp_input)

WEIGHT_OPTIONS = ["bf16", "fp16", "fp8", "int8", "int4"]
KV_OPTIONS = ["bf16", "fp16", "fp8", "int8"]
KV_FIELDS = ("kv", "layers", "kv_heads", "head_dim", "context", "kv_dtype")   # URL names


@dataclass(frozen=True)
class DecodeInputs:
    """What the page computes for.  ``arch`` is None while an input it needs is invalid;
    ``context`` is the KV-cache context (0 when the cache is left out)."""

    arch: ModelArch | None
    from_model: bool
    weights: str
    tp: int | None
    batch: int | None
    kv: bool
    context: float | None
    kv_dtype: str
    measured: float | None
    prompt: float | None
    tp_comm: bool
    # as typed, for "Add this setup to the plans" (None where a field is invalid)
    n_params: float | None = None
    layers: float | None = None
    kv_heads: float | None = None
    head_dim: float | None = None
    context_typed: float | None = None

    @property
    def bytes_per_param(self) -> float:
        return bytes_per_param(self.weights)

    @property
    def kv_bytes_per_elem(self) -> float:
        return bytes_per_param(self.kv_dtype)

    @property
    def ok(self) -> bool:
        return None not in (self.arch, self.tp, self.batch, self.context)


def legacy_gpus() -> None:
    """An old link's ``gpus=`` meant this page's tensor-parallel group: read it once as
    ``tp`` (the URL then says ``tp``); ``gpus`` is the cluster size on the other pages."""
    for old, new in LEGACY_NAMES["decode"].items():
        if old in st.query_params:
            if new not in st.query_params:
                # the field shows it; the field, bound to the URL, writes tp when drawn
                set_value(new, st.query_params[old])
            del st.query_params[old]


def seed_example() -> None:
    """Button callback: the seed's example, 7B in bf16 on a 2 TB/s device, batch 1."""
    for key, value in (("params", "7B"), ("weights", "bf16"), ("device", "custom"),
                       ("peak", "312T"), ("bw", "2 TB/s"), ("tp", "1"), ("batch", "1"),
                       ("kv", False), ("model", "custom")):
        set_value(key, value)
    for key in ("params__slider", "peak__slider", "bw__slider", "batch__slider"):
        st.session_state.pop(key, None)


def _dtype_label(t, p: str) -> str:
    return t("decode.dtype_label", name=p.upper(), bytes=f"{BYTES_PER_PARAM[p]:g}")


def _arch(model: ModelArch | None, n_params, layers, kv_heads, head_dim) -> ModelArch | None:
    """The model decoded: the sidebar's, or a parameters-only one from N and the KV fields
    (None while one of them is unreadable)."""
    if model is not None:
        return model
    if None in (n_params, layers, kv_heads, head_dim):
        return None
    return params_only(n_params, int(layers), int(kv_heads), int(head_dim))


def decode_record(*, model: ModelArch | None, n_params, layers, kv_heads, head_dim, kv: bool,
                  context_typed, **fields) -> DecodeInputs:
    """The page's record from its fields (ui.live.record: a full run and a live press build
    it here). The KV cache's context is the typed one, 0 when the cache is left out, None
    while unreadable."""
    context = (context_typed if kv else 0.0) if context_typed is not None or not kv else None
    return DecodeInputs(arch=_arch(model, n_params, layers, kv_heads, head_dim),
                        from_model=model is not None, kv=kv, context=context, n_params=n_params,
                        layers=layers, kv_heads=kv_heads, head_dim=head_dim,
                        context_typed=context_typed, **fields)


# N, the batch and the context are live fields (ui.live): moving one reruns it and the
# results only; each returns its field of decode_record by name. N while the model is or
# becomes unreadable reruns the page: the tensor-parallel field reads the model
# (calc.placement.check_tp reads its heads only, which N does not change).
@live.field("decode", "n_params", whole_page_if=lambda n, before: n is None or before.arch is None)
def _params_field(t) -> float | None:
    return quantity_input(t, t("decode.params"), "params", "7B", kind="count",
                          help=t("decode.params_help"), slider=(1e8, 2e12))


@live.field("decode", "batch")
def _batch_field(t) -> int | None:
    return batch_input(t, t("decode.batch"), help=t("decode.batch_help"))


@live.field("decode", "context_typed")
def _context_field(t) -> float | None:
    return quantity_input(t, t("decode.context"), "context", "4096", kind="count",
                          bounds=COUNT, help=t("decode.context_help"), slider=(128, 2e6))


def render_inputs(ctx) -> DecodeInputs:
    """Draw the inputs in the current container and return them."""
    t, model = ctx.t, ctx.model
    st.subheader(t("decode.inputs_heading"))
    if model is None:
        n_params = _params_field(t)
    else:
        n_params = model_params_note(t, model)
    weights = bound_select(t("decode.weights"), WEIGHT_OPTIONS, "weights", index=0,
                           format_func=lambda p: _dtype_label(t, p), help=t("decode.weights_help"))
    tp_box = st.container()
    batch = _batch_field(t)
    # Open when a model gives the KV cache, or when a link sets one of its fields: a field
    # in there that is rejected must be in sight, not behind a closed expander.
    with st.expander(t("decode.kv_heading") if model is None else t("arch.decode.kv_heading"),
                     expanded=model is not None or any(k in st.query_params for k in KV_FIELDS)):
        if model is None:
            use_kv = bound_checkbox(t("decode.kv"), "kv", value=False, help=t("decode.kv_help"))
            layers = quantity_input(t, t("decode.layers"), "layers", "32", kind="count",
                                    bounds=arch_count("n_layers"), help=t("decode.layers_help"))
            kv_heads = quantity_input(t, t("decode.kv_heads"), "kv_heads", "32", kind="count",
                                      bounds=arch_count("n_kv_heads"), help=t("decode.kv_heads_help"))
            head_dim = quantity_input(t, t("decode.head_dim"), "head_dim", "128", kind="count",
                                      bounds=arch_count("head_dim"), help=t("decode.head_dim_help"))
        else:
            use_kv = True
            layers, kv_heads, head_dim = model.n_layers, model.n_kv_heads, model.head_dim
            st.caption(t("arch.decode.kv_from_model"))
        context = _context_field(t)
        kv_dtype = bound_select(t("decode.kv_dtype"), KV_OPTIONS, "kv_dtype", index=0,
                                format_func=lambda p: _dtype_label(t, p),
                                help=t("decode.kv_dtype_help"))
    with tp_box:
        tp = tp_input(t, _arch(model, n_params, layers, kv_heads, head_dim), t("decode.gpus"),
                      help=t("decode.gpus_help"))
    measured = quantity_input(t, t("decode.measured"), "measured", "", unit="tok/s",
                              kind="token_rate", help=t("decode.measured_help"),
                              placeholder="120 tok/s", optional=True)
    prompt = quantity_input(t, t("arch.decode.prompt"), "prompt", "", kind="count", bounds=COUNT,
                            help=t("arch.decode.prompt_help"), placeholder="2048", optional=True)
    tp_comm = bound_checkbox(t("arch.decode.tp_comm"), "tp_comm", value=False,
                             help=t("arch.decode.tp_comm_help"))
    return live.record("decode", decode_record, dict(
        model=model, n_params=n_params, weights=weights, tp=tp, batch=batch, kv=use_kv,
        layers=layers, kv_heads=kv_heads, head_dim=head_dim, context_typed=context,
        kv_dtype=kv_dtype, measured=measured, prompt=prompt, tp_comm=tp_comm))
