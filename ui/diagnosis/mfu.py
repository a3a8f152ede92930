"""MFU and HFU per step from the trace's step times: the model (the sidebar's, or N typed
here), the tokens a step processes (the whole job's), the GPUs they are spread over and the
sidebar's peak; a link opens the MFU page with those inputs (tokens/s from the mean step).

FLOP per token come from ui.model_sections.training_flops (calc.training_flops, causal by
default) and the mean step is calc.mfu.measured_mfu's record: the same numbers, band and
verdict the MFU page shows for the same run."""
from __future__ import annotations

import streamlit as st

from calc.diagnosis import StepMfu, TraceDiagnosis, step_mfu
from calc.training_flops import CAUSAL_DEFAULT
from calc.units import format_si
from ui.figures.diagnosis import steps_figure
from ui.model_sections import model_params_note, recompute_select, training_flops
from ui.pages import page_file
from ui.state import nav_query_params
from ui.trace_device import render_trace_device
from ui.widgets import COUNT, bound_checkbox, format_quantity, percent_text, quantity_input

MFU_PAGE = page_file("mfu")


def mfu_link_params(ctx, params_text: str | None, tokens_per_s: float, n_gpus: float,
                    recompute: str, seq: float | None = None,
                    causal: bool = CAUSAL_DEFAULT) -> dict[str, str]:
    """Query parameters that open the MFU page with these inputs (that page's URL names;
    the sidebar's names — language, device, precision, model — come along)."""
    q = dict(nav_query_params())
    q.update({"tokens_per_s": format_quantity(tokens_per_s), "gpus": format_quantity(n_gpus)})
    if params_text:
        q["params"] = params_text
    if recompute and recompute != "none":
        q["recompute"] = recompute
    if seq:
        q["seq"] = format_quantity(seq)
    if causal != CAUSAL_DEFAULT:
        q["causal"] = "true" if causal else "false"
    return {k: v for k, v in q.items() if v}


def step_rows(t, d: TraceDiagnosis, m: StepMfu | None, tokens_per_step: float | None) -> list[dict]:
    rows = []
    for i, s in enumerate(d.steps):
        row = {t("diagnosis.step.col.step"): s.name,
               t("diagnosis.step.col.time"): format_si(s.seconds, "s"),
               t("diagnosis.step.col.busy"): percent_text(t, s.busy_fraction)}
        if m is not None and tokens_per_step:
            row[t("diagnosis.step.col.tokens")] = format_si(float(m.step_tokens_per_s[i]), "tok/s")
            row[t("diagnosis.step.col.mfu")] = percent_text(t, float(m.mfu[i]))
            row[t("diagnosis.step.col.hfu")] = percent_text(t, float(m.hfu[i]))
        rows.append(row)
    return rows


def render_mfu(ctx, d: TraceDiagnosis) -> None:
    t = ctx.t
    model = ctx.model
    st.subheader(t("diagnosis.mfu_heading"))
    if not d.steps:
        st.info(t("diagnosis.mfu_no_steps"), icon=":material/info:")
        return
    st.markdown(t("diagnosis.mfu_intro"))
    # MFU per step divides by the sidebar's peak: offer the trace's own GPU (issue 23)
    render_trace_device(t, d.device_name, ctx, key="diag_switch_device", what="diagnosis")
    c1, c2, c3 = st.columns(3)
    seq = None
    causal = CAUSAL_DEFAULT
    with c1:
        if model is None:
            n_params = quantity_input(t, t("diagnosis.params"), "params", "", kind="count",
                                      optional=True, placeholder="7B",
                                      help=t("diagnosis.params_help"))
        else:
            n_params = model_params_note(t, model)
    with c2:
        tokens = quantity_input(t, t("diagnosis.tokens_step"), "tokens_step", "", kind="count",
                                optional=True, placeholder="4M",
                                help=t("diagnosis.tokens_step_help"))
        gpus = quantity_input(t, t("diagnosis.gpus"), "gpus", "1", kind="count", bounds=COUNT,
                              help=t("diagnosis.gpus_help"))
    with c3:
        recompute = recompute_select(t)
        if model is not None:
            seq = quantity_input(t, t("diagnosis.seq"), "seq", "4096", kind="count", bounds=COUNT,
                                 help=t("diagnosis.seq_help"))
            causal = bound_checkbox(t("diagnosis.causal"), "causal", value=CAUSAL_DEFAULT,
                                    help=t("diagnosis.causal_help"))
    m = None
    ready = n_params and tokens and gpus and ctx.peak_flops and (model is None or seq)
    if ready:
        tf = training_flops(t, model, n_params=n_params, use_attn=model is not None,
                            n_layers=None, hidden=None, seq=seq, causal=causal,
                            recompute=recompute)
        m = step_mfu([s.seconds for s in d.steps], tf.n_params, tokens, gpus, ctx.peak_flops,
                     flops=tf.flops)
        band = m.measured.band
        k = st.columns(3)
        k[0].metric(t("diagnosis.mfu_mean"), percent_text(t, m.mean_mfu),
                    help=t("diagnosis.mfu_mean_help", band=t(f"mfu.band.{band.key}.name")))
        k[1].metric(t("diagnosis.hfu_mean"), percent_text(t, m.mean_hfu),
                    help=t("diagnosis.hfu_mean_help"))
        k[2].metric(t("diagnosis.tokens_per_s"), format_si(m.tokens_per_s, "tok/s"),
                    help=t("diagnosis.tokens_per_s_help",
                           step=format_si(m.mean_step_seconds, "s")))
        if m.measured.verdict == "mfu_impossible":
            st.error(t("mfu.over_100"), icon=":material/error:")
        elif m.measured.verdict == "hfu_impossible":
            st.error(t("mfu.hfu_over_100", hfu=percent_text(t, m.mean_hfu),
                       mfu=percent_text(t, m.mean_mfu),
                       recompute=t(f"arch.recompute.{recompute}")), icon=":material/error:")
        st.caption(t("diagnosis.mfu_caption", peak=format_si(ctx.peak_flops, "FLOP/s"),
                     device=ctx.device_label(), precision=t(f"common.prec.{ctx.precision}"),
                     fpt=format_si(tf.flops.model, "FLOP"), hw=format_si(tf.flops.hardware, "FLOP"),
                     band=t(f"mfu.band.{band.key}.name")))
        params_text = None if model is not None else \
            str(st.session_state.get("params") or format_quantity(n_params))
        st.page_link(MFU_PAGE, label=t("diagnosis.mfu_link"), icon=":material/speed:",
                     query_params=mfu_link_params(ctx, params_text, m.tokens_per_s, gpus,
                                                  recompute, seq, causal))
    elif not ctx.peak_flops:
        st.warning(t("common.custom_incomplete"))
    else:
        st.caption(t("diagnosis.mfu_fill"))
    st.plotly_chart(steps_figure(t, d, None if m is None else m.mfu),
                    config=ctx.chart_config("step_times"), key="diag_steps")
    st.dataframe(step_rows(t, d, m, tokens), hide_index=True, width="stretch")
