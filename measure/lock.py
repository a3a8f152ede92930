"""One measurement at a time per process (one Streamlit server = one process).

Two users measuring at once would each see half the machine; so the Measure page
takes this lock for a benchmark run and for a live-kernel run, and tells the other
users who holds it and since when. The lock is a plain ``threading.Lock`` kept in
this module (Streamlit imports a module once per server process, so every session
shares it). It never blocks: :func:`exclusive` raises :class:`Busy` at once.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional

__all__ = ["Busy", "Holder", "exclusive", "holder"]

_LOCK = threading.Lock()
_HOLDER: Optional["Holder"] = None


@dataclass(frozen=True)
class Holder:
    """Who measures: a free-text owner, what (e.g. "benchmark", "kernels"), the start
    time (time.time(), s) and the expected duration (s)."""

    owner: str
    what: str
    started: float
    expected_s: float

    def elapsed_s(self, now: Optional[float] = None) -> float:
        return (time.time() if now is None else now) - self.started


class Busy(RuntimeError):
    """Another measurement holds the lock; ``holder`` says which."""

    def __init__(self, current: Optional[Holder]):
        self.holder = current
        what = f"{current.what} by {current.owner}" if current else "another measurement"
        super().__init__(f"{what} is running; one measurement at a time")


def holder() -> Optional[Holder]:
    """The running measurement, or None when the lock is free."""
    return _HOLDER


@contextmanager
def exclusive(owner: str, what: str, expected_s: float = 0.0) -> Iterator[Holder]:
    """Hold the measurement lock for the ``with`` block, or raise :class:`Busy` at once.

    Released however the block ends (an exception, a cancelled run, Streamlit
    stopping the script because the user clicked or left).
    """
    global _HOLDER
    if not _LOCK.acquire(blocking=False):
        raise Busy(_HOLDER)
    me = Holder(owner, what, time.time(), float(expected_s))
    _HOLDER = me
    try:
        yield me
    finally:
        _HOLDER = None
        _LOCK.release()
