"""Learn page state: the quiz number and lesson (in the URL), progress, tries and the
teacher view (in non-widget session keys, so they survive page changes).

URL names: `quiz` (0…999999, hand-synced: always in the URL so a learner's link
reproduces their numbers) and `lesson` (1…8, an option widget; left out for lesson 1).
"""
from __future__ import annotations

import random
from typing import Any

import streamlit as st

from calc.lessons import MAX_QUIZ, N_LESSONS, TEXTBOOK_QUIZ, Check, Problem, parse_quiz
from ui.state import set_value, url_changed, write_url

QUIZ = "_learn.quiz"            # int: the quiz number
QUIZ_BAD = "_learn.quiz_bad"    # str: rejected text from the URL or the field
DONE = "_learn.done"            # set[int]: lessons done
RESULTS = "_learn.results"      # {(lesson, qid): record}, see record()
TEACHER = "_learn.teacher"      # bool: the teacher view toggle
QUIZ_BOX = "learn_quiz"         # the quiz text field (widget)
TEACHER_BOX = "learn_teacher"   # the teacher toggle (widget)
LESSON_KEY = "lesson"           # URL name and widget key
LESSON_OPTIONS = [str(n) for n in range(1, N_LESSONS + 1)]

REVEAL_AFTER = 2
"""Wrong tries after which a question's answer (and the chapter's) is shown."""


def _random_quiz() -> int:
    return random.SystemRandom().randint(1, 9999)


def current_quiz() -> int:
    """The quiz number: a new one in the URL wins, then this session's, else a random one.
    Written back to the URL every run."""
    from_url = url_changed("quiz")
    if from_url is not None:
        value = parse_quiz(from_url)
        if value is None:
            st.session_state[QUIZ_BAD] = from_url
        else:
            st.session_state[QUIZ] = value
    if QUIZ not in st.session_state:
        st.session_state[QUIZ] = _random_quiz()
    quiz = int(st.session_state[QUIZ])
    write_url("quiz", str(quiz))
    return quiz


def quiz_box_changed() -> None:
    """Callback of the quiz field: a valid number becomes the quiz, else a message."""
    text = st.session_state.get(QUIZ_BOX, "")
    value = parse_quiz(text)
    if value is None:
        st.session_state[QUIZ_BAD] = text
    else:
        st.session_state[QUIZ] = value
        st.session_state.pop(QUIZ_BAD, None)


def new_quiz() -> None:
    """Button callback: a new random quiz number."""
    old = st.session_state.get(QUIZ)
    value = _random_quiz()
    while value == old:
        value = _random_quiz()
    st.session_state[QUIZ] = value
    st.session_state.pop(QUIZ_BAD, None)


def textbook(device_id: str | None) -> None:
    """Button callback: quiz 0 on the textbook device (the chapter's own numbers)."""
    st.session_state[QUIZ] = TEXTBOOK_QUIZ
    st.session_state.pop(QUIZ_BAD, None)
    if device_id:
        set_value("device", device_id)
        set_value("precision", "bf16")


def take_quiz_error() -> str | None:
    return st.session_state.pop(QUIZ_BAD, None)


def prepare_quiz_box(quiz: int) -> None:
    """Before the quiz field is drawn: show the current quiz number."""
    st.session_state[QUIZ_BOX] = str(quiz)


def go_to_lesson(n: int) -> None:
    """Button callback (previous / next)."""
    if 1 <= n <= N_LESSONS:
        set_value(LESSON_KEY, str(n))


# ----------------------------------------------------------------------------- progress

def done_lessons() -> set[int]:
    return set(st.session_state.get(DONE, set()))


def mark_done(lesson: int) -> None:
    done = done_lessons()
    done.add(lesson)
    st.session_state[DONE] = done


def reset_progress() -> None:
    st.session_state[DONE] = set()
    st.session_state[RESULTS] = {}


def record(problem: Problem, qid: str) -> dict[str, Any]:
    """This question's record for these numbers: status, value, hints, tries (wrong
    answers). A record made for other numbers (another quiz or device) starts afresh."""
    results = st.session_state.setdefault(RESULTS, {})
    rec = results.get((problem.lesson, qid))
    if rec is None or rec.get("sig") != problem.signature:
        rec = {"sig": problem.signature, "status": None, "value": None, "hints": (),
               "message": "", "tries": 0, "text": ""}
        results[(problem.lesson, qid)] = rec
    return rec


def store(problem: Problem, qid: str, check: Check, text: str = "") -> None:
    """Keep a check's verdict; count a wrong try; mark the lesson done when every
    question is right."""
    rec = record(problem, qid)
    rec.update(status=check.status, value=check.value, hints=check.hints,
               message=check.message, text=text)
    if check.status == "wrong":
        rec["tries"] += 1
    if all(record(problem, q.id)["status"] == "correct" for q in problem.questions):
        mark_done(problem.lesson)


def is_solved(problem: Problem) -> bool:
    return all(record(problem, q.id)["status"] == "correct" for q in problem.questions)


def revealed(problem: Problem, qid: str) -> bool:
    return record(problem, qid)["tries"] >= REVEAL_AFTER


def any_revealed(problem: Problem) -> bool:
    return any(revealed(problem, q.id) for q in problem.questions)


# ----------------------------------------------------------------------------- teacher view

def prepare_teacher_box() -> None:
    """Before the toggle is drawn: give it back its value from an earlier page."""
    if TEACHER_BOX not in st.session_state:
        st.session_state[TEACHER_BOX] = bool(st.session_state.get(TEACHER, False))


def keep_teacher(value: bool) -> None:
    st.session_state[TEACHER] = bool(value)


__all__ = ["MAX_QUIZ", "current_quiz", "done_lessons", "go_to_lesson", "new_quiz", "record",
           "store", "textbook"]
