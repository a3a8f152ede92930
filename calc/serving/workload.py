"""The traffic a serving plan is sized for: prompt and answer lengths, prefix-cache hits,
and how requests arrive (a Poisson rate, or a fixed number in flight as benchmarks run).

Definitions used everywhere in :mod:`calc.serving` (and stated on the Serving page):

* throughput counts **output (generated) tokens** unless a label says input + output;
* **TTFT** (time to first token) runs from a request's arrival to its first output token:
  queueing + prefill (+ the KV transfer when prefill and decode are disaggregated);
* **TPOT** (time per output token) is the mean time between output tokens after the first:
  (finish − first token) / (output tokens − 1);
* tokens/s **per user** = 1 / TPOT;  tokens/s **per GPU** = output tokens/s ÷ GPUs.

Sources: vLLM ``benchmarks/benchmark_serving.py`` (TTFT, TPOT and ITL as measured by
serving benchmarks); NVIDIA aiconfigurator README (the same definitions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

__all__ = ["DISTRIBUTIONS", "Workload", "sample_lengths", "context_overflow"]

DISTRIBUTIONS = ("fixed", "uniform", "lognormal")


@dataclass(frozen=True)
class Workload:
    """Prompt (``isl``) and answer (``osl``) lengths in tokens, their distribution, the
    share of prompt tokens served from the prefix cache, and the arrivals.

    distribution "fixed": every request has the means; "uniform": isl and osl uniform on
    mean · [1 − spread, 1 + spread] (0 <= spread < 1); "lognormal": lognormal with these
    means and σ = spread of log-length.  Exactly one of ``request_rate`` (requests/s,
    Poisson arrivals) and ``concurrency`` (requests in flight, closed loop) may be given;
    neither: the analytic curve over batch sizes.
    """
    isl: float = 4000.0
    osl: float = 500.0
    distribution: str = "fixed"
    spread: float = 0.0
    prefix_hit: float = 0.0
    request_rate: Optional[float] = None
    concurrency: Optional[int] = None

    def __post_init__(self) -> None:
        for name in ("isl", "osl"):
            val = getattr(self, name)
            if isinstance(val, bool) or not isinstance(val, (int, float)) or not np.isfinite(val) or val < 1:
                raise ValueError(f"{name} must be a number of tokens >= 1, got {val!r}")
        if self.osl < 2:
            raise ValueError(f"osl must be at least 2 tokens (TPOT is the time between output tokens), got {self.osl!r}")
        if self.distribution not in DISTRIBUTIONS:
            raise ValueError(f"distribution must be one of {', '.join(DISTRIBUTIONS)}, got {self.distribution!r}")
        hi = 1.0 if self.distribution == "uniform" else 3.0
        if not (0.0 <= self.spread < hi):
            raise ValueError(f"spread must be in [0, {hi:g}) for a {self.distribution} distribution, got {self.spread!r}")
        if not (0.0 <= self.prefix_hit < 1.0):
            raise ValueError(f"prefix_hit must be a fraction in [0, 1), got {self.prefix_hit!r}")
        if self.request_rate is not None and self.concurrency is not None:
            raise ValueError("give a request rate or a concurrency, not both")
        if self.request_rate is not None and not (self.request_rate > 0 and np.isfinite(self.request_rate)):
            raise ValueError(f"request_rate must be > 0 requests/s, got {self.request_rate!r}")
        if self.concurrency is not None and (not isinstance(self.concurrency, (int, np.integer)) or self.concurrency < 1):
            raise ValueError(f"concurrency must be a whole number of requests >= 1, got {self.concurrency!r}")

    @property
    def cached_tokens(self) -> float:
        """Prompt tokens served from the prefix cache (mean)."""
        return self.isl * self.prefix_hit

    @property
    def new_tokens(self) -> float:
        """Prompt tokens that are prefilled (mean): isl · (1 − prefix_hit)."""
        return self.isl - self.cached_tokens

    @property
    def context_len(self) -> float:
        """Tokens a sequence holds at its end: isl + osl (what its KV cache needs)."""
        return self.isl + self.osl

    @property
    def decode_context(self) -> float:
        """Mean context while decoding: isl + osl / 2."""
        return self.isl + self.osl / 2.0


def _draw(mean: float, wl: Workload, n: int, rng: np.random.Generator) -> np.ndarray:
    if wl.distribution == "fixed" or wl.spread == 0:
        x = np.full(n, float(mean))
    elif wl.distribution == "uniform":
        x = rng.uniform(mean * (1 - wl.spread), mean * (1 + wl.spread), n)
    else:  # lognormal with this mean: mu = ln(mean) − σ²/2
        s = wl.spread
        x = rng.lognormal(np.log(mean) - 0.5 * s * s, s, n)
    return np.maximum(np.rint(x), 1.0)


def sample_lengths(wl: Workload, n: int, rng: np.random.Generator):
    """``n`` (isl, osl) pairs drawn from the workload's distribution, whole tokens (osl >= 2)."""
    isl = _draw(wl.isl, wl, n, rng)
    osl = np.maximum(_draw(wl.osl, wl, n, rng), 2.0)
    return isl, osl


def context_overflow(arch, isl: float, osl: float) -> Optional[int]:
    """The model's context length (tokens) when a request of ``isl`` prompt + ``osl`` output
    tokens does not fit in it, else None (it fits, or the architecture gives no
    ``context_length``: 0).  An engine refuses such a request (vLLM: ``max_model_len``), so
    no deployment serves it.  Source: the model's ``max_position_embeddings`` in models.toml."""
    limit = int(getattr(arch, "context_length", 0) or 0)
    return limit if limit > 0 and float(isl) + float(osl) > limit else None
