"""A continuous-batching simulator of one aggregated replica (iteration-level scheduling).

Requests arrive (Poisson at a rate, or a closed loop that keeps ``concurrency`` in flight),
wait in one FCFS queue until the KV budget holds their full context (isl + osl: memory is
reserved at admission, so no request is ever preempted), then are prefilled in chunks and
decode one token per step.  Each step takes every decoding sequence's next token plus
prompt chunks, FCFS, up to the token budget (vLLM's ``max_num_batched_tokens``,
Sarathi-Serve's chunked prefill), and lasts :func:`calc.serving.replica.step_time` of its
mix.  Runs of pure decode steps between two events (an arrival that fits, a finish) are
advanced together, so 10,000 requests take well under a second.

Outputs are measured as serving benchmarks measure them: TTFT = first token − arrival
(queueing included), TPOT = (finish − first token) / (osl − 1), output tokens per second
over the run.  Sources: Yu et al. 2022 (Orca, iteration-level scheduling); Kwon et al.
2023 (vLLM); Agrawal et al. 2024 (Sarathi-Serve); vLLM ``benchmark_serving.py`` metrics.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..arch import kv_cache_bytes_per_seq, kv_bytes_per_token
from .replica import BOUND, Efficiency, Replica, prefill_flops_per_token, replica_memory, step_time
from .workload import Workload, sample_lengths

__all__ = ["StepModel", "step_model", "SimResult", "simulate"]


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
    net_fixed: float             # s per step with tokens (2L · latency)
    net_per_token: float         # s per token in the step (all-reduce volume)

    def seconds(self, decode: Any, prefill: Any, ctx_sum: Any):
        """Step seconds for ``decode`` sequences with ``ctx_sum`` tokens of context in all,
        plus ``prefill`` prompt tokens.  Accepts arrays."""
        n = np.asarray(decode) + np.asarray(prefill)
        ni = np.minimum(n, len(self.weights) - 1).astype(int)
        mem = (self.weights[ni] + self.kv_per_ctx * np.asarray(ctx_sum) + self.kv_write * np.asarray(prefill)) / self.mem_bw
        cmp = (self.flops_dec * np.asarray(decode) + self.attn_per_ctx * np.asarray(ctx_sum)
               + self.flops_pre * np.asarray(prefill)) / (self.peak * self.eta_compute[ni])
        net = np.where(n > 0, self.net_fixed + self.net_per_token * n, 0.0)
        return np.maximum(mem, cmp) + net


def step_model(r: Replica, wl: Workload, eff: Efficiency = BOUND, token_budget: int = 8192,
               max_batch: int = 1024) -> StepModel:
    """Build the :class:`StepModel` of ``r`` from :func:`step_time` itself (so the two agree)."""
    n = np.arange(0, int(token_budget) + int(max_batch) + 2, dtype=float)
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
                     net_fixed=max(net_fixed, 0.0), net_per_token=max(net_tok, 0.0))


@dataclass(frozen=True)
class SimResult:
    """What a simulated run measured (seconds, tokens/s of output tokens, per replica).

    ``stable``: the replica kept up with the arrivals (served rate >= 97 % of the offered
    rate); above capacity the queue and TTFT grow with the length of the run.
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
    tokens_per_s: float              # output tokens / s, the replica
    tokens_per_s_per_gpu: float
    requests_per_s: float            # completed / s
    offered_requests_per_s: float    # arrivals / s (closed loop: = completed)
    mean_batch: float                # decoding sequences per step, time-averaged
    mean_wait_seconds: float         # queueing before admission
    max_queue: int
    steps: int
    stable: bool
    max_seqs: int


