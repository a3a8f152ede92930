"""The Learn page's lessons: the seed chapter's eight checkpoint questions as problems.

Each lesson's numbers are drawn from a quiz number (URL ``quiz``) and the selected
device, so a class gets different but reproducible problems; quiz 0 is the chapter's
own worked example (7B on 8 A100s at 12 000 tokens/s, intensity 2, ...).  Every
expected answer is computed by ``calc.roofline`` / ``calc.mfu`` / ``calc.inference`` (and
``calc.diagnosis`` for the trace lesson), never written down here; typed answers are
read with ``calc.units.parse_quantity``.

    correct  ⇔  |typed − expected| ≤ TOLERANCE × |expected|        (3 %, relative)

A wrong answer is compared with the values that known mistakes give (a multiply-add
counted as one FLOP, GB read as GiB, the 2:4-sparse headline peak, the number of GPUs
forgotten, ...); a match names the mistake (a hint key the UI translates).
Source: the seed chapter "04 · Roofline 与 MFU", its checkpoint questions (✅ 检查点)
and answers (👀 答案).  Units: SI base units, fractions 0..1.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from calc.arch import params_only
from calc.hardware import SPARSE_HEADLINE_FACTOR
from calc.inference import decode_knee, decode_step
from calc.mfu import MFU_BANDS, attention_flops_share, measured_mfu, mfu_band, required_tokens_per_s
from calc.training_flops import flops_per_token, params_only_arch
from calc.roofline import attainable_flops, place_kernel, ridge_point
from calc.units import QuantityError, parse_quantity

__all__ = [
    "LESSONS",
    "N_LESSONS",
    "TOLERANCE",
    "TEXTBOOK_QUIZ",
    "MAX_QUIZ",
    "DATA_BOUND_RISE",
    "Mistake",
    "Question",
    "Problem",
    "Check",
    "Device",
    "make_problem",
    "check_answer",
    "check_choice",
    "parse_quiz",
    "TRACE_SIGNALS",
    "TraceArrays",
    "synthetic_trace",
]

N_LESSONS = 8
LESSONS: tuple[str, ...] = ("ridge", "ceiling", "mfu", "six_n", "bands", "experiment", "trace",
                            "decode")
"""Lesson ids, in the order of the chapter's checkpoint questions (lesson n = LESSONS[n-1])."""

TOLERANCE = 0.03
"""An answer within 3 % (relative) of the exact value is right: three significant figures
always are, and the known mistakes (GB vs GiB: 7–10 %, factors of 2) stay outside it."""

TEXTBOOK_QUIZ = 0
"""Quiz 0: the chapter's own numbers."""

MAX_QUIZ = 999_999

DATA_BOUND_RISE = 1.2
"""Random tensors instead of the dataloader: MFU rising by this factor or more (+20 %) is the
"显著上升" of the chapter — the data pipeline was the bottleneck."""

_GIB_T = 2.0 ** 40 / 1e12   # TiB / TB
_GIB_G = 2.0 ** 30 / 1e9    # GiB / GB


@dataclass(frozen=True)
class Device:
    """What a problem needs from the sidebar's device: dense peak (FLOP/s), bandwidth (B/s),
    whether the vendor headlines a 2:4-sparse peak, and ids for reproducibility."""
    peak_flops: float
    mem_bw: float
    sparse_headline: bool = False
    device_id: str = "custom"
    precision: str = "bf16"

    @property
    def sparse_peak_flops(self) -> float:
        """The 2:4-sparse figure a vendor would headline for this dense peak (FLOP/s):
        calc.hardware.SPARSE_HEADLINE_FACTOR × peak_flops (the hints name it as the trap)."""
        return SPARSE_HEADLINE_FACTOR * self.peak_flops


@dataclass(frozen=True)
class Mistake:
    """A known mistake: `key` names it (the UI's hint), `value` is what it gives."""
    key: str
    value: float | str


