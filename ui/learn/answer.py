"""Answer fields of the lessons: a typed quantity or a choice, a Check button, the verdict
with the hint for a known mistake, and the answer after two wrong tries.

Checking is calc.lessons.check_answer / check_choice; this module only draws and stores.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

from calc.lessons import TOLERANCE, Problem, Question, check_answer, check_choice
from calc.units import format_si
from ui.i18n import Translator
from ui.learn import state

# Placeholders: how to type such a value (never one of the chapter's answers).
EXAMPLES = {"FLOP/B": "2.5e2", "FLOP/s": "7 TFLOP/s", "%": "35%", "FLOP": "1.2e8",
            "tok/s": "90 tok/s"}


def fmt_value(question: Question, value: float) -> str:
    """A number in the question's unit: "156 FLOP/B", "4 TFLOP/s", "20.2%", "143 tok/s"."""
    if question.unit == "%":
        return f"{value:.1%}"
    if question.unit == "FLOP/B":
        return format_si(value, "FLOP/B")
    return format_si(value, question.unit) if question.unit else f"{value:,.4g}"


def answer_text(t: Translator, question: Question, choice_label: Callable[[str], str]) -> str:
    """The expected answer, formatted (numeric) or labelled (choice)."""
    if question.is_choice:
        return choice_label(str(question.answer))
    return fmt_value(question, float(question.answer))


def tolerance_text() -> str:
    return f"{TOLERANCE:.0%}"


def _key(problem: Problem, question: Question) -> str:
    return f"learn_{problem.lesson}_{question.id}"


def _check_typed(problem: Problem, question: Question, key: str) -> None:
    text = str(st.session_state.get(key) or "")
    state.store(problem, question.id, check_answer(question, text), text)


def _check_choice(problem: Problem, question: Question, key: str) -> None:
    choice = st.session_state.get(key)
    state.store(problem, question.id, check_choice(question, choice), str(choice or ""))


def hint_fields(problem: Problem) -> dict[str, str]:
    """The fields every hint may use."""
    peak = problem.device.peak_flops
    return {"dense": format_si(peak, "FLOP/s"), "sparse": format_si(problem.device.sparse_peak_flops, "FLOP/s"),
            "batch": f"{problem.given.get('batch', 0):g}", "rise": "1.2"}


def numeric_field(t: Translator, problem: Problem, qid: str, label: str, help_text: str) -> None:
    """A text field for a number with units, its Check button and the verdict."""
    question = problem.question(qid)
    key = _key(problem, question)
    st.text_input(label, key=key, help=help_text,
                  placeholder=t("learn.answer_placeholder",
                                example=EXAMPLES.get(question.unit, "1.5e2")))
    st.button(t("learn.check"), key=key + "_check", help=t("learn.check_help"),
              on_click=_check_typed, args=(problem, question, key),
              icon=":material/task_alt:")
    verdict(t, problem, question, lambda c: c)


def choice_field(t: Translator, problem: Problem, qid: str, label: str, help_text: str,
                 choice_label: Callable[[str], str], horizontal: bool = False) -> None:
    """Radio buttons for a choice question, its Check button and the verdict."""
    question = problem.question(qid)
    key = _key(problem, question)
    if key in st.session_state and st.session_state[key] not in question.choices:
        del st.session_state[key]
    st.radio(label, list(question.choices), index=None, key=key, help=help_text,
             format_func=choice_label, horizontal=horizontal)
    st.button(t("learn.check"), key=key + "_check", help=t("learn.check_help"),
              on_click=_check_choice, args=(problem, question, key),
              icon=":material/task_alt:")
    verdict(t, problem, question, choice_label)


def verdict(t: Translator, problem: Problem, question: Question,
            choice_label: Callable[[str], str]) -> None:
    """Right / wrong with hints / unreadable, the tries, and the answer after two."""
    rec = state.record(problem, question.id)
    status = rec["status"]
    if status is None:
        return
    if status == "correct":
        shown = choice_label(rec["value"]) if question.is_choice else rec["text"]
        st.success(t("learn.correct", value=shown), icon=":material/check_circle:")
        return
    if status == "unreadable":
        if question.is_choice:
            st.warning(t("learn.choice_none"), icon=":material/help:")
        else:
            st.warning(t("learn.unreadable", message=rec["message"]), icon=":material/help:")
        return
    fields = hint_fields(problem)
    hints = [t(f"learn.hint.{h}", **fields) for h in rec["hints"]] or [t("learn.hint.none")]
    head = t("learn.wrong_choice") if question.is_choice else \
        t("learn.wrong", value=rec["text"], tol=tolerance_text())
    st.error(head + "\n\n" + "\n\n".join(f"- {h}" for h in hints), icon=":material/close:")
    st.caption(t("learn.tries", n=rec["tries"]))
    if state.revealed(problem, question.id):
        st.info(t("learn.revealed", answer=answer_text(t, question, choice_label)),
                icon=":material/visibility:")
