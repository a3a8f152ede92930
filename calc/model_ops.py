"""A whole transformer on the roofline: every operator of one prefill or decode step.

For one step of ``batch`` sequences, each processing ``q`` new tokens (prefill: the
prompt, decode: 1) while attending to ``c`` tokens, this module lists the operators of
each kind of transformer block of a :class:`calc.models.ModelArch`, and the few that run
once per model, each with its FLOPs and the bytes it moves under the ideal "each tensor
read or written once" traffic model (the model of :mod:`calc.kernels`):

    tokens T = batch × q

    norm (RMS/Layer)  FLOP = f·T·d                   bytes = 2·T·d·b_a + d·b_w
    QKV projection    FLOP = 2·T·d·(A_q + 2·A_kv)    bytes = d·(A_q + 2·A_kv)·b_w
                                                           + T·(d + A_q + 2·A_kv)·b_a
    rotary embedding  FLOP = 3·T·(A_q + A_kv)        bytes = 2·T·(A_q + A_kv)·b_a
    attention, fused  FLOP = 2·H·B·q·k̄·(d_qk + d_v)
                      bytes = Q + O (T·A·b_a each) + K,V read (B·c·2·A_kv·b_kv) + new K,V
    attention, unfused  QKᵀ, softmax and ·V as three kernels; the scores S and the
                      probabilities P (H·B·q·c elements each) go through memory, and all
                      q·c scores are computed even when causal
    output projection FLOP = 2·T·A·d                 bytes = A·d·b_w + T·(A + d)·b_a
    residual add      FLOP = T·d                     bytes = 3·T·d·b_a
    MLP, gated        gate and up: FLOP = 2·T·d·F each; SiLU·mul: 4·T·F; down: 2·T·F·d
    MLP, plain        up 2·T·d·F; GELU 8·T·F; down 2·T·F·d
    MoE               router 2·T·d·E; routed experts 2·T·k·(3|2)·d·F_e FLOP reading the
                      weights of the D(T) experts the batch touches
                      (calc.models.expected_distinct_experts: uniform routing);
                      shared experts as a dense MLP over every token
    embedding (once)  FLOP = 0 (a gather)            bytes = T·d·(b_w + b_a)
    LM head (once)    FLOP = 2·B·d·V                 bytes = d·V·b_w + B·(d + V)·b_a

d = d_model, A_q = heads × query head dim and A = heads × value head dim (the attention
width, PaLM appendix B: it may differ from d), A_kv = kv_heads × head_dim (GQA/MQA), F the
FFN size, E, k the routed experts and experts per token, V the vocabulary, b_w / b_a /
b_kv the bytes per weight, activation and KV element, k̄ the mean keys a query attends
(:func:`calc.models.keys_per_query`: c at decode, about (q + 1)/2 causal in prefill,
capped at a sliding window). Logits are computed for the last position only (B rows),
as serving engines do. Multi-head latent attention (DeepSeek-V2/V3) is counted at decode in
its absorbed form (DeepSeek-V2 §2.1, appendix C): the cache holds r + r_rope elements per
token and layer, shared by all heads, each head attends over it with d_qk = r + r_rope,
d_v = r, and the K/V up-projections are folded into the query and output ("mla_absorb");
at prefill in the non-absorbed, compute-friendly form engines use (vLLM
``v1/attention/backends/mla/common.py``): the prompt's latents are up-projected ("mla_absorb":
the same weights) to per-head K (d_qk = nope + rope) and V (d_v = v_head_dim), as
:func:`calc.inference.prefill` counts it.
Not counted: biases, q/k norms, dropout (all tiny next to the matmuls).

Each operator's time bound is ``max(FLOP / peak_flops, bytes / mem_bw)``
(:func:`calc.roofline.min_seconds`). With tensor parallelism over ``tp`` GPUs every
projection, expert, attention head and the LM head is split ``tp`` ways (Megatron-LM), so
per GPU each does 1/tp of its FLOPs and bytes; norms, residual adds, the router and the
embedding are replicated. K,V heads split min(tp, kv_heads) ways (with more GPUs than KV
heads each GPU keeps a copy of one), so the KV cache and the K,V weights do too; MLA's
latent cache, shared by all heads, and its down-projections (``q_a_proj``, ``kv_a_proj``)
are replicated on every GPU, as calc.placement places them. The step's time bound is the sum over operators and layers
(``ModelOps.step_seconds``); below the ridge every operator is memory-bound and the sum is
the step's bytes over the bandwidth — the Decode page's ceiling
(:func:`calc.inference.decode_step`; tests/calc/test_model_ops.py proves the two agree).
Which GPU holds what is :mod:`calc.placement`.

Sources: Williams et al. 2009 (roofline); Pope et al., "Efficiently Scaling Transformer
Inference" (2022); Chowdhery et al., PaLM (2022), appendix B; Dao et al., FlashAttention
(2022); Shoeybi et al., Megatron-LM (2019) for the tensor-parallel split; DeepSeek-AI,
DeepSeek-V2 (2024) for MLA. Units: FLOP, bytes, seconds, FLOP/s, bytes/s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from . import _validate as v
from .arch import ModelArch, expected_distinct_experts, keys_per_query
from .placement import check_tp, kv_split

__all__ = [
    "Operator",
    "ModelOps",
    "NORM_FLOPS_PER_ELEM",
    "ROPE_FLOPS_PER_ELEM",
    "SOFTMAX_FLOPS_PER_ELEM",
    "ACT_FLOPS_PER_ELEM",
    "OP_CLASSES",
    "OP_KEYS",
    "PHASES",
    "model_operators",
    "KernelMatch",
    "MATCH_CLASS",
    "match_class",
    "match_kernels",
]

NORM_FLOPS_PER_ELEM = {"rmsnorm": 4.0, "layernorm": 8.0, "layernorm-nobias": 7.0}
"""RMSNorm: square, sum, scale by 1/rms, multiply by the weight (4 per element);
LayerNorm: mean 1, variance 3, normalise 2, scale and shift 2 (8, as calc.kernels);
without the bias 7."""
ROPE_FLOPS_PER_ELEM = 3.0
"""Rotary embedding x·cos + rotate(x)·sin: two multiplies and an add per element."""
SOFTMAX_FLOPS_PER_ELEM = 5.0
"""max, subtract, exp, sum, divide (as calc.kernels.SOFTMAX_FLOPS_PER_ELEM)."""
ACT_FLOPS_PER_ELEM = {"gated": 4.0, "plain": 8.0}
"""SiLU(gate)·up: sigmoid (≈2) and two multiplies, 4 per element of F; GELU (tanh form) ≈ 8."""

PHASES = ("prefill", "decode")

OP_CLASSES = ("norm", "matmul", "attention", "elementwise", "moe", "embedding")
"""What kind of work an operator is; measured kernels are matched to operators by class."""

OP_KEYS = ("embedding", "norm_in", "qkv", "mla_absorb", "rope", "attn_fused", "attn_qk",
           "attn_softmax", "attn_pv", "o_proj", "residual_attn", "norm_post", "norm_extra",
           "router", "experts", "shared_experts", "mlp_gate", "mlp_up", "mlp_act", "mlp_down",
           "residual_mlp", "norm_final", "lm_head")
"""Every operator key, in the order of a forward pass (pages translate them)."""


@dataclass(frozen=True)
class Operator:
    """One operator of the model in one step.

    ``flops`` and ``bytes_moved`` are per GPU for ONE instance (one layer of its kind);
    ``count`` is how many times it runs in the step (the layers of that kind, or 1);
    ``weight_bytes`` and ``kv_bytes`` are the parts of ``bytes_moved`` that are weights and
    KV cache. ``key`` is one of :data:`OP_KEYS` (pages translate it); ``layer_kind`` tells
    dense / MoE / sliding-window layers apart ("model" for once-per-model operators);
    ``formula`` shows the numbers substituted; ``detail`` holds extra numbers (experts
    touched, tokens per expert, keys attended). Units: FLOP, bytes.
    """

    key: str
    op_class: str
    flops: float
    bytes_moved: float
    count: int = 1
    weight_bytes: float = 0.0
    kv_bytes: float = 0.0
    layer_kind: str = "model"
    formula: str = ""
    detail: dict = field(default_factory=dict)

    @property
    def intensity(self) -> float:
        """FLOP / byte (0 for pure data movement such as the embedding gather)."""
        return self.flops / self.bytes_moved

    def seconds(self, peak_flops: float, mem_bw: float) -> float:
        """Time bound of one instance = max(FLOP / peak_flops, bytes / mem_bw)   [s]."""
        return max(self.flops / peak_flops, self.bytes_moved / mem_bw)

    def bound(self, peak_flops: float, mem_bw: float) -> str:
        """"memory" when the byte term is the larger (or equal), else "compute"."""
        return "memory" if self.bytes_moved / mem_bw >= self.flops / peak_flops else "compute"


@dataclass(frozen=True)
class ModelOps:
    """The operators of one step and its totals, per GPU of the tensor-parallel group.

    ``step_seconds`` = Σ count · max(FLOP / peak, bytes / bw) over ``operators``;
    ``flops`` / ``bytes_moved`` / ``weight_bytes`` / ``kv_bytes`` are summed over
    operators and layers (per GPU). ``peak_flops`` and ``mem_bw`` are one GPU's.
    """

    phase: str
    batch: int
    new_tokens: int
    context: int
    tp: int
    operators: tuple
    peak_flops: float
    mem_bw: float
    step_seconds: float
    flops: float
    bytes_moved: float
    weight_bytes: float
    kv_bytes: float

    @property
    def tokens_per_s(self) -> float:
        """Decode: tokens/s of the whole batch = batch / step_seconds. Prefill: prompt
        tokens processed per second = batch · prompt / step_seconds."""
        return self.batch * self.new_tokens / self.step_seconds

    @property
    def tokens(self) -> int:
        """Tokens the step processes = batch · new tokens (T of the operator formulas)."""
        return self.batch * self.new_tokens

    @property
    def per_sequence_tokens_per_s(self) -> float:
        """Decode: the speed one request sees = 1 / step_seconds   [tokens/s]."""
        return 1.0 / self.step_seconds

    @property
    def whole_step_seconds(self) -> float:
        """The step as one kernel: max(Σ FLOP / peak, Σ bytes / bw)   [s] (≤ step_seconds;
        equal when every operator has the same bound). The Decode page's model."""
        return max(self.flops / self.peak_flops, self.bytes_moved / self.mem_bw)

    def op_seconds(self, op: Operator) -> float:
        """Time bound of all instances of ``op`` = count · max(FLOP/peak, bytes/bw)   [s]."""
        return op.count * op.seconds(self.peak_flops, self.mem_bw)

    def share(self, op: Operator) -> float:
        """Fraction of the step's time bound spent in ``op`` (all its layers), 0..1."""
        return self.op_seconds(op) / self.step_seconds


