"""Training-time page: days, GPU-hours and money for 6·N·D FLOP at a given MFU.

Every number comes from calc.training; this page only reads inputs and lays out results.
"""
import math

import numpy as np
import streamlit as st

from calc.training import (CHINCHILLA_TOKENS_PER_PARAM, days, gpu_hours, gpus_for_deadline,
                           mfu_from_gpu_hours, mfu_gain, seconds_from_days, tokens_for_params,
                           training_cost, training_flops, training_seconds)
from calc.currency import (CURRENCY_CODES, DEFAULT_CURRENCY, currency_label, format_money,
                           format_price)
from calc.units import QuantityError, format_si, parse_price, parse_quantity
from ui.figures.training import days_vs_mfu_figure
from ui.formula import count, formula, si
from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.model_sections import (flops_breakdown, model_params_note, recompute_select,
                               training_flops as model_training_flops, training_memory_section)
from ui.numbers import SECONDS_PER_DAY, format_count, format_duration, format_exact, plural
from ui.plans.add import published_mfu_caption, training_setup_button
from ui.state import bound, set_value
from ui.widgets import (COUNT, bound_checkbox, bound_select, format_quantity, percent_text,
                        quantity_input)

ctx = page_frame("training")
t = ctx.t
model = ctx.model           # None: "Custom: parameters only" (6·N per token, the chapter's)

# Percent labels as options: the URL reads "mfu=45%", calc.units turns it into 0.45.
MFU_OPTIONS = [f"{k}%" for k in range(5, 81)]
MFU_GRID = np.array([parse_quantity(o, kind="fraction") for o in MFU_OPTIONS])


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

def deadline_input() -> float | None:
    """The deadline field under its heading (drawn whether or not the run can be computed,
    so that a bad entry elsewhere never makes it disappear)."""
    st.subheader(t("training.deadline_heading"))
    return quantity_input(t, t("training.deadline_days"), "deadline_days", "30", kind="count",
                          help=t("training.deadline_days_help"))


def gpu_hours_input() -> float | None:
    """The published GPU-hours field of the inverse (GPU-hours → MFU), under its heading."""
    st.subheader(t("model.training.inverse_heading"))
    return quantity_input(t, t("model.training.gpu_hours"), "gpu_hours", "", kind="count",
                          help=t("model.training.gpu_hours_help"), placeholder="1.8M",
                          optional=True)


