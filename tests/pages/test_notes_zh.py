"""The sidebar's notes expanders (device and model) show notes_zh on Chinese pages and the
English notes on English ones (hardware.toml / models.toml)."""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from page_helpers import open_app_page
from ui.i18n import CATALOGS

DEVICE = load_hardware()["a100-80gb-sxm"]
MODEL = load_models()["mpt-13b"]


def _expander_text(at, key: str, lang: str) -> str:
    label = CATALOGS[lang][key]
    found = [e for e in at.sidebar.expander if e.label == label]
    assert len(found) == 1, (label, [e.label for e in at.sidebar.expander])
    return " ".join(x.value for x in found[0].text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_notes_expanders_are_in_the_page_language(lang):
    at = open_app_page("pages/2_MFU.py", lang, device="a100-80gb-sxm", model="mpt-13b")
    device_notes = _expander_text(at, "common.device_notes", lang)
    model_notes = _expander_text(at, "arch.notes", lang)
    if lang == "zh":
        assert device_notes == DEVICE.notes_zh and "向量算力" in device_notes
        assert model_notes == MODEL.notes_zh and "基准测试" in model_notes
    else:
        assert device_notes == DEVICE.notes and "vector rate" in device_notes
        assert model_notes == MODEL.notes and "benchmark" in model_notes
