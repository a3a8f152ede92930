"""The one JSON reader of every upload and paste: config.json (calc.hf_config), profiler
traces (calc.trace_events, calc.importers.torch_trace), scenario files (calc.scenario),
plans files (calc.plans).

    read_json(data, what, *, max_bytes, error=JSONInputError, hint="") -> object

Same limits and messages everywhere (``what`` names the input: "config.json",
"trace.json", "scenario file"):

* empty -> "The {what} is empty."
* larger than ``max_bytes`` (bytes as given, or characters of text) -> "... is larger
  than N MB."
* bytes that are not UTF-8 text (a byte-order mark allowed; UTF-16 with its byte-order
  mark is read too) -> "... is not UTF-8 text."
* nested deeper than Python's recursion limit (about 1,000 levels of ``[`` / ``{`` inside
  each other; the C decoder raises RecursionError there, and real files nest under 10)
  -> "... is nested too deeply (more than about {limit:,} levels of [ ] or { } inside each
  other)."  No RecursionError escapes.
* not JSON -> "... is not valid JSON (line L, column C: reason)." + ``hint``
* NaN / Infinity (not JSON numbers, which Python's json accepts) -> "... contains NaN,
  which is not a number JSON allows."
* an integer of more than 4,300 digits (Python's int limit) -> "... holds a number that
  cannot be read (...)."

``error``: the exception class raised (a ``ValueError`` subclass taking one message), so
each caller keeps its own error type (ScenarioError, ModelConfigError, ImportFormatError).
"""
from __future__ import annotations

import json
import sys
from typing import Type

__all__ = ["JSONInputError", "read_json"]


class JSONInputError(ValueError):
    """An upload or paste that is not readable JSON (the message says why)."""


class _Constant(Exception):
    def __init__(self, name: str):
        self.name = name


def _reject_constant(name: str):
    raise _Constant(name)


def read_json(data: str | bytes | bytearray | memoryview, what: str, *, max_bytes: int,
              error: Type[Exception] = JSONInputError, hint: str = "",
              parse_float=None) -> object:
    """Parse ``data`` (text, or bytes in a JSON encoding) as JSON with the limits and
    messages of the module docstring; raises ``error(message)``.  ``parse_float``: as
    ``json.loads``' (``str`` keeps every digit of a number with a fraction)."""
    tail = f" {hint}" if hint else ""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, (str, bytes)):
        raise error(f"The {what} must be text or bytes, got {type(data).__name__}.")
    if len(data) > max_bytes:
        raise error(f"The {what} is larger than {_mb(max_bytes)}.")
    if isinstance(data, bytes):
        data = _decode(data, what, error, tail)
    if not data.strip():
        raise error(f"The {what} is empty.")
    try:
        return json.loads(data, parse_constant=_reject_constant, parse_float=parse_float)
    except _Constant as c:
        raise error(f"The {what} contains {c.name}, which is not a number JSON allows.") from None
    except RecursionError:
        raise error(f"The {what} is nested too deeply (more than about "
                    f"{sys.getrecursionlimit():,} levels of [ ] or {{ }} inside each other).") from None
    except json.JSONDecodeError as exc:
        raise error(f"The {what} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg}).{tail}") from None
    except ValueError as exc:          # e.g. an integer with too many digits
        raise error(f"The {what} holds a number that cannot be read ({exc}).") from None


def _decode(raw: bytes, what: str, error, tail: str) -> str:
    """UTF-8 (a byte-order mark allowed), or UTF-16 with its byte-order mark (PowerShell's
    redirects write it)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = raw.decode("utf-16")
            if "\x00" not in text and text.lstrip()[:1] in ("{", "["):
                return text
        except UnicodeDecodeError:
            pass
    raise error(f"The {what} is not UTF-8 text.{tail}") from None


def _mb(n: int) -> str:
    return f"{n / 2 ** 20:,.0f} MB" if n >= 2 ** 20 else f"{n:,} bytes"
