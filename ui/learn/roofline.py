"""Lessons 1 and 2: the roofline's two lines and the ridge; the ceiling a kernel can
never beat. Numbers and checks: calc.lessons (calc.roofline)."""
from __future__ import annotations

import streamlit as st

from calc.lessons import Problem
from calc.units import format_si
from ui.figures.learn import lesson_roofline_figure
from ui.i18n import Translator
from ui.learn.answer import choice_field, fmt_value, numeric_field


def render_ridge(t: Translator, problem: Problem, chart_config: dict) -> None:
    st.markdown(t("learn.l1.task"))
    fig = lesson_roofline_figure(t, problem.given["peak"], problem.given["bw"])
    st.plotly_chart(fig, config=chart_config, key="learn_l1_chart")
    numeric_field(t, problem, "ridge", t("learn.q.ridge"), t("learn.q.ridge.help"))
    st.markdown(t("learn.l1.task_b", intensity=f"{problem.given['intensity']:g}"))
    choice_field(t, problem, "line", t("learn.q.line"), t("learn.q.line.help"),
                 lambda c: t(f"learn.line.{c}"))


def worked_ridge(t: Translator, problem: Problem) -> str:
    q = problem.question("ridge")
    line = problem.question("line").answer
    return t("learn.l1.worked", peak=format_si(problem.given["peak"], "FLOP/s"),
             bw=format_si(problem.given["bw"], "B/s"), answer=fmt_value(q, q.answer)) + " " + \
        t(f"learn.l1.worked_{line}", intensity=f"{problem.given['intensity']:g}",
          ridge=fmt_value(q, q.answer))


def render_ceiling(t: Translator, problem: Problem, chart_config: dict) -> None:
    intensity = problem.given["intensity"]
    st.markdown(t("learn.l2.task", intensity=f"{intensity:g}"))
    fig = lesson_roofline_figure(t, problem.given["peak"], problem.given["bw"], intensity)
    st.plotly_chart(fig, config=chart_config, key="learn_l2_chart")
    numeric_field(t, problem, "ceiling", t("learn.q.ceiling"), t("learn.q.ceiling.help"))


def worked_ceiling(t: Translator, problem: Problem) -> str:
    q = problem.question("ceiling")
    key = "learn.l2.worked_memory" if problem.facts["memory_bound"] else "learn.l2.worked_compute"
    return t(key, peak=format_si(problem.given["peak"], "FLOP/s"),
             intensity=f"{problem.given['intensity']:g}",
             bw=format_si(problem.given["bw"], "B/s"), answer=fmt_value(q, q.answer),
             ridge=format_si(problem.facts["ridge"], "FLOP/B"))
