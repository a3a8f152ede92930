"""MFU page figure: the six MFU bands as a horizontal strip with the current MFU marked.

Pure function of its inputs (no Streamlit). Band bounds come from `calc.mfu.MFU_BANDS`;
the marked value is the MFU the page computed with `calc.mfu.mfu`.
"""
from __future__ import annotations

import math

import plotly.graph_objects as go

from calc.mfu import MFU_BANDS, MfuBand
from calc.units import format_percent, is_absurd_fraction
from ui.figures.roofline import make_figure
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
    """Right end of the strip (fraction): 80 %, or a bit beyond a larger MFU."""
    if value is None or not math.isfinite(value) or value <= STRIP_END * 0.92:
        return STRIP_END
    if is_absurd_fraction(value):   # "> 1,000%": drawn just past 100 %, not to scale
        return 1.2
    return value * 1.12


def mfu_band_figure(t: Translator, value: float | None, band: MfuBand | None = None,
                    *, height: int = 190) -> go.Figure:
    """The band strip. `value` is an MFU fraction (None: no marker), `band` its band."""
    end = strip_end(value)
    data = []
    for b in MFU_BANDS:
        upper = min(b.upper, end)
        active = band is not None and band.key == b.key
        data.append({
            "type": "bar", "y": [0.0], "x": [upper - b.lower], "base": [b.lower], "orientation": "h",
            "width": [0.8],
            "marker": {"color": BAND_COLORS[b.key],
                       "line": {"color": "#212121" if active else "white",
                                "width": 3 if active else 1}},
            "name": t(f"mfu.band.{b.key}.name"),
            "text": [t(f"mfu.band.{b.key}.short")], "textposition": "inside", "textangle": 0,
            "insidetextanchor": "middle", "textfont": {"size": 12, "color": "#212121"},
            "hovertemplate": t("mfu.fig.band_hover", name=t(f"mfu.band.{b.key}.name"),
                               lo=f"{b.lower:.0%}",
                               hi=f"{b.upper:.0%}" if math.isfinite(b.upper) else "∞")
            + "<extra></extra>",
            "showlegend": False})
    annotations = []
    if value is not None and not math.isnan(value):
        x = min(value, end * 0.96)
        shown = format_percent(value)
        data.append({
            "type": "scatter", "x": [x], "y": [0.52], "mode": "markers",
            "name": t("mfu.fig.marker"),
            "marker": {"symbol": "triangle-down", "size": 18, "color": "#212121"},
            "hovertemplate": t("mfu.fig.marker_hover", mfu=shown) + "<extra></extra>",
            "showlegend": False, "cliponaxis": False})
        annotations.append({"x": x, "y": 1.0, "yref": "paper", "yanchor": "bottom",
                            "text": f"<b>{t('mfu.fig.marker_label', mfu=shown)}</b>",
                            "showarrow": False, "font": {"size": 15, "color": "#212121"}})
    ticks = sorted({b.lower for b in MFU_BANDS} | {b.upper for b in MFU_BANDS
                                                    if math.isfinite(b.upper)})
    # Bars span y = -0.4..0.4; the marker sits just above them, pointing down.
    return make_figure(data, {
        "annotations": annotations,
        "xaxis": {"range": [0, end], "tickvals": ticks, "ticktext": [f"{x:.0%}" for x in ticks],
                  "title": {"text": t("mfu.fig.x_title")}, "showgrid": False, "zeroline": False,
                  "tickfont": {"size": 13}},
        "yaxis": {"showticklabels": False, "showgrid": False, "zeroline": False,
                  "range": [-0.45, 0.62], "fixedrange": True},
        "barmode": "overlay", "height": height, "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
        "hoverlabel": {"align": "left"}, "font": {"size": 13},
    })
