"""Scenario files (a whole roofline page as versioned JSON) and share-link tokens.

Scenario document, version 1 (keys in this order; :func:`dump_scenario` writes exactly
this, indented, UTF-8)::

    {
      "format": "roofline-lab.scenario",
      "version": 1,
      "device": "h100-sxm",               # hardware id from hardware.toml, or "custom"
      "precision": "bf16",                # fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4
      "custom": {"peak_flops": 9.894e14, "mem_bw": 3.35e12} | null,   # required if device == "custom"
      "compare": [{"device": "a100-80gb-sxm", "precision": "bf16"}, ...],  # at most 3
      "ceilings": {"l2_bw": 1.2e13 | null, "l1_bw": null},               # bytes/s, user-entered
      "extra_roofs": ["fp8", ...],        # more precisions drawn as roofs
      "kernels": [{"name": "gemm", "flops": 1.1e12 | null, "bytes": 4.2e9,
                   "seconds": 0.003 | null, "count": 1, "source": "table",
                   "level_bytes": {"dram": 4.2e9, "l2": 9e9}   # optional
                  }, ...]
    }

All numbers are SI base units (FLOP, bytes, seconds, FLOP/s, bytes/s); kernel numbers are
totals over ``count`` calls. Floats are written with ``repr`` so dump -> load is exact.
Unknown top-level keys are ignored (forward compatibility); a different ``format`` or
``version`` is refused. :func:`load_scenario` validates everything first and either returns
a whole new :class:`Scenario` or raises :class:`ScenarioError` naming the field path
(``kernels[3].bytes must be a number > 0, got "abc"``): nothing is half-applied.

Share links carry only the kernel table: :func:`encode_kernels` (compact JSON -> zlib
level 9 -> base64url without padding, prefixed with the version character "1").
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import zlib
from dataclasses import dataclass, field
from typing import Collection, Iterable

from calc.kernel_table import MAX_NAME_CHARS, MAX_ROWS, KernelRecord

__all__ = [
    "FORMAT",
    "VERSION",
    "PRECISIONS",
    "MAX_SCENARIO_BYTES",
    "MAX_KERNELS",
    "MAX_COMPARE",
    "MAX_URL_TOKEN_CHARS",
    "ScenarioError",
    "CustomDevice",
    "CompareDevice",
    "Ceilings",
    "Scenario",
    "dump_scenario",
    "load_scenario",
    "scenario_to_dict",
    "encode_kernels",
    "decode_kernels",
    "fits_in_url",
    "pack_token",
    "unpack_token",
]

FORMAT = "roofline-lab.scenario"
VERSION = 1
PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")
#: Largest scenario file accepted (bytes).
MAX_SCENARIO_BYTES = 25 * 1024 * 1024
#: Most kernels in a scenario or link.
MAX_KERNELS = MAX_ROWS
#: Most comparison devices.
MAX_COMPARE = 3
#: Longest share-link token. Browsers accept far longer URLs, but chat apps, e-mail clients,
#: link shorteners and some proxies cut or refuse URLs beyond about 2,000 characters; with
#: the page address and the other query parameters (~200 characters) a token of at most
#: 1,800 characters keeps the whole URL under ~2 KB. Longer tables travel as a scenario file.
MAX_URL_TOKEN_CHARS = 1800
#: Most bytes a link token may decompress to (zip-bomb guard).
MAX_TOKEN_JSON_BYTES = 4 * 1024 * 1024
TOKEN_VERSION = "1"
_MAX_TEXT = 200
_MAX_LEVELS = 8


class ScenarioError(ValueError):
    """A scenario file or link token is not valid; the message names the field path."""


@dataclass(frozen=True)
class CustomDevice:
    """A user-entered device: ``peak_flops`` (FLOP/s) and ``mem_bw`` (bytes/s), both > 0."""

    peak_flops: float
    mem_bw: float


@dataclass(frozen=True)
class CompareDevice:
    """A device drawn for comparison: hardware id and precision."""

    device: str
    precision: str


@dataclass(frozen=True)
class Ceilings:
    """User-entered cache bandwidth ceilings (bytes/s) or None (datasheets rarely give them)."""

    l2_bw: float | None = None
    l1_bw: float | None = None


@dataclass(frozen=True)
class Scenario:
    """The whole roofline page: device, precision, custom device, comparisons, ceilings,
    extra precision roofs and the kernel table (see the module docstring for the JSON)."""

    device: str = "h100-sxm"
    precision: str = "bf16"
    custom: CustomDevice | None = None
    compare: tuple[CompareDevice, ...] = ()
    ceilings: Ceilings = field(default_factory=Ceilings)
    extra_roofs: tuple[str, ...] = ()
    kernels: tuple[KernelRecord, ...] = ()


# ----------------------------------------------------------------------------- dumping

def _kernel_to_dict(k: KernelRecord) -> dict:
    d = {
        "name": k.name,
        "flops": None if k.flops is None else float(k.flops),
        "bytes": float(k.bytes_moved),
        "seconds": None if k.seconds is None else float(k.seconds),
        "count": int(k.count),
        "source": k.source,
    }
    if k.precision:
        d["precision"] = k.precision
    if k.level_bytes:
        d["level_bytes"] = {str(lv): float(b) for lv, b in k.level_bytes}
    return d


def scenario_to_dict(s: Scenario) -> dict:
    """The scenario as the JSON-ready dict of format version 1 (stable key order)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "device": s.device,
        "precision": s.precision,
        "custom": None if s.custom is None else {
            "peak_flops": float(s.custom.peak_flops), "mem_bw": float(s.custom.mem_bw)},
        "compare": [{"device": c.device, "precision": c.precision} for c in s.compare],
        "ceilings": {
            "l2_bw": None if s.ceilings.l2_bw is None else float(s.ceilings.l2_bw),
            "l1_bw": None if s.ceilings.l1_bw is None else float(s.ceilings.l1_bw),
        },
        "extra_roofs": list(s.extra_roofs),
        "kernels": [_kernel_to_dict(k) for k in s.kernels],
    }


