"""What published runs reached: MFU of training at scale, decode efficiency and serving
throughput, cited.

``load_published()`` reads ``published_mfu.toml`` (the repository's small, cited table:
MosaicML's MPT benchmarks, Megatron-LM's GPT-3 scaling, Narayanan et al. 2021, the
Llama 3 report, PaLM, gpt-fast, TensorRT-LLM's throughput table) and validates every row,
naming the file, row and field of anything wrong.  Figures are stored as published
(percent) and converted to fractions 0..1 here.

The serving rows (``[[serving]]``) are only compared against (``bench/serving_predictions.py``,
``tests/calc/test_serving.py``): no efficiency of the app is read from them.

The realistic range beside a bound:

* training (:func:`mfu_range`): the lowest and highest **MFU** of the published runs
  at a similar scale — model parameters within a factor ``k_params`` (4) and GPU
  count within a factor ``k_gpus`` (8) of the plan's — on the plan's device family
  (``a100``, ``h100``, ``tpu-v4``...).  When fewer than two runs match, the window
  widens (×4 each, up to any size) on the same family first, then over every device.
  The result names the runs it used and whether it had to widen or leave the family,
  so the page can say so.  Rows that publish only an HFU (recomputation counted) are
  not mixed into an MFU range: :func:`hfu_runs` lists those at the same scale on the
  same family beside it, with the MFU their recomputation implies.
* decoding (:func:`decode_efficiency_range`): achieved bandwidth ÷ the device's
  datasheet bandwidth of the published decode runs with the same tensor-parallel
  size (else all of them): the share of the bandwidth bound that real decoders reach.

No numpy (like calc.hardware).  Sources: the ``[sources]`` table of the file.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional, Sequence

__all__ = [
    "DEFAULT_PUBLISHED_PATH",
    "PublishedFileError",
    "Source",
    "TrainingRun",
    "DecodeRun",
    "ServingRun",
    "Published",
    "MfuRange",
    "HfuRuns",
    "EfficiencyRange",
    "load_published",
    "device_family",
    "mfu_range",
    "hfu_runs",
    "implied_mfu",
    "decode_efficiency",
    "decode_efficiency_range",
]

DEFAULT_PUBLISHED_PATH = Path(__file__).resolve().parent.parent / "published_mfu.toml"


class PublishedFileError(ValueError):
    """published_mfu.toml is malformed; the message names the file, row and field."""


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    url: str
    definition: str
    short: str = ""          # a name for captions ("MosaicML llm-foundry"); "" = title


@dataclass(frozen=True)
class TrainingRun:
    """One published training run.  mfu / hfu are fractions 0..1 (None if not given)."""
    source: str
    model: str
    n_params: float
    device: str
    n_gpus: int
    mfu: Optional[float]
    hfu: Optional[float]
    seq_len: Optional[int]
    recompute: Optional[bool]
    where: str


@dataclass(frozen=True)
class DecodeRun:
    """One published decode measurement (achieved_bw in bytes/s per GPU)."""
    source: str
    model: str
    n_params: float
    device: str
    weights: str
    n_gpus: int
    batch: int
    tokens_per_s: float
    achieved_bw: float
    where: str


@dataclass(frozen=True)
class ServingRun:
    """One column of a published serving-throughput table: one model on ``n_gpus``
    tensor-parallel GPUs, its output tokens/s (the whole replica, all requests queued at
    once) at each input / output length pair (``isl[i]``, ``osl[i]``, ``tokens_per_s[i]``).
    ``model`` is a models.toml id; ``weights`` / ``kv`` are serving precisions (bf16, fp8,
    fp4); ``note`` says what the source does not print and was assumed."""
    source: str
    model: str
    device: str
    n_gpus: int
    weights: str
    kv: str
    isl: tuple[int, ...]
    osl: tuple[int, ...]
    tokens_per_s: tuple[float, ...]
    where: str
    note: str = ""


@dataclass(frozen=True)
class Published:
    sources: Mapping[str, Source]
    training: tuple[TrainingRun, ...]
    decode: tuple[DecodeRun, ...]
    serving: tuple[ServingRun, ...] = ()


@dataclass(frozen=True)
class MfuRange:
    """The MFU range of the published runs used (lo <= hi, fractions).

    ``same_family``: every run is on the plan's device family; ``widened``: the scale
    window had to grow beyond ×k_params / ×k_gpus to find two runs.
    """
    lo: float
    hi: float
    runs: tuple[TrainingRun, ...]
    same_family: bool
    widened: bool


@dataclass(frozen=True)
class HfuRuns:
    """Published runs at a scale that print only an HFU (fractions).

    ``lo`` / ``hi``: their HFU range; ``mfu_lo`` / ``mfu_hi``: the MFU it implies
    (``implied_mfu`` of each run), None when a run does not say whether it recomputed.
    """
    lo: float
    hi: float
    mfu_lo: Optional[float]
    mfu_hi: Optional[float]
    runs: tuple[TrainingRun, ...]


@dataclass(frozen=True)
class EfficiencyRange:
    """Decode efficiency (achieved ÷ datasheet bandwidth) of the runs used, fractions."""
    lo: float
    hi: float
    runs: tuple[DecodeRun, ...]
    same_gpus: bool


def _err(path: Path, where: str, problem: str) -> PublishedFileError:
    return PublishedFileError(f"{path.name}: {where}: {problem}")


def _field(path, where, row, name, kind, required=True):
    if name not in row:
        if required:
            raise _err(path, where, f"{name} is missing")
        return None
    v = row[name]
    if kind == "text":
        if not isinstance(v, str) or not v.strip():
            raise _err(path, where, f"{name} must be non-empty text, got {v!r}")
        return v
    if kind == "bool":
        if not isinstance(v, bool):
            raise _err(path, where, f"{name} must be true or false, got {v!r}")
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
        raise _err(path, where, f"{name} must be a number > 0, got {v!r}")
    if kind == "int":
        if v != int(v):
            raise _err(path, where, f"{name} must be a whole number, got {v!r}")
        return int(v)
    if kind == "pct" and v > 100:
        raise _err(path, where, f"{name} is a percentage and must be at most 100, got {v!r}")
    return float(v)


_TRAINING_KEYS = {"source", "model", "n_params", "device", "n_gpus", "mfu_pct", "hfu_pct",
                  "seq_len", "recompute", "where"}
_DECODE_KEYS = {"source", "model", "n_params", "device", "weights", "n_gpus", "batch",
                "tokens_per_s", "achieved_gbs", "where"}
_SERVING_KEYS = {"source", "model", "device", "n_gpus", "weights", "kv", "isl", "osl",
                 "tokens_per_s", "where", "note"}


def _numbers(path, where, row, name, kind) -> tuple:
    """A required non-empty list of numbers > 0 (``kind`` "int": whole numbers)."""
    if name not in row:
        raise _err(path, where, f"{name} is missing")
    vals = row[name]
    if not isinstance(vals, list) or not vals:
        raise _err(path, where, f"{name} must be a non-empty list of numbers, got {vals!r}")
    return tuple(_field(path, f"{where}.{name}[{i}]", {name: x}, name, kind) for i, x in enumerate(vals))


def _source(path, where, row, sources) -> str:
    """The row's ``source``: required, and an id of the file's [sources]."""
    src = _field(path, where, row, "source", "text")
    if src not in sources:
        raise _err(path, where, f"source {src!r} is not in [sources]")
    return src


def _rows(path, data, key, allowed):
    rows = data.get(key, [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _err(path, key, "must be an array of tables ([[" + key + "]])")
    for i, r in enumerate(rows):
        extra = sorted(set(r) - allowed)
        if extra:
            raise _err(path, f"{key}[{i}]", f"{extra[0]} is not a known field")
    return rows


def load_published(path: Optional[str | Path] = None) -> Published:
    """Read and validate published_mfu.toml (default: the repository's).

    Percentages are converted to fractions (42.57 -> 0.4257), GB/s to bytes/s (×1e9).
    Raises PublishedFileError naming the file, the row (``training[3]``) and the field
    for: unreadable or non-TOML text, unknown keys, missing or non-positive numbers,
    percentages over 100, a training row without mfu_pct or hfu_pct, an unknown source,
    a serving row whose isl / osl / tokens_per_s lists are empty or of different lengths.
    """
    p = DEFAULT_PUBLISHED_PATH if path is None else Path(path)
    try:
        data = tomllib.loads(p.read_bytes().decode("utf-8"))
    except OSError as e:
        raise _err(p, "file", f"cannot be read ({e.strerror or e})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise _err(p, "file", f"is not valid TOML ({e})") from None
    extra = sorted(set(data) - {"sources", "training", "decode", "serving"})
    if extra:
        raise _err(p, extra[0], "is not a known top-level key (sources, training, decode, serving)")
    src_raw = data.get("sources", {})
    if not isinstance(src_raw, dict) or not src_raw:
        raise _err(p, "sources", "must be a non-empty table of [sources.<id>]")
    sources = {}
    for sid, s in src_raw.items():
        where = f"sources.{sid}"
        if not isinstance(s, dict):
            raise _err(p, where, "must be a table")
        extra_keys = sorted(set(s) - {"title", "url", "definition", "short"})
        if extra_keys:
            raise _err(p, where, f"{extra_keys[0]} is not a known field")
        sources[sid] = Source(sid, _field(p, where, s, "title", "text"),
                              _field(p, where, s, "url", "text"),
                              _field(p, where, s, "definition", "text"),
                              _field(p, where, s, "short", "text", required=False) or "")
    training = []
    for i, r in enumerate(_rows(p, data, "training", _TRAINING_KEYS)):
        where = f"training[{i}]"
        src = _source(p, where, r, sources)
        mfu = _field(p, where, r, "mfu_pct", "pct", required=False)
        hfu = _field(p, where, r, "hfu_pct", "pct", required=False)
        if mfu is None and hfu is None:
            raise _err(p, where, "needs mfu_pct or hfu_pct")
        training.append(TrainingRun(
            source=src, model=_field(p, where, r, "model", "text"),
            n_params=_field(p, where, r, "n_params", "num"),
            device=_field(p, where, r, "device", "text"),
            n_gpus=_field(p, where, r, "n_gpus", "int"),
            mfu=None if mfu is None else mfu / 100.0,
            hfu=None if hfu is None else hfu / 100.0,
            seq_len=_field(p, where, r, "seq_len", "int", required=False),
            recompute=_field(p, where, r, "recompute", "bool", required=False),
            where=_field(p, where, r, "where", "text")))
    decode = []
    for i, r in enumerate(_rows(p, data, "decode", _DECODE_KEYS)):
        where = f"decode[{i}]"
        src = _source(p, where, r, sources)
        decode.append(DecodeRun(
            source=src, model=_field(p, where, r, "model", "text"),
            n_params=_field(p, where, r, "n_params", "num"),
            device=_field(p, where, r, "device", "text"),
            weights=_field(p, where, r, "weights", "text"),
            n_gpus=_field(p, where, r, "n_gpus", "int"),
            batch=_field(p, where, r, "batch", "int"),
            tokens_per_s=_field(p, where, r, "tokens_per_s", "num"),
            achieved_bw=_field(p, where, r, "achieved_gbs", "num") * 1e9,
            where=_field(p, where, r, "where", "text")))
    serving = []
    for i, r in enumerate(_rows(p, data, "serving", _SERVING_KEYS)):
        where = f"serving[{i}]"
        src = _source(p, where, r, sources)
        isl, osl = _numbers(p, where, r, "isl", "int"), _numbers(p, where, r, "osl", "int")
        tps = _numbers(p, where, r, "tokens_per_s", "num")
        if not len(isl) == len(osl) == len(tps):
            raise _err(p, where, f"isl, osl and tokens_per_s must have the same length, got "
                                 f"{len(isl)}, {len(osl)} and {len(tps)}")
        serving.append(ServingRun(
            source=src, model=_field(p, where, r, "model", "text"),
            device=_field(p, where, r, "device", "text"),
            n_gpus=_field(p, where, r, "n_gpus", "int"),
            weights=_field(p, where, r, "weights", "text"), kv=_field(p, where, r, "kv", "text"),
            isl=isl, osl=osl, tokens_per_s=tps, where=_field(p, where, r, "where", "text"),
            note=_field(p, where, r, "note", "text", required=False) or ""))
    return Published(sources, tuple(training), tuple(decode), tuple(serving))


_SAME_DIE = {"h200": "h100", "h800": "h100", "a800": "a100"}
"""Parts built on the same compute die as a published family: H200 (GH100 with more,
faster HBM), H800 and A800 (export variants with reduced NVLink)."""


def device_family(device_id: str) -> str:
    """The accelerator family a hardware id belongs to, for matching published runs.

    The id's first word (``a100-80gb-sxm`` -> ``a100``, ``h100-nvl`` -> ``h100``), with
    the same-die parts of :data:`_SAME_DIE` mapped to their family (``h200-sxm`` ->
    ``h100``), except TPUs, whose generation is the second word (``tpu-v5e``).
    """
    parts = str(device_id).split("-")
    if parts[0] == "tpu":
        return "-".join(parts[:2])
    return _SAME_DIE.get(parts[0], parts[0])


def _within(x: float, ref: float, k: float) -> bool:
    return ref / k <= x <= ref * k


def mfu_range(n_params: float, n_gpus: float, device_id: Optional[str], published: Published,
              k_params: float = 4.0, k_gpus: float = 8.0) -> Optional[MfuRange]:
    """The MFU range published runs reached at this scale (see the module docstring).

    Runs with an MFU whose parameters are within ×k_params and GPUs within ×k_gpus of
    (n_params, n_gpus), on ``device_family(device_id)``; the window grows ×4 per step
    (three steps, then unbounded) until two runs match; then the same over every
    device.  Returns None only when the table has fewer than two MFU rows.
    E.g. 7B on 64 A100s: the MosaicML A100 rows of 1.75B–28B parameters on 8–512 GPUs.
    """
    runs = [r for r in published.training if r.mfu is not None]
    family = device_family(device_id) if device_id else None
    steps = [(k_params * 4 ** i, k_gpus * 4 ** i) for i in range(3)] + [(math.inf, math.inf)]
    for same in ((True, False) if family else (False,)):
        pool = [r for r in runs if device_family(r.device) == family] if same else runs
        for level, (kp, kg) in enumerate(steps):
            hit = tuple(r for r in pool
                        if _within(r.n_params, n_params, kp) and _within(r.n_gpus, n_gpus, kg))
            if len(hit) >= 2:
                values = [r.mfu for r in hit]
                return MfuRange(min(values), max(values), hit,
                                same_family=same, widened=level > 0)
    return None


def implied_mfu(run: TrainingRun) -> Optional[float]:
    """The MFU an HFU-only run implies: its HFU ÷ (hardware FLOPs / model FLOPs).

        MFU = HFU × 6·N / (8·N)  = HFU × 3/4    recompute = true (one more forward pass)
        MFU = HFU                               recompute = false

    The ratio is ``calc.training_flops.recompute_flops_per_token``'s "full" mode (8·N + 4·A
    over 6·N + 3·A: 4/3 whatever the attention term), MosaicML's 4/3 for activation
    checkpointing and the full recomputation of Narayanan et al. 2021 and BLOOM.  (Their
    Eq. 3 runs the logits layer 3×, not 4×: V/(16·l·h) of the count, 1 % or less for
    their models, not corrected here.)  None when the run has no HFU or does not say
    whether it recomputed.
    """
    if run.hfu is None or run.recompute is None:
        return None
    if not run.recompute:
        return run.hfu
    from calc.training_flops import recompute_flops_per_token   # numpy: only when asked
    return run.hfu / recompute_flops_per_token(1.0, 0.0, "full").hardware_ratio


def hfu_runs(n_params: float, n_gpus: float, device_id: Optional[str], published: Published,
             k_params: float = 4.0, k_gpus: float = 8.0) -> Optional[HfuRuns]:
    """The runs that print only an HFU at this scale: parameters within ×k_params and GPUs
    within ×k_gpus of (n_params, n_gpus), on ``device_family(device_id)`` (the first
    window of :func:`mfu_range`, never widened: they are shown beside an MFU range, not
    instead of one).  None when there is none, or no device.
    E.g. 7B on 64 A100s: Narayanan et al.'s 3.6B, 7.5B and 18.4B (43-46 % HFU).
    """
    if not device_id:
        return None
    family = device_family(device_id)
    hit = tuple(r for r in published.training
                if r.mfu is None and r.hfu is not None and device_family(r.device) == family
                and _within(r.n_params, n_params, k_params) and _within(r.n_gpus, n_gpus, k_gpus))
    if not hit:
        return None
    hfus = [r.hfu for r in hit]
    mfus = [implied_mfu(r) for r in hit]
    known = None not in mfus
    return HfuRuns(min(hfus), max(hfus), min(mfus) if known else None,
                   max(mfus) if known else None, hit)


def decode_efficiency(run: DecodeRun, devices: Mapping[str, object]) -> Optional[float]:
    """achieved bandwidth ÷ the device's datasheet bandwidth (hardware.toml), 0..1.

    gpt-fast Llama-2-70B int8 on an A100 80GB SXM: 1322.58 / 2039 GB/s = 0.649.
    None when the device is not in ``devices``.
    """
    dev = devices.get(run.device)
    if dev is None:
        return None
    return run.achieved_bw / dev.mem_bw


def decode_efficiency_range(n_gpus: float, published: Published,
                            devices: Mapping[str, object]) -> Optional[EfficiencyRange]:
    """Range of :func:`decode_efficiency` over the published decode runs with the same
    tensor-parallel size (when at least two exist), else over all of them.

    Tensor parallelism adds communication the bound does not see, so efficiency falls
    with GPUs (gpt-fast 7B bf16: 58 % at 2 GPUs, 35 % at 8).  None without rows.
    """
    rated = [(r, decode_efficiency(r, devices)) for r in published.decode]
    rated = [(r, e) for r, e in rated if e is not None]
    same = [(r, e) for r, e in rated if r.n_gpus == n_gpus]
    use, same_gpus = (same, True) if len(same) >= 2 else (rated, False)
    if not use:
        return None
    values = [e for _, e in use]
    return EfficiencyRange(min(values), max(values), tuple(r for r, _ in use), same_gpus)
