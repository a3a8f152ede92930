"""The analytic steady state of one replica: TPOT, TTFT and throughput against batch.

Aggregated (continuous batching with chunked prefill, token budget T per step).  B
sequences decode; each request's n_new = isl·(1 − hit) prompt tokens are prefilled in
n_c = ceil(n_new / (T − B)) chunks of n_new / n_c tokens, each chunk riding in one step
with the B decode tokens.  B requests finish every osl steps, so a = B / osl prompts
arrive per step.  While a·n_c <= 1, a·n_c of the steps carry one chunk; beyond, every step
packs the a·n_new prompt tokens that arrive per step (vLLM and TensorRT-LLM fill the budget
with as many waiting prompts as fit), so

    f       = min(a · n_c, 1)                      (share of steps with prompt tokens)
    chunk   = max(n_new / n_c, a · n_new)          (prompt tokens in such a step; <= T − B)
    step    = (1 − f) · t(B, 0) + f · t(B, chunk)    t = calc.serving.replica.step_time
    TPOT    = step / E                              E = tokens per step (1, or speculative)
    TTFT    = n_c · t(B, chunk)                     (no queueing: a closed loop's)
    tokens/s per GPU = B / TPOT / tp;   requests/s = B / (TPOT · osl)

(a closed loop's; under open arrivals TPOT is a request's mean, a little above step / E:
"A request's passes" below).

Under Poisson arrivals at that rate λ = requests/s a prompt waits twice before its own n_c
steps.  The engine schedules between steps (iteration-level scheduling, Orca), so it waits
for the step in flight to end: the mean residual life of the steps (renewal theory,
Kleinrock vol. 1 §5.2), which counts the long prompt-carrying steps by their length,

    R       = E[S²] / (2 E[S]) = ((1 − f) · t(B, 0)² + f · t(B, chunk)²) / (2 · step)

and it waits for the prompt tokens ahead of it.  The budget's T − B prompt tokens per step
serve every waiting prompt FCFS, packing several in a step and splitting one over several
(vLLM, Sarathi-Serve), so the prompt work is one server that takes a prompt's n_new tokens in

    S_w     = n_new · t(B, T − B) / (T − B)          (seconds of full-budget steps)

and the wait for the work ahead is M/D/1's (Pollaczek–Khinchine,
:func:`calc.serving.queueing.mdc_wait_seconds`), ρ = λ · S_w:

    TTFT_q  = TTFT + R + ρ · S_w / (2 (1 − ρ))         ``ttft_queued_seconds``

and a percentile (p90) takes that quantile of the M/D/1 wait instead
(:func:`calc.serving.queueing.mdc_wait_quantile`, ``AggregatedCurve.queued_ttft(0.9)``);
:func:`prompt_queue_ttft` adds the terms.  ρ < 1 holds while λ · n_new < (T − B) / t(B, T − B):
the prompt tokens arrive more slowly than full steps take them.  Packed batches (a · n_c > 1)
get a finite TTFT this way; the one-prompt-at-a-time queue it replaces was saturated there
and read TTFT 2.7× the engine simulator's at 128 / 128 tokens and 90 % load.

Random arrivals (``arrivals="poisson"``, the default: a serving benchmark at a request
rate).  The formulas above spread the prompt work evenly, a · n_new tokens in every pass
("fluid": right for a closed loop, where a prompt enters as a sequence finishes, and for
an offline run).  Under Poisson arrivals at λ the prompts that enter a pass are those that
arrived during the pass before, K' ~ Poisson(λ · t(K)), and a step's time is convex in its
prompt tokens (a pass with none is memory-bound, one with many compute-bound), so the mean
step is not the step of the mean.  The mean of K is a (λ = a / step).  Its spread exceeds
Poisson(a)'s, because a long pass lets more prompts in: with t(K) ≈ step + s · (K − a),
s = E[t(K + 1) − t(K)] the step one more prompt adds, the stationary variance solves
Var = a + (λ s)² · Var:

    Var[K]  = a / (1 − u²),   u = λ · s = a · s / step        (u <= OVERDISPERSION_MAX)
    p_k     = NegBin(mean a, variance Var[K])                   (Poisson(a) at u = 0)

from p = Poisson(a), OVERDISPERSION_ITERATIONS fixed-point passes (the chain itself, run
pass by pass, gives the same mean step within 1 %: tests/calc/test_serving.py).  Where a
prompt fits one step (n_c = 1, room = T − B):

    step    = Σ_k p_k · t(B, min(k · n_new, room)) + carry
    carry   = max(k · n_new − room, 0) · (t(B, room) − t(B, room − n_new)) / n_new
    R       = Σ_k p_k · t_k² / (2 · step)                      (same mix of steps)
    TTFT    = Σ_j Poisson(a/2)_j · t(B, (j + 1) · n_new)       (the tagged prompt's own pass)

Prompts beyond the budget carry into later passes at the last prompt's cost in a full
step.  The tagged prompt shares its pass with the others that arrived during the step in
flight; those that arrived before it count in the M/D/1 wait for the work ahead, so its
own pass carries 1 + Poisson(a/2) prompts (a/2: it arrives on average half-way through the
residual; counting Poisson(a) read TTFT 4-16 % high, a double count).  Against the
simulator (:mod:`calc.serving.simulate`, the same steps event by event; six runs of 12,000
requests, four workloads from 128 / 128 to 4,000 / 500 tokens on Llama 3.1 8B and 70B,
Qwen3 32B; bench/steady_vs_simulator.py) the mean TPOT (with the request's passes, below) is
0.95-1.00 × the simulator's at 0.3-0.7 of the curve's capacity and 0.94-0.98 × at 0.9
(Poisson(a) per pass read 0.85-0.96 × there), the mean TTFT 0.89-1.12 × (README, "Where the steady state and the
simulator part"; tests/calc/test_serving.py).  Nearer capacity a small difference in rate
is a large one in batch, and the simulated TTFT grows without bound
(:data:`calc.serving.plan.STEADY_STATE_LOAD_LIMIT`).  Prompts of several chunks (n_c > 1)
keep the fluid spread.

A request's passes (open arrivals; a closed loop holds B fixed).  ``step`` is the mean pass,
and Little's law on the passes gives the rate, requests/s = B / (step / E · osl).  But a
request's TPOT is the mean of the L = osl / E passes it decodes in, and a pass with more
sequences in it is counted by more requests, so the mean request TPOT is E[B_n t_n] / E[B_n]
= step + Cov(B_n, t_n) / B, with B_n the prompts of the L passes before pass n.  K's
correlation from pass to pass is ρ = λ · Cov(K, t) / Var(K) (the chain's regression), so

    Cov(B, t) = Cov(K, t) · ρ (1 − ρ^L) / (1 − ρ)     (the prompts' clustering)
              + t_B · L · Var(K) · (1 + ρ) / (1 − ρ) / (1 − u)   (the batch's spread × the step per sequence)
    TPOT      = (step + Cov(B, t) / B) / E            ``tpot_seconds``; tokens/s per GPU B·E / step / tp

t_B = t(B + 1) − t(B) at the pass mix (decode passes and passes with the mean prompt
tokens); where a prompt spans several passes K is taken as Poisson (Var = a, no
clustering: Var(B) = B / (1 − u)).  u = B · t_B / step, the share of the pass that grows with
the batch: a pass made longer by more sequences lets more prompts in, so the batch is
over-dispersed by 1 / (1 − u), as a decode instance's processor-shared pass is (the last
paragraph below; added 2026-12-07, it moved the TPOT column of the README's table up by
0-1 point and made none of it exceed 1.00).  In the simulator the mean pass is within 1-2 % of ``step`` and
the mean request TPOT 4-7 % above it for prompts of 2,000-4,000 tokens at 0.5-0.7 of
capacity; the clustering term gives 0.6-1.6 % (the chain run pass by pass agrees within
1 %, tests/calc/test_serving.py), the spread term about 2-3 %, and the steady state's TPOT
moved from 0.92-0.96 to 0.95-0.99 × the simulator's there.  The rest was not found.

a · n_new > T − B means the prefills need more tokens than the budget leaves: that batch is
not reported.

Disaggregated (DistServe, Zhong et al. 2024; Splitwise, Patel et al. 2024): prefill
instances of tp_p GPUs run k prompts per step (1 ≤ k ≤ max(1, floor(T / n_new)), the
smallest k within PREFILL_BATCH_GAIN of the best r_p among those that meet the TTFT target:
a compute-bound prefill gains nothing from batching, and each extra prompt adds its step to
every TTFT), decode instances of tp_d GPUs run pure decode steps at batch B.

    TTFT     = t_p(k · n_new) + KV transfer           transfer = KV(isl) / kv_split / (bw · η) + α
    r_p      = k / t_p(k · n_new)                     requests/s per prefill instance
    TPOT     = t(B + 1) / E                          a request's mean (below); t(B) / E in a closed loop
    r_d      = B / (TPOT · osl)                       requests/s per decode instance
    ratio    = r_d / r_p                              prefill instances per decode instance
    tokens/s per GPU = osl / (tp_p / r_p + tp_d / r_d)

The transfer is one point-to-point message per GPU on the prefill device's scale-out tier
(:func:`calc.serving.replica.replica_network`, timed by
:func:`calc.parallel.network.collective_seconds`); the bound hides it.  A pool of n prefill
instances under Poisson arrivals at λ is n · k servers of t_p(k · n_new) each (M/D/c):
mean TTFT = TTFT + :func:`calc.serving.queueing.mdc_wait_seconds` (λ, t_p, n · k)
(:func:`prefill_pool_ttft`).

A decode instance's passes carry no prompt work, so of "A request's passes" only the
batch's spread is left.  Every sequence in flight gains E tokens per pass, and a pass of B
sequences takes t(B) = t_0 + t_B · B (weights read once, t_B = t(B + 1) − t(B) each
sequence's KV and FLOP): a symmetric queue whose B customers share one server equally
(generalized processor sharing).  Under random arrivals (``arrivals="poisson"``) at λ its
count B is insensitive to the number of passes a request needs (fixed here, osl / E: Kelly
1979, *Reversibility and Stochastic Networks* §3.3; Cohen 1979), the birth-death chain of
rates λ and B / (L · t(B)), negative binomial with u = λ · L · t_B.  A request's time in
flight is then, by Little's law with B the time-average number in flight,

    L · TPOT = B / λ = L · t_B · (t_0 / t_B + 1 + B)   ⇒   TPOT = t(B + 1) / E

exactly for a step linear in B: a request shares its passes with itself and B others, so it
sees one more sequence than the mean (a convex step adds a little more).  The chain run pass
by pass agrees within 0.3 % (tests/calc/test_serving.py).  A closed loop (``"fluid"``)
holds B and has no spread: TPOT = t(B) / E.  The prefill pool's prompts reach the decode
instances as they finish; they are taken as random, like the requests reaching an
aggregated replica (a router that balances the instances' batches would spread them less).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Optional

import numpy as np

from ..parallel.network import collective_seconds
from .replica import (BOUND, Efficiency, Replica, prefill_flops_per_token, replica_memory,
                      replica_network, step_time)
from .queueing import queue_wait
from .speculative import SpecDecode, draft_tp
from .workload import Workload

__all__ = ["AggregatedCurve", "aggregated_curve", "DisaggregatedPoint", "prefill_pool",
           "prefill_pool_ttft", "prompt_queue_ttft", "decode_pool", "disaggregated", "decode_pass"]


def tokens_per_pass(spec: Optional[SpecDecode]) -> float:
    """Tokens a sequence gains per decode pass, E: 1 without speculation, else
    :attr:`calc.serving.speculative.SpecDecode.tokens_per_step`."""
    return 1.0 if spec is None else float(spec.tokens_per_step)


def decode_pass(r: Replica, batch: Any, context_len: float, eff: Efficiency,
                spec: Optional[SpecDecode] = None, prefill_tokens: Any = 0.0,
                prefill_flops_token: float = 0.0):
    """One decode pass of ``batch`` sequences: (seconds, tokens per sequence, StepTime).

    Without speculation: one step_time, 1 token.  With it: the target verifies γ + 1
    tokens per sequence in one pass (weights and KV read once, FLOP × (γ+1): the γ draft
    tokens enter as prompt-like tokens of 2·N_active + A_dec(c) FLOP), and the draft costs
    γ decode steps of the draft model on the same GPUs ("draft"), or γ × one layer of the
    target ("mtp", DeepSeek-V3 §2.2); tokens per pass E = (1 − α^(γ+1)) / (1 − α).
    """
    if spec is None:
        st = step_time(r, batch, context_len, prefill_tokens, prefill_flops_token, eff)
        return np.asarray(st.seconds), tokens_per_pass(spec), st
    B = np.asarray(batch, dtype=float)
    g = float(spec.gamma)
    per_tok = float(step_time(r, 1.0, context_len, 0.0, 0.0, BOUND).flops)   # (2N + A_dec) per GPU
    # verification: B decode tokens + B·γ draft tokens of the same FLOP; prompt chunk on top
    P = np.asarray(prefill_tokens, dtype=float)
    flops_extra = (B * g * per_tok + P * prefill_flops_token) / np.maximum(B * g + P, 1e-30)
    st = step_time(r, B, context_len, B * g + P, flops_extra, eff)
    if spec.method == "draft":
        d = Replica(arch=spec.draft, device=r.device, tp=draft_tp(spec.draft, r.tp),
                    weights=r.weights, kv=r.kv, act=r.act)
        t_draft = g * np.asarray(step_time(d, B, context_len, 0.0, 0.0, eff).seconds)
    else:
        base = np.asarray(step_time(r, B, context_len, 0.0, 0.0, eff).seconds)
        t_draft = g * base / r.arch.n_layers
    return np.asarray(st.seconds) + t_draft, tokens_per_pass(spec), st


@dataclass(frozen=True)
class AggregatedCurve:
    """The aggregated steady state of one replica over batch sizes (arrays, one per batch).

    Only batches that fit in the KV budget (and whose prefills fit in the token budget)
    are kept.  ``bound`` names what sets each point's step: weights, kv, compute, network.
    """
    replica: Replica
    workload: Workload
    efficiency: Efficiency
    token_budget: int
    max_seqs: int
    batch: np.ndarray
    tpot_seconds: np.ndarray
    ttft_seconds: np.ndarray         # no queueing (a closed loop at this batch)
    ttft_queued_seconds: np.ndarray  # mean, Poisson arrivals at requests_per_s (prompt_queue_ttft)
    step_seconds: np.ndarray
    prompt_seconds: np.ndarray       # S_w, full-budget step seconds per prompt's n_new tokens
    residual_seconds: np.ndarray     # R, mean rest of the step in flight at an arrival
    chunk_share: np.ndarray          # f, share of steps carrying a prefill chunk
    tokens_per_s_per_gpu: np.ndarray
    tokens_per_s_per_user: np.ndarray
    requests_per_s: np.ndarray       # per replica
    kv_bytes_per_gpu: np.ndarray     # KV of the batch at full context, one GPU
    memory_bytes_per_gpu: np.ndarray  # weights + KV of the batch, one GPU
    bound: np.ndarray
    fits: bool                       # at least one sequence fits
    arrivals: str = "poisson"        # how prompts enter the passes ("poisson" or "fluid")
    spec: Optional[SpecDecode] = None  # the speculative decoding it was computed with

    def at(self, batches: Any) -> "AggregatedCurve":
        """The points of this curve at the batch sizes ``batches`` (those it holds), for a
        chart's coarse grid cut from a sizing's every batch.  Each point of
        :func:`aggregated_curve` is computed from its own batch alone (each row's prompt
        counts stop at its own k_b, ``_random_prompt_steps``), so the cut equals the curve
        computed at those batches (to rounding, 1e-14)."""
        keep = np.isin(self.batch, np.asarray(batches, dtype=float))
        return replace(self, **{f.name: getattr(self, f.name)[keep] for f in fields(self)
                                if isinstance(getattr(self, f.name), np.ndarray)})

    def queued_ttft(self, quantile: Optional[float] = None) -> np.ndarray:
        """TTFT (s) with queueing at each point's own rate: the mean (``ttft_queued_seconds``)
        when ``quantile`` is None, else that quantile (0.9: p90; :func:`prompt_queue_ttft`)."""
        if quantile is None:
            return self.ttft_queued_seconds
        return prompt_queue_ttft(self.ttft_seconds, self.requests_per_s, self.prompt_seconds,
                                 self.residual_seconds, quantile)


ARRIVALS = ("poisson", "fluid")


def _fill(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (one per True of ``mask``) spread back to the mask's shape (0 elsewhere)."""
    out = np.zeros(mask.shape, dtype=float)
    out[mask] = values
    return out