def dump_scenario(s: Scenario) -> str:
    """The scenario as JSON text (version 1, stable key order, indent 1 for kernels' sake).

    Floats are written by ``json`` with ``repr`` (shortest exact text), so
    ``load_scenario(dump_scenario(s)) == s``. NaN/inf are refused (ScenarioError).
    """
    try:
        return json.dumps(scenario_to_dict(s), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as exc:
        raise ScenarioError(f"The scenario holds a value JSON cannot store ({exc}).") from None


# ----------------------------------------------------------------------------- loading

def _q(v: object) -> str:
    try:
        s = json.dumps(v, allow_nan=True)
    except (TypeError, ValueError):
        s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _req(d: dict, key: str, path: str):
    if key not in d:
        raise ScenarioError(f"{path}{key} is missing")
    return d[key]


def _num(v: object, path: str, *, allow_none: bool = False, allow_zero: bool = False) -> float | None:
    if v is None and allow_none:
        return None
    if allow_zero and not isinstance(v, bool) and isinstance(v, (int, float)) and v == 0:
        return 0.0          # a zero-FLOP kernel (copy, fill)
    low = ">= 0" if allow_zero else "> 0"
    extra = " or null" if allow_none else ""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ScenarioError(f"{path} must be a number {low}{extra}, got {_q(v)}")
    try:
        x = float(v)
    except OverflowError:
        raise ScenarioError(f"{path} is too large, got {_q(v)}") from None
    if not math.isfinite(x) or x <= 0:
        raise ScenarioError(f"{path} must be a finite number {low}{extra}, got {_q(v)}")
    return x


def _text(v: object, path: str, max_len: int = _MAX_TEXT, allow_empty: bool = False) -> str:
    if not isinstance(v, str):
        raise ScenarioError(f"{path} must be text, got {_q(v)}")
    if not allow_empty and not v.strip():
        raise ScenarioError(f"{path} must not be empty")
    if len(v) > max_len:
        raise ScenarioError(f"{path} is longer than {max_len} characters")
    return v


def _precision(v: object, path: str) -> str:
    p = _text(v, path)
    if p not in PRECISIONS:
        raise ScenarioError(f"{path} must be one of {', '.join(PRECISIONS)}, got {_q(v)}")
    return p


def _device(v: object, path: str, known: Collection[str] | None, allow_custom: bool) -> str:
    d = _text(v, path)
    if d == "custom" and allow_custom:
        return d
    if known is not None and d not in known:
        raise ScenarioError(f"{path}: unknown device id {_q(v)} (not in hardware.toml)")
    return d


def _kernel(v: object, path: str) -> KernelRecord:
    if not isinstance(v, dict):
        raise ScenarioError(f"{path} must be an object, got {_q(v)}")
    # names are labels: any text up to MAX_NAME_CHARS, even empty (KernelRecord allows it)
    name = _text(_req(v, "name", path + "."), path + ".name", MAX_NAME_CHARS, allow_empty=True)
    flops = _num(_req(v, "flops", path + "."), path + ".flops", allow_none=True, allow_zero=True)
    bytes_moved = _num(_req(v, "bytes", path + "."), path + ".bytes")
    seconds = _num(v.get("seconds"), path + ".seconds", allow_none=True)
    count = v.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, (int, float)) or not (
        isinstance(count, int) or (math.isfinite(count) and count == int(count))
    ) or not 1 <= count <= 10**15:
        raise ScenarioError(f"{path}.count must be a whole number >= 1, got {_q(count)}")
    source = v.get("source", "")
    if source is None:
        source = ""
    source = _text(source, path + ".source", MAX_NAME_CHARS, allow_empty=True)
    levels: tuple = ()
    lb = v.get("level_bytes")
    if lb is not None:
        if not isinstance(lb, dict) or len(lb) > _MAX_LEVELS:
            raise ScenarioError(f"{path}.level_bytes must be an object {{level: bytes}} with at most {_MAX_LEVELS} levels")
        levels = tuple(
            (_text(lv, f"{path}.level_bytes key", 20), _num(b, f"{path}.level_bytes.{lv}"))
            for lv, b in lb.items()
        )
    precision = v.get("precision") or ""
    if precision not in ("", "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4"):
        raise ScenarioError(f"{path}.precision must be a precision such as fp32 or bf16, got {_q(precision)}")
    return KernelRecord(name, flops, bytes_moved, seconds, int(count), source, levels, precision)


