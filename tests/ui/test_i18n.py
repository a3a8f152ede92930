"""The translation catalogs: same keys, same placeholders, and no visible string in a page
that bypasses them."""
import ast
import importlib
import pkgutil
import re
import string
from pathlib import Path

import pytest

import ui.text
from ui.i18n import CATALOGS, translate, translator
from ui.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]


def test_both_languages_have_identical_keys():
    en, zh = set(CATALOGS["en"]), set(CATALOGS["zh"])
    assert en - zh == set(), f"missing in zh: {sorted(en - zh)}"
    assert zh - en == set(), f"missing in en: {sorted(zh - en)}"


# The shared catalogs and their namespaces; every other catalog is a page's, named after
# its page id (ui/pages.py), and its keys start with that id (the Roofline page's
# sections have a second module, roofline_sections). A page's catalog may also hold its
# own navigation title and home card (nav.<id>, home.tool.<id>).
SHARED_CATALOGS = {"common": ("common.", "nav."), "figures": ("fig.",), "arch": ("arch.",)}
CATALOG_PAGE = {"roofline_sections": "roofline"}


def test_keys_are_namespaced_by_page_id():
    page_ids = {p.id for p in PAGES}
    wrong = []
    for info in pkgutil.iter_modules(ui.text.__path__):
        module = importlib.import_module(f"ui.text.{info.name}")
        if info.name in SHARED_CATALOGS:
            prefixes = SHARED_CATALOGS[info.name]
        else:
            page = CATALOG_PAGE.get(info.name, info.name)
            assert page in page_ids, f"ui/text/{info.name}.py is neither shared nor a page's"
            prefixes = (f"{page}.", f"nav.{page}", f"home.tool.{page}")
        wrong += [f"{info.name}: {k}" for k in module.EN if not k.startswith(prefixes)]
    assert not wrong, wrong[:20]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(CATALOGS["en"]))
def test_placeholders_match_between_languages(key):
    assert _fields(CATALOGS["en"][key]) == _fields(CATALOGS["zh"][key]), key


def test_no_empty_strings_and_chinese_is_really_chinese():
    han = re.compile(r"[\u4e00-\u9fff]")
    same = []
    for key, en in CATALOGS["en"].items():
        zh = CATALOGS["zh"][key]
        assert en.strip() and zh.strip(), key
        # Long sentences must be translated, not copied (short labels like "FP16" may match).
        prose = re.sub(r"\{[^}]*\}|<[^>]*>|[*_`#]", "", en)
        if len(re.findall(r"[A-Za-z]{3,}", prose)) >= 3 and not han.search(zh):
            same.append(key)
    assert not same, f"zh strings without Chinese: {same}"


def test_translator_substitutes_fields_and_unknown_lang_falls_back_to_english():
    t = translator("zh")
    assert "拐点" in t("fig.ridge_label", ridge="156 FLOP/B")
    assert "156 FLOP/B" in t("fig.ridge_label", ridge="156 FLOP/B")
    assert translate("nav.home", "xx") == CATALOGS["en"]["nav.home"]
    with pytest.raises(KeyError):
        translate("no.such.key", "en")


# --- no visible string bypasses the catalogs -------------------------------------------
# Streamlit calls whose first (or `label`/`body`) argument is shown to the user.
_VISIBLE = {
    "title", "header", "subheader", "markdown", "caption", "text", "write", "info",
    "warning", "error", "success", "button", "download_button", "text_input",
    "number_input", "slider", "select_slider", "selectbox", "multiselect", "radio",
    "checkbox", "toggle", "expander", "tabs", "metric", "file_uploader", "page_link",
    "link_button", "form_submit_button", "popover", "toast", "spinner", "progress",
    "data_editor", "dataframe",
}
# Literal strings that are not prose: formulas and code are language-neutral.
_ALLOWED_CALLS = {"latex", "code", "json", "divider", "columns", "container"}


def _page_files():
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    files += sorted((ROOT / "ui").rglob("*.py"))
    return [f for f in files if "text" not in f.parts]


def _has_letters(value: str) -> bool:
    return bool(re.search(r"[A-Za-z\u4e00-\u9fff]{2,}", value))


@pytest.mark.parametrize("path", _page_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_show_no_literal_prose(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    offenders = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name = node.func.attr
        if name not in _VISIBLE or name in _ALLOWED_CALLS:
            continue
        candidates = list(node.args[:1]) + [kw.value for kw in node.keywords
                                            if kw.arg in ("label", "body", "help", "placeholder")]
        for arg in candidates:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and _has_letters(arg.value) and arg.value != "Language / 语言":
                offenders.append(f"line {node.lineno}: st.{name}({arg.value[:40]!r})")
            if isinstance(arg, ast.JoinedStr):
                literal = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
                if _has_letters(literal.replace("###", "")):
                    offenders.append(f"line {node.lineno}: st.{name}(f{literal[:40]!r})")
    assert not offenders, f"{path.name}: visible literal text bypasses the catalogs: {offenders}"
