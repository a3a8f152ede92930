"""Read a PyTorch profiler (Kineto) chrome trace into flat numpy arrays, fast and lean.

Used by :func:`calc.diagnosis.diagnose_trace`. A 100 MB trace holds ~400 000 events;
``json.loads`` builds ~10 million Python objects for them (the ``Input Dims`` lists, the
CUPTI args), which takes longer than the whole diagnosis may. So the reader scans the bytes
with two regular expressions instead:

1. an *event header* — ``"ph": "X", "cat": …, "name": …, "pid": …, "tid": …, "ts": …,
   "dur": …`` — the field order Kineto's writer uses for every complete event (2021 legacy
   and current schema; ``json.dump`` of those events keeps it);
2. a *token* stream of ``"ph"``, ``"cat"``, ``"External id"``/``"external id"``,
   ``"correlation"`` and ``"stream"`` keys in file order: each args key belongs to the
   event whose ``"ph"`` precedes it.

The two are aligned by the sequence of categories (only Kineto's own ``Trace`` span has
another field order). If they do not align — a trace written by another tool, another key
order — the file is read with ``json.loads`` instead: same arrays, slower. Both paths are
tested to agree on the fixtures.

What is kept (``ts``/``dur`` are microseconds in the file, seconds here):

* GPU activity: categories ``kernel``/``Kernel``, ``gpu_memcpy``/``Memcpy``,
  ``gpu_memset``/``Memset``: start, duration, device (``pid``), stream (``args.stream``,
  else the ``tid``, e.g. ``"stream 7"``), name, ``External id`` (``external id`` in the
  legacy schema), ``correlation``;
* CPU spans: every other complete event except Kineto's ``Trace`` span and GPU-side
  ``gpu_user_annotation``: start, duration, category, name, ``External id``,
  ``correlation``; ``ProfilerStep#N`` spans are the steps.

Kernel → operator: the operator (``cpu_op``/``Operator``) whose External id equals the
kernel's; in 2023-era traces where a kernel's External id equals its correlation, through
the runtime launch (``cudaLaunchKernel``/``hipLaunchKernel``) with that correlation and its
External id. An operator inside an ``Optimizer.step#…`` span is named after that span (its
kernels are optimizer work).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["TraceArrays", "read_trace", "GPU_CATS", "COPY_CATS"]

GPU_CATS = frozenset({"kernel", "Kernel", "gpu_memcpy", "gpu_memset", "Memcpy", "Memset"})
COPY_CATS = frozenset({"gpu_memcpy", "gpu_memset", "Memcpy", "Memset"})
_SKIP_CPU_CATS = frozenset({"Trace", "gpu_user_annotation", "ac2g", "async", "flow"})
_OP_CATS = frozenset({"cpu_op", "Operator"})
_STEP = re.compile(r"^ProfilerStep#\d+$")

_HEADER = re.compile(
    rb'"ph":\s*"X",\s*"cat":\s*"([^"]*)",\s*"name":\s*"([^"\\]*(?:\\.[^"\\]*)*)",\s*'
    rb'"pid":\s*"?([^,"]*)"?,\s*"tid":\s*"?([^,"]*)"?,\s*'
    rb'"ts":\s*([-+0-9.eE]+),\s*"dur":\s*([-+0-9.eE]+)(?:,\s*"args":\s*\{([^{}]*)\})?')
_DEVICE_NAME = re.compile(rb'"id":\s*(\d+),\s*"name":\s*"([^"]*)"')


@dataclass(frozen=True)
class TraceArrays:
    """A trace as arrays (seconds). GPU: ``gpu_*``; CPU spans: ``cpu_*``; steps: ``step_*``.
    ``*_name`` are codes into ``gpu_names`` / ``cpu_names``; ``gpu_op`` is the launching
    operator's name code into ``cpu_names`` (-1 when unknown)."""
    filename: str
    schema: str
    platform: str
    events_read: int
    gpu_start: np.ndarray
    gpu_dur: np.ndarray
    gpu_device: np.ndarray      # codes into devices
    gpu_stream: np.ndarray      # codes into streams
    gpu_name: np.ndarray
    gpu_is_copy: np.ndarray
    gpu_op: np.ndarray
    gpu_names: tuple[str, ...]
    devices: tuple[str, ...]
    streams: tuple[str, ...]
    cpu_start: np.ndarray
    cpu_dur: np.ndarray
    cpu_name: np.ndarray
    cpu_names: tuple[str, ...]
    step_start: np.ndarray
    step_dur: np.ndarray
    step_names: tuple[str, ...]
    device_names: dict
    path: str                   # "fast" | "json"


