"""Pipeline schedules: the bubble each one leaves and the timeline a Gantt chart draws.

p pipeline stages, m micro-batches per step, per micro-batch and stage F (forward),
B (full backward: input and weight gradients) and W (the weight-gradient part of B):

    1F1B          bubble = (p−1)·(F+B)          share of the step (p−1)/(m+p−1)
    interleaved   bubble = (p−1)·(F+B)/v        share (p−1)/(v·m+p−1), v model chunks per GPU
    ZB1P          bubble = (p−1)·(F+B−2W)       zero-bubble, one pipeline (Qi et al. 2023)
    DualPipe      bubble = (p/2−1)·(F&B+B−3W)   F&B: a forward and a backward chunk run
                                                together (here F+B: compute is not doubled)

The step's pipeline time is m·(F+B) + bubble.  Sources: Narayanan et al. 2021 §2.2
(bubble / ideal = (p−1)/m; interleaved (1/v)·(p−1)/m); deepseek-ai/DualPipe README
("Pipeline bubbles and memory usage comparison": 1F1B, ZB1P, DualPipe rows); Qi et al.,
"Zero Bubble Pipeline Parallelism" (2023).

The memory each schedule holds per stage (micro-batches in flight, interleaving's extra,
DualPipe's two copies of the parameters) is calc.training_memory's (layers_in_flight).
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SCHEDULES", "Bubble", "pipeline_bubble",
           "GanttBlock", "schedule_timeline"]

SCHEDULES = ("1f1b", "interleaved", "zb1p", "dualpipe")


@dataclass(frozen=True)
class Bubble:
    """Pipeline time of one step: ``busy`` = m·(F+B), ``bubble`` seconds idle per GPU,
    ``seconds`` = busy + bubble, ``fraction`` = bubble / seconds."""

    schedule: str
    busy: float
    bubble: float
    seconds: float
    fraction: float


def _check(schedule: str, p: int, m: int, v: int) -> None:
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    for name, x in (("pp", p), ("n_microbatches", m), ("interleave", v)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ValueError(f"{name} must be a whole number ≥ 1, got {x!r}")
    if schedule == "dualpipe" and p > 1 and p % 2:
        raise ValueError(f"pp must be even for DualPipe (two pipelines fed from both ends), got {p}")


def pipeline_bubble(schedule: str, *, pp: int, n_microbatches: int, forward: float,
                    backward: float, weight_grad: float = 0.0, interleave: int = 1) -> Bubble:
    """The bubble of ``schedule`` (formulas in the module docstring)   [s].

    forward, backward, weight_grad: F, B, W per micro-batch on one stage (seconds; B is
    the full backward, W ≤ B its weight-gradient part).  interleave v: chunks per GPU
    (interleaved only; F and B are then the times of all v chunks together).
    Hand check (tests): p = 8, m = 64, 1F1B: 7/71 = 9.9 % of the step; v = 3: 7/199 = 3.5 %.
    """
    p, m = pp, n_microbatches
    v = interleave if schedule == "interleaved" else 1
    _check(schedule, p, m, v)
    F, B, W = float(forward), float(backward), float(weight_grad)
    if min(F, B, W) < 0 or W > B:
        raise ValueError(f"need forward, backward ≥ 0 and 0 ≤ weight_grad ≤ backward, got {F}, {B}, {W}")
    if schedule == "1f1b":
        bubble = (p - 1) * (F + B)
    elif schedule == "interleaved":
        bubble = (p - 1) * (F + B) / v
    elif schedule == "zb1p":
        bubble = (p - 1) * max(0.0, F + B - 2.0 * W)
    else:
        bubble = max(0.0, p / 2 - 1) * max(0.0, (F + B) + B - 3.0 * W)
    busy = m * (F + B)
    total = busy + bubble
    return Bubble(schedule, busy, bubble, total, bubble / total if total > 0 else 0.0)


@dataclass(frozen=True)
class GanttBlock:
    """One block of a schedule's timeline: ``stage`` (0 = first), ``kind`` "F", "B" or "W",
    ``microbatch`` (0-based), ``chunk`` (model chunk, interleaved), start and end (s)."""

    stage: int
    kind: str
    microbatch: int
    chunk: int
    start: float
    end: float


def schedule_timeline(schedule: str, *, pp: int, n_microbatches: int, forward: float = 1.0,
                      backward: float = 2.0, weight_grad: float = 0.0,
                      interleave: int = 1) -> list[GanttBlock]:
    """Blocks of one step on every stage, as a list-scheduling simulation of the schedule.

    Each stage runs its queue in order; a forward of micro-batch j on stage s starts when
    stage s−1 has finished it, a backward when stage s+1 has.  Orders: 1F1B (warm-up
    p−1−s forwards, then one forward / one backward, Narayanan 2021 Fig. 4); interleaved
    (v chunks of F/v and B/v, depth-first by groups of p micro-batches, Fig. 4 bottom);
    ZB1P (B split into the input gradient B−W and W; each stage, when free, runs a ready
    backward first, else a forward while fewer than p−s are in flight, else a pending W:
    the W's fill what would be the cool-down bubble, Qi et al. 2023 Fig. 3).  DualPipe is drawn as ZB1P with micro-batches fed from both ends,
    half each (its exact interleaving is in the DualPipe repository; the bubble uses the
    README formula).  The idle time it shows equals :func:`pipeline_bubble` for 1F1B and
    interleaved; for the illustration only — keep m and p small (≤ 64 × 32).
    """
    p, m = pp, n_microbatches
    v = interleave if schedule == "interleaved" else 1
    _check(schedule, p, m, v)
    F, B, W = float(forward), float(backward), float(weight_grad)
    if schedule in ("zb1p", "dualpipe") and W <= 0:
        W = B / 2.0
    # tasks per stage, in order: (kind, microbatch, chunk)
    queues: list[list[tuple[str, int, int]]] = []
    if v > 1:
        n_units = m * v
        fwd_units = [((u // p) // v * p + u % p, (u // p) % v) for u in range(n_units)]
        bwd_units = [(mb, v - 1 - c) for mb, c in fwd_units]
        for s in range(p):
            warm = min(n_units, (p - s - 1) * 2 + (v - 1) * p)
            q = [("F", *fwd_units[i]) for i in range(warm)]
            fi, bi = warm, 0
            while bi < n_units:
                if fi < n_units:
                    q.append(("F", *fwd_units[fi]))
                    fi += 1
                q.append(("B", *bwd_units[bi]))
                bi += 1
            queues.append(q)
        f_t, b_t, w_t = F / v, B / v, 0.0
    elif schedule in ("zb1p", "dualpipe"):
        return _zero_bubble_timeline(p, m, F, B - W, W)
    else:
        for s in range(p):
            warm = min(m, p - s - 1)
            q = [("F", j, 0) for j in range(warm)]
            for j in range(m):
                if warm + j < m:
                    q.append(("F", warm + j, 0))
                q.append(("B", j, 0))
            queues.append(q)
        f_t, b_t, w_t = F, B, 0.0
    dur = {"F": f_t, "B": b_t, "W": w_t}
    done: dict[tuple[str, int, int, int], float] = {}
    clock = [0.0] * p
    idx = [0] * p
    blocks: list[GanttBlock] = []
    remaining = sum(len(q) for q in queues)
    while remaining:
        progressed = False
        for s in range(p):
            while idx[s] < len(queues[s]):
                kind, mb, c = queues[s][idx[s]]
                if kind == "F":
                    dep = (("F", mb, c, s - 1) if s > 0 else
                           (("F", mb, c - 1, p - 1) if c > 0 else None))
                elif kind == "B":
                    dep = (("B", mb, c, s + 1) if s < p - 1 else
                           (("B", mb, c + 1, 0) if c < v - 1 else ("F", mb, c, s)))
                else:
                    dep = ("B", mb, c, s)
                if dep is not None and dep not in done:
                    break
                start = max(clock[s], done[dep] if dep is not None else 0.0)
                end = start + dur[kind]
                done[(kind, mb, c, s)] = end
                clock[s] = end
                blocks.append(GanttBlock(s, kind, mb, c, start, end))
                idx[s] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            raise RuntimeError("pipeline schedule deadlocked")  # a bug, not bad input
    return blocks


def _zero_bubble_timeline(p: int, m: int, F: float, Bi: float, W: float) -> list[GanttBlock]:
    """Greedy list schedule of ZB1P (see schedule_timeline): repeatedly the task that can
    start first on any stage (ties: backward, forward, weight gradient)."""
    done: dict[tuple[str, int, int], float] = {}
    free = [0.0] * p
    nf, nb, nw = [0] * p, [0] * p, [0] * p
    blocks: list[GanttBlock] = []
    dur = {"F": F, "B": Bi, "W": W}
    while len(blocks) < 3 * p * m:
        best = None
        for s in range(p):
            cands = []
            if nb[s] < nf[s]:
                dep = ("B", nb[s], s + 1) if s < p - 1 else ("F", nb[s], s)
                if dep in done:
                    cands.append((max(free[s], done[dep]), 0, "B", nb[s]))
            if nf[s] < m and nf[s] - nb[s] < p - s:
                dep = ("F", nf[s], s - 1) if s > 0 else None
                if dep is None or dep in done:
                    cands.append((max(free[s], done[dep] if dep else 0.0), 1, "F", nf[s]))
            if nw[s] < nb[s]:
                cands.append((free[s], 2, "W", nw[s]))
            for c in cands:
                if best is None or c[:2] < best[0][:2]:
                    best = (c, s)
        if best is None:
            raise RuntimeError("pipeline schedule deadlocked")  # a bug, not bad input
        (start, _, kind, j), s = best
        end = start + dur[kind]
        blocks.append(GanttBlock(s, kind, j, 0, start, end))
        done[(kind, j, s)] = end
        free[s] = end
        counter = {"F": nf, "B": nb, "W": nw}[kind]
        counter[s] += 1
    return blocks
