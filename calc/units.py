"""Reading and writing quantities as people type them: "312 TFLOP/s", "1.2 ms", "7B".

No numpy here: this module parses text cells (tables, text inputs) and must stay
light.

``parse_quantity(text, kind=None) -> float`` (SI base units)
------------------------------------------------------------
Accepted forms (spaces between number and unit are optional)::

    1.1e12   1,000,000   -5   1.1T   500M   7B   16Gi          plain / counts
    2*8192**3   3*8192^2*2   (1+2)*3e3   3×10^12               expressions
    1.2 ms   350 us   350 µs   10 ns   1.5 s   2 min   3 h   54 days   time
    14 GB   16 GiB   512 B   80gb                                bytes
    2 TB/s   2039 GB/s   900 GiB/s                               bandwidth
    312 TFLOP/s   312 TFLOPS   989.4 tflops   624 TOPS           FLOP/s (ops/s)
    4.2e22 FLOP   42 ZFLOP   1.2 GFLOPs                          FLOP (count)
    156 FLOP/B                                                   intensity
    143 tok/s   12k tokens/s                                     tokens/s
    45%                                                          fraction (0.45)
    54 天   3 小时   20 分钟   1.5 秒   2 毫秒   350 微秒            time, as the Chinese pages write it
    120 tokens/秒   2 TB/秒   312 TFLOP/秒   156 FLOP/字节   14 字节   per second / bytes in Chinese

Rules worth knowing
~~~~~~~~~~~~~~~~~~~
* **"B": billion or bytes?** Model sizes are written "7B", "70B" (billion) and
  memory "14 GB" (bytes).  A prefixed B ("GB", "TiB", ...) is always bytes.  A
  bare ``B`` is *billion* when glued to the number ("7B") and *bytes* when
  separated by a space ("512 B", which is what :func:`format_si` writes).
  ``kind="bytes"`` makes a bare B always bytes; any other ``kind`` makes it
  always billion.  Lowercase ``b``/``bn`` is always billion; we never read bits.
* **FLOPS vs FLOPs**: "FLOPS", "FLOP/s", "flops", "flop/s" are rates (FLOP per
  second); "FLOP" and "FLOPs" (lowercase s, the plural) are counts.
  "OPS"/"OP/s"/"TOPS" (integer ops) are read as rates like FLOP/s.
* SI prefixes are decimal (k, M, G, T, P, E, Z, Y = 1e3 ... 1e24); binary
  prefixes Ki, Mi, Gi, Ti, Pi, Ei are powers of 1024.  Sub-unit prefixes
  m, u/µ, n, p only apply to seconds.  A bare lowercase ``m`` is rejected as
  ambiguous (milli or million?).  Byte/FLOP/token units are also matched
  case-insensitively ("tflops", "gb/s"); seconds are not ("Ms" is rejected).
* **Chinese units** are the English ones: 天 = days, 小时 = h, 分钟 = min, 秒 = s (毫秒 ms,
  微秒 µs, 纳秒 ns), "/秒" = "/s" after any rate unit, 字节 = bytes; so whatever a Chinese
  page shows ("54 天", "120 tokens/秒", "156 FLOP/字节") can be typed back, wherever the English
  form is accepted.
* Text is NFKC-normalised first: full-width digits and letters ("３１２") become
  ASCII, the micro sign and Greek mu both mean micro, the Unicode minus "−"
  is a minus, "×"/"·" mean multiply, "^" means power.  Commas are accepted only
  as thousands separators ("1,000,000"); a decimal comma ("1,5") is rejected.
* Expressions are evaluated by walking Python's ``ast`` with a whitelist
  (number literals, + - * / ** ^, unary +/-, parentheses), in floating point,
  never with ``eval``.  Any result or intermediate that is not finite, an
  exponent with magnitude > 1024, and input longer than 200 characters are
  rejected with a clear message ("9**9**9" fails in microseconds).
* NaN, inf and empty text are rejected.  Negative numbers are allowed (the
  calling function decides whether a negative makes sense).

``kind`` (optional) says what the caller expects: ``"time"``, ``"bytes"``,
``"bandwidth"``, ``"flops"`` (a FLOP count), ``"flop_rate"``, ``"intensity"``,
``"token_rate"``, ``"fraction"`` or ``"count"``.  A unit of another kind is
rejected ("14 GB" is not a time); a number without a unit, or with only a
multiplier ("312T"), is accepted for every kind.

``format_si(value, unit, digits=3) -> str``
-------------------------------------------
"312 TFLOP/s", "2.04 TB/s", "156 FLOP/B", "1.5 ms", "42 ZFLOP", "-3 GB".
``parse_quantity(format_si(x, unit))`` gives back ``x`` to within the printed
significant digits (property-tested).
"""