def _reject_constant(name: str):
    raise ScenarioError(f"the file contains {name}, which is not a number JSON allows")


def _parse_json(text_or_bytes: str | bytes, what: str) -> object:
    """The one JSON reader (calc.json_in.read_json): size, encoding, depth, NaN."""
    from calc.json_in import read_json
    return read_json(text_or_bytes, what, max_bytes=MAX_SCENARIO_BYTES, error=ScenarioError)


def scenario_from_dict(doc: object, known_devices: Collection[str] | None = None) -> Scenario:
    """Validate a parsed JSON document and build a :class:`Scenario` (see :func:`load_scenario`)."""
    if not isinstance(doc, dict):
        raise ScenarioError(f"A scenario file must be a JSON object, got {type(doc).__name__}.")
    fmt = doc.get("format")
    if fmt != FORMAT:
        raise ScenarioError(f'format must be "{FORMAT}", got {_q(fmt)} (is this a Roofline Lab scenario file?)')
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ScenarioError(f"version must be a whole number, got {_q(version)}")
    if version != VERSION:
        newer = " (written by a newer Roofline Lab?)" if version > VERSION else ""
        raise ScenarioError(f"version {version} is not supported; this app reads version {VERSION}{newer}")
    known = set(known_devices) if known_devices is not None else None
    device = _device(_req(doc, "device", ""), "device", known, allow_custom=True)
    precision = _precision(_req(doc, "precision", ""), "precision")
    custom_v = doc.get("custom")
    custom = None
    if custom_v is not None:
        if not isinstance(custom_v, dict):
            raise ScenarioError(f"custom must be an object or null, got {_q(custom_v)}")
        custom = CustomDevice(
            _num(_req(custom_v, "peak_flops", "custom."), "custom.peak_flops"),
            _num(_req(custom_v, "mem_bw", "custom."), "custom.mem_bw"),
        )
    if device == "custom" and custom is None:
        raise ScenarioError('custom must give peak_flops and mem_bw when device is "custom"')
    compare_v = doc.get("compare", [])
    if compare_v is None:
        compare_v = []
    if not isinstance(compare_v, list):
        raise ScenarioError(f"compare must be a list, got {_q(compare_v)}")
    if len(compare_v) > MAX_COMPARE:
        raise ScenarioError(f"compare has {len(compare_v)} devices; at most {MAX_COMPARE}")
    compare = []
    for i, c in enumerate(compare_v):
        p = f"compare[{i}]"
        if not isinstance(c, dict):
            raise ScenarioError(f"{p} must be an object, got {_q(c)}")
        compare.append(CompareDevice(
            _device(_req(c, "device", p + "."), p + ".device", known, allow_custom=False),
            _precision(_req(c, "precision", p + "."), p + ".precision"),
        ))
    ceil_v = doc.get("ceilings", {})
    if ceil_v is None:
        ceil_v = {}
    if not isinstance(ceil_v, dict):
        raise ScenarioError(f"ceilings must be an object, got {_q(ceil_v)}")
    ceilings = Ceilings(
        _num(ceil_v.get("l2_bw"), "ceilings.l2_bw", allow_none=True),
        _num(ceil_v.get("l1_bw"), "ceilings.l1_bw", allow_none=True),
    )
    roofs_v = doc.get("extra_roofs", [])
    if roofs_v is None:
        roofs_v = []
    if not isinstance(roofs_v, list) or len(roofs_v) > len(PRECISIONS):
        raise ScenarioError(f"extra_roofs must be a list of at most {len(PRECISIONS)} precisions")
    roofs = tuple(_precision(r, f"extra_roofs[{i}]") for i, r in enumerate(roofs_v))
    kernels_v = _req(doc, "kernels", "")
    if not isinstance(kernels_v, list):
        raise ScenarioError(f"kernels must be a list, got {_q(kernels_v)}")
    if len(kernels_v) > MAX_KERNELS:
        raise ScenarioError(f"kernels has {len(kernels_v):,} entries; at most {MAX_KERNELS:,}")
    kernels = tuple(_kernel(k, f"kernels[{i}]") for i, k in enumerate(kernels_v))
    return Scenario(device, precision, custom, tuple(compare), ceilings, roofs, kernels)


