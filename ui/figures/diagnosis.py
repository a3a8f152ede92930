"""Trace doctor figures: the GPU timeline strip, time by class, the kernel-duration histogram
and the step times. Pure functions of a :class:`calc.diagnosis.TraceDiagnosis` (no
Streamlit). The timeline draws every kernel as a WebGL line segment (``scattergl``): 100 000
kernels stay interactive. Beyond MAX_EXACT_SEGMENTS activities, runs of same-class kernels
closer than a pixel of the full window are joined (display only: the numbers come from
calc.diagnosis).
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from calc.diagnosis import CLASSES, TraceDiagnosis
from calc.units import format_percent, format_si
from ui.figures.roofline import make_figure
from ui.i18n import Translator

CLASS_COLORS = {
    "matmul": "#1565c0",
    "attention": "#6a1b9a",
    "norm": "#00897b",
    "elementwise": "#7cb342",
    "reduction": "#f9a825",
    "communication": "#d32f2f",
    "memory": "#8d6e63",
    "optimizer": "#ef6c00",
    "other": "#9e9e9e",
}
BUSY_COLOR = "#424242"
GAP_COLOR = "#ff7043"
#: Up to this many activities the timeline draws every one exactly (joining only those that
#: touch); beyond it, runs closer than 1/TIMELINE_PIXELS of the window are joined.
MAX_EXACT_SEGMENTS = 150_000
TIMELINE_PIXELS = 4000


def _ms(x):
    return np.asarray(x, dtype=float) * 1e3


def join_segments(start: np.ndarray, end: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Join intervals (sorted by start) whose gap is below ``eps``: what a screen can show."""
    if start.size == 0:
        return start, end
    order = np.argsort(start, kind="stable")
    s, e = start[order], np.maximum.accumulate(end[order])
    new = np.empty(s.size, dtype=bool)
    new[0] = True
    new[1:] = s[1:] > e[:-1] + eps
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, s.size - 1)
    return s[first], e[last]