from __future__ import annotations

import ast
import math
import re
import unicodedata
import warnings
from typing import Any

__all__ = [
    "format_si_many",
    "QuantityError",
    "UnitKindError",
    "kind_for_unit",
    "parse_price",
    "format_money",
    "CURRENCIES",
    "parse_quantity",
    "unit_of",
    "format_si",
    "format_binary_bytes",
    "format_percent",
    "is_absurd_fraction",
    "ABSURD_FRACTION",
    "KINDS",
    "MAX_TEXT_LENGTH",
    "MAX_EXPONENT",
    "MAX_MAGNITUDE",
    "MIN_MAGNITUDE",
    "SI_PREFIXES",
    "BINARY_PREFIXES",
]

MAX_TEXT_LENGTH = 200
"""Longest text parse_quantity will read (characters, after trimming)."""

MAX_EXPONENT = 1024
"""Largest |exponent| accepted in ``a ** b`` (2**1024 already overflows a float)."""

MAX_MAGNITUDE = 1e30
"""Largest magnitude any input (field or table cell) may have, in SI base units: the
products and quotients the pages ask of calc/ (6·N·D, bandwidth ÷ bytes, ...) stay
finite and the charts keep a sane number of decades."""

MIN_MAGNITUDE = 1e-30
"""Smallest non-zero magnitude any input may have (see MAX_MAGNITUDE)."""

EXAMPLES = "Examples: 312T, 2 TB/s, 1.2 ms, 14 GB, 7B, 2*8192**3"

KINDS = ("count", "time", "bytes", "bandwidth", "flops", "flop_rate", "intensity", "token_rate", "fraction",
         "price")

_KIND_WORDS = {
    "count": "a plain count",
    "time": "a time (e.g. 1.2 ms, 350 us, 1.5 s)",
    "bytes": "an amount of memory (e.g. 14 GB, 16 GiB)",
    "bandwidth": "a bandwidth (e.g. 2 TB/s, 900 GB/s)",
    "flops": "a number of FLOP (e.g. 4.2e22 FLOP, 2*8192**3)",
    "flop_rate": "a compute rate (e.g. 312 TFLOP/s, 989 TFLOPS)",
    "intensity": "an arithmetic intensity (e.g. 156 FLOP/B)",
    "token_rate": "a token rate (e.g. 143 tok/s)",
    "fraction": "a fraction (e.g. 0.45 or 45%)",
    "price": "a price (e.g. 2.5, $2, ¥15, 2 USD)",
}


class QuantityError(ValueError):
    """A text could not be read as a quantity; the message says why and shows examples."""


class UnitKindError(QuantityError):
    """A quantity of the wrong kind: "3 TB/s" where a compute rate is wanted.

    ``expected`` and ``got`` are kinds from KINDS ("flop_rate", "bandwidth"), ``text`` the
    input, so a UI can name both in its own language.
    """

    def __init__(self, message: str, *, expected: str, got: str, text: str):
        super().__init__(message)
        self.expected, self.got, self.text = expected, got, text


SI_PREFIXES = {
    "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24,
}
BINARY_PREFIXES = {
    "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60,
}
_SUB_PREFIXES = {"m": 1e-3, "u": 1e-6, "n": 1e-9, "p": 1e-12}

# base unit -> (kind, factor, allowed prefix tables)
_BIG = (SI_PREFIXES,)
_BIG_BIN = (SI_PREFIXES, BINARY_PREFIXES)
_BASES: dict[str, tuple[str, float, tuple]] = {}


def _add(names, kind, factor, prefixes=()):
    for n in names:
        _BASES[n] = (kind, factor, prefixes)


