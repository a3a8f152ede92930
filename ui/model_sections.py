"""The FLOP per training token as the MFU page, the Training page and the Trace doctor show
it (shared by the three): the recompute choice, the note that N comes from the sidebar's
model, the one count (calc.training_flops.flops_per_token, of the model or of "Custom:
parameters only" as a dense architecture of N) and its "How this is computed" formulas.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calc.arch import ModelArch, attention_width, keys_per_query, param_counts
from calc.training_flops import (RECOMPUTE_MODES, FlopsPerToken, flops_per_token,
                                 params_only_arch)
from calc.training_memory import OPTIMIZERS as OPTIMIZER_CHOICES, ZERO_STAGES
from calc.units import format_si
from ui.formula import Formula, formula, si
from ui.i18n import Translator
from ui.widgets import COUNT, bound_select, format_quantity, quantity_input


def recompute_select(t: Translator, container=None) -> str:
    """Activation recomputation (URL `recompute`: none / selective / full)."""
    return bound_select(t("arch.recompute"), list(RECOMPUTE_MODES), "recompute", index=0,
                        container=container, format_func=lambda m: t(f"arch.recompute.{m}"),
                        help=t("arch.recompute_help"))


def params_input(t: Translator, arch: ModelArch | None, page: str) -> float | None:
    """N: typed (URL ``params``, labels ``<page>.params``) for "Custom: parameters only", or
    the sidebar model's active parameter count (shown as a note)."""
    if arch is None:
        return quantity_input(t, t(f"{page}.params"), "params", "7B", kind="count",
                              help=t(f"{page}.params_help"), slider=(1e8, 2e12))
    return model_params_note(t, arch)


def seq_input(t: Translator) -> float | None:
    """The training sequence length (URL ``seq``, shared by the MFU and Training time pages;
    the attention term and the activations read it)."""
    return quantity_input(t, t("mfu.seq"), "seq", "4096", kind="count", bounds=COUNT,
                          help=t("mfu.seq_help"), slider=(128, 1e6))


def model_params_note(t: Translator, arch: ModelArch) -> float:
    """Show that N comes from the sidebar's model; return the active parameter count."""
    pc = param_counts(arch)
    st.info(t("arch.params_from_model", name=arch.name, active=format_quantity(pc.active),
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
        parts.append(t("arch.how.attn_group_window" if w else "arch.how.attn_group_full",
                       n=n, w=f"{w:,}", k=f"{k:,.0f}"))
    body = r" \\ &\quad + ".join(lines)
    tex = (r"\begin{aligned} A &= \sum_{\text{layers}} 2\,k\,(H d_{qk} + H d_v) \\ &= " + body
           + r" \\ &= @attn\end{aligned}")
    return formula(tex, t("arch.how.attn", causal=t("arch.causal_yes" if causal else "arch.causal_no"),
                          groups="; ".join(parts)), attn=si(attn_fwd, "FLOP"))


def flops_arch(arch: ModelArch | None, *, n_params: float, n_layers: float | None = None,
               hidden: float | None = None) -> ModelArch:
    """The architecture the FLOP count is taken of: the sidebar's model, or "Custom:
    parameters only" as a dense architecture of N (calc.training_flops.params_only_arch)."""
    if arch is not None:
        return arch
    return params_only_arch(n_params, n_layers or 32, hidden or 4096)


def training_flops(t: Translator, arch: ModelArch | None, *, n_params: float, use_attn: bool,
                   n_layers: float | None, hidden: float | None, seq: float | None,
                   causal: bool, recompute: str) -> TrainingFlops:
    """FLOP per token through the one count (calc.training_flops.flops_per_token): of the
    sidebar's model (attention always in), or of a dense architecture of N whose attention
    term is in when turned on (else seq_len 0: the seed's 6N)."""
    a = flops_arch(arch, n_params=n_params, n_layers=n_layers, hidden=hidden)
    with_attn = arch is not None or (use_attn and None not in (n_layers, hidden, seq))
    f = flops_per_token(a, seq if with_attn else 0, causal=causal, recompute=recompute)
    if with_attn:
        items = [
            formula(r"C_{\text{tok}} = 6\,N_{\text{active}} + 3\,A = 6 \times @n + 3 \times @attn = @fpt",
                    t("arch.how.fpt_model"), n=format_quantity(f.active_params),
                    attn=si(f.attention_forward, "FLOP"), fpt=si(f.model, "FLOP")),
            _attention_formula(t, a, seq, causal, f.attention_forward),
        ]
    else:
        items = [formula(r"C_{\text{tok}} = 6N = 6 \times @params = @fpt", t("mfu.how.fpt"),
                         params=format_quantity(n_params), fpt=si(f.model, "FLOP"))]
    if recompute != "none":
        tex = (r"C^{\text{HW}}_{\text{tok}} = 6N + 4A = @fpt + @extra = @hw" if recompute == "selective"
               else r"C^{\text{HW}}_{\text{tok}} = 8N + 4A = @fpt + @extra = @hw")
        items.append(formula(tex, t(f"arch.how.hw_{recompute}"), fpt=si(f.model, "FLOP"),
                             extra=si(f.hardware - f.model, "FLOP"), hw=si(f.hardware, "FLOP")))
    return TrainingFlops(flops=f, n_params=f.active_params, formulas=tuple(items))


def flops_breakdown(t: Translator, f: FlopsPerToken) -> None:
    """One line: matmul 6N, attention, total and the attention's share."""
    st.caption(t("arch.breakdown", matmul=format_si(f.matmul, "FLOP"),
                 attn=format_si(f.attention, "FLOP"), total=format_si(f.model, "FLOP"),
                 share=f"{f.attention_share:.1%}"))




# The training-memory options the Training page and the Plans editor both offer (URL values).
ZERO_OPTIONS = [str(z) for z in ZERO_STAGES]
OPTIMIZERS = list(OPTIMIZER_CHOICES)
