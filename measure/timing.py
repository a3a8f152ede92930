"""Timing with warm-up, repeats, a time budget and a reported spread.

Every measurement in ``measure/`` goes through :func:`time_op`:

    1. warm-up: ``warmup`` untimed calls (page faults, BLAS thread start-up, caches,
       GPU kernel selection);
    2. calibration: one timed call gives t1; a sample is ``inner`` back-to-back calls,
       inner = ceil(target_sample_s / t1), so a tiny operation (a 4 KiB copy, ~1 µs)
       is timed over ~2 ms and the timer's resolution and the Python loop do not dominate;
    3. samples: as many as fit in ``budget_s`` (at least ``min_samples``, at most
       ``max_samples``); seconds per call = sample time / inner.

The result keeps every sample. ``best`` (the shortest time per call) is the figure a
roof is built from: on a shared machine, noise only ever makes a call slower, so the
fastest repeat is the closest to what the hardware can do (as in STREAM and
``timeit``'s advice). ``median`` and the spread (max - min) / median show how noisy the
machine was. Units: seconds.
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Optional

__all__ = ["Cancelled", "Timing", "time_op"]

TARGET_SAMPLE_S = 2e-3
"""Seconds one sample should last (inner calls back to back)."""


class Cancelled(Exception):
    """A measurement was cancelled (the ``should_stop`` callable returned True)."""


@dataclass(frozen=True)
class Timing:
    """Seconds per call of every sample (s), and how many calls one sample ran."""

    seconds: tuple[float, ...]
    inner: int = 1

    @property
    def best(self) -> float:
        """Shortest seconds per call (s)."""
        return min(self.seconds)

    @property
    def median(self) -> float:
        """Median seconds per call (s)."""
        return statistics.median(self.seconds)

    @property
    def worst(self) -> float:
        """Longest seconds per call (s)."""
        return max(self.seconds)

    @property
    def spread(self) -> float:
        """(worst - best) / median: 0.05 means the samples lay within 5 % of the median."""
        return (self.worst - self.best) / self.median

    @property
    def samples(self) -> int:
        return len(self.seconds)


def time_op(fn: Callable[[], object], *, budget_s: float, warmup: int = 1,
            min_samples: int = 3, max_samples: int = 30,
            target_sample_s: float = TARGET_SAMPLE_S,
            sync: Optional[Callable[[], object]] = None,
            should_stop: Optional[Callable[[], bool]] = None,
            clock: Callable[[], float] = time.perf_counter,
            deadline: Optional[float] = None) -> Timing:
    """Time ``fn()`` (see the module docstring): warm-up, calibration, samples in a budget.

    budget_s (s) bounds the samples after the calibration call: they stop when the next
    one would end past the budget, once ``min_samples`` are taken (a call longer than
    the whole budget is still sampled ``min_samples`` times, so callers choose sizes
    that fit: :func:`measure.cpu.gemm_sweep` predicts the next size's time first).
    ``sync`` (e.g. torch.cuda.synchronize) is called after the warm-up and at the end of
    every sample, so asynchronous devices are timed to completion. ``should_stop`` is
    polled between samples; True raises :class:`Cancelled`. ``deadline`` (a ``clock()``
    time) is the hard stop of the benchmark this call belongs to: past it, sampling ends
    after the first sample, whatever ``min_samples`` says (a loaded machine keeps its bound).
    """
    if budget_s <= 0 or not math.isfinite(budget_s):
        raise ValueError(f"budget_s must be a finite number of seconds > 0, got {budget_s!r}")
    if min_samples < 1 or max_samples < min_samples:
        raise ValueError(f"need 1 <= min_samples <= max_samples, got {min_samples}, {max_samples}")

    def stop_check() -> None:
        if should_stop is not None and should_stop():
            raise Cancelled()

    def done() -> None:
        if sync is not None:
            sync()

    stop_check()
    for _ in range(warmup):
        fn()
    done()
    stop_check()
    t0 = clock()
    fn()
    done()
    t1 = max(clock() - t0, 1e-9)
    inner = max(1, math.ceil(target_sample_s / t1 - 1e-9))
    samples: list[float] = []
    start = clock()
    while len(samples) < max_samples:
        stop_check()
        s0 = clock()
        for _ in range(inner):
            fn()
        done()
        elapsed = clock() - s0
        samples.append(elapsed / inner)
        spent = clock() - start
        if len(samples) >= min_samples and spent + elapsed > budget_s:
            break
        if deadline is not None and clock() >= deadline:
            break
    return Timing(tuple(samples), inner)
