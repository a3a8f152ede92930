"""Lessons 6 and 7: the first diagnostic experiment (random tensors instead of the
dataloader) and reading a profiler trace. Numbers and checks: calc.lessons (calc.mfu,
calc.diagnosis)."""
from __future__ import annotations

import streamlit as st

from calc.lessons import DATA_BOUND_RISE, Problem
from calc.units import format_si
from ui.figures.learn import trace_figure
from ui.i18n import Translator
from ui.learn.answer import choice_field
from ui.learn.mfu import count


def render_experiment(t: Translator, problem: Problem, chart_config: dict) -> None:
    g = problem.given
    choice_field(t, problem, "first", t("learn.q.first"), t("learn.q.first.help"),
                 lambda c: t(f"learn.exp.{c}"))
    st.markdown(t("learn.l6.task_b", params=count(g["params"]), gpus=count(g["gpus"]),
                  before=count(g["tokens_per_s"]), after=count(g["tokens_after"])))
    choice_field(t, problem, "verdict", t("learn.q.verdict"), t("learn.q.verdict.help"),
                 lambda c: t(f"learn.verdict.{c}"))


def worked_experiment(t: Translator, problem: Problem) -> str:
    g = problem.given
    ratio = problem.facts["rise"]
    rule = "learn.l6.rule_data" if ratio >= DATA_BOUND_RISE else "learn.l6.rule_not"
    return t("learn.l6.worked", before_mfu=f"{g['mfu_before']:.1%}",
             after_mfu=f"{g['mfu_after']:.1%}", ratio=f"{ratio:.2f}",
             rule=t(rule, rise=f"{DATA_BOUND_RISE:g}"))


def render_trace(t: Translator, problem: Problem, chart_config: dict) -> None:
    st.markdown(t("learn.l7.task", kernels=count(problem.given["kernels"])))
    st.plotly_chart(trace_figure(t, problem.trace), config=chart_config, key="learn_l7_chart")
    choice_field(t, problem, "signal", t("learn.q.signal"), t("learn.q.signal.help"),
                 lambda c: t(f"learn.signal.{c}"))


def worked_trace(t: Translator, problem: Problem) -> str:
    f = problem.facts
    return t("learn.l7.worked", busy=f"{f['busy']:.0%}", small=f"{f['small_share']:.0%}",
             threshold=format_si(f["threshold"], "s"), comm=f"{f['comm_share']:.0%}",
             signal=t(f"learn.signal.{problem.question('signal').answer}"))
