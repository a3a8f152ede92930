"""Input checks shared by every public function of :mod:`calc` (private).

One place decides what a "valid number" is, so every function rejects the same
things with the same kind of message::

    mem_bw must be a finite number > 0 (bytes/s), got -1

Rules
-----
* ``bool``, ``None``, ``str``/``bytes``, complex and other non-numbers are
  rejected (``True`` is an ``int`` in Python, but never a bandwidth).
* NaN and +/-inf are rejected (``allow_nan=True`` lets NaN through, used for
  "no time measured" in :func:`calc.roofline.place_kernels`).
* Each check has a *rule*: ``"positive"`` (> 0, anything that divides),
  ``"non_negative"`` (>= 0), ``"fraction"`` (0 < x <= 1, e.g. MFU).
* Scalars (``int``, ``float``, numpy scalars, 0-d arrays) come back as Python
  ``float``; array-likes (lists, tuples, ndarrays) as float64 ``ndarray`` and
  the message names the first bad index.

numpy is imported lazily, only when an array is actually passed, so that
:mod:`calc.units` and :mod:`calc.hardware` stay numpy-free.
"""

from __future__ import annotations

import math
import sys
from typing import Any

__all__ = ["number", "finish", "is_scalar", "describe_rule"]

_RULES = {
    "positive": "> 0",
    "non_negative": ">= 0",
    "fraction": "in (0, 1]",
    "any": "",
}


def describe_rule(rule: str) -> str:
    return _RULES[rule]


def _ok_scalar(x: float, rule: str) -> bool:
    if rule == "positive":
        return x > 0
    if rule == "non_negative":
        return x >= 0
    if rule == "fraction":
        return 0 < x <= 1
    return True


def _ok_array(np, arr, rule: str):
    if rule == "positive":
        return arr > 0
    if rule == "non_negative":
        return arr >= 0
    if rule == "fraction":
        return (arr > 0) & (arr <= 1)
    return np.ones(arr.shape, dtype=bool)


def _what(rule: str, unit: str | None, plural: bool = False) -> str:
    desc = _RULES[rule]
    noun = "finite numbers" if plural else "a finite number"
    s = f"{noun} {desc}".rstrip()
    if unit:
        s += f" ({unit})"
    return s


def _is_numpy_number(value: Any) -> bool:
    np = sys.modules.get("numpy")
    return (
        np is not None
        and isinstance(value, np.generic)
        and not isinstance(value, (np.bool_, np.complexfloating, np.str_, np.bytes_))
        and isinstance(value, (np.integer, np.floating))
    )


def number(
    name: str,
    value: Any,
    rule: str = "positive",
    unit: str | None = None,
    *,
    allow_nan: bool = False,
):
    """Validate ``value`` and return it as ``float`` (scalar) or float64 ndarray.

    Raises ``ValueError`` naming ``name`` and what is allowed.
    """
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be {_what(rule, unit)}, got {value!r}")
    if isinstance(value, (int, float)) or _is_numpy_number(value):
        try:
            x = float(value)
        except OverflowError:
            raise ValueError(f"{name} must be {_what(rule, unit)}, got an integer too large for a float") from None
        if math.isnan(x) and allow_nan:
            return x
        if not math.isfinite(x) or not _ok_scalar(x, rule):
            shown = value if isinstance(value, (int, float)) else x
            raise ValueError(f"{name} must be {_what(rule, unit)}, got {shown!r}")
        return x
    if isinstance(value, complex):
        raise ValueError(f"{name} must be {_what(rule, unit)}, got {value!r}")

    import numpy as np

    try:
        raw = np.asarray(value)
    except Exception:  # ragged lists and the like
        raise ValueError(f"{name} must be {_what(rule, unit)} or an array of them, got {type(value).__name__}") from None
    if raw.dtype.kind not in "iuf":
        raise ValueError(
            f"{name} must be {_what(rule, unit)} or an array of them, got "
            f"{type(value).__name__} of dtype {raw.dtype}"
        )
    if raw.ndim == 0:
        return number(name, raw[()], rule, unit, allow_nan=allow_nan)
    arr = raw.astype(np.float64, copy=False)
    if arr.size == 0:
        return arr
    with np.errstate(invalid="ignore"):
        good = np.isfinite(arr) & _ok_array(np, arr, rule)
        if allow_nan:
            good |= np.isnan(arr)
    if not good.all():
        flat = int(np.argmin(good.ravel()))
        idx = np.unravel_index(flat, arr.shape)
        idx_s = ", ".join(str(int(i)) for i in idx)
        bad = arr[idx]
        raise ValueError(
            f"{name} must contain only {_what(rule, unit, plural=True)}; element [{idx_s}] is {float(bad)!r}"
        )
    return arr


def whole(name: str, value: Any, rule: str = "positive", unit: str | None = None) -> float:
    """``number`` for a count (elements, rows, heads, tokens): a single value that is a whole
    number (4096.0 is one, 2.5 is not); ValueError naming ``name`` otherwise."""
    x = number(name, value, rule, unit)
    if not isinstance(x, float):
        raise ValueError(f"{name} must be a single number {describe_rule(rule)}"
                         + (f" ({unit})" if unit else "") + ", not an array")
    if not x.is_integer():
        raise ValueError(f"{name} must be a whole number {describe_rule(rule)}"
                         + (f" ({unit})" if unit else "") + f", got {value!r}")
    return x


def is_scalar(*values: Any) -> bool:
    """True when every (already validated) value is a Python float."""
    return all(isinstance(v, float) for v in values)


def finish(result: Any, *inputs: Any):
    """Return ``float(result)`` when all validated inputs were scalars, else an ndarray."""
    if is_scalar(*inputs):
        return float(result)
    import numpy as np

    return np.asarray(result, dtype=np.float64)
