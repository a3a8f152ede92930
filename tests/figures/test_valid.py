"""The figure builders skip plotly's validation (ui.figures.roofline.VALIDATE): check here
that every figure they build is valid plotly (a typo in a property name would raise)."""
import numpy as np
import plotly.graph_objects as go
import pytest

from calc.arch import params_only
from calc.inference import decode_knee, decode_step
from calc.roofline import place_kernels
from ui.figures.decode import batch_figure, decode_roofline_figure
from ui.figures.roofline import Roof, kernel_points, roofline_figure
from ui.figures.training import days_vs_mfu_figure
from ui.i18n import translator

PEAK, BW = 312e12, 2.039e12
t = translator("en")


def _kernels(**kw):
    flops, nbytes = np.array([2e9, 1e12, 3e7]), np.array([1e9, 4e8, 3e7])
    pl = place_kernels(flops, nbytes, PEAK, BW, seconds=np.array([np.nan, 4e-3, 2e-5]))
    return kernel_points(t, ["a", "<b>", "c"], flops, nbytes, pl, **kw)


def _figures():
    b = np.geomspace(1, 4096, 20)
    s = decode_step(params_only(7e9), b, 0, peak_flops=PEAK, mem_bw=BW)
    thr, per = s.tokens_per_s, s.tokens_per_s_per_request
    roofs = [Roof("A100", PEAK, BW), Roof("FP32", 19.5e12, BW, dash="dash")]
    return {
        "roofline": roofline_figure(t, roofs),
        "roofline_kernels": roofline_figure(t, roofs, _kernels(size=np.array([8.0, 12, 20]),
                                                               highlight=np.array([1, 0, 1], bool),
                                                               labels=["1", "2", "3"]),
                                            title="T", compact=True),
        "roofline_light": roofline_figure(t, roofs[:1], _kernels(light=True), show_regions=False),
        "training": days_vs_mfu_figure(t, [0.1, 0.5], [100.0, 20.0], (0.4, 25.0), (0.2, 50.0),
                                       log_y=True),
        "decode_batch": batch_figure(t, b, thr, per, knee=decode_knee(params_only(7e9), 0, peak_flops=PEAK, mem_bw=BW),
                                     current=(8, thr[3], per[3])),
        "decode_roofline": decode_roofline_figure(t, roofs[0], ["step"], [1.4e10], [1.4e10]),
    }


@pytest.mark.parametrize("name", sorted(_figures()))
def test_figure_is_valid_plotly(name):
    fig = _figures()[name]
    assert isinstance(fig, go.Figure)
    go.Figure(fig.to_dict())          # validates every property; raises on an invalid one
