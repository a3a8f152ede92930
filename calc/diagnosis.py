"""Trace doctor: the seed chapter's reading of a PyTorch profiler trace, in numbers.

The seed (04 · Roofline 与 MFU, "读 trace 的三个信号" and "MFU 低了怎么查（按顺序）") teaches
three signals to look for in a profiler trace and an ordered checklist:

==============================  ==================================================
you see (signal)                it means
==============================  ==================================================
gaps in the GPU timeline        the GPU waits for the CPU or the data → step ①/②
many tiny kernels packed        no fusion, launch overhead dominates (chapter 7)
a large share of NCCL kernels   communication-bound → step ③ (topology, parallelism)
==============================  ==================================================

checklist: ① is the GPU running? ② can the data pipeline keep up? ③ how much is
communication? ④ how much is non-matmul work? ⑤ are the Tensor Cores used? ⑥ is
activation checkpointing too aggressive?

Two entry points (both return a :class:`TraceDiagnosis`; SI units, fractions 0..1):

* :func:`diagnose_trace` ``(data: bytes, filename: str) -> TraceDiagnosis`` reads a whole
  Kineto chrome trace (``prof.export_chrome_trace``: ``.json`` or ``.json.gz``; the 2021
  legacy schema with ``Kernel``/``Operator`` categories and the recent one with
  ``kernel``/``cpu_op``; CUDA and ROCm). No shapes are needed. Anything else raises
  ``ValueError`` naming the file and what is wrong.
  :func:`diagnose_parsed` ``(trace, *, small_kernel_threshold_seconds, device=None)`` does
  the same for a trace already read by :func:`calc.trace_events.read_trace` (the reader
  imports nothing from this module: the import runs one way).
* :func:`diagnose_activity` — the lower-level function, a stable contract (other pages call
  it on small synthetic timelines)::

      diagnose_activity(start, duration, stream, name, *,
                        small_kernel_threshold_seconds=10e-6, steps=None,
                        cpu_spans=None, op_names=None, max_gaps=10) -> TraceDiagnosis

  ``start``, ``duration``: seconds (any common origin), one entry per GPU activity;
  ``stream``: stream ids (ints or strings); ``name``: kernel names (``"ncclKernel_…"``,
  ``"ampere_sgemm_…"``, ``"Memcpy HtoD …"``) or class names from :data:`CLASSES`
  (``"matmul"``, ``"communication"``, ``"memory"`` …). An activity is a memory copy/set,
  not a kernel, when its name starts with ``Memcpy``/``Memset`` (Kineto's names) or is the
  class name ``"memory"``; everything else is a kernel. ``steps``: optional
  ``(start_s, duration_s)`` or ``(start_s, duration_s, names)`` of training steps;
  ``cpu_spans``: optional ``(start_s, duration_s, names)`` of CPU ops/annotations (to say
  what the CPU was doing during each gap); ``op_names``: optional launching-operator name
  per activity (``""`` when unknown), used where the kernel name says nothing.

  Example (hand-checkable): a 100 µs GEMM, a 50 µs gap, a 100 µs GEMM::

      d = diagnose_activity([0, 150e-6], [100e-6, 100e-6], [7, 7], ["matmul", "matmul"])
      d.window_seconds == 250e-6; d.busy_fraction == 0.8; d.verdicts[0].key ==
      "diagnosis.verdict.idle" (20 % idle ≥ 10 %)

Definitions (all times from the GPU activity intervals [ts, ts + dur])
--------------------------------------------------------------------
* window: when the trace has steps (``ProfilerStep#N``), the union of the steps — the
  time the program ran, so a step in which the GPU waited (for the CPU, for compilation,
  for data) counts as idle; without steps, last end − first start of any GPU activity
  (kernels, copies, memsets). ``window_from_steps`` says which;
  ``activity_window_seconds`` is always first start → last end (the timeline's x range).
  busy = length of the union of all activity intervals inside the window;
  ``busy_fraction`` = busy / window; idle gaps = the holes in that union inside the
  window, the largest first (holes under 1 ns,
  :data:`GAP_TOLERANCE_SECONDS`, are rounding and count as busy). What the CPU was doing in a gap:
  of the CPU spans (ops, annotations, runtime calls; not ``ProfilerStep#``) the one that
  overlaps the gap longest (the innermost, i.e. shortest, on ties).
* kernels per ms = kernel count / window in ms (``nan`` below :data:`MIN_KERNELS_TO_JUDGE`
  kernels: a rate from a handful of events says nothing); small kernels: duration <
  ``small_kernel_threshold_seconds`` (default 10 µs, about the CPU cost of launching one:
  below it the launch, not the math, sets the pace); count share = small / all kernels,
  time share = small kernels' time / all kernel time.
* ``comm_share`` = communication kernel time / all kernel time (copies and memsets are not
  kernels); ``comm_overlap_fraction`` = Σ over communication kernels of the time during which
  a compute (non-communication) kernel ran (on another stream: one stream runs one kernel at
  a time) / Σ communication time; ``exposed_comm_seconds`` = |union(comm) − union(compute)|:
  communication time with no compute running beside it.
* ``class_shares``: time of each class in :data:`CLASSES` / total activity time (sum of
  durations, copies included). A kernel's class comes from its name (cuBLAS/cutlass/xmma/
  nvjet/Tensile ``Cijk``/cuDNN/MIOpen → matmul/conv; flash/fmha → attention; nccl/rccl →
  communication; ``Memcpy``/``Memset``/copy/fill kernels → memory …, see :func:`kernel_class`);
  where the name says nothing (``other``) or the launching operator is an optimizer step,
  the operator's name decides. ``non_matmul_share`` = 1 − (matmul + attention time) /
  (total time − communication time): the share of the GPU time outside communication not
  spent in matrix multiplication (step ④); judged from :data:`MIN_KERNELS_TO_JUDGE` kernels.
* steps (``ProfilerStep#N``): step time = the span's duration (the time between two
  ``prof.step()`` calls); GPU busy = union of activity within the span.
* MFU per step: :func:`step_mfu` (6·N·tokens per step / step time, through
  :func:`calc.mfu.mfu`); HFU adds the recomputed forward pass (2·N per token with full
  activation recomputation; Korthikanti et al. 2022, "Reducing Activation Recomputation in
  Large Transformer Models", §6 and PaLM App. B).

Verdicts (ordered as the checklist; ``Verdict.key`` is a translation key, ``params`` the
numbers it quotes; parameter names ending in ``_fraction``/``_share`` are fractions, in
``_seconds`` seconds, in ``_count`` counts, ``_per_ms`` per millisecond, others text)
----------------------------------------------------------------------------------------
* ``idle`` / ``idle_data`` (signal 1, steps ①②): idle ≥ :data:`IDLE_FIRES` (10 %; the
  seed: utilisation "长期低于 90% = 没喂饱"); ``idle_data`` when the CPU is in the data
  loader during the largest gap.
* ``comm`` / ``comm_hidden`` (signal 3, step ③): ``comm_share`` ≥ :data:`COMM_FIRES`
  (20 %); ``comm_hidden`` (informational) when ≥ :data:`COMM_HIDDEN_OVERLAP` (80 %) of it
  overlaps compute.
* ``non_matmul`` (step ④): ``non_matmul_share`` ≥ :data:`NON_MATMUL_FIRES` (30 %: with a
  third of the GPU time outside matrix units, MFU stays under 0.7 × the matmul kernels' own
  efficiency, i.e. below the seed's 45–55 % "good" band for typical 60–75 %).
* ``small_kernels`` (signal 2, fusion): small-kernel count share ≥ :data:`SMALL_COUNT_FIRES`
  (50 %) and their time share ≥ :data:`SMALL_TIME_FIRES` (10 %: below that, fusing them
  would save little GPU time).
* ``no_tensor_core`` (step ⑤): ≥ :data:`SIMT_FIRES` (20 %) of matmul time in FP32/FP64 SIMT
  GEMM kernels (``sgemm``/``dgemm`` names without a Tensor-Core marker).
* ``too_few_kernels`` (informational, in place of ``small_kernels``): the small-kernel signal
  would fire but the trace has fewer than :data:`MIN_KERNELS_TO_JUDGE` (20) kernels: one
  kernel of 1.76 µs is not "568 kernels per ms" nor "100 % of launches small".
* ``clear``: none of the above fires.
"""
from __future__ import annotations

