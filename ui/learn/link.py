""""Why? → the ridge point": a small link from a key result on any page to the Learn
lesson that explains it. One call per result: ``why_link(t, 1)``.

The link opens pages/0_Learn.py on lesson `n` (URL ``lesson``) and carries the shared
names (language, device, precision, …) like the sidebar's links; the learner keeps their
own quiz number.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from calc.lessons import N_LESSONS
from ui.i18n import Translator
from ui.pages import page_file
from ui.state import nav_query_params

LEARN_PAGE = page_file("learn")


def why_params(lesson: int) -> dict[str, str]:
    """The link's query parameters: the shared names and lesson=n."""
    if not 1 <= lesson <= N_LESSONS:
        raise ValueError(f"lesson must be 1..{N_LESSONS}, got {lesson!r}")
    return {**nav_query_params("learn"), "lesson": str(lesson)}


def why_link(t: Translator, lesson: int, container: Any = None) -> None:
    """Draw "Why? → <topic>" linking to lesson `lesson` of the Learn page."""
    box = container if container is not None else st
    box.page_link(LEARN_PAGE, label=t("learn.why", topic=t(f"learn.topic.{lesson}")),
                  icon=":material/school:", query_params=why_params(lesson),
                  help=t("learn.why_help", n=lesson))