_add(["s", "sec", "secs", "second", "seconds"], "time", 1.0, (_SUB_PREFIXES,))
_add(["min", "mins", "minute", "minutes"], "time", 60.0)
_add(["h", "hr", "hrs", "hour", "hours"], "time", 3600.0)
_add(["day", "days"], "time", 86400.0)
_add(["B", "byte", "bytes"], "bytes", 1.0, _BIG_BIN)
_add(["B/s", "Bps", "byte/s", "bytes/s"], "bandwidth", 1.0, _BIG_BIN)
_add(["FLOP", "FLOPs", "flop"], "flops", 1.0, _BIG)
_add(["FLOP/s", "FLOPS", "flop/s", "flops", "OP/s", "OPS", "op/s", "ops"], "flop_rate", 1.0, _BIG)
_add(["FLOP/B", "FLOP/byte", "flop/byte", "flop/B", "FLOPs/B", "FLOPs/byte", "OP/B", "op/B"],
     "intensity", 1.0, _BIG)
_add(["tok/s", "tokens/s", "token/s"], "token_rate", 1.0, _BIG)
_add(["tok", "tokens", "token"], "count", 1.0, _BIG)
_add(["%"], "fraction", 0.01)

# multipliers written directly after a number: 1.1T, 500M, 7B, 16Gi
_COUNT_SUFFIXES = dict(SI_PREFIXES)
_COUNT_SUFFIXES.update(BINARY_PREFIXES)
_COUNT_SUFFIXES.update({
    "b": 1e9, "bn": 1e9, "Bn": 1e9,
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
})

_CI_BASES = {}
for _name, _spec in _BASES.items():
    if _spec[0] != "time":
        _CI_BASES.setdefault(_name.lower(), _spec)
_CI_PREFIXES = {k.lower(): v for k, v in SI_PREFIXES.items()}
_CI_PREFIXES.update({k.lower(): v for k, v in BINARY_PREFIXES.items()})

_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])")
_SPLIT = re.compile(r"^(?P<expr>.*?)(?P<space>\s*)(?P<unit>[A-Za-z\u00b5\u03bc%][A-Za-z\u00b5\u03bc%/]*(?:\s+[A-Za-z\u00b5\u03bc%][A-Za-z\u00b5\u03bc%/]*)?)?\s*$", re.S)

_TRANSLATE = str.maketrans({
    "\u2212": "-",  # unicode minus
    "\u2013": "-",  # en dash typed as minus
    "\u00d7": "*",  # ×
    "\u00b7": "*",  # ·
    "\u22c5": "*",  # ⋅
    "\u2217": "*",  # ∗
    "\u00b5": "u",  # micro sign
    "\u03bc": "u",  # greek mu
    "^": "**",
    "\u2009": "", "\u202f": "", "\u00a0": " ",
})


# Chinese unit words -> the English unit they mean (longest first: 毫秒 before 秒).
_ZH_UNITS = (("毫秒", "ms"), ("微秒", "us"), ("纳秒", "ns"), ("分钟", "min"), ("小时", "h"),
             ("秒", "s"), ("天", "days"), ("字节", "byte"))
_ZH_UNIT = re.compile("|".join(zh for zh, _ in _ZH_UNITS))
_ZH_TO_EN = dict(_ZH_UNITS)


def _english_units(s: str) -> str:
    """'54 天' -> '54 days', '120 tokens/秒' -> '120 tokens/s', '156 FLOP/字节' -> '156 FLOP/byte'."""
    return _ZH_UNIT.sub(lambda m: _ZH_TO_EN[m.group(0)], s)


def _fail(text: Any, why: str = "") -> QuantityError:
    shown = text if len(str(text)) <= 60 else str(text)[:57] + "..."
    msg = f'Could not read "{shown}" as a number'
    msg += f": {why}." if why else "."
    return QuantityError(f"{msg} {EXAMPLES}")


def _lookup_unit(unit: str, spaced: bool, kind: str | None) -> tuple[str | None, float]:
    """Return (kind or None for plain multipliers, factor) for a unit text."""
    if unit in ("B",) and not (kind == "bytes" or (kind is None and spaced)):
        return None, 1e9
    if unit in _BASES:
        k, f, _ = _BASES[unit]
        return k, f
    if unit in _COUNT_SUFFIXES:
        return None, _COUNT_SUFFIXES[unit]
    if unit == "m":
        raise QuantityError(
            'A bare "m" is ambiguous: write M for million, or ms for milliseconds. ' + EXAMPLES
        )
    # prefix + base, case-sensitive
    for plen in (2, 1):
        p, rest = unit[:plen], unit[plen:]
        if rest in _BASES:
            k, f, tables = _BASES[rest]
            for table in tables:
                if p in table:
                    return k, f * table[p]
    # case-insensitive (not for time units)
    low = unit.lower()
    if low in _CI_BASES:
        k, f, _ = _CI_BASES[low]
        return k, f
    for plen in (2, 1):
        p, rest = low[:plen], low[plen:]
        if rest in _CI_BASES and p in _CI_PREFIXES:
            k, f, tables = _CI_BASES[rest]
            allowed = any(
                any(q.lower() == p for q in table) for table in tables
            )
            if allowed:
                return k, f * _CI_PREFIXES[p]
    raise QuantityError(f'Unknown unit "{unit}". ' + EXAMPLES)


