"""Shared UI layer: page frame and sidebar, widgets, figure builders, URL state, translations.

`calc/` holds every formula; this package only lays out what `calc/` computes.
"""

# Import pandas (and plotly) completely before any page code runs. Plotly's validators
# read sys.modules["pandas"] without the import lock; when one session's thread was
# still importing pandas (lazily, for st.data_editor) while another built a figure,
# the figure saw a half-initialised pandas and raised AttributeError on a cold server.
# Every page imports `ui` first, and Python's module lock makes the other threads wait.
import pandas  # noqa: E402,F401
import plotly.graph_objects  # noqa: E402,F401
