"""Lesson n -> (render, worked): the functions that draw lesson n and write its solution."""
from __future__ import annotations

from ui.learn.decode import render_decode, worked_decode
from ui.learn.diagnosis import render_experiment, render_trace, worked_experiment, worked_trace
from ui.learn.mfu import (render_bands, render_mfu, render_six_n, worked_bands, worked_mfu,
                          worked_six_n)
from ui.learn.roofline import render_ceiling, render_ridge, worked_ceiling, worked_ridge

LESSONS = {
    1: (render_ridge, worked_ridge),
    2: (render_ceiling, worked_ceiling),
    3: (render_mfu, worked_mfu),
    4: (render_six_n, worked_six_n),
    5: (render_bands, worked_bands),
    6: (render_experiment, worked_experiment),
    7: (render_trace, worked_trace),
    8: (render_decode, worked_decode),
}
