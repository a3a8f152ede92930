"""The Learn page's frame: the lesson and quiz controls, progress, the current lesson with
its verdicts, the chapter's answer, the teacher view, previous / next."""
from __future__ import annotations

import streamlit as st

from calc.lessons import CEILING_CHOICES, N_LESSONS, Problem, as_device, make_problem
from calc.units import format_si
from ui.frame import PageContext
from ui.i18n import Translator
from ui.learn import state
from ui.learn.answer import answer_text, tolerance_text
from ui.learn.lessons import LESSONS
from ui.learn.mfu import band_label
from ui.state import bound

TEXTBOOK_DEVICE = "a100-textbook"


def lesson_title(t: Translator, n: int) -> str:
    return t(f"learn.l{n}.title")


def controls(ctx: PageContext) -> tuple[int, int]:
    """Lesson selector, quiz number, new numbers, the chapter's numbers, teacher view.
    Returns (lesson, quiz)."""
    t = ctx.t
    quiz = state.current_quiz()
    c1, c2, c3, c4 = st.columns([2.2, 1, 1.2, 1.2], vertical_alignment="bottom")
    with c1:
        lesson = bound(st.selectbox, t("learn.lesson"), state.LESSON_OPTIONS,
                       key=state.LESSON_KEY, index=0, help=t("learn.lesson_help"),
                       format_func=lambda n: t("learn.lesson_label", n=n,
                                               title=lesson_title(t, int(n))),
                       is_valid=lambda v: v in state.LESSON_OPTIONS)
    with c2:
        state.prepare_quiz_box(quiz)
        st.text_input(t("learn.quiz"), key=state.QUIZ_BOX, help=t("learn.quiz_help"),
                      on_change=state.quiz_box_changed, max_chars=6)
    with c3:
        st.button(t("learn.new_numbers"), help=t("learn.new_numbers_help"),
                  on_click=state.new_quiz, icon=":material/casino:", use_container_width=True)
    with c4:
        textbook = TEXTBOOK_DEVICE if TEXTBOOK_DEVICE in ctx.devices else None
        st.button(t("learn.textbook"), help=t("learn.textbook_help"),
                  on_click=state.textbook, args=(textbook,), icon=":material/menu_book:",
                  use_container_width=True)
    bad = state.take_quiz_error()
    if bad is not None:
        st.warning(t("learn.quiz_bad", text=bad[:40], quiz=quiz), icon=":material/warning:")
    return int(lesson), quiz


def progress(t: Translator) -> bool:
    """Progress x / 8 with a mark per lesson, the teacher-view toggle (returned) and the
    reset button."""
    done = state.done_lessons()
    left, right = st.columns([3, 1], vertical_alignment="center")
    with left:
        st.markdown(t("learn.progress", done=len(done), total=N_LESSONS),
                    help=t("learn.progress_help"))
        st.progress(len(done) / N_LESSONS)  # not a formula: the progress bar's fill
        marks = " · ".join((f":green[:material/check_circle: {n}]" if n in done
                            else f":gray[:material/radio_button_unchecked: {n}]")
                           for n in range(1, N_LESSONS + 1))
        st.caption(marks)
    with right:
        state.prepare_teacher_box()
        teacher = st.toggle(t("learn.teacher"), key=state.TEACHER_BOX, help=t("learn.teacher_help"))
        state.keep_teacher(teacher)
        st.button(t("learn.progress_reset"), help=t("learn.progress_reset_help"),
                  on_click=state.reset_progress, icon=":material/restart_alt:")
    return bool(teacher)


@st.cache_data(show_spinner=False, max_entries=512)
def _problem(lesson: int, quiz: int, peak_flops: float, mem_bw: float, sparse: bool,
             device_id: str, precision: str) -> Problem:
    # Deterministic in its arguments; the trace lesson draws and diagnoses ~1,700 kernels.
    dev = as_device(peak_flops, mem_bw, sparse_headline=sparse, device_id=device_id,
                    precision=precision)
    return make_problem(lesson, quiz, dev)


