"""Plotly figure builders: pure functions returning go.Figure, testable without Streamlit."""

# Import pandas completely before any figure is built. plotly's validators look pandas up
# with sys.modules.get("pandas") (no import lock): when two sessions start at once on a
# fresh server, one thread can see another thread's half-imported pandas and fail with
# "partially initialized module 'pandas' has no attribute 'Series'" (bench/load_test.py
# found it). Importing it here makes every figure builder wait for the whole import.
import pandas  # noqa: E402,F401