def _int(name: str, value: Any, rule: str = "positive") -> int:
    return int(v.whole(name, value, rule))


def _g(x: float) -> str:
    return f"{x:.4g}"


class _Block:
    """Collects the operators of one kind of layer (shared arguments in one place)."""

    def __init__(self, kind: str, count: int, tp: int):
        self.kind, self.count, self.tp = kind, count, tp
        self.ops: list[Operator] = []

    def add(self, key: str, cls: str, flops: float, nbytes: float, wbytes: float = 0.0,
            kvb: float = 0.0, split: bool = True, formula: str = "", **detail: Any) -> None:
        div = self.tp if split else 1
        self.ops.append(Operator(key, cls, flops / div, nbytes / div, self.count, wbytes / div,
                                 kvb / div, self.kind, formula, detail))


def _norm(blk: _Block, key: str, nf: float, T: float, d: float, bw: float, ba: float) -> None:
    nb = 2 * T * d * ba + d * bw
    blk.add(key, "norm", nf * T * d, nb, d * bw, split=False,
            formula=f"FLOP = {nf:g}·T·d = {nf:g}·{T:g}·{d:g} = {_g(nf * T * d)}; "
                    f"bytes = 2·T·d·b_a + d·b_w = {_g(nb)}")


def _mlp(blk: _Block, a: ModelArch, key_prefix: str, T: float, d: float, F: float,
         bw: float, ba: float) -> None:
    """A dense MLP of width F over T tokens: gate/up (gated) or up, activation, down."""
    gated = a.ffn_kind == "gated"
    act = ACT_FLOPS_PER_ELEM["gated" if gated else "plain"]
    for key in (("mlp_gate", "mlp_up") if gated else ("mlp_up",)):
        f = 2 * T * d * F
        nb = d * F * bw + T * (d + F) * ba
        blk.add(key, "matmul", f, nb, d * F * bw,
                formula=f"FLOP = 2·T·d·F = 2·{T:g}·{d:g}·{F:g} = {_g(f)}; "
                        f"bytes = d·F·b_w + T·(d + F)·b_a = {_g(nb)}")
    ins = 2 if gated else 1
    nb = (ins + 1) * T * F * ba
    blk.add("mlp_act", "elementwise", act * T * F, nb,
            formula=f"FLOP = {act:g}·T·F = {_g(act * T * F)}; bytes = {ins + 1}·T·F·b_a = {_g(nb)}")
    f = 2 * T * F * d
    nb = F * d * bw + T * (F + d) * ba
    blk.add("mlp_down", "matmul", f, nb, F * d * bw,
            formula=f"FLOP = 2·T·F·d = 2·{T:g}·{F:g}·{d:g} = {_g(f)}; "
                    f"bytes = F·d·b_w + T·(F + d)·b_a = {_g(nb)}")