import dataclasses
import gzip
import json
import math
import re
import zlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from . import mfu as M
from .trace_events import TraceArrays, _LazyNames, read_trace

__all__ = [
    "CLASSES",
    "SMALL_KERNEL_SECONDS",
    "IDLE_FIRES",
    "COMM_FIRES",
    "COMM_HIDDEN_OVERLAP",
    "NON_MATMUL_FIRES",
    "SMALL_COUNT_FIRES",
    "SMALL_TIME_FIRES",
    "SIMT_FIRES",
    "MAX_TRACE_BYTES",
    "MIN_KERNELS_TO_JUDGE",
    "GAP_TOLERANCE_SECONDS",
    "IdleGap",
    "StepStat",
    "StreamStat",
    "KernelStat",
    "Verdict",
    "GpuActivity",
    "TraceDiagnosis",
    "StepMfu",
    "kernel_class",
    "op_class",
    "diagnose_activity",
    "diagnose_trace",
    "diagnose_parsed",
    "step_mfu",
    "roofline_coverage",
]

#: GPU time classes, in display order.
CLASSES = ("matmul", "attention", "norm", "elementwise", "reduction", "communication",
           "memory", "optimizer", "other")
_CI = {c: i for i, c in enumerate(CLASSES)}
MATMUL, ATTENTION, NORM, ELEMENTWISE, REDUCTION, COMM, MEMORY, OPTIMIZER, OTHER = range(9)

SMALL_KERNEL_SECONDS = 10e-6
IDLE_FIRES = 0.10
COMM_FIRES = 0.20
COMM_HIDDEN_OVERLAP = 0.80
NON_MATMUL_FIRES = 0.30
SMALL_COUNT_FIRES = 0.50
SMALL_TIME_FIRES = 0.10
SIMT_FIRES = 0.20
#: Fewer kernels than this and the count/time shares and the launch rate are not judged
#: (a share of 1 of 1, or a rate extrapolated from one 2 µs kernel, is noise): a training
#: step launches hundreds to thousands of kernels; 20 is far below any real step.
MIN_KERNELS_TO_JUDGE = 20
#: The idle verdict names the CPU span of the largest gap (and calls it the data loader)
#: only when that span covers at least this share of the gap: a span that touches 0.0004 %
#: of it says nothing about what the CPU did meanwhile.
GAP_CPU_MIN_COVER = 0.5
#: Holes in the GPU timeline shorter than this are rounding, not gaps: Kineto writes times in
#: µs with ns decimals, and back-to-back kernels (start = previous end) can differ by 1e-18 s
#: after the conversion to seconds.
GAP_TOLERANCE_SECONDS = 1e-9
#: Largest trace accepted by diagnose_trace (bytes after gunzip).
MAX_TRACE_BYTES = 1024 * 1024 * 1024

# ----------------------------------------------------------------------------- classes

