"""Live inputs: moving a slider reruns only that slider's field and the page's results.

A calculator (:func:`ui.frame.calculator`) is one fragment: any of its inputs reruns all of
it, and the browser re-renders every element it sends — on the Serving page two dozen
fields, expanders and captions that the slider did not change, which cost the browser more
than the charts that did (README, "Slider → page redrawn"). Streamlit 1.67 lets a widget's
callback rerun named fragments only (``st.fragment(key=…)``, ``st.rerun([keys])``), so:

- :func:`field` draws one input (a slider, or a field with its slider) as a keyed fragment
  and returns what it read. Every widget drawn inside it reruns, when it changes, that
  field (its own caption, its URL name, the value kept for the next page: the same drawing
  code as a full run) and then the page's result parts — nothing else.
- :func:`results` draws a part of the page that is computed from the inputs record (the
  answer, a chart, a table) as a keyed fragment that reads the record from the session.
- The calculator still draws every input on a full run (or when an input that is not a live
  field changes) and builds the page's record with :func:`record` — ``build(**fields)``,
  one function per page. A live field's rerun replaces its own entry of those fields and
  calls the same ``build``: there is no second way of turning a widget value into the
  record, so the results see exactly what a full run would compute.
  ``tests/browser/test_live.py`` checks that: the page after a live press reads the same
  as the page opened anew on the URL the press wrote.

What a live field may not do: change anything drawn outside it (another input's options, a
caption under another field). Such an input stays an ordinary widget of the calculator.
"""
from __future__ import annotations

import dataclasses
import functools
import threading
from typing import Any, Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui import timing

STATE_KEY = "_live"
"""Session state: {page id: {"record": the inputs record, "build": the function that made it,
"fields": what it was made from, "parts": [result fragment keys], "outputs": {part: what it
returned}}}."""

_scope = threading.local()      # the live field being drawn in this script thread, if any


def _page_store(page_id: str) -> dict:
    store = st.session_state.get(STATE_KEY)
    if store is None:
        store = st.session_state[STATE_KEY] = {}
    return store.setdefault(page_id, {"record": None, "build": None, "fields": {}, "parts": [],
                                      "outputs": {}})


def field_key(page_id: str, name: str) -> str:
    return f"{page_id}.live.{name}"


def results_key(page_id: str, part: str) -> str:
    return f"{page_id}.results.{part}"


APPTEST_SESSION = "test session id"
"""The session id of Streamlit's AppTest (streamlit.testing.v1): its element tree after a
fragment-only rerun holds that run's elements only (and its page links cannot resolve the
pages there), so under AppTest a live widget reruns the calculator like any other input
and the page tests read whole pages; the live path itself is tested in a real browser
(tests/browser/test_live.py)."""


def _under_apptest() -> bool:
    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx is not None and getattr(ctx, "session_id", None) == APPTEST_SESSION


def _rerun_live(page_id: str, key: str | None) -> None:
    """The end of a live widget's callback: rerun its field (if any), then every result
    part (a widget drawn inside a result part, e.g. a deadline under the results, reruns
    all the parts: a later part may show what it changed)."""
    parts = _page_store(page_id)["parts"]
    st.rerun([key, *parts] if key else list(parts))


def on_change(callback: Callable[..., None] | None) -> Callable[..., None] | None:
    """A widget's ``on_change``: ``callback`` as it is outside a live field; inside one, the
    callback and then the rerun of that field and the page's results.  Every widget helper
    (ui.state.bound, ui.widgets.quantity_input, …) passes its callback through this."""
    scope = getattr(_scope, "field", None)
    if scope is None or _under_apptest():
        return callback
    page_id, key = scope

    def changed(*args: Any, **kwargs: Any) -> None:
        if callback is not None:
            callback(*args, **kwargs)
        _rerun_live(page_id, key)
    return changed


def field(page_id: str, name: str, *, whole_page_if: Callable[[Any, Any], bool] | None = None):
    """Decorator: ``draw(*args) -> value`` as a live field of page ``page_id``; ``value`` is
    the entry ``name`` of the fields the page's record is built from (:func:`record`).

    On the field's own rerun the record is rebuilt with the new value by the page's one
    ``build``.  ``whole_page_if(value, record)`` (``record``: the one before the press): True
    when this change alters something drawn outside the field (Decode's N becoming or
    leaving unreadable: the tensor-parallel field reads the model), so the press reruns the
    whole app instead."""
    key = field_key(page_id, name)

    def decorate(draw: Callable[..., Any]):
        @functools.wraps(draw)
        def body(*args: Any, **kwargs: Any) -> Any:
            alone = not getattr(_scope, "calculator", False)   # this field alone: a live press
            if alone:
                timing.start_run(page_id, fragment=True)
            previous = getattr(_scope, "field", None)
            _scope.field = (page_id, key)
            try:
                value = draw(*args, **kwargs)
            finally:
                _scope.field = previous
            if alone:             # (in a calculator run the record() that follows builds it)
                store = _page_store(page_id)
                if store["build"] is None or (whole_page_if is not None
                                               and whole_page_if(value, store["record"])):
                    st.rerun()
                store["fields"] = {**store["fields"], name: value}
                store["record"] = store["build"](**store["fields"])
            return value
        return st.fragment(body, key=key)
    return decorate


class calculator_scope:
    """``with calculator_scope():`` around a calculator's body (ui.frame.calculator): the
    live fields drawn inside it are part of that run, not presses of their own."""

    def __enter__(self) -> None:
        self.previous = getattr(_scope, "calculator", False)
        _scope.calculator = True

    def __exit__(self, *exc: Any) -> None:
        _scope.calculator = self.previous


def record(page_id: str, build: Callable[..., Any], fields: dict) -> Any:
    """The page's inputs record, ``build(**fields)``, from every input of a full run (call
    before :func:`results`); kept with ``build`` and ``fields`` so that a live field's rerun
    rebuilds it the same way. The result parts drawn after it are the ones a live field
    reruns."""
    store = _page_store(page_id)
    store["build"], store["fields"] = build, dict(fields)
    store["record"] = build(**fields)
    store["parts"] = []
    store["outputs"] = {}
    return store["record"]


def results(page_id: str, part: str, draw: Callable[[Any], Any]) -> None:
    """Draw ``draw(record)`` — a part of the page computed from the inputs record — as a
    keyed fragment that a live field reruns (in the order the parts are drawn)."""
    key = results_key(page_id, part)
    store = _page_store(page_id)
    if key not in store["parts"]:
        store["parts"].append(key)

    def body() -> None:
        previous = getattr(_scope, "field", None)
        _scope.field = (page_id, None)
        try:
            store = _page_store(page_id)
            store["outputs"][part] = draw(store["record"])
        finally:
            _scope.field = previous
    st.fragment(body, key=key)()


def output(page_id: str, part: str) -> Any:
    """What the result part ``part`` returned in this run (drawn before the asking part):
    a later part shows more of the same record (the memory under the training run)."""
    return _page_store(page_id)["outputs"].get(part)
