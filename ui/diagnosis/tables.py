"""Top kernels by time and the per-stream table."""
from __future__ import annotations

import streamlit as st

from calc.diagnosis import TraceDiagnosis
from calc.units import format_percent, format_si
from ui.i18n import Translator

TOP_SHOWN = 20


def kernel_rows(t: Translator, d: TraceDiagnosis, n: int = TOP_SHOWN) -> list[dict]:
    return [{t("diagnosis.k.col.name"): k.name,
             t("diagnosis.k.col.class"): t(f"diagnosis.class.{k.cls}"),
             t("diagnosis.k.col.count"): k.count,
             t("diagnosis.k.col.time"): format_si(k.seconds, "s"),
             t("diagnosis.k.col.mean"): format_si(k.mean_seconds, "s"),
             t("diagnosis.k.col.share"): format_percent(k.share)}
            for k in d.top_kernels[:n]]


def stream_rows(t: Translator, d: TraceDiagnosis) -> list[dict]:
    return [{t("diagnosis.s.col.stream"): s.stream,
             t("diagnosis.s.col.kernels"): s.kernel_count,
             t("diagnosis.s.col.kernel_time"): format_si(s.kernel_seconds, "s"),
             t("diagnosis.s.col.memory_time"): format_si(s.memory_seconds, "s"),
             t("diagnosis.s.col.comm_time"): format_si(s.comm_seconds, "s")}
            for s in d.streams]


def render_tables(t: Translator, d: TraceDiagnosis) -> None:
    st.subheader(t("diagnosis.top_heading", n=min(TOP_SHOWN, len(d.top_kernels))))
    st.dataframe(kernel_rows(t, d), hide_index=True, width="stretch")
    st.markdown(f"**{t('diagnosis.streams_heading')}**")
    st.dataframe(stream_rows(t, d), hide_index=True, width="stretch")