def _poisson(a: np.ndarray, k: np.ndarray, valid: Any = True) -> np.ndarray:
    """Poisson(a) probabilities of k = 0, 1, … (rows: a; by the recurrence p_k = p_{k−1} · a / k,
    no factorials), normalized over the k given (``valid``: each row's own k; 0 beyond)."""
    ratio = np.where(k > 0, a[:, None] / np.maximum(k, 1.0), 1.0)
    p = np.where(valid, np.exp(-a)[:, None] * np.cumprod(ratio, axis=1), 0.0)
    return p / p.sum(axis=1, keepdims=True)


OVERDISPERSION_ITERATIONS = 5
"""Fixed-point passes of the arrivals' variance (``_random_prompt_steps``): after 5 the mean
step is within 5e-5 of the fixed point on the README's workloads (4: 1e-4; 6: 7e-6), far
inside the model's own error against the simulator, and each pass costs the page's curves
about 6 % of their time."""
OVERDISPERSION_MAX = 0.95
"""Cap on u = λ · s (prompts that arrive during one prompt's share of a step): the
variance a / (1 − u²) is held finite where a step's prompts would nearly renew themselves."""


def _overdispersed(a: np.ndarray, var: np.ndarray, k: np.ndarray, valid: Any = True) -> np.ndarray:
    """Negative-binomial probabilities of k = 0, 1, … with mean ``a`` and variance ``var`` >=
    ``a`` (rows; the Poisson–gamma mixture, the count of mean a whose variance exceeds it):
    r = a² / (var − a), q = a / var, p_0 = q^r, p_k = p_{k−1} · (k − 1 + r) / k · (1 − q),
    normalized over the k given (``valid``: each row's own k; 0 beyond).  var → a is Poisson(a)."""
    extra = np.maximum(var - a, 1e-12 * np.maximum(a, 1e-300))
    r = a ** 2 / extra
    q = a / (a + extra)
    ratio = np.where(k > 0, (k - 1.0 + r[:, None]) / np.maximum(k, 1.0) * (1.0 - q)[:, None], 1.0)
    p = np.where(valid, np.exp(r * np.log(q))[:, None] * np.cumprod(ratio, axis=1), 0.0)
    return p / p.sum(axis=1, keepdims=True)