def load_scenario(text_or_bytes: str | bytes, known_devices: Collection[str] | None = None) -> Scenario:
    """Read and validate a scenario file (JSON text or bytes, at most 25 MB).

    ``known_devices``: the hardware ids the app knows; when given, an unknown ``device`` or
    ``compare[i].device`` is an error ("custom" is allowed for ``device``).
    Raises :class:`ScenarioError` for: not JSON, NaN/Infinity, nesting too deep, another
    format or version, a missing field, a wrong type, a number <= 0 or not finite, an
    unknown device or precision, more than 3 comparisons or too many kernels.
    """
    return scenario_from_dict(_parse_json(text_or_bytes, "scenario file"), known_devices)


# ----------------------------------------------------------------------------- share links

def _kernel_to_list(k: KernelRecord) -> list:
    row = [k.name, k.flops, k.bytes_moved, k.seconds, k.count]
    if k.level_bytes or k.precision:
        row.append({lv: b for lv, b in k.level_bytes})
    if k.precision:
        row.append(k.precision)
    return row


def pack_token(obj: object) -> str:
    """A JSON-able object as a share-link token: "1" + base64url(zlib9(compact JSON)), no
    padding.  Floats are written as repr (exact).  The inverse is :func:`unpack_token`.
    Used for the kernel table (``k``) and the plan table (``plans``)."""
    raw = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    comp = zlib.compress(raw, 9)
    return TOKEN_VERSION + base64.urlsafe_b64encode(comp).decode("ascii").rstrip("=")


