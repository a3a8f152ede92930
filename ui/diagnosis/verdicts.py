"""The verdicts: the seed's signals and checklist steps that fire, in order, each with its
numbers (calc.diagnosis.Verdict: a translation key and parameters)."""
from __future__ import annotations

from typing import Any, Mapping

import streamlit as st

from calc.diagnosis import TraceDiagnosis, Verdict
from calc.units import format_percent, format_si
from ui.i18n import Translator


def format_params(t: Translator, params: Mapping[str, Any]) -> dict[str, str]:
    """A verdict's numbers as text, by the name's suffix (calc.diagnosis docstring):
    *_fraction / *_share -> percent, *_seconds -> SI seconds, *_count -> count,
    *_per_ms -> one decimal, top_class -> the class name, cpu_name -> code."""
    out: dict[str, str] = {}
    for k, v in params.items():
        if k.endswith(("_fraction", "_share")):
            out[k] = format_percent(float(v))
        elif k.endswith("_seconds"):
            out[k] = format_si(float(v), "s")
        elif k.endswith("_count"):
            out[k] = f"{int(v):,}"
        elif k.endswith("_per_ms"):
            out[k] = f"{float(v):,.1f}"
        elif k == "top_class":
            out[k] = t(f"diagnosis.class.{v}")
        elif k == "cpu_name":
            out[k] = f"`{v}`" if v else t("diagnosis.gap.no_cpu")
        else:
            out[k] = str(v)
    return out


def verdict_text(t: Translator, v: Verdict) -> str:
    """The verdict's sentence in the page's language, numbers filled in."""
    return t(v.key, **format_params(t, v.params))


def render_verdicts(t: Translator, d: TraceDiagnosis) -> None:
    st.subheader(t("diagnosis.verdicts_heading"))
    for i, v in enumerate(d.verdicts, start=1):
        text = verdict_text(t, v)
        label = f"**{i}.** " if len(d.verdicts) > 1 else ""
        if v.severity == "warn":
            st.warning(f"{label}{text}", icon=":material/warning:")
        elif v.severity == "info":
            st.info(f"{label}{text}", icon=":material/info:")
        else:
            st.success(f"{label}{text}", icon=":material/check_circle:")
    st.caption(t("diagnosis.verdicts_caption"))