def _random_prompt_steps(r: Replica, B: np.ndarray, c: float, eff: Efficiency,
                         spec: Optional[SpecDecode], arrivals: np.ndarray, n_new: float,
                         room: np.ndarray, f_p: float):
    """Mean step, mean squared step, share of steps with prompt tokens and the tagged
    prompt's own step when the K prompts that enter each pass are those that arrived
    during the pass before (module docstring, "Random arrivals": mean a, variance
    a / (1 − u²), u = λ · s).  Rows: batches; columns: k = 0 … k_max prompts.

    Each row's counts stop at its own k_b = ⌈a + 8·√a + 8⌉ (probabilities normalized over
    0 … k_b + 1, sums over 0 … k_b), so a batch's point is the same whichever other batches
    share the call: the over-dispersed count's tail is heavy (r = a² / (var − a) small), and
    one range for every row made a point move by up to 2 % with the grid around it."""
    a = arrivals
    k_row = np.ceil(a + 8.0 * np.sqrt(a) + 8.0)[:, None]                 # each row's k_b
    k_max = int(np.max(k_row)) if a.size else 8
    k = np.arange(k_max + 2, dtype=float)[None, :]                       # 0 … k_max + 1
    valid, inner = k <= k_row + 1.0, (k <= k_row)[:, :-1]               # 0 … k_b + 1; 0 … k_b
    P = np.minimum(k * n_new, room[:, None])
    # one call: the steps of k = 0 … k_max + 1 prompts, and (last column) the budget less one
    # prompt, for the carry below
    t_all, _, _ = decode_pass(r, B[:, None], c, eff, spec,
                              np.concatenate([P, (room - n_new)[:, None]], axis=1), f_p)
    t_all = np.broadcast_to(np.asarray(t_all, dtype=float), (P.shape[0], P.shape[1] + 1))
    t, t_last = t_all[:, :-1], t_all[:, -1]
    # prompts beyond the budget carry into later passes: their tokens at the last prompt's
    # cost in a full step (the secant of a convex step time over its last n_new tokens)
    marginal = (t[:, -1] - t_last) / n_new
    t = t + np.maximum(k * n_new - room[:, None], 0.0) * marginal[:, None]
    p = _poisson(a, k, valid)                # start: Poisson(a), steps of one length
    for _ in range(OVERDISPERSION_ITERATIONS):
        pk = np.where(inner, p[:, :-1], 0.0)
        step = (pk * t[:, :-1]).sum(axis=1)
        slope = (pk * (t[:, 1:] - t[:, :-1])).sum(axis=1)              # s = E[t(K + 1) − t(K)]
        u = np.minimum(a * slope / step, OVERDISPERSION_MAX)          # λ · s, λ = a / step
        p = _overdispersed(a, a / (1.0 - u ** 2), k, valid)
    pk, tk, kk = np.where(inner, p[:, :-1], 0.0), t[:, :-1], k[:, :-1]
    step = (pk * tk).sum(axis=1)
    step_sq = (pk * tk ** 2).sum(axis=1)
    mean_k = (pk * kk).sum(axis=1)
    var_k = (pk * (kk - mean_k[:, None]) ** 2).sum(axis=1)
    cov_kt = (pk * (kk - mean_k[:, None]) * (tk - step[:, None])).sum(axis=1)
    p_after = np.where(inner, _poisson(a / 2.0, k, valid)[:, :-1], 0.0)
    own = (p_after * t[:, 1:]).sum(axis=1)    # the tagged prompt's pass: 1 + Poisson(a/2)
    return step, step_sq, 1.0 - p[:, 0], own, var_k, cov_kt