class _LazyNames:
    """Names of CPU spans by index without building an array of 200 000 strings."""

    def __init__(self, codes: np.ndarray, names: tuple[str, ...]):
        self.codes, self.names, self.size = codes, names, int(codes.size)

    def __getitem__(self, i):
        return self.names[int(self.codes[i])]


# ----------------------------------------------------------------------------- reading

def _fail(filename: str, message: str):
    raise ValueError(f"{filename}: {message}")


def _to_bytes(data, filename: str) -> bytes:
    from calc.importers import MAX_DECOMPRESSED_BYTES, MAX_INPUT_BYTES, _gunzip

    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        _fail(filename, "expected the file's bytes.")
    data = bytes(data)
    if not data.strip():
        _fail(filename, "the file is empty.")
    if len(data) > MAX_INPUT_BYTES:
        _fail(filename, f"the file is {len(data) / 2**20:,.0f} MiB; at most "
                        f"{MAX_INPUT_BYTES // 2**20} MiB can be read.")
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, filename, MAX_DECOMPRESSED_BYTES)
    if data[:4] == b"PK\x03\x04":
        _fail(filename, "this is a zip archive; unzip it and upload the trace inside.")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            _fail(filename, "the file is neither UTF-8 nor UTF-16 text.")
    return data


def read_trace(data: bytes, filename: str,
               progress: Callable[[float], None] | None = None) -> TraceArrays:
    """Bytes of a chrome trace (JSON or gzip) -> :class:`TraceArrays`. Raises ValueError."""
    filename = str(filename or "trace.json")

    def report(x: float):
        if progress is not None:
            try:
                progress(x)
            except Exception:
                pass

    raw = _to_bytes(data, filename)
    report(0.1)
    head = raw[:4096].lstrip()
    if b"\x00" in raw[:4096]:
        _fail(filename, "this is a binary file, not a profiler trace. Expected a PyTorch "
                        "profiler trace (.json or .json.gz from prof.export_chrome_trace).")
    if head[:1] not in (b"{", b"["):
        kind = "an Nsight Compute CSV" if head.startswith((b'"ID"', b"==PROF==", b'"Process ID"')) \
            else "not JSON"
        _fail(filename, f"this is {kind}, not a PyTorch profiler trace. Export one with "
                        "prof.export_chrome_trace('trace.json') (.json or .json.gz); Nsight "
                        "Compute CSVs are imported on the Roofline page.")
    tail = raw[-64:].rstrip()
    if not tail.endswith((b"}", b"]")):
        _fail(filename, "the JSON ends in the middle of the data (the file is truncated); "
                        "copy or download it again.")
    if head[:1] == b"{" and b'"traceEvents"' not in raw:
        _fail(filename, "this JSON has no \"traceEvents\": it is not a chrome trace. Export "
                        "one with prof.export_chrome_trace('trace.json').")
    fields = _fast_fields(raw)
    path = "fast"
    if fields is None:
        fields = _json_fields(raw, filename)
        path = "json"
    report(0.6)
    device_names = _device_names(raw)
    del raw
    out = _build(fields, filename, path, device_names)
    report(0.8)
    return out


def _fast_fields(raw: bytes):
    """The regex path: per complete event (cat, name, pid, tid, ts, dur, ext, corr, stream),
    or None when some complete event is not in Kineto's field order."""
    headers = _HEADER.findall(raw)
    if not headers:
        return None
    hdr = list(zip(*headers))
    del headers
    n_h = len(hdr[0])
    # every complete event must have matched, except Kineto's own Trace span (other order)
    n_x = raw.count(b'"ph": "X"')          # Kineto's spacing; other spacings: the regex
    if n_x != n_h:
        n_x = len(_X_EVENT.findall(raw))
    unmatched = n_x - n_h
    if unmatched:
        n_trace = len(_TRACE_CAT.findall(raw)) - sum(1 for c in hdr[0] if c == b"Trace")
        if unmatched < 0 or unmatched > n_trace:
            return None
    ext, corr, stream = _arg_ids(hdr[6])
    return dict(cat=list(hdr[0]), name=list(hdr[1]), pid=list(hdr[2]), tid=list(hdr[3]),
                ts=list(hdr[4]), dur=list(hdr[5]), ext=ext, corr=corr, stream=stream,
                n_events=raw.count(b'"ph":') or len(_ANY_EVENT.findall(raw)), escaped=True)


