"""Issue 8, defect 13: the batch chart marks the largest batch that fits."""
import numpy as np

from ui.figures.decode import batch_figure
from ui.i18n import translator


def _fig(max_fit):
    b = np.geomspace(1, 4096, 50)
    return batch_figure(translator("en"), b, b * 100.0, np.full_like(b, 100.0), knee=153.0,
                        max_fit=max_fit)


def test_max_fit_line_and_shading():
    # 7B bf16 + 2.147e9 B of KV per request on 80 GiB: floor((85.9e9 - 14e9) / 2.147e9) = 33
    fig = _fig(33.0)
    lines = [s for s in fig.layout.shapes if s.type == "line" and s.x0 == 33.0]
    assert len(lines) == 1
    rects = [s for s in fig.layout.shapes if s.type == "rect" and s.x0 == 33.0 and s.x1 == 4096]
    assert len(rects) == 1
    assert any("largest batch that fits: 33" in a.text for a in fig.layout.annotations)


def test_no_limit_drawn_without_one():
    for max_fit in (None, float("inf"), 5000.0):
        fig = _fig(max_fit)
        assert not any("fits" in (a.text or "") for a in fig.layout.annotations)


def test_nothing_fits():
    fig = _fig(0.0)
    assert any("nothing fits" in a.text for a in fig.layout.annotations)