def unpack_token(token: str, what: str = "kernel table") -> object:
    """The JSON value inside a :func:`pack_token` token.

    Raises :class:`ScenarioError` ("The link's <what> ...") for an unknown version
    character, bad base64, corrupt zlib data, more than :data:`MAX_TOKEN_JSON_BYTES`
    after decompression (zip bomb), or bad JSON (NaN/Infinity included).
    """
    if not isinstance(token, str):
        raise ScenarioError(f"The link's {what} must be text.")
    token = token.strip()
    if not token:
        raise ScenarioError(f"The link's {what} is empty.")
    if len(token) > 4 * MAX_TOKEN_JSON_BYTES:
        raise ScenarioError(f"The link's {what} is too long.")
    if token[0] != TOKEN_VERSION:
        raise ScenarioError(f"The link's {what} has an unknown version ({token[0]!r}); the link may be from a newer app.")
    body = token[1:]
    try:
        comp = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise ScenarioError(f"The link's {what} is damaged (not base64url); copy the whole link again.") from None
    d = zlib.decompressobj()
    try:
        raw = d.decompress(comp, MAX_TOKEN_JSON_BYTES)
        if d.unconsumed_tail or (not d.eof and d.decompress(b"", 1)):
            raise ScenarioError(f"The link's {what} expands to more than "
                                f"{MAX_TOKEN_JSON_BYTES // 2**20} MB; refused.")
    except zlib.error:
        raise ScenarioError(f"The link's {what} is damaged (bad compressed data); copy the whole link again.") from None
    if not d.eof:
        raise ScenarioError(f"The link's {what} is cut short; copy the whole link again.")
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except ScenarioError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ScenarioError(f"The link's {what} is not valid JSON.") from None


def encode_kernels(kernels: Iterable[KernelRecord]) -> str:
    """Encode a kernel table for a share link (:func:`pack_token` of a list of
    ``[name, flops|null, bytes, seconds|null, count(, {level: bytes})]``; floats as repr:
    exact). ``source`` is not carried; decoded records get source "link".
    """
    return pack_token([_kernel_to_list(k) for k in kernels])


def fits_in_url(kernels: Iterable[KernelRecord]) -> bool:
    """True when :func:`encode_kernels` gives at most :data:`MAX_URL_TOKEN_CHARS` characters."""
    return len(encode_kernels(kernels)) <= MAX_URL_TOKEN_CHARS


def decode_kernels(token: str, max_kernels: int = MAX_KERNELS) -> list[KernelRecord]:
    """Decode a share-link token from :func:`encode_kernels` (inverse; source = "link").

    Raises :class:`ScenarioError` for everything :func:`unpack_token` refuses, wrong
    types or invalid numbers, and more than ``max_kernels`` kernels.
    """
    rows = unpack_token(token, "kernel table")
    if not isinstance(rows, list):
        raise ScenarioError("The link's kernel table must be a list.")
    if len(rows) > max_kernels:
        raise ScenarioError(f"The link holds {len(rows):,} kernels; at most {max_kernels:,}.")
    out = []
    for i, r in enumerate(rows):
        p = f"kernels[{i}]"
        if not isinstance(r, list) or len(r) not in (5, 6, 7):
            raise ScenarioError(f"{p} must be [name, flops, bytes, seconds, count], got {_q(r)}")
        d_ = {"name": r[0], "flops": r[1], "bytes": r[2], "seconds": r[3], "count": r[4],
              "source": "link"}
        if len(r) >= 6 and r[5]:
            d_["level_bytes"] = r[5]
        if len(r) == 7:
            d_["precision"] = r[6]
        out.append(_kernel(d_, p))
    return out