def _attention(blk: _Block, a: ModelArch, B: int, q: int, c: int, window: int, flash: bool,
               ba: float, bkv: float) -> None:
    """The attention core of one layer (fused, or QKᵀ / softmax / ·V)."""
    H = float(a.n_heads)
    T = float(B * q)
    keys_full = float(min(c, window)) if window else float(c)
    if q == 1:
        keys = keys_full                                   # a new token sees the whole cache
    else:
        keys = float(keys_per_query(q, window, True))      # causal prompt: mean keys per query
    rep = blk.tp / kv_split(a, blk.tp)     # K,V bytes are divided by the KV split, not tp
    if a.is_mla and q == 1:
        # decode, absorbed: every head attends over the cached latent (r + r_rope)
        r, rr = float(a.kv_lora_rank), float(a.qk_rope_head_dim)
        d_qk, d_v = r + rr, r
        kv_read = B * keys_full * (r + rr) * bkv * rep
        kv_new = T * (r + rr) * bkv * rep
        k_in = v_in = 0.0
    elif a.is_mla:
        # prefill, not absorbed (as engines run it, vLLM v1/attention/backends/mla/common.py):
        # the prompt's latents are up-projected to per-head K (nope + rope) and V (v_head_dim)
        r, rr = float(a.kv_lora_rank), float(a.qk_rope_head_dim)
        d_qk, d_v = float(a.qk_nope_head_dim) + rr, float(a.v_head_dim)
        kv_read = 0.0
        kv_new = T * (r + rr) * bkv * rep                  # the latent cache is still written
        k_in = T * H * d_qk * ba
        v_in = T * H * d_v * ba
    else:
        d_qk = d_v = float(a.head_dim)
        Akv = float(a.n_kv_heads * a.head_dim)
        kv_read = B * keys_full * 2 * Akv * bkv * rep if q == 1 else 0.0
        kv_new = T * 2 * Akv * bkv * rep
        k_in = v_in = T * Akv * ba * rep if q > 1 else 0.0
    q_bytes = T * H * d_qk * ba
    o_bytes = T * H * d_v * ba
    fl = 2 * H * B * q * keys * (d_qk + d_v)
    if flash:
        nb = q_bytes + kv_read + k_in + v_in + o_bytes + kv_new
        blk.add("attn_fused", "attention", fl, nb, kvb=kv_read + kv_new,
                formula=f"FLOP = 2·H·B·q·k̄·(d_qk + d_v) = 2·{H:g}·{B}·{q}·{keys:.4g}·{d_qk + d_v:g} "
                        f"= {_g(fl)}; bytes = Q + O + K,V read ({_g(kv_read + k_in + v_in)}) + "
                        f"new K,V ({_g(kv_new)}) = {_g(nb)}", keys=keys)
        return
    pairs = B * q * keys_full                              # every score of the q×c matrix
    sc = H * pairs * ba                                    # bytes of S (and of P)
    k_read = kv_read if a.is_mla else kv_read / 2
    f1 = 2 * H * pairs * d_qk
    nb1 = q_bytes + k_read + k_in + sc + kv_new
    blk.add("attn_qk", "attention", f1, nb1, kvb=k_read + kv_new,
            formula=f"FLOP = 2·H·B·q·c·d_qk = 2·{H:g}·{B}·{q}·{keys_full:g}·{d_qk:g} = {_g(f1)}; "
                    f"bytes = Q + K + S = {_g(nb1)}", keys=keys_full)
    f2 = SOFTMAX_FLOPS_PER_ELEM * H * pairs
    blk.add("attn_softmax", "attention", f2, 2 * sc,
            formula=f"FLOP = 5·H·B·q·c = {_g(f2)}; bytes = 2·H·B·q·c·b_a (S in, P out) = {_g(2 * sc)}")
    v_read = 0.0 if a.is_mla else kv_read / 2            # MLA: the latent was read for QKᵀ
    f3 = 2 * H * pairs * d_v
    nb3 = sc + v_read + v_in + o_bytes
    blk.add("attn_pv", "attention", f3, nb3, kvb=v_read,
            formula=f"FLOP = 2·H·B·q·c·d_v = {_g(f3)}; bytes = P + V + O = {_g(nb3)}")