def _request_weighted_extra(B: np.ndarray, passes: float, step: np.ndarray, per_seq: np.ndarray,
                            arrivals: np.ndarray, var_k: np.ndarray, cov_kt: np.ndarray) -> np.ndarray:
    """What a request's mean TPOT adds to the mean pass (s per pass) under random arrivals
    (module docstring, "A request's passes"): a pass counts once for each of its B_n
    sequences, so requests see E[B t] / E[B] = step + Cov(B_n, t_n) / B, with B_n the prompts
    of the L = ``passes`` passes before (a sequence decodes L passes):

        ρ        = λ · Cov(K, t) / Var(K),  λ = a / step     (K's correlation pass to pass)
        Cov(B, t) = Cov(K, t) · ρ (1 − ρ^L) / (1 − ρ)  +  t_B · Var(B)
        Var(B)    = L · Var(K) · (1 + ρ) / (1 − ρ) / (1 − u),   u = B · t_B / step
                    (Poisson B = L·a where ρ = u = 0)

    u is the share of the pass that grows with the batch: a pass longer by its sequences lets
    more prompts in, the negative-binomial over-dispersion 1 / (1 − u) of a processor-shared
    pass (the module docstring's last paragraph, as for a decode instance).

    t_B = ``per_seq``, what one more sequence adds to a step; ``var_k`` and ``cov_kt`` of the
    prompts per pass (``_random_prompt_steps``; Var(K) = a, Cov = 0 where a prompt spans
    several passes and only the batch's own spread is counted)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.where(var_k > 0, arrivals * cov_kt / (var_k * step), 0.0)
    rho = np.clip(rho, 0.0, OVERDISPERSION_MAX)
    L = np.asarray(passes, dtype=float)
    cluster = cov_kt * rho * (1.0 - rho ** L) / (1.0 - rho)
    u = np.clip(B * per_seq / step, 0.0, OVERDISPERSION_MAX)
    var_b = L * var_k * (1.0 + rho) / (1.0 - rho) / (1.0 - u)
    return (cluster + per_seq * var_b) / B


def _step_per_sequence(r: Replica, B: np.ndarray, c: float, eff: Efficiency,
                       spec: Optional[SpecDecode], t0: np.ndarray, f: np.ndarray,
                       mean_prompt: np.ndarray, f_p: float) -> np.ndarray:
    """t_B (s per sequence): what one more sequence in the batch adds to the mean pass,

        t_B = (1 − f) · (t(B + 1, 0) − t(B, 0)) + f · (t(B + 1, P̄) − t(B, P̄))

    with f the share of passes that carry prompt tokens, P̄ = ``mean_prompt`` the prompt
    tokens of such a pass and t(B, 0) = ``t0`` the pure decode pass
    (:func:`calc.serving.replica.decode_pass`).  The batch's spread times t_B is one term of
    a request's mean TPOT (:func:`_request_weighted_extra`)."""
    ts, _, _ = decode_pass(r, np.stack([B + 1.0, B, B + 1.0]), c, eff, spec,
                           np.stack([np.zeros_like(B), mean_prompt, mean_prompt]), f_p)
    t0_up, tp_lo, tp_up = np.asarray(ts, dtype=float)       # one vectorized call
    return (1.0 - f) * (t0_up - t0) + f * (tp_up - tp_lo)


