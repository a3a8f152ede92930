"""Chinese model notes (`notes_zh` in models.toml): every shipped note has one, it keeps every
figure of the English note, `ModelArch.notes_for(lang)` picks it on Chinese pages and falls
back to English, and a non-string value is an error naming file, model and field."""
from __future__ import annotations

import json
import re

import pytest

from calc.models import ModelFileError, arch_from_dict, arch_to_dict, load_models

NUMBER = re.compile(r"\d+(?:\.\d+)?")
CJK = re.compile(r"[\u4e00-\u9fff]")
MODELS = load_models()
WITH_NOTES = [model_id for model_id, arch in MODELS.items() if arch.notes]


def test_the_shipped_file_has_notes_to_check():
    assert len(WITH_NOTES) >= 22


@pytest.mark.parametrize("model_id", WITH_NOTES)
def test_every_note_has_a_chinese_translation_with_the_same_figures(model_id):
    arch = MODELS[model_id]
    assert arch.notes_zh.strip(), f"{model_id}: notes but no notes_zh"
    assert CJK.search(arch.notes_zh), f"{model_id}: notes_zh has no Chinese: {arch.notes_zh!r}"
    missing = sorted(set(NUMBER.findall(arch.notes)) - set(NUMBER.findall(arch.notes_zh)),
                     key=float)
    assert not missing, f"{model_id}: notes_zh lacks the figures {missing}: {arch.notes_zh!r}"


def test_shipped_model_notes_for_each_language():
    arch = MODELS["mpt-13b"]
    assert arch.notes_for("zh") == arch.notes_zh != arch.notes
    assert arch.notes_for("en") == arch.notes
    assert "12,864,440,320" in arch.notes_for("zh")


def test_notes_zh_survives_the_dict_round_trip():
    arch = MODELS["deepseek-v3"]
    assert arch_from_dict(json.loads(json.dumps(arch_to_dict(arch)))).notes_zh == arch.notes_zh


MODEL = """
[models."tiny-1"]
name = "Tiny"
source = "https://example.org/config.json"
layers = 2
d_model = 64
heads = 4
kv_heads = 2
head_dim = 16
ffn_size = 128
ffn_kind = "gated"
vocab_size = 100
tied_embeddings = true
"""


def _load(tmp_path, extra: str):
    p = tmp_path / "models.toml"
    p.write_text(MODEL + extra + "\n", encoding="utf-8")
    return p, load_models(p)


def test_notes_for_picks_the_language_and_falls_back_to_english(tmp_path):
    _, models = _load(tmp_path, 'notes = "Tied embeddings."\nnotes_zh = "嵌入共享。"')
    arch = models["tiny-1"]
    assert (arch.notes, arch.notes_zh) == ("Tied embeddings.", "嵌入共享。")
    assert arch.notes_for("zh") == "嵌入共享。"
    assert arch.notes_for("en") == "Tied embeddings."
    assert arch.notes_for("fr") == "Tied embeddings."      # any other language: English


@pytest.mark.parametrize("extra", ['notes = "Tied embeddings."',                       # absent
                                   'notes = "Tied embeddings."\nnotes_zh = ""'])       # empty
def test_without_a_chinese_note_chinese_pages_show_the_english_one(tmp_path, extra):
    _, models = _load(tmp_path, extra)
    arch = models["tiny-1"]
    assert arch.notes_zh == ""
    assert arch.notes_for("zh") == arch.notes_for("en") == "Tied embeddings."


def test_no_notes_at_all_is_empty_in_both_languages(tmp_path):
    _, models = _load(tmp_path, "")
    assert models["tiny-1"].notes_for("zh") == models["tiny-1"].notes_for("en") == ""


@pytest.mark.parametrize("value", ["3", "true", '["嵌入"]', "{ a = 1 }"])
def test_a_non_string_notes_zh_names_file_model_and_field(tmp_path, value):
    p = tmp_path / "models.toml"
    p.write_text(MODEL + f'notes = "x"\nnotes_zh = {value}\n', encoding="utf-8")
    with pytest.raises(ModelFileError) as e:
        load_models(p)
    msg = str(e.value)
    assert str(p) in msg and "model 'tiny-1'" in msg and "field 'notes_zh'" in msg, msg
    assert "must be a string" in msg, msg
