"""Accelerator data: ``load_hardware()`` reads ``hardware.toml`` (no numpy here).

The file uses datasheet units (TFLOP/s, GB/s, GB or GiB, MB, W); this module
converts them to SI base units (FLOP/s, bytes/s, bytes, W) and validates every
entry.  The file's header documents the format and how to add a device.
Every peak is DENSE (not the 2:4-sparse headline).  Sources: per device, in the
file's ``source`` field (vendor datasheets, cloud docs, whitepapers).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional

from ._toml import locate_toml_error
from .notes import NotesInLanguages, in_language

__all__ = [
    "PRECISIONS",
    "FLOAT_PRECISIONS",
    "rate_unit",
    "SPARSE_PRECISIONS",
    "SPARSE_HEADLINE_FACTOR",
    "SPARSE_MATCH",
    "DEFAULT_HARDWARE_PATH",
    "Accelerator",
    "HardwareFileError",
    "UnknownPrecisionError",
    "load_hardware",
    "custom_accelerator",
    "device_for_name",
    "DEVICE_KINDS",
]

PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")
"""Precision names, in the order peaks are kept (int8 is integer ops/s)."""

FLOAT_PRECISIONS = tuple(p for p in PRECISIONS if p != "int8")


def rate_unit(precision: str, per: str = "/s") -> str:
    """The unit of a peak of ``precision``: "OP/s" for integer math (INT8 counts operations,
    not floating-point ones: NVIDIA's datasheets give "INT8 Tensor Core 624 TOPS"), else
    "FLOP/s"; ``per="/B"`` gives the intensity's, "OP/B" or "FLOP/B".  The number is the
    same; only the label changes."""
    return ("OP" if precision == "int8" else "FLOP") + per

SPARSE_HEADLINE_FACTOR = 2.0
"""A 2:4-sparse headline over the dense peak: two of every four weights are zero and
skipped, so the vendor counts twice the dense rate (NVIDIA A100 whitepaper, "Fine-grained
structured sparsity")."""

SPARSE_MATCH = 0.02
"""A figure within 2 % of a sparse headline is taken to be that headline
(``Accelerator.is_sparse_headline``; datasheets round: H100 SXM BF16 1,979 = 2 × 989.4)."""

SPARSE_PRECISIONS = ("tf32", "bf16", "fp16", "fp8", "int8", "fp4")
"""Tensor precisions that can have a 2:4-sparse headline (twice the dense peak).

FP64 and FP32 never do: 2:4 structured sparsity is a tensor-core (matrix-engine)
mode for these formats only.  Source: NVIDIA A100 whitepaper ("Fine-grained structured
sparsity", TF32/BF16/FP16/INT8), H100 and Blackwell datasheets (adds FP8/FP4); AMD
MI300 series datasheets ("with structured sparsity" for TF32/FP16/BF16/FP8/INT8)."""

DEFAULT_HARDWARE_PATH = Path(__file__).resolve().parent.parent / "hardware.toml"
"""The repository's hardware.toml, found relative to this package (not the working directory)."""

_GIB = 2.0**30
_MIB = 2.0**20
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_REQUIRED = ("name", "vendor", "year", "mem_bw_gbs", "sparse_headline", "source", "peak_tflops")
_OPTIONAL = ("name_zh", "notes", "notes_zh", "l2_mb", "interconnect_gbs", "tdp_w", "memory_gb", "memory_gib", "memory_binary",
             "kind")
#: What a device is (optional field ``kind``): measured figures are compared only with a
#: device of the same kind (a CPU's 0.7 TFLOP/s ÷ a GPU's 312 TFLOP/s says nothing).
#: Default "accelerator" (GPUs, TPUs, ...); ids "measured-cpu-*" default to "cpu".
DEVICE_KINDS = ("accelerator", "cpu")
# The training cluster's network (calc.parallel): all three numbers and their source, or none.
_NETWORK = ("scale_up_gpus", "scale_up_gbs", "scale_out_gbs", "network_source")
# Optional beside them: the source in Chinese (shown on the Chinese pages).
_NETWORK_OPTIONAL = ("network_source_zh",)
_TRAINING = ("matmul_fraction",)
# Written by `python -m measure` (measure/device.py) for a measured machine.
_MEASURED = ("measured", "date", "host", "cache_bw_gbs", "versions")
_CACHE_LEVEL = re.compile(r"^l[1-9]$")


class HardwareFileError(ValueError):
    """hardware.toml is malformed; the message names the file, the device id and the field."""


class UnknownPrecisionError(KeyError, ValueError):
    """A device has no peak for the requested precision (a KeyError and a ValueError)."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Accelerator(NotesInLanguages):
    """One accelerator, in SI base units.

    memory_bytes (bytes), mem_bw (bytes/s), peaks: precision -> dense peak (FLOP/s,
    int8 in ops/s), ordered as PRECISIONS (treat as read-only), sparse_headline: the
    vendor headlines a 2:4-sparse figure for at least one precision, sparse_precisions:
    exactly those precisions (a subset of SPARSE_PRECISIONS; their headline is twice
    ``peaks``), l2_bytes (bytes), interconnect_bytes_per_s (bytes/s, both directions),
    tdp_w (W), scale_up_gpus (GPUs per NVLink / xGMI / ICI domain), scale_up_bw and
    scale_out_bw (bytes/s per GPU per direction inside a domain / to the network between
    domains) and network_source (their source; all None / "" when the file gives none;
    network_source_zh its Chinese translation, "" = none), matmul_fraction (measured best-GEMM share of the BF16 peak, 0..1, or None),
    memory_binary: the datasheet's capacity figure is binary (GiB, 2**30 bytes,
    as DRAM and HBM are built: an "80 GB" A100 holds 80 GiB = 85.9e9 bytes), already
    applied to memory_bytes.  memory_bytes is None only for :func:`custom_accelerator`
    devices without one.
    """

    id: str
    name: str
    vendor: str
    year: int
    memory_bytes: Optional[float]
    mem_bw: float
    peaks: Mapping[str, float] = field(hash=False)
    sparse_headline: bool
    source: str
    l2_bytes: Optional[float] = None
    interconnect_bytes_per_s: Optional[float] = None
    tdp_w: Optional[float] = None
    notes: str = ""
    notes_zh: str = ""                 # the notes in Chinese; "" = none (notes_for falls back)
    name_zh: str = ""                  # the name in Chinese; "" = none (name_for falls back)
    measured: bool = False
    date: str = ""
    host: str = ""
    cache_bw: Mapping[str, float] = field(default_factory=dict, hash=False)
    versions: Mapping[str, str] = field(default_factory=dict, hash=False)
    sparse_precisions: tuple[str, ...] = ()
    memory_binary: bool = True
    scale_up_gpus: Optional[int] = None
    scale_up_bw: Optional[float] = None
    scale_out_bw: Optional[float] = None
    network_source: str = ""
    network_source_zh: str = ""        # the network's source in Chinese; "" = none
    matmul_fraction: Optional[float] = None
    kind: str = "accelerator"          # one of DEVICE_KINDS

    def name_for(self, lang: str) -> str:
        """The name in ``lang``: ``name_zh`` for "zh" when the file gives one, else ``name``
        (the rule of calc.notes.in_language; the textbook A100 has one, datasheet names do not
        need one)."""
        return in_language(self.name, self.name_zh, lang)

    def network_source_for(self, lang: str) -> str:
        """The network's source in ``lang`` (the rule of calc.notes.in_language)."""
        return in_language(self.network_source, self.network_source_zh, lang)

    def sparse_headline_flops(self, precision: Optional[str] = None) -> Optional[float]:
        """The vendor's 2:4-sparse headline at ``precision`` = 2 × dense peak (FLOP/s), or None.

        None when the vendor publishes no sparse figure for that precision (FP64, FP32 and
        every precision of a device without 2:4 sparsity): A100 bf16 -> 624e12, A100 fp32
        -> None (the datasheet's 19.5 TFLOP/s is the only FP32 figure).
        """
        if precision is None:
            precision = self.default_precision
        if precision not in self.sparse_precisions:
            return None
        return SPARSE_HEADLINE_FACTOR * self.peak_flops(precision)

    def is_sparse_headline(self, flops: float, precision: Optional[str] = None) -> bool:
        """Whether ``flops`` (FLOP/s) is this device's 2:4-sparse headline at ``precision``,
        within :data:`SPARSE_MATCH` (a typed "624T" on an A100 BF16: True; 400T: False)."""
        sparse = self.sparse_headline_flops(precision)
        return sparse is not None and abs(float(flops) / sparse - 1.0) <= SPARSE_MATCH

    @property
    def precisions(self) -> tuple[str, ...]:
        """Precisions this device has a peak for, in PRECISIONS order."""
        return tuple(self.peaks)

    @property
    def default_precision(self) -> str:
        """"bf16" when present, else "fp16", else the fastest float precision, else the first.

        A measured device starts at its fastest float precision (a CPU's numpy float16
        runs outside the BLAS, far below its float32).
        """
        for p in () if self.measured else ("bf16", "fp16"):
            if p in self.peaks:
                return p
        floats = [p for p in self.peaks if p in FLOAT_PRECISIONS]
        if floats:
            return max(floats, key=lambda p: self.peaks[p])
        return next(iter(self.peaks))

    def peak_flops(self, precision: Optional[str] = None) -> float:
        """Dense peak (FLOP/s; ops/s for int8) at ``precision`` (default: default_precision).

        Raises UnknownPrecisionError (KeyError and ValueError) listing the device's precisions.
        """
        if precision is None:
            precision = self.default_precision
        if not isinstance(precision, str) or precision not in self.peaks:
            raise UnknownPrecisionError(
                f"{self.name} ({self.id}) has no {precision!r} peak; available: {', '.join(self.peaks)}"
            )
        return self.peaks[precision]

    def ridge_point(self, precision: Optional[str] = None) -> float:
        """peak_flops(precision) / mem_bw   [FLOP/byte]."""
        return self.peak_flops(precision) / self.mem_bw


def _err(path: Path, device: Optional[str], fieldname: Optional[str], problem: str) -> HardwareFileError:
    where = str(path)
    if device is not None:
        where += f": device '{device}'"
    if fieldname is not None:
        where += f": field '{fieldname}'"
    return HardwareFileError(f"{where}: {problem}")


def _num(path, dev, name, value, *, positive=True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _err(path, dev, name, f"must be a number, got {type(value).__name__} {value!r}")
    x = float(value)
    if not math.isfinite(x) or (positive and x <= 0):
        raise _err(path, dev, name, f"must be a finite number > 0, got {value!r}")
    return x


def _dec(x: float, exp10: int) -> float:
    """x * 10**exp10 rounded once (66.9 TFLOP/s -> exactly 66.9e12, not 66.90000000000001e12).

    Also for x whose repr has an exponent (6.585e-05 TFLOP/s, a measured numpy float16).
    """
    mantissa, _, exp = repr(x).partition("e")
    return float(f"{mantissa}e{int(exp or 0) + exp10}")


def _str(path, dev, name, value, *, allow_empty=False) -> str:
    if not isinstance(value, str):
        raise _err(path, dev, name, f"must be a string, got {type(value).__name__} {value!r}")
    if not allow_empty and not value.strip():
        raise _err(path, dev, name, "must not be empty")
    return value


def _sparse(path: Path, dev_id: str, value: Any, peaks: Mapping[str, float]) -> tuple[str, ...]:
    """sparse_headline: false, or the list of precisions with a 2:4-sparse headline.

    ``true`` (the older form) means every tensor precision of the device (its peaks in
    SPARSE_PRECISIONS) -- never FP64 or FP32.
    """
    if isinstance(value, bool):
        return tuple(p for p in SPARSE_PRECISIONS if p in peaks) if value else ()
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise _err(path, dev_id, "sparse_headline",
                   f"must be false or a list of precisions such as [\"bf16\", \"fp8\"], got {value!r}")
    for p in value:
        if p not in SPARSE_PRECISIONS:
            raise _err(path, dev_id, "sparse_headline",
                       f"{p!r} has no 2:4-sparse figure (only {', '.join(SPARSE_PRECISIONS)} can)")
        if p not in peaks:
            raise _err(path, dev_id, "sparse_headline", f"{p!r} is not in peak_tflops")
    if len(set(value)) != len(value):
        raise _err(path, dev_id, "sparse_headline", f"lists a precision twice: {value!r}")
    return tuple(p for p in PRECISIONS if p in value)


def _device(path: Path, dev_id: str, d: Any) -> Accelerator:
    if not _ID.match(dev_id):
        raise _err(path, dev_id, "id", "must be kebab-case: lowercase letters, digits and single dashes (e.g. h100-sxm)")
    if not isinstance(d, dict):
        raise _err(path, dev_id, None, f"must be a table [devices.{dev_id}], got {type(d).__name__}")
    for f in _REQUIRED:
        if f not in d:
            raise _err(path, dev_id, f, "is missing")
    known = _REQUIRED + _OPTIONAL + _NETWORK + _NETWORK_OPTIONAL + _TRAINING + _MEASURED
    unknown = [k for k in d if k not in known]
    if unknown:
        raise _err(path, dev_id, unknown[0], f"is not a known field (known: {', '.join(known)})")
    if ("memory_gb" in d) == ("memory_gib" in d):
        raise _err(path, dev_id, "memory_gb", "give exactly one of memory_gb (GB) or memory_gib (GiB)")
    binary = d.get("memory_binary", True)
    if not isinstance(binary, bool):
        raise _err(path, dev_id, "memory_binary", f"must be true or false, got {binary!r}")
    if "memory_gib" in d:
        if not binary:
            raise _err(path, dev_id, "memory_binary", "memory_gib is binary by definition; "
                       "use memory_gb with memory_binary = false for a decimal figure")
        memory = _num(path, dev_id, "memory_gib", d["memory_gib"]) * _GIB
    elif binary:
        memory = _num(path, dev_id, "memory_gb", d["memory_gb"]) * _GIB
    else:
        memory = _dec(_num(path, dev_id, "memory_gb", d["memory_gb"]), 9)
    year = d["year"]
    if isinstance(year, bool) or not isinstance(year, int) or not 1950 <= year <= 2100:
        raise _err(path, dev_id, "year", f"must be an integer year, got {year!r}")
    table = d["peak_tflops"]
    if not isinstance(table, dict):
        raise _err(path, dev_id, "peak_tflops", f"must be a table of precision = TFLOP/s, got {type(table).__name__}")
    if not table:
        raise _err(path, dev_id, "peak_tflops", "needs at least one precision")
    for p in table:
        if p not in PRECISIONS:
            raise _err(path, dev_id, f"peak_tflops.{p}", f"unknown precision (allowed: {', '.join(PRECISIONS)})")
    peaks = {p: _dec(_num(path, dev_id, f"peak_tflops.{p}", table[p]), 12) for p in PRECISIONS if p in table}
    sparse = _sparse(path, dev_id, d["sparse_headline"], peaks)
    opt = {}
    opt["l2_mb"] = _num(path, dev_id, "l2_mb", d["l2_mb"]) * _MIB if "l2_mb" in d else None
    opt["interconnect_gbs"] = (_dec(_num(path, dev_id, "interconnect_gbs", d["interconnect_gbs"]), 9)
                               if "interconnect_gbs" in d else None)
    opt["tdp_w"] = _num(path, dev_id, "tdp_w", d["tdp_w"]) if "tdp_w" in d else None
    return Accelerator(
        id=dev_id,
        name=_str(path, dev_id, "name", d["name"]),
        vendor=_str(path, dev_id, "vendor", d["vendor"]),
        year=year,
        memory_bytes=memory,
        mem_bw=_dec(_num(path, dev_id, "mem_bw_gbs", d["mem_bw_gbs"]), 9),
        peaks=peaks,
        sparse_headline=bool(sparse),
        sparse_precisions=sparse,
        memory_binary=binary,
        source=_str(path, dev_id, "source", d["source"]),
        l2_bytes=opt["l2_mb"],
        interconnect_bytes_per_s=opt["interconnect_gbs"],
        tdp_w=opt["tdp_w"],
        notes=_str(path, dev_id, "notes", d.get("notes", ""), allow_empty=True),
        notes_zh=_str(path, dev_id, "notes_zh", d.get("notes_zh", ""), allow_empty=True),
        name_zh=_str(path, dev_id, "name_zh", d.get("name_zh", ""), allow_empty=True),
        kind=_kind(path, dev_id, d),
        matmul_fraction=_fraction(path, dev_id, "matmul_fraction", d.get("matmul_fraction")),
        **_network_fields(path, dev_id, d),
        **_measured_fields(path, dev_id, d),
    )


def _kind(path: Path, dev_id: str, d: dict) -> str:
    kind = d.get("kind", "cpu" if dev_id.startswith("measured-cpu-") else "accelerator")
    if kind not in DEVICE_KINDS:
        raise _err(path, dev_id, "kind", f"must be one of {', '.join(DEVICE_KINDS)}, got {kind!r}")
    return kind


def _fraction(path: Path, dev_id: str, name: str, value: Any) -> Optional[float]:
    if value is None:
        return None
    x = _num(path, dev_id, name, value)
    if x > 1:
        raise _err(path, dev_id, name, f"must be a share of the peak in (0, 1], got {value!r}")
    return x


def _network_fields(path: Path, dev_id: str, d: dict) -> dict[str, Any]:
    """scale_up_gpus (whole number), scale_up_gbs and scale_out_gbs (GB/s per GPU per
    direction -> bytes/s) and network_source: all four, or none of them; network_source_zh
    (optional) only beside them."""
    given = [f for f in _NETWORK if f in d]
    if not given:
        if "network_source_zh" in d:
            raise _err(path, dev_id, "network_source_zh", "is given without a network (it "
                       f"translates network_source; a network needs {', '.join(_NETWORK)})")
        return {}
    for f in _NETWORK:
        if f not in d:
            raise _err(path, dev_id, f, f"is missing: a network needs {', '.join(_NETWORK)} "
                       f"(given: {', '.join(given)})")
    n = d["scale_up_gpus"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise _err(path, dev_id, "scale_up_gpus", f"must be a whole number of GPUs ≥ 1, got {n!r}")
    return {"scale_up_gpus": n,
            "scale_up_bw": _dec(_num(path, dev_id, "scale_up_gbs", d["scale_up_gbs"]), 9),
            "scale_out_bw": _dec(_num(path, dev_id, "scale_out_gbs", d["scale_out_gbs"]), 9),
            "network_source": _str(path, dev_id, "network_source", d["network_source"]),
            "network_source_zh": _str(path, dev_id, "network_source_zh",
                                      d.get("network_source_zh", ""), allow_empty=True)}


def _measured_fields(path: Path, dev_id: str, d: dict) -> dict[str, Any]:
    """measured (bool), date and host (strings, required when measured = true),
    cache_bw_gbs {l1 = GB/s, ...} -> cache_bw (bytes/s), versions {library = "x.y"}."""
    out: dict[str, Any] = {}
    measured = d.get("measured", False)
    if not isinstance(measured, bool):
        raise _err(path, dev_id, "measured", f"must be true or false, got {measured!r}")
    out["measured"] = measured
    for f in ("date", "host"):
        if measured and f not in d:
            raise _err(path, dev_id, f, "is missing (a measured device says when and where)")
        value = d.get(f, "")
        out[f] = value.isoformat() if hasattr(value, "isoformat") else _str(path, dev_id, f, value, allow_empty=not measured)
    for f, unit in (("cache_bw_gbs", "GB/s"), ("versions", "version string")):
        table = d.get(f, {})
        if not isinstance(table, dict):
            raise _err(path, dev_id, f, f"must be a table of name = {unit}, got {type(table).__name__}")
        if f == "cache_bw_gbs":
            bad = [k for k in table if not _CACHE_LEVEL.match(k)]
            if bad:
                raise _err(path, dev_id, f"{f}.{bad[0]}", "unknown cache level (allowed: l1 … l9)")
            out["cache_bw"] = {k: _dec(_num(path, dev_id, f"{f}.{k}", table[k]), 9) for k in sorted(table)}
        else:
            out["versions"] = {k: _str(path, dev_id, f"{f}.{k}", v) for k, v in table.items()}
    return out


_HEADER = re.compile(r"^\s*\[+\s*devices\.([A-Za-z0-9_\-\"']+)")


def _toml_error(path: Path, text: str, msg: str) -> HardwareFileError:
    """Turn a tomllib error into one naming the file, the device and the field where possible."""
    dup, device, fieldname, problem = locate_toml_error(text, msg, "devices", _HEADER)
    if dup is not None:
        return _err(path, dup, "id", f"duplicate device id: [devices.{dup}] appears twice ({msg})")
    return _err(path, device, fieldname, f"{problem}: {msg}")


def load_hardware(path: Optional[str | Path] = None) -> dict[str, Accelerator]:
    """Read and validate a hardware file: {device id: Accelerator}, in file order.

    path defaults to DEFAULT_HARDWARE_PATH (the repository's hardware.toml, located
    relative to this package).  Units converted on load: TFLOP/s x 1e12 -> FLOP/s,
    GB/s x 1e9 -> bytes/s, memory_gb x 2**30 -> bytes when memory_binary (the
    default: DRAM/HBM capacities are binary) else x 1e9, memory_gib x 2**30,
    MB x 2**20 -> bytes.
    Raises HardwareFileError (a ValueError) naming the file, device id and field for:
    unreadable or non-TOML files, duplicate ids, missing or unknown fields, wrong
    types, non-positive numbers, unknown precision keys.  Pure: safe to cache.
    """
    p = DEFAULT_HARDWARE_PATH if path is None else Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise _err(p, None, None, f"cannot be read ({e.strerror or e})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise _err(p, None, None, f"is not UTF-8 text ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(p, raw.decode("utf-8"), str(e)) from None
    devices = data.get("devices")
    if devices is None:
        raise _err(p, None, "devices", "is missing: expected [devices.<id>] tables")
    if not isinstance(devices, dict):
        raise _err(p, None, "devices", f"must be a table of devices, got {type(devices).__name__}")
    if not devices:
        raise _err(p, None, "devices", "is empty")
    extra = [k for k in data if k != "devices"]
    if extra:
        raise _err(p, None, extra[0], "is not a known top-level key (only [devices.<id>] tables)")
    return {dev_id: _device(p, dev_id, d) for dev_id, d in devices.items()}


def custom_accelerator(peak_flops: float, mem_bw: float, precision: str = "bf16", *,
                       memory_bytes: Optional[float] = None, name: str = "Custom") -> Accelerator:
    """An Accelerator for the UI's "Custom…" device: one peak (FLOP/s) and a bandwidth (bytes/s).

    id "custom", vendor "", year 0, source "user input"; memory_bytes optional (bytes).
    """
    from . import _validate as v

    pk = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if not isinstance(pk, float) or not isinstance(bw, float):
        raise ValueError("peak_flops and mem_bw must be single numbers")
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    mem = None if memory_bytes is None else v.number("memory_bytes", memory_bytes, "positive", "bytes")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    return Accelerator(
        id="custom", name=name, vendor="", year=0, memory_bytes=mem, mem_bw=bw,
        peaks={precision: pk}, sparse_headline=False, source="user input",
    )


_FAMILY = re.compile(r"\b(gb[23]00|[bh][1-3]00|h800|h20|a[1-8]00|a10|a30|a40|l40s|l40|l20|l4|t4|v100|"
                     r"rtx[ -]?pro[ -]?\d{4}|rtx[ -]?\d{4}|mi\d{3}x?|tpu[ -]?v\d+[a-z]?|gaudi[ -]?\d|"
                     r"trainium\d?|ascend[ -]?\d{3}[a-z]?)\b")


def _norm(text: str) -> str:
    return re.sub(r"[_/]+", " ", text.lower()).replace("-", " ")


def device_for_name(name: str, devices: Mapping[str, Accelerator]) -> Optional[str]:
    """The id of the device in ``devices`` that a profiler's GPU name denotes, or None.

    "Tesla V100-DGXS-32GB" -> "v100-sxm2-32gb"; "NVIDIA A100-SXM4-80GB" -> "a100-80gb-sxm"
    (same family; then the memory size and the form factor SXM/PCIe/NVL break ties; file
    order after that).  None when no device of that family is known.
    """
    if not isinstance(name, str) or not name.strip():
        return None
    text = _norm(name)
    m = _FAMILY.search(text.replace("geforce ", ""))
    if not m:
        return None
    family = m.group(1).replace(" ", "").replace("-", "")
    mem = re.search(r"(\d+)\s*gb", text)
    form = next((f for f in ("sxm", "pcie", "nvl") if f in text), None)
    best, best_score = None, -1
    for dev_id, dev in devices.items():
        dn = _norm(dev.name + " " + dev_id)
        fams = {x.replace(" ", "").replace("-", "") for x in _FAMILY.findall(dn.replace("geforce ", ""))}
        if family not in fams:
            continue
        score = 0
        if mem and re.search(rf"\b{mem.group(1)}\s*gb", dn):
            score += 2
        if form and form in dn:
            score += 1
        if "textbook" in dev_id:
            score -= 3
        if score > best_score:
            best, best_score = dev_id, score
    return best
