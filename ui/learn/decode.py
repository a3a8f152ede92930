"""Lesson 8: the decode rule of thumb, bandwidth ÷ model bytes, then quantisation and
batching. Numbers and checks: calc.lessons (calc.inference)."""
from __future__ import annotations

import streamlit as st

from calc.lessons import Problem
from calc.units import format_si
from ui.i18n import Translator
from ui.learn.answer import fmt_value, numeric_field
from ui.learn.mfu import count


def render_decode(t: Translator, problem: Problem, chart_config: dict) -> None:
    g = problem.given
    st.markdown(t("learn.l8.task", params=count(g["params"])))
    numeric_field(t, problem, "bf16", t("learn.q.bf16"), t("learn.q.bf16.help"))
    numeric_field(t, problem, "int8", t("learn.q.int8"), t("learn.q.int8.help"))
    numeric_field(t, problem, "batch", t("learn.q.batch", batch=f"{g['batch']:g}"),
                  t("learn.q.batch.help"))


def worked_decode(t: Translator, problem: Problem) -> str:
    g = problem.given
    q = {x.id: x for x in problem.questions}
    return t("learn.l8.worked", bw=format_si(g["bw"], "B/s"),
             bytes16=format_si(g["bytes16"], "B"), bytes8=format_si(g["bytes8"], "B"),
             bf16=fmt_value(q["bf16"], q["bf16"].answer),
             int8=fmt_value(q["int8"], q["int8"].answer), batch=f"{g['batch']:g}",
             batch_total=fmt_value(q["batch"], q["batch"].answer))