_KERNEL_RULES: tuple[tuple[int, re.Pattern], ...] = tuple((c, re.compile(p)) for c, p in (
    (COMM, r"nccl|rccl|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|sendrecv|c10d"),
    (MEMORY, r"^mem(cpy|set)|^\[?memcpy|^\[?memset"),
    (ELEMENTWISE, r"^triton_poi_"),
    (REDUCTION, r"^triton_(red|per)_"),
    (ATTENTION, r"flash|fmha|attention|_attn|attn_|sdpa|xformers|mha_|_mha"),
    (MATMUL, r"^triton_tem_fused_.*(mm|conv)"),
    (NORM, r"layer_?norm|rms_?norm|batch_?norm|group_?norm|instance_?norm|bn_fw|bn_bw|"
           r"welford|cuapplylayernorm|cuapplyrmsnorm|cucomputegradinput|cucomputepartgrad|"
           r"cucomputegradgammabeta"),
    (MATMUL, r"gemm|gemv|cublas|cutlass|xmma|wgmma|hmma|tensorop|nvjet|matmul|conv|cudnn|"
             r"winograd|fprop|dgrad|wgrad|cijk_|miopen|cask_|splitkreduce|"
             r"(^|[^a-z])(ampere|volta|turing|hopper|sm\d\d)_|[hsi]\d{3,5}gemm"),
    (OPTIMIZER, r"adam|(?<![a-z])sgd|lamb(?!da)|adagrad|rmsprop|multi_tensor_apply|fused_optim|"
                r"(?<![a-z])lion"),
    (MEMORY, r"memcpy|memset|copy_kernel|direct_copy|catarraybatchedcopy|fillfunctor|"
             r"fill_kernel|zero_kernel"),
    (REDUCTION, r"softmax|reduce|reduction|sum_kernel|mean_kernel|arg_?max|arg_?min|"
                r"cross_?entropy|nll_loss|logsumexp|topk|sort|scan|cumsum|cub::|norm_kernel|"
                r"radix|bitonic"),
    (ELEMENTWISE, r"elementwise|vectorized|unrolled|pointwise|relu|gelu|silu|swish|sigmoid|"
                  r"tanh|dropout|activation|add_kernel|mul_kernel|div_kernel|bias|where|clamp|"
                  r"index|gather|scatter|embedding|pow_|exp_|triton_"),
))

_OP_RULES: tuple[tuple[int, re.Pattern], ...] = tuple((c, re.compile(p)) for c, p in (
    (OPTIMIZER, r"optimizer\.|optim|adam|(?<![a-z])sgd|lamb(?!da)|adagrad|rmsprop|_foreach_|"
                r"zero_grad"),
    (COMM, r"nccl|c10d|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|broadcast_|"
           r"record_param_comms"),
    (ATTENTION, r"scaled_dot_product|flash|attention|efficient_attention"),
    (NORM, r"norm"),
    (MATMUL, r"aten::(mm|addmm|_addmm_activation|bmm|baddbmm|matmul|linear|mv|addmv|dot|"
             r"_scaled_mm|_int_mm|conv|_conv|cudnn_conv|miopen_conv|mkldnn_conv|"
             r"convolution)"),
    (REDUCTION, r"aten::(_?log_?softmax|_?softmax|sum|mean|amax|amin|max|min|prod|argmax|"
                r"argmin|var|std|nll_loss|cross_entropy|cumsum|topk|sort|any|all)"),
    (MEMORY, r"aten::(copy_|_to_copy|to|clone|contiguous|cat|fill_|zero_|zeros|ones|full|"
             r"empty|index_select|index|gather|scatter|embedding|stack|_local_scalar_dense)"),
    (ELEMENTWISE, r"aten::"),
))

_SIMT_GEMM = re.compile(r"(^|[^a-z0-9])(sgemm|dgemm)|_sgemm|_dgemm|gemmsn|gemv2t|gemv2n"
                        # cuDNN's FP32/FP64 convolutions: volta_scudnn_* / dcudnn_* (h: half),
                        # and its engines templated on float or double (dgrad_engine<float, …>,
                        # wgrad_alg0_engine<float, …>, winograd_nonfused::…<float, float>)
                        r"|(^|_)[sd]cudnn_|cudnn::.*<(float|double)[,>]")
_TENSOR_MARK = re.compile(r"tensorop|xmma|hmma|wgmma|1688|16816|884|tf32|bf16|f16|h\d{3,5}|"
                          r"i8816|nvjet|s16816")


def _is_simt(name: str) -> bool:
    """A matmul kernel's name says FP32/FP64 SIMT (no Tensor Core): an sgemm/dgemm or a
    cuDNN single/double convolution, with no Tensor Core marker (tensorop, xmma, 16816, …)."""
    low = name.lower()
    return bool(_SIMT_GEMM.search(low)) and not _TENSOR_MARK.search(low)


_DATA_LOADER = re.compile(r"dataloader|data_loader|__next__|collate|_next_data|fetch",
                          re.IGNORECASE)


def kernel_class(name: str) -> str:
    """The class (one of :data:`CLASSES`) a GPU activity's name says, or "other".

    A class name itself (``"matmul"``) maps to itself. Rules (first match wins, on the
    lower-cased name): communication (nccl/rccl/collective names) > memory copy/set
    (``Memcpy``/``Memset`` activities) > Inductor (``triton_poi_`` elementwise,
    ``triton_red_``/``triton_per_`` reduction) > attention (flash/fmha) > normalisation >
    matmul/conv (cuBLAS, cutlass, xmma, nvjet, Tensile ``Cijk_``, cuDNN, MIOpen, arch
    prefixes like ``ampere_``/``sm90_``) > optimizer (adam, multi_tensor_apply) > copy/fill
    kernels > reduction/softmax > elementwise/activation.
    """
    return CLASSES[_name_class(name)]


def _name_class(name: str) -> int:
    if name in _CI:
        return _CI[name]
    low = name.lower()
    for cls, rx in _KERNEL_RULES:
        if rx.search(low):
            return cls
    return OTHER


def op_class(name: str) -> str:
    """The class an operator or annotation name suggests (``aten::layer_norm`` → "norm",
    ``Optimizer.step#AdamW.step`` → "optimizer"), or "other"."""
    return CLASSES[_op_class(name)]


def _op_class(name: str) -> int:
    if not name:
        return OTHER
    low = name.lower()
    for cls, rx in _OP_RULES:
        if rx.search(low):
            return cls
    return OTHER


def _combined_class(kernel_name: str, op_name: str) -> int:
    c = _name_class(kernel_name)
    if c in (COMM, MATMUL, ATTENTION, NORM, OPTIMIZER) or (c == MEMORY and _is_copy(kernel_name)):
        return c
    oc = _op_class(op_name)
    if oc == OPTIMIZER:
        return OPTIMIZER
    if c != OTHER:
        return c
    return oc


def _is_copy(name: str) -> bool:
    """A memory copy/set activity (not a kernel): Kineto's Memcpy/Memset names or "memory"."""
    return name == "memory" or name.startswith(("Memcpy", "Memset", "memcpy", "memset",
                                                "[memcpy]", "[memset]"))


