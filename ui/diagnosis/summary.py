"""Key numbers of the diagnosis (the three signals' measures) and the largest idle gaps."""
from __future__ import annotations

import streamlit as st

import math

from calc.diagnosis import (MIN_KERNELS_TO_JUDGE, SMALL_COUNT_FIRES, SMALL_TIME_FIRES,
                            TraceDiagnosis)
from calc.units import format_percent, format_si
from ui.i18n import Translator


def per_ms_text(t: Translator, d: TraceDiagnosis) -> str:
    """Kernels per ms, or "too few kernels to judge" (calc.diagnosis: nan below
    MIN_KERNELS_TO_JUDGE)."""
    if math.isnan(d.kernels_per_ms):
        return t("diagnosis.m.too_few", n=f"{d.kernel_count:,}", min=MIN_KERNELS_TO_JUDGE)
    return f"{d.kernels_per_ms:,.1f}"


def small_caption(t: Translator, d: TraceDiagnosis) -> str:
    """Under the small-kernel share (of launches): their time share and whether the fusion
    verdict fires, with the reason when it does not."""
    if d.kernel_count < MIN_KERNELS_TO_JUDGE:
        verdict = t("diagnosis.m.too_few", n=f"{d.kernel_count:,}", min=MIN_KERNELS_TO_JUDGE)
    elif d.small_kernel_count_share < SMALL_COUNT_FIRES:
        verdict = t("diagnosis.m.small_few_launches")
    elif d.small_kernel_time_share < SMALL_TIME_FIRES:
        verdict = t("diagnosis.m.small_silent")
    else:
        verdict = t("diagnosis.m.small_fires")
    return t("diagnosis.m.small_caption", time=format_percent(d.small_kernel_time_share),
             verdict=verdict)


def render_numbers(t: Translator, d: TraceDiagnosis) -> None:
    st.subheader(t("diagnosis.numbers_heading"))
    c = st.columns(4)
    c[0].metric(t("diagnosis.m.busy"), format_percent(d.busy_fraction),
                help=t("diagnosis.m.busy_help", window=format_si(d.window_seconds, "s"),
                       busy=format_si(d.busy_seconds, "s")))
    c[1].metric(t("diagnosis.m.kernels"), f"{d.kernel_count:,}",
                help=t("diagnosis.m.kernels_help", per_ms=per_ms_text(t, d)))
    c[2].metric(t("diagnosis.m.small"), format_percent(d.small_kernel_count_share),
                help=t("diagnosis.m.small_help",
                       threshold=format_si(d.small_kernel_threshold_seconds, "s"),
                       n=f"{d.small_kernel_count:,}",
                       time=format_percent(d.small_kernel_time_share)))
    c[2].caption(small_caption(t, d))
    c[3].metric(t("diagnosis.m.comm"), format_percent(d.comm_share),
                help=t("diagnosis.m.comm_help", overlap=format_percent(d.comm_overlap_fraction),
                       exposed=format_si(d.exposed_comm_seconds, "s")))
    c = st.columns(4)
    if d.window_from_steps:
        c[0].metric(t("diagnosis.m.window_steps"), format_si(d.window_seconds, "s"),
                    help=t("diagnosis.m.window_steps_help", n=len(d.steps),
                           activity=format_si(d.activity_window_seconds, "s")))
    else:
        c[0].metric(t("diagnosis.m.window"), format_si(d.window_seconds, "s"),
                    help=t("diagnosis.m.window_help"))
    if math.isnan(d.kernels_per_ms):
        c[1].metric(t("diagnosis.m.per_ms"), "—", help=t("diagnosis.m.per_ms_help"))
        c[1].caption(per_ms_text(t, d))
    else:
        c[1].metric(t("diagnosis.m.per_ms"), per_ms_text(t, d), help=t("diagnosis.m.per_ms_help"))
    c[2].metric(t("diagnosis.m.non_matmul"), format_percent(d.non_matmul_share),
                help=t("diagnosis.m.non_matmul_help"))
    c[3].metric(t("diagnosis.m.step"),
                format_si(d.mean_step_seconds, "s") if d.mean_step_seconds else "—",
                help=t("diagnosis.m.step_help", n=len(d.steps)))


def gap_rows(t: Translator, d: TraceDiagnosis) -> list[dict]:
    return [{t("diagnosis.gap.col.at"): format_si(g.start_seconds, "s"),
             t("diagnosis.gap.col.length"): format_si(g.length_seconds, "s"),
             t("diagnosis.gap.col.share"): format_percent(g.window_share)
             if d.window_seconds > 0 else "—",
             t("diagnosis.gap.col.cpu"): g.cpu_name or t("diagnosis.gap.no_cpu"),
             t("diagnosis.gap.col.cover"): format_percent(g.cpu_overlap_fraction)}
            for g in d.idle_gaps]


def render_gaps(t: Translator, d: TraceDiagnosis) -> None:
    st.markdown(f"**{t('diagnosis.gaps_heading')}**")
    if not d.idle_gaps:
        st.caption(t("diagnosis.gaps_none"))
        return
    st.dataframe(gap_rows(t, d), hide_index=True, width="stretch")
    st.caption(t("diagnosis.gaps_caption"))