def _eval(node: ast.AST, text: str) -> float:
    if isinstance(node, ast.Expression):
        return _eval(node.body, text)
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _fail(text, "only numbers and + - * / ** ( ) are allowed")
        try:
            x = float(v)
        except OverflowError:
            raise _fail(text, "the number is too large") from None
        return x
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        x = _eval(node.operand, text)
        return -x if isinstance(node.op, ast.USub) else x
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        a = _eval(node.left, text)
        b = _eval(node.right, text)
        op = node.op
        if isinstance(op, ast.Add):
            r = a + b
        elif isinstance(op, ast.Sub):
            r = a - b
        elif isinstance(op, ast.Mult):
            r = a * b
        elif isinstance(op, ast.Div):
            if b == 0:
                raise _fail(text, "division by zero")
            r = a / b
        else:
            if abs(b) > MAX_EXPONENT:
                raise _fail(text, f"the exponent {b:g} is too large (at most {MAX_EXPONENT})")
            try:
                r = math.pow(a, b)
            except OverflowError:
                raise _fail(text, "the result is too large") from None
            except ValueError:
                raise _fail(text, f"{a:g} ** {b:g} is not a real number") from None
        if not math.isfinite(r):
            raise _fail(text, "the result is too large")
        return r
    raise _fail(text, "only numbers and + - * / ** ( ) are allowed")


