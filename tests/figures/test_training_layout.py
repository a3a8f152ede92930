"""Figure builders of the Training layout page (AppTest cannot read plotly charts)."""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.parallel import schedule_timeline, step_timeline, training_step
from ui.figures.training_layout import gantt_figure, memory_figure, step_breakdown_figure
from ui.i18n import translator


@pytest.fixture(scope="module")
def step():
    hw, models = load_hardware(), load_models()
    return training_step(models["llama-3.1-70b"], device=hw["h100-sxm"], gpus=64, tp=8, pp=4,
                         seq_len=4096, global_batch=256)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_bar_stacks_every_nonzero_part(step, lang):
    fig = step_breakdown_figure(translator(lang), step)
    total = sum(tr.x[0] for tr in fig.data)
    assert total == pytest.approx(step.step_seconds)
    names = [tr.name for tr in fig.data]
    assert translator(lang)("training_layout.part.compute") in names
    assert translator(lang)("training_layout.part.bubble") in names


def test_memory_bar_sums_to_the_total_and_marks_capacity(step):
    fig = memory_figure(translator("en"), step)
    assert sum(tr.x[0] for tr in fig.data) == pytest.approx(step.memory.total)
    xs = sorted(s.x0 for s in fig.layout.shapes)
    # 80 GiB capacity and 90 % of it usable (calc.placement.MEMORY_RESERVE = 0.10)
    assert xs == pytest.approx([0.9 * 80 * 2**30, 80 * 2**30])
    # the axis in bytes with SI prefixes: 0 … 1.05 × 85.9 GB = 90.2 GB in steps of 10 GB
    # (plotly's own ticks read "10B", billions, beside a 70B model)
    axis = fig.layout.xaxis
    assert list(axis.ticktext) == ["0 B"] + [f"{k} GB" for k in range(10, 100, 10)]
    assert axis.range[1] == pytest.approx(1.05 * 80 * 2**30)


def test_gantt_has_one_row_per_stage_and_the_idle_share():
    blocks = schedule_timeline("1f1b", pp=4, n_microbatches=8, forward=1, backward=2)
    fig = gantt_figure(translator("en"), blocks, pp=4, n_microbatches=8, schedule="1f1b",
                       bubble_fraction=3 / 11)
    fwd = next(tr for tr in fig.data if tr.name == "forward")
    assert len(fwd.x) == 4 * 8 and set(fwd.y) == {f"stage {s}" for s in range(1, 5)}
    assert any("27.3%" in tr.name for tr in fig.data)     # (p−1)/(m+p−1) = 3/11
    assert "p = 4, m = 8" in fig.layout.title.text


def test_gantt_of_a_long_step_draws_a_prefix(step):
    blocks, m = step_timeline(step)
    assert m == 24 < step.n_microbatches == 128
    fig = gantt_figure(translator("zh"), blocks, pp=step.pp, n_microbatches=m, schedule=step.schedule,
                       total_microbatches=step.n_microbatches)
    assert "128" in fig.layout.title.text