_X_EVENT = re.compile(rb'"ph":\s*"X"')
_ANY_EVENT = re.compile(rb'"ph":')
_TRACE_CAT = re.compile(rb'"cat":\s*"Trace"')
_ARG_ID = re.compile(rb'"(External id|external id|correlation|stream)":\s*"?(-?\d+)')


def _arg_ids(args_blocks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """External id (or legacy external id), correlation, stream from each args text."""
    n = len(args_blocks)
    ext = np.full(n, -1, dtype=np.int64)
    corr = np.full(n, -1, dtype=np.int64)
    stream = np.full(n, -1, dtype=np.int64)
    find = _ARG_ID.findall
    for i, a in enumerate(args_blocks):
        if a:
            for k, v in find(a):
                if k == b"correlation":
                    corr[i] = int(v)
                elif k == b"stream":
                    stream[i] = int(v)
                elif ext[i] < 0:
                    ext[i] = int(v)
    return ext, corr, stream


def _json_fields(raw: bytes, filename: str):
    """The general path: json.loads, same fields as :func:`_fast_fields`."""
    from calc.json_in import read_json
    from calc.importers import MAX_DECOMPRESSED_BYTES
    doc = read_json(raw, filename, max_bytes=MAX_DECOMPRESSED_BYTES, parse_float=str)
    if isinstance(doc, dict):
        events = doc.get("traceEvents")
        if not isinstance(events, list):
            _fail(filename, "this JSON has no \"traceEvents\" list: it is not a chrome trace.")
    elif isinstance(doc, list):
        events = doc
    else:
        _fail(filename, "this JSON is not a chrome trace (an object with \"traceEvents\").")
    cat, name, pid, tid, ts, dur, ext, corr, stream = ([] for _ in range(9))
    n = 0
    for e in events:
        if not isinstance(e, dict):
            continue
        n += 1
        if e.get("ph") != "X" or e.get("cat") == "Trace":
            continue
        try:
            t = e["ts"]                     # a str (parse_float=str: all its digits) or an int
            float(t)
            d = float(e.get("dur", 0.0))
        except (KeyError, TypeError, ValueError):
            continue
        a = e.get("args") if isinstance(e.get("args"), dict) else {}
        cat.append(str(e.get("cat", "")))
        name.append(str(e.get("name", "")))
        pid.append(str(e.get("pid", "")))
        tid.append(str(e.get("tid", "")))
        ts.append(t)
        dur.append(d)
        ext.append(_int(a.get("External id", a.get("external id"))))
        corr.append(_int(a.get("correlation")))
        stream.append(_int(a.get("stream")))
    del doc, events
    return dict(cat=cat, name=name, pid=pid, tid=tid, ts=ts, dur=dur,
                ext=np.asarray(ext, dtype=np.int64), corr=np.asarray(corr, dtype=np.int64),
                stream=np.asarray(stream, dtype=np.int64), n_events=n, escaped=False)


def _int(v) -> int:
    try:
        return int(v) if v is not None and not isinstance(v, bool) else -1
    except (TypeError, ValueError):
        return -1


def _device_names(raw: bytes) -> dict:
    i = raw.find(b'"deviceProperties"')
    if i < 0:
        return {}
    j = raw.find(b'"traceEvents"', i)
    chunk = raw[i: j if j > i else i + 100_000]
    return {m.group(1).decode(): m.group(2).decode("utf-8", "replace")
            for m in _DEVICE_NAME.finditer(chunk)}


def _text(b, escaped: bool) -> str:
    if isinstance(b, str):
        return b
    if escaped and b"\\" in b:
        try:
            return json.loads(b'"' + b + b'"')
        except ValueError:
            pass
    return b.decode("utf-8", "replace")


def _codes(values: list) -> tuple[np.ndarray, list]:
    table: dict = {}
    codes = np.fromiter((table.setdefault(v, len(table)) for v in values), dtype=np.int64,
                        count=len(values))
    return codes, list(table)


def _floats(values: list) -> np.ndarray:
    if values and isinstance(values[0], (bytes, bytearray)):
        return np.array(values).astype(np.float64)
    return np.asarray(values, dtype=np.float64)


_EXACT_TS_US = 2.0 ** 52 / 1e3
"""Above this many µs a float64 keeps less than 1 ns (its step at x is x·2⁻⁵²): absolute
epoch timestamps (~1.7e15 µs, Kineto's before relative ones) step by 0.25 µs."""


def _timestamps(values: list) -> np.ndarray:
    """Event start times   [µs, shifted by a whole number of µs].

    Timestamps too large for a float64 to keep to 1 ns (:data:`_EXACT_TS_US`) are read as
    whole µs (int64, exact) minus the smallest, plus their decimals: only differences of
    timestamps are used, so the shift changes nothing and back-to-back kernels stay
    back-to-back.  Scientific notation is read as a float as it stands."""
    ts = _floats(values)
    if ts.size == 0 or float(np.abs(ts).max()) < _EXACT_TS_US:
        return ts
    txt = np.array([x if isinstance(x, (bytes, bytearray)) else str(x).encode() for x in values])
    if (np.char.find(txt, b"e") >= 0).any() or (np.char.find(txt, b"E") >= 0).any():
        return ts
    whole, _, decimals = np.char.partition(txt, b".").T
    try:
        ip = whole.astype(np.int64)
        frac = np.char.add(b"0.", decimals).astype(np.float64)
    except (ValueError, OverflowError):    # not plain decimals (true, 1e30 as an integer, …)
        return ts
    frac = np.where(np.char.startswith(whole, b"-"), -frac, frac)
    return (ip - ip.min()).astype(np.float64) + frac


def _build(f: dict, filename: str, path: str, device_names: dict) -> TraceArrays:
    esc = f["escaped"]
    cat_code, cats = _codes(f["cat"])
    cats_txt = [_text(c, esc) for c in cats]
    n = cat_code.size
    is_gpu_cat = np.array([c in GPU_CATS for c in cats_txt], dtype=bool)
    is_copy_cat = np.array([c in COPY_CATS for c in cats_txt], dtype=bool)
    is_op_cat = np.array([c in _OP_CATS for c in cats_txt], dtype=bool)
    skip_cat = np.array([c in _SKIP_CPU_CATS for c in cats_txt], dtype=bool)
    gpu = is_gpu_cat[cat_code] if n else np.zeros(0, dtype=bool)
    if not gpu.any():
        _fail(filename, "the trace has no GPU kernels, copies or memsets (a CPU-only trace, or "
                        "recorded without ProfilerActivity.CUDA). The diagnosis reads the GPU "
                        "timeline; record with activities=[ProfilerActivity.CPU, "
                        "ProfilerActivity.CUDA].")
    ts_all = _timestamps(f["ts"])
    dur_all = _floats(f["dur"])
    if not (np.all(np.isfinite(ts_all)) and np.all(np.isfinite(dur_all))):
        _fail(filename, "some events have a non-numeric ts or dur.")
    dur_all = np.maximum(dur_all, 0.0)
    gi = np.flatnonzero(gpu)
    ci = np.flatnonzero(~gpu & ~skip_cat[cat_code])
    origin = float(ts_all[gi].min())
    name_code_all, names_raw = _codes(f["name"])
    names_txt = [_text(x, esc) for x in names_raw]

    # GPU arrays
    g_name_raw = name_code_all[gi]
    ug, g_name = np.unique(g_name_raw, return_inverse=True)
    gpu_names = tuple(names_txt[i] for i in ug.tolist())
    pid = f["pid"]
    dev_code, devs = _codes([pid[i] for i in gi.tolist()])
    devices = tuple(_text(d, esc) for d in devs)
    tid = f["tid"]
    st_arg = f["stream"][gi]
    labels = st_arg.tolist()
    for k in np.flatnonzero(st_arg < 0).tolist():      # no args.stream: the tid says it
        t = _text(tid[int(gi[k])], esc)
        labels[k] = int(t[7:]) if t.startswith("stream ") and t[7:].isdigit() else t
    s_code, s_labels = _codes(labels)
    streams = tuple(str(s) for s in s_labels)
    # CPU spans and steps
    c_name = name_code_all[ci]
    uc, c_inv = np.unique(c_name, return_inverse=True)
    cpu_names = tuple(names_txt[i] for i in uc.tolist())
    is_step_name = np.array([bool(_STEP.match(nm)) for nm in cpu_names], dtype=bool)
    c_is_step = is_step_name[c_inv] if c_inv.size else np.zeros(0, dtype=bool)
    c_start = (ts_all[ci] - origin) / 1e6
    c_dur = dur_all[ci] / 1e6
    steps_i = np.flatnonzero(c_is_step)
    step_start, step_dur = c_start[steps_i], c_dur[steps_i]
    step_names = tuple(cpu_names[int(c_inv[i])] for i in steps_i.tolist())
    keep_cpu = ~c_is_step
    # kernel -> operator (name code into cpu_names), through External id
    g_ext = f["ext"][gi]
    g_corr = f["corr"][gi]
    c_ext = f["ext"][ci]
    c_corr = f["corr"][ci]
    c_is_op = is_op_cat[cat_code[ci]]
    kern = ~is_copy_cat[cat_code[gi]]
    if kern.any() and np.mean(g_ext[kern] == g_corr[kern]) > 0.5:
        # 2023-era: External id == correlation on kernels; go through the launch
        rt = ~c_is_op & (c_corr >= 0) & (c_ext >= 0)
        g_ext = _lookup(c_corr[rt], c_ext[rt], g_corr)
    op_sel = np.flatnonzero(c_is_op & (c_ext >= 0))
    op_row = _lookup(c_ext[op_sel], op_sel, g_ext)         # index into CPU spans, or -1
    gpu_op = np.full(gi.size, -1, dtype=np.int64)
    linked = op_row >= 0
    gpu_op[linked] = c_inv[op_row[linked]]
    # operators inside an Optimizer.step span: named after the span
    opt_names = [i for i, nm in enumerate(cpu_names) if nm.startswith("Optimizer.step")]
    if opt_names and linked.any():
        opt = np.flatnonzero(np.isin(c_inv, opt_names))
        order = np.argsort(c_start[opt])
        o_s, o_e, o_n = c_start[opt][order], (c_start + c_dur)[opt][order], c_inv[opt][order]
        t = c_start[op_row[linked]]
        j = np.searchsorted(o_s, t, side="right") - 1
        inside = (j >= 0) & (t <= o_e[np.maximum(j, 0)])
        li = np.flatnonzero(linked)
        gpu_op[li[inside]] = o_n[j[inside]]
    schema = "legacy" if ("Kernel" in cats_txt or "Operator" in cats_txt) else "kineto"
    # ROCm: HIP runtime calls (hipLaunchKernel, hipExtModuleLaunchKernel …) or an AMD GPU
    platform = "rocm" if (any(nm.startswith("hip") for nm in cpu_names)
                          or any("AMD" in v or "gfx" in v for v in device_names.values())) \
        else "cuda"
    return TraceArrays(
        filename=filename, schema=schema, platform=platform, events_read=int(f["n_events"]),
        gpu_start=(ts_all[gi] - origin) / 1e6, gpu_dur=dur_all[gi] / 1e6,
        gpu_device=dev_code, gpu_stream=s_code, gpu_name=g_name.reshape(-1),
        gpu_is_copy=is_copy_cat[cat_code[gi]], gpu_op=gpu_op, gpu_names=gpu_names,
        devices=devices, streams=streams,
        cpu_start=c_start[keep_cpu], cpu_dur=c_dur[keep_cpu],
        cpu_name=c_inv.reshape(-1)[keep_cpu], cpu_names=cpu_names,
        step_start=step_start, step_dur=step_dur, step_names=step_names,
        device_names=device_names, path=path)


def _lookup(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """values[k] for the first k with keys[k] == q, per query; -1 where none (vectorized)."""
    out = np.full(queries.size, -1, dtype=np.int64)
    if keys.size == 0 or queries.size == 0:
        return out
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    j = np.searchsorted(sk, queries, side="left")
    jc = np.minimum(j, sk.size - 1)
    hit = (j < sk.size) & (sk[jc] == queries) & (queries >= 0)
    out[hit] = np.asarray(values)[order[jc[hit]]]
    return out