@dataclass(frozen=True)
class Question:
    """One answer field of a lesson.

    Numeric (`choices` empty): `answer` in SI units, `unit` for display ("FLOP/s", "%"
    for fractions, "" for counts), `kind` for parse_quantity.  Choice: `answer` is the
    right choice key, `choices` all keys in display order.  `mistakes` map wrong values
    (or wrong choices) to hint keys.
    """
    id: str
    answer: float | str
    unit: str = ""
    kind: str | None = None
    choices: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    tolerance: float = TOLERANCE

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)


@dataclass(frozen=True)
class Problem:
    """A lesson's numbers for one quiz and device: `given` (what the learner is told, SI
    units), the questions, and for the trace lesson the synthetic trace (`trace`)."""
    lesson: int
    quiz: int
    device: Device
    given: Mapping[str, float | str]
    questions: tuple[Question, ...]
    trace: "TraceArrays | None" = None
    facts: Mapping[str, float] = field(default_factory=dict)   # numbers for the explanation

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise KeyError(f"lesson {self.lesson} has no question {qid!r}")

    @property
    def signature(self) -> tuple:
        """Identifies the numbers: a stored result only applies to the same signature."""
        d = self.device
        return (self.lesson, self.quiz, d.device_id, d.precision, d.peak_flops, d.mem_bw)


@dataclass(frozen=True)
class Check:
    """The verdict on one answer: status "correct", "wrong" or "unreadable"; `value` what
    was read (SI units); `hints` the known mistakes it matches (keys); `message` the
    parse error for "unreadable"."""
    status: str
    value: float | str | None = None
    hints: tuple[str, ...] = ()
    message: str = ""

    @property
    def correct(self) -> bool:
        return self.status == "correct"


# --------------------------------------------------------------------------- helpers

def parse_quiz(text: object) -> int | None:
    """A quiz number 0..MAX_QUIZ from URL or field text ("42"), else None."""
    s = unicodedata.normalize("NFKC", str(text)).strip() if text is not None else ""
    if not re.fullmatch(r"[0-9]{1,6}", s):      # full-width digits normalised; no other scripts
        return None
    return int(s)


def _rng(quiz: int, lesson: int) -> random.Random:
    # A str seed is hashed with SHA-512 by random.seed: the same on every machine and run.
    return random.Random(f"roofline-lab/quiz/{quiz}/lesson/{lesson}")


def _nice(x: float, digits: int = 2) -> float:
    """Round to `digits` significant figures (numbers a person can type)."""
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.{digits}g}")


def _close(a: float, b: float, tol: float) -> bool:
    return b != 0 and abs(a - b) <= tol * abs(b)


def _mistakes(answer: float, tol: float, *pairs: tuple[str, float]) -> tuple[Mistake, ...]:
    """Keep the mistakes whose value is clearly apart from the answer (beyond 2 × tol)."""
    out = []
    for key, value in pairs:
        if value is None or not math.isfinite(value) or value <= 0:
            continue
        if abs(value - answer) <= 2 * tol * abs(answer):
            continue
        out.append(Mistake(key, float(value)))
    return tuple(out)


def _gib(answer: float, bw_scaled: bool) -> list[tuple[str, float]]:
    """A decimal/binary mix-up: the bandwidth read in TiB/s or GiB/s (or the bytes in GiB)."""
    f = (1 / _GIB_T, 1 / _GIB_G) if bw_scaled else (_GIB_T, _GIB_G)
    return [("gib", answer * f[0]), ("gib", answer * f[1]),
            ("gib", answer / f[0]), ("gib", answer / f[1])]


# --------------------------------------------------------------------------- lessons