def _eval_expr(expr: str, text: str) -> float:
    if not expr.strip():
        raise _fail(text)
    try:
        with warnings.catch_warnings():
            # "1e", "2x3" and the like make the parser warn before it fails; the user
            # gets our message, not a SyntaxWarning on the console.
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(expr.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise _fail(text) from None
    try:
        return _eval(tree, text)
    except RecursionError:
        raise _fail(text, "the expression is nested too deeply") from None


def unit_of(text: str) -> str:
    """The unit part of a quantity's text ("" for a plain number or expression).

    ``unit_of("1.2 ms") == "ms"``, ``unit_of("2*8192**3") == ""``, ``unit_of("1e-3") == ""``,
    ``unit_of("3 毫秒") == "ms"``, ``unit_of("1.2k") == ""`` (a bare multiplier is no unit):
    the split :func:`parse_quantity` makes, so a caller can tell a cell that carries its own
    unit from one that takes its column's (a header "time (ms)": "1.2k" there is 1.2 s).
    """
    s = _english_units(unicodedata.normalize("NFKC", str(text)).translate(_TRANSLATE)).strip()
    m = _SPLIT.match(s)
    unit = re.sub(r"\s+", "", m.group("unit")) if m and m.group("unit") else ""
    # a bare multiplier ("1.2k", "5 M") scales the number; it is not a unit of its own
    return "" if unit in _COUNT_SUFFIXES else unit


def parse_quantity(text: Any, kind: str | None = None) -> float:
    """Read a number with optional SI prefix / unit / arithmetic and return SI base units.

    ``parse_quantity("312 TFLOP/s") == 312e12``; ``parse_quantity("1.2 ms") == 1.2e-3``;
    ``parse_quantity("7B") == 7e9``; ``parse_quantity("16 GiB") == 16 * 2**30``;
    ``parse_quantity("2*8192**3") == 2 * 8192**3``.  Ints and floats pass through as float.

    Units: returns FLOP, bytes, seconds, FLOP/s, bytes/s, tokens/s, or a plain number;
    "%" divides by 100.  See the module docstring for every rule (B = billion vs bytes,
    FLOPS vs FLOPs, expression whitelist, limits).  Source: SI brochure (prefixes),
    IEC 80000-13 (binary prefixes).

    Raises :class:`QuantityError` (a ``ValueError``) with a message a person can act on.
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)} or None, got {kind!r}")
    if isinstance(text, bool) or text is None:
        raise QuantityError(f"Expected a number or text, got {text!r}. {EXAMPLES}")
    if isinstance(text, (int, float)):
        try:
            x = float(text)
        except OverflowError:
            raise QuantityError("The number is too large. " + EXAMPLES) from None
        if not math.isfinite(x):
            raise QuantityError(f"Expected a finite number, got {text!r}. {EXAMPLES}")
        return x
    if not isinstance(text, str):
        # numpy scalars etc.
        try:
            x = float(text)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            raise QuantityError(f"Expected a number or text, got {type(text).__name__}. {EXAMPLES}") from None
        if not math.isfinite(x):
            raise QuantityError(f"Expected a finite number, got {text!r}. {EXAMPLES}")
        return x

    original = text
    if kind == "price":
        return parse_price(text)[0]
    s = text.strip()
    if not s:
        raise QuantityError("Empty value: type a number. " + EXAMPLES)
    if len(s) > MAX_TEXT_LENGTH:
        raise QuantityError(
            f"The text is too long ({len(s)} characters, at most {MAX_TEXT_LENGTH}). " + EXAMPLES
        )
    s = _english_units(unicodedata.normalize("NFKC", s).translate(_TRANSLATE)).strip()
    low = s.lower().lstrip("+-").strip()
    if low in ("nan", "inf", "infinity", "∞"):
        raise QuantityError(f'"{original}" is not a finite number. ' + EXAMPLES)
    s = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), s)
    if "," in s:
        raise _fail(original, 'a comma is only allowed between groups of three digits ("1,000,000"); use "." for decimals')

    m = _SPLIT.match(s)
    if m is None:  # pragma: no cover - the pattern always matches
        raise _fail(original)
    expr, unit = m.group("expr"), m.group("unit")
    spaced = bool(m.group("space"))
    if not expr.strip():
        raise _fail(original)
    value = _eval_expr(expr, original)
    unit_kind: str | None = None
    factor = 1.0
    if unit:
        unit_kind, factor = _lookup_unit(re.sub(r"\s+", "", unit), spaced, kind)
    if kind is not None and unit_kind is not None and unit_kind != kind:
        raise UnitKindError(
            f'Expected {_KIND_WORDS[kind]}, but "{original}" is {_KIND_WORDS[unit_kind].split(" (")[0]}.',
            expected=kind, got=unit_kind, text=original,
        )
    result = value * factor
    if not math.isfinite(result):
        raise _fail(original, "the result is too large")
    return result


# ----------------------------------------------------------------------------- format

_UP = [("", 1.0), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("P", 1e15), ("E", 1e18), ("Z", 1e21), ("Y", 1e24)]
_DOWN_SECONDS = [("p", 1e-12), ("n", 1e-9), ("µ", 1e-6), ("m", 1e-3), ("", 1.0)]
_TIME_UNITS = {"s"}
_PLAIN_UNITS = {"FLOP/B", "FLOP/byte", "OP/B"}  # intensities are read as plain numbers: "2730 FLOP/B"


def _sig(x: float, digits: int) -> str:
    """x rounded to ``digits`` significant digits, written without exponent, trailing zeros dropped."""
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(x)))
    r = round(x, digits - 1 - e)
    if r == 0:
        return "0"
    e = math.floor(math.log10(abs(r)))
    s = f"{r:.{max(0, digits - 1 - e)}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def _exp(a: float, digits: int) -> str:
    """Exponent notation with ``digits`` significant digits, trailing zeros dropped: 4.67e+6."""
    mant, _, exp = f"{a:.{digits - 1}e}".partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(exp):+d}"


def _round_sig(x: float, digits: int) -> float:
    if x == 0:
        return 0.0
    return round(x, digits - 1 - math.floor(math.log10(abs(x))))


def format_si(value: Any, unit: str, digits: int = 3) -> str:
    """Format ``value`` (SI base units) with an SI prefix: ``format_si(312e12, "FLOP/s") == "312 TFLOP/s"``.

    ``digits`` significant digits, trailing zeros dropped: ``format_si(2.039e12, "B/s")
    == "2.04 TB/s"``, ``format_si(156, "FLOP/B") == "156 FLOP/B"``.  Seconds use
    sub-unit prefixes (``"1.5 ms"``, ``"350 µs"``, ``"10 ns"``); large seconds and
    values beyond the prefix ladder fall back to exponent notation ("4.67e+06 s").
    Other units get no sub-unit prefixes ("0.5 B/s"); intensities ("FLOP/B") get no
    prefix at all ("2730 FLOP/B").  ``unit=""`` formats a plain
    count with k, M, G, T.  0 -> "0 <unit>", negatives keep their sign, NaN -> "—",
    inf -> "∞ <unit>".  The output round-trips through :func:`parse_quantity`.
    Source: SI brochure, 9th edition (prefixes).
    """
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        raise ValueError(f"value must be a number, got {value!r}")
    if not isinstance(unit, str):
        raise ValueError(f"unit must be a string such as 'FLOP/s', got {unit!r}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 15:
        raise ValueError(f"digits must be an integer from 1 to 15, got {digits!r}")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"value must be a number, got {type(value).__name__}") from None
    sep = " " if unit else ""
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return ("-∞" if x < 0 else "∞") + sep + unit
    if x == 0:
        return "0" + sep + unit
    sign = "-" if x < 0 else ""
    a = abs(x)
    if unit in _TIME_UNITS:
        if a >= 1e3 or a < 1e-12:
            return f"{sign}{_exp(a, digits)} {unit}"
        ladder = _DOWN_SECONDS
    elif unit in _PLAIN_UNITS:
        if 1e-3 <= a < 1e6:
            return sign + _sig(a, digits) + sep + unit
        return f"{sign}{_exp(a, digits)}{sep}{unit}"
    else:
        if a < 1:
            if a < 1e-3:
                return f"{sign}{_exp(a, digits)}{sep}{unit}"
            return sign + _sig(a, digits) + sep + unit
        ladder = _UP
    # pick the largest prefix whose mantissa (after rounding) is >= 1
    chosen = None
    for i, (p, f) in enumerate(ladder):
        mant = _round_sig(a / f, digits)
        if mant >= 1:
            chosen = (p, f, mant)
        else:
            break
    if chosen is None:  # pragma: no cover - a >= 1e-12 for seconds, >= 1 otherwise
        chosen = (ladder[0][0], ladder[0][1], _round_sig(a / ladder[0][1], digits))
    p, f, mant = chosen
    if mant >= 1000:
        # beyond the top prefix: exponent notation
        return f"{sign}{_exp(a, digits)}{sep}{unit}"
    return f"{sign}{_sig(a / f, digits)}{sep}{p}{unit}"



_PREFIX_BY_EXPONENT = {-12: "p", -9: "n", -6: "µ", -3: "m", 0: "", 3: "k", 6: "M", 9: "G",
                       12: "T", 15: "P", 18: "E", 21: "Z", 24: "Y"}


def format_si_many(values: Any, unit: str, mask: Any = None) -> list[str]:
    """:func:`format_si` (3 significant digits) of many values at once — a table column of
    10,000 kernels — with the same text for every positive value: ``format_si_many([2.5e14,
    999.7], "FLOP/s") == ["250 TFLOP/s", "1 kFLOP/s"]``.

    Vectorized: the prefix exponent is 3·floor(log10(x) / 3), moved up one prefix where the
    mantissa rounds to 1000 (999.7 -> "1 k", as format_si picks the largest prefix whose
    rounded mantissa is ≥ 1); values format_si writes another way (exponent notation,
    seconds ≥ 1000 s or below 1 ps, other units below 1, intensities outside 1 … 1000) are
    handed to format_si itself, as are infinite and negative values ("∞ s").  0 -> "0 <unit>";
    NaN (not known) -> "— <unit>"; rows where ``mask`` is False -> "—".
    """
    import numpy as np  # local: the rest of this module is standard library only

    v = np.asarray(values, dtype=float).ravel()
    ok = np.isfinite(v) & (v > 0)
    texts = np.where(v == 0, f"0 {unit}", f"— {unit}").astype(object)
    for i in np.flatnonzero(np.isinf(v) | (v < 0)):
        texts[i] = format_si(float(v[i]), unit)
    if ok.any():
        x = v[ok]
        if unit in _PLAIN_UNITS:
            e = np.zeros(x.shape, dtype=int)
            fast = (x >= 1.0) & (x < 999.5)
        else:
            e = (np.floor(np.log10(x) / 3) * 3).astype(int)
            mant = x / 10.0 ** e
            digits = np.floor(np.log10(mant))
            rounded = np.round(mant / 10.0 ** (digits - 2)) * 10.0 ** (digits - 2)
            e = np.where(rounded >= 1000, e + 3, e)
            if unit in _TIME_UNITS:
                fast = (e >= -12) & (e <= 0) & (x < 999.5)
            else:
                fast = (e >= 0) & (e <= 24)
        scaled = x / 10.0 ** e
        out = [f"{m:.3g} {_PREFIX_BY_EXPONENT[k]}{unit}" if f else format_si(float(xx), unit)
               for m, k, f, xx in zip(scaled.tolist(), e.tolist(), fast.tolist(), x.tolist())]
        texts[np.flatnonzero(ok)] = out
    result = texts.tolist()
    if mask is not None:
        result = [t if m else "—" for t, m in zip(result, np.asarray(mask, dtype=bool).ravel().tolist())]
    return result


def format_binary_bytes(value: Any, digits: int = 3) -> str:
    """Bytes with a binary (IEC) prefix: ``format_binary_bytes(80 * 2**30) == "80 GiB"``.

    For capacities built in powers of two (DRAM, HBM): an "80 GB" A100 holds
    80 × 2**30 = 85.9e9 bytes, which :func:`format_si` writes "85.9 GB".  Prefixes Ki,
    Mi, Gi, Ti, Pi, Ei (IEC 80000-13); below 1 KiB plain "B".  Round-trips through
    :func:`parse_quantity`.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"value must be a number, got {value!r}")
    x = float(value)
    if not math.isfinite(x) or x < 1024:
        return format_si(x, "B", digits)
    for p, f in reversed(list(BINARY_PREFIXES.items())):
        if x >= f and _round_sig(x / f, digits) < 1024:
            return f"{_sig(x / f, digits)} {p}B"
    return format_si(x, "B", digits)


