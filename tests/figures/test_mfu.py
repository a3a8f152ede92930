"""The MFU band strip (ui/figures/mfu.py), built without Streamlit."""
import pytest

from calc.mfu import MFU_BANDS, mfu, mfu_band
from ui.figures.mfu import mfu_band_figure, strip_end
from ui.i18n import translator


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_strip_has_six_bands_and_marks_the_mfu(lang):
    t = translator(lang)
    value = mfu(7e9, 12000, 8, 312e12)          # 0.2019 (seed)
    fig = mfu_band_figure(t, value, mfu_band(value))
    bars = [tr for tr in fig.data if tr.type == "bar"]
    assert len(bars) == 6
    assert [b.base[0] for b in bars] == [b.lower for b in MFU_BANDS]
    marker = [tr for tr in fig.data if tr.type == "scatter"]
    assert len(marker) == 1 and marker[0].x[0] == pytest.approx(0.2019, abs=1e-4)
    # the active band ("low") is outlined
    low = bars[1]
    assert low.marker.line.width == 3 and bars[0].marker.line.width == 1
    assert "20.2%" in fig.layout.annotations[0].text
    assert list(fig.layout.xaxis.ticktext)[:3] == ["0%", "20%", "35%"]
    assert fig.layout.xaxis.title.text == t("mfu.fig.x_title")
    for b in bars:
        assert b.hovertemplate


def test_strip_extends_for_large_values_and_works_without_value():
    t = translator("en")
    assert strip_end(0.3) == 0.75
    assert strip_end(1.5) > 1.5
    fig = mfu_band_figure(t, 1.5, mfu_band(1.5))
    assert fig.layout.xaxis.range[1] > 1.5
    fig = mfu_band_figure(t, None)
    assert not [tr for tr in fig.data if tr.type == "scatter"]
