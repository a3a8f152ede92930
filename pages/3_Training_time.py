"""Training-time page: days, GPU-hours and money for 6·N·D FLOP at a given MFU.

Every number comes from calc.training; this page only reads inputs and lays out results.
"""
import math

import numpy as np
import streamlit as st

from calc.training import (CHINCHILLA_TOKENS_PER_PARAM, days, gpu_hours, gpus_for_deadline,
                           mfu_from_gpu_hours, mfu_gain, seconds_from_days, tokens_for_params,
                           training_cost, training_flops, training_seconds)
from calc.units import QuantityError, format_si, parse_quantity
from ui.figures.training import days_vs_mfu_figure
from ui.formula import count, formula, si
from ui.frame import calculator, how_computed, page_frame
from ui.model_sections import (flops_breakdown, model_params_note, recompute_select,
                               training_flops as model_training_flops, training_memory_section)
from ui.state import bound, set_value
from ui.widgets import COUNT, bound_checkbox, format_quantity, quantity_input

ctx = page_frame("training")
t = ctx.t
model = ctx.model           # None: "Custom: parameters only" (6·N per token, the chapter's)

# Percent labels as options: the URL reads "mfu=45%", calc.units turns it into 0.45.
MFU_OPTIONS = [f"{k}%" for k in range(5, 81)]
MFU_GRID = np.array([parse_quantity(o, kind="fraction") for o in MFU_OPTIONS])


def fmt_days(d: float) -> str:
    return f"{d:,.1f}" if d < 100 else f"{d:,.0f}"


def fmt_money(x: float) -> str:
    return f"{x:,.0f}"


def use_chinchilla() -> None:
    """Button callback: D = 20 × N (when N is readable)."""
    try:
        if model is not None:
            from calc.models import param_counts
            n = param_counts(model).total
        else:
            n = parse_quantity(st.session_state.get("params", "7B"), kind="count")
        set_value("tokens", format_quantity(tokens_for_params(n)))
    except (QuantityError, ValueError, TypeError):
        st.session_state["_training_chinchilla_failed"] = True


st.title(t("training.title"))
st.markdown(t("training.intro"))

