"""Chinese device notes (`notes_zh` in hardware.toml): every shipped note has one, it keeps
every figure of the English note, `Accelerator.notes_for(lang)` picks it on Chinese pages
and falls back to English, and a non-string value is an error naming file, device, field."""
from __future__ import annotations

import re

import pytest

from calc.hardware import HardwareFileError, load_hardware

NUMBER = re.compile(r"\d+(?:\.\d+)?")
CJK = re.compile(r"[\u4e00-\u9fff]")
DEVICES = load_hardware()
WITH_NOTES = [dev_id for dev_id, dev in DEVICES.items() if dev.notes]


def test_the_shipped_file_has_notes_to_check():
    assert len(WITH_NOTES) >= 43


@pytest.mark.parametrize("dev_id", WITH_NOTES)
def test_every_note_has_a_chinese_translation_with_the_same_figures(dev_id):
    dev = DEVICES[dev_id]
    assert dev.notes_zh.strip(), f"{dev_id}: notes but no notes_zh"
    assert CJK.search(dev.notes_zh), f"{dev_id}: notes_zh has no Chinese: {dev.notes_zh!r}"
    missing = sorted(set(NUMBER.findall(dev.notes)) - set(NUMBER.findall(dev.notes_zh)),
                     key=float)
    assert not missing, f"{dev_id}: notes_zh lacks the figures {missing}: {dev.notes_zh!r}"


def test_shipped_device_notes_for_each_language():
    dev = DEVICES["a100-80gb-sxm"]
    assert dev.notes_for("zh") == dev.notes_zh != dev.notes
    assert dev.notes_for("en") == dev.notes
    assert "19.5 TFLOP/s" in dev.notes_for("zh")


DEVICE = """
[devices.dev-a]
name = "Dev A"
vendor = "NVIDIA"
year = 2024
memory_gb = 80
mem_bw_gbs = 2000
sparse_headline = false
source = "made up"
{extra}
[devices.dev-a.peak_tflops]
bf16 = 100
"""


def _load(tmp_path, extra: str):
    p = tmp_path / "hw.toml"
    p.write_text(DEVICE.format(extra=extra), encoding="utf-8")
    return p, load_hardware(p)


def test_notes_for_picks_the_language_and_falls_back_to_english(tmp_path):
    _, hw = _load(tmp_path, 'notes = "Dense figures."\nnotes_zh = "稠密数字。"')
    dev = hw["dev-a"]
    assert (dev.notes, dev.notes_zh) == ("Dense figures.", "稠密数字。")
    assert dev.notes_for("zh") == "稠密数字。"
    assert dev.notes_for("en") == "Dense figures."
    assert dev.notes_for("fr") == "Dense figures."        # any other language: English


@pytest.mark.parametrize("extra", ['notes = "Dense figures."',                        # absent
                                   'notes = "Dense figures."\nnotes_zh = ""'])        # empty
def test_without_a_chinese_note_chinese_pages_show_the_english_one(tmp_path, extra):
    _, hw = _load(tmp_path, extra)
    dev = hw["dev-a"]
    assert dev.notes_zh == ""
    assert dev.notes_for("zh") == dev.notes_for("en") == "Dense figures."


def test_no_notes_at_all_is_empty_in_both_languages(tmp_path):
    _, hw = _load(tmp_path, "")
    assert hw["dev-a"].notes_for("zh") == hw["dev-a"].notes_for("en") == ""


@pytest.mark.parametrize("value", ["3", "true", '["稠密"]', "{ a = 1 }"])
def test_a_non_string_notes_zh_names_file_device_and_field(tmp_path, value):
    p = tmp_path / "hw.toml"
    p.write_text(DEVICE.format(extra=f'notes = "x"\nnotes_zh = {value}'), encoding="utf-8")
    with pytest.raises(HardwareFileError) as e:
        load_hardware(p)
    msg = str(e.value)
    assert str(p) in msg and "device 'dev-a'" in msg and "field 'notes_zh'" in msg, msg
    assert "must be a string" in msg, msg
