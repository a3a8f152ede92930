"""A continuous-batching simulator of one aggregated replica (iteration-level scheduling).

Requests arrive (Poisson at a rate, or a closed loop that keeps ``concurrency`` in flight),
wait in one FCFS queue until the KV budget holds their full context (isl + osl: memory is
reserved at admission, so no request is ever preempted), then are prefilled in chunks and
decode one token per step.  Each step takes every decoding sequence's next token plus
prompt chunks, FCFS, up to the token budget (vLLM's ``max_num_batched_tokens``,
Sarathi-Serve's chunked prefill), and lasts :func:`calc.serving.replica.step_time` of its
mix.  With speculative decoding each decode step is a verification pass
(:class:`PassModel`, the pass of :func:`calc.serving.steady.decode_pass`), and each
request's passes are drawn from Leviathan et al.'s i.i.d. acceptance
(:func:`calc.serving.speculative.sample_passes`).  Runs of pure decode steps between two
events (an arrival that fits, a finish) are advanced together, their time summed in closed
form (:class:`_DecodeRun`), so 10,000 requests take well under a second and the Serving
page's sweep of 7 × 1,000 about 0.1 s.

Outputs are measured as serving benchmarks measure them: TTFT = first token − arrival
(queueing included), TPOT = (finish − first token) / (osl − 1), output tokens per second
over the run.  Sources: Yu et al. 2022 (Orca, iteration-level scheduling); Kwon et al.
2023 (vLLM); Agrawal et al. 2024 (Sarathi-Serve); vLLM ``benchmark_serving.py`` metrics.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..arch import kv_cache_bytes_per_seq, kv_bytes_per_token
from .replica import (BOUND, Efficiency, Replica, draft_kv_bytes, prefill_flops_per_token, replica_memory,
                      step_time)
from .speculative import SpecDecode, draft_tp, sample_passes
from .workload import Workload, sample_lengths

__all__ = ["StepModel", "step_model", "PassModel", "pass_model", "SimResult", "simulate", "rate_sweep",
           "RequestTooLongError"]


class RequestTooLongError(ValueError):
    """A drawn request's KV cache (its isl + osl tokens) exceeds the replica's KV budget:
    ``tokens`` (the longest drawn context), ``kv_bytes`` (its cache per GPU, bytes) and
    ``budget_bytes`` (the KV budget per GPU, bytes).  A ValueError, so callers that catch
    those keep working."""

    def __init__(self, tokens: float, kv_bytes: float, budget_bytes: float):
        self.tokens, self.kv_bytes, self.budget_bytes = float(tokens), float(kv_bytes), float(budget_bytes)
        super().__init__(f"the longest drawn request ({self.tokens:,.0f} tokens of prompt and output) "
                         f"needs {self.kv_bytes / 1e9:.3g} GB of KV cache per GPU, more than the "
                         f"replica's KV budget of {self.budget_bytes / 1e9:.3g} GB: shorten the "
                         "prompts, narrow the length spread, or use more GPUs per replica")


@dataclass(frozen=True)
class StepModel:
    """:func:`step_time` of one replica in a form a simulator can call 100,000 times.

    Exactly the same terms, with the per-sequence KV and attention made linear in the
    context (bytes and FLOP per token of context at the workload's mean decode context:
    exact without sliding windows), and the weight read and GEMM efficiency tabulated by
    tokens in the step (0 .. token budget + max batch).
    """
    weights: np.ndarray          # weights read per GPU [bytes] by tokens in the step
    eta_compute: np.ndarray      # GEMM efficiency by tokens in the step
    kv_per_ctx: float            # KV bytes read per GPU per token of context
    kv_write: float              # KV bytes written per GPU per prompt token
    flops_dec: float             # FLOP per GPU per decode token, without attention
    attn_per_ctx: float          # attention FLOP per GPU per token of context
    flops_pre: float             # FLOP per GPU per prompt token
    mem_bw: float                # bytes/s, efficiency applied
    peak: float                  # FLOP/s
    net_fixed: float             # s per step with tokens (2L · latency + Efficiency.step_overhead)
    net_per_token: float         # s per token in the step (all-reduce volume)

    def seconds(self, decode: Any, prefill: Any, ctx_sum: Any, gamma: float = 0.0):
        """Step seconds for ``decode`` sequences with ``ctx_sum`` tokens of context in all,
        plus ``prefill`` prompt tokens.  ``gamma``: draft tokens each sequence's pass also
        verifies (speculative decoding, :func:`calc.serving.steady.decode_pass`): they read
        no more weights or KV than the step does (the weight read is by tokens in the step),
        write their KV, and cost a decode token's FLOP each, attention over the same
        context included.  Accepts arrays."""
        d, p, ctx = np.asarray(decode), np.asarray(prefill), np.asarray(ctx_sum)
        n = d * (1.0 + gamma) + p
        ni = np.minimum(n, len(self.weights) - 1).astype(int)
        mem = (self.weights[ni] + self.kv_per_ctx * ctx + self.kv_write * (p + gamma * d)) / self.mem_bw
        cmp = ((1.0 + gamma) * (self.flops_dec * d + self.attn_per_ctx * ctx)
               + self.flops_pre * p) / (self.peak * self.eta_compute[ni])
        net = np.where(n > 0, self.net_fixed + self.net_per_token * n, 0.0)
        return np.maximum(mem, cmp) + net


def step_model(r: Replica, wl: Workload, eff: Efficiency = BOUND, token_budget: int = 8192,
               max_batch: int = 1024, gamma: int = 0) -> StepModel:
    """Build the :class:`StepModel` of ``r`` from :func:`step_time` itself (so the two agree);
    its tables reach steps of ``token_budget`` + ``max_batch`` · (1 + ``gamma``) tokens."""
    n = np.arange(0, int(token_budget) + int(max_batch) * (1 + int(gamma)) + 2, dtype=float)
    c = wl.decode_context
    st_w = step_time(r, 0.0, c, n, 0.0, eff)         # weights read for n tokens in the step
    kv_tok = float(kv_bytes_per_token(r.arch, r.kv_bytes_per_elem)) / r.kv_split
    weights = np.asarray(st_w.weight_bytes)
    one = step_time(r, 1.0, c, 0.0, 0.0, BOUND)
    ctx0 = step_time(r, 1.0, 0.0, 0.0, 0.0, BOUND)
    kv_per_ctx = float(kv_cache_bytes_per_seq(r.arch, c, r.kv_bytes_per_elem)) / r.kv_split / c
    attn_per_ctx = (float(one.flops) - float(ctx0.flops)) / c
    f_p = prefill_flops_per_token(r, wl.isl, wl.cached_tokens)
    # GEMM efficiency by tokens: compute seconds of n prompt tokens vs their FLOP at the peak
    with np.errstate(divide="ignore", invalid="ignore"):
        probe = step_time(r, 0.0, c, n, 1.0, eff)
        eta = np.where(n > 0, np.asarray(probe.flops) / (np.asarray(probe.compute_seconds) * r.peak_flops), 1.0)
    eta = np.where(np.isfinite(eta) & (eta > 0), eta, 1.0)
    net = np.asarray(step_time(r, 0.0, c, n, 0.0, eff).network_seconds)
    net_fixed = float(net[1] - (net[2] - net[1])) if len(net) > 2 else 0.0
    net_tok = float(net[2] - net[1]) if len(net) > 2 else 0.0
    return StepModel(weights=weights, eta_compute=eta, kv_per_ctx=kv_per_ctx, kv_write=kv_tok,
                     flops_dec=float(ctx0.flops), attn_per_ctx=attn_per_ctx, flops_pre=f_p,
                     mem_bw=r.device.mem_bw * eff.mem_bw, peak=r.peak_flops,
                     net_fixed=max(net_fixed, 0.0) + eff.step_overhead, net_per_token=max(net_tok, 0.0))


@dataclass(frozen=True)
class PassModel:
    """One decode pass of a replica, speculative or not, as :func:`calc.serving.steady.decode_pass`
    times it, in the :class:`StepModel` form:

        pass seconds = target(decode, prefill, ctx; γ) + draft_scale · draft(decode, 0, ctx)

    ``target``: the replica's step, verifying γ draft tokens per sequence (γ = 0 without
    speculation); ``draft``: the draft model's decode step on its own GPUs ("draft",
    draft_scale = γ) or the target's plain decode step ("mtp": draft_scale = γ / L, one
    layer per draft token); ``tokens_per_pass``: E, each sequence's mean tokens per pass.
    """
    target: StepModel
    gamma: int = 0
    draft: Optional[StepModel] = None
    draft_scale: float = 0.0
    tokens_per_pass: float = 1.0

    def seconds(self, decode: Any, prefill: Any, ctx_sum: Any):
        """Pass seconds (accepts arrays, as :meth:`StepModel.seconds`)."""
        t = self.target.seconds(decode, prefill, ctx_sum, self.gamma)
        if self.draft is None:
            return t
        return t + self.draft_scale * self.draft.seconds(decode, 0.0, ctx_sum)


def pass_model(r: Replica, wl: Workload, eff: Efficiency = BOUND, token_budget: int = 8192,
               max_batch: int = 1024, spec: Optional[SpecDecode] = None) -> PassModel:
    """The :class:`PassModel` of ``r`` (with ``spec``: the speculative pass of
    :func:`calc.serving.steady.decode_pass`), built from :func:`step_time`."""
    if spec is None:
        return PassModel(step_model(r, wl, eff, token_budget, max_batch))
    g = int(spec.gamma)
    target = step_model(r, wl, eff, token_budget, max_batch, g)
    if spec.method == "draft":
        d = Replica(arch=spec.draft, device=r.device, tp=draft_tp(spec.draft, r.tp),
                    weights=r.weights, kv=r.kv, act=r.act)
        return PassModel(target, g, step_model(d, wl, eff, 0, max_batch), float(g), spec.tokens_per_step)
    return PassModel(target, g, target, g / r.arch.n_layers, spec.tokens_per_step)


@dataclass(frozen=True)
class SimResult:
    """What a simulated run measured (seconds, tokens/s of output tokens, per replica).

    Rates are measured in the steady-state window, from the arrival of request N/4 to the
    last arrival (ramp-up and drain left out).  ``stable``: the replica kept up with the
    arrivals (completions >= 95 % of arrivals in the window); above capacity the queue and
    TTFT grow with the length of the run.
    """
    n_requests: int
    duration_seconds: float
    ttft_p50: float
    ttft_p90: float
    ttft_p99: float
    tpot_p50: float
    tpot_p90: float
    tpot_p99: float
    ttft_mean: float
    tpot_mean: float
    tokens_per_s: float              # output tokens / s, the replica (steady-state window)
    tokens_per_s_per_gpu: float
    requests_per_s: float            # completed / s in the window
    offered_requests_per_s: float    # arrivals / s in the window (closed loop: = completed)
    mean_batch: float                # decoding sequences per step, time-averaged
    mean_wait_seconds: float         # queueing before admission
    max_queue: int
    steps: int
    stable: bool
    max_seqs: int


class _DecodeRun:
    """A run of pure decode steps whose step j (0, 1, …) lasts
    t_j = max(m0 + m1·j, c0 + c1·j) + q  [s]: memory and compute seconds both grow linearly
    with j, as every sequence's context grows by one token per step, and q is the step's
    fixed network time.  Its sums in closed form (the loop over a run's steps, without
    arrays): Σ_{a ≤ j < b} (x0 + x1·j) = (b − a)·x0 + x1·(b(b − 1) − a(a − 1))/2, the
    memory branch where m0 − c0 + (m1 − c1)·j ≥ 0 (one switch at most)."""

    __slots__ = ("x0", "x1", "y0", "y1", "q", "s")

    def __init__(self, m0: float, m1: float, c0: float, c1: float, q: float):
        # steps j < s on the line x0 + x1·j, steps j ≥ s on y0 + y1·j
        dm = m1 - c1
        if dm == 0.0:
            line = (m0, m1) if m0 >= c0 else (c0, c1)
            (self.x0, self.x1), (self.y0, self.y1), self.s = line, line, 0
        elif dm > 0.0:          # compute first, memory from j ≥ (c0 − m0) / dm on
            (self.x0, self.x1), (self.y0, self.y1) = (c0, c1), (m0, m1)
            self.s = max(0, math.ceil((c0 - m0) / dm))
        else:                   # memory first, compute after j > (m0 − c0) / (c1 − m1)
            (self.x0, self.x1), (self.y0, self.y1) = (m0, m1), (c0, c1)
            self.s = max(0, math.floor((m0 - c0) / (c1 - m1)) + 1)
        self.q = q

    @staticmethod
    def _linear_sum(x0: float, x1: float, a: int, b: int) -> float:
        return (b - a) * x0 + x1 * (b * (b - 1) - a * (a - 1)) / 2.0 if b > a else 0.0

    def seconds(self, k: int) -> float:
        """Σ_{j < k} t_j: the first k steps of the run [s]."""
        s = self.s if self.s < k else k
        return (self._linear_sum(self.x0, self.x1, 0, s) + self._linear_sum(self.y0, self.y1, s, k)
                + self.q * k)

    def steps_to_reach(self, seconds: float, k_max: int) -> int:
        """The fewest steps k (1 ≤ k ≤ k_max) whose time reaches ``seconds``; k_max when
        even k_max steps do not.  On each line the time of k steps is a quadratic in k,
        a·k² + b·k + c, solved for k and then checked step by step against
        :meth:`seconds` (every t_j > 0, so the time grows with k)."""
        s, q = min(self.s, k_max), self.q
        t_s = self.seconds(s) if s > 0 else 0.0
        if seconds <= t_s:      # within the first line: (x1/2)k² + (x0 + q − x1/2)k
            a, b, c = self.x1 / 2.0, self.x0 + q - self.x1 / 2.0, -seconds
        else:                   # t_s + (k − s)(y0 + q) + y1·(k² − k − s² + s)/2
            y0, y1 = self.y0, self.y1
            a, b = y1 / 2.0, y0 + q - y1 / 2.0
            c = t_s - s * (y0 + q) - y1 * (s * s - s) / 2.0 - seconds
        disc = b * b - 4.0 * a * c
        den = b + math.sqrt(disc) if disc >= 0.0 else 0.0
        k = max(1, math.ceil(min(float(k_max), -2.0 * c / den))) if den > 0.0 else 1
        while k > 1 and self.seconds(k - 1) >= seconds:
            k -= 1
        while k < k_max and self.seconds(k) < seconds:
            k += 1
        return k


class _RunSum:
    """Two runs of decode steps side by side, a pass of speculative decoding: step j lasts
    the target's verification step plus the draft's steps, each a :class:`_DecodeRun`.  The
    sum has two switches at most, so the fewest steps reaching a time is found by bisection
    on :meth:`seconds` (it grows with k)."""

    __slots__ = ("a", "b")

    def __init__(self, a: _DecodeRun, b: _DecodeRun):
        self.a, self.b = a, b

    def seconds(self, k: int) -> float:
        return self.a.seconds(k) + self.b.seconds(k)

    def steps_to_reach(self, seconds: float, k_max: int) -> int:
        lo, hi = 1, k_max                  # the answer is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if self.seconds(mid) >= seconds:
                hi = mid
            else:
                lo = mid + 1
        return lo


def simulate(r: Replica, wl: Workload, *, n_requests: int = 10_000, eff: Efficiency = BOUND,
             token_budget: int = 8192, seed: int = 0, max_seqs: Optional[int] = None,
             spec: Optional[SpecDecode] = None, model: Optional[PassModel] = None) -> SimResult:
    """Simulate ``n_requests`` requests of ``wl`` on replica ``r`` (see the module docstring).

    ``wl.request_rate`` (Poisson) or ``wl.concurrency`` (closed loop) must be set.
    ``max_seqs``: cap on sequences in flight (default: the KV budget's, at each request's
    own context).  ``spec``: speculative decoding — each decode step is a verification pass
    (:class:`PassModel`, the draft's weights out of the KV budget and its cache added to
    each request's, :func:`replica_memory`); each request's passes for its osl − 1 tokens
    after the first are drawn from the i.i.d. acceptance (:func:`sample_passes`), and the
    context grows by E tokens per pass on average.  ``model``: :func:`pass_model` of these
    inputs (it does not depend on the rate), when the caller already has it
    (:func:`rate_sweep` builds it once for all its rates).
    """
    if wl.request_rate is None and wl.concurrency is None:
        raise ValueError("simulate needs a request rate or a concurrency in the workload")
    N = int(n_requests)
    if N < 1:
        raise ValueError(f"n_requests must be >= 1, got {n_requests!r}")
    T = int(token_budget)
    rng = np.random.default_rng(seed)
    isl, osl = sample_lengths(wl, N, rng)
    new = np.maximum(np.rint(isl * (1.0 - wl.prefix_hit)), 1.0)
    mem = replica_memory(r, wl.context_len, spec)
    if not mem.fits:
        raise ValueError(f"{r.arch.name} does not fit on {r.tp} × {r.device.name}: no KV budget left")
    budget = mem.kv_budget_bytes * (1 + 1e-12)
    kv_need = np.asarray(kv_cache_bytes_per_seq(r.arch, isl + osl, r.kv_bytes_per_elem)) / r.kv_split
    if spec is not None:
        kv_need = kv_need + np.asarray(draft_kv_bytes(r, spec, isl + osl))   # the draft's cache
    if kv_need.max() > budget:
        j = int(np.argmax(kv_need))
        raise RequestTooLongError(isl[j] + osl[j], kv_need[j], mem.kv_budget_bytes)
    cap = mem.max_seqs if max_seqs is None else int(max_seqs)
    pm = model if model is not None else pass_model(r, wl, eff, T, max(cap, 1), spec)
    sm, E = pm.target, pm.tokens_per_pass
    closed = wl.concurrency is not None
    arrive = np.full(N, np.inf)
    if closed:
        arrive[:min(wl.concurrency, N)] = 0.0
        next_new = min(wl.concurrency, N)
    else:
        arrive = np.cumsum(rng.exponential(1.0 / wl.request_rate, N))
        next_new = N
    # decode steps (passes) after the first token: osl − 1, or fewer with speculation
    passes = osl - 1.0 if spec is None else sample_passes(osl - 1.0, spec.alpha, spec.gamma, rng)
    first = np.full(N, np.nan)
    finish = np.full(N, np.nan)
    admit = np.full(N, np.nan)

    queue: deque[int] = deque()
    arr_ptr = 0                                     # next request not yet in the queue
    pre: deque[list] = deque()                      # [idx, remaining prompt tokens], FCFS
    # Decoding requests: a heap of (global step at which the last token comes, idx).  All
    # of them advance one token per step, so the context sum is base + n · gstep.
    dec: list[tuple[int, int]] = []
    gstep = 0
    base = 0.0                                      # Σ (context at join − gstep at join)
    kv_used = 0.0
    now = 0.0
    done = 0
    steps = 0
    busy_batch_time = 0.0
    max_queue = 0
    # Python floats and lists in the loop: a numpy scalar costs several times a float's
    # arithmetic, and the loop runs a few thousand times per simulated run.
    w_tab, eta_tab = sm.weights.tolist(), sm.eta_compute.tolist()
    n_max = len(w_tab) - 1
    bw, pk = sm.mem_bw, sm.peak
    kv_ctx, kv_wr, f_dec, a_ctx, f_pre = sm.kv_per_ctx, sm.kv_write, sm.flops_dec, sm.attn_per_ctx, sm.flops_pre
    net_fixed, net_tok = sm.net_fixed, sm.net_per_token
    g1 = 1.0 + pm.gamma                             # tokens per sequence a pass verifies
    dm, ds = pm.draft, pm.draft_scale
    if dm is not None:
        wd_tab, eta_d = dm.weights.tolist(), dm.eta_compute.tolist()
        nd_max = len(wd_tab) - 1
    need = kv_need.tolist()
    isl_l, new_l, pass_l = isl.tolist(), new.tolist(), passes.tolist()
    arr_l = arrive.tolist()

    def one_step(nd: int, P: float, ctx_sum: float) -> float:
        n = nd * g1 + P
        ni = min(int(n), n_max)
        mem = (w_tab[ni] + kv_ctx * ctx_sum + kv_wr * (P + (g1 - 1.0) * nd)) / bw
        cmp = (g1 * (f_dec * nd + a_ctx * ctx_sum) + f_pre * P) / (pk * eta_tab[ni])
        t = (mem if mem > cmp else cmp) + ((net_fixed + net_tok * n) if n > 0 else 0.0)
        if dm is not None and nd > 0:
            j = min(nd, nd_max)
            m = (wd_tab[j] + dm.kv_per_ctx * ctx_sum) / dm.mem_bw
            c = (dm.flops_dec * nd + dm.attn_per_ctx * ctx_sum) / (dm.peak * eta_d[j])
            t += ds * ((m if m > c else c) + dm.net_fixed + dm.net_per_token * nd)
        return t

    def room_for(i: int) -> bool:
        return (len(dec) + len(pre)) < cap and kv_used + need[i] <= budget

    def finish_until(g: int) -> None:
        nonlocal kv_used, done, base, next_new
        while dec and dec[0][0] <= g:
            _, i = heapq.heappop(dec)
            finish[i] = now
            kv_used -= need[i]
            base -= isl_l[i] + 1.0 - E * join[i]
            done += 1
            if closed and next_new < N:
                arr_l[next_new] = now
                next_new += 1

    join = [0.0] * N
    while done < N:
        while arr_ptr < N and arr_l[arr_ptr] <= now:
            queue.append(arr_ptr)
            arr_ptr += 1
        while queue and room_for(queue[0]):
            i = queue.popleft()
            kv_used += need[i]
            admit[i] = now
            pre.append([i, new_l[i]])
        if len(queue) > max_queue:
            max_queue = len(queue)
        nd = len(dec)
        if nd == 0 and not pre:
            if arr_ptr < N and math.isfinite(arr_l[arr_ptr]):
                now = max(now, arr_l[arr_ptr])
                continue
            raise RuntimeError("simulator stalled: nothing running and nothing to admit")
        ctx = base + nd * E * gstep                  # each sequence: E tokens per pass
        if pre and T - nd > 0:
            room = T - nd
            P = 0.0
            for item in pre:
                if room <= 0:
                    break
                take = min(room, item[1])
                item[1] -= take
                P += take
                room -= take
            dt = one_step(nd, P, ctx)
            now += dt
            steps += 1
            busy_batch_time += nd * dt
            gstep += 1
            finish_until(gstep)
            while pre and pre[0][1] <= 0:
                i = pre.popleft()[0]
                first[i] = now
                join[i] = gstep
                base += isl_l[i] + 1.0 - E * gstep
                heapq.heappush(dec, (gstep + int(pass_l[i]), i))
            continue
        # a run of pure decode steps up to the next event: a finish, or an arrival that fits
        k_max = dec[0][0] - gstep
        nxt = None
        if queue:
            if room_for(queue[0]):
                nxt = now
        elif arr_ptr < N and math.isfinite(arr_l[arr_ptr]) and room_for(arr_ptr):
            nxt = arr_l[arr_ptr]
        if k_max == 1 or (nxt is not None and nxt <= now):
            k, dt = 1, one_step(nd, 0.0, ctx)
        else:
            # step j of the run: memory and compute both linear in j (the context grows by
            # nd · E); with speculation the verification tokens and the draft's steps on top
            n = nd * g1
            ni = min(int(n), n_max)
            pe = pk * eta_tab[ni]
            grow = nd * E
            run = _DecodeRun((w_tab[ni] + kv_ctx * ctx + kv_wr * (g1 - 1.0) * nd) / bw, kv_ctx * grow / bw,
                             g1 * (f_dec * nd + a_ctx * ctx) / pe, g1 * a_ctx * grow / pe,
                             net_fixed + net_tok * n)
            if dm is not None:
                j = min(nd, nd_max)
                bd, ped = dm.mem_bw / ds, dm.peak * eta_d[j] / ds
                run = _RunSum(run, _DecodeRun((wd_tab[j] + dm.kv_per_ctx * ctx) / bd, dm.kv_per_ctx * grow / bd,
                                              (dm.flops_dec * nd + dm.attn_per_ctx * ctx) / ped,
                                              dm.attn_per_ctx * grow / ped,
                                              ds * (dm.net_fixed + dm.net_per_token * nd)))
            k = k_max if nxt is None else run.steps_to_reach(nxt - now, k_max)
            dt = run.seconds(k)
        now += dt
        steps += k
        busy_batch_time += nd * dt
        gstep += k
        finish_until(gstep)

    arrive = np.asarray(arr_l)
    ttft = first - arrive
    tpot = (finish - first) / (osl - 1.0)
    start = float(arrive.min())
    dur = float(finish.max() - start)
    # steady-state window: from the arrival of the request N/4 to the last arrival (the
    # ramp-up before it and the drain after it are left out of the rates)
    arr_sorted = np.sort(arrive)
    t0, t1 = float(arr_sorted[N // 4]), float(arr_sorted[-1])
    if t1 - t0 <= 0.05 * dur:
        t0, t1 = start, float(finish.max())
    inside = (finish > t0) & (finish <= t1)
    window = t1 - t0
    served = float(inside.sum()) / window
    out_tps = float(osl[inside].sum()) / window
    offered = float(((arrive > t0) & (arrive <= t1)).sum()) / window if not closed else served
    stable = closed or served >= 0.95 * offered
    pct = lambda x, q: float(np.percentile(x, q))
    return SimResult(n_requests=N, duration_seconds=dur,
                     ttft_p50=pct(ttft, 50), ttft_p90=pct(ttft, 90), ttft_p99=pct(ttft, 99),
                     tpot_p50=pct(tpot, 50), tpot_p90=pct(tpot, 90), tpot_p99=pct(tpot, 99),
                     ttft_mean=float(ttft.mean()), tpot_mean=float(tpot.mean()),
                     tokens_per_s=out_tps, tokens_per_s_per_gpu=out_tps / r.tp,
                     requests_per_s=served, offered_requests_per_s=offered,
                     mean_batch=busy_batch_time / dur, mean_wait_seconds=float(np.mean(admit - arrive)),
                     max_queue=int(max_queue), steps=steps, stable=bool(stable), max_seqs=cap)


def rate_sweep(r: Replica, wl: Workload, fractions=(0.2, 0.4, 0.6, 0.8, 0.9, 1.0, 1.1),
               *, n_requests: int = 1500, eff: Efficiency = BOUND, token_budget: int = 8192,
               seed: int = 0, spec: Optional[SpecDecode] = None):
    """Simulated TTFT / TPOT against the request rate: the replica's analytic capacity
    (the most requests/s of :func:`calc.serving.steady.aggregated_curve` within the KV
    budget, with ``spec`` when given) times each of ``fractions``, one :func:`simulate` run
    each (with the same ``spec``).  Shows where queueing starts (TTFT p90 rising before the
    capacity, without bound beyond it).  Returns (capacity requests/s, [(rate, SimResult), ...])."""
    from .steady import aggregated_curve
    mem = replica_memory(r, wl.context_len, spec)
    if not mem.fits:
        return 0.0, []
    curve = aggregated_curve(r, Workload(isl=wl.isl, osl=wl.osl, prefix_hit=wl.prefix_hit),
                             np.arange(1, mem.max_seqs + 1), eff, token_budget, spec)
    if curve.batch.size == 0:
        return 0.0, []
    cap = float(curve.requests_per_s.max())
    pm = pass_model(r, wl, eff, int(token_budget), max(mem.max_seqs, 1), spec)    # the same at every rate
    out = []
    for f in fractions:
        rate = cap * float(f)
        w = Workload(isl=wl.isl, osl=wl.osl, distribution=wl.distribution, spread=wl.spread,
                     prefix_hit=wl.prefix_hit, request_rate=rate)
        out.append((rate, simulate(r, w, n_requests=n_requests, eff=eff, token_budget=token_budget,
                                   seed=seed, spec=spec, model=pm)))
    return cap, out
