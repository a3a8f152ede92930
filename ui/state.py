"""URL-bound, page-persistent widget state.

Every input on every page is a Streamlit widget with `bind="query-params"`: its key is
its URL name (`lang`, `device`, `precision`, `params`, ...), so the address bar always
reproduces the page. Streamlit drops a widget's value when the user changes page, and a
bound widget takes its value from the URL on arrival; so we also keep the last value
in a non-widget dict (`st.session_state["_keep"][name]`) and put it back when the URL does
not carry the name. (One key for all of them, not one per name: Streamlit copies the whole
session state for every selectbox and text field it draws, so every key costs each widget.) The navigation links carry the shared names (`lang`, `device`, `precision`, ...)
in their query parameters.

The URL names are a public, documented contract (README, "Share links"): tests pin them,
and old links must keep working. Add new names to `URL_NAMES`; never rename one.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import logging

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui import live
from ui.i18n import translate

# Restoring a kept value sets a widget's session state and passes its default: Streamlit
# logs a warning for that combination on every page change. It is intended here.
logging.getLogger("streamlit.elements.lib.policies").setLevel(logging.ERROR)

KEEP_KEY = "_keep"
URL_WRITTEN_KEY = "_url"

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
                 "pp", "flash", "currency", "sp", "cp", "ep", "schedule", "interleave",
                 "microbatches"),
    "learn": ("quiz", "lesson"),
    "decode": ("params", "weights", "tp", "batch", "kv", "layers", "kv_heads",
               "head_dim", "context", "kv_dtype", "measured", "prompt", "tp_comm"),
    "model": ("phase", "batch", "prompt", "context", "weights", "act", "kv_dtype", "tp",
              "attn_impl", "overlay"),
    "diagnosis": ("small", "trace_gpu", "params", "tokens_step", "gpus", "recompute", "seq",
                  "causal"),
    "plans": ("plans", "currency"),
    "training_layout": ("gpus", "seq", "gbatch", "gbatch_unit", "recompute", "zero", "schedule",
                        "interleave", "sp", "flash", "net", "net_gpus", "net_up", "net_out", "layout",
                        "rejected"),
    "serving": ("s_isl", "s_osl", "s_dist", "s_spread", "s_prefix", "s_rate", "s_ttft", "s_tpot",
                "s_devices", "s_prec", "s_kv", "s_tp", "s_mode", "s_budget", "s_eff", "s_spec",
                "s_spec_m", "s_draft", "s_alpha", "s_gamma", "s_price", "s_kw", "s_sim"),
    "measure": ("m_quick", "m_gpu", "m_dev", "m_prec", "m_dtype", "m_gemm", "m_gemv", "m_add",
                "m_sum", "m_gemm_n", "m_gemv_m", "m_gemv_n", "m_add_n", "m_sum_n"),
}

# Old names a page still reads from a link, and the name each is read as (once: the page
# rewrites its URL). A link never carries them: "gpus" is the cluster size elsewhere (MFU,
# Training, Trace doctor); on Decode it once meant the tensor-parallel group, now "tp".
LEGACY_NAMES: dict[str, dict[str, str]] = {
    "decode": {"gpus": "tp"},
}

# Names the navigation links carry from page to page.
SHARED_NAMES: tuple[str, ...] = ("lang", "device", "precision", "peak", "bw", "img", "model",
                                 "mcfg")


def _store(name: str) -> dict:
    """The session's dict under the non-widget key ``name`` (created empty)."""
    store = st.session_state.get(name)
    if store is None:
        store = st.session_state[name] = {}
    return store


def _sync(key: str, user_callback: Callable[[], None] | None = None) -> None:
    _store(KEEP_KEY)[key] = st.session_state[key]
    if user_callback is not None:
        user_callback()


def restore(key: str, is_valid: Callable[[Any], bool] = lambda _v: True) -> None:
    """Before a bound widget is drawn: give it back its value from an earlier page.

    Only when the URL does not carry `key` (a URL always wins) and the kept value is
    still valid for the widget (e.g. still one of its options).
    """
    kept_values = _store(KEEP_KEY)
    if key in kept_values and key not in st.query_params:
        value = kept_values[key]
        if is_valid(value):
            st.session_state[key] = value
            # The page now shows the kept value: the address bar must say so too, or a
            # link copied after a page change would open other numbers. (The navigation
            # links already carry it, see nav_query_params; this covers any other way in.
            # A name still bound to a widget of the previous run is synced by Streamlit.)
            text = url_text(value)
            if text:
                try:
                    st.query_params[key] = text
                except StreamlitAPIException:
                    pass


