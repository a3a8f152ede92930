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
the mean-wait approximation).  Against an FCFS simulation of M/D/c (c = 4, 8, 32; load
0.8-0.9) the p90 TTFT S + t_q is within 5 % (tests/calc/test_serving.py).  At c = 1 the
wait's distribution is known exactly (M/D/1, Erlang 1909), and the quantile is taken from it:

    P(W <= t) = (1 − ρ) Σ_{k=0}^{⌊t/S⌋} [λ(kS − t)]^k / k! · e^{−λ(kS − t)}      (λt <= 12)
    P(W > t)  ≈ K·e^{−θt},  λ(e^{θS} − 1) = θ,  K = (1 − ρ)/(λ S e^{θS} − 1)     (beyond)

(the Cramér–Lundberg tail, asymptotically exact; the series alternates, and past λt ≈ 12 its
terms, ~e^{2λt}, swamp floating point).  Within 2 % of the simulated p90 and p99 at loads
0.2-0.9, where the exponential shortcut read 8-19 % high at p99.  For c > 1
it is the Allen–Cunneen approximation, the standard one for G/G/c (M/M/c's Erlang C wait
scaled by the arrivals' and services' variability).  Sources: A. O. Allen, *Probability, Statistics, and Queueing
Theory*, 2nd ed. (1990), §6 (Allen–Cunneen); L. Kleinrock, *Queueing Systems* vol. 1
(1975), §5.7 (Pollaczek–Khinchine); A. K. Erlang (1917) (Erlang C, computed through the
Erlang B recursion B_k = a·B_{k−1} / (k + a·B_{k−1}), C = c·B_c / (c − a·(1 − B_c)),
which stays finite for thousands of servers).
"""

from __future__ import annotations

import math
from functools import lru_cache

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
    docstring): at c = 1 M/D/1's exact quantile (``_md1_wait_quantile``); for c > 1 t_q =
    (W_q / C) · ln(C / (1 − q)) where the probability of waiting C exceeds 1 − q, else 0;
    W_q = :func:`mdc_wait_seconds`, C = :func:`erlang_c`.  inf where the load reaches the
    servers; 0 at rate 0."""
    q = float(quantile)
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile must be between 0 and 1 (0.9 for p90), got {quantile!r}")
    lam = np.asarray(rate, dtype=float)
    s = np.asarray(service_seconds, dtype=float)
    if int(servers) == 1:                        # M/D/1: its exact distribution
        return _md1_quantile(lam, s, q)
    w = mdc_wait_seconds(lam, s, servers)
    pw = erlang_c(int(servers), lam * s)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(pw > 1.0 - q, w / pw * np.log(pw / (1.0 - q)), 0.0)
    t = np.where(np.isinf(w), math.inf, t)
    return np.where(lam <= 0, 0.0, t)


MD1_SERIES_MAX = 12.0
"""λ·t up to which the M/D/1 wait's distribution is summed from Erlang's series in floating
point (its terms reach ~e^(2λt): 2.6e10 at 12, so the CDF keeps ~1e-6); beyond it the
Cramér–Lundberg tail is used, which is exact as t grows."""


def _md1_cdf(t: float, lam: float, s: float) -> float:
    """P(W <= t) of M/D/1 (Erlang 1909; e.g. Gross & Harris, *Fundamentals of Queueing
    Theory*, M/D/1 waiting-time distribution):
    (1 − ρ) Σ_{k=0}^{⌊t/S⌋} [λ(kS − t)]^k / k! · e^{−λ(kS − t)}."""
    k = np.arange(int(math.floor(t / s)) + 1, dtype=float)
    x = lam * (k * s - t)                        # <= 0
    lg = np.array([math.lgamma(j + 1.0) for j in k])
    mag = np.where(k > 0, k * np.log(np.maximum(np.abs(x), 1e-300)), 0.0) - lg - x
    terms = np.where((k % 2 == 1) & (x < 0), -1.0, 1.0) * np.exp(mag)
    return float((1.0 - lam * s) * terms.sum())


def _md1_tail(lam: float, s: float) -> tuple[float, float]:
    """(K, θ) of the M/D/1 wait's tail P(W > t) ≈ K·e^{−θt} (Cramér–Lundberg): θ solves
    λ(e^{θS} − 1) = θ, K = (1 − ρ) / (λ·S·e^{θS} − 1).  M/M/1's version gives K = ρ,
    θ = μ − λ, its exact tail."""
    rho = lam * s
    lo, hi = 0.0, 1.0
    while rho * math.expm1(hi) <= hi:
        hi *= 2.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if rho * math.expm1(mid) > mid:
            hi = mid
        else:
            lo = mid
    x = 0.5 * (lo + hi)
    return (1.0 - rho) / (rho * math.exp(x) - 1.0), x / s


