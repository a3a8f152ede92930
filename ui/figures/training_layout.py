"""Training layout page figures: the step as a stacked bar, the memory per GPU against the
capacity, and the pipeline schedule as a Gantt chart.

Pure functions of calc.parallel records (no Streamlit, no arithmetic beyond placing what
the records give).
"""
from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go

from calc.parallel import GanttBlock, TrainingStep
from calc.units import format_percent, format_si
from ui.figures.roofline import linear_axis, make_figure
from ui.i18n import Translator

PART_COLORS = {"compute": "#2e7d32", "bubble": "#bdbdbd", "tp": "#1565c0", "cp": "#6a1b9a",
               "ep": "#ad1457", "pp": "#00838f", "dp": "#ef6c00", "optimizer": "#5d4037"}
MEMORY_COLORS = {"weights": "#1565c0", "gradients": "#42a5f5", "optimizer": "#ef6c00",
                 "activations": "#2e7d32", "zero3_buffers": "#8e24aa"}
GANTT_COLORS = {"F": "#1e88e5", "B": "#43a047", "W": "#fbc02d"}
MEMORY_PARTS = ("weights", "gradients", "optimizer", "activations", "zero3_buffers")


def step_breakdown_figure(t: Translator, step: TrainingStep, *, height: int = 230) -> go.Figure:
    """One horizontal bar: compute, bubble and each exposed communication, in seconds."""
    data = []
    for key, seconds in step.parts.items():
        if seconds <= 0:
            continue
        name = t(f"training_layout.part.{key}")
        data.append({"type": "bar", "orientation": "h", "x": [seconds], "y": [""], "name": name,
                     "marker": {"color": PART_COLORS[key]},
                     "hovertemplate": f"{name}: {format_si(seconds, 's')} "
                                      f"({format_percent(seconds / step.step_seconds)})<extra></extra>"})
    return make_figure(data, {"barmode": "stack", "height": height,
                              "title": {"text": t("training_layout.fig.step_title")},
                              "xaxis": {"title": {"text": t("training_layout.fig.seconds")}},
                              "legend": {"orientation": "h", "y": -0.45},
                              # held margins (ui.figures.roofline): the x axis and the legend under it
                              "margin": {"l": 20, "r": 20, "t": 50, "b": 85}})


def memory_figure(t: Translator, step: TrainingStep, *, height: int = 230) -> go.Figure:
    """The worst stage's bytes per GPU, stacked, with the capacity and the usable line."""
    mem = step.memory
    data = []
    for key in MEMORY_PARTS:
        value = getattr(mem, key)
        if value <= 0:
            continue
        name = t(f"training_layout.mem.{key}")
        data.append({"type": "bar", "orientation": "h", "x": [value], "y": [""], "name": name,
                     "marker": {"color": MEMORY_COLORS[key]},
                     "hovertemplate": f"{name}: {format_si(value, 'B')}<extra></extra>"})
    shapes, annotations = [], []
    fit = mem.memory_fit
    if fit is not None:
        for x, dash, label in ((fit.capacity_bytes, "solid",
                                t("training_layout.fig.capacity", capacity=format_si(fit.capacity_bytes, "B"))),
                               (fit.usable_bytes, "dot",
                                t("training_layout.fig.usable", usable=format_si(fit.usable_bytes, "B")))):
            shapes.append({"type": "line", "x0": x, "x1": x, "y0": -0.5, "y1": 0.5,
                           "line": {"color": "#c62828", "width": 2, "dash": dash}})
            annotations.append({"x": x, "y": 0.5, "text": label, "showarrow": False,
                                "yanchor": "bottom", "font": {"color": "#c62828"}})
    return make_figure(data, {"barmode": "stack", "height": height, "shapes": shapes,
                              "annotations": annotations,
                              "title": {"text": t("training_layout.fig.memory_title")},
                              # ticks "20 GB", not plotly's "20B" (read as 20 billion)
                              "xaxis": {"title": {"text": t("training_layout.fig.memory_axis")},
                                        **linear_axis(1.05 * max(mem.total,
                                                                 fit.capacity_bytes if fit else 0.0), "B")},
                              "legend": {"orientation": "h", "y": -0.45},
                              "margin": {"l": 20, "r": 25, "t": 60, "b": 85}})   # held margins


def gantt_figure(t: Translator, blocks: Sequence[GanttBlock], *, pp: int, n_microbatches: int,
                 schedule: str, interleave: int = 1, bubble_fraction: float | None = None,
                 total_microbatches: int | None = None, height: int | None = None) -> go.Figure:
    """Stages × time: forward, backward and weight-gradient blocks; the gaps are the bubble."""
    data = []
    for kind in ("F", "B", "W"):
        mine = [b for b in blocks if b.kind == kind]
        if not mine:
            continue
        name = t(f"training_layout.fig.{kind}")
        data.append({"type": "bar", "orientation": "h", "name": name,
                     "base": [b.start for b in mine], "x": [b.end - b.start for b in mine],
                     "y": [t("training_layout.fig.stage", s=b.stage + 1) for b in mine],
                     "text": [str(b.microbatch + 1) for b in mine], "textposition": "inside",
                     "insidetextanchor": "middle",
                     "marker": {"color": GANTT_COLORS[kind], "line": {"color": "white", "width": 1}},
                     "customdata": [[b.microbatch + 1, b.chunk + 1] for b in mine],
                     "hovertemplate": name + " · %{customdata[0]} · %{y}<extra></extra>"})
    if bubble_fraction is not None:
        data.append({"type": "bar", "orientation": "h", "x": [0], "y": [t("training_layout.fig.stage", s=1)],
                     "name": t("training_layout.fig.idle", share=format_percent(bubble_fraction)),
                     "marker": {"color": "#eeeeee", "line": {"color": "#9e9e9e", "width": 1}},
                     "hoverinfo": "skip"})
    v = t("training_layout.fig.gantt_v", v=interleave) if schedule == "interleaved" else ""
    title = t("training_layout.fig.gantt_title", schedule=t(f"training_layout.fig.schedule.{schedule}"),
              p=pp, m=n_microbatches, v=v)
    if total_microbatches and total_microbatches > n_microbatches:
        title += " — " + t("training_layout.fig.gantt_trimmed", m=n_microbatches, total=total_microbatches)
    order = [t("training_layout.fig.stage", s=s + 1) for s in range(pp)]
    return make_figure(data, {"barmode": "overlay", "height": height or max(220, 60 + 34 * pp),
                              "title": {"text": title},
                              "xaxis": {"title": {"text": t("training_layout.fig.time")}},
                              "yaxis": {"categoryorder": "array", "categoryarray": order[::-1]},
                              "plot_bgcolor": "#f5f5f5", "bargap": 0.15,
                              "legend": {"orientation": "h", "y": -0.25},
                              "margin": {"l": 70, "r": 20, "t": 50, "b": 92}})   # held margins
