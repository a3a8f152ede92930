"""Chinese notes (`notes_zh` in hardware.toml and models.toml): every shipped note has one that
keeps every figure of the English note, and `notes_for(lang)` (calc.notes, the one rule for
devices and models) picks it on Chinese pages and falls back to English.  The loaders' side
(the field read, a non-string refused) is tested with each file's other fields in
test_hardware.py and test_models.py."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest

from calc.hardware import load_hardware
from calc.models import arch_from_dict, arch_to_dict, load_models

NUMBER = re.compile(r"\d+(?:\.\d+)?")
CJK = re.compile(r"[\u4e00-\u9fff]")
DEVICES = load_hardware()
MODELS = load_models()
WITH_NOTES = ([("hardware.toml", k) for k, d in DEVICES.items() if d.notes]
              + [("models.toml", k) for k, a in MODELS.items() if a.notes])


def _record(file: str, key: str):
    return (DEVICES if file == "hardware.toml" else MODELS)[key]


def test_the_shipped_files_have_notes_to_check():
    files = [f for f, _ in WITH_NOTES]
    assert files.count("hardware.toml") >= 43 and files.count("models.toml") >= 22


@pytest.mark.parametrize("file, key", WITH_NOTES)
def test_every_note_has_a_chinese_translation_with_the_same_figures(file, key):
    r = _record(file, key)
    assert r.notes_zh.strip(), f"{file} {key}: notes but no notes_zh"
    assert CJK.search(r.notes_zh), f"{file} {key}: notes_zh has no Chinese: {r.notes_zh!r}"
    missing = sorted(set(NUMBER.findall(r.notes)) - set(NUMBER.findall(r.notes_zh)), key=float)
    assert not missing, f"{file} {key}: notes_zh lacks the figures {missing}: {r.notes_zh!r}"


NETWORKED = [k for k, d in DEVICES.items() if d.network_source]


def test_the_shipped_file_has_network_sources_to_check():
    assert len(NETWORKED) >= 12


@pytest.mark.parametrize("key", NETWORKED)
def test_every_network_source_has_a_chinese_translation_with_the_same_figures(key):
    d = DEVICES[key]
    assert CJK.search(d.network_source_zh), f"{key}: network_source_zh has no Chinese"
    missing = sorted(set(NUMBER.findall(d.network_source)) - set(NUMBER.findall(d.network_source_zh)),
                     key=float)
    assert not missing, f"{key}: network_source_zh lacks the figures {missing}"


def test_network_source_for_picks_the_language_and_falls_back_to_english():
    dev = DEVICES["h100-sxm"]
    assert dev.network_source_for("zh") == dev.network_source_zh != dev.network_source
    assert "8 × 400 Gb/s" in dev.network_source_for("zh")       # the DGX H100's NICs, kept
    assert dev.network_source_for("en") == dev.network_source_for("fr") == dev.network_source
    english = dataclasses.replace(dev, network_source_zh="")
    assert english.network_source_for("zh") == dev.network_source


def test_shipped_notes_for_each_language():
    dev, arch = DEVICES["a100-80gb-sxm"], MODELS["mpt-13b"]
    assert dev.notes_for("zh") == dev.notes_zh != dev.notes and dev.notes_for("en") == dev.notes
    assert "19.5 TFLOP/s" in dev.notes_for("zh")             # the FP64 tensor rate, kept
    assert arch.notes_for("zh") == arch.notes_zh != arch.notes and arch.notes_for("en") == arch.notes
    assert "12,864,440,320" in arch.notes_for("zh")          # llm-foundry's NumParams, kept


@pytest.mark.parametrize("record", [DEVICES["a100-80gb-sxm"], MODELS["mpt-13b"]],
                         ids=["device", "model"])
def test_notes_for_picks_the_language_and_falls_back_to_english(record):
    both = dataclasses.replace(record, notes="Dense figures.", notes_zh="稠密数字。")
    assert both.notes_for("zh") == "稠密数字。"
    assert both.notes_for("en") == both.notes_for("fr") == "Dense figures."   # others: English
    english = dataclasses.replace(record, notes="Dense figures.", notes_zh="")
    assert english.notes_for("zh") == "Dense figures."       # no translation: the English one
    none = dataclasses.replace(record, notes="", notes_zh="")
    assert none.notes_for("zh") == none.notes_for("en") == ""


def test_notes_zh_survives_the_dict_round_trip():
    arch = MODELS["deepseek-v3"]
    assert arch_from_dict(json.loads(json.dumps(arch_to_dict(arch)))).notes_zh == arch.notes_zh