def class_runs(start: np.ndarray, end: np.ndarray, cls: np.ndarray,
               eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kernels of one stream in time order -> runs of consecutive same-class kernels whose
    gaps are below ``eps`` (start, end, class of each run)."""
    if start.size == 0:
        return start, end, cls
    cm = np.maximum.accumulate(end)
    new = np.empty(start.size, dtype=bool)
    new[0] = True
    new[1:] = (cls[1:] != cls[:-1]) | (start[1:] > cm[:-1] + eps)
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, start.size - 1)
    return start[first], cm[last], cls[first]


def _segments_xy(start: np.ndarray, end: np.ndarray, y: float) -> tuple[np.ndarray, np.ndarray]:
    """x, y arrays drawing each [start, end] as a line, separated by gaps (NaN)."""
    n = start.size
    x = np.empty(3 * n)
    x[0::3], x[1::3], x[2::3] = start, end, np.nan
    yy = np.full(3 * n, y, dtype=float)
    yy[2::3] = np.nan
    return x, yy


def timeline_figure(t: Translator, d: TraceDiagnosis, *, max_streams: int = 12,
                    height: int | None = None) -> go.Figure:
    """GPU timeline: a "GPU busy" row (the union of all activity, largest idle gaps marked)
    above one row per stream, each kernel coloured by class; communication drawn thicker.
    x in milliseconds from the first GPU activity."""
    a = d.activity
    span = d.activity_window_seconds or d.window_seconds
    eps = (span / TIMELINE_PIXELS if len(a) > MAX_EXACT_SEGMENTS and span > 0 else 0.0)
    streams = [s.stream for s in d.streams][:max_streams]
    row_of = {label: i for i, label in enumerate(a.streams)}
    rows = len(streams) + 1
    top = float(rows - 1)          # the busy row on top, then the streams downwards
    data: list[dict] = []
    # busy row: the union of everything
    bs, be = join_segments(a.start, a.start + a.duration, eps)
    x, y = _segments_xy(_ms(bs), _ms(be), top)
    # float32 arrays travel as binary (plotly's typed arrays), not as JSON number lists:
    # the busy row alone was 560 kB of the ResNet trace's 1 MB figure
    data.append({"type": "scattergl", "mode": "lines", "x": x.astype(np.float32),
                 "y": y.astype(np.float32),
                 "line": {"color": BUSY_COLOR, "width": 14}, "name": t("diagnosis.fig.busy"),
                 "hoverinfo": "skip", "showlegend": True})
    if d.idle_gaps:
        gx = [_ms(g.start_seconds + g.length_seconds / 2) for g in d.idle_gaps]
        hover = [t("diagnosis.fig.gap_hover", length=format_si(g.length_seconds, "s"),
                   at=format_si(g.start_seconds, "s"),
                   cpu=g.cpu_name or t("diagnosis.gap.no_cpu")) for g in d.idle_gaps]
        data.append({"type": "scatter", "mode": "markers", "x": [float(v) for v in gx],
                     "y": [top] * len(gx), "name": t("diagnosis.fig.gap"),
                     "marker": {"symbol": "x-thin", "size": 14, "color": GAP_COLOR,
                                "line": {"width": 3, "color": GAP_COLOR}},
                     "hovertext": hover, "hovertemplate": "%{hovertext}<extra></extra>"})
    # one row per stream: runs of same-class kernels closer than a pixel are joined (kernels
    # of other classes in between are not jumped over, so zooming shows what really ran)
    stream_idx = [row_of[s] for s in streams]
    per_class: dict[int, tuple[list, list]] = {}
    for r, si in enumerate(stream_idx, start=1):
        sel = np.flatnonzero(a.stream == si)
        if sel.size == 0:
            continue
        order = sel[np.argsort(a.start[sel], kind="stable")]
        s_, e_, c_ = a.start[order], a.start[order] + a.duration[order], a.cls[order]
        run_s, run_e, run_c = class_runs(s_, e_, c_, eps)
        for ci in np.unique(run_c).tolist():
            m = run_c == ci
            x, y = _segments_xy(_ms(run_s[m]), _ms(run_e[m]), top - r)
            xs, ys = per_class.setdefault(ci, ([], []))
            xs.append(x)
            ys.append(y)
    for ci, cls in enumerate(CLASSES):
        if ci not in per_class:
            continue
        xs, ys = per_class[ci]
        data.append({"type": "scattergl", "mode": "lines",
                     "x": np.concatenate(xs).astype(np.float32),
                     "y": np.concatenate(ys).astype(np.float32), "name": t(f"diagnosis.class.{cls}"),
                     "line": {"color": CLASS_COLORS[cls], "width": 14 if cls == "communication" else 10},
                     "hovertemplate": t("diagnosis.fig.segment_hover",
                                        cls=t(f"diagnosis.class.{cls}")) + "<extra></extra>"})
    labels = [t("diagnosis.fig.busy_row")] + [t("diagnosis.fig.stream", stream=s) for s in streams]
    return make_figure(data, {
        "height": height or max(260, 120 + 48 * rows),
        "xaxis": {"title": {"text": t("diagnosis.fig.time_ms")}, "showgrid": True,
                  "zeroline": False, "range": [0, _ms(span) * 1.005 or 1]},
        "yaxis": {"tickvals": [top - i for i in range(rows)], "ticktext": labels,
                  "showgrid": False, "zeroline": False, "range": [-0.5, rows - 0.5],
                  "fixedrange": True},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        "margin": {"l": 10, "r": 10, "t": 60, "b": 10}, "hovermode": "closest",
        "font": {"size": 13},
    })


def class_bar_figure(t: Translator, d: TraceDiagnosis, *, height: int = 340) -> go.Figure:
    """GPU time by class (horizontal bars, share of all GPU activity time)."""
    classes = [c for c in CLASSES if d.class_seconds[c] > 0] or list(CLASSES[:1])
    shares = [d.class_shares[c] for c in classes]
    names = [t(f"diagnosis.class.{c}") for c in classes]
    text = [f"{format_percent(s)} · {format_si(d.class_seconds[c], 's')}" for s, c in zip(shares, classes)]
    data = [{"type": "bar", "orientation": "h", "y": names, "x": shares,
             "marker": {"color": [CLASS_COLORS[c] for c in classes]}, "text": text,
             "textposition": "auto", "hovertemplate": "%{y}: %{text}<extra></extra>",
             "showlegend": False}]
    return make_figure(data, {
        "height": height,
        "xaxis": {"title": {"text": t("diagnosis.fig.share")}, "tickformat": ".0%",
                  "range": [0, max(shares) * 1.15 if shares else 1]},
        "yaxis": {"autorange": "reversed"},
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10}, "font": {"size": 13},
    })


def duration_histogram_figure(t: Translator, d: TraceDiagnosis, *, bins_per_decade: int = 8,
                              height: int = 340) -> go.Figure:
    """Kernel durations on a log axis: count per bin (bars) and the small-kernel threshold."""
    a = d.activity
    dur = a.duration[a.is_kernel]
    dur = dur[dur > 0]
    thr = d.small_kernel_threshold_seconds
    data: list[dict] = []
    ymax = 1.0
    lo, hi = np.floor(np.log10(thr)), np.floor(np.log10(thr)) + 1
    if dur.size:
        lo = np.floor(np.log10(min(dur.min(), thr)))
        hi = np.ceil(np.log10(max(dur.max(), thr)))
        if hi <= lo:
            hi = lo + 1
        edges = 10 ** np.linspace(lo, hi, int((hi - lo) * bins_per_decade) + 1)
        counts, _ = np.histogram(dur, bins=edges)
        seconds, _ = np.histogram(dur, bins=edges, weights=dur)
        centers = np.sqrt(edges[:-1] * edges[1:])
        keep = counts > 0
        hover = [t("diagnosis.fig.hist_hover", lo=format_si(edges[i], "s"),
                   hi=format_si(edges[i + 1], "s"), n=f"{int(counts[i]):,}",
                   time=format_si(seconds[i], "s"))
                 for i in np.flatnonzero(keep).tolist()]
        colors = np.where(centers[keep] < thr, CLASS_COLORS["reduction"], CLASS_COLORS["matmul"])
        data.append({"type": "bar", "x": centers[keep], "y": counts[keep],
                     "width": (edges[1:] - edges[:-1])[keep] * 0.9,
                     "marker": {"color": colors.tolist()}, "name": t("diagnosis.fig.kernels"),
                     "hovertext": hover, "hovertemplate": "%{hovertext}<extra></extra>",
                     "showlegend": False})
        ymax = float(counts.max())
    data.append({"type": "scatter", "mode": "lines", "x": [thr, thr], "y": [0, ymax * 1.05],
                 "line": {"color": "#212121", "dash": "dash", "width": 2},
                 "name": t("diagnosis.fig.threshold", threshold=format_si(thr, "s")),
                 "hovertemplate": t("diagnosis.fig.threshold", threshold=format_si(thr, "s"))
                 + "<extra></extra>"})
    decades = [float(10.0 ** k) for k in range(int(lo), int(hi) + 1)]
    return make_figure(data, {
        "height": height,
        # one tick per decade, each written by format_si ("1 µs", "100 µs", "1 ms"): plotly's
        # SI ticks mixed "μs" with "0.001s"
        "xaxis": {"type": "log", "title": {"text": t("diagnosis.fig.duration")},
                  "tickvals": decades, "ticktext": [format_si(v, "s") for v in decades]},
        "yaxis": {"title": {"text": t("diagnosis.fig.count")}, "rangemode": "tozero"},
        "legend": {"orientation": "h", "y": 1.08, "x": 0},
        "margin": {"l": 10, "r": 10, "t": 30, "b": 10}, "font": {"size": 13},
    })


def steps_figure(t: Translator, d: TraceDiagnosis, mfu: np.ndarray | None = None, *,
                 height: int = 300) -> go.Figure:
    """Step times (bars) with the GPU-busy part of each step; MFU per step on hover."""
    names = [s.name.replace("ProfilerStep", "") for s in d.steps]
    step_ms = [s.seconds * 1e3 for s in d.steps]
    busy_ms = [s.gpu_busy_seconds * 1e3 for s in d.steps]
    extra = ([format_percent(float(m)) for m in mfu] if mfu is not None
             else ["—"] * len(d.steps))
    hover = [t("diagnosis.fig.step_hover", step=s.name, time=format_si(s.seconds, "s"),
               busy=format_percent(s.busy_fraction), mfu=m) for s, m in zip(d.steps, extra)]
    data = [
        {"type": "bar", "x": names, "y": step_ms, "name": t("diagnosis.fig.step_time"),
         "marker": {"color": "#bdbdbd"}, "hovertext": hover,
         "hovertemplate": "%{hovertext}<extra></extra>"},
        {"type": "bar", "x": names, "y": busy_ms, "name": t("diagnosis.fig.step_busy"),
         "marker": {"color": BUSY_COLOR}, "hovertext": hover,
         "hovertemplate": "%{hovertext}<extra></extra>"},
    ]
    return make_figure(data, {
        "height": height, "barmode": "overlay",
        "xaxis": {"title": {"text": t("diagnosis.fig.step")}, "type": "category"},
        "yaxis": {"title": {"text": t("diagnosis.fig.ms")}, "rangemode": "tozero"},
        "legend": {"orientation": "h", "y": 1.1, "x": 0},
        "margin": {"l": 10, "r": 10, "t": 30, "b": 10}, "font": {"size": 13},
    })
