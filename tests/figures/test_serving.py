"""ui.figures.serving: the frontier (one line per candidate, the TPOT target at 1 / TPOT, the
Pareto front, the hover text) and the TTFT/TPOT-vs-rate chart, built from calc.serving."""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.serving import BOUND, Replica, Workload, compare_candidates, per_user_target, rate_sweep
from ui.figures.serving import frontier_figure, rate_figure
from ui.i18n import translator

DEVICES = load_hardware()
MODELS = load_models()


@pytest.fixture(scope="module")
def comp():
    return compare_candidates(MODELS["qwen3-32b"], DEVICES, ["h100-sxm", "h200-sxm"], ["fp8"], "same",
                              [2, 4], Workload(isl=4000, osl=500), request_rate=20, ttft_target=1.0,
                              tpot_target=0.05, efficiency="bound")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_frontier_has_a_line_per_candidate_the_target_and_the_front(comp, lang):
    t = translator(lang)
    names = {d: DEVICES[d].name for d in ("h100-sxm", "h200-sxm")}
    fig = frontier_figure(t, comp.candidates, names, per_user_target=per_user_target(0.05),
                          pareto_x=comp.pareto_x, pareto_y=comp.pareto_y)
    assert len(fig.data) == len(comp.candidates) + 2          # + Pareto front + target line
    target = fig.data[-1]
    assert list(target.x) == [20.0, 20.0]                      # 1 / 50 ms = 20 tokens/s per user
    first = fig.data[0]
    c = comp.candidates[0]
    assert len(first.x) == c.curve.batch.size
    hover = first.text[0]
    for word in ("TTFT", "TPOT"):
        assert word in hover
    assert ("batch" in hover) if lang == "en" else ("批大小" in hover)
    assert fig.layout.xaxis.type == "log"
    # its ticks are labelled in tokens/s (plotly's own: "5 6 7 8 9 10 2 3 …")
    assert fig.layout.xaxis.ticktext and all(x.endswith("tok/s") for x in fig.layout.xaxis.ticktext)
    lo, hi = fig.layout.xaxis.range
    xs = [v for c in comp.candidates for v in c.curve.tokens_per_s_per_user]
    assert 10 ** lo < min(xs) and max(xs) < 10 ** hi and 10 ** lo < 20.0 < 10 ** hi


def test_frontier_legend_is_below_the_axis_title_and_the_figure_grows_with_it(comp):
    # the legend is anchored to the bottom of the figure, not at a fraction of the plot's
    # height under it (there, 16 candidates' legend covered the x-axis title)
    t = translator("en")
    names = {d: DEVICES[d].name for d in ("h100-sxm", "h200-sxm")}
    fig = frontier_figure(t, comp.candidates, names, per_user_target=20.0,
                          pareto_x=comp.pareto_x, pareto_y=comp.pareto_y)
    legend = fig.layout.legend
    assert (legend.orientation, legend.yref, legend.yanchor, legend.y) == ("h", "container", "bottom", 0)
    # 4 candidates + front + target = 6 entries, 3 rows of two: 420 + 3 * 20 px
    assert len(fig.data) == 6 and fig.layout.height == 480
    one = frontier_figure(t, comp.candidates[:1], names, per_user_target=20.0,
                          pareto_x=[], pareto_y=[])
    assert len(one.data) == 2 and one.layout.height == 440      # one row: 420 + 20


def test_front_is_not_dominated(comp):
    # no point within the TTFT target (the TTFT it holds under Poisson traffic at its own
    # rate: the queued mean) beats a front point on both axes
    import numpy as np
    xs = np.concatenate([c.curve.tokens_per_s_per_user[c.curve.ttft_queued_seconds <= 1.0]
                         for c in comp.candidates])
    ys = np.concatenate([c.curve.tokens_per_s_per_gpu[c.curve.ttft_queued_seconds <= 1.0]
                         for c in comp.candidates])
    for fx, fy in zip(comp.pareto_x, comp.pareto_y):
        assert not np.any((xs > fx) & (ys > fy))


def test_rate_figure_four_series_and_the_capacity():
    r = Replica(MODELS["qwen3-32b"], DEVICES["h200-sxm"], tp=4, weights="fp8", kv="fp8", act="fp8")
    cap, sweep = rate_sweep(r, Workload(isl=2000, osl=200), (0.3, 0.9, 1.2), n_requests=300, eff=BOUND)
    fig = rate_figure(translator("en"), cap, sweep, ttft_target=1.0, tpot_target=0.05)
    assert [tr.name for tr in fig.data[:4]] == ["TTFT p50", "TTFT p90", "TPOT p50", "TPOT p90"]
    assert fig.layout.shapes[0].x0 == pytest.approx(cap)
    # the last rate is beyond the capacity: its TTFT p90 is the largest (the queue grows)
    assert fig.data[1].y[-1] == max(fig.data[1].y)


@pytest.mark.parametrize("stat", ["mean", "p50", "p90", "p99"])
def test_rate_figure_draws_the_ttft_the_target_holds_for(stat):
    # the TTFT series beside p50 is the one the target holds for (the page's "TTFT target
    # holds for"), each rate's value the simulated run's own field; the p99 is the largest.
    # A p50 target is the first line itself: the second is then the p90
    r = Replica(MODELS["qwen3-32b"], DEVICES["h200-sxm"], tp=4, weights="fp8", kv="fp8", act="fp8")
    cap, sweep = rate_sweep(r, Workload(isl=2000, osl=200), (0.3, 0.9), n_requests=300, eff=BOUND)
    fig = rate_figure(translator("zh"), cap, sweep, ttft_target=1.0, tpot_target=0.05, ttft_stat=stat)
    second = "p90" if stat == "p50" else stat
    assert fig.data[0].name == "TTFT p50" and list(fig.data[0].y) == [s.ttft_p50 for _, s in sweep]
    assert fig.data[1].name == {"mean": "TTFT 均值", "p90": "TTFT p90", "p99": "TTFT p99"}[second]
    assert list(fig.data[1].y) == [getattr(s, f"ttft_{second}") for _, s in sweep]
    assert all(s.ttft_p99 >= s.ttft_p90 >= s.ttft_p50 for _, s in sweep)
    with pytest.raises(ValueError, match="ttft_stat"):
        rate_figure(translator("en"), cap, sweep, ttft_target=1.0, tpot_target=0.05, ttft_stat="p95")


def test_rate_figure_labels_its_log_axes_in_seconds():
    # plotly's own labels on a short log axis are bare digits ("0.01 9 8 … 2 0.1")
    r = Replica(MODELS["qwen3-32b"], DEVICES["h200-sxm"], tp=4, weights="fp8", kv="fp8", act="fp8")
    cap, sweep = rate_sweep(r, Workload(isl=2000, osl=200), (0.3, 0.9, 1.2), n_requests=300, eff=BOUND)
    fig = rate_figure(translator("en"), cap, sweep, ttft_target=1.0, tpot_target=0.05)
    for axis in (fig.layout.yaxis, fig.layout.yaxis2):
        assert axis.type == "log" and axis.ticktext
        assert all(text.endswith("s") and text[0].isdigit() for text in axis.ticktext), axis.ticktext
    # the TPOT axis spans the TPOT series and its target line
    tpot = [v for tr in fig.data if tr.yaxis == "y2" for v in tr.y]
    lo, hi = fig.layout.yaxis2.range
    assert 10 ** lo < min(tpot) and max(tpot) < 10 ** hi and 0.05 in tpot
