"""The one-chart floor for bench.py: one slider and one plotly chart (two 256-point
log-log lines and a marker, all moved by the slider: bench/floor_figure.py). What Streamlit
plus plotly cannot beat for "slider -> chart redrawn"; every page is reported as a ratio to it."""
import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from floor_figure import floor_figure  # noqa: E402

s = st.slider("s", 1, 100, 50)
st.plotly_chart(floor_figure(s), key="floor_chart")
