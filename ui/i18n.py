"""Translations: one catalog per language, merged from the modules in `ui/text/`.

Every visible string on every page comes from here. Each module in `ui/text/` (one per
page, plus `common` and `figures`) defines one dict per language, named after the
language's code in capitals (`EN`, `ZH`), with identical keys (a test enforces it). Keys
are namespaced by page (`common.`, `home.`, `roofline.`, `mfu.`, `training.`, `decode.`),
so two modules never define the same key.

Adding a language: one line in `LANG_NAMES` below, and one dict (e.g. `JA`) in every
module of `ui/text/` (README, "Add a language").

Use `translator(lang)` to get a `t(key, **fields)` function; fields are substituted with
`str.format`. The figure builders take such a function, so they stay testable without
Streamlit.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Callable

import ui.text as text_pkg

# The language list: code -> the name the sidebar shows. One line per language.
LANG_NAMES = {
    "en": "English",
    "zh": "中文",
}
LANGS: tuple[str, ...] = tuple(LANG_NAMES)
DEFAULT_LANG = "en"

Translator = Callable[..., str]


def _load_catalogs() -> dict[str, dict[str, str]]:
    catalogs: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for mod_info in sorted(pkgutil.iter_modules(text_pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"ui.text.{mod_info.name}")
        for lang in LANGS:
            table = getattr(module, lang.upper())
            dup = set(table) & set(catalogs[lang])
            if dup:
                raise RuntimeError(f"ui/text/{mod_info.name}.py redefines keys: {sorted(dup)}")
            catalogs[lang].update(table)
    return catalogs


CATALOGS: dict[str, dict[str, str]] = _load_catalogs()


def normalize_lang(lang: object) -> str:
    """Return a supported language code; anything unknown falls back to English."""
    return lang if isinstance(lang, str) and lang in CATALOGS else DEFAULT_LANG


def translate(key: str, lang: str = DEFAULT_LANG, **fields: object) -> str:
    """The text for `key` in `lang`, with `fields` substituted.

    A key missing from the catalog raises KeyError: tests catch it, and no page ships a
    raw key. A missing field in the template also raises (KeyError from str.format).
    """
    template = CATALOGS[normalize_lang(lang)][key]
    return template.format(**fields) if fields else template


def translator(lang: str) -> Translator:
    """A `t(key, **fields)` function bound to one language."""
    lang = normalize_lang(lang)

    def t(key: str, **fields: object) -> str:
        return translate(key, lang, **fields)

    t.lang = lang  # type: ignore[attr-defined]
    return t
