"""The Training page's memory per GPU: the layout inputs (sharding, optimizer, micro-batch,
tensor / pipeline / context / expert parallelism, sequence parallelism, the pipeline
schedule) and calc.training_memory's record of the worst stage as it is, with its fit."""
from __future__ import annotations

import streamlit as st

from calc.arch import ModelArch, param_counts
from calc.training_memory import SCHEDULES, TrainingMemory, data_parallel_size, training_memory
from calc.units import format_si
from ui.formula import Formula, count, formula, si, text
from ui.i18n import Translator
from ui.model_sections import OPTIMIZERS, ZERO_OPTIONS
from ui.widgets import COUNT, bound_checkbox, bound_select, format_quantity, percent_text, quantity_input



def _layout_inputs(t: Translator, arch: ModelArch) -> dict | None:
    """The layout fields (URL: zero, optim, mbs, tp, pp, flash, sp, cp, ep, schedule,
    interleave, microbatches); None while one is unreadable."""
    c1, c2, c3 = st.columns(3)
    with c1:
        zero = bound_select(t("arch.mem.zero"), ZERO_OPTIONS, "zero", index=3,
                            format_func=lambda z: t(f"arch.mem.zero.{z}"),
                            help=t("arch.mem.zero_help"))
        optim = bound_select(t("arch.mem.optim"), OPTIMIZERS, "optim", index=0,
                             format_func=lambda o: t(f"arch.mem.optim.{o}"),
                             help=t("arch.mem.optim_help"))
        mbs = quantity_input(t, t("arch.mem.mbs"), "mbs", "1", kind="count", bounds=COUNT,
                             help=t("arch.mem.mbs_help"))
        flash = bound_checkbox(t("arch.mem.flash"), "flash", value=True,
                               help=t("arch.mem.flash_help"))
    with c2:
        tp = quantity_input(t, t("arch.mem.tp"), "tp", "1", kind="count", bounds=COUNT,
                            help=t("arch.mem.tp_help"))
        cp = quantity_input(t, t("training.mem.cp"), "cp", "1", kind="count", bounds=COUNT,
                            help=t("training.mem.cp_help"))
        ep = quantity_input(t, t("training.mem.ep"), "ep", "1", kind="count", bounds=COUNT,
                            help=t("training.mem.ep_help")) if arch.is_moe else 1.0
        sp = bound_checkbox(t("training.mem.sp"), "sp", value=True, help=t("training.mem.sp_help"))
    with c3:
        pp = quantity_input(t, t("arch.mem.pp"), "pp", "1", kind="count", bounds=COUNT,
                            help=t("arch.mem.pp_help"))
        schedule = bound_select(t("training.mem.schedule"), list(SCHEDULES), "schedule", index=0,
                                format_func=lambda s: t(f"training.mem.schedule.{s}"),
                                help=t("training.mem.schedule_help"))
        interleave = quantity_input(t, t("training.mem.interleave"), "interleave", "1",
                                    kind="count", bounds=COUNT,
                                    help=t("training.mem.interleave_help"))
        micro = quantity_input(t, t("training.mem.microbatches"), "microbatches", "", kind="count",
                               bounds=COUNT, optional=True, placeholder=t("training.mem.at_least_pp"),
                               help=t("training.mem.microbatches_help"))
    if None in (mbs, tp, pp, cp, ep, interleave):
        return None
    return dict(zero_stage=int(zero), optimizer=optim, micro_batch=mbs, flash_attention=flash,
                tp=tp, cp=cp, ep=ep, sequence_parallel=sp, pp=pp, schedule=schedule,
                interleave=int(interleave), n_microbatches=None if micro is None else int(micro))


