"""Input widgets shared by the pages: typed quantities ("7B", "312T", "2 TB/s") with an
optional log-spaced slider, all bound to the URL (see ui/state.py).

A quantity field returns a float in SI base units, or None when the text cannot be used;
in that case it has already shown a message under the field naming what is allowed, and
the page shows what it can without that value.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import streamlit as st

from calc.units import (QuantityError, UnitKindError, format_percent, format_si,
                        is_absurd_fraction, kind_for_unit, parse_quantity)
from calc.arch import ARCH_LIMITS
from calc.placement import PlacementError, check_tp
from ui import live
from ui.i18n import Translator
from ui.numbers import format_count
from ui.state import bound, restore, set_value

_LOG_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)


def log_options(lo: float, hi: float) -> list[float]:
    """Log-spaced steps (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8 per decade) from `lo` to `hi`,
    so common sizes (7B, 12k, 70B) sit exactly on the slider."""
    out: list[float] = []
    for exp in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for step in _LOG_STEPS:
            value = float(f"{step * 10.0 ** exp:.6g}")
            if lo * (1 - 1e-9) <= value <= hi * (1 + 1e-9):
                out.append(value)
    return out


def nearest_option(value: float, options: list[float]) -> float:
    """The option closest to `value` on a log scale."""
    if not value > 0:
        return options[0]
    return min(options, key=lambda opt: abs(math.log(opt) - math.log(value)))


def with_option(options: list[float], value: float) -> list[float]:
    """`options` with `value` added in order, unless an option already equals it (to 1e-9)."""
    if any(math.isclose(opt, value, rel_tol=1e-9) for opt in options):
        return options
    return sorted([*options, float(value)])


_COUNT_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k"))


def percent_text(t: Translator, fraction: float, decimals: int = 1) -> str:
    """A utilisation for display: "20.2%", or "> 1,000% — check the inputs" when it is
    not a meaningful result (see calc.units.is_absurd_fraction)."""
    text = format_percent(fraction, decimals)
    return t("common.absurd", value=text) if is_absurd_fraction(fraction) else text


def format_quantity(value: float, unit: str = "", digits: int = 3) -> str:
    """Text a quantity field shows and reads back: SI with a unit, or a plain count
    with k/M/B/T suffixes ("7B", "1T", "12k") that parse_quantity(kind="count") reads."""
    if unit:
        return format_si(value, unit, digits=digits)
    for scale, suffix in _COUNT_SUFFIXES:
        if abs(value) >= scale:
            return f"{value / scale:.{digits}g}{suffix}"
    return f"{value:.{digits}g}"


def exact_quantity(value: float, unit: str = "") -> str:
    """format_quantity with the fewest digits (3 to 6) that read back as `value`: a slider
    label says "4.096k" for 4096, never "4.1k", which the field would read as 4100."""
    for digits in range(3, 7):
        text = format_quantity(value, unit, digits=digits)
        try:
            if math.isclose(parse_quantity(text), value, rel_tol=1e-9):
                return text
        except (QuantityError, ValueError):
            break
    return format_quantity(value, unit, digits=6)


@functools.lru_cache(maxsize=4096)
def slider_text(value: float, unit: str = "") -> str:
    """A slider's caption: a whole count under a million with thousands separators
    ("4,096" tokens, "37,712" tokens/s: "4.096k" reads like a decimal), otherwise
    :func:`exact_quantity` ("7B", "1T", "2 TB/s").  Cached: Streamlit formats every
    option of every select-slider on every run (~300 per MFU run), the same few values."""
    if not unit and 0 < abs(value) < 1e6 and float(value) == int(value):
        return f"{int(value):,}"
    return exact_quantity(value, unit)


# Every quantity field stays within these magnitudes, so the products and quotients the
# pages ask of calc/ (6·N·D, bandwidth ÷ bytes, ...) stay finite: 1e308 typed into a
# field is an error message, not an overflow deep inside a formula.
from calc.units import MAX_MAGNITUDE, MIN_MAGNITUDE  # noqa: E402  (one bound for fields and table cells)


@dataclass(frozen=True)
class Bounds:
    """Allowed range for a quantity; `lo_open` excludes the lower bound itself."""
    lo: float = 0.0
    hi: float = 1e30
    lo_open: bool = True
    integer: bool = False


POSITIVE = Bounds()
COUNT = Bounds(lo=1.0, lo_open=False, integer=True)
FRACTION = Bounds(lo=0.0, hi=1.0)


def arch_count(attr: str) -> Bounds:
    """A whole number 1 … the architecture's limit for ``attr`` (calc.arch.ARCH_LIMITS: 10,000
    layers, 65,536 heads or head_dim, 1,048,576 d_model): the fields that build a "parameters
    only" architecture refuse what calc would refuse, with the field's message."""
    return Bounds(lo=1.0, hi=float(ARCH_LIMITS[attr]), lo_open=False, integer=True)


