"""MFU page figure: the six MFU bands as a horizontal strip with the current MFU marked,
as inline SVG (:func:`mfu_band_svg`).

Pure function of its inputs (no Streamlit). Band bounds come from `calc.mfu.MFU_BANDS`;
the marked value is the MFU the page computed with `calc.mfu.mfu`.
"""
from __future__ import annotations

import math
from html import escape

from calc.mfu import MFU_BANDS, MfuBand
from calc.units import format_percent, is_absurd_fraction
from ui.i18n import Translator

BAND_COLORS = {
    "problem": "#e57373",
    "low": "#ffb74d",
    "fair": "#fff176",
    "good": "#aed581",
    "excellent": "#66bb6a",
    "suspicious": "#b39ddb",
}
STRIP_END = 0.75   # where the open-ended "suspicious" band is drawn to, unless MFU is above


def strip_end(value: float | None) -> float:
    """Right end of the strip (fraction): 75 %, or a bit beyond a larger MFU."""
    if value is None or not math.isfinite(value) or value <= STRIP_END * 0.92:
        return STRIP_END
    if is_absurd_fraction(value):   # "> 1,000%": drawn just past 100 %, not to scale
        return 1.2
    return value * 1.12


def mfu_band_svg(t: Translator, value: float | None, band: MfuBand | None = None, *,
                 width: int = 520, height: int = 140) -> str:
    """The band strip as one ``<svg>`` document (the page draws it with ``st.image``, an
    ``<img>`` of a data URI: no HTML of ours reaches the page). The strip is a
    fixed scale with one moving marker, so it needs no plotly — and Streamlit draws a plotly
    chart whose figure changed from scratch at every slider step (~90 ms of the browser's
    time; README "Slider → page redrawn"), this string in a few ms.

    Geometry: ``width`` × ``height`` viewBox units, scaled to the column. Bands from
    ``calc.mfu.MFU_BANDS`` up to :func:`strip_end`, the active band outlined, the marker
    (clamped to 96 % of the strip, its label giving the true value) above it, ticks at the
    band bounds. An ``<img>`` shows no tooltips: :func:`mfu_band_alt` is its text, and the
    verdict under the strip names the band. Text is XML-escaped."""
    end = strip_end(value)
    left, right, top, bar_h = 12, 12, 40, 50
    plot_w = width - left - right

    def X(frac: float) -> float:
        return left + plot_w * min(frac, end) / end

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="#fff"/>']
    for b in MFU_BANDS:
        x0, x1 = X(b.lower), X(b.upper)
        if x1 <= x0:
            continue
        active = band is not None and band.key == b.key
        flag = ' data-active="true"' if active else ""
        # A name wider than its band (at 11 px: CJK ~11 units a character, Latin ~5.5) is
        # left out, as plotly leaves out inside text that does not fit.
        text = t(f"mfu.band.{b.key}.short")
        fits = sum(11 if ord(ch) > 0x2E80 else 5.5 for ch in text) + 2 <= x1 - x0
        short = escape(text) if fits else ""
        out.append(f'<g data-band="{b.key}"{flag}>'
                   f'<rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{bar_h}" '
                   f'fill="{BAND_COLORS[b.key]}" stroke="{"#212121" if active else "#fff"}" '
                   f'stroke-width="{3 if active else 1}"/>'
                   f'<text x="{(x0 + x1) / 2:.1f}" y="{top + bar_h / 2 + 4:.1f}" text-anchor="middle" '
                   f'font-size="11" fill="#212121">{short}</text></g>')
    ticks = sorted({b.lower for b in MFU_BANDS} | {b.upper for b in MFU_BANDS
                                                    if math.isfinite(b.upper)})
    last = -math.inf
    for tick in ticks:               # a tick label closer than 30 px to the last one is left out
        if tick <= end and X(tick) - last >= 30:
            last = X(tick)
            out.append(f'<text x="{X(tick):.1f}" y="{top + bar_h + 18}" text-anchor="middle" '
                       f'fill="#444">{tick:.0%}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle" '
               f'fill="#444">{escape(t("mfu.fig.x_title"))}</text>')
    if value is not None and not math.isnan(value):
        x, shown = X(min(value, end * 0.96)), format_percent(value)
        anchor = "start" if x < left + 60 else "end" if x > width - right - 60 else "middle"
        out.append(f'<g data-marker="{escape(shown)}">'
                   f'<path d="M {x - 9:.1f} {top - 16} L {x + 9:.1f} {top - 16} L {x:.1f} {top - 1} Z" fill="#212121"/>'
                   f'<text x="{x:.1f}" y="{top - 22}" text-anchor="{anchor}" font-size="15" font-weight="bold" '
                   f'fill="#212121">{escape(t("mfu.fig.marker_label", mfu=shown))}</text></g>')
    out.append("</svg>")
    return "".join(out)


def mfu_band_alt(t: Translator, value: float | None, band: MfuBand | None = None) -> str:
    """The strip's text alternative: the MFU and its band ("Your MFU: 20.2% · 20–35% low")."""
    if value is None or math.isnan(value):
        return t("mfu.fig.x_title")
    text = t("mfu.fig.marker_hover", mfu=format_percent(value))
    return f"{text} · {t(f'mfu.band.{band.key}.name')}" if band is not None else text
