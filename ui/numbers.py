"""Counts, durations and plurals as the pages write them, in both languages.

Pure Python (no Streamlit). English distinguishes one from many ("1 GPU", "8 GPUs",
"1 day", "2.5 days"); a plural key has two entries in each catalog, `<key>.one` and
`<key>.other` (Chinese uses the same text in both). Durations pick the unit a person
would say: seconds, minutes, hours, then days, so a run of 66 s never reads "0.0 days",
and 1e9 days never becomes a 40-digit number.
"""
from __future__ import annotations

import math

from ui.i18n import Translator

SECONDS_PER_DAY = 86_400.0


def plural_key(key: str, n: float) -> str:
    """`key.one` for exactly one, `key.other` for everything else (0, 2, 1.5, …)."""
    return f"{key}.one" if n == 1 else f"{key}.other"


def plural(t: Translator, key: str, n: float, **fields: object) -> str:
    """The catalog text for `n` of something: fields plus `n` written by format_count."""
    fields.setdefault("n", format_count(n))
    return t(plural_key(key, n), **fields)


def format_count(x: float, digits: int = 3) -> str:
    """A count or amount for reading: "83,096" (whole from 100 up, with separators),
    "12.3" / "0.25" (3 significant digits below 100), "1.23e+18" from 1e15 up, "0" for 0,
    "—" when not finite."""
    if x is None or not math.isfinite(x):
        return "—"
    a = abs(x)
    if a >= 1e15:
        return f"{x:.{digits - 1}e}"
    if a >= 100 or a == 0 or x == round(x) and a >= 1:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def format_exact(x: float) -> str:
    """An unrounded count shown beside its rounded-up value ("116 GPUs (115.4 exactly)"):
    two decimals below 10, one below 1e15, so it never reads as the rounded number
    itself; scientific beyond."""
    if x is None or not math.isfinite(x):
        return "—"
    if abs(x) >= 1e15:
        return f"{x:.2e}"
    return f"{x:,.2f}" if abs(x) < 10 else f"{x:,.1f}"


def _days_text(d: float) -> str:
    if d >= 1e9:
        return f"{d:.2e}"
    return f"{d:,.1f}" if d < 100 else f"{d:,.0f}"


def format_duration(t: Translator, seconds: float) -> str:
    """A wall-clock time in the unit a person says: "45 s", "12.5 min", "7.2 h",
    "1 day", "54.1 days", "1,000,000 days", "3.65e+11 days"; "—" when not finite.

    Up to 100 days one decimal ("54.1 days", as the seed chapter rounds), whole days
    after that; the unit keys are common.dur.* (days with a plural).
    """
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "—"
    if seconds < 60:
        return t("common.dur.seconds", n=f"{seconds:.3g}")
    if seconds < 3600:
        return t("common.dur.minutes", n=f"{seconds / 60:.3g}")
    if seconds < SECONDS_PER_DAY:
        return t("common.dur.hours", n=f"{seconds / 3600:.3g}")
    d = seconds / SECONDS_PER_DAY
    text = _days_text(d)
    if text == "1.0":
        text = "1"
    return t(plural_key("common.dur.days", 1 if text == "1" else d), n=text)


__all__ = ["SECONDS_PER_DAY", "format_count", "format_duration", "format_exact", "plural",
           "plural_key"]