def _metrics(t: Translator, mem: TrainingMemory, recompute: str) -> None:
    cols = st.columns(6 if mem.zero3_buffers else 5)
    cols[0].metric(t("arch.mem.weights"), format_si(mem.weights, "B"),
                   help=t("training.mem.bytes_help", b=f"{mem.weight_bytes_per_elem:g}"))
    cols[1].metric(t("arch.mem.grads"), format_si(mem.gradients, "B"),
                   help=t("training.mem.bytes_help", b=f"{mem.grad_bytes_per_elem:g}"))
    cols[2].metric(t("arch.mem.optimizer"), format_si(mem.optimizer, "B"),
                   help=t("training.mem.bytes_help", b=f"{mem.optimizer_bytes_per_elem:g}"))
    cols[3].metric(t("arch.mem.acts"), format_si(mem.activations, "B"),
                   help=t("arch.mem.acts_help", recompute=t(f"arch.recompute.{recompute}")))
    if mem.zero3_buffers:
        cols[4].metric(t("training.mem.zero3"), format_si(mem.zero3_buffers, "B"),
                       help=t("training.mem.zero3_help"))
    cols[-1].metric(t("arch.mem.total"), format_si(mem.total, "B"))


def _fit(t: Translator, mem: TrainingMemory) -> None:
    fit = mem.memory_fit
    if fit is None:
        st.caption(t("arch.mem.unknown_memory"))
        return
    args = dict(total=format_si(mem.total, "B"), mem=format_si(fit.capacity_bytes, "B"),
                diff=format_si(abs(mem.spare_bytes), "B"),
                pct=percent_text(t, fit.share, 0))
    if fit.verdict == "fits":
        st.success(t("arch.mem.fits", **args), icon=":material/check_circle:")
    elif fit.verdict == "tight":
        st.warning(t("arch.mem.tight", **args), icon=":material/warning:")
    else:
        st.error(t("arch.mem.no_fit", **args), icon=":material/error:")


def training_memory_section(t: Translator, arch: ModelArch | None, *, n_gpus: float,
                            seq: float | None, recompute: str, memory_bytes: float | None,
                            weight_bytes: float = 2.0) -> list[Formula]:
    """Weights, gradients, optimizer states, activations and ZeRO-3 buffers per GPU of the
    worst pipeline stage against the device's memory; returns its formulas."""
    st.subheader(t("arch.mem.heading"))
    if arch is None:
        st.info(t("arch.mem.needs_model"), icon=":material/neurology:")
        return []
    lay = _layout_inputs(t, arch)
    if lay is None or seq is None:
        st.warning(t("common.missing_inputs"))
        return []
    try:
        dp = data_parallel_size(n_gpus, lay["tp"], lay["pp"], lay["cp"])
    except ValueError:
        st.error(t("training.mem.bad_split", gpus=f"{n_gpus:,.0f}", tp=f"{lay['tp']:g}",
                   pp=f"{lay['pp']:g}", cp=f"{lay['cp']:g}"), icon=":material/error:")
        return []
    try:
        mem = training_memory(arch, dp=dp, seq_len=seq, recompute=recompute,
                              weight_bytes_per_elem=weight_bytes, memory_bytes=memory_bytes, **lay)
    except ValueError as exc:               # tp against the heads, ep against dp × cp, ...
        st.error(t("training.mem.bad_layout", message=str(exc)), icon=":material/error:")
        return []
    _metrics(t, mem, recompute)
    _fit(t, mem)
    staged = "training.mem.worst_stage" if lay["pp"] > 1 else "training.mem.one_stage"
    st.caption(t(staged, schedule=t(f"training.mem.schedule.{mem.schedule}"),
                 inflight=f"{mem.layers_in_flight:,.4g}", layers=f"{mem.layers_per_gpu:,.4g}"))
    st.caption(t("arch.mem.assumptions"))
    return _formulas(t, arch, mem, dp=dp, seq=seq, recompute=recompute, **lay)


