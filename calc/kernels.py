"""FLOP and byte counts of common kernels, for placing them on the roofline.

Each function returns a :class:`KernelCost` with ``flops`` (FLOP), ``bytes_moved``
(bytes of DRAM/HBM traffic under an ideal "every tensor read or written once"
model unless stated), a short language-neutral ``label`` (numbers and symbols
only, e.g. "GEMM 8192×8192×8192, 2 B") and a ``formula`` string showing both
formulas with the numbers substituted, e.g.
"FLOP = 2·m·n·k = 2·8192·8192·8192; bytes = (m·k + k·n + m·n)·b = ...".

The ideal traffic model is a lower bound on bytes (caches assumed perfect), so the
intensities are upper bounds: a real kernel that re-reads tiles sits further left.
Sources: Williams et al. 2009 (roofline); seed chapter 04 / chapter 03 (arithmetic
intensity); Dao et al., "FlashAttention" (2022) for the attention traffic.
Sizes are element counts; bytes_per_elem in bytes (2 for bf16/fp16, 4 for fp32...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _validate as v

__all__ = [
    "KernelCost",
    "gemm",
    "gemv",
    "elementwise",
    "reduction",
    "softmax",
    "layernorm",
    "attention",
    "SOFTMAX_FLOPS_PER_ELEM",
    "LAYERNORM_FLOPS_PER_ELEM",
]

SOFTMAX_FLOPS_PER_ELEM = 5
"""max, subtract, exp, sum, divide: one FLOP each (exp counted as one)."""
LAYERNORM_FLOPS_PER_ELEM = 8
"""mean (1), variance (3: subtract, square, add), normalise (2), scale and shift (2)."""


@dataclass(frozen=True)
class KernelCost:
    """FLOP (FLOP) and DRAM traffic (bytes) of one kernel, a short label and its formula."""

    flops: float
    bytes_moved: float
    label: str
    formula: str = ""

    @property
    def intensity(self) -> float:
        """Arithmetic intensity = flops / bytes_moved   [FLOP/byte]."""
        return self.flops / self.bytes_moved


def _n(name: str, value: Any, unit: str, rule: str = "positive") -> float:
    x = v.number(name, value, rule, unit)
    if not isinstance(x, float):
        raise ValueError(f"{name} must be a single number {v.describe_rule(rule)} ({unit}), not an array")
    return x


def _s(x: float) -> str:
    """Number as text: integers without '.0', others with up to 6 significant digits."""
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else f"{x:.6g}"


def gemm(m: Any, n: Any, k: Any, bytes_per_elem: Any = 2) -> KernelCost:
    """Matrix multiply C[m×n] = A[m×k] · B[k×n].

        FLOP  = 2·m·n·k                       (one multiply + one add per MAC)
        bytes = (m·k + k·n + m·n) · bytes_per_elem

    Traffic model: A and B are read once and C is written once (perfect tiling
    reuse; C is not read, i.e. no beta·C accumulate).  Square m = n = k:
    intensity = 2k³ / (3k²·b) = 2k / (3b), e.g. 8192 in bf16 ≈ 2731 FLOP/byte.
    Source: seed chapter 04 (6N derivation: 2mn per matrix-vector product).
    """
    M, N, K = (v.whole("m", m, unit="elements"), v.whole("n", n, unit="elements"),
               v.whole("k", k, unit="elements"))
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    flops = 2.0 * M * N * K
    nbytes = (M * K + K * N + M * N) * b
    return KernelCost(
        flops, nbytes,
        f"GEMM {_s(M)}×{_s(N)}×{_s(K)}, {_s(b)} B",
        f"FLOP = 2·m·n·k = 2·{_s(M)}·{_s(N)}·{_s(K)} = {flops:.4g}; "
        f"bytes = (m·k + k·n + m·n)·b = ({_s(M)}·{_s(K)} + {_s(K)}·{_s(N)} + {_s(M)}·{_s(N)})·{_s(b)} = {nbytes:.4g}",
    )


def gemv(m: Any, n: Any, bytes_per_elem: Any = 2) -> KernelCost:
    """Matrix-vector product y[m] = A[m×n] · x[n] (decode's typical kernel).

        FLOP  = 2·m·n
        bytes = (m·n + n + m) · bytes_per_elem

    Traffic model: the matrix is read once, x read once, y written once.
    Intensity ≈ 2 / bytes_per_elem (1 FLOP/byte in bf16): always memory-bound.
    Source: seed chapter 04 (decode reads all weights per token).
    """
    M, N = v.whole("m", m, unit="elements"), v.whole("n", n, unit="elements")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    flops = 2.0 * M * N
    nbytes = (M * N + N + M) * b
    return KernelCost(
        flops, nbytes,
        f"GEMV {_s(M)}×{_s(N)}, {_s(b)} B",
        f"FLOP = 2·m·n = 2·{_s(M)}·{_s(N)} = {flops:.4g}; "
        f"bytes = (m·n + n + m)·b = ({_s(M)}·{_s(N)} + {_s(N)} + {_s(M)})·{_s(b)} = {nbytes:.4g}",
    )


def elementwise(n: Any, bytes_per_elem: Any = 2, flops_per_elem: Any = 1, n_inputs: Any = 1,
                n_outputs: Any = 1) -> KernelCost:
    """Element-wise op over n elements (activation, add, scale, cast...).

        FLOP  = n · flops_per_elem
        bytes = n · (n_inputs + n_outputs) · bytes_per_elem

    Traffic model: each input tensor read once, each output written once, no reuse.
    Defaults describe a unary op y = f(x) (n_inputs = 1); use n_inputs = 2 for
    a + b.  Intensity is tiny (0.25 FLOP/byte for a bf16 unary op): memory-bound.
    flops_per_elem may be 0 (a copy).  Source: Williams et al. 2009.
    """
    N = v.whole("n", n, unit="elements")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    f = _n("flops_per_elem", flops_per_elem, "FLOP per element", "non_negative")
    i = v.whole("n_inputs", n_inputs, "non_negative", "tensors")
    o = v.whole("n_outputs", n_outputs, "non_negative", "tensors")
    if i + o <= 0:
        raise ValueError("n_inputs + n_outputs must be > 0 (tensors), got 0")
    flops = N * f
    nbytes = N * (i + o) * b
    return KernelCost(
        flops, nbytes,
        f"elementwise {_s(N)}, {_s(b)} B",
        f"FLOP = n·f = {_s(N)}·{_s(f)} = {flops:.4g}; "
        f"bytes = n·(inputs + outputs)·b = {_s(N)}·({_s(i)} + {_s(o)})·{_s(b)} = {nbytes:.4g}",
    )


def reduction(n: Any, bytes_per_elem: Any = 2) -> KernelCost:
    """Sum of n elements to one value (numpy.sum, torch.sum over a flat tensor).

        FLOP  = n - 1                  (one add per element after the first)
        bytes = (n + 1) · bytes_per_elem   (the input read once, the result written once)

    Intensity ≈ 1 / bytes_per_elem (1/8 FLOP/byte in fp64): always memory-bound.
    n must be >= 2 (a sum of one number does no arithmetic).  Source: Williams et al. 2009.
    """
    N = v.whole("n", n, unit="elements")
    if N < 2:
        raise ValueError(f"n must be >= 2 elements (a sum of one number has no FLOP), got {n!r}")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    flops = N - 1.0
    nbytes = (N + 1.0) * b
    return KernelCost(
        flops, nbytes,
        f"sum {_s(N)}, {_s(b)} B",
        f"FLOP = n − 1 = {_s(N)} − 1 = {flops:.4g}; "
        f"bytes = (n + 1)·b = ({_s(N)} + 1)·{_s(b)} = {nbytes:.4g}",
    )


def softmax(rows: Any, cols: Any, bytes_per_elem: Any = 2) -> KernelCost:
    """Row-wise softmax of a rows×cols matrix (fused, one pass over memory).

        FLOP  = 5 · rows · cols         (max, subtract, exp, sum, divide)
        bytes = 2 · rows · cols · bytes_per_elem

    Traffic model: the input is read once and the output written once (a fused
    kernel keeping each row on chip).  Source: Milakov & Gimelshein, "Online
    normalizer calculation for softmax" (2018); Williams et al. 2009.
    """
    R, C = v.whole("rows", rows, unit="elements"), v.whole("cols", cols, unit="elements")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    flops = SOFTMAX_FLOPS_PER_ELEM * R * C
    nbytes = 2.0 * R * C * b
    return KernelCost(
        flops, nbytes,
        f"softmax {_s(R)}×{_s(C)}, {_s(b)} B",
        f"FLOP = 5·rows·cols = 5·{_s(R)}·{_s(C)} = {flops:.4g}; "
        f"bytes = 2·rows·cols·b = 2·{_s(R)}·{_s(C)}·{_s(b)} = {nbytes:.4g}",
    )


def layernorm(rows: Any, cols: Any, bytes_per_elem: Any = 2) -> KernelCost:
    """LayerNorm over the last dimension of a rows×cols matrix (fused).

        FLOP  = 8 · rows · cols         (mean 1, variance 3, normalise 2, scale+shift 2)
        bytes = (2 · rows · cols + 2 · cols) · bytes_per_elem

    Traffic model: input read once, output written once, gamma and beta (cols
    each) read once.  Source: Ba et al., "Layer Normalization" (2016); Williams et al. 2009.
    """
    R, C = v.whole("rows", rows, unit="elements"), v.whole("cols", cols, unit="elements")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    flops = LAYERNORM_FLOPS_PER_ELEM * R * C
    nbytes = (2.0 * R * C + 2.0 * C) * b
    return KernelCost(
        flops, nbytes,
        f"LayerNorm {_s(R)}×{_s(C)}, {_s(b)} B",
        f"FLOP = 8·rows·cols = 8·{_s(R)}·{_s(C)} = {flops:.4g}; "
        f"bytes = (2·rows·cols + 2·cols)·b = (2·{_s(R)}·{_s(C)} + 2·{_s(C)})·{_s(b)} = {nbytes:.4g}",
    )


def attention(batch: Any, heads: Any, seq_len: Any, head_dim: Any, bytes_per_elem: Any = 2,
              flash: bool = True, causal: bool = False) -> KernelCost:
    """Self-attention core softmax(Q·Kᵀ/√d)·V for batch × heads, seq_len s, head_dim d.

        FLOP  = 4 · batch · heads · s² · d        (Q·Kᵀ: 2·s²·d, P·V: 2·s²·d)
                halved when causal and flash (masked blocks are skipped)

        flash=True  (FlashAttention, fused):
            bytes = 4 · batch · heads · s · d · b           (read Q, K, V; write O once)
        flash=False (standard, the s×s matrix goes through HBM):
            bytes = (4 · s · d + 4 · s²) · batch · heads · b
            (Q, K, V, O once, plus S written, S read, P written, P read: 4·s²)

    Softmax FLOP are not counted (as in the FlashAttention paper).  A non-flash
    causal kernel still computes and stores the full s×s matrix, so causal only
    changes the flash case.  The flash byte count is a lower bound (K and V tiles
    are re-read once per query block when s·d exceeds on-chip memory).
    Source: Dao et al., "FlashAttention" (2022), §3.2 and Theorem 2.
    """
    B = v.whole("batch", batch, unit="sequences")
    H = v.whole("heads", heads, unit="heads")
    S = v.whole("seq_len", seq_len, unit="tokens")
    D = v.whole("head_dim", head_dim, unit="elements")
    b = _n("bytes_per_elem", bytes_per_elem, "bytes")
    if not isinstance(flash, bool):
        raise ValueError(f"flash must be True or False, got {flash!r}")
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    half = causal and flash
    flops = 4.0 * B * H * S * S * D * (0.5 if half else 1.0)
    f_text = (f"FLOP = 4·batch·heads·s²·d{'/2' if half else ''} = 4·{_s(B)}·{_s(H)}·{_s(S)}²·{_s(D)}"
              f"{'/2' if half else ''} = {flops:.4g}")
    if flash:
        nbytes = 4.0 * B * H * S * D * b
        b_text = (f"bytes = 4·batch·heads·s·d·b = 4·{_s(B)}·{_s(H)}·{_s(S)}·{_s(D)}·{_s(b)} = {nbytes:.4g}")
    else:
        nbytes = (4.0 * S * D + 4.0 * S * S) * B * H * b
        b_text = (f"bytes = (4·s·d + 4·s²)·batch·heads·b = (4·{_s(S)}·{_s(D)} + 4·{_s(S)}²)·{_s(B)}·{_s(H)}·{_s(b)}"
                  f" = {nbytes:.4g}")
    name = "FlashAttention" if flash else "attention"
    return KernelCost(
        flops, nbytes,
        f"{name} {_s(B)}×{_s(H)}×{_s(S)}×{_s(D)}, {_s(b)} B{', causal' if causal else ''}",
        f"{f_text}; {b_text}",
    )