def aggregated_curve(r: Replica, wl: Workload, batches: Any, eff: Efficiency = BOUND,
                     token_budget: int = 8192, spec: Optional[SpecDecode] = None,
                     arrivals: str = "poisson") -> AggregatedCurve:
    """The aggregated steady state at each batch of ``batches`` (see the module docstring).

    ``arrivals``: "poisson" (requests arrive at random: a serving benchmark at a request
    rate) draws the prompts that enter each pass as Poisson(a) where a prompt fits one
    step; "fluid" (a closed loop or an offline benchmark, where prompts enter as sequences
    finish, or all wait at once) spreads them evenly, a · n_new tokens in every pass."""
    if arrivals not in ARRIVALS:
        raise ValueError(f"arrivals must be one of {', '.join(ARRIVALS)}, got {arrivals!r}")
    T = int(token_budget)
    if T < 2:
        raise ValueError(f"token_budget must be at least 2 tokens per step, got {token_budget!r}")
    mem = replica_memory(r, wl.context_len, spec)
    B = np.unique(np.asarray(batches, dtype=float))
    B = B[(B >= 1) & (B < T)]       # the KV limit is applied at the end: the step work of one
    n_new = wl.new_tokens           # batch list is shared (cached) by every device
    f_p = prefill_flops_per_token(r, wl.isl, wl.cached_tokens)
    c = wl.decode_context
    room = np.maximum(T - B, 1.0)   # prompt tokens a step can take beside the B decode tokens
    n_c = np.ceil(n_new / room)
    E = tokens_per_pass(spec)
    per_req_tokens = wl.osl / E                     # passes per request
    per_pass = B / per_req_tokens                   # prompts per pass, a
    f = np.minimum(per_pass * n_c, 1.0)
    # one prompt's chunk, or (more than one prompt per pass) every pass packs a·n_new tokens
    chunk = np.maximum(n_new / n_c, per_pass * n_new)
    # the three passes of every batch in one vectorized call: pure decode t(B, 0), a pass
    # with the chunk t(B, chunk), a pass with the budget full t(B, T − B)
    ts, _, sts = decode_pass(r, np.broadcast_to(B, (3, B.size)), c, eff, spec,
                             np.stack([np.zeros_like(B), chunk, room]), f_p)
    t0, t1, t_full = np.asarray(ts, dtype=float)
    bound0, bound1 = np.asarray(sts.bound)[0], np.asarray(sts.bound)[1]
    ok = (per_pass * n_new <= T - B) & (B <= mem.max_seqs)
    step = (1.0 - f) * t0 + f * t1
    step_sq = (1.0 - f) * t0 ** 2 + f * t1 ** 2
    ttft = n_c * t1
    extra = np.zeros_like(B)        # a request's mean pass beyond the mean pass (s)
    if arrivals == "poisson":
        one = n_c == 1                  # a prompt fits one step: whole prompts enter at random
        var_k, cov_kt = per_pass.copy(), np.zeros_like(B)      # several passes: Poisson B only
        if one.any():
            s_p, sq_p, f_p1, own, v_p, c_p = _random_prompt_steps(r, B[one], c, eff, spec, per_pass[one],
                                                                  n_new, room[one], f_p)
            step, step_sq, f, ttft = (np.where(one, _fill(one, s_p), step), np.where(one, _fill(one, sq_p), step_sq),
                                      np.where(one, _fill(one, f_p1), f), np.where(one, _fill(one, own), ttft))
            var_k, cov_kt = np.where(one, _fill(one, v_p), var_k), np.where(one, _fill(one, c_p), cov_kt)
        if wl.concurrency is None:      # a closed loop holds B fixed: every pass has B sequences
            mean_prompt = np.minimum(per_pass * n_new / np.maximum(f, 1e-12), room)
            per_seq = _step_per_sequence(r, B, c, eff, spec, t0, f, mean_prompt, f_p)
            extra = _request_weighted_extra(B, per_req_tokens, step, per_seq, per_pass, var_k, cov_kt)
    tpot = (step + extra) / E       # a request's mean TPOT (what a benchmark reports)
    rps = B / (step / E * wl.osl)   # Little's law on the passes: B sequences, osl / E passes each
    prompt_s = n_new * t_full / room
    residual = step_sq / (2.0 * step)
    ttft_q = prompt_queue_ttft(ttft, rps, prompt_s, residual)
    bound = np.where(f * (t1 - t0) > 0.5 * step, bound1, bound0)
    kv_gpu = B * mem.kv_bytes_per_seq
    keep = ok
    pick = lambda x: np.asarray(x)[keep]
    return AggregatedCurve(
        replica=r, workload=wl, efficiency=eff, token_budget=T, max_seqs=mem.max_seqs,
        batch=pick(B), tpot_seconds=pick(tpot), ttft_seconds=pick(ttft),
        ttft_queued_seconds=pick(ttft_q), step_seconds=pick(step),
        prompt_seconds=pick(prompt_s), residual_seconds=pick(residual),
        chunk_share=pick(f), tokens_per_s_per_gpu=pick(B * E / step / r.tp),
        tokens_per_s_per_user=pick(1.0 / tpot), requests_per_s=pick(rps),
        kv_bytes_per_gpu=pick(kv_gpu),
        memory_bytes_per_gpu=pick(mem.weight_bytes + kv_gpu),
        bound=pick(bound), fits=mem.fits, arrivals=arrivals, spec=spec)