def limit_text(limit: float, bounds: Bounds, unit: str) -> str:
    """A bound as the message shows it: a whole-number count in full (ui.numbers.format_count:
    "10,000" layers is what a user types and reads), anything else in SI prefixes ("1e+30
    FLOP", "1 TB/s")."""
    if bounds.integer and not unit and abs(limit) < 1e15:
        return format_count(limit)
    return format_si(limit, unit)


def check_bounds(value: float, bounds: Bounds, unit: str, t: Translator) -> str | None:
    """An error message when `value` is outside `bounds`, else None."""
    if not math.isfinite(value):
        return t("common.err.not_finite")
    if bounds.integer and value != math.floor(value):
        return t("common.err.integer")
    too_low = value <= bounds.lo if bounds.lo_open else value < bounds.lo
    if too_low:
        key = "common.err.gt" if bounds.lo_open else "common.err.ge"
        return t(key, limit=limit_text(bounds.lo, bounds, unit) if bounds.lo else "0")
    hi = min(bounds.hi, MAX_MAGNITUDE)
    if value > hi:
        return t("common.err.le", limit=limit_text(hi, bounds, unit))
    if value != 0 and abs(value) < MIN_MAGNITUDE:
        return t("common.err.ge", limit=format_si(MIN_MAGNITUDE, unit))
    return None


def quantity_error(t: Translator, text: str, error: Exception, kind: str | None) -> str:
    """The message under a field whose text could not be used, in the page's language.

    A quantity of another kind names both ("expected a compute rate, but “3 TB/s” is a
    bandwidth"); any other problem says what the field wants.  The examples fit the field
    (``kind``), never another one's.
    """
    shown = text if len(text) <= 40 else text[:40] + "…"
    examples = t(f"common.examples.{kind or 'any'}")
    if isinstance(error, UnitKindError):
        return t("common.err.kind", text=shown, expected=t(f"common.kind.{error.expected}"),
                 got=t(f"common.kind.{error.got}"), examples=examples)
    return t("common.err.parse", text=shown, what=t(f"common.kind.{kind or 'any'}"),
             examples=examples)


def quantity_input(t: Translator, label: str, key: str, default: str, *, unit: str = "",
                   help: str | None = None, bounds: Bounds = POSITIVE,
                   kind: str | None = None, slider: tuple[float, float] | None = None,
                   container: Any = None, placeholder: str | None = None,
                   optional: bool = False, steps: Sequence[float] | None = None,
                   step_text: Callable[[float], str] | None = None) -> float | None:
    """A text field that reads a quantity ("7B", "2 TB/s", "2*8192**3"), bound to the URL.

    With `slider=(lo, hi)` a log-spaced select-slider sits under the field for quick
    exploration; moving it writes the field, typing in the field moves it.
    Returns the value in SI base units, or None after showing why it cannot be used.
    ``kind`` defaults to the one ``unit`` implies (calc.units.kind_for_unit: "FLOP/s" ->
    a compute rate), so a field with a unit rejects a quantity of another unit.
    With `optional=True` a blank field is allowed: it returns None quietly (tell a blank
    field from a rejected one with `is_blank(key)`).  ``steps`` (with ``step_text``, how a
    step reads, e.g. "45%") puts a slider over those values instead of the log-spaced one.
    """
    box = container if container is not None else st
    if kind is None:
        kind = kind_for_unit(unit)
    slider_key = f"{key}__slider"
    options = list(steps) if steps else (log_options(*slider) if slider else [])
    shown = step_text or (lambda v: slider_text(v, unit))

    def field_changed() -> None:
        if not options:
            return
        try:
            value = parse_quantity(st.session_state[key])
        except (QuantityError, ValueError, TypeError):
            return
        if value > 0 and math.isfinite(value):
            st.session_state[slider_key] = value

    def slider_changed() -> None:
        value = st.session_state[slider_key]
        set_value(key, step_text(value) if step_text else exact_quantity(value, unit))

    text = bound(box.text_input, label, default, key=key, help=help,
                 on_change=field_changed, placeholder=placeholder)
    if optional and not str(text).strip():
        return None
    value: float | None
    try:
        value = parse_quantity(text, kind=kind)
    except (QuantityError, ValueError, TypeError) as exc:
        box.error(t("common.err.field", label=label,
                    message=quantity_error(t, str(text), exc, kind)), icon=":material/warning:")
        value = None
    if value is not None:
        problem = check_bounds(value, bounds, unit, t)
        if problem is not None:
            box.error(t("common.err.field", label=label, message=problem), icon=":material/warning:")
            value = None
    if options:
        # The slider shows the field's own value: a value between the log steps (13B,
        # 37.7k) or beyond the range becomes an option of its own, so the slider never
        # claims a value the field does not hold (it would say 12B while the field says 13B).
        if value is not None and value > 0:
            st.session_state[slider_key] = value
        elif slider_key not in st.session_state:
            st.session_state[slider_key] = options[0]
        options = with_option(options, st.session_state[slider_key])
        box.select_slider(t("common.slider_for", label=label), options=options,
                          key=slider_key, on_change=live.on_change(slider_changed),
                          format_func=shown, label_visibility="collapsed")
    return value


