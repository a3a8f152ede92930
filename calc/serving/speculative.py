"""Speculative decoding: a cheap draft proposes γ tokens, the target verifies them in one
forward pass, and on average (1 − α^(γ+1)) / (1 − α) tokens are accepted per pass.

The acceptance rate α and the draft length γ are inputs: α depends on the draft, the
target and the text (no default here; the page says where a value comes from — e.g. the
EAGLE and Medusa papers measure α per task).
Source: Leviathan, Kalman & Matias, "Fast Inference from Transformers via Speculative
Decoding", ICML 2023, Theorem 3.8 (i.i.d. acceptance with rate α).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from .. import _validate as v
from ..arch import ModelArch

__all__ = ["SPEC_METHODS", "SpecDecode", "expected_tokens_per_step", "sample_passes", "draft_tp"]

SPEC_METHODS = ("draft", "mtp")


def expected_tokens_per_step(alpha: Any, gamma: Any):
    """Expected tokens one verification pass yields   [tokens/step].

        E = (1 − α^(γ+1)) / (1 − α)          α < 1;   E = γ + 1 at α = 1

    α = 0.8, γ = 4: (1 − 0.8⁵) / 0.2 = (1 − 0.32768) / 0.2 = 3.3616.  γ = 0: 1.
    Accepts arrays.  Source: Leviathan et al. 2023, Thm 3.8.
    """
    a = np.asarray(v.number("alpha", alpha, "non_negative", "acceptance rate"), dtype=float)
    g = np.asarray(v.number("gamma", gamma, "non_negative", "draft tokens"), dtype=float)
    if np.any(a > 1):
        raise ValueError(f"alpha must be an acceptance rate in [0, 1], got {alpha!r}")
    safe = np.where(a < 1.0, a, 0.5)
    e = np.where(a < 1.0, (1.0 - np.power(safe, g + 1.0)) / (1.0 - safe), g + 1.0)
    return float(e) if e.ndim == 0 else e


def sample_passes(tokens: Any, alpha: float, gamma: int, rng: np.random.Generator,
                  block: int = 64) -> np.ndarray:
    """Verification passes each request needs to yield ``tokens`` tokens (an array, one per
    request), drawn from Leviathan et al.'s i.i.d. acceptance   [passes].

        tokens of one pass  X = 1 + min(G, γ),   P(G = k) = α^k (1 − α)   (k = 0, 1, …)
        passes              n = min{m : X_1 + … + X_m ≥ tokens}

    G: the draft tokens accepted before the first rejection; the pass yields them plus one
    token of the target's own (the correction, or the bonus token when all γ are accepted),
    so E[X] = Σ_{k ≤ γ} α^k = :func:`expected_tokens_per_step`.  The last pass may yield
    more than the request still needs (the engine stops at its length).  α = 1: every pass
    yields γ + 1, n = ⌈tokens / (γ + 1)⌉; α = 0: n = tokens.  ``block`` passes are drawn at
    a time for the requests still short of their tokens.  Source: Leviathan et al. 2023,
    §3.1 and Thm 3.8.
    """
    need = np.asarray(tokens, dtype=float)
    if not (0.0 <= float(alpha) <= 1.0):
        raise ValueError(f"alpha must be an acceptance rate in [0, 1], got {alpha!r}")
    g = int(gamma)
    if float(alpha) >= 1.0:
        return np.ceil(need / (g + 1.0))
    if float(alpha) <= 0.0:
        return np.ceil(need)
    passes = np.zeros(need.shape, dtype=float)
    left = need.copy()
    todo = np.nonzero(left > 0)[0]
    while todo.size:
        x = 1.0 + np.minimum(rng.geometric(1.0 - float(alpha), size=(todo.size, block)) - 1, g)
        cum = np.cumsum(x, axis=1)
        reached = cum >= left[todo, None]
        hit = reached.any(axis=1)
        first = np.argmax(reached, axis=1)
        passes[todo[hit]] += first[hit] + 1.0
        passes[todo[~hit]] += block
        left[todo[~hit]] -= cum[~hit, -1]
        todo = todo[~hit]
    return passes


@dataclass(frozen=True)
class SpecDecode:
    """One speculative-decoding setup.

    method "draft": a separate ``draft`` model (a catalog ModelArch) runs γ decode steps on
    the same GPUs; "mtp": the target's multi-token-prediction module (DeepSeek-V3 §2.2:
    one transformer block per extra token) drafts, costing one layer of the target per
    draft token.  alpha: acceptance rate, gamma: draft tokens per pass, alpha_source: where
    α comes from (shown beside the result).
    """
    method: str
    alpha: float
    gamma: int
    draft: Optional[ModelArch] = None
    alpha_source: str = ""

    def __post_init__(self) -> None:
        if self.method not in SPEC_METHODS:
            raise ValueError(f"method must be one of {', '.join(SPEC_METHODS)}, got {self.method!r}")
        if not (0.0 <= float(self.alpha) <= 1.0):
            raise ValueError(f"alpha must be an acceptance rate in [0, 1], got {self.alpha!r}")
        if not isinstance(self.gamma, (int, np.integer)) or self.gamma < 1:
            raise ValueError(f"gamma must be a whole number of draft tokens >= 1, got {self.gamma!r}")
        if self.method == "draft" and self.draft is None:
            raise ValueError("a draft model is needed for method 'draft' (or choose 'mtp')")

    @property
    def tokens_per_step(self) -> float:
        return expected_tokens_per_step(self.alpha, self.gamma)


def draft_tp(draft: ModelArch, tp: int) -> int:
    """The tensor-parallel size a draft model runs at on a replica of ``tp`` GPUs: the
    largest t <= tp that divides the draft's heads."""
    for t in range(int(tp), 0, -1):
        if draft.n_heads % t == 0:
            return t
    return 1