def _block_ops(a: ModelArch, *, kind: str, count: int, moe: bool, window: int, B: int, q: int,
               c: int, flash: bool, bw: float, ba: float, bkv: float, tp: int) -> list[Operator]:
    """The operators of one block of one kind (see the module docstring)."""
    blk = _Block(kind, count, tp)
    d = float(a.d_model)
    T = float(B * q)
    H = float(a.n_heads)
    nf = NORM_FLOPS_PER_ELEM[a.norm]
    _norm(blk, "norm_in", nf, T, d, bw, ba)

    if a.is_mla:
        r, rr, ql = float(a.kv_lora_rank), float(a.qk_rope_head_dim), float(a.q_lora_rank)
        Aq = H * (a.qk_nope_head_dim + a.qk_rope_head_dim)
        Av = H * float(a.v_head_dim)
        # Query d → q_lora → H·(nope + rope) (or d → H·(nope + rope)); KV d → r + r_rope.
        # The down-projections (d·q_lora, d·(r + r_rope)) are on every GPU, computed whole
        # (vLLM ReplicatedLinear; calc.placement.weight_split): per GPU, the up-projection's
        # 1/tp plus all of them, so the block is added per GPU (split=False).
        w_rep = (d * ql if ql else 0.0) + d * (r + rr)
        w_shard = ql * Aq if ql else d * Aq
        w = w_shard / tp + w_rep
        f = 2 * T * w
        nb = w * bw + T * ((d + Aq) / tp + r + rr) * ba
        blk.add("qkv", "matmul", f, nb, w * bw, split=False,
                formula=f"FLOP per GPU = 2·T·(query up-projection / tp + down-projections "
                        f"d·(q_lora + r + r_rope), on every GPU) = 2·{T:g}·{w:g} = {_g(f)}; "
                        f"bytes = weights·b_w + T·((d + A_q) / tp + r + r_rope)·b_a = {_g(nb)}")
        # Decode, absorbed: W_UK folded into the query (nope part → r), W_UV into the output
        # (r → d_v). Prefill, not absorbed: the same W_UK, W_UV up-project every prompt
        # token's latent to its heads' K (nope) and V: the same weights and FLOP, other traffic.
        w_abs = H * float(a.qk_nope_head_dim) * r + H * float(a.v_head_dim) * r
        f = 2 * T * w_abs
        if q == 1:
            nb = w_abs * bw + T * (H * a.qk_nope_head_dim + H * r + H * r + Av) * ba
        else:
            nb = w_abs * bw + T * (r + H * a.qk_nope_head_dim + Av) * ba
        blk.add("mla_absorb", "matmul", f, nb, w_abs * bw,
                formula=f"FLOP = 2·T·H·r·(d_nope + d_v) = 2·{T:g}·{w_abs:g} = {_g(f)}; bytes = {_g(nb)}")
        rope = T * (H * rr + rr)
    else:
        Aq = Av = H * float(a.head_dim)
        Akv = float(a.n_kv_heads * a.head_dim)
        rep = tp / kv_split(a, tp)            # K,V weights replicated when tp > KV heads
        w = d * (Aq + 2 * Akv * rep)
        f = 2 * T * w
        nb = w * bw + T * (d + Aq + 2 * Akv * rep) * ba
        blk.add("qkv", "matmul", f, nb, w * bw,
                formula=f"FLOP = 2·T·d·(A_q + 2·A_kv) = 2·{T:g}·{d:g}·({Aq:g} + 2·{Akv:g}) = {_g(f)}; "
                        f"bytes = d·(A_q + 2·A_kv)·b_w + T·(d + A_q + 2·A_kv)·b_a = {_g(nb)}")
        rope = T * (Aq + Akv)
    if not a.learned_positions:     # a learned position table (GPT-3) is added once, no RoPE
        blk.add("rope", "elementwise", ROPE_FLOPS_PER_ELEM * rope, 2 * rope * ba,
                formula=f"FLOP = 3·T·(A_q + A_kv) = {_g(ROPE_FLOPS_PER_ELEM * rope)}; "
                        f"bytes = 2·T·(A_q + A_kv)·b_a = {_g(2 * rope * ba)}")
    _attention(blk, a, B, q, c, window, flash, ba, bkv)

    wo = Av * d
    f = 2 * T * wo
    nb = wo * bw + T * (Av + d) * ba
    blk.add("o_proj", "matmul", f, nb, wo * bw,
            formula=f"FLOP = 2·T·A·d = 2·{T:g}·{Av:g}·{d:g} = {_g(f)}; "
                    f"bytes = A·d·b_w + T·(A + d)·b_a = {_g(nb)}")
    res = dict(split=False, formula=f"FLOP = T·d = {_g(T * d)}; bytes = 3·T·d·b_a = {_g(3 * T * d * ba)}")
    blk.add("residual_attn", "elementwise", T * d, 3 * T * d * ba, **res)
    if a.norms_per_layer >= 2:
        _norm(blk, "norm_post", nf, T, d, bw, ba)
    for _ in range(max(0, a.norms_per_layer - 2)):          # Gemma 2: post-norms as well
        _norm(blk, "norm_extra", nf, T, d, bw, ba)

    if moe:
        E, k = float(a.n_experts), float(a.experts_per_token)
        wr = d * E
        f = 2 * T * wr
        nb = wr * bw + T * (d + E) * ba
        blk.add("router", "moe", f, nb, wr * bw, split=False,
                formula=f"FLOP = 2·T·d·E = 2·{T:g}·{d:g}·{E:g} = {_g(f)}; bytes = d·E·b_w + T·(d + E)·b_a = {_g(nb)}")
        gated = a.ffn_kind == "gated"
        mats = 3.0 if gated else 2.0
        Fe = float(a.expert_ffn_size)
        act = ACT_FLOPS_PER_ELEM["gated" if gated else "plain"]
        hit = float(expected_distinct_experts(E, k, T))
        w_exp = mats * d * Fe
        f = 2 * T * k * w_exp + act * T * k * Fe
        nb = hit * w_exp * bw + T * k * (2 * d + (mats + 1) * Fe) * ba
        blk.add("experts", "moe", f, nb, hit * w_exp * bw,
                formula=f"FLOP = 2·T·k·{mats:g}·d·F_e + act = 2·{T:g}·{k:g}·{mats:g}·{d:g}·{Fe:g} + … = {_g(f)}; "
                        f"bytes = D·{mats:g}·d·F_e·b_w + activations, D = {hit:.3g} of {E:g} experts = {_g(nb)}",
                experts_hit=hit, tokens_per_expert=T * k / hit)
        if a.n_shared_experts:
            Fs = float(a.n_shared_experts * (a.shared_expert_ffn_size or a.expert_ffn_size))
            ws = mats * d * Fs
            f = 2 * T * ws + act * T * Fs
            nb = ws * bw + T * (2 * d + (mats + 1) * Fs) * ba
            blk.add("shared_experts", "moe", f, nb, ws * bw,
                    formula=f"FLOP = 2·T·{mats:g}·d·F_s + act = 2·{T:g}·{mats:g}·{d:g}·{Fs:g} + … = {_g(f)}; "
                            f"bytes = {mats:g}·d·F_s·b_w + activations = {_g(nb)}")
    else:
        _mlp(blk, a, "mlp", T, d, float(a.ffn_size), bw, ba)
    blk.add("residual_mlp", "elementwise", T * d, 3 * T * d * ba, **res)
    return blk.ops


