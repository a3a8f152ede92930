"""A small SVG writer for the report's chart (no plotly, no kaleido): linear axes from
zero with round ticks, one labelled point per plan and its published range as error
bars.  Text is XML-escaped, so plan names can hold anything.
"""
from __future__ import annotations

import math
from html import escape

from ui.figures.plans import BASELINE, PALETTE, label_places
from ui.plans.points import ChartData


def nice_ticks(hi: float, n: int = 5) -> list[float]:
    """Round tick values 0, step, 2·step, ... covering [0, hi] (step 1, 2, 2.5 or 5 × 10^k)."""
    if not hi > 0 or not math.isfinite(hi):
        return [0.0, 1.0]
    raw = hi / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    count = math.ceil(hi / step - 1e-9)
    return [k * step for k in range(count + 1)]


def tick_text(v: float) -> str:
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:.3g}{suffix}"
    return f"{v:.3g}"


def chart_svg(chart: ChartData, width: int = 640, height: int = 300) -> str:
    """The chart as an inline ``<svg>`` element (viewBox-scaled, prints crisply)."""
    left, right, top, bottom = 64, 16, 28, 46
    pw, ph = width - left - right, height - top - bottom
    xs = [v for p in chart.points for v in (p.x, p.x_lo, p.x_hi) if v is not None]
    ys = [v for p in chart.points for v in (p.y, p.y_lo, p.y_hi) if v is not None]
    xt, yt = nice_ticks(max(xs) * 1.08 if xs else 1), nice_ticks(max(ys) * 1.1 if ys else 1)
    xmax, ymax = xt[-1] or 1.0, yt[-1] or 1.0

    def X(v: float) -> float:
        return left + pw * v / xmax

    def Y(v: float) -> float:
        return top + ph * (1 - v / ymax)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" role="img" aria-label="{escape(chart.title)}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13" font-weight="bold">{escape(chart.title)}</text>']
    for v in yt:
        y = Y(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{tick_text(v)}</text>')
    for v in xt:
        x = X(v)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + ph}" stroke="#eeeeee"/>')
        out.append(f'<text x="{x:.1f}" y="{top + ph + 15}" text-anchor="middle" fill="#444">{tick_text(v)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#9e9e9e"/>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(chart.x_label)}</text>')
    out.append(f'<text x="14" y="{top + ph / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {top + ph / 2:.1f})">{escape(chart.y_label)}</text>')
    places = label_places(chart.points, xmax, ymax, pw, ph, char_px=6.2)
    for k, p in enumerate(chart.points):
        color = BASELINE if p.baseline else PALETTE[k % len(PALETTE)]
        cx, cy = X(p.x), Y(p.y)
        if p.x_lo is not None and p.x_hi is not None:
            out.append(f'<line x1="{X(p.x_lo):.1f}" y1="{cy:.1f}" x2="{X(p.x_hi):.1f}" y2="{cy:.1f}" '
                       f'stroke="{color}" stroke-width="1.5"/>')
        if p.y_lo is not None and p.y_hi is not None:
            out.append(f'<line x1="{cx:.1f}" y1="{Y(p.y_lo):.1f}" x2="{cx:.1f}" y2="{Y(p.y_hi):.1f}" '
                       f'stroke="{color}" stroke-width="1.5"/>')
        shape = (f'<rect x="{cx - 5:.1f}" y="{cy - 5:.1f}" width="10" height="10" fill="{color}"/>'
                 if p.baseline else f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{color}"/>')
        out.append(shape)
        place = places[k]
        if place is None:               # no free place: the name is in the table above
            out.append(f'<title>{escape(p.label)}</title>')
            continue
        v, hz = place
        anchor = {"center": "middle", "left": "end", "right": "start"}[hz]
        dx = {"center": 0, "left": -4, "right": 4}[hz]
        ty = cy - 9 - 3 if v == "top" else cy + 9 + 12
        out.append(f'<text x="{cx + dx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" fill="{color}">'
                   f'{escape(p.label)}</text>')
    out.append("</svg>")
    return "\n".join(out)