def _ridge(quiz: int, dev: Device) -> Problem:
    """Lesson 1: (a) ridge = peak_flops / mem_bw (FLOP/byte), calc.roofline.ridge_point;
    (b) which line caps a kernel of intensity I: the slope (memory-bound) left of the
    ridge, the roof (compute-bound) right of it — calc.roofline.place_kernel's bound."""
    p, b = dev.peak_flops, dev.mem_bw
    answer = ridge_point(p, b)
    pairs = [("inverted", ridge_point(b, p)), ("prefix", answer * 1e3), ("prefix", answer / 1e3)]
    pairs += _gib(answer, bw_scaled=True)
    if dev.sparse_headline:
        pairs.append(("sparse", ridge_point(2 * p, b)))
    q = Question("ridge", answer, "FLOP/B", "intensity", mistakes=_mistakes(answer, TOLERANCE, *pairs))
    rng = _rng(quiz, 1)
    far = [i for i in _INTENSITIES if i < answer / 1.5 or i > answer * 1.5] or [answer * 4]
    intensity = 50.0 if quiz == TEXTBOOK_QUIZ and 50.0 in far else float(rng.choice(far))
    # place_kernel takes FLOP and bytes: any pair with this ratio (here per GB moved)
    bound = place_kernel(intensity * 1e9, 1e9, p, b).bound
    other = "compute" if bound == "memory" else "memory"
    q2 = Question("line", bound, choices=BOUND_CHOICES, mistakes=(Mistake(f"line_{other}", other),))
    return Problem(1, quiz, dev, {"peak": p, "bw": b, "intensity": intensity}, (q, q2))


BOUND_CHOICES = ("memory", "compute")


_INTENSITIES = (0.25, 0.5, 1, 2, 4, 8, 10, 16, 25, 32, 50, 64, 100, 128, 250, 500, 1000, 2000)


def _ceiling(quiz: int, dev: Device) -> Problem:
    """Lesson 2: the best a kernel of intensity I can ever do,
    min(peak, I × mem_bw) (FLOP/s), calc.roofline.attainable_flops."""
    p, b = dev.peak_flops, dev.mem_bw
    if quiz == TEXTBOOK_QUIZ:
        intensity = 2.0
    else:
        rng = _rng(quiz, 2)
        ridge = ridge_point(p, b)
        # Two in three problems left of the ridge (where most kernels live), one right.
        left = [i for i in _INTENSITIES if i < ridge * 0.8]
        right = [i for i in _INTENSITIES if i > ridge * 1.25]
        pool = left if (rng.random() < 0.67 and left) or not right else right
        intensity = float(rng.choice(pool))
    answer = float(attainable_flops(intensity, p, b))
    memory_bound = intensity * b < p
    pairs = [("prefix", answer * 1e3), ("prefix", answer / 1e3)]
    if memory_bound:
        pairs += [("roof_not_slope", p), ("times_peak", intensity * p)]
        pairs += _gib(answer, bw_scaled=True)
    else:
        pairs += [("above_roof", intensity * b)]
        if dev.sparse_headline:
            pairs.append(("sparse", 2 * p))
    q = Question("ceiling", answer, "FLOP/s", "flop_rate",
                 mistakes=_mistakes(answer, TOLERANCE, *pairs))
    return Problem(2, quiz, dev, {"intensity": intensity, "peak": p, "bw": b}, (q,),
                   facts={"memory_bound": float(memory_bound), "ridge": ridge_point(p, b)})


_MODELS = ((1.3e9, 24, 2048), (7e9, 32, 4096), (8e9, 32, 4096), (13e9, 40, 5120),
           (34e9, 48, 8192), (70e9, 80, 8192))
"""(parameters, layers, hidden size) of common dense decoder sizes (GPT-3 XL 1.3B,
Llama-2 7B/13B, Llama-3 8B, CodeLlama 34B, Llama-2 70B): for the 12·L·h·s term."""
_GPUS = (8, 16, 32, 64, 128, 256, 512)


def _mfu_run(rng: random.Random, dev: Device, target: float) -> dict[str, float]:
    n_params = rng.choice(_MODELS)[0]
    n_gpus = float(rng.choice(_GPUS))
    tokens = _nice(float(required_tokens_per_s(n_params, target, n_gpus, dev.peak_flops)), 3)
    return {"params": n_params, "gpus": n_gpus, "tokens_per_s": tokens}


def _six_n_flops(n_params: float):
    """The chapter's FLOP per token of N parameters: the one count (calc.training_flops) of
    a dense architecture of N without the attention term (seq_len 0): 6N."""
    return flops_per_token(params_only_arch(n_params), 0)


def _run_mfu(run: Mapping[str, float], dev: Device) -> float:
    """MFU of a lesson's run: calc.mfu.measured_mfu's record, as the MFU page shows it."""
    return measured_mfu(_six_n_flops(run["params"]), run["tokens_per_s"], run["gpus"],
                        dev.peak_flops).mfu