def _layer_groups(a: ModelArch) -> list[tuple[str, int, bool, int]]:
    """(kind, count, is_moe, window) for each distinct kind of layer, in layer order."""
    moe_layers = set(a.moe_layer_indices)
    counts: dict[tuple[bool, int], int] = {}
    for i, w in enumerate(a.windows):
        key = (i in moe_layers, w)
        counts[key] = counts.get(key, 0) + 1
    out = []
    for (moe, w), n in counts.items():
        kind = ("moe" if moe else "dense") + ("_sliding" if w else "")
        out.append((kind, n, moe, w))
    return out


def model_operators(arch: ModelArch, *, phase: str, batch: Any, tokens: Any, peak_flops: Any,
                    mem_bw: Any, bytes_per_param: Any = 2.0, act_bytes_per_elem: Any = 2.0,
                    kv_bytes_per_elem: Any = 2.0, tp: Any = 1, flash: bool = True) -> ModelOps:
    """Every operator of one step of ``arch``, their time bounds and the step's totals.

    phase "decode": each of ``batch`` sequences generates one token attending to
    ``tokens`` cached tokens (the context length). phase "prefill": each sequence
    processes a prompt of ``tokens`` tokens, causal. peak_flops (FLOP/s) and mem_bw (B/s)
    are one GPU's; ``tp`` GPUs split the model (tensor parallel). ``bytes_per_param`` /
    ``act_bytes_per_elem`` / ``kv_bytes_per_elem``: bytes per weight, activation and KV
    element (sizes, not totals: ``ModelOps.weight_bytes`` and ``kv_bytes`` are the step's
    totals in bytes). ``flash``: fused attention
    (else QKᵀ, softmax and ·V as separate kernels). Formulas: the module docstring.
    Example (hand-checked in the tests): Llama-2-7B decode, batch 1, bf16 weights: the QKV
    projection does 2·4096·12288 = 100.7 MFLOP over 4096·12288·2 = 100.7 MB of weights,
    intensity ≈ 1 FLOP/B.
    """
    if phase not in PHASES:
        raise ValueError(f"phase must be 'prefill' or 'decode', got {phase!r}")
    if not isinstance(arch, ModelArch):
        raise ValueError(f"arch must be a calc.models.ModelArch, got {type(arch).__name__}")
    if not isinstance(flash, bool):
        raise ValueError(f"flash must be True or False, got {flash!r}")
    B = _int("batch", batch)
    n = _int("tokens", tokens)
    tp_ = check_tp(arch, tp)[0]
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    mbw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    bw = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    ba = v.number("act_bytes_per_elem", act_bytes_per_elem, "positive", "bytes")
    bkv = v.number("kv_bytes_per_elem", kv_bytes_per_elem, "positive", "bytes")
    if not all(isinstance(x, float) for x in (p, mbw, bw, ba, bkv)):
        raise ValueError("model_operators takes single numbers, not arrays")
    q, c = (1, n) if phase == "decode" else (n, n)

    ops: list[Operator] = []
    d, V, T = float(arch.d_model), float(arch.vocab_size), float(B * q)
    ops.append(Operator("embedding", "embedding", 0.0, T * d * (bw + ba), 1, T * d * bw, 0.0,
                        "model", f"FLOP = 0 (a gather of T rows); bytes = T·d·(b_w + b_a) = "
                                 f"{T:g}·{d:g}·(b_w + b_a) = {_g(T * d * (bw + ba))}"))
    for kind, count, moe, window in _layer_groups(arch):
        ops += _block_ops(arch, kind=kind, count=count, moe=moe, window=window, B=B, q=q, c=c,
                          flash=flash, bw=bw, ba=ba, bkv=bkv, tp=tp_)
    nf = NORM_FLOPS_PER_ELEM[arch.norm]
    Bf = float(B)
    ops.append(Operator("norm_final", "norm", nf * Bf * d, 2 * Bf * d * ba + d * bw, 1, d * bw, 0.0,
                        "model", f"FLOP = {nf:g}·B·d = {_g(nf * Bf * d)}; bytes = 2·B·d·b_a + d·b_w"))
    wh = d * V
    fh = 2 * Bf * wh
    nbh = wh * bw + Bf * (d + V) * ba
    ops.append(Operator("lm_head", "matmul", fh / tp_, nbh / tp_, 1, wh * bw / tp_, 0.0, "model",
                        f"FLOP = 2·B·d·V = 2·{B}·{d:g}·{V:g} = {_g(fh)}; "
                        f"bytes = d·V·b_w + B·(d + V)·b_a = {_g(nbh)}"))
    return _totals(ops, phase, B, q, c, tp_, p, mbw)