@calculator("training")
def training_calculator() -> None:
    """Inputs, results, the chart, memory per GPU, how they are computed and the takeaway (it names the result)."""
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
        published_mfu_caption(ctx, n_params, n_gpus)
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
        peak = ctx.peak_flops
        if ctx.ready:
            st.caption(t("training.peak_used", peak=format_si(peak, "FLOP/s"),
                         device=ctx.device_label(), precision=t(f"common.prec.{ctx.precision}")))
        training_setup_button(ctx, n_params, n_tokens, n_gpus, chosen_mfu, price,
                              recompute=recompute, seq=seq, causal=causal)

    items: list = []
    # "Why this matters": the chapter's worked example until the inputs can be read, then this
    # page's own numbers (the defaults are the worked example: 7B, 1T tokens, 64 × A100).
    takeaway = t("training.takeaway_static")
    ok = ctx.ready and n_params is not None and n_tokens is not None and n_gpus is not None \
        and (model is None or seq is not None)

    with results:
        st.subheader(t("training.results_heading"))
        if not ok:
            st.warning(t("common.missing_inputs"))
            deadline_input()
            gpu_hours_input()
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
            c2.metric(t("training.metric.days"), format_duration(t, secs),
                      help=t("training.metric.days_help"))
            c3.metric(t("training.metric.gpu_hours"), format_count(hours),
                      help=t("training.metric.gpu_hours_help"))
            if price is not None:
                cost = training_cost(hours, price)
                c4.metric(t("training.metric.cost"), format_money(cost, code),
                          help=t("training.metric.cost_help", price=format_price(price, code)))
            else:
                c4.metric(t("training.metric.cost"), "—", help=t("training.metric.cost_none"))
            why_link(t, 4)
            if model is not None:
                flops_breakdown(t, tf.flops)
            hfu_equiv = chosen_mfu * tf.flops.hardware / tf.flops.model
            if recompute != "none":
                st.caption(t("model.training.hfu", mfu=mfu_text, hfu=percent_text(t, hfu_equiv),
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
                text = t(key, cmp=compare_text, chosen=mfu_text,
                         cmp_time=format_duration(t, cmp_days * SECONDS_PER_DAY),
                         time=format_duration(t, secs),
                         diff=format_duration(t, abs(gain.days) * SECONDS_PER_DAY),
                         hours=plural(t, "common.n_gpu_hours", abs(gain.gpu_hours)))
                if price is not None:
                    text += " " + t("training.compare_money", money=format_money(abs(gain.cost), code))
                st.info(text, icon=":material/payments:")

            run = {"params": format_quantity(n_params), "tokens": format_quantity(n_tokens),
                   "gpus": format_count(n_gpus), "device": ctx.device_label()}
            if compare_mfu == chosen_mfu:
                takeaway = t("training.takeaway_same", **run, mfu=mfu_text,
                             time=format_duration(t, secs),
                             hours=plural(t, "common.n_gpu_hours", hours))
            else:
                (lo, lo_text), (hi, hi_text) = sorted([(chosen_mfu, mfu_text),
                                                       (compare_mfu, compare_text)])
                lo_secs = training_seconds(n_params, n_tokens, n_gpus, peak, lo, fpt)
                hi_secs = training_seconds(n_params, n_tokens, n_gpus, peak, hi, fpt)
                takeaway = t("training.takeaway", **run, lo=lo_text, hi=hi_text,
                             lo_time=format_duration(t, lo_secs), hi_time=format_duration(t, hi_secs),
                             saved=format_duration(t, lo_secs - hi_secs),
                             hours=plural(t, "common.n_gpu_hours", abs(gain.gpu_hours)))
                takeaway += " " + (t("training.takeaway_money", price=format_price(price, code),
                                     money=format_money(abs(gain.cost), code))
                                   if price is not None else t("training.takeaway_no_price"))

            deadline = deadline_input()
            if deadline is not None:
                need = gpus_for_deadline(n_params, n_tokens, seconds_from_days(deadline), peak,
                                         chosen_mfu, fpt)
                deadline_text = plural(t, "common.dur.days", deadline)     # as typed: "30 days"
                if need <= 1:
                    # One GPU already meets the deadline: say so, with its own time.
                    st.success(t("training.deadline_one", mfu=mfu_text, time=format_duration(
                        t, training_seconds(n_params, n_tokens, 1, peak, chosen_mfu, fpt)),
                        deadline=deadline_text), icon=":material/calculate:")
                else:
                    st.success(t("training.deadline_result", deadline=deadline_text, mfu=mfu_text,
                                 gpus=plural(t, "common.n_gpus", math.ceil(need)),
                                 exact=format_exact(need)), icon=":material/calculate:")
            else:
                need = None

            published_hours = gpu_hours_input()
            implied = None
            if published_hours is not None:
                implied = mfu_from_gpu_hours(n_params, n_tokens, published_hours, peak, fpt)
                msg = t("model.training.implied", hours=f"{published_hours:,.0f}",
                        mfu=percent_text(t, implied), tokens=format_quantity(n_tokens))
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
                        secs=f"{secs:,.0f} s", days=format_duration(t, secs)),
                formula(r"\text{GPU·h} = \frac{C}{P_{\text{peak}} \times \text{MFU} \times 3600} = @hours",
                        t("training.how.gpu_hours"), hours=format_count(hours)),
            ]
            if price is not None:
                items.append(formula("@name = @hours \\times @price = @cost", t("training.how.cost"),
                                     name=t("training.metric.cost"), hours=format_count(hours),
                                     price=format_price(price, code),
                                     cost=format_money(training_cost(hours, price), code)))
            if need is not None:
                items.append(formula(
                    r"\begin{aligned} n_{\text{GPU}} &= \frac{C}{T_{\text{deadline}} \times P_{\text{peak}}"
                    r" \times \text{MFU}} \\ &= \frac{@flops}{@deadline \times @peak \times @mfu} = @need"
                    r"\end{aligned}", t("training.how.deadline"), flops=F,
                    deadline=f"{seconds_from_days(deadline):,.0f} s", peak=P, mfu=M, need=format_exact(need)))

            if implied is not None:
                items.append(formula(r"\text{MFU} = \frac{C}{\text{GPU·h} \times 3600 \times P_{\text{peak}}}"
                                     r" = \frac{@flops}{@hours \times 3600 \times @peak} = @mfu",
                                     t("model.how.implied_mfu"), flops=F, hours=count(published_hours),
                                     peak=P, mfu=percent_text(t, implied)))

    if ok:
        st.divider()
        items += training_memory_section(t, model, n_gpus=n_gpus, seq=seq, recompute=recompute,
                                         memory_bytes=ctx.device.memory_bytes if ctx.device else None)

    if items:
        how_computed(t, items)

    st.divider()
    st.markdown(takeaway)


training_calculator()