@calculator("training")
def training_calculator() -> None:
    """Inputs, results, the chart, memory per GPU and how they are computed (one fragment)."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        st.subheader(t("training.inputs_heading"))
        if model is None:
            n_params = quantity_input(t, t("training.params"), "params", "7B", kind="count",
                                      help=t("training.params_help"), slider=(1e8, 2e12))
        else:
            n_params = model_params_note(t, model)
        n_tokens = quantity_input(t, t("training.tokens"), "tokens", "1T", kind="count",
                                  help=t("training.tokens_help"), slider=(1e9, 1e14))
        st.button(t("training.chinchilla", k=f"{CHINCHILLA_TOKENS_PER_PARAM:g}"),
                  on_click=use_chinchilla, help=t("training.chinchilla_help"))
        if st.session_state.pop("_training_chinchilla_failed", False):
            st.error(t("training.chinchilla_failed"))
        n_gpus = quantity_input(t, t("training.gpus"), "gpus", "64", kind="count", bounds=COUNT,
                                help=t("training.gpus_help"))
        mfu_text = bound(st.select_slider, t("training.mfu"), key="mfu", options=MFU_OPTIONS,
                         value="45%", help=t("training.mfu_help"),
                         is_valid=lambda v: v in MFU_OPTIONS)
        compare_text = bound(st.select_slider, t("training.compare_mfu"), key="compare_mfu",
                             options=MFU_OPTIONS, value="25%", help=t("training.compare_mfu_help"),
                             is_valid=lambda v: v in MFU_OPTIONS)
        chosen_mfu = parse_quantity(mfu_text, kind="fraction")
        compare_mfu = parse_quantity(compare_text, kind="fraction")
        if model is not None:
            seq = quantity_input(t, t("mfu.seq"), "seq", "4096", kind="count", bounds=COUNT,
                                 help=t("mfu.seq_help"), slider=(128, 1e6))
            causal = bound_checkbox(t("mfu.causal"), "causal", value=True,
                                    help=t("mfu.causal_help"))
        else:
            seq, causal = None, True
        recompute = recompute_select(t)
        price = quantity_input(t, t("training.price"), "price", "", kind="count",
                               help=t("training.price_help"), placeholder="2.5", optional=True)
        peak = ctx.peak_flops
        if ctx.ready:
            st.caption(t("training.peak_used", peak=format_si(peak, "FLOP/s"),
                         device=ctx.device_label(), precision=t(f"common.prec.{ctx.precision}")))

    items: list = []
    ok = ctx.ready and n_params is not None and n_tokens is not None and n_gpus is not None \
        and (model is None or seq is not None)

    with results:
        st.subheader(t("training.results_heading"))
        if not ok:
            st.warning(t("common.missing_inputs"))
        else:
            tf = model_training_flops(t, model, n_params=n_params, use_attn=False, n_layers=None,
                                      hidden=None, seq=seq, causal=causal, recompute=recompute)
            fpt = tf.flops.model if model is not None else None    # None: 6·N (calc.training)
            flops = training_flops(n_params, n_tokens, fpt)
            secs = training_seconds(n_params, n_tokens, n_gpus, peak, chosen_mfu, fpt)
            n_days = days(secs)
            hours = gpu_hours(n_params, n_tokens, peak, chosen_mfu, fpt)
            c1, c2 = st.columns(2)
            c3, c4 = st.columns(2)
            c1.metric(t("training.metric.flops"), format_si(flops, "FLOP"),
                      help=t("training.metric.flops_help"))
            c2.metric(t("training.metric.days"), t("training.days_value", days=fmt_days(n_days)),
                      help=t("training.metric.days_help"))
            c3.metric(t("training.metric.gpu_hours"), f"{hours:,.0f}",
                      help=t("training.metric.gpu_hours_help"))
            if price is not None:
                cost = training_cost(hours, price)
                c4.metric(t("training.metric.cost"), fmt_money(cost),
                          help=t("training.metric.cost_help", price=f"{price:g}"))
            else:
                c4.metric(t("training.metric.cost"), "—", help=t("training.metric.cost_none"))
            if model is not None:
                flops_breakdown(t, tf.flops)
            hfu_equiv = chosen_mfu * tf.flops.hardware / tf.flops.model
            if recompute != "none":
                st.caption(t("model.training.hfu", mfu=mfu_text, hfu=f"{hfu_equiv:.1%}",
                             recompute=t(f"model.recompute.{recompute}")))

            log_y = bound_checkbox(t("training.log_y"), "logy", value=False,
                                   help=t("training.log_y_help"))
            grid_days = days(training_seconds(n_params, n_tokens, n_gpus, peak, MFU_GRID, fpt))
            cmp_days = days(training_seconds(n_params, n_tokens, n_gpus, peak, compare_mfu, fpt))
            fig = days_vs_mfu_figure(t, MFU_GRID, grid_days, (chosen_mfu, n_days),
                                     (compare_mfu, cmp_days), log_y=log_y)
            st.plotly_chart(fig, config=ctx.chart_config("training_days_vs_mfu"),
                            key="training_days_vs_mfu")

            gain = mfu_gain(n_params, n_tokens, n_gpus, peak, compare_mfu, chosen_mfu,
                            price_per_gpu_hour=price or 0.0, flops_per_token=fpt)
            if compare_mfu == chosen_mfu:
                st.info(t("training.compare_same"))
            else:
                key = "training.compare_slower" if gain.days > 0 else "training.compare_faster"
                text = t(key, cmp=compare_text, chosen=mfu_text, cmp_days=fmt_days(cmp_days),
                         days=fmt_days(n_days), diff=fmt_days(abs(gain.days)),
                         hours=f"{abs(gain.gpu_hours):,.0f}")
                if price is not None:
                    text += " " + t("training.compare_money", money=fmt_money(abs(gain.cost)))
                st.info(text, icon=":material/payments:")

            st.subheader(t("training.deadline_heading"))
            deadline = quantity_input(t, t("training.deadline_days"), "deadline_days", "30",
                                      kind="count", help=t("training.deadline_days_help"))
            if deadline is not None:
                need = gpus_for_deadline(n_params, n_tokens, seconds_from_days(deadline), peak,
                                         chosen_mfu, fpt)
                st.success(t("training.deadline_result", days=f"{deadline:g}", mfu=mfu_text,
                             gpus=f"{math.ceil(need):,}", exact=f"{need:,.1f}"), icon=":material/calculate:")
            else:
                need = None

            st.subheader(t("model.training.inverse_heading"))
            published_hours = quantity_input(t, t("model.training.gpu_hours"), "gpu_hours", "",
                                             kind="count", help=t("model.training.gpu_hours_help"),
                                             placeholder="1.8M", optional=True)
            implied = None
            if published_hours is not None:
                implied = mfu_from_gpu_hours(n_params, n_tokens, published_hours, peak, fpt)
                msg = t("model.training.implied", hours=f"{published_hours:,.0f}",
                        mfu=f"{implied:.1%}", tokens=format_quantity(n_tokens))
                if implied > 1.0:
                    st.error(msg + " " + t("model.training.implied_over"), icon=":material/error:")
                else:
                    st.info(msg, icon=":material/history:")

            F, P, M = si(flops, "FLOP"), si(peak, "FLOP/s"), mfu_text
            items = list(tf.formulas) + [
                formula(r"C = C_{\text{tok}}\,D = @fpt \times @tokens = @flops", t("model.how.training_flops"),
                        fpt=si(fpt, "FLOP"), tokens=format_quantity(n_tokens), flops=F)
                if model is not None else
                formula(r"C = 6\,N\,D = 6 \times @params \times @tokens = @flops", t("training.how.flops"),
                        params=format_quantity(n_params), tokens=format_quantity(n_tokens), flops=F),
                formula(r"\begin{aligned} T &= \frac{C}{n_{\text{GPU}} \times P_{\text{peak}} \times \text{MFU}}"
                        r" \\ &= \frac{@flops}{@gpus \times @peak \times @mfu} = @secs = @days\end{aligned}",
                        t("training.how.time"), flops=F, gpus=count(n_gpus), peak=P, mfu=M,
                        secs=f"{secs:,.0f} s", days=t("training.days_value", days=fmt_days(n_days))),
                formula(r"\text{GPU·h} = \frac{C}{P_{\text{peak}} \times \text{MFU} \times 3600} = @hours",
                        t("training.how.gpu_hours"), hours=f"{hours:,.0f}"),
            ]
            if price is not None:
                items.append(formula("@name = @hours \\times @price = @cost", t("training.how.cost"),
                                     name=t("training.metric.cost"), hours=f"{hours:,.0f}",
                                     price=f"{price:g}", cost=fmt_money(training_cost(hours, price))))
            if need is not None:
                items.append(formula(
                    r"\begin{aligned} n_{\text{GPU}} &= \frac{C}{T_{\text{deadline}} \times P_{\text{peak}}"
                    r" \times \text{MFU}} \\ &= \frac{@flops}{@deadline \times @peak \times @mfu} = @need"
                    r"\end{aligned}", t("training.how.deadline"), flops=F,
                    deadline=f"{seconds_from_days(deadline):,.0f} s", peak=P, mfu=M, need=f"{need:,.1f}"))

            if implied is not None:
                items.append(formula(r"\text{MFU} = \frac{C}{\text{GPU·h} \times 3600 \times P_{\text{peak}}}"
                                     r" = \frac{@flops}{@hours \times 3600 \times @peak} = @mfu",
                                     t("model.how.implied_mfu"), flops=F, hours=count(published_hours),
                                     peak=P, mfu=f"{implied:.1%}"))

    if ok:
        st.divider()
        items += training_memory_section(t, model, n_gpus=n_gpus, seq=seq, recompute=recompute,
                                         memory_bytes=ctx.device.memory_bytes if ctx.device else None)

    if items:
        how_computed(t, items)


training_calculator()

st.divider()
st.markdown(t("training.takeaway"))