def _totals(ops: Sequence[Operator], phase: str, B: int, q: int, c: int, tp: int, p: float,
            bw: float) -> ModelOps:
    step = sum(o.count * o.seconds(p, bw) for o in ops)
    return ModelOps(phase, B, q, c, tp, tuple(ops), p, bw, step,
                    sum(o.count * o.flops for o in ops), sum(o.count * o.bytes_moved for o in ops),
                    sum(o.count * o.weight_bytes for o in ops), sum(o.count * o.kv_bytes for o in ops))


MATCH_CLASS = {"matmul": "matmul", "moe": "matmul", "attention": "attention", "norm": "norm",
               "elementwise": "elementwise", "embedding": "memory"}
"""The kind of kernel each operator class launches (the classes of
:func:`calc.diagnosis.kernel_class`): routers and experts are GEMMs, the embedding a copy."""


def match_class(op: Operator) -> str:
    """The kernel class (calc.diagnosis.CLASSES) ``op`` launches: MATCH_CLASS of its class;
    an unfused softmax is a reduction kernel."""
    return "reduction" if op.key == "attn_softmax" else MATCH_CLASS[op.op_class]


@dataclass(frozen=True)
class KernelMatch:
    """Measured kernels matched to modelled operators (arrays, one entry per kernel).

    ``op_index``: index into ``ModelOps.operators`` (-1: no operator of the kernel's
    class within a factor ``max_ratio`` of its FLOPs); ``model_seconds``: that operator's
    time bound for one instance (one layer), NaN when unmatched; ``of_bound`` =
    model_seconds / measured seconds (1 = at the roofline, > 1 = faster than the bound:
    check the numbers).
    """

    op_index: np.ndarray
    model_seconds: np.ndarray
    of_bound: np.ndarray
    seconds_per_call: Any = None     # the measured seconds ÷ calls (what was matched)