@dataclass(frozen=True)
class DisaggregatedPoint:
    """One disaggregated layout: prefill instances of tp_p GPUs, decode instances of tp_d."""
    prefill: Replica
    decode: Replica
    prompts_per_step: int
    ttft_seconds: float
    kv_transfer_seconds: float
    prefill_requests_per_s: float      # per prefill instance
    decode_batch: float
    tpot_seconds: float
    decode_requests_per_s: float       # per decode instance
    ratio: float                       # prefill instances per decode instance
    tokens_per_s_per_gpu: float
    tokens_per_s_per_user: float
    kv_bytes_per_gpu: float            # decode GPU
    bound: str                         # decode step's bound
    fits: bool


PREFILL_BATCH_GAIN = 0.01
"""A prefill instance batches more prompts per step only for at least this much more
throughput (1 %): a larger k lengthens every TTFT by the whole step, so a k that buys less
(a compute-bound prefill: t_p(k·n) ≈ k·t_p(n)) is not worth it."""


def prefill_pool(r: Replica, wl: Workload, eff: Efficiency = BOUND, token_budget: int = 8192,
                 ttft_target: Optional[float] = None):
    """(prompts per step k, TTFT, KV transfer seconds, requests/s per instance) of a prefill
    instance.  k: among 1 … max(1, ⌊T / n_new⌋) prompts whose step plus transfer meets
    ``ttft_target`` (k = 1 when none does), the smallest whose r_p = k / t_p(k·n_new) is
    within PREFILL_BATCH_GAIN of the best of them."""
    n_new = wl.new_tokens
    f_p = prefill_flops_per_token(r, wl.isl, wl.cached_tokens)
    k_max = max(1, int(token_budget // n_new))
    ks = np.arange(1, k_max + 1, dtype=float)
    t = np.asarray(step_time(r, 0.0, wl.isl, ks * n_new, f_p, eff).seconds)
    mem = replica_memory(r, wl.isl)
    xfer = (float(collective_seconds("p2p", mem.kv_bytes_per_seq, 2, replica_network(r.device).scale_out))
            if eff.communication else 0.0)
    ttft = t + xfer
    ok = np.ones_like(ks, dtype=bool) if ttft_target is None else ttft <= ttft_target
    rate = ks / t
    if ok.any():
        best = rate[ok].max()
        i = int(np.nonzero(ok & (rate >= best * (1.0 - PREFILL_BATCH_GAIN)))[0][0])
    else:
        i = 0
    return int(ks[i]), float(ttft[i]), xfer, float(ks[i] / t[i])


def prompt_queue_ttft(ttft: Any, rate: Any, prompt_seconds: Any, residual_seconds: Any,
                      quantile: Optional[float] = None) -> Any:
    """Mean TTFT (s) of an aggregated replica under Poisson arrivals at ``rate`` requests/s
    (the module docstring): the no-queueing ``ttft`` (n_c prompt-chunk steps), plus the
    rest of the step in flight (``residual_seconds``, R), plus the M/D/1 wait for the prompt
    work ahead, one server of ``prompt_seconds`` (S_w) per prompt
    (Pollaczek–Khinchine, :func:`calc.serving.queueing.mdc_wait_seconds`).  ``quantile``
    (0.9: p90) takes that percentile of the wait instead
    (:func:`calc.serving.queueing.mdc_wait_quantile`); R stays its mean.  Arrays or
    scalars; inf when the budget cannot take the prompt tokens as fast as they come."""
    return ttft + residual_seconds + queue_wait(rate, prompt_seconds, 1, quantile)


def prefill_pool_ttft(rate: float, instances: int, prompts_per_step: int, ttft: float,
                      requests_per_s: float, quantile: Optional[float] = None) -> float:
    """Mean TTFT (s) of ``instances`` prefill instances under Poisson arrivals at ``rate``
    requests/s: the no-queueing ``ttft`` (step + KV transfer, :func:`prefill_pool`) plus the
    M/D/c wait of c = instances · k servers of one step t_p = k / r_p each (k prompts ride
    together in a step: a k-prompt instance counts as k servers of the whole step);
    ``quantile`` (0.9: p90) gives that percentile of it instead.  inf when the pool cannot
    carry the rate."""
    k = int(prompts_per_step)
    t_p = k / float(requests_per_s)
    return float(ttft + queue_wait(float(rate), t_p, int(instances) * k, quantile))


def decode_pool(r: Replica, wl: Workload, batches: Any, eff: Efficiency = BOUND,
                spec: Optional[SpecDecode] = None, arrivals: str = "poisson"):
    """Pure decode passes of one decode instance over ``batches`` that fit: (B, TPOT [s],
    bound, KV bytes per GPU, its ReplicaMemory).

        TPOT = t(B + 1) / E     ``arrivals="poisson"`` (a request's mean, B the time-average in flight)
        TPOT = t(B) / E         ``arrivals="fluid"`` (a closed loop holds B)

    t(B): :func:`decode_pass` at the workload's mean decode context, E tokens per pass; the
    module docstring's last paragraph derives t(B + 1) under random arrivals (Little's law on
    the negative-binomial count of a processor-shared pass).  ``bound``: what sets the pass
    the TPOT is of."""
    if arrivals not in ARRIVALS:
        raise ValueError(f"arrivals must be one of {', '.join(ARRIVALS)}, got {arrivals!r}")
    mem = replica_memory(r, wl.context_len, spec)
    B = np.unique(np.asarray(batches, dtype=float))
    B = B[(B >= 1) & (B <= mem.max_seqs)]
    seen = B + 1.0 if arrivals == "poisson" else B
    t, E, st = decode_pass(r, seen, wl.decode_context, eff, spec)
    return B, np.asarray(t) / E, np.asarray(st.bound), B * mem.kv_bytes_per_seq, mem


def disaggregated(prefill: Replica, decode: Replica, wl: Workload, batch: float,
                  eff: Efficiency = BOUND, token_budget: int = 8192,
                  spec: Optional[SpecDecode] = None, ttft_target: Optional[float] = None,
                  arrivals: str = "poisson") -> DisaggregatedPoint:
    """One disaggregated layout at decode batch ``batch`` (see the module docstring;
    ``arrivals`` as :func:`decode_pool`'s)."""
    k, ttft, xfer, r_p = prefill_pool(prefill, wl, eff, token_budget, ttft_target)
    B, tpot, bound, kv, mem = decode_pool(decode, wl, [batch], eff, spec, arrivals)
    if B.size == 0:
        return DisaggregatedPoint(prefill, decode, k, ttft, xfer, r_p, float(batch), math.inf, 0.0,
                                  math.inf, 0.0, 0.0, 0.0, "kv", False)
    r_d = float(B[0] / (tpot[0] * wl.osl))
    per_gpu = wl.osl / (prefill.tp / r_p + decode.tp / r_d)
    return DisaggregatedPoint(prefill=prefill, decode=decode, prompts_per_step=k, ttft_seconds=ttft,
                              kv_transfer_seconds=xfer, prefill_requests_per_s=r_p,
                              decode_batch=float(B[0]), tpot_seconds=float(tpot[0]),
                              decode_requests_per_s=r_d, ratio=r_d / r_p,
                              tokens_per_s_per_gpu=per_gpu, tokens_per_s_per_user=1.0 / float(tpot[0]),
                              kv_bytes_per_gpu=float(kv[0]), bound=str(bound[0]), fits=True)
