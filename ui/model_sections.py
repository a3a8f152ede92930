"""What the pages show when a model is chosen in the sidebar (ui/model.py): the FLOP per
token with the attention term and recomputation (MFU, Training), the training memory per
GPU (Training), and the model-aware decode step and prefill (Decode).

Every number comes from calc.models (and calc.mfu for the custom attention term); these
functions read inputs, lay out results and build the "How this is computed" formulas with
the numbers substituted.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calc.mfu import training_flops_per_token
from calc.models import (OPTIMIZER_BYTES_PER_PARAM, RECOMPUTE_MODES, ZERO_STAGES, FlopsPerToken,
                         ModelArch, attention_width, flops_per_token, keys_per_query,
                         param_counts, recompute_flops_per_token, training_memory)
from calc.units import format_si
from ui.formula import Formula, count, formula, si, text
from ui.i18n import Translator
from ui.widgets import COUNT, bound_checkbox, bound_select, format_quantity, quantity_input


def recompute_select(t: Translator, container=None) -> str:
    """Activation recomputation (URL `recompute`: none / selective / full)."""
    return bound_select(t("model.recompute"), list(RECOMPUTE_MODES), "recompute", index=0,
                        container=container, format_func=lambda m: t(f"model.recompute.{m}"),
                        help=t("model.recompute_help"))


def model_params_note(t: Translator, arch: ModelArch) -> float:
    """Show that N comes from the sidebar's model; return the active parameter count."""
    pc = param_counts(arch)
    st.info(t("model.params_from_model", name=arch.name, active=format_quantity(pc.active),
              total=format_quantity(pc.total)), icon=":material/neurology:")
    return pc.active


@dataclass(frozen=True)
class TrainingFlops:
    """FLOP per token for the MFU and Training pages, and the formulas that explain it."""

    flops: FlopsPerToken
    n_params: float            # the N the page divides by (active for a model)
    formulas: tuple[Formula, ...]


def _attention_formula(t: Translator, arch: ModelArch, seq: float, causal: bool,
                       attn_fwd: float) -> Formula:
    wqk, wv = attention_width(arch)
    groups: dict[int, int] = {}
    for w in arch.windows:
        groups[w] = groups.get(w, 0) + 1
    lines, parts = [], []
    for w, n in sorted(groups.items()):
        k = float(keys_per_query(seq, w, causal))
        lines.append((rf"{n} \times 2 \times {k:,.0f} \times ({wqk:,} + {wv:,})").replace(",", "{,}"))
        parts.append(t("model.how.attn_group_window" if w else "model.how.attn_group_full",
                       n=n, w=f"{w:,}", k=f"{k:,.0f}"))
    body = r" \\ &\quad + ".join(lines)
    tex = (r"\begin{aligned} A &= \sum_{\text{layers}} 2\,k\,(H d_{qk} + H d_v) \\ &= " + body
           + r" \\ &= @attn\end{aligned}")
    return formula(tex, t("model.how.attn", causal=t("model.causal_yes" if causal else "model.causal_no"),
                          groups="; ".join(parts)), attn=si(attn_fwd, "FLOP"))


