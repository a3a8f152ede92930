"""MFU page: how far a training run is from the ceiling, and what to check when it is low.

Every number comes from calc.mfu; this page only reads inputs and lays out results.
"""
import streamlit as st

from calc.mfu import (ATTENTION_WARNING_SEQ_LEN, achieved_flops_per_gpu, attention_flops_share,
                      mfu, mfu_band, per_gpu_mix_up, required_tokens_per_s,
                      tokens_per_s_per_gpu)
from calc.units import format_si, parse_quantity
from ui.figures.mfu import mfu_band_figure
from ui.formula import count, formula, si
from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.model_sections import (flops_breakdown, model_params_note, recompute_select,
                               training_flops)
from ui.numbers import plural
from ui.state import bound
from ui.widgets import (COUNT, Bounds, bound_checkbox, format_quantity, is_blank, percent_text,
                        quantity_input)

ctx = page_frame("mfu")
t = ctx.t
model = ctx.model           # None: "Custom: parameters only" (the sidebar's Model choice)


def pct(x: float) -> str:
    return percent_text(t, x)


# Percent labels as options: the URL reads "target_mfu=45%", calc.units turns it into 0.45.
TARGET_OPTIONS = [f"{k}%" for k in range(5, 81)]

st.title(t("mfu.title"))
st.markdown(t("mfu.intro"))

