"""Waiting for a server: the mean queueing delay of Poisson arrivals at deterministic servers.

A serving engine's prompt slot is such a server: requests arrive at random (Poisson, rate
λ), each holds the slot for a fixed time S (its prefill), and c slots serve them.  The
analytic steady state (:mod:`calc.serving.steady`) gives S; this module gives the wait
before it, so a TTFT target is held by the MEAN TTFT with queueing, not by S alone (a pool
sized to 95 % load waits ~10 S on average).

    a   = λ · S                         offered load (erlangs); stable only when a < c
    ρ   = a / c                         utilisation of each server
    C   = Erlang C (c, a)               probability that an arrival waits (M/M/c)
    W_q = C · S / (c − a) · (c_a² + c_s²) / 2        Allen–Cunneen
        = C · S / (2 (c − a))            M/D/c: c_a² = 1 (Poisson), c_s² = 0 (fixed S)

At c = 1 this is exact, Pollaczek–Khinchine's M/D/1: W_q = ρ · S / (2 (1 − ρ)).

A percentile (a p90 TTFT target): the wait of an arrival that waits is taken as exponential
with the mean W_q / C, so P(W > t) = C · exp(−C · t / W_q) and the q-quantile is

    t_q = (W_q / C) · ln(C / (1 − q))    where C > 1 − q, else 0 (more than q wait not at all)

exact for M/M/c (whose conditional wait is exponential, rate c/S − λ), and the usual
approximation for G/G/c (W. Whitt, "Approximations for the GI/G/m queue", Production and
Operations Management 2(2), 1993: the conditional delay as exponential with the mean from
the mean-wait approximation).  Against an FCFS simulation of M/D/c (c = 1, 4, 8, 32; load
0.5-0.95) the p90 TTFT S + t_q is within 5 % (tests/calc/test_serving.py).  For c > 1
it is the Allen–Cunneen approximation, the standard one for G/G/c (M/M/c's Erlang C wait
scaled by the arrivals' and services' variability).  Sources: A. O. Allen, *Probability, Statistics, and Queueing
Theory*, 2nd ed. (1990), §6 (Allen–Cunneen); L. Kleinrock, *Queueing Systems* vol. 1
(1975), §5.7 (Pollaczek–Khinchine); A. K. Erlang (1917) (Erlang C, computed through the
Erlang B recursion B_k = a·B_{k−1} / (k + a·B_{k−1}), C = c·B_c / (c − a·(1 − B_c)),
which stays finite for thousands of servers).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["erlang_c", "mdc_wait_seconds", "mdc_wait_quantile", "queue_wait", "MAX_EXACT_SERVERS"]

MAX_EXACT_SERVERS = 2000
"""Up to this many servers Erlang C is computed exactly (the Erlang B recursion, O(c));
beyond it by Halfin & Whitt's many-server limit, O(1), so a rate of 10^30 requests/s (a
typed extreme) sizes at once instead of looping 10^29 times."""


def erlang_c(servers: int, offered: float | np.ndarray) -> np.ndarray:
    """Probability that a Poisson arrival waits, M/M/c with c = ``servers`` and offered load
    ``offered`` = λ·S erlangs (array-valued); 1 where offered >= servers.  Dimensionless.

    c <= MAX_EXACT_SERVERS: exact, B_k = a·B_{k−1} / (k + a·B_{k−1}), C = c·B_c / (c − a(1 − B_c)).
    Beyond: Halfin & Whitt (1981, Operations Research 29(3), "Heavy-traffic limits for queues
    with many exponential servers"), C ≈ 1 / (1 + β·Φ(β)/φ(β)) with β = (c − a)/√a, within
    0.0035 of the exact probability at 2,001 servers (tests/calc/test_serving.py), closer beyond.
    """
    c = int(servers)
    if c < 1:
        raise ValueError(f"servers must be a whole number >= 1, got {servers!r}")
    a = np.asarray(offered, dtype=float)
    if c > MAX_EXACT_SERVERS:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            beta = (c - a) / np.sqrt(np.maximum(a, 1e-300))
            cdf = 0.5 * (1.0 + np.vectorize(math.erf, otypes=[float])(beta / math.sqrt(2.0)))
            pdf = np.exp(-0.5 * beta * beta) / math.sqrt(2.0 * math.pi)
            pw = 1.0 / (1.0 + beta * cdf / pdf)
        pw = np.where(beta > 37.0, 0.0, np.nan_to_num(pw, nan=0.0))   # φ(37) underflows: no wait
        return np.where(a >= c, 1.0, np.clip(pw, 0.0, 1.0))
    b = np.ones_like(a)
    for k in range(1, c + 1):
        b = a * b / (k + a * b)
    with np.errstate(divide="ignore", invalid="ignore"):
        pw = c * b / (c - a * (1.0 - b))
    return np.where(a >= c, 1.0, np.clip(pw, 0.0, 1.0))


def mdc_wait_seconds(rate: float | np.ndarray, service_seconds: float | np.ndarray,
                     servers: int = 1) -> np.ndarray:
    """Mean wait in the queue (s) of Poisson arrivals at ``rate`` (1/s) for ``servers``
    identical servers that each take ``service_seconds`` per request (see the module
    docstring: M/D/c by Allen–Cunneen, exact Pollaczek–Khinchine at c = 1).  inf where the
    load reaches the servers (λ·S >= c); 0 at rate 0."""
    lam = np.asarray(rate, dtype=float)
    s = np.asarray(service_seconds, dtype=float)
    c = int(servers)
    a = lam * s
    if c == 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            w = a * s / (2.0 * (1.0 - a))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            w = erlang_c(c, a) * s / (2.0 * (c - a))
    w = np.where(a >= c, math.inf, w)             # the queue grows without bound
    return np.where(lam <= 0, 0.0, w)


def mdc_wait_quantile(rate: float | np.ndarray, service_seconds: float | np.ndarray,
                      servers: int = 1, quantile: float = 0.9) -> np.ndarray:
    """The ``quantile`` (0 < q < 1) of the wait in the queue (s) of Poisson arrivals at
    ``rate`` (1/s) for ``servers`` servers of ``service_seconds`` each (the module
    docstring): t_q = (W_q / C) · ln(C / (1 − q)) where the probability of waiting C exceeds
    1 − q, else 0; W_q = :func:`mdc_wait_seconds`, C = :func:`erlang_c`.  inf where the load
    reaches the servers; 0 at rate 0."""
    q = float(quantile)
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile must be between 0 and 1 (0.9 for p90), got {quantile!r}")
    lam = np.asarray(rate, dtype=float)
    s = np.asarray(service_seconds, dtype=float)
    w = mdc_wait_seconds(lam, s, servers)
    pw = erlang_c(int(servers), lam * s)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(pw > 1.0 - q, w / pw * np.log(pw / (1.0 - q)), 0.0)
    t = np.where(np.isinf(w), math.inf, t)
    return np.where(lam <= 0, 0.0, t)


def queue_wait(rate: float | np.ndarray, service_seconds: float | np.ndarray, servers: int = 1,
               quantile: float | None = None) -> np.ndarray:
    """The wait (s) a TTFT target is held by: the mean (:func:`mdc_wait_seconds`) when
    ``quantile`` is None, else that quantile (:func:`mdc_wait_quantile`, 0.9 for p90)."""
    if quantile is None:
        return mdc_wait_seconds(rate, service_seconds, servers)
    return mdc_wait_quantile(rate, service_seconds, servers, quantile)
