"""The one-chart floor's figure: two 256-point log-log lines and a marker, all moved by the
slider value ``s``.  Drawn by ``bench/chart_page.py`` (the floor page of slider_bench.py) and
by ``bench/figure_draw.py`` (the same figure outside Streamlit): one definition for both."""
import numpy as np
import plotly.graph_objects as go

X = np.geomspace(1e-2, 1e4, 256)


def floor_figure(s: float) -> go.Figure:
    fig = go.Figure([
        go.Scatter(x=X, y=np.minimum(X * s * 1e11, 3e14), mode="lines", name="roof"),
        go.Scatter(x=X, y=np.minimum(X * s * 5e10, 1e14), mode="lines", name="roof 2"),
        go.Scatter(x=[s], y=[min(s * s * 1e11, 3e14)], mode="markers", marker={"size": 12},
                   name="point"),
    ])
    fig.update_layout(xaxis_type="log", yaxis_type="log", height=460)
    return fig
