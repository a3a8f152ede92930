"""Opt-in server timing: with ``ROOFLINE_LAB_TIMING=1`` the server logs one line per script
run — which page, full run or fragment rerun, and how long it took on the server::

    roofline-lab timing page=mfu run=fragment ms=21.4 session=3f2a…

bench/load_test.py reads these lines (p50 / p95 per page, per number of sessions).

How a run is timed without hooks into Streamlit: a run starts in :func:`ui.frame.page_frame`
(a full run) or in a calculator fragment (:func:`ui.frame.calculator`, a fragment-only
rerun); it ends when Streamlit's script thread goes on to its next run in the same thread
(the next start) or ends (a watcher thread joins it). So the time includes everything the
server does for the run after it starts: the page's code, Streamlit's element and widget
work, the end-of-run bookkeeping. Off (the default), this module does nothing.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time

from streamlit.runtime.scriptrunner import get_script_run_ctx

ENV = "ROOFLINE_LAB_TIMING"
LOGGER = logging.getLogger("roofline_lab.timing")
PREFIX = "roofline-lab timing"

_lock = threading.Lock()
#: script thread -> (page id, run kind, session id, start perf_counter)
_open: dict[threading.Thread, tuple[str, str, str, float]] = {}


def enabled() -> bool:
    return os.environ.get(ENV, "").strip() == "1"


def _emit(page: str, kind: str, session: str, seconds: float) -> None:
    LOGGER.log(logging.INFO, "%s page=%s run=%s ms=%.2f session=%s", PREFIX, page, kind,
               seconds * 1e3, session)


def _close(thread: threading.Thread, now: float) -> None:
    with _lock:
        entry = _open.pop(thread, None)
    if entry is not None:
        page, kind, session, t0 = entry
        _emit(page, kind, session, now - t0)


def _watch(thread: threading.Thread) -> None:
    thread.join()
    _close(thread, time.perf_counter())


def _session_and_fragment_run() -> tuple[str, bool]:
    try:
        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:  # noqa: BLE001 - timing must never break a page
        return "?", False
    if ctx is None:
        return "?", False
    return str(getattr(ctx, "session_id", "?")), bool(getattr(ctx, "fragment_ids_this_run", None))


def start_run(page_id: str, *, fragment: bool = False) -> None:
    """Mark the start of a script run of ``page_id`` in this thread (no-op when off).

    ``fragment=True`` is the call at the top of a fragment: it starts a run only when the
    run is a fragment-only rerun (inside a full run the full run is already timed)."""
    if not enabled():
        return
    session, fragment_run = _session_and_fragment_run()
    if fragment and not fragment_run:
        return
    now = time.perf_counter()
    thread = threading.current_thread()
    with _lock:
        previous = _open.pop(thread, None)
        _open[thread] = (page_id, "fragment" if fragment else "full", session, now)
    if previous is not None:
        page, kind, sess, t0 = previous
        _emit(page, kind, sess, now - t0)
    if previous is None and thread is not threading.main_thread():
        threading.Thread(target=_watch, args=(thread,), name="roofline-lab-timing",
                         daemon=True).start()


def _configure() -> None:
    if not enabled() or LOGGER.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False


_configure()