def _mfu_question(qid: str, run: Mapping[str, float], dev: Device) -> Question:
    answer = _run_mfu(run, dev)
    pairs = [("gpus", answer * run["gpus"]),
             ("macs", answer / 2),            # 3N per token: a multiply-add counted as one FLOP
             ("two_n", answer / 3)]           # 2N per token: the forward pass only
    if dev.sparse_headline:
        pairs.append(("sparse", answer / 2))  # the 2:4-sparse headline as the peak
    return Question(qid, answer, "%", "fraction", mistakes=_mistakes(answer, TOLERANCE, *pairs))


def _mfu_lesson(quiz: int, dev: Device) -> Problem:
    """Lesson 3: MFU = 6·N·tokens/s ÷ (GPUs × peak), calc.mfu.mfu."""
    if quiz == TEXTBOOK_QUIZ:
        run = {"params": 7e9, "gpus": 8.0, "tokens_per_s": 12_000.0}
    else:
        rng = _rng(quiz, 3)
        run = _mfu_run(rng, dev, rng.uniform(0.12, 0.58))
    fpt = _six_n_flops(run["params"]).model                    # 6N
    q1 = Question("fpt", fpt, "FLOP", "flops", mistakes=_mistakes(
        fpt, TOLERANCE, ("forward_only_n", fpt / 3), ("macs", fpt / 2), ("params_only", fpt / 6)))
    q = _mfu_question("mfu", run, dev)
    achieved = fpt * run["tokens_per_s"]
    return Problem(3, quiz, dev, {**run, "peak": dev.peak_flops}, (q1, q),
                   facts={"achieved": achieved, "total_peak": run["gpus"] * dev.peak_flops})


_MATRICES = (1024, 2048, 3072, 4096, 5120, 8192, 11008, 14336, 16384)
_SEQS = (8192, 16384, 32768, 65536, 131072)


def _six_n(quiz: int, dev: Device) -> Problem:
    """Lesson 4: (a) forward + backward FLOP per token of an m × n matrix = 6·m·n
    (calc.training_flops.flops_per_token of m·n parameters); (b) the attention share
    12·L·h·s ÷ (6N + 12·L·h·s) at a long sequence (calc.mfu.attention_flops_share)."""
    if quiz == TEXTBOOK_QUIZ:
        m, n = 4096, 4096
        (n_params, layers, hidden), seq = (7e9, 32, 4096), 8192
    else:
        rng = _rng(quiz, 4)
        m, n = rng.choice(_MATRICES), rng.choice(_MATRICES)
        (n_params, layers, hidden), seq = rng.choice(_MODELS), rng.choice(_SEQS)
    weights = float(m * n)
    fb = _six_n_flops(weights).model
    q1 = Question("fwd_bwd", fb, "FLOP", "flops", mistakes=_mistakes(
        fb, TOLERANCE, ("forward_only", fb / 3), ("one_gradient", fb * 2 / 3), ("macs", fb / 2),
        ("params_only", fb / 6)))
    # The chapter's formula counts the full score matrix (12·L·h·s): causal=False here on
    # purpose; the pages' default (calc.training_flops.CAUSAL_DEFAULT) halves it, and the
    # lesson names that halving as the "causal" answer.
    share = float(attention_flops_share(n_params, layers, hidden, seq, causal=False))
    attn = share / (1 - share)           # 12·L·h·s ÷ 6N: the term over 6N, not over the total
    q2 = Question("attn_share", share, "%", "fraction", mistakes=_mistakes(
        share, TOLERANCE, ("ratio_not_share", attn),
        ("causal", float(attention_flops_share(n_params, layers, hidden, seq, causal=True)))))
    return Problem(4, quiz, dev, {"m": float(m), "n": float(n), "params": n_params,
                                  "layers": float(layers), "hidden": float(hidden),
                                  "seq": float(seq)}, (q1, q2),
                   facts={"attn_flops": attn * 6 * n_params, "six_n": 6 * n_params,
                          "weights": weights})


