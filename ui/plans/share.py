"""Share and take away: the link note, CSV, the one-page HTML report, and the plans file
(save / open)."""
from __future__ import annotations

import datetime as _dt
from typing import Any, Mapping, Sequence

import streamlit as st

from calc.plans import PlanTable, dump_plans, load_plans, plans_csv
from calc.scenario import ScenarioError
from ui.i18n import Translator
from ui.plans import state
from ui.plans.report import report_html
from ui.widgets import uploader_note

FILE_KEY = "pl_file"
ERROR_KEY = "plans.file_error"
DONE_KEY = "plans.file_done"


def _stem(today: _dt.date | None = None) -> str:
    return f"plans_{(today or _dt.date.today()).isoformat()}"


def _on_open(devices: Mapping[str, Any]) -> None:
    st.session_state.pop(ERROR_KEY, None)
    upload = st.session_state.get(FILE_KEY)
    if upload is None:
        st.session_state[ERROR_KEY] = ("empty", "")
        return
    try:
        table = load_plans(upload.getvalue(), known_devices=set(devices))
    except ScenarioError as exc:
        st.session_state[ERROR_KEY] = ("invalid", str(exc))
        return
    state.set_table(table)
    state.select(0)
    st.session_state[DONE_KEY] = len(table.plans)


def render_share(t: Translator, lang: str, table: PlanTable, results: Sequence, devices,
                 published) -> None:
    st.subheader(t("plans.share_heading"))
    st.caption(t("plans.share_intro"))
    too_long = st.session_state.get(state.TOO_LONG_KEY)
    if too_long:
        st.warning(t("plans.link_too_long", n=f"{too_long:,}"), icon=":material/link_off:")
    c1, c2, c3 = st.columns(3)
    # the files are built when clicked (callables), not on every rerun of the page; a click
    # downloads without rerunning the page (on_click="ignore"), see ui.roofline.results.render_downloads
    c1.download_button(t("plans.report"),
                       data=lambda: report_html(t, lang, table, results, devices, published),
                       file_name=_stem() + f"_{lang}.html", mime="text/html", key="pl_report",
                       help=t("plans.report_help"), icon=":material/description:", type="primary",
                       on_click="ignore")
    c2.download_button(t("plans.csv"), data=lambda: plans_csv(table, results), file_name=_stem() + ".csv",
                       mime="text/csv", key="pl_csv", help=t("plans.csv_help"),
                       icon=":material/table:", on_click="ignore")
    c3.download_button(t("plans.file_save"), data=lambda: dump_plans(table), file_name=_stem() + ".json",
                       mime="application/json", key="pl_file_save", help=t("plans.file_save_help"),
                       icon=":material/save:", on_click="ignore")
    with st.expander(t("plans.file_open")):
        st.file_uploader(t("plans.file_open"), type=["json"], key=FILE_KEY,
                         help=t("plans.file_open_help"))
        uploader_note(t, ["json"])
        st.button(t("plans.file_apply"), on_click=_on_open, args=(dict(devices),),
                  key="pl_file_apply", help=t("plans.file_apply_help"))
    err = st.session_state.pop(ERROR_KEY, None)
    if err is not None:
        if err[0] == "empty":
            st.warning(t("plans.file_nothing"))
        else:
            st.error(f"{t('plans.file_error')}\n\n{err[1]}", icon=":material/error:")
    done = st.session_state.pop(DONE_KEY, None)
    if done is not None:
        st.success(t("plans.file_opened", n=done))