BATCH_STEPS = [float(2 ** i) for i in range(11)]
"""The batch slider's stops, 1 … 1024 (the field takes any whole batch)."""
BATCH = Bounds(lo=1.0, hi=1e6, lo_open=False, integer=True)


def batch_input(t: Translator, label: str, *, help: str | None = None,
                container: Any = None) -> int | None:
    """The batch (URL ``batch``, shared by the Decode and Model pages): any whole number
    1 … 1,000,000 typed, a slider snapping to powers of two; None after the standard
    message under the field."""
    b = quantity_input(t, label, "batch", "1", kind="count", bounds=BATCH, help=help,
                       container=container, slider=(1, 1024), steps=BATCH_STEPS,
                       step_text=lambda v: f"{v:.0f}")
    return None if b is None else int(b)


def tp_input(t: Translator, arch: Any, label: str, *, help: str | None = None,
             container: Any = None) -> int | None:
    """The tensor-parallel group (URL ``tp``, the same name and rule on every page): a whole
    number the model's heads split over (calc.placement.check_tp); None after a message
    naming the field."""
    box = container if container is not None else st
    tp = quantity_input(t, label, "tp", "1", kind="count", bounds=COUNT, help=help,
                        container=container)
    if tp is None or arch is None:
        return None if tp is None else int(tp)
    try:
        check_tp(arch, tp)
    except PlacementError as exc:
        rule = exc.rule if exc.rule in ("heads", "kv_heads") else "whole"
        box.error(t("common.err.field", label=label, message=t(f"common.err.tp.{rule}", n=exc.limit)),
                  icon=":material/warning:")
        return None
    return int(tp)


def uploader_note(t: Translator, types: list[str], container: Any = None) -> None:
    """Under an st.file_uploader in Chinese: what its English says.

    Streamlit 1.67 draws the dropzone's own text ("Upload", "25MB per file • JSON") in
    English and offers no parameter to set it (st.file_uploader takes label, help, type,
    max_upload_size, ...: no text; the feature request streamlit/streamlit#13500 is open,
    the pull request #10042 that added browse/drag-and-drop texts was closed unmerged).
    So the page labels the control instead: a caption in the page's language naming the
    button, the size limit (server.maxUploadSize) and the accepted types. In English the
    dropzone already speaks the page's language and nothing is added.
    """
    if getattr(t, "lang", "en") == "en":
        return
    box = container if container is not None else st
    limit = st.get_option("server.maxUploadSize")
    box.caption(t("common.uploader_note", limit=f"{limit:g} MB",
                  types="、".join(x.upper() for x in types)))


def is_blank(key: str) -> bool:
    """True when the text field `key` is empty (an optional quantity left out)."""
    return not str(st.session_state.get(key) or "").strip()


def bound_slider(label: str, key: str, *, container: Any = None,
                 on_change: Callable[[], None] | None = None, **kwargs: Any) -> Any:
    """st.slider bound to the URL name `key` and kept across pages."""
    box = container if container is not None else st
    return bound(box.slider, label, key=key, on_change=on_change, **kwargs)


def bound_checkbox(label: str, key: str, *, container: Any = None, **kwargs: Any) -> bool:
    box = container if container is not None else st
    return bool(bound(box.checkbox, label, key=key, **kwargs))


def bound_select(label: str, options: list[Any], key: str, *, container: Any = None,
                 index: int = 0, **kwargs: Any) -> Any:
    """st.selectbox bound to the URL; a kept value no longer in `options` is dropped."""
    box = container if container is not None else st
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return bound(box.selectbox, label, options, key=key, index=index,
                 is_valid=lambda v: v in options, **kwargs)


__all__ = [
    "BATCH", "BATCH_STEPS", "Bounds", "COUNT", "FRACTION", "POSITIVE", "batch_input",
    "tp_input", "bound_checkbox", "bound_select",
    "bound_slider", "check_bounds", "exact_quantity", "is_blank", "log_options",
    "nearest_option", "percent_text", "quantity_error", "quantity_input", "uploader_note",
    "with_option",
    "restore",
]