@calculator("mfu")
def mfu_calculator() -> None:
    """Inputs, results, how they are computed, and the checklist's heading (it names the MFU band)."""
    inputs, results = st.columns([1, 1.45], gap="large")

    with inputs:
        st.subheader(t("mfu.inputs_heading"))
        if model is None:
            n_params = quantity_input(t, t("mfu.params"), "params", "7B", kind="count",
                                      help=t("mfu.params_help"), slider=(1e8, 2e12))
        else:
            n_params = model_params_note(t, model)
        tokens_per_s = quantity_input(t, t("mfu.tokens_per_s"), "tokens_per_s", "12k",
                                      kind="token_rate", help=t("mfu.tokens_per_s_help"),
                                      slider=(100, 1e8))
        n_gpus = quantity_input(t, t("mfu.gpus"), "gpus", "8", kind="count", bounds=COUNT,
                                help=t("mfu.gpus_help"))
        if tokens_per_s is not None and n_gpus is not None:
            st.caption(t("mfu.per_gpu_caption",
                         per=format_si(tokens_per_s_per_gpu(tokens_per_s, n_gpus), "tok/s"),
                         total=format_si(tokens_per_s, "tok/s"), gpus=f"{n_gpus:,.0f}"))

        # Peak: the sidebar's device and precision, unless typed here.
        override = quantity_input(t, t("mfu.peak_override"), "peak_override", "", unit="FLOP/s",
                                  kind="flop_rate", bounds=Bounds(hi=1e21), optional=True,
                                  help=t("mfu.peak_override_help"),
                                  placeholder=format_si(ctx.peak_flops, "FLOP/s") if ctx.ready else "")
        if is_blank("peak_override"):
            peak = ctx.peak_flops
            peak_source = t("mfu.peak_from_sidebar", device=ctx.device_label(),
                            precision=t(f"common.prec.{ctx.precision}"))
        else:                               # a typed peak; None when it was rejected
            peak, peak_source = override, t("mfu.peak_from_override")
        if peak is not None:
            st.caption(t("mfu.peak_used", peak=format_si(peak, "FLOP/s"), source=peak_source))

        if model is None:
            with st.expander(t("mfu.attn_heading"), expanded=False):
                st.caption(t("mfu.attn_intro"))
                use_attn = bound_checkbox(t("mfu.attn"), "attn", value=False, help=t("mfu.attn_help"))
                n_layers = quantity_input(t, t("mfu.layers"), "layers", "32", kind="count",
                                          bounds=COUNT, help=t("mfu.layers_help"))
                hidden = quantity_input(t, t("mfu.hidden"), "hidden", "4096", kind="count",
                                        bounds=COUNT, help=t("mfu.hidden_help"))
                seq = quantity_input(t, t("mfu.seq"), "seq", "4096", kind="count", bounds=COUNT,
                                     help=t("mfu.seq_help"), slider=(128, 1e6))
                causal = bound_checkbox(t("mfu.causal"), "causal", value=False,
                                        help=t("mfu.causal_help"))
        else:                       # the architecture is known: the attention term is always in
            with st.expander(t("model.attn_heading"), expanded=True):
                st.caption(t("model.attn_intro"))
                use_attn, n_layers, hidden = True, model.n_layers, model.d_model
                seq = quantity_input(t, t("mfu.seq"), "seq", "4096", kind="count", bounds=COUNT,
                                     help=t("mfu.seq_help"), slider=(128, 1e6))
                causal = bound_checkbox(t("mfu.causal"), "causal", value=False,
                                        help=t("mfu.causal_help"))
        recompute = recompute_select(t)

        st.subheader(t("mfu.inverse_heading"))
        target_text = bound(st.select_slider, t("mfu.target_mfu"), key="target_mfu",
                            options=TARGET_OPTIONS, value="45%", help=t("mfu.target_mfu_help"),
                            is_valid=lambda v: v in TARGET_OPTIONS)
        target = parse_quantity(target_text, kind="fraction")

    formulas: list = []
    attn_ok = n_layers is not None and hidden is not None and seq is not None
    core_ok = n_params is not None and tokens_per_s is not None and n_gpus is not None \
        and peak is not None

    with results:
        st.subheader(t("mfu.results_heading"))
        if not core_ok:
            st.warning(t("common.missing_inputs"))
        elif use_attn and not attn_ok:
            st.warning(t("mfu.attn_missing"))
        else:
            tf = training_flops(t, model, n_params=n_params, use_attn=use_attn, n_layers=n_layers,
                                hidden=hidden, seq=seq, causal=causal, recompute=recompute)
            fpt = tf.flops.model
            share = tf.flops.attention_share if use_attn else None
            value = mfu(n_params, tokens_per_s, n_gpus, peak, flops_per_token=fpt)
            hfu = mfu(n_params, tokens_per_s, n_gpus, peak, flops_per_token=tf.flops.hardware)
            achieved = achieved_flops_per_gpu(n_params, tokens_per_s, n_gpus, flops_per_token=fpt)
            band = mfu_band(value)

            c1, c2 = st.columns(2)
            c1.metric(t("mfu.metric.mfu"), pct(value), help=t("mfu.metric.mfu_help"))
            c2.metric(t("mfu.metric.achieved"), format_si(achieved, "FLOP/s"),
                      help=t("mfu.metric.achieved_help", peak=format_si(peak, "FLOP/s")))
            c3, c4 = st.columns(2)
            c4.metric(t("mfu.metric.peak"), format_si(peak, "FLOP/s"), help=t("mfu.metric.peak_help"))
            c3.metric(t("mfu.metric.fpt"), format_si(fpt, "FLOP"),
                      help=t("mfu.metric.fpt_help"))
            c5, c6 = st.columns(2)
            c5.metric(t("model.metric.hfu"), pct(hfu),
                      help=t("model.metric.hfu_help", recompute=t(f"model.recompute.{recompute}")))
            c6.metric(t("model.metric.hw_fpt"), format_si(tf.flops.hardware, "FLOP"),
                      help=t("model.metric.hw_fpt_help"))
            st.caption(t("model.hfu_note"))
            why_link(t, 3)
            if model is not None:
                flops_breakdown(t, tf.flops)
            elif share is not None:
                st.caption(t("mfu.attn_share", share=pct(share)))
            why_link(t, 4)

            st.plotly_chart(mfu_band_figure(t, value, band), config=ctx.chart_config("mfu_bands"),
                            key="mfu_bands")
            advice = t("mfu.band_verdict", mfu=pct(value), name=t(f"mfu.band.{band.key}.name"),
                       advice=t(f"mfu.band.{band.key}.advice"))
            if value > 1.0:
                st.error(t("mfu.over_100"), icon=":material/error:")
            elif band.key == "suspicious":
                st.warning(advice + "\n\n" + t("mfu.over_60"), icon=":material/help:")
            elif band.key == "problem":
                st.error(advice, icon=":material/error:")
            elif band.key == "low":
                st.warning(advice, icon=":material/warning:")
            elif band.key == "fair":
                st.info(advice, icon=":material/info:")
            else:
                st.success(advice, icon=":material/check_circle:")
            st.caption(t("mfu.ceiling_note"))
            why_link(t, 5)
            whole_mfu = per_gpu_mix_up(value, n_gpus)
            if whole_mfu is not None:
                st.warning(t("mfu.per_gpu_hint", typed=format_si(tokens_per_s, "tok/s"),
                             gpus=f"{n_gpus:,.0f}", would=pct(whole_mfu),
                             total=format_si(required_tokens_per_s(n_params, whole_mfu, n_gpus, peak,
                                                                     flops_per_token=fpt), "tok/s")),
                           icon=":material/help:")

            if model is None and not use_attn and attn_ok and seq >= ATTENTION_WARNING_SEQ_LEN:
                would = attention_flops_share(n_params, n_layers, hidden, seq, causal=causal)
                st.warning(t("mfu.seq_warning", seq=f"{seq:,.0f}", share=pct(would)), icon=":material/warning:")

            needed = required_tokens_per_s(n_params, target, n_gpus, peak, flops_per_token=fpt)
            st.info(t("mfu.inverse_result", target=f"{target:.0%}",
                      needed=format_si(needed, "tok/s"), gpus=plural(t, "common.n_gpus", n_gpus),
                      now=format_si(tokens_per_s, "tok/s")), icon=":material/track_changes:")

            fpt_tex = (r"C_{\text{tok}} = 6N + 12\,L\,h\,s" + (r"\cdot\tfrac12" if causal else "")
                       + " = @fpt") if use_attn else r"C_{\text{tok}} = 6N = 6 \times @params = @fpt"
            shared = dict(fpt=si(fpt, "FLOP"), gpus=count(n_gpus), peak=si(peak, "FLOP/s"))
            formulas = list(tf.formulas) if model is not None else [
                formula(fpt_tex, t("mfu.how.fpt"), fpt=shared["fpt"],
                        **({} if use_attn else {"params": format_quantity(n_params)}))]
            if model is None:
                formulas += list(tf.formulas)
            formulas += [
                formula(r"\begin{aligned}\text{MFU} &= \frac{C_{\text{tok}} \times \text{tok/s}}"
                        r"{n_{\text{GPU}} \times P_{\text{peak}}} = \frac{@fpt \times @tps}{@gpus \times @peak}"
                        r" \\ &= \frac{@achieved}{@peak} = @mfu\end{aligned}",
                        t("mfu.how.mfu"), **shared, tps=si(tokens_per_s, "tok/s"),
                        achieved=si(achieved, "FLOP/s"), mfu=pct(value)),
                formula(r"\text{HFU} = \frac{C^{\text{HW}}_{\text{tok}} \times \text{tok/s}}"
                        r"{n_{\text{GPU}} \times P_{\text{peak}}} = \frac{@hw \times @tps}{@gpus \times @peak}"
                        r" = @hfu", t("model.how.hfu"), hw=si(tf.flops.hardware, "FLOP"),
                        tps=si(tokens_per_s, "tok/s"), gpus=shared["gpus"], peak=shared["peak"],
                        hfu=pct(hfu)),
                formula(r"\begin{aligned}\text{tok/s}_{\text{target}} &= \frac{\text{MFU}_{\text{target}}"
                        r" \times n_{\text{GPU}} \times P_{\text{peak}}}{C_{\text{tok}}} \\"
                        r" &= \frac{@target \times @gpus \times @peak}{@fpt} = @needed\end{aligned}",
                        t("mfu.how.inverse"), **shared, target=f"{target:.0%}",
                        needed=si(needed, "tok/s")),
            ]

    if formulas:
        how_computed(t, formulas)

    st.divider()
    if not formulas:
        diag_key = "mfu.diag_heading"
    elif value > 1.0:
        diag_key = "mfu.diag_heading.impossible"
    else:
        diag_key = f"mfu.diag_heading.{band.key}"
    st.subheader(t(diag_key))


mfu_calculator()

st.markdown(t("mfu.diag_intro"))
for step in range(1, 7):
    st.markdown(t(f"mfu.diag.{step}"))
    if step == 2:
        st.code(t("mfu.snippet.random"), language="python")
        st.caption(t("mfu.diag.2_after"))
    if step == 4:
        st.code(t("mfu.snippet.profiler"), language="python")
why_link(t, 6)

st.subheader(t("mfu.trace_heading"))
st.markdown(t("mfu.trace_table"))
why_link(t, 7)