def simulate(r: Replica, wl: Workload, *, n_requests: int = 10_000, eff: Efficiency = BOUND,
             token_budget: int = 8192, seed: int = 0, max_seqs: Optional[int] = None) -> SimResult:
    """Simulate ``n_requests`` requests of ``wl`` on replica ``r`` (see the module docstring).

    ``wl.request_rate`` (Poisson) or ``wl.concurrency`` (closed loop) must be set.
    ``max_seqs``: cap on sequences in flight (default: the KV budget's, at each request's
    own context).
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
    mem = replica_memory(r, wl.context_len)
    if not mem.fits:
        raise ValueError(f"{r.arch.name} does not fit on {r.tp} × {r.device.name}: no KV budget left")
    budget = mem.kv_budget_bytes * (1 + 1e-12)
    kv_need = np.asarray(kv_cache_bytes_per_seq(r.arch, isl + osl, r.kv_bytes_per_elem)) / r.kv_split
    if kv_need.max() > budget:
        raise ValueError("the longest request's KV cache does not fit in the KV budget")
    cap = mem.max_seqs if max_seqs is None else int(max_seqs)
    sm = step_model(r, wl, eff, T, max(cap, 1))
    closed = wl.concurrency is not None
    arrive = np.full(N, np.inf)
    if closed:
        arrive[:min(wl.concurrency, N)] = 0.0
        next_new = min(wl.concurrency, N)
    else:
        arrive = np.cumsum(rng.exponential(1.0 / wl.request_rate, N))
        next_new = N
    first = np.full(N, np.nan)
    finish = np.full(N, np.nan)
    admit = np.full(N, np.nan)

    queue: deque[int] = deque()
    arr_ptr = 0                                     # next request not yet arrived
    pre: deque[list] = deque()                      # [idx, remaining prompt tokens]
    d_idx = np.zeros(0, dtype=int)                  # decoding requests
    d_rem = np.zeros(0)                             # output tokens still to come
    d_ctx = np.zeros(0)                             # context of each
    kv_used = 0.0
    now = 0.0
    done = 0
    steps = 0
    busy_batch_time = 0.0
    max_queue = 0
    order = np.argsort(arrive, kind="stable") if not closed else None

    def arrivals_until(t: float) -> None:
        nonlocal arr_ptr
        if closed:
            while arr_ptr < N and arrive[arr_ptr] <= t:
                queue.append(arr_ptr)
                arr_ptr += 1
        else:
            while arr_ptr < N and arrive[arr_ptr] <= t:
                queue.append(arr_ptr)
                arr_ptr += 1

    def admit_from_queue() -> None:
        nonlocal kv_used
        while queue and (len(d_idx) + len(pre)) < cap and kv_used + kv_need[queue[0]] <= budget:
            i = queue.popleft()
            kv_used += kv_need[i]
            admit[i] = now
            pre.append([i, float(new[i])])

    while done < N:
        arrivals_until(now)
        admit_from_queue()
        max_queue = max(max_queue, len(queue))
        nd = len(d_idx)
        if nd == 0 and not pre:
            if arr_ptr < N and np.isfinite(arrive[arr_ptr]):
                now = max(now, float(arrive[arr_ptr]))
                continue
            raise RuntimeError("simulator stalled: nothing running and nothing to admit")
        if pre and T - nd > 0:
            room = T - nd
            chunks = []
            for item in pre:
                if room <= 0:
                    break
                take = min(room, item[1])
                chunks.append((item, take))
                room -= take
            P = float(sum(tk for _, tk in chunks))
            dt = float(sm.seconds(nd, P, float(d_ctx.sum())))
            now += dt
            steps += 1
            busy_batch_time += nd * dt
            k = 1
            for item, take in chunks:
                item[1] -= take
            if nd:
                d_rem = d_rem - 1
                d_ctx = d_ctx + 1
            new_idx, new_rem, new_ctx = [], [], []
            while pre and pre[0][1] <= 0:
                i = pre.popleft()[0]
                first[i] = now
                new_idx.append(i)
                new_rem.append(osl[i] - 1.0)
                new_ctx.append(isl[i] + 1.0)
        else:
            # a run of pure decode steps up to the next event
            ctx = float(d_ctx.sum())
            k_max = int(d_rem.min())
            j = np.arange(k_max, dtype=float)
            dts = sm.seconds(nd, 0.0, ctx + nd * j)
            cum = np.cumsum(dts)
            k = k_max
            nxt = None
            if queue:
                if (len(d_idx) + len(pre)) < cap and kv_used + kv_need[queue[0]] <= budget:
                    nxt = now
            elif arr_ptr < N and np.isfinite(arrive[arr_ptr]) and (len(d_idx) + len(pre)) < cap \
                    and kv_used + kv_need[arr_ptr] <= budget:
                nxt = float(arrive[arr_ptr])
            if nxt is not None:
                k = int(min(k_max, np.searchsorted(cum, nxt - now, side="left") + 1))
            dt = float(cum[k - 1])
            now += dt
            steps += k
            busy_batch_time += nd * dt
            d_rem = d_rem - k
            d_ctx = d_ctx + k
            new_idx, new_rem, new_ctx = [], [], []
        # finishes
        if len(d_idx):
            fin = d_rem <= 0
            if fin.any():
                for i in d_idx[fin]:
                    finish[i] = now
                    kv_used -= kv_need[i]
                    done += 1
                    if closed and next_new < N:
                        arrive[next_new] = now
                        next_new += 1
                keep = ~fin
                d_idx, d_rem, d_ctx = d_idx[keep], d_rem[keep], d_ctx[keep]
        if new_idx:
            ni = np.asarray(new_idx, dtype=int)
            nr = np.asarray(new_rem)
            one_token = nr <= 0                       # osl = 1 cannot happen (osl >= 2), kept safe
            for i in ni[one_token]:
                finish[i] = now
                kv_used -= kv_need[i]
                done += 1
            d_idx = np.concatenate([d_idx, ni[~one_token]])
            d_rem = np.concatenate([d_rem, nr[~one_token]])
            d_ctx = np.concatenate([d_ctx, np.asarray(new_ctx)[~one_token]])

    ttft = first - arrive
    tpot = (finish - first) / (osl - 1.0)
    start = float(arrive.min())
    dur = float(finish.max() - start)
    out_tokens = float(osl.sum())
    offered = (N / float(arrive.max() - start)) if (not closed and N > 1 and arrive.max() > start) else N / dur
    served = N / dur
    stable = closed or served >= 0.97 * offered
    pct = lambda x, q: float(np.percentile(x, q))
    return SimResult(n_requests=N, duration_seconds=dur,
                     ttft_p50=pct(ttft, 50), ttft_p90=pct(ttft, 90), ttft_p99=pct(ttft, 99),
                     tpot_p50=pct(tpot, 50), tpot_p90=pct(tpot, 90), tpot_p99=pct(tpot, 99),
                     ttft_mean=float(ttft.mean()), tpot_mean=float(tpot.mean()),
                     tokens_per_s=out_tokens / dur, tokens_per_s_per_gpu=out_tokens / dur / r.tp,
                     requests_per_s=served, offered_requests_per_s=offered,
                     mean_batch=busy_batch_time / dur, mean_wait_seconds=float(np.mean(admit - arrive)),
                     max_queue=int(max_queue), steps=steps, stable=bool(stable), max_seqs=cap)