def _formulas(t: Translator, arch: ModelArch, mem: TrainingMemory, *, dp: float, seq: float,
              recompute: str, zero_stage: int, micro_batch: float, tp: float, pp: float,
              cp: float, flash_attention: bool, sequence_parallel: bool,
              **_rest) -> list[Formula]:
    z = zero_stage
    items = [
        formula(r"\begin{aligned} M_{\text{states}} &= P\left(\frac{b_w}{d_3} + \frac{b_g}{d_2}"
                r" + \frac{b_o}{d_1}\right) = @p\left(\frac{@bw}{@d3} + \frac{@bg}{@d2} + "
                r"\frac{@bo}{@d1}\right) \\ &= @w + @g + @o\end{aligned}",
                t("training.how.mem_states", zero=str(z), dp=f"{dp:,.0f}", cp=f"{cp:g}",
                  n=format_quantity(param_counts(arch).total), tp=f"{tp:g}", pp=f"{pp:g}",
                  first=t("training.how.mem_first_stage") if pp > 1 else ""),
                p=format_quantity(mem.params_per_gpu), bw=f"{mem.weight_bytes_per_elem:g} B",
                bg=f"{mem.grad_bytes_per_elem:g} B", bo=f"{mem.optimizer_bytes_per_elem:g} B",
                d3=count(mem.dense_shards if z >= 3 else 1), d2=count(mem.dense_shards if z >= 2 else 1),
                d1=count(mem.dense_shards if z >= 1 else 1),
                w=si(mem.weights, "B"), g=si(mem.gradients, "B"), o=si(mem.optimizer, "B")),
        formula(_acts_tex("selective" if (flash_attention and recompute == "none") else recompute,
                          sequence_parallel),
                t("training.how.mem_acts", schedule=t(f"training.mem.schedule.{mem.schedule}")),
                s=count(mem.seq_per_gpu), b=count(micro_batch), h=count(arch.d_model), a=count(arch.n_heads),
                tp=count(tp), per=si(mem.activations_per_layer, "B"),
                layers=text(f"{mem.layers_in_flight:,.4g}"), acts=si(mem.activations, "B")),
    ]
    if mem.zero3_buffers:
        items.append(formula(r"M_{\text{ZeRO-3}} = (2\,b_w + b_g)\,U"
                             r" = (2 \times @bw + @bg) \times @u = @buf",
                             t("training.mem.zero3_help"), bw=f"{mem.weight_bytes_per_elem:g}",
                             bg=f"{mem.grad_bytes_per_elem:g}", u=format_quantity(mem.unit_params),
                             buf=si(mem.zero3_buffers, "B")))
    return items


def _acts_tex(recompute: str, sp: bool = True) -> str:
    if not sp:
        core = {"full": r"2\,s\,b\,h = 2 \times @s \times @b \times @h",
                "selective": r"s\,b\,h\left(10 + \frac{24}{t}\right) = @s \times @b \times @h"
                             r"\left(10 + \frac{24}{@tp}\right)"}.get(
            recompute, r"s\,b\,h\left(10 + \frac{24}{t} + \frac{5\,a\,s}{h\,t}\right) = @s \times @b"
                       r" \times @h\left(10 + \frac{24}{@tp} + \frac{5 \times @a \times @s}{@h \times @tp}\right)")
        return (r"\begin{aligned} M_{\text{act}} &= L_{\text{in flight}} \times " + core +
                r" \\ &= @layers \times @per = @acts\end{aligned}")
    if recompute == "full":
        core = r"\frac{2\,s\,b\,h}{t} = \frac{2 \times @s \times @b \times @h}{@tp}"
        tail = r" \quad (a = @a)"
    elif recompute == "selective":
        core = r"\frac{34\,s\,b\,h}{t} = \frac{34 \times @s \times @b \times @h}{@tp}"
        tail = r" \quad (a = @a)"
    else:
        core = (r"\frac{s\,b\,h}{t}\left(34 + \frac{5\,a\,s}{h}\right) = "
                r"\frac{@s \times @b \times @h}{@tp}\left(34 + \frac{5 \times @a \times @s}{@h}\right)")
        tail = ""
    return (r"\begin{aligned} M_{\text{act}} &= L_{\text{in flight}} \times " + core + tail +
            r" \\ &= @layers \times @per = @acts\end{aligned}")
