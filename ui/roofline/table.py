"""The kernel table editor (st.data_editor over ui.roofline.state's rows) and the messages
for cells that could not be read."""
from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from calc.kernel_table import COLUMNS, CellError
from ui.i18n import Translator
from ui.numbers import plural
from ui.roofline import state

#: Most cell errors listed one by one (the rest are counted).
MAX_LISTED_ERRORS = 12


def _frame(rows: Sequence[dict]) -> pd.DataFrame:
    extra = [c for c in state.EXTRA_COLUMNS if any(c in r for r in rows)]
    cols = list(COLUMNS) + extra
    return pd.DataFrame([{c: r.get(c, "") for c in cols} for r in rows], columns=cols, dtype=object)


#: The form that holds the editor (its submit button applies the edits).
FORM_KEY = "roofline_table_form"


def render_editor(t: Translator) -> None:
    """Draw the editable table; store the user's edits in the state.

    The editor sits in an st.form: a cell edit does not rerun the page. Outside a form each
    commit (Tab, Enter) reruns the script, and what is typed while that rerun runs is lost
    when its result redraws the editor (typing name, Tab, FLOPs, Tab quickly kept only the
    name; tests/browser/test_new_user.py measures it). The edits go to the table,
    the chart and the results together when the user presses Apply."""
    base = state.editor_base()
    df = _frame(base)
    cfg = {
        # defaults: a new row starts blank with count 1, not with grey "None" cells
        "name": st.column_config.TextColumn(t("roofline.col.name"), help=t("roofline.col.name_help"),
                                            width="large", max_chars=200, default=""),
        "flops": st.column_config.TextColumn(t("roofline.col.flops"), help=t("roofline.col.flops_help"),
                                             default=""),
        "bytes": st.column_config.TextColumn(t("roofline.col.bytes"), help=t("roofline.col.bytes_help"),
                                             default=""),
        "seconds": st.column_config.TextColumn(t("roofline.col.seconds"),
                                               help=t("roofline.col.seconds_help"), default=""),
        "count": st.column_config.TextColumn(t("roofline.col.count"), help=t("roofline.col.count_help"),
                                             width="small", default="1"),
    }
    for c in state.EXTRA_COLUMNS:      # kept with each row, not shown
        if c in df.columns:
            cfg[c] = None
    with st.form(FORM_KEY, border=False, enter_to_submit=False):
        edited = st.data_editor(df, key=state.editor_key(), num_rows="dynamic", hide_index=True,
                                column_config=cfg, width="stretch")
        st.form_submit_button(t("roofline.apply"), type="primary", icon=":material/done_all:",
                              help=t("roofline.apply_help"))
    if isinstance(edited, pd.DataFrame):
        state.rows_from_editor(edited.to_dict("records"))


def error_lines(t: Translator, errors: Sequence[CellError]) -> list[str]:
    """One translated line per bad cell: "Row 3, bytes: …" (detail from calc, in English)."""
    lines = []
    for e in errors[:MAX_LISTED_ERRORS]:
        column = t(f"roofline.col.{e.column}") if e.column in COLUMNS else (e.column or "—")
        detail = e.message.split(": ", 1)[1] if ": " in e.message else e.message
        if e.code:           # out of bounds: the message a field gives, in the page's language
            detail = t(f"common.err.{e.code}", limit=e.limit)
        lines.append(t("roofline.err.cell", row=e.row, column=column, value=e.value, detail=detail))
    if len(errors) > MAX_LISTED_ERRORS:
        lines.append(t("roofline.err.more", n=len(errors) - MAX_LISTED_ERRORS))  # not a formula: rows not listed
    return lines


def render_table(t: Translator) -> None:
    """The Table tab: what to type, the editor, and Reset / Clear."""
    st.markdown(t("roofline.table_intro"))
    render_editor(t)
    b1, b2, _ = st.columns([1, 1, 3])
    b1.button(t("roofline.reset"), key="roofline_reset", help=t("roofline.reset_help"),
              on_click=lambda: state.set_rows(state.default_rows()))
    b2.button(t("roofline.clear"), key="roofline_clear", help=t("roofline.clear_help"),
              on_click=lambda: state.set_rows([]))


def render_errors(t: Translator, errors: Sequence[CellError]) -> None:
    """st.error naming each bad cell; the other rows still plot."""
    if not errors:
        return
    rows = len({e.row for e in errors})
    body = "\n".join(f"- {_md_escape(line)}" for line in error_lines(t, errors))
    st.error(plural(t, "roofline.err.heading", rows) + "\n\n" + body, icon=":material/warning:")


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:")


def _md_escape(text: str) -> str:
    """User text (cell values, kernel names) shown as text inside st.markdown."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text))


md_escape = _md_escape