BAND_KEYS: tuple[str, ...] = tuple(b.key for b in MFU_BANDS)
_BAND_TARGETS = {"problem": (0.06, 0.16), "low": (0.23, 0.32), "fair": (0.37, 0.43),
                 "good": (0.47, 0.53), "excellent": (0.565, 0.585), "suspicious": (0.66, 0.85)}


def _bands(quiz: int, dev: Device) -> Problem:
    """Lesson 5: three runs placed in the chapter's MFU bands (calc.mfu.mfu, mfu_band)."""
    rng = _rng(quiz, 5)
    if quiz == TEXTBOOK_QUIZ:
        runs = [{"params": 7e9, "gpus": 8.0, "tokens_per_s": 12_000.0}]
        runs += [_mfu_run(rng, dev, rng.uniform(*_BAND_TARGETS[k])) for k in ("good", "problem")]
    else:
        keys = rng.sample(BAND_KEYS, 3)
        runs = [_mfu_run(rng, dev, rng.uniform(*_BAND_TARGETS[k])) for k in keys]
    given: dict[str, float] = {"peak": dev.peak_flops}
    questions = []
    for i, run in enumerate(runs):
        value = _run_mfu(run, dev)
        right = mfu_band(value).key
        wrong = {"band_gpus": mfu_band(value * run["gpus"]).key, "band_macs": mfu_band(value / 2).key}
        mistakes = tuple(Mistake(k, band) for k, band in wrong.items() if band != right)
        questions.append(Question(f"run{i + 1}", right, choices=BAND_KEYS, mistakes=mistakes))
        given.update({f"run{i + 1}.{k}": v for k, v in run.items()})
        given[f"run{i + 1}.mfu"] = value
    choices = list(CEILING_CHOICES)
    rng.shuffle(choices)
    questions.append(Question("why60", "overheads", choices=tuple(choices), mistakes=tuple(
        Mistake(f"why60_{c}", c) for c in CEILING_CHOICES if c != "overheads")))
    return Problem(5, quiz, dev, given, tuple(questions))


CEILING_CHOICES = ("overheads", "datasheet", "precision", "memory")
"""Lesson 5 (b): why the practical MFU ceiling is ~60 %. The chapter: time that is not
useful FLOPs (communication, non-matmul operators, data loading, launches, optimizer)."""


EXPERIMENT_CHOICES = ("random_tensors", "more_gpus", "bigger_batch", "no_checkpointing",
                      "custom_kernels")
VERDICT_CHOICES = ("data_pipeline", "not_data")


def _experiment(quiz: int, dev: Device) -> Problem:
    """Lesson 6: (a) the first experiment (fixed random tensors instead of the dataloader);
    (b) reading its result: MFU before and after (calc.mfu.mfu); a rise of
    DATA_BOUND_RISE or more means the data pipeline is the bottleneck."""
    rng = _rng(quiz, 6)
    choices = list(EXPERIMENT_CHOICES)
    rng.shuffle(choices)
    q1 = Question("first", "random_tensors", choices=tuple(choices),
                  mistakes=tuple(Mistake(f"exp_{c}", c) for c in EXPERIMENT_CHOICES
                                 if c != "random_tensors"))
    before = rng.uniform(0.10, 0.22)
    data_bound = rng.random() < 0.6 if quiz != TEXTBOOK_QUIZ else True
    after = before * (rng.uniform(1.6, 2.6) if data_bound else rng.uniform(1.0, 1.06))
    run = _mfu_run(rng, dev, before)
    run_after = dict(run, tokens_per_s=_nice(run["tokens_per_s"] * after / before, 3))
    mfu_before = _run_mfu(run, dev)
    mfu_after = _run_mfu(run_after, dev)
    verdict = "data_pipeline" if mfu_after >= DATA_BOUND_RISE * mfu_before else "not_data"
    other = "not_data" if verdict == "data_pipeline" else "data_pipeline"
    q2 = Question("verdict", verdict, choices=VERDICT_CHOICES,
                  mistakes=(Mistake(f"verdict_{other}", other),))
    return Problem(6, quiz, dev, {**run, "tokens_after": run_after["tokens_per_s"],
                                  "mfu_before": mfu_before, "mfu_after": mfu_after,
                                  "peak": dev.peak_flops}, (q1, q2),
                   facts={"rise": mfu_after / mfu_before})


