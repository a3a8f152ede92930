"""The one-chart floor for bench.py: one slider and one plotly chart (two 256-point
log-log lines and a marker, all moved by the slider). What Streamlit plus plotly cannot
beat for "slider -> chart redrawn"; every page is reported as a ratio to it."""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

x = np.geomspace(1e-2, 1e4, 256)
s = st.slider("s", 1, 100, 50)
fig = go.Figure([
    go.Scatter(x=x, y=np.minimum(x * s * 1e11, 3e14), mode="lines", name="roof"),
    go.Scatter(x=x, y=np.minimum(x * s * 5e10, 1e14), mode="lines", name="roof 2"),
    go.Scatter(x=[s], y=[min(s * s * 1e11, 3e14)], mode="markers", marker={"size": 12}, name="point"),
])
fig.update_layout(xaxis_type="log", yaxis_type="log", height=460)
st.plotly_chart(fig, key="floor_chart")
