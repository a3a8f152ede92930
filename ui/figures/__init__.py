"""Plotly figure builders: pure functions returning go.Figure, testable without Streamlit."""