_DECODE_MODELS = (1e9, 3e9, 7e9, 8e9, 13e9, 34e9, 70e9)
_BATCHES = (4, 8, 16, 32)


def _decode(quiz: int, dev: Device) -> Problem:
    """Lesson 8: batch-1 decode ceiling = mem_bw ÷ model bytes, then with weights in 8 bits
    (half the bytes) and with a batch (one read serves every sequence): the Decode page's
    record (calc.inference.decode_step) for "parameters only" without the KV cache."""
    p, b = dev.peak_flops, dev.mem_bw
    if quiz == TEXTBOOK_QUIZ:
        n_params, batch = 7e9, 8
    else:
        rng = _rng(quiz, 8)
        n_params = rng.choice(_DECODE_MODELS)
        knee = decode_knee(params_only(n_params), 0, peak_flops=p, mem_bw=b)
        fits = [x for x in _BATCHES if x <= knee / 2] or [2]
        batch = rng.choice(fits)
    arch = params_only(n_params)
    s16 = decode_step(arch, 1, 0, peak_flops=p, mem_bw=b, bytes_per_param=2.0)
    s8 = decode_step(arch, 1, 0, peak_flops=p, mem_bw=b, bytes_per_param=1.0)
    w16, w8 = s16.weight_bytes, s8.weight_bytes
    speed = s16.tokens_per_s
    q1 = Question("bf16", speed, "tok/s", "token_rate", mistakes=_mistakes(
        speed, TOLERANCE, ("bytes_per_param", speed * 2), ("flops_bound", p / (2 * n_params)),
        ("prefix", speed * 1e3), ("prefix", speed / 1e3), *_gib(speed, bw_scaled=False)))
    speed8 = s8.tokens_per_s
    q2 = Question("int8", speed8, "tok/s", "token_rate", mistakes=_mistakes(
        speed8, TOLERANCE, ("quant_same", speed), ("quant_inverted", speed / 2)))
    total = decode_step(arch, float(batch), 0, peak_flops=p, mem_bw=b).tokens_per_s
    q3 = Question("batch", total, "tok/s", "token_rate", mistakes=_mistakes(
        total, TOLERANCE, ("batch_per_request", speed), ("batch_divided", speed / batch)))
    return Problem(8, quiz, dev, {"params": n_params, "bw": b, "peak": p, "batch": float(batch),
                                  "bytes16": w16, "bytes8": w8}, (q1, q2, q3))


TRACE_SIGNALS = ("gaps", "tiny_kernels", "nccl", "none")
"""Lesson 7's choices: the chapter's three trace signals, and "nothing stands out"."""


@dataclass(frozen=True)
class TraceArrays:
    """GPU activity of a synthetic trace, one entry per kernel (arrays of equal length):
    start and duration in seconds, stream id, kernel name."""
    start: np.ndarray
    duration: np.ndarray
    stream: np.ndarray
    name: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.start.shape[0])


_GEMM = ("ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_tn",
         "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32",
         "flash_fwd_kernel", "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel")
_SMALL = ("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>",
          "void at::native::elementwise_kernel<128, 2, at::native::GeluCUDAKernelImpl>",
          "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, MeanOps>>",
          "void at::native::unrolled_elementwise_kernel<at::native::MulFunctor<float>>",
          "void at::native::vectorized_layer_norm_kernel<float, float>")
_NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
SMALL_KERNEL_SECONDS = 10e-6
"""A kernel shorter than this is "tiny" (launch overhead is a few µs)."""
COMPUTE_STREAM = 7
COMM_STREAM = 13


