"""The session's trace, shared by two pages: the trace read last (from the Trace doctor's
uploader or the Roofline page's import) and its diagnosis, kept under non-widget keys so they survive page
changes. A file that cannot be read leaves the previous trace (and the Roofline page's
kernel table) untouched: only the error is remembered.

Widget-free: tests call :func:`load_upload` and :func:`diagnosis` with a plain dict.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Callable, MutableMapping

from calc.diagnosis import SMALL_KERNEL_SECONDS, TraceDiagnosis, diagnose_parsed
from calc.trace_events import TraceArrays, read_trace

TRACE_KEY = "_diag.trace"        # LoadedTrace of the last trace read successfully
ERROR_KEY = "_diag.error"        # UploadError of the last failed read (cleared on success)
SIG_KEY = "_diag.sig"            # signature of the last file processed (read once)
MEMO_KEY = "_diag.memo"          # (trace id, threshold, device) -> TraceDiagnosis


@dataclass(frozen=True)
class LoadedTrace:
    """A trace read into arrays: where it came from ("upload" | "roofline" | "sample") and how long
    reading took (seconds)."""
    trace: TraceArrays
    filename: str
    source: str
    read_seconds: float
    size_bytes: int
    signature: str


@dataclass(frozen=True)
class UploadError:
    filename: str
    message: str
    kind: str            # "format" (the file's fault, message for a person) | "internal"


def file_signature(data: bytes, filename: str) -> str:
    """Name, size and SHA-1: the same file is read only once."""
    return f"{filename}|{len(data)}|{hashlib.sha1(data).hexdigest()}"


def load_upload(session: MutableMapping[str, Any], data: bytes, filename: str, *,
                source: str = "upload", progress: Callable[[float], None] | None = None,
                signature: str | None = None,
                remember_error: bool = True) -> LoadedTrace | UploadError | None:
    """Read an uploaded trace once. None when this exact file was the last one processed;
    a :class:`LoadedTrace` (stored as the session's trace) or an :class:`UploadError`
    (stored as the error unless ``remember_error`` is False — the Roofline page's import
    of a CPU-only trace is no error of the Trace doctor; the previous trace stays).
    Never raises."""
    sig = signature or file_signature(data, filename)
    if session.get(SIG_KEY) == sig:
        return None
    session[SIG_KEY] = sig
    start = time.perf_counter()
    try:
        trace = read_trace(data, filename, progress=progress)
    except ValueError as exc:
        err = UploadError(filename, str(exc) or type(exc).__name__, "format")
    except Exception as exc:  # noqa: BLE001 - an upload must never break the page
        err = UploadError(filename, f"{type(exc).__name__}: {exc}", "internal")
    else:
        err = None
    if err is not None:
        if remember_error:
            session[ERROR_KEY] = err
        return err
    loaded = LoadedTrace(trace, filename, source, time.perf_counter() - start, len(data), sig)
    session[TRACE_KEY] = loaded
    session.pop(ERROR_KEY, None)
    session.pop(MEMO_KEY, None)
    return loaded


def from_roofline_import(session: MutableMapping[str, Any], data: bytes, filename: str,
                         signature: str) -> LoadedTrace | None:
    """A trace imported on the Roofline page becomes the Trace doctor's trace too (the
    import report then says how much of its GPU time the diagnosis covers). A trace the
    doctor cannot read (CPU-only, no GPU activity) changes nothing there."""
    out = load_upload(session, data, filename, source="roofline", signature=signature,
                      remember_error=False)
    if isinstance(out, LoadedTrace):
        return out
    loaded = current(session)
    return loaded if loaded is not None and loaded.signature == signature else None


def current(session: MutableMapping[str, Any]) -> LoadedTrace | None:
    value = session.get(TRACE_KEY)
    return value if isinstance(value, LoadedTrace) else None


def last_error(session: MutableMapping[str, Any]) -> UploadError | None:
    value = session.get(ERROR_KEY)
    return value if isinstance(value, UploadError) else None


def forget_upload(session: MutableMapping[str, Any]) -> None:
    """The uploader was cleared: the same file may be uploaded again (the trace stays)."""
    session[SIG_KEY] = None


def diagnosis(session: MutableMapping[str, Any], loaded: LoadedTrace,
              threshold: float = SMALL_KERNEL_SECONDS, device: str | None = None) -> TraceDiagnosis:
    """The diagnosis of ``loaded`` for this threshold and GPU, computed once per choice."""
    key = (loaded.signature, float(threshold), device)
    memo = session.get(MEMO_KEY)
    if isinstance(memo, tuple) and len(memo) == 2 and memo[0] == key:
        return memo[1]
    d = diagnose_parsed(loaded.trace, small_kernel_threshold_seconds=threshold, device=device)
    session[MEMO_KEY] = (key, d)
    return d