# ----------------------------------------------------------------------------- results

@dataclass(frozen=True)
class IdleGap:
    """A hole in the GPU timeline: ``start_seconds`` from the window start, its length, and
    the CPU span that overlaps it most (``cpu_name``, "" if none was recorded) with the
    fraction of the gap it covers.  ``window_share``: length_seconds / the trace window's
    length (0..1; 0 when the window is empty)."""
    start_seconds: float
    length_seconds: float
    cpu_name: str = ""
    cpu_overlap_fraction: float = 0.0
    window_share: float = 0.0


@dataclass(frozen=True)
class StepStat:
    """One ``ProfilerStep#N``: start (from the window start), step time, GPU busy time."""
    name: str
    start_seconds: float
    seconds: float
    gpu_busy_seconds: float

    @property
    def busy_fraction(self) -> float:
        return self.gpu_busy_seconds / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class StreamStat:
    """Per stream: kernel count and time, copy/set time, communication time (seconds)."""
    stream: str
    kernel_count: int
    kernel_seconds: float
    memory_seconds: float
    comm_seconds: float


@dataclass(frozen=True)
class KernelStat:
    """One kernel name: class, launches, total and mean time, share of all activity time."""
    name: str
    cls: str
    count: int
    seconds: float
    share: float

    @property
    def mean_seconds(self) -> float:
        return self.seconds / self.count if self.count else 0.0


@dataclass(frozen=True)
class Verdict:
    """A signal or checklist step that fires: ``key`` is a translation key
    (``diagnosis.verdict.<id>``), ``step`` the checklist step ("①".."⑥") or "",
    ``severity`` "warn" / "info" / "ok", ``params`` the numbers the sentence quotes."""
    id: str
    step: str
    severity: str
    params: Mapping[str, Any]

    @property
    def key(self) -> str:
        return f"diagnosis.verdict.{self.id}"


@dataclass(frozen=True)
class GpuActivity:
    """The activity arrays (for the timeline and histogram): start (seconds from the window
    start), duration (s), stream index into ``streams``, class index into
    :data:`CLASSES`, name index into ``names``, and ``is_kernel`` (False: copy/set)."""
    start: np.ndarray
    duration: np.ndarray
    stream: np.ndarray
    cls: np.ndarray
    name: np.ndarray
    is_kernel: np.ndarray
    streams: tuple[str, ...]
    names: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.start.size)


@dataclass(frozen=True)
class TraceDiagnosis:
    """What :func:`diagnose_activity` / :func:`diagnose_trace` find (SI units, 0..1)."""
    window_seconds: float
    busy_seconds: float
    busy_fraction: float
    idle_gaps: tuple[IdleGap, ...]
    kernel_count: int
    small_kernel_threshold_seconds: float
    small_kernel_count: int
    small_kernel_count_share: float
    small_kernel_time_share: float
    kernels_per_ms: float
    kernel_seconds: float
    activity_seconds: float
    comm_seconds: float
    comm_share: float
    comm_overlap_fraction: float
    exposed_comm_seconds: float
    class_seconds: Mapping[str, float]
    class_shares: Mapping[str, float]
    non_matmul_share: float
    simt_matmul_share: float
    steps: tuple[StepStat, ...]
    mean_step_seconds: float | None
    streams: tuple[StreamStat, ...]
    top_kernels: tuple[KernelStat, ...]
    verdicts: tuple[Verdict, ...]
    activity: GpuActivity
    origin_seconds: float = 0.0
    window_from_steps: bool = False
    activity_window_seconds: float = 0.0
    # filled by diagnose_trace
    filename: str = ""
    schema: str = ""            # "kineto" | "legacy" | "" (arrays)
    platform: str = ""          # "cuda" | "rocm" | ""
    device: str = ""            # the GPU diagnosed ("0"), when the trace has several
    devices: tuple[str, ...] = ()
    device_name: str = ""
    events_read: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def idle_fraction(self) -> float:
        return 1.0 - self.busy_fraction if self.window_seconds > 0 else 0.0

    @property
    def covered_seconds(self) -> float:
        """GPU time the diagnosis covers: every kernel, copy and memset (sum of durations)."""
        return self.activity_seconds


# ----------------------------------------------------------------------------- intervals

