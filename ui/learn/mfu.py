"""Lessons 3, 4 and 5: computing MFU; why 6N and when it fails; the MFU bands and the
60 % ceiling. Numbers and checks: calc.lessons (calc.mfu)."""
from __future__ import annotations

import streamlit as st

from calc.lessons import Problem
from calc.units import format_si
from ui.i18n import Translator
from ui.learn.answer import choice_field, fmt_value, numeric_field
from ui.widgets import format_quantity


def count(value: float) -> str:
    """7e9 -> "7B", 12000 -> "12,000"."""
    return format_quantity(value) if value >= 1e9 else f"{value:,.0f}"


def render_mfu(t: Translator, problem: Problem, chart_config: dict) -> None:
    g = problem.given
    st.markdown(t("learn.l3.task", params=count(g["params"]), gpus=count(g["gpus"]),
                  tokens=count(g["tokens_per_s"])))
    numeric_field(t, problem, "fpt", t("learn.q.fpt"), t("learn.q.fpt.help"))
    numeric_field(t, problem, "mfu", t("learn.q.mfu"), t("learn.q.mfu.help"))


def worked_mfu(t: Translator, problem: Problem) -> str:
    g, q, q1 = problem.given, problem.question("mfu"), problem.question("fpt")
    return t("learn.l3.worked", fpt=fmt_value(q1, q1.answer), params=count(g["params"]), tokens=count(g["tokens_per_s"]),
             gpus=count(g["gpus"]), peak=format_si(g["peak"], "FLOP/s"),
             achieved=format_si(problem.facts["achieved"], "FLOP/s"),
             total=format_si(problem.facts["total_peak"], "FLOP/s"), answer=fmt_value(q, q.answer))


def render_six_n(t: Translator, problem: Problem, chart_config: dict) -> None:
    g = problem.given
    st.markdown(t("learn.l4.task_a", m=count(g["m"]), n=count(g["n"]),
                  weights=format_quantity(problem.facts["weights"])))
    numeric_field(t, problem, "fwd_bwd", t("learn.q.fwd_bwd"), t("learn.q.fwd_bwd.help"))
    st.markdown(t("learn.l4.task_b", params=count(g["params"]), layers=count(g["layers"]),
                  hidden=count(g["hidden"]), seq=count(g["seq"])))
    numeric_field(t, problem, "attn_share", t("learn.q.attn_share"),
                  t("learn.q.attn_share.help"))


def worked_six_n(t: Translator, problem: Problem) -> str:
    g = problem.given
    q1, q2 = problem.question("fwd_bwd"), problem.question("attn_share")
    return t("learn.l4.worked", weights=format_quantity(problem.facts["weights"]),
             fwd_bwd=fmt_value(q1, q1.answer), layers=count(g["layers"]),
             hidden=count(g["hidden"]), seq=count(g["seq"]),
             attn=format_si(problem.facts["attn_flops"], "FLOP"),
             six_n=format_si(problem.facts["six_n"], "FLOP"), share=fmt_value(q2, q2.answer))


def band_label(t: Translator):
    return lambda key: t(f"mfu.band.{key}.name")


def _runs(problem: Problem) -> list[int]:
    return [int(q.id[3:]) for q in problem.questions if q.id.startswith("run")]


def render_bands(t: Translator, problem: Problem, chart_config: dict) -> None:
    g = problem.given
    st.markdown(t("learn.l5.task", peak=format_si(g["peak"], "FLOP/s")))
    for i in _runs(problem):
        with st.container(border=True):
            st.markdown(t("learn.run_line", i=i, params=count(g[f"run{i}.params"]),
                          gpus=count(g[f"run{i}.gpus"]),
                          tokens=count(g[f"run{i}.tokens_per_s"])))
            choice_field(t, problem, f"run{i}", t("learn.q.run", i=i), t("learn.q.run.help"),
                         band_label(t), horizontal=True)
    choice_field(t, problem, "why60", t("learn.q.why60"), t("learn.q.why60.help"),
                 lambda c: t(f"learn.why60.{c}"))


def worked_bands(t: Translator, problem: Problem) -> str:
    g, label = problem.given, band_label(t)
    lines = [t("learn.l5.worked", i=i, params=count(g[f"run{i}.params"]),
               tokens=count(g[f"run{i}.tokens_per_s"]), gpus=count(g[f"run{i}.gpus"]),
               peak=format_si(g["peak"], "FLOP/s"), mfu=f"{g[f'run{i}.mfu']:.1%}",
               band=label(str(problem.question(f"run{i}").answer)))
             for i in _runs(problem)]
    return "\n\n".join(lines)