def synthetic_trace(signal: str, rng: random.Random) -> TraceArrays:
    """A small GPU timeline (about 10 ms, a few steps) made to show one of the chapter's
    trace signals (``TRACE_SIGNALS``):

    * "gaps": big kernels, then the GPU idles ~45 % of each step (waiting for the CPU or
      the dataloader);
    * "tiny_kernels": thousands of 2–6 µs elementwise kernels back to back (no fusion:
      launch overhead dominates);
    * "nccl": NCCL all-reduce kernels taking ~45 % of GPU time, not overlapped with
      compute (communication-bound);
    * "none": large GEMM / attention kernels packed with no idle time; a little
      communication overlapped on another stream.

    Times in seconds, deterministic for a given ``rng`` state.
    """
    if signal not in TRACE_SIGNALS:
        raise ValueError(f"signal must be one of {', '.join(TRACE_SIGNALS)}, got {signal!r}")
    start: list[float] = []
    dur: list[float] = []
    stream: list[int] = []
    name: list[str] = []

    def add(t0: float, d: float, s: int, n: str) -> float:
        start.append(t0)
        dur.append(d)
        stream.append(s)
        name.append(n)
        return t0 + d

    t = 0.0
    if signal == "tiny_kernels":
        for _ in range(rng.randint(1400, 1800)):
            t = add(t, rng.uniform(2e-6, 6e-6), COMPUTE_STREAM, rng.choice(_SMALL))
            t += rng.uniform(0.1e-6, 0.4e-6)          # launch-to-launch spacing
            if rng.random() < 0.01:                    # an occasional bigger GEMM
                t = add(t, rng.uniform(40e-6, 90e-6), COMPUTE_STREAM, rng.choice(_GEMM)) + 1e-6
        return _arrays(start, dur, stream, name)
    for _step in range(4):
        step_start = t
        for _ in range(rng.randint(10, 14)):
            t = add(t, rng.uniform(0.08e-3, 0.22e-3), COMPUTE_STREAM, rng.choice(_GEMM))
            t += rng.uniform(1e-6, 3e-6)
            if rng.random() < 0.3:
                t = add(t, rng.uniform(8e-6, 20e-6), COMPUTE_STREAM, rng.choice(_SMALL)) + 2e-6
        compute = t - step_start
        if signal == "nccl":
            # exposed all-reduce: the compute stream waits for it
            t = add(t, compute * rng.uniform(0.75, 0.95), COMM_STREAM, _NCCL) + 5e-6
        elif signal == "none":
            # a small all-reduce overlapped with the last kernels of the step
            add(step_start + compute * 0.7, compute * 0.08, COMM_STREAM, _NCCL)
            t += 3e-6
        else:  # gaps: the GPU waits for the next batch
            t += compute * rng.uniform(0.7, 1.0)
    return _arrays(start, dur, stream, name)


def _arrays(start, dur, stream, name) -> TraceArrays:
    return TraceArrays(np.asarray(start, dtype=float), np.asarray(dur, dtype=float),
                       np.asarray(stream, dtype=np.int64), tuple(name))


def _trace(quiz: int, dev: Device) -> Problem:
    """Lesson 7: name the signal a synthetic trace shows; the answer is what
    calc.diagnosis finds in it, not the signal it was made to show."""
    rng = _rng(quiz, 7)
    signal = "gaps" if quiz == TEXTBOOK_QUIZ else rng.choice(TRACE_SIGNALS)
    trace = synthetic_trace(signal, rng)
    answer, facts = trace_signal(trace)
    q = Question("signal", answer, choices=TRACE_SIGNALS,
                 mistakes=tuple(Mistake(f"trace_{c}", c) for c in TRACE_SIGNALS if c != answer))
    return Problem(7, quiz, dev, {"kernels": float(len(trace)), "made_to_show": signal}, (q,),
                   trace=trace, facts=facts)


_BUILDERS = {1: _ridge, 2: _ceiling, 3: _mfu_lesson, 4: _six_n, 5: _bands, 6: _experiment,
             7: _trace, 8: _decode}


def make_problem(lesson: int, quiz: int, device: Device) -> Problem:
    """Lesson `lesson` (1..8)'s numbers for quiz `quiz` (0..MAX_QUIZ; 0 = the chapter's
    example) on `device`.  Deterministic: the same arguments give the same problem."""
    if lesson not in _BUILDERS:
        raise ValueError(f"lesson must be 1..{N_LESSONS}, got {lesson!r}")
    if isinstance(quiz, bool) or not isinstance(quiz, int) or not 0 <= quiz <= MAX_QUIZ:
        raise ValueError(f"quiz must be an integer 0..{MAX_QUIZ}, got {quiz!r}")
    if not (device.peak_flops > 0 and device.mem_bw > 0):
        raise ValueError("the device needs a positive peak_flops and mem_bw")
    return _BUILDERS[lesson](quiz, device)