def training_flops(t: Translator, arch: ModelArch | None, *, n_params: float, use_attn: bool,
                   n_layers: float | None, hidden: float | None, seq: float | None,
                   causal: bool, recompute: str) -> TrainingFlops:
    """FLOP per token: from the architecture when a model is chosen (attention always in),
    else from N and, when turned on, the 12·L·h·s term (calc.mfu)."""
    if arch is not None:
        f = flops_per_token(arch, seq, causal=causal, recompute=recompute)
        items = [
            formula(r"C_{\text{tok}} = 6\,N_{\text{active}} + 3\,A = 6 \times @n + 3 \times @attn = @fpt",
                    t("model.how.fpt_model"), n=format_quantity(f.active_params),
                    attn=si(f.attention_forward, "FLOP"), fpt=si(f.model, "FLOP")),
            _attention_formula(t, arch, seq, causal, f.attention_forward),
        ]
        n = f.active_params
    else:
        if use_attn and n_layers is not None and hidden is not None and seq is not None:
            attn_train = training_flops_per_token(n_params, n_layers, hidden, seq, causal=causal) \
                - 6.0 * n_params
        else:
            attn_train = 0.0
        f = recompute_flops_per_token(n_params, attn_train / 3.0, recompute)
        items = []
        n = n_params
    if recompute != "none":
        tex = (r"C^{\text{HW}}_{\text{tok}} = 6N + 4A = @fpt + @extra = @hw" if recompute == "selective"
               else r"C^{\text{HW}}_{\text{tok}} = 8N + 4A = @fpt + @extra = @hw")
        items.append(formula(tex, t(f"model.how.hw_{recompute}"), fpt=si(f.model, "FLOP"),
                             extra=si(f.hardware - f.model, "FLOP"), hw=si(f.hardware, "FLOP")))
    return TrainingFlops(flops=f, n_params=n, formulas=tuple(items))


def flops_breakdown(t: Translator, f: FlopsPerToken) -> None:
    """One line: matmul 6N, attention, total and the attention's share."""
    st.caption(t("model.breakdown", matmul=format_si(f.matmul, "FLOP"),
                 attn=format_si(f.attention, "FLOP"), total=format_si(f.model, "FLOP"),
                 share=f"{f.attention_share:.1%}"))


ZERO_OPTIONS = [str(z) for z in ZERO_STAGES]
OPTIMIZERS = list(OPTIMIZER_BYTES_PER_PARAM)