ABSURD_FRACTION = 10.0
"""A utilisation (MFU, fraction of a roof, bandwidth use) above 10 = 1,000 % is not a
result but a sign of wrong inputs: :func:`format_percent` writes it "> 1,000%"."""


def is_absurd_fraction(fraction: Any) -> bool:
    """True when a utilisation fraction is not a meaningful result: > ABSURD_FRACTION
    (1,000 %), infinite or NaN."""
    try:
        x = float(fraction)
    except (TypeError, ValueError, OverflowError):
        return True
    return not math.isfinite(x) or x > ABSURD_FRACTION


def format_percent(fraction: Any, decimals: int = 1, *, trim: bool = False,
                   keep_small: bool = False) -> str:
    """A fraction as a percentage: 0.2019 -> "20.2%"; beyond 1,000 % -> "> 1,000%".

    The app's one percentage formatter (pages, tables, figures, reports).  Utilisations
    far beyond 100 % (MFU from 1e30 tokens/s is 1.7e27) are wrong inputs, not numbers worth
    printing 28 digits of; NaN -> "—", -inf/inf -> "> 1,000%" or "-∞%".  decimals: digits
    after the point (0..6).  ``trim``: trailing zeros dropped ("35%" for 0.35000000000000003
    at 2 decimals, "12.5%").  ``keep_small``: a non-zero fraction that would round to 0 keeps
    two significant digits ("0.034%" for 0.00034 at 1 decimal: decode MFU at batch 1).
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 6:
        raise ValueError(f"decimals must be an integer from 0 to 6, got {decimals!r}")
    try:
        x = float(fraction)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"fraction must be a number, got {fraction!r}") from None
    if math.isnan(x):
        return "—"
    if x > ABSURD_FRACTION:
        return f"> {ABSURD_FRACTION:,.0%}"
    if x == -math.inf:
        return "-∞%"
    if keep_small and x != 0 and round(abs(x) * 100, decimals) == 0:
        decimals = min(6, 1 - math.floor(math.log10(abs(x) * 100)))
    text = f"{x:.{decimals}%}"
    if trim and "." in text:
        text = text[:-1].rstrip("0").rstrip(".") + "%"
    return text


_UNIT_KINDS = {"FLOP/s": "flop_rate", "B/s": "bandwidth", "B": "bytes", "s": "time",
               "tok/s": "token_rate", "FLOP": "flops", "FLOP/B": "intensity", "%": "fraction"}


def kind_for_unit(unit: str) -> str | None:
    """The ``kind`` a field showing ``unit`` expects: "FLOP/s" -> "flop_rate", "B/s" ->
    "bandwidth", "B" -> "bytes", "s" -> "time", "tok/s" -> "token_rate", "FLOP" ->
    "flops", "FLOP/B" -> "intensity"; None for "" and unknown units."""
    return _UNIT_KINDS.get(unit)


def _currency_marks() -> dict[str, str]:
    from calc.currency import CURRENCIES as LISTED
    marks = {"US$": "USD", "RMB": "CNY", "rmb": "CNY", "元": "CNY", "円": "JPY"}
    for c in LISTED:
        marks[c.code] = marks[c.code.lower()] = c.code
        marks.setdefault(c.symbol, c.code)      # "¥" stays CNY (listed before JPY), "$" USD
    return marks


CURRENCIES = _currency_marks()
"""Currency marks a price may carry, before or after the amount, and their ISO 4217 code:
every code and symbol of calc.currency.CURRENCIES, plus US$, RMB, 元 and 円. "¥" is read
as CNY (the yuan); write JPY for yen."""

_MARKS = "|".join(re.escape(m) for m in sorted(CURRENCIES, key=len, reverse=True))
_CURRENCY_RE = re.compile(
    rf"^\s*(?P<pre>{_MARKS})?\s*(?P<amount>.*?)\s*(?P<post>{_MARKS})?\s*$", re.I | re.S)


def parse_price(text: Any) -> tuple[float, str | None]:
    """A price as people type it -> (amount, ISO currency code or None).

    "2.5" -> (2.5, None); "$2" -> (2.0, "USD"); "¥15" and "15 元" -> (15.0, "CNY");
    "2 USD" -> (2.0, "USD"); "€1.8k" -> (1800.0, "EUR").  The amount is read by
    :func:`parse_quantity` as a plain number (k/M suffixes, expressions); a unit such as
    "14 GB" is rejected.  Full-width "￥" is NFKC-normalised to "¥".  Raises QuantityError.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return parse_quantity(text, kind="count"), None
    if not isinstance(text, str):
        raise QuantityError(f"Expected a price such as 2.5, $2 or ¥15, got {text!r}.")
    s = unicodedata.normalize("NFKC", text).strip()
    m = _CURRENCY_RE.match(s)
    pre, amount, post = (m.group("pre"), m.group("amount"), m.group("post")) if m else (None, s, None)
    if pre and post:
        if CURRENCIES.get(pre, CURRENCIES.get(pre.upper())) != CURRENCIES.get(post, CURRENCIES.get(post.upper())):
            raise QuantityError(f'"{text}" names two currencies; write one, e.g. $2 or 2 USD.')
    mark = pre or post
    code = None if mark is None else CURRENCIES.get(mark, CURRENCIES.get(mark.upper()))
    try:
        value = parse_quantity(amount, kind="count")
    except UnitKindError as e:
        raise UnitKindError(f'Expected {_KIND_WORDS["price"]}, but "{text}" is '
                            f'{_KIND_WORDS[e.got].split(" (")[0]}.', expected="price",
                            got=e.got, text=text) from None
    except QuantityError:
        raise QuantityError(f'Could not read "{text}" as a price. Examples: 2.5, $2, ¥15, 2 USD.') from None
    if not value >= 0:
        raise QuantityError(f'A price cannot be negative: "{text}". Examples: 2.5, $2, ¥15, 2 USD.')
    return value, code


def format_money(amount: Any, currency: str | None = None) -> str:
    """An amount of money: "12,345" without a currency; with one, its symbol and ISO code
    as calc.currency.format_money writes them ("$2,500 USD", "¥15.00 CNY").

    currency: an ISO code of calc.currency.CURRENCY_CODES (parse_price returns USD, CNY,
    EUR, GBP or JPY) or None.
    """
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise ValueError(f"amount must be a number, got {amount!r}")
    x = float(amount)
    if currency:
        from calc.currency import format_money as with_code
        return with_code(x, currency)
    if math.isnan(x):
        return "—"
    if not math.isfinite(x):
        return "∞" if x > 0 else "-∞"
    if abs(x) >= 1e9:
        return f"{_exp(abs(x), 3)}" if x > 0 else f"-{_exp(abs(x), 3)}"
    if abs(x) >= 100 or x == 0:
        body = f"{abs(x):,.0f}"
    else:
        body = f"{abs(x):,.2f}".rstrip("0").rstrip(".")
    return ("-" if x < 0 else "") + body