def match_kernels(model_ops: ModelOps, kernel_classes: Sequence[str], flops: Any, seconds: Any,
                  max_ratio: float = 2.0, calls: Any = None) -> KernelMatch:
    """Match measured kernels to the operators of ``model_ops``.

    A kernel of class c (from its name: :func:`calc.diagnosis.kernel_class`) is matched to
    the operator with ``match_class(op) == c`` whose per-instance FLOPs are
    closest in ratio, |log(F_kernel / F_op)| ≤ log(max_ratio); kernels without FLOPs, or
    without such an operator, stay unmatched. Then

        of_bound = max(F_op / peak, bytes_op / bw) / measured seconds

    the fraction of the modelled bound the kernel achieves. ``flops`` (FLOP) and
    ``seconds`` (s, NaN = not measured) are arrays of the kernels' length; ``calls``
    (optional; 0 counts as 1): a row summing that many identical calls is matched per call
    (FLOP and seconds ÷ calls; ``KernelMatch.seconds_per_call``). Vectorized
    over kernels (a loop over the few operator classes only).
    """
    classes = np.asarray(list(kernel_classes), dtype=object)
    f = np.asarray(v.number("flops", flops, "non_negative", "FLOP"), dtype=float).reshape(-1)
    s = np.asarray(v.number("seconds", seconds, "positive", "s", allow_nan=True), dtype=float).reshape(-1)
    if calls is not None:
        n = np.maximum(np.asarray(v.number("calls", calls, "non_negative", "calls"), dtype=float).reshape(-1), 1.0)
        f, s = f / n, s / n
    if not (classes.shape[0] == f.shape[0] == s.shape[0]):
        raise ValueError(f"kernel_classes, flops and seconds must have one entry per kernel, got "
                         f"{classes.shape[0]}, {f.shape[0]}, {s.shape[0]}")
    r = v.number("max_ratio", max_ratio, "positive")
    if not isinstance(r, float) or r < 1:
        raise ValueError(f"max_ratio must be a single number >= 1, got {max_ratio!r}")
    ops = model_ops.operators
    idx = np.full(f.shape[0], -1, dtype=int)
    op_cls = np.array([match_class(o) for o in ops], dtype=object)
    op_f = np.array([o.flops for o in ops], dtype=float)
    op_t = np.array([o.seconds(model_ops.peak_flops, model_ops.mem_bw) for o in ops], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        for cls in set(op_cls[op_f > 0]):
            cand = np.flatnonzero((op_cls == cls) & (op_f > 0))
            sel = np.flatnonzero((classes == cls) & (f > 0))
            if not sel.size:
                continue
            dist = np.abs(np.log(f[sel, None] / op_f[None, cand]))     # kernels × operators
            best = np.argmin(dist, axis=1)
            ok = dist[np.arange(sel.size), best] <= np.log(r)
            idx[sel[ok]] = cand[best[ok]]
    model_s = np.where(idx >= 0, op_t[np.maximum(idx, 0)], np.nan)
    return KernelMatch(idx, model_s, model_s / s, s)
