"""The MFU band strip (ui/figures/mfu.py, inline SVG), built without Streamlit.

Expected geometry by hand: the strip spans x = 12 … 508 (520 wide, 12 each side), so a
fraction f of a 0.75 strip sits at 12 + 496·f/0.75."""
import xml.etree.ElementTree as ET

import pytest

from calc.mfu import MFU_BANDS, mfu, mfu_band
from ui.figures.mfu import mfu_band_alt, mfu_band_svg, strip_end
from ui.i18n import translator

NS = {"s": "http://www.w3.org/2000/svg"}


def _svg(t, value, band=None):
    text = mfu_band_svg(t, value, band)
    return text, ET.fromstring(text)          # well-formed XML, or this fails


def _bands(root):
    return {g.get("data-band"): g for g in root.findall("s:g[@data-band]", NS)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_strip_has_six_bands_and_marks_the_mfu(lang):
    t = translator(lang)
    value = mfu(7e9, 12000, 8, 312e12)          # 0.2019 (seed)
    _, root = _svg(t, value, mfu_band(value))
    bands = _bands(root)
    assert list(bands) == [b.key for b in MFU_BANDS]
    xs = [float(g.find("s:rect", NS).get("x")) for g in bands.values()]
    assert xs == pytest.approx([12 + 496 * b.lower / 0.75 for b in MFU_BANDS], abs=0.06)
    low = bands["low"].find("s:rect", NS)       # 20-35 %: 176.3 … 275.5
    assert float(low.get("width")) == pytest.approx(496 * 0.15 / 0.75, abs=0.06)
    # the active band ("low") is outlined, the others are not
    assert bands["low"].get("data-active") == "true" and low.get("stroke-width") == "3"
    assert bands["problem"].find("s:rect", NS).get("stroke-width") == "1"
    marker = root.find("s:g[@data-marker]", NS)
    assert marker.get("data-marker") == "20.2%"
    tip = marker.find("s:path", NS).get("d")   # the triangle's tip: x = 12 + 496·0.2019/0.75
    assert float(tip.split()[-3]) == pytest.approx(12 + 496 * value / 0.75, abs=0.06)
    assert t("mfu.fig.marker_label", mfu="20.2%") in "".join(marker.itertext())
    ticks = [e.text for e in root.findall("s:text", NS)]
    assert ticks[:3] == ["0%", "20%", "35%"] and t("mfu.fig.x_title") in ticks


def test_strip_extends_for_large_values_and_works_without_value():
    t = translator("en")
    assert strip_end(0.3) == 0.75
    assert strip_end(1.5) == pytest.approx(1.68)
    assert strip_end(5000.0) == 1.2                # "> 1,000%": just past 100 %
    _, root = _svg(t, 1.5, mfu_band(1.5))
    # the suspicious band (60 % …) now runs to 1.68: from 12 + 496·0.6/1.68 to the end
    rect = _bands(root)["suspicious"].find("s:rect", NS)
    assert float(rect.get("x")) == pytest.approx(12 + 496 * 0.6 / 1.68, abs=0.06)
    assert float(rect.get("x")) + float(rect.get("width")) == pytest.approx(508, abs=0.06)
    _, root = _svg(t, None)
    assert root.find("s:g[@data-marker]", NS) is None
    assert len(_bands(root)) == 6


def test_narrow_bands_and_close_ticks_leave_their_text_out():
    t = translator("en")
    _, root = _svg(t, 0.3, mfu_band(0.3))            # 55-60 % of a 0.75 strip: 33 units
    assert _bands(root)["excellent"].find("s:text", NS).text == t("mfu.band.excellent.short")
    _, root = _svg(t, 5000.0, mfu_band(5000.0))    # strip to 1.2: 55-60 % is 20.7 units wide
    great = _bands(root)["excellent"]
    assert great.find("s:text", NS).text is None     # no label drawn over its neighbours
    ticks = [e.text for e in root.findall("s:text", NS) if e.text and e.text.endswith("%")]
    assert "55%" in ticks and "60%" not in ticks     # 60 % sits 20.7 units from 55 %


def test_text_is_escaped():
    class Hostile:
        lang = "en"

        def __call__(self, key, **kw):
            return "<i>&"          # short enough to fit every band (4 characters, 24 units)
    text = mfu_band_svg(Hostile(), 0.3, mfu_band(0.3))
    ET.fromstring(text)
    assert "<i>" not in text
    # the six band names, the axis title and the marker's label: every text of the strip
    assert text.count("&lt;i&gt;&amp;") == 6 + 1 + 1


def test_alt_text_names_the_mfu_and_its_band():
    t = translator("zh")
    assert mfu_band_alt(t, 0.2019, mfu_band(0.2019)) == (
        t("mfu.fig.marker_hover", mfu="20.2%") + " · " + t("mfu.band.low.name"))
    assert mfu_band_alt(t, None) == t("mfu.fig.x_title")
