"""Plans page: setups side by side for a planning meeting — training and serving plans
computed with calc.plans (the Training and Decode pages' formulas), the published range
beside every bound, a baseline, a chart, a share link, CSV and a one-page report.

A list of sections; every number comes from calc/.
"""
import streamlit as st

from calc.plans import evaluate_all
from ui.frame import page_frame
from ui.plans import state
from ui.plans.editor import render_editor
from ui.plans.share import render_share
from ui.plans.tables import render_charts, render_tables

ctx = page_frame("plans")
t = ctx.t

state.read_link(set(ctx.devices))
published, published_error = state.published()
models, models_error = state.models()
st.title(t("plans.title"))
st.markdown(t("plans.intro"))
cur_col, _ = st.columns([1, 3])
code = state.currency_select(t, container=cur_col)     # every price is in this currency
state.write_link()
table = state.get_table()
results = evaluate_all(table.plans, ctx.devices, published, models)
link_error = st.session_state.pop(state.LINK_ERROR_KEY, None)
if link_error:
    st.error(t("plans.link_error", message=link_error), icon=":material/link_off:")
for problem in (published_error, models_error):
    if problem:
        st.warning(problem, icon=":material/warning:")

render_tables(t, table, results, ctx.devices, code)
render_charts(t, table, results, code, ctx.chart_config)
st.divider()
render_editor(t, ctx.devices, published, models)
st.divider()
render_share(t, ctx.lang, table, results, ctx.devices, published)
