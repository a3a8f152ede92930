"""Streamlit draws the file uploader's own text in English ("Upload", "25MB per file •
JSON") and 1.67 cannot set it (no parameter; streamlit/streamlit#13500 open, #10042 closed
unmerged). Every uploader is therefore labelled in Chinese by ui.widgets.uploader_note."""
import ast
import inspect
import sys
from pathlib import Path

import pytest
import streamlit as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "pages"))


def test_streamlit_still_cannot_set_the_dropzone_text():
    # When a Streamlit upgrade adds such a parameter, translate the text itself instead.
    params = set(inspect.signature(st.file_uploader).parameters)
    assert not params & {"text", "placeholder", "browse_text", "drag_and_drop_text", "footer_text"}


def _calls(tree, name):
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.Call) and
               (getattr(n.func, "attr", None) == name or getattr(n.func, "id", None) == name))


@pytest.mark.parametrize("path", sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py"),
                                         ROOT / "app.py"]), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_uploader_is_labelled(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if path.name == "widgets.py":
        return
    assert _calls(tree, "uploader_note") >= _calls(tree, "file_uploader"), \
        f"{path.name}: call ui.widgets.uploader_note(t, types) after st.file_uploader"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_roofline_import_uploader_note(lang):
    from page_helpers import open_app_page
    at = open_app_page("pages/1_Roofline.py", lang)
    notes = [c.value for c in at.caption if "Upload" in c.value]
    if lang == "en":
        assert not notes                      # the dropzone already speaks English
    else:
        # the import panel (JSON, GZ, CSV) and the scenario file (JSON), 25 MB from config.toml
        assert any("25 MB" in n and "JSON、GZ、CSV" in n and "上传" in n for n in notes), notes
        assert any("只接受 JSON 文件" in n for n in notes), notes