def training_memory_section(t: Translator, arch: ModelArch | None, *, n_gpus: float,
                            seq: float | None, recompute: str, memory_bytes: float | None,
                            weight_bytes: float = 2.0) -> list[Formula]:
    """Weights, gradients, optimizer states and activations per GPU against the device."""
    st.subheader(t("model.mem.heading"))
    if arch is None:
        st.info(t("model.mem.needs_model"), icon=":material/neurology:")
        return []
    c1, c2, c3 = st.columns(3)
    with c1:
        zero = bound_select(t("model.mem.zero"), ZERO_OPTIONS, "zero", index=3,
                            format_func=lambda z: t(f"model.mem.zero.{z}"),
                            help=t("model.mem.zero_help"))
        optim = bound_select(t("model.mem.optim"), OPTIMIZERS, "optim", index=0,
                             format_func=lambda o: t(f"model.mem.optim.{o}"),
                             help=t("model.mem.optim_help"))
    with c2:
        mbs = quantity_input(t, t("model.mem.mbs"), "mbs", "1", kind="count", bounds=COUNT,
                             help=t("model.mem.mbs_help"))
        tp = quantity_input(t, t("model.mem.tp"), "tp", "1", kind="count", bounds=COUNT,
                            help=t("model.mem.tp_help"))
    with c3:
        pp = quantity_input(t, t("model.mem.pp"), "pp", "1", kind="count", bounds=COUNT,
                            help=t("model.mem.pp_help"))
        flash = bound_checkbox(t("model.mem.flash"), "flash", value=True,
                               help=t("model.mem.flash_help"))
    if None in (mbs, tp, pp, seq):
        st.warning(t("common.missing_inputs"))
        return []
    if n_gpus % (tp * pp):
        st.error(t("model.mem.bad_split", gpus=f"{n_gpus:,.0f}", tp=f"{tp:g}", pp=f"{pp:g}"),
                 icon=":material/error:")
        return []
    dp = n_gpus / (tp * pp)
    mem = training_memory(arch, seq_len=seq, micro_batch=mbs, dp=dp, zero_stage=int(zero),
                          recompute=recompute, tp=tp, pp=pp, weight_bytes_per_elem=weight_bytes,
                          optimizer=optim, flash_attention=flash)
    m1, m2, m3, m4, m5 = st.columns(5)
    m1.metric(t("model.mem.weights"), format_si(mem.weights, "B"))
    m2.metric(t("model.mem.grads"), format_si(mem.gradients, "B"))
    m3.metric(t("model.mem.optimizer"), format_si(mem.optimizer, "B"))
    m4.metric(t("model.mem.acts"), format_si(mem.activations, "B"),
              help=t("model.mem.acts_help", recompute=t(f"model.recompute.{recompute}")))
    m5.metric(t("model.mem.total"), format_si(mem.total, "B"))
    if memory_bytes:
        args = dict(total=format_si(mem.total, "B"), mem=format_si(memory_bytes, "B"),
                    diff=format_si(abs(memory_bytes - mem.total), "B"),
                    pct=f"{mem.total / memory_bytes:.0%}")
        if mem.total <= 0.9 * memory_bytes:
            st.success(t("model.mem.fits", **args), icon=":material/check_circle:")
        elif mem.total <= memory_bytes:
            st.warning(t("model.mem.tight", **args), icon=":material/warning:")
        else:
            st.error(t("model.mem.no_fit", **args), icon=":material/error:")
    else:
        st.caption(t("model.mem.unknown_memory"))
    st.caption(t("model.mem.assumptions"))
    n_total = param_counts(arch).total
    z = int(zero)
    return [
        formula(r"\begin{aligned} M_{\text{states}} &= \frac{N}{t\,p}\left(\frac{b_w}{d_3} + "
                r"\frac{b_g}{d_2} + \frac{b_o}{d_1}\right) = \frac{@n}{@tp \times @pp}\left("
                r"\frac{@bw}{@d3} + \frac{@bw}{@d2} + \frac{@bo}{@d1}\right) \\ &= @w + @g + @o"
                r"\end{aligned}",
                t("model.how.mem_states", zero=zero, dp=f"{dp:,.0f}"),
                n=format_quantity(n_total), tp=count(tp), pp=count(pp),
                bw=f"{weight_bytes:g} B", bo=f"{OPTIMIZER_BYTES_PER_PARAM[optim]:g} B",
                d3=count(dp if z >= 3 else 1), d2=count(dp if z >= 2 else 1),
                d1=count(dp if z >= 1 else 1),
                w=si(mem.weights, "B"), g=si(mem.gradients, "B"), o=si(mem.optimizer, "B")),
        formula(_acts_tex("selective" if (flash and recompute == "none") else recompute),
                t("model.how.mem_acts"),
                s=count(seq), b=count(mbs), h=count(arch.d_model), a=count(arch.n_heads),
                tp=count(tp), per=si(mem.activations_per_layer, "B"),
                layers=text(f"{mem.layers_per_gpu:g}"), acts=si(mem.activations, "B")),
    ]


def _acts_tex(recompute: str) -> str:
    if recompute == "full":
        core = r"2\,s\,b\,h = 2 \times @s \times @b \times @h"
        return (r"\begin{aligned} M_{\text{act}} &= \frac{L}{p} \times " + core +
                r" \quad (t = @tp,\ a = @a) \\ &= @layers \times @per = @acts\end{aligned}")
    if recompute == "selective":
        core = r"\frac{34\,s\,b\,h}{t} = \frac{34 \times @s \times @b \times @h}{@tp}"
        return (r"\begin{aligned} M_{\text{act}} &= \frac{L}{p} \times " + core +
                r" \quad (a = @a) \\ &= @layers \times @per = @acts\end{aligned}")
    core = (r"\frac{s\,b\,h}{t}\left(34 + \frac{5\,a\,s}{h}\right) = "
            r"\frac{@s \times @b \times @h}{@tp}\left(34 + \frac{5 \times @a \times @s}{@h}\right)")
    return (r"\begin{aligned} M_{\text{act}} &= \frac{L}{p} \times " + core +
            r" \\ &= @layers \times @per = @acts\end{aligned}")
