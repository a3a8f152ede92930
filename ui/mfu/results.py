"""The MFU page's results: calc.mfu.measured_mfu's record as it is — MFU, achieved FLOP/s,
FLOP per token, peak, HFU, the band and its advice, the verdict when MFU or HFU is above
100 % (impossible, with the likely cause), the per-GPU mix-up, the attention warning and
the inverse (tokens/s for a target MFU)."""
from __future__ import annotations

from typing import Optional

import streamlit as st

from calc.mfu import ATTENTION_WARNING_SEQ_LEN, MeasuredMfu, attention_flops_share, measured_mfu
from calc.units import format_si
from ui.figures.mfu import mfu_band_alt, mfu_band_svg
from ui.mfu.inputs import MfuInputs
from ui.model_sections import TrainingFlops, flops_breakdown, training_flops
from ui.numbers import plural
from ui.widgets import percent_text


def _metrics(t, rec: MeasuredMfu, recompute: str, rate: str = "FLOP/s") -> None:
    """The record's numbers; ``rate``: the peak's unit (OP/s at INT8)."""
    pct = lambda x: percent_text(t, x)                      # noqa: E731
    c1, c2 = st.columns(2)
    c1.metric(t("mfu.metric.mfu"), pct(rec.mfu), help=t("mfu.metric.mfu_help"))
    c2.metric(t("mfu.metric.achieved"), format_si(rec.achieved_flops_per_gpu, rate),
              help=t("mfu.metric.achieved_help", peak=format_si(rec.peak_flops, rate)))
    c3, c4 = st.columns(2)
    c4.metric(t("mfu.metric.peak"), format_si(rec.peak_flops, rate), help=t("mfu.metric.peak_help"))
    c3.metric(t("mfu.metric.fpt"), format_si(rec.flops.model, "FLOP"), help=t("mfu.metric.fpt_help"))
    c5, c6 = st.columns(2)
    c5.metric(t("arch.metric.hfu"), pct(rec.hfu),
              help=t("arch.metric.hfu_help", recompute=t(f"arch.recompute.{recompute}")))
    c6.metric(t("arch.metric.hw_fpt"), format_si(rec.flops.hardware, "FLOP"),
              help=t("arch.metric.hw_fpt_help"))
    st.caption(t("arch.hfu_note"))


def _verdict(t, rec: MeasuredMfu, recompute: str) -> None:
    """The band's advice, or why the numbers are impossible (calc.mfu.utilisation_verdict)."""
    band = rec.band
    advice = t("mfu.band_verdict", mfu=percent_text(t, rec.mfu), name=t(f"mfu.band.{band.key}.name"),
               advice=t(f"mfu.band.{band.key}.advice"))
    if rec.verdict == "mfu_impossible":
        st.error(t("mfu.over_100"), icon=":material/error:")
    elif rec.verdict == "hfu_impossible":
        st.error(t("mfu.hfu_over_100", hfu=percent_text(t, rec.hfu), mfu=percent_text(t, rec.mfu),
                   recompute=t(f"arch.recompute.{recompute}")), icon=":material/error:")
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


def _hints(t, rec: MeasuredMfu, inp: MfuInputs) -> None:
    if rec.per_gpu_mfu is not None:
        st.warning(t("mfu.per_gpu_hint", typed=format_si(rec.tokens_per_s, "tok/s"),
                     gpus=f"{rec.n_gpus:,.0f}", would=percent_text(t, rec.per_gpu_mfu),
                     total=format_si(rec.per_gpu_tokens_per_s, "tok/s")), icon=":material/help:")
    if inp.model is None and not inp.use_attn and inp.attn_ok and inp.seq >= ATTENTION_WARNING_SEQ_LEN:
        would = attention_flops_share(inp.n_params, inp.n_layers, inp.hidden, inp.seq,
                                      causal=inp.causal)
        st.warning(t("mfu.seq_warning", seq=f"{inp.seq:,.0f}", share=percent_text(t, would)),
                   icon=":material/warning:")
    st.info(t("mfu.inverse_result", target=f"{rec.target_mfu:.0%}",
              needed=format_si(rec.target_tokens_per_s, "tok/s"),
              gpus=plural(t, "common.n_gpus", rec.n_gpus),
              now=format_si(rec.tokens_per_s, "tok/s")), icon=":material/track_changes:")


def mfu_results(ctx, inp: MfuInputs, why) -> Optional[tuple[MeasuredMfu, TrainingFlops]]:
    """Draw the results column; return the record and its FLOP count (None while an input
    is unreadable).  ``why(t, lesson)`` draws a link to the Learn lesson (the page passes
    ui.learn.link.why_link: page packages do not import each other)."""
    t = ctx.t
    st.subheader(t("mfu.results_heading"))
    if not inp.core_ok:
        st.warning(t("common.missing_inputs"))
        return None
    if inp.use_attn and not inp.attn_ok:
        st.warning(t("mfu.attn_missing"))
        return None
    tf = training_flops(t, inp.model, n_params=inp.n_params, use_attn=inp.use_attn,
                        n_layers=inp.n_layers, hidden=inp.hidden, seq=inp.seq, causal=inp.causal,
                        recompute=inp.recompute)
    rec = measured_mfu(tf.flops, inp.tokens_per_s, inp.n_gpus, inp.peak, target_mfu=inp.target)
    _metrics(t, rec, inp.recompute, inp.rate)
    why(t, 3)
    if inp.model is not None:
        flops_breakdown(t, tf.flops)
    elif inp.use_attn:
        st.caption(t("mfu.attn_share", share=percent_text(t, tf.flops.attention_share)))
    why(t, 4)
    st.image(mfu_band_svg(t, rec.mfu, rec.band), width="stretch",
             alt=mfu_band_alt(t, rec.mfu, rec.band))
    _verdict(t, rec, inp.recompute)
    st.caption(t("mfu.ceiling_note"))
    why(t, 5)
    _hints(t, rec, inp)
    return rec, tf