def problem_for(ctx: PageContext, lesson: int, quiz: int) -> Problem | None:
    """This lesson's numbers for the quiz number and the sidebar's device (None without
    a usable device)."""
    if not ctx.ready:
        return None
    sparse = bool(ctx.device is not None and ctx.device.sparse_headline)
    return _problem(lesson, quiz, float(ctx.peak_flops), float(ctx.mem_bw), sparse,
                    ctx.device_id, ctx.precision)


def _choice_label(t: Translator, lesson: int):
    if lesson == 5:
        bands = band_label(t)
        return lambda c: t(f"learn.why60.{c}") if c in CEILING_CHOICES else bands(c)
    prefix = {1: "learn.line.", 6: "learn.exp.", 7: "learn.signal."}.get(lesson, "")

    def label(choice: str) -> str:
        if lesson == 6 and choice in ("data_pipeline", "not_data"):
            return t(f"learn.verdict.{choice}")
        return t(f"{prefix}{choice}") if prefix else choice
    return label


def lesson_body(ctx: PageContext, lesson: int, quiz: int, teacher: bool) -> None:
    t = ctx.t
    st.subheader(t("learn.checkpoint", n=lesson, question=t(f"learn.l{lesson}.question")))
    st.markdown(t("learn.device_line", device=ctx.device_label(),
                  precision=t(f"common.prec.{ctx.precision}"),
                  peak=_si(ctx.peak_flops, "FLOP/s"), bw=_si(ctx.mem_bw, "B/s")))
    problem = problem_for(ctx, lesson, quiz)
    if problem is None:
        st.warning(t("learn.no_device"), icon=":material/warning:")
        return
    render, worked = LESSONS[lesson]
    render(t, problem, ctx.chart_config(f"learn_{lesson}"))
    solved = state.is_solved(problem)
    if solved:
        st.success(t("learn.done", n=lesson), icon=":material/school:")
    if solved or state.any_revealed(problem):
        with st.container(border=True):
            st.markdown(f"**{t('learn.chapter_answer')}**")
            st.markdown(t(f"learn.l{lesson}.answer"))
            st.markdown(f"**{t('learn.worked')}**")
            st.markdown(worked(t, problem))
    if teacher:
        with st.container(border=True):
            st.markdown(f"**{t('learn.teacher_heading')}**")
            label = _choice_label(t, lesson)
            st.markdown("\n".join("- " + t("learn.teacher_row", question=question_label(t, problem, q.id),
                                                   answer=answer_text(t, q, label))
                                  for q in problem.questions))
            st.markdown(worked(t, problem))
            st.caption(t(f"learn.l{lesson}.answer"))
    st.caption(t("learn.tolerance", tol=tolerance_text()))


def prev_next(t: Translator, lesson: int) -> None:
    left, _mid, right = st.columns([1, 2, 1])
    left.button(t("learn.prev"), help=t("learn.prev_help"), disabled=lesson <= 1,
                on_click=state.go_to_lesson, args=(lesson - 1,),
                icon=":material/arrow_back:", use_container_width=True)
    right.button(t("learn.next"), help=t("learn.next_help"), disabled=lesson >= N_LESSONS,
                 on_click=state.go_to_lesson, args=(lesson + 1,),
                 icon=":material/arrow_forward:", use_container_width=True)


def _si(value, unit: str) -> str:
    return format_si(value, unit) if value is not None else "—"


def question_label(t: Translator, problem: Problem, qid: str) -> str:
    """The field label of question `qid` (for the teacher view)."""
    if qid.startswith("run"):
        return t("learn.q.run", i=qid[3:])
    if qid == "batch":
        return t("learn.q.batch", batch=f"{problem.given['batch']:g}")
    return t(f"learn.q.{qid}")