# --------------------------------------------------------------------------- checking

_HAS_UNIT = re.compile(r"[A-Za-z%µ\u4e00-\u9fff]")  # a Chinese unit (54 天, 120 tokens/秒) is a unit
_SCALE_PREFIX = (1e3, 1e6, 1e9, 1e12, 1e15)


def check_answer(question: Question, text: str) -> Check:
    """Judge a typed answer to a numeric question.

    Read with parse_quantity(text, kind=question.kind).  Right when within
    question.tolerance (relative).  Fractions (MFU, shares) may be typed as "20.2%",
    "0.202" or "20.2" (a bare number above 1 is read as percent).  Otherwise the hints
    are the known mistakes whose value the answer matches, plus "unit" when a bare
    number is the answer in T/G/M/k units with the unit left off.
    """
    if question.is_choice:
        raise ValueError(f"question {question.id!r} is a choice; use check_choice")
    answer = float(question.answer)
    try:
        value = parse_quantity(text, kind=question.kind)
    except QuantityError as exc:
        return Check("unreadable", None, (), str(exc))
    bare = not _HAS_UNIT.search(str(text))
    candidates = [value]
    if question.kind == "fraction" and bare and value > 1:
        candidates.append(value / 100)
    tol = question.tolerance
    if any(_close(c, answer, tol) for c in candidates):
        return Check("correct", value)
    hints = []
    for m in question.mistakes:
        if any(_close(c, float(m.value), tol) for c in candidates) and m.key not in hints:
            hints.append(m.key)
    if bare and question.unit not in ("", "%", "FLOP/B") and not hints:
        if any(_close(value * s, answer, tol) for s in _SCALE_PREFIX):
            hints.append("unit")
    return Check("wrong", value, tuple(hints))


def check_choice(question: Question, choice: str | None) -> Check:
    """Judge a choice question: right when `choice` is question.answer; a wrong choice
    gets the hints whose mistake value is that choice."""
    if not question.is_choice:
        raise ValueError(f"question {question.id!r} is numeric; use check_answer")
    if choice is None or choice not in question.choices:
        return Check("unreadable", None, (), "no choice")
    if choice == question.answer:
        return Check("correct", choice)
    return Check("wrong", choice, tuple(m.key for m in question.mistakes if m.value == choice))


def as_device(peak_flops: float, mem_bw: float, *, sparse_headline: bool = False,
              device_id: str = "custom", precision: str = "bf16") -> Device:
    """A Device from the sidebar's numbers (FLOP/s, B/s)."""
    return Device(float(peak_flops), float(mem_bw), bool(sparse_headline), device_id, precision)


def band_keys() -> Sequence[str]:
    return BAND_KEYS



_SIGNAL_OF_VERDICT = {"idle": "gaps", "idle_data": "gaps", "small_kernels": "tiny_kernels",
                      "comm": "nccl"}
"""calc.diagnosis verdict ids -> lesson 7's choices (the chapter's three trace signals)."""


def trace_signal(trace: TraceArrays) -> tuple[str, dict[str, float]]:
    """The signal calc.diagnosis.diagnose_activity finds in the trace — the first of the
    chapter's three that fires, in checklist order (idle gaps ②, NCCL ③, tiny kernels),
    or "none" — and the numbers behind it: busy fraction, small-kernel count share, NCCL
    share of kernel time (fractions) and the small-kernel threshold (s)."""
    from calc.diagnosis import diagnose_activity

    d = diagnose_activity(trace.start, trace.duration, trace.stream, list(trace.name),
                          small_kernel_threshold_seconds=SMALL_KERNEL_SECONDS)
    fired = [_SIGNAL_OF_VERDICT[v.id] for v in d.verdicts if v.id in _SIGNAL_OF_VERDICT]
    facts = {"busy": d.busy_fraction, "small_share": d.small_kernel_count_share,
             "comm_share": d.comm_share, "threshold": d.small_kernel_threshold_seconds}
    return (fired[0] if fired else "none"), facts
