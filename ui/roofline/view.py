"""The roofline chart's view controls: highlight the top-N kernels by time (URL ``top``),
marker size by time share (URL ``size_by``: "none" | "time"), name filter (URL ``filter``).

* :func:`render_view_controls` draws them; :func:`view_options` reads them without drawing
  (for chart code placed above them); :func:`view_arrays` turns them into arrays (pure).

No arithmetic here: time shares, top-N and marker sizes come from :mod:`calc.views`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import streamlit as st

from calc.kernel_table import KernelRecord
from calc.units import parse_quantity
from calc.views import name_mask, share_sizes, time_shares, top_n_mask
from ui.state import bound, kept
from ui.widgets import Bounds, check_bounds, quantity_input

#: The name filter reads at most this many characters (no counter on the field: a character
#: counter under a focused field is noise; longer text is cut, not refused).
MAX_FILTER_CHARS = 200

SIZE_BY = ("none", "time")

TOP_BOUNDS = Bounds(lo=0.0, lo_open=False, hi=10_000, integer=True)


@dataclass(frozen=True)
class ViewOptions:
    """View controls: highlight the ``top_n`` kernels by time (0 = off), marker size by
    time share (``size_by`` "time") or fixed ("none"), keep names containing ``name_filter``."""

    top_n: int = 0
    size_by: str = "none"
    name_filter: str = ""


def render_view_controls(ctx, container: Any = None) -> ViewOptions:
    """Top-N (URL ``top``), size by (URL ``size_by``: "none" | "time"), name filter (URL
    ``filter``). Returns the current :class:`ViewOptions`."""
    t = ctx.t
    box = container if container is not None else st
    c1, c2, c3 = box.columns([1, 1, 2])
    with c1:
        # A text field, not st.number_input: a bound number_input crashes inside
        # Streamlit on a link with top=inf (int(inf) in its URL deserializer).
        top = quantity_input(t, t("roofline.view.top"), "top", "0", kind="count",
                             bounds=TOP_BOUNDS, help=t("roofline.view.top_help"))
    with c2:
        size_by = bound(st.radio, t("roofline.view.size_by"), list(SIZE_BY), key="size_by", index=0,
                        format_func=lambda s: t(f"roofline.view.size_by.{s}"),
                        help=t("roofline.view.size_by_help"), horizontal=True,
                        is_valid=lambda v: v in SIZE_BY)
    with c3:
        flt = bound(st.text_input, t("roofline.view.filter"), "", key="filter",
                    help=t("roofline.view.filter_help"),
                    placeholder=t("roofline.view.filter_placeholder"))
    return ViewOptions(int(top or 0), size_by if size_by in SIZE_BY else "none",
                       str(flt or "")[:MAX_FILTER_CHARS])


def view_options() -> ViewOptions:
    """The view options from session state (for chart code that runs before the controls)."""
    def read(key: str, default: Any) -> Any:
        if key in st.session_state:
            return st.session_state[key]
        if key in st.query_params:          # a link, before the widget is drawn
            return st.query_params.get(key)
        return kept(key, default)

    top = read("top", "0")
    size_by = read("size_by", "none")
    flt = read("filter", "")
    try:
        top = parse_quantity(top, kind="count")
        top = int(top) if check_bounds(top, TOP_BOUNDS, "", lambda *a, **k: "") is None else 0
    except (TypeError, ValueError, OverflowError):   # "inf", "1e309", "abc" in a link
        top = 0
    return ViewOptions(top, size_by if size_by in SIZE_BY else "none", str(flt or ""))


@dataclass(frozen=True)
class ViewArrays:
    """Arrays aligned with the kernels given to :func:`view_arrays`.

    ``mask``: kernels to draw (name filter); ``size``: marker px or None (fixed size);
    ``highlight``: top-N by time or None (off); ``shares``: time share 0..1."""

    mask: np.ndarray
    size: np.ndarray | None
    highlight: np.ndarray | None
    shares: np.ndarray = field(default_factory=lambda: np.zeros(0))


def view_arrays(kernels: Sequence[KernelRecord], options: ViewOptions | None = None, *,
                top_n: int | None = None, size_by: str | None = None,
                name_filter: str | None = None) -> ViewArrays:
    """Marker sizes, top-N highlight and filter mask for ``kernels`` (pure, no widgets).

    Shares and top-N are over all ``kernels`` given (filtering does not change a kernel's
    share); index the arrays with the same selection as the points you draw.
    """
    o = options or ViewOptions()
    top_n = o.top_n if top_n is None else top_n
    size_by = o.size_by if size_by is None else size_by
    name_filter = o.name_filter if name_filter is None else name_filter
    ks = list(kernels)
    seconds = [k.seconds for k in ks]
    shares = time_shares(seconds) if ks else np.zeros(0)
    size = share_sizes(shares) if size_by == "time" and ks else None
    highlight = top_n_mask(seconds, int(top_n)) if top_n and ks else None
    mask = name_mask([k.name for k in ks], name_filter)
    return ViewArrays(mask=mask, size=size, highlight=highlight, shares=shares)