def _union(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Disjoint sorted segments covering the union of [starts, ends) (vectorized)."""
    if starts.size == 0:
        return np.zeros(0), np.zeros(0)
    order = np.argsort(starts, kind="stable")
    s = starts[order]
    cm = np.maximum.accumulate(ends[order])
    new = np.empty(s.size, dtype=bool)
    new[0] = True
    new[1:] = s[1:] > cm[:-1] + GAP_TOLERANCE_SECONDS
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, s.size - 1)
    return s[first], cm[last]


def _covered_before(seg_s: np.ndarray, seg_e: np.ndarray, t: np.ndarray) -> np.ndarray:
    """F(t) = length of the union (segments) that lies before t, for each t (vectorized)."""
    t = np.asarray(t, dtype=float)
    if seg_s.size == 0:
        return np.zeros_like(t)
    cum = np.concatenate(([0.0], np.cumsum(seg_e - seg_s)))
    j = np.searchsorted(seg_s, t, side="right")          # segments starting at or before t
    k = np.maximum(j - 1, 0)
    partial = np.clip(np.minimum(t, seg_e[k]) - seg_s[k], 0.0, None)
    return np.where(j > 0, cum[k] + partial, 0.0)


def _overlap(seg_s, seg_e, a, b) -> np.ndarray:
    """Length of [a, b] covered by the union segments, per interval (vectorized)."""
    return _covered_before(seg_s, seg_e, b) - _covered_before(seg_s, seg_e, a)


# ----------------------------------------------------------------------------- core

def _as_float(name: str, x, n: int | None = None) -> np.ndarray:
    arr = np.asarray(x, dtype=float).reshape(-1)
    if n is not None and arr.size != n:
        raise ValueError(f"{name} has {arr.size} entries; start has {n}")
    if arr.size and not np.all(np.isfinite(arr)):
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name}[{i}] must be a finite number of seconds, got {arr[i]!r}")
    return arr


def _codes(values, n: int, what: str) -> tuple[np.ndarray, list[str]]:
    """Values -> (int codes, unique labels as text), via np.unique (vectorized)."""
    arr = np.asarray(values if not isinstance(values, str) else [values], dtype=object).reshape(-1)
    if arr.size != n:
        raise ValueError(f"{what} has {arr.size} entries; start has {n}")
    if n == 0:
        return np.zeros(0, dtype=np.int64), []
    text = np.array([str(v) for v in arr], dtype=object) if arr.dtype == object else arr.astype(str)
    uniq, inv = np.unique(text.astype(str), return_inverse=True)
    return inv.astype(np.int64), [str(u) for u in uniq]


def diagnose_activity(start, duration, stream, name, *,
                      small_kernel_threshold_seconds: float = SMALL_KERNEL_SECONDS,
                      steps=None, cpu_spans=None, op_names=None,
                      max_gaps: int = 10) -> TraceDiagnosis:
    """Diagnose plain arrays of GPU activity (see the module docstring for the contract).

    ``start``/``duration`` in seconds, ``stream`` ids, ``name`` kernel or class names;
    ``steps`` = (start_s, duration_s[, names]); ``cpu_spans`` = (start_s, duration_s, names);
    ``op_names`` per activity. Raises ``ValueError`` for mismatched lengths, non-finite
    times, negative durations or an empty timeline.
    """
    st = _as_float("start", start)
    n = st.size
    du = _as_float("duration", duration, n)
    if n == 0:
        raise ValueError("no GPU activity: the timeline is empty")
    if np.any(du < 0):
        i = int(np.flatnonzero(du < 0)[0])
        raise ValueError(f"duration[{i}] is negative ({du[i]!r} s)")
    thr = float(small_kernel_threshold_seconds)
    if not (math.isfinite(thr) and thr > 0):
        raise ValueError(f"small_kernel_threshold_seconds must be > 0, got {thr!r}")
    stream_code, stream_labels = _codes(stream, n, "stream")
    name_code, names = _codes(name, n, "name")
    if op_names is not None:
        op_arr = np.asarray(op_names, dtype=object).reshape(-1)
        if op_arr.size != n:
            raise ValueError(f"op_names has {op_arr.size} entries; start has {n}")
        op_code, ops = _codes([str(o or "") for o in op_arr], n, "op_names")
        pair = name_code * len(ops) + op_code
        upair, pinv = np.unique(pair, return_inverse=True)
        pair_cls = np.array([_combined_class(names[p // len(ops)], ops[p % len(ops)])
                             for p in upair.tolist()], dtype=np.int64)
        pair_code = pinv.reshape(-1)
        cls = pair_cls[pair_code]
    else:
        cls = np.array([_name_class(nm) for nm in names], dtype=np.int64)[name_code]
    is_kernel = ~np.array([_is_copy(nm) for nm in names], dtype=bool)[name_code]
    simt_names = np.array([_is_simt(nm) for nm in names], dtype=bool)
    spans = None
    if cpu_spans is not None:
        cs = _as_float("cpu_spans start", cpu_spans[0])
        cd = _as_float("cpu_spans duration", cpu_spans[1], cs.size)
        cn = np.asarray(cpu_spans[2], dtype=object).reshape(-1)
        if cn.size != cs.size:
            raise ValueError(f"cpu_spans names has {cn.size} entries; its start has {cs.size}")
        spans = (cs, cd, cn)
    step_arrays = None
    if steps is not None:
        ss = _as_float("steps start", steps[0])
        sd = _as_float("steps duration", steps[1], ss.size)
        sn = (np.asarray(steps[2], dtype=object).reshape(-1) if len(steps) > 2
              else np.array([f"ProfilerStep#{i}" for i in range(ss.size)], dtype=object))
        step_arrays = (ss, sd, sn)
    return _diagnose(st, du, stream_code, tuple(stream_labels), name_code, tuple(names), cls,
                     is_kernel, simt_names, thr, step_arrays, spans, int(max_gaps))


def _diagnose(st, du, stream_code, stream_labels, name_code, names, cls, is_kernel, simt_names,
              thr, step_arrays, spans, max_gaps) -> TraceDiagnosis:
    en = st + du
    t0 = float(st.min())
    activity_window = float(en.max() - t0)
    seg_s, seg_e = _union(st, en)
    win_s, win_e = np.array([t0]), np.array([float(en.max())])
    from_steps = False
    if step_arrays is not None and step_arrays[0].size:
        ws, we = _union(step_arrays[0], step_arrays[0] + step_arrays[1])
        if float(np.sum(we - ws)) > 0:
            win_s, win_e, from_steps = ws, we, True
    window = float(np.sum(win_e - win_s))
    busy = float(np.sum(_overlap(seg_s, seg_e, win_s, win_e)))
    busy_fraction = busy / window if window > 0 else 1.0

    # idle gaps: the window minus the union of activity, the largest first
    gap_s, gap_e = _holes(seg_s, seg_e, win_s, win_e)
    gap_len = gap_e - gap_s
    top = np.argsort(-gap_len, kind="stable")[:max(0, max_gaps)]
    gaps = []
    for i in top:
        a, length = float(gap_s[i]), float(gap_len[i])
        cpu, frac = _cpu_in_gap(spans, a, a + length)
        gaps.append(IdleGap(a - t0, length, cpu, frac, length / window if window > 0 else 0.0))

    # kernels
    k = is_kernel
    kdur = du[k]
    n_k = int(kdur.size)
    kernel_seconds = float(kdur.sum())
    small = kdur < thr
    n_small = int(small.sum())
    small_count_share = n_small / n_k if n_k else 0.0
    small_time_share = float(kdur[small].sum()) / kernel_seconds if kernel_seconds > 0 else 0.0
    kernels_per_ms = (n_k / (window * 1e3) if window > 0 else 0.0) \
        if n_k >= MIN_KERNELS_TO_JUDGE else float("nan")

    # communication and its overlap with compute kernels
    comm = k & (cls == COMM)
    compute = k & (cls != COMM)
    comm_seconds = float(du[comm].sum())
    comm_share = comm_seconds / kernel_seconds if kernel_seconds > 0 else 0.0
    cs_s, cs_e = _union(st[compute], en[compute])
    if comm.any():
        ov = _overlap(cs_s, cs_e, st[comm], en[comm])
        overlap_fraction = float(ov.sum()) / comm_seconds if comm_seconds > 0 else 0.0
        cu_s, cu_e = _union(st[comm], en[comm])
        exposed = float(np.sum(cu_e - cu_s) - np.sum(_overlap(cs_s, cs_e, cu_s, cu_e)))
    else:
        overlap_fraction, exposed = 0.0, 0.0

    # time by class
    activity_seconds = float(du.sum())
    per_class = np.bincount(cls, weights=du, minlength=len(CLASSES))
    class_seconds = {c: float(per_class[i]) for i, c in enumerate(CLASSES)}
    class_shares = {c: (float(per_class[i]) / activity_seconds if activity_seconds > 0 else 0.0)
                    for i, c in enumerate(CLASSES)}
    non_comm = activity_seconds - per_class[COMM]
    non_matmul = (float(1.0 - (per_class[MATMUL] + per_class[ATTENTION]) / non_comm)
                  if non_comm > 0 else 0.0)
    mm = cls == MATMUL
    mm_seconds = float(du[mm].sum())
    simt = float(du[mm & simt_names[name_code]].sum()) / mm_seconds if mm_seconds > 0 else 0.0

    # steps
    steps: list[StepStat] = []
    if step_arrays is not None and step_arrays[0].size:
        ss, sd, sn = step_arrays
        order = np.argsort(ss, kind="stable")
        ss, sd, sn = ss[order], sd[order], sn[order]
        busy_in = _overlap(seg_s, seg_e, ss, ss + sd)
        steps = [StepStat(str(sn[i]), float(ss[i] - t0), float(sd[i]), float(busy_in[i]))
                 for i in range(ss.size)]
    mean_step = float(np.mean([s.seconds for s in steps])) if steps else None

    # streams
    n_streams = len(stream_labels)
    kc = np.bincount(stream_code[k], minlength=n_streams)
    ks = np.bincount(stream_code[k], weights=du[k], minlength=n_streams)
    ms = np.bincount(stream_code[~k], weights=du[~k], minlength=n_streams)
    co = np.bincount(stream_code[comm], weights=du[comm], minlength=n_streams)
    stream_order = sorted(range(n_streams), key=lambda i: (-(ks[i] + ms[i]), _natural(stream_labels[i])))
    streams = tuple(StreamStat(stream_labels[i], int(kc[i]), float(ks[i]), float(ms[i]), float(co[i]))
                    for i in stream_order)

    # top kernels by time (all names; the UI shows the first rows)
    n_names = len(names)
    nt = np.bincount(name_code, weights=du, minlength=n_names)
    nc = np.bincount(name_code, minlength=n_names)
    ncls = np.zeros(n_names, dtype=np.int64)
    ncls[name_code[::-1]] = cls[::-1]          # class of the first occurrence
    order = np.argsort(-nt, kind="stable")[:50]
    top_kernels = tuple(KernelStat(names[i], CLASSES[ncls[i]], int(nc[i]), float(nt[i]),
                                   float(nt[i]) / activity_seconds if activity_seconds > 0 else 0.0)
                        for i in order if nc[i])

    d = dict(window_seconds=window, busy_seconds=busy, busy_fraction=busy_fraction,
             idle_gaps=tuple(gaps), kernel_count=n_k, small_kernel_threshold_seconds=thr,
             small_kernel_count=n_small, small_kernel_count_share=small_count_share,
             small_kernel_time_share=small_time_share, kernels_per_ms=kernels_per_ms,
             kernel_seconds=kernel_seconds, activity_seconds=activity_seconds,
             comm_seconds=comm_seconds, comm_share=comm_share,
             comm_overlap_fraction=overlap_fraction, exposed_comm_seconds=exposed,
             class_seconds=class_seconds, class_shares=class_shares,
             non_matmul_share=non_matmul, simt_matmul_share=simt, steps=tuple(steps),
             mean_step_seconds=mean_step, streams=streams, top_kernels=top_kernels)
    verdicts = _verdicts(d)
    activity = GpuActivity(st - t0, du, stream_code, cls, name_code, is_kernel,
                           tuple(stream_labels), tuple(names))
    return TraceDiagnosis(**d, verdicts=verdicts, activity=activity, origin_seconds=t0,
                          window_from_steps=from_steps, activity_window_seconds=activity_window)


def _holes(seg_s: np.ndarray, seg_e: np.ndarray, win_s: np.ndarray,
           win_e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The parts of the window segments [win_s, win_e) not covered by the activity union
    (sorted disjoint segments), as (starts, ends); holes under GAP_TOLERANCE_SECONDS are
    rounding. One pass per window segment (steps: tens), vectorized inside."""
    out_s, out_e = [], []
    for a, b in zip(win_s.tolist(), win_e.tolist()):
        i, j = np.searchsorted(seg_e, a, side="right"), np.searchsorted(seg_s, b, side="left")
        s_in, e_in = np.clip(seg_s[i:j], a, b), np.clip(seg_e[i:j], a, b)
        starts = np.concatenate(([a], e_in))
        ends = np.concatenate((s_in, [b]))
        keep = ends - starts > GAP_TOLERANCE_SECONDS
        out_s.append(starts[keep])
        out_e.append(ends[keep])
    if not out_s:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(out_s), np.concatenate(out_e)


def _natural(label: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", label)]


def _cpu_in_gap(spans, a: float, b: float) -> tuple[str, float]:
    """The CPU span overlapping [a, b] longest (shortest on ties), and its covered fraction."""
    if spans is None or b <= a:
        return "", 0.0
    cs, cd, cn = spans
    if cs.size == 0:
        return "", 0.0
    ov = np.minimum(cs + cd, b) - np.maximum(cs, a)
    best = float(ov.max())
    if best <= 0:
        return "", 0.0
    tie = np.flatnonzero(ov >= best - 1e-12 * max(1.0, abs(b)))
    i = int(tie[np.argmin(cd[tie])])
    return str(cn[i]), min(1.0, best / (b - a))


def _verdicts(d: dict) -> tuple[Verdict, ...]:
    out: list[Verdict] = []
    judge = d["kernel_count"] >= MIN_KERNELS_TO_JUDGE
    idle = 1.0 - d["busy_fraction"]
    gaps = d["idle_gaps"]
    if idle >= IDLE_FIRES:
        g = gaps[0] if gaps else IdleGap(0.0, 0.0)
        cpu = g.cpu_name if g.cpu_overlap_fraction >= GAP_CPU_MIN_COVER else ""
        vid = "idle_data" if cpu and _DATA_LOADER.search(cpu) else "idle"
        out.append(Verdict(vid, "②", "warn", {
            "idle_fraction": idle, "idle_seconds": d["window_seconds"] - d["busy_seconds"],
            "window_seconds": d["window_seconds"], "gap_count": len(gaps),
            "largest_gap_seconds": g.length_seconds, "cpu_name": cpu}))
    if d["comm_share"] >= COMM_FIRES:
        hidden = d["comm_overlap_fraction"] >= COMM_HIDDEN_OVERLAP
        out.append(Verdict("comm_hidden" if hidden else "comm", "③", "info" if hidden else "warn", {
            "comm_share": d["comm_share"], "comm_seconds": d["comm_seconds"],
            "overlap_fraction": d["comm_overlap_fraction"],
            "exposed_seconds": d["exposed_comm_seconds"],
            "exposed_fraction": (d["exposed_comm_seconds"] / d["window_seconds"]
                                 if d["window_seconds"] > 0 else 0.0)}))
    if judge and d["non_matmul_share"] >= NON_MATMUL_FIRES:
        shares = d["class_shares"]
        rest = [c for c in CLASSES if c not in ("matmul", "attention", "communication")]
        top = max(rest, key=lambda c: shares[c])
        denom = 1.0 - shares["communication"]
        out.append(Verdict("non_matmul", "④", "warn", {
            "non_matmul_share": d["non_matmul_share"], "top_class": top,
            "top_share": shares[top] / denom if denom > 0 else 0.0}))
    small_fires = d["kernel_count"] and d["small_kernel_count_share"] >= SMALL_COUNT_FIRES and \
        d["small_kernel_time_share"] >= SMALL_TIME_FIRES
    if small_fires and not judge:
        out.append(Verdict("too_few_kernels", "④", "info", {
            "kernel_count": d["kernel_count"], "min_count": MIN_KERNELS_TO_JUDGE}))
    elif small_fires:
        out.append(Verdict("small_kernels", "④", "warn", {
            "small_count_share": d["small_kernel_count_share"],
            "small_count": d["small_kernel_count"], "kernel_count": d["kernel_count"],
            "small_time_share": d["small_kernel_time_share"],
            "threshold_seconds": d["small_kernel_threshold_seconds"],
            "kernels_per_ms": d["kernels_per_ms"]}))
    if d["simt_matmul_share"] >= SIMT_FIRES:
        out.append(Verdict("no_tensor_core", "⑤", "warn", {
            "simt_share": d["simt_matmul_share"]}))
    if not out:
        out.append(Verdict("clear", "", "ok", {
            "busy_fraction": d["busy_fraction"], "comm_share": d["comm_share"],
            "non_matmul_share": d["non_matmul_share"],
            "small_count_share": d["small_kernel_count_share"]}))
    return tuple(out)


# ----------------------------------------------------------------------------- MFU

@dataclass(frozen=True)
class StepMfu:
    """MFU and HFU of each step (fractions), the mean over steps, tokens/s of the mean, and
    the mean step's calc.mfu.measured_mfu record (band, verdict above 100 %) when the FLOP
    count was given as a record.  ``step_tokens_per_s``: tokens_per_step / step_seconds,
    each step (tok/s)."""
    step_seconds: np.ndarray
    mfu: np.ndarray
    hfu: np.ndarray
    mean_step_seconds: float
    tokens_per_s: float
    mean_mfu: float
    mean_hfu: float
    measured: Any = None
    step_tokens_per_s: np.ndarray = field(default_factory=lambda: np.zeros(0))


def step_mfu(step_seconds, n_params: float, tokens_per_step: float, n_gpus: float,
             peak_flops: float, *, recompute_fraction: float = 0.0,
             flops_per_token: float | None = None,
             hardware_flops_per_token: float | None = None, flops: Any = None) -> StepMfu:
    """MFU and HFU per training step from step times measured in a trace.

        tokens/s = tokens_per_step / step_seconds           (tokens of the whole job per step)
        MFU      = flops_per_token · tokens/s / (n_gpus · peak_flops)    (calc.mfu.mfu)
        HFU      = hardware_flops_per_token · tokens/s / (n_gpus · peak_flops)

    ``flops``: the FLOP count as a record (calc.training_flops.flops_per_token, the count the
    MFU and Training pages use): its ``model`` and ``hardware`` are taken, and the mean step
    is calc.mfu.measured_mfu's record (``measured``: the same MFU, HFU, band and verdict the
    MFU page shows for tokens/s of the mean step).  Without it, flops_per_token defaults to
    6·N; hardware_flops_per_token to flops_per_token + 2·N·recompute_fraction
    (``recompute_fraction``: the share of the forward pass recomputed in the backward;
    1 = full activation checkpointing, 8·N per token). ``mean_*`` use the mean step time.
    Sources: seed chapter 04; PaLM (2022) App. B (MFU vs HFU); Korthikanti et al. (2022) §6.
    """
    secs = _as_float("step_seconds", step_seconds)
    if secs.size == 0:
        raise ValueError("no steps: the trace has no ProfilerStep# spans")
    if np.any(secs <= 0):
        raise ValueError("step_seconds must be > 0")
    r = float(recompute_fraction)
    if not (0.0 <= r <= 1.0):
        raise ValueError(f"recompute_fraction must be in [0, 1], got {r!r}")
    tps = float(tokens_per_step)
    if not (math.isfinite(tps) and tps > 0):
        raise ValueError(f"tokens_per_step must be > 0, got {tokens_per_step!r}")
    if flops is not None:
        n_params, fpt, hw = flops.active_params, flops.model, flops.hardware
    else:
        fpt = 6.0 * float(n_params) if flops_per_token is None else float(flops_per_token)
        hw = (fpt + 2.0 * float(n_params) * r if hardware_flops_per_token is None
              else float(hardware_flops_per_token))
    tokens_per_s = tps / secs
    m = np.asarray(M.mfu(n_params, tokens_per_s, n_gpus, peak_flops, flops_per_token=fpt))
    h = np.asarray(M.mfu(n_params, tokens_per_s, n_gpus, peak_flops, flops_per_token=hw))
    mean = float(secs.mean())
    measured = None if flops is None else M.measured_mfu(flops, tps / mean, n_gpus, peak_flops)
    return StepMfu(secs, m, h, mean, tps / mean,
                   float(M.mfu(n_params, tps / mean, n_gpus, peak_flops, flops_per_token=fpt)),
                   float(M.mfu(n_params, tps / mean, n_gpus, peak_flops, flops_per_token=hw)),
                   measured, tokens_per_s)


def roofline_coverage(placed_seconds: float, d: TraceDiagnosis) -> float:
    """Share (0..1) of the diagnosed GPU's time that the roofline import placed:

        placed_seconds / d.covered_seconds      (covered = every kernel, copy and memset)

    ``placed_seconds``: GPU time the importer placed on the GPU the diagnosis covers
    (``ImportReport.placed_gpu_seconds_on(d.device)`` when the trace holds several GPUs,
    else its total minus its skipped time). The diagnosis itself covers all of
    ``d.covered_seconds``."""
    placed = float(placed_seconds)
    if not math.isfinite(placed) or placed < 0:
        raise ValueError(f"placed_seconds must be a finite number >= 0, got {placed_seconds!r}")
    return min(1.0, placed / d.covered_seconds) if d.covered_seconds > 0 else 0.0


# ----------------------------------------------------------------------------- traces

def diagnose_trace(data: bytes, filename: str, *,
                   small_kernel_threshold_seconds: float = SMALL_KERNEL_SECONDS,
                   device: str | None = None, progress=None) -> TraceDiagnosis:
    """Diagnose a PyTorch profiler (Kineto) chrome trace from its bytes.

    ``data``: the file (``.json`` or gzip); ``filename`` for messages. ``device``: which GPU
    to diagnose when the trace holds several (default: the one with the most GPU time; the
    others are listed in ``devices``). ``progress``: optional callable taking 0..1.
    Raises ``ValueError`` (message names the file) for anything that is not a trace with
    GPU activity. See :mod:`calc.diagnosis` for what is read and computed.
    """
    tr = read_trace(data, filename, progress=progress)
    return diagnose_parsed(tr, small_kernel_threshold_seconds=small_kernel_threshold_seconds,
                           device=device)


def diagnose_parsed(trace: TraceArrays, *, small_kernel_threshold_seconds: float,
                    device: str | None = None) -> "TraceDiagnosis":
    """Diagnose one GPU of a trace read by :func:`calc.trace_events.read_trace` (see
    :func:`diagnose_trace`).  Lives here, not on the trace, so that calc.trace_events (the
    reader) does not import calc.diagnosis: the import runs one way."""

    if device is None:
        per = np.bincount(trace.gpu_device, weights=trace.gpu_dur, minlength=len(trace.devices))
        dev_code = int(np.argmax(per))
    elif str(device) in trace.devices:
        dev_code = trace.devices.index(str(device))
    else:
        raise ValueError(f"{trace.filename}: the trace has no GPU {device!r}; it has "
                         f"{', '.join(trace.devices)}")
    sel = trace.gpu_device == dev_code
    names = trace.gpu_names
    op_names = trace.cpu_names
    name_code = trace.gpu_name[sel]
    op_code = trace.gpu_op[sel]
    # classes per unique (kernel name, operator) pair
    n_ops = len(op_names) + 1
    pair = name_code.astype(np.int64) * n_ops + (op_code + 1)
    upair, pinv = np.unique(pair, return_inverse=True)
    pcls = np.array([_combined_class(names[p // n_ops],
                                       op_names[p % n_ops - 1] if p % n_ops else "")
                     for p in upair.tolist()], dtype=np.int64)
    cls = pcls[pinv.reshape(-1)]
    is_copy = trace.gpu_is_copy[sel]
    cls = np.where(is_copy, MEMORY, cls)
    # names used by this device only, recoded
    uname, ninv = np.unique(name_code, return_inverse=True)
    dev_names = tuple(names[i] for i in uname.tolist())
    simt = np.array([_is_simt(nm) for nm in dev_names], dtype=bool)
    ustream, sinv = np.unique(trace.gpu_stream[sel], return_inverse=True)
    stream_labels = tuple(trace.streams[i] for i in ustream.tolist())
    spans = (trace.cpu_start, trace.cpu_dur,
             _LazyNames(trace.cpu_name, trace.cpu_names)) if trace.cpu_start.size else None
    steps = ((trace.step_start, trace.step_dur, np.asarray(trace.step_names, dtype=object))
             if trace.step_start.size else None)
    if not sel.any():
        raise ValueError(f"{trace.filename}: GPU {trace.devices[dev_code]} has no activity")
    d = _diagnose(trace.gpu_start[sel], trace.gpu_dur[sel], sinv.reshape(-1), stream_labels,
                    ninv.reshape(-1), dev_names, cls, ~is_copy, simt,
                    float(small_kernel_threshold_seconds), steps, spans, 10)
    dev = trace.devices[dev_code]
    notes = []
    if len(trace.devices) > 1:
        notes.append("several_devices")
    return dataclasses.replace(
        d, filename=trace.filename, schema=trace.schema, platform=trace.platform,
        device=dev, devices=trace.devices, device_name=trace.device_names.get(dev, ""),
        events_read=trace.events_read, notes=tuple(notes))
