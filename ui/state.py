"""URL-bound, page-persistent widget state.

Every input on every page is a Streamlit widget with `bind="query-params"`: its key is
its URL name (`lang`, `device`, `precision`, `params`, ...), so the address bar always
reproduces the page. Streamlit drops a widget's value when the user changes page, and a
bound widget takes its value from the URL on arrival; so we also keep the last value
under a non-widget key (`_keep.<name>`) and put it back when the URL does not carry the
name. The navigation links carry the shared names (`lang`, `device`, `precision`, ...)
in their query parameters.

The URL names are a public, documented contract (README, "Share links"): tests pin them,
and old links must keep working. Add new names to `URL_NAMES`; never rename one.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import logging

import streamlit as st

# Restoring a kept value sets a widget's session state and passes its default: Streamlit
# logs a warning for that combination on every page change. It is intended here.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)

KEEP_PREFIX = "_keep."

# Every URL name the app reads, by page. A test pins this table: renaming breaks links.
URL_NAMES: dict[str, tuple[str, ...]] = {
    "common": ("lang", "device", "precision", "peak", "bw", "img", "model", "mcfg"),
    "roofline": ("roofs", "k", "compare", "l2_bw", "l1_bw", "hier", "top", "filter", "size_by",
                 # kernel builder
                 "b_kind", "b_dtype", "b_m", "b_n", "b_k", "b_vm", "b_vn", "b_elems", "b_inputs",
                 "b_fpe",
                 "b_rows", "b_cols", "b_batch", "b_heads", "b_seq", "b_hd", "b_flash",
                 "b_causal", "b_time"),
    "mfu": ("params", "tokens_per_s", "gpus", "peak_override", "attn", "layers",
            "hidden", "seq", "causal", "target_mfu", "recompute"),
    "training": ("params", "tokens", "gpus", "mfu", "compare_mfu", "price", "deadline_days",
                 "logy", "seq", "causal", "recompute", "gpu_hours", "zero", "optim", "mbs", "tp",
                 "pp", "flash"),
    "decode": ("params", "weights", "gpus", "batch", "kv", "layers", "kv_heads",
               "head_dim", "context", "kv_dtype", "measured"),
}

# Names the navigation links carry from page to page.
SHARED_NAMES: tuple[str, ...] = ("lang", "device", "precision", "peak", "bw", "img", "model",
                                 "mcfg")


def _keep_key(key: str) -> str:
    return KEEP_PREFIX + key


def _sync(key: str, user_callback: Callable[[], None] | None = None) -> None:
    st.session_state[_keep_key(key)] = st.session_state[key]
    if user_callback is not None:
        user_callback()


def restore(key: str, is_valid: Callable[[Any], bool] = lambda _v: True) -> None:
    """Before a bound widget is drawn: give it back its value from an earlier page.

    Only when the URL does not carry `key` (a URL always wins) and the kept value is
    still valid for the widget (e.g. still one of its options).
    """
    keep = _keep_key(key)
    if keep in st.session_state and key not in st.query_params:
        value = st.session_state[keep]
        if is_valid(value):
            st.session_state[key] = value


def remember(key: str, value: Any) -> None:
    """After a bound widget is drawn: keep its value for the next page."""
    st.session_state[_keep_key(key)] = value


def kept(key: str, default: Any = None) -> Any:
    """The last value the widget `key` had in this session (on any page)."""
    return st.session_state.get(_keep_key(key), default)


def set_value(key: str, value: Any) -> None:
    """Set a bound widget's value from code (a callback, an example button)."""
    st.session_state[key] = value
    remember(key, value)


def bound(widget: Callable[..., Any], label: str, *args: Any, key: str,
          is_valid: Callable[[Any], bool] = lambda _v: True,
          on_change: Callable[[], None] | None = None, **kwargs: Any) -> Any:
    """Draw `widget(label, *args, **kwargs)` bound to the URL name `key`, persisted.

    `widget` is a Streamlit widget function (st.selectbox, st.sidebar.text_input, ...).
    Widgets without `format_func` use Streamlit's `bind="query-params"`. A bound
    widget with a `format_func` would put its *display label* in the URL ("NVIDIA ·
    H100 SXM5 80GB", or a translated word that changes with the language), so option
    widgets with a `format_func` are synced by hand instead: the URL holds the option
    itself (`h100-sxm`, `zh`), and is left out when the option is the default.
    """
    if "format_func" in kwargs:
        return _bound_options(widget, label, *args, key=key, is_valid=is_valid,
                              on_change=on_change, **kwargs)
    restore(key, is_valid)
    value = widget(label, *args, key=key, bind="query-params",
                   on_change=_sync, args=(key, on_change), **kwargs)
    remember(key, value)
    return value


URL_WRITTEN_PREFIX = "_url."


def _bound_options(widget: Callable[..., Any], label: str, options: Any, *args: Any,
                   key: str, is_valid: Callable[[Any], bool],
                   on_change: Callable[[], None] | None, index: int = 0,
                   **kwargs: Any) -> Any:
    """An option widget (selectbox, radio) whose option id lives in the URL.

    On arrival (a fresh session, a shared link, a navigation link) the URL's value wins
    when it is a valid option; otherwise the value kept from an earlier page; otherwise
    the default. After drawing, the URL is rewritten to the current option.
    """
    options = list(options)
    default = options[index] if options else None
    from_url = url_changed(key)
    wanted = st.session_state.get(_keep_key(key))
    if from_url is not None:
        if is_valid(from_url):
            wanted = from_url                 # a new URL (link, fresh session) wins
        else:
            del st.query_params[key]          # garbage in the URL: ignore it
    # A widget drawn on a new page forgets its old state: always hand it its value.
    if wanted is not None and is_valid(wanted):
        st.session_state[key] = wanted
    value = widget(label, options, *args, key=key, index=index,
                   on_change=_sync, args=(key, on_change), **kwargs)
    remember(key, value)
    write_url(key, None if value == default or value is None else str(value))
    return value


def url_changed(key: str) -> str | None:
    """The URL's value for a hand-synced name when it differs from what the app last
    wrote there (a fresh session, a shared link, a navigation link), else None."""
    from_url = st.query_params.get(key)
    if from_url is not None and from_url != st.session_state.get(URL_WRITTEN_PREFIX + key):
        return from_url
    return None


def write_url(key: str, text: str | None) -> None:
    """Put a hand-synced value in the URL (None or "" removes it: the default)."""
    if text:
        if st.query_params.get(key) != text:
            st.query_params[key] = text
    elif key in st.query_params:
        del st.query_params[key]
    st.session_state[URL_WRITTEN_PREFIX + key] = text or None


def valid_option(options: Iterable[Any]) -> Callable[[Any], bool]:
    """`is_valid` for a widget with fixed options."""
    allowed = list(options)
    return lambda value: value in allowed


def nav_query_params() -> dict[str, str]:
    """The shared names and their current values, for the navigation links."""
    params: dict[str, str] = {}
    for name in SHARED_NAMES:
        value = st.session_state.get(name, kept(name))
        if value is not None and value != "":
            params[name] = str(value)
    return params