def _md1_wait_quantile(lam: float, s: float, q: float) -> float:
    """The exact q-quantile of the M/D/1 wait (s): bisection on Erlang's CDF where λ·t <=
    MD1_SERIES_MAX, the Cramér–Lundberg tail beyond."""
    if lam <= 0.0:
        return 0.0
    rho = lam * s
    if rho >= 1.0:
        return math.inf
    if 1.0 - rho >= q:                           # at least q of arrivals find the slot free
        return 0.0
    K, theta = _md1_tail(lam, s)
    t_tail = math.log(K / (1.0 - q)) / theta
    if lam * t_tail > MD1_SERIES_MAX:
        return t_tail
    lo, hi = 0.0, s
    while _md1_cdf(hi, lam, s) < q:
        if lam * hi > MD1_SERIES_MAX:
            return t_tail
        lo, hi = hi, 2.0 * hi
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if _md1_cdf(mid, lam, s) >= q:
            hi = mid
        else:
            lo = mid
    return hi


MD1_TABLE_POINTS = 800
"""Points of the table of M/D/1 wait quantiles per quantile (``_md1_table``): from
ρ = 1 − q (where the quantile leaves 0), geometric in ρ − (1 − q) there and in 1 − ρ up to
1 − 10⁻⁴; linear interpolation between them is within 1e-3 of the exact TTFT quantile
(tests/calc/test_serving.py)."""


@lru_cache(maxsize=8)
def _md1_table(q: float) -> tuple[np.ndarray, np.ndarray]:
    """(ρ, w·(1 − ρ)) for the q-quantile w (in service times) of the M/D/1 wait on a grid of
    loads, computed once per quantile with the exact ``_md1_wait_quantile``."""
    rho0, half = 1.0 - q, MD1_TABLE_POINTS // 2
    mid = max(0.5, 2.0 * rho0) if rho0 < 0.5 else 0.5 * (1.0 + rho0)
    low = rho0 + (mid - rho0) * np.geomspace(1e-9, 1.0, half)        # dense where w leaves 0
    high = 1.0 - (1.0 - mid) * np.geomspace(1.0, 1e-4 / (1.0 - mid), half + 1)[1:]  # and near 1
    kinks = []                 # the loads whose quantile is a whole number n of services:
    for n in range(1, 9):      # the density has a kink there, so the table takes that point
        lo, hi = rho0, 1.0     # F(n·S) = q, F falling with the load
        for _ in range(60):
            m = 0.5 * (lo + hi)
            lo, hi = (m, hi) if _md1_cdf(float(n), m, 1.0) > q else (lo, m)
        if n * hi <= MD1_SERIES_MAX:
            kinks.append(hi)
    rho = np.unique(np.concatenate([[rho0], low, high, kinks]))
    w = np.array([_md1_wait_quantile(float(r), 1.0, q) for r in rho])
    return rho, w * (1.0 - rho)


def _md1_quantile(lam: np.ndarray, s: np.ndarray, q: float) -> np.ndarray:
    """M/D/1's exact q-quantile of the wait (s), vectorized: 0 where ρ <= 1 − q, inf where
    ρ >= 1, the table's interpolation up to ρ = 1 − 10⁻⁴, the exact function beyond."""
    rho = lam * s
    rho_grid, h_grid = _md1_table(q)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.interp(rho, rho_grid, h_grid) / (1.0 - rho) * s
    near = (rho > 1.0 - 1e-4) & (rho < 1.0)
    if np.any(near):                             # past the table: the exact function
        exact = np.vectorize(lambda r, x: _md1_wait_quantile(float(r), float(x), q), otypes=[float])
        w = np.where(near, exact(np.where(near, lam, 0.0), s), w)
    w = np.where(rho <= 1.0 - q, 0.0, w)
    w = np.where(rho >= 1.0, math.inf, w)
    return np.where(lam <= 0, 0.0, w)


def queue_wait(rate: float | np.ndarray, service_seconds: float | np.ndarray, servers: int = 1,
               quantile: float | None = None) -> np.ndarray:
    """The wait (s) a TTFT target is held by: the mean (:func:`mdc_wait_seconds`) when
    ``quantile`` is None, else that quantile (:func:`mdc_wait_quantile`, 0.9 for p90)."""
    if quantile is None:
        return mdc_wait_seconds(rate, service_seconds, servers)
    return mdc_wait_quantile(rate, service_seconds, servers, quantile)
