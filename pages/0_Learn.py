"""Learn page: the seed chapter's eight checkpoint questions as lessons, checked by calc/.

Every number and every check comes from calc.lessons; the sections live in ui/learn/.
"""
import streamlit as st

from ui.frame import page_frame
from ui.learn.page import controls, lesson_body, prev_next, progress

ctx = page_frame("learn")
t = ctx.t

st.title(t("learn.title"))
st.markdown(t("learn.intro"))
lesson, quiz = controls(ctx)
teacher = progress(t)
st.divider()
lesson_body(ctx, lesson, quiz, teacher)
st.divider()
prev_next(t, lesson)