def url_text(value: Any) -> str:
    """A widget value as its URL text: checkboxes read true/false, others their str()."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def remember(key: str, value: Any) -> None:
    """After a bound widget is drawn: keep its value for the next page."""
    _store(KEEP_KEY)[key] = value


def kept(key: str, default: Any = None) -> Any:
    """The last value the widget `key` had in this session (on any page)."""
    return _store(KEEP_KEY).get(key, default)


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
                   on_change=live.on_change(_sync), args=(key, on_change), **kwargs)
    remember(key, value)
    return value




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
    wanted = kept(key)
    ignored = None
    if from_url is not None:
        if is_valid(from_url):
            wanted = from_url                 # a new URL (link, fresh session) wins
        else:
            del st.query_params[key]          # not a choice: left out, and said so below
            ignored = from_url
    # A widget drawn on a new page forgets its old state: always hand it its value.
    if wanted is not None and is_valid(wanted):
        st.session_state[key] = wanted
    value = widget(label, options, *args, key=key, index=index,
                   on_change=live.on_change(_sync), args=(key, on_change), **kwargs)
    if ignored is not None:
        say_ignored(key, [ignored], label, getattr(widget, "__self__", None))
    remember(key, value)
    write_url(key, None if value == default or value is None else str(value))
    return value


def say_ignored(key: str, values: Iterable[Any], label: str, host: Any = None) -> None:
    """Say, under the widget, that a link's value for ``key`` was left out because the
    widget ``label`` has no such choice (a mistyped device, a precision the device lacks,
    a TPOT not on the slider): the page shows its default or kept value instead, and the
    reader should know the link asked for something else.  ``host``: the container the
    widget was drawn in (st.sidebar for a sidebar widget); the language is the session's."""
    shown = [str(v) for v in values if str(v).strip()]
    if not shown:
        return
    lang = st.session_state.get("lang") or kept("lang") or "en"
    text = ", ".join(shown)
    text = text if len(text) <= 80 else text[:77] + "..."
    (host if host is not None else st).warning(
        translate("common.url_ignored", lang, name=key, value=text, label=label),
        icon=":material/link_off:")


def url_changed(key: str) -> str | None:
    """The URL's value for a hand-synced name when it differs from what the app last
    wrote there (a fresh session, a shared link, a navigation link), else None."""
    from_url = st.query_params.get(key)
    if from_url is not None and from_url != _store(URL_WRITTEN_KEY).get(key):
        return from_url
    return None


def write_url(key: str, text: str | None) -> None:
    """Put a hand-synced value in the URL (None or "" removes it: the default)."""
    if text:
        if st.query_params.get(key) != text:
            st.query_params[key] = text
    elif key in st.query_params:
        del st.query_params[key]
    _store(URL_WRITTEN_KEY)[key] = text or None


def valid_option(options: Iterable[Any]) -> Callable[[Any], bool]:
    """`is_valid` for a widget with fixed options."""
    allowed = list(options)
    return lambda value: value in allowed


def nav_query_params(target: str | None = None) -> dict[str, str]:
    """The query parameters of a navigation link to the page ``target`` (a key of
    URL_NAMES; None: the shared names only).

    The shared names, plus every name of the target page that this session has a value
    for (kept from any page, or still in this URL): the target page shows those values
    (see :func:`restore`), so its address must carry them, or a link copied there opens
    other numbers (issue 8: 13B on 8 GPUs on MFU, then Training time, gave a link to
    7B on 64 GPUs).  Hand-synced option widgets (device, precision, lang) keep their ids.
    """
    return nav_query_params_for([target])[target]


def nav_query_params_for(targets: Iterable[str | None]) -> dict[str | None, dict[str, str]]:
    """:func:`nav_query_params` for several pages at once (the sidebar's dozen links): each
    name's value is read from the session once, not once per link."""
    texts: dict[str, str] = {}

    def text_of(name: str) -> str:
        if name not in texts:
            value = st.session_state.get(name, kept(name)) if name in SHARED_NAMES else kept(name)
            if value is None and name not in SHARED_NAMES:
                value = st.query_params.get(name)
            texts[name] = url_text(value)
        return texts[name]

    out: dict[str | None, dict[str, str]] = {}
    for target in targets:
        names = list(SHARED_NAMES)
        if target is not None:
            names += [n for n in URL_NAMES.get(target, ()) if n not in names]
        out[target] = {name: text for name in names if (text := text_of(name))}
    return out
