"""Open a page the way a link does, and read what it shows by label.

- :func:`open_app_page`: app.py first (pages-directory mode needs it as the entry point),
  query parameters set before the first run, then switch to the page.
- :func:`metric` / :func:`metric_element` / :func:`metrics`: a page's metrics by their
  label — the catalog key of the label (``"mfu.metric.mfu"``), read in the page's language;
  placeholders in the label (``"Throughput at batch {batch}"``) match any value. Never by
  position: a page that reorders its columns must not silently compare other numbers.
- :func:`texts`: the text of every element of one kind, joined.
"""
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.i18n import CATALOGS, LANGS

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_app_page(page: str, lang: str = "en", timeout: float = 30, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception      # the home page (app.py) runs first
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def page_lang(at: AppTest) -> str:
    """The language the page is shown in (the sidebar's choice)."""
    try:
        lang = at.selectbox(key="lang").value
    except KeyError:
        lang = None
    return lang if lang in LANGS else "en"


def _label_pattern(key: str, lang: str) -> re.Pattern:
    template = CATALOGS[lang][key]
    parts = re.split(r"\{[^{}]*\}", template)
    return re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$", re.S)


def metric_element(at: AppTest, key: str, **fields):
    """The one metric labelled with catalog text ``key`` (``fields`` fill its placeholders;
    a placeholder left out matches any value). The same label shown twice with the same
    value (the Decode page at batch 1) counts once. Fails naming the labels it saw."""
    lang = page_lang(at)
    if fields:
        wanted = CATALOGS[lang][key].format(**fields)
        found = [m for m in at.metric if m.label == wanted]
    else:
        pattern = _label_pattern(key, lang)
        found = [m for m in at.metric if pattern.match(m.label)]
    assert len({(m.label, m.value) for m in found}) == 1, (f"{len(found)} metrics labelled {key!r} [{lang}]; "
                             f"labels: {[m.label for m in at.metric]}")
    return found[0]


def metric(at: AppTest, key: str, **fields) -> str:
    """The value of the metric labelled with catalog text ``key`` (see metric_element)."""
    return metric_element(at, key, **fields).value


def metrics(at: AppTest) -> dict[str, str]:
    """Every metric on the page: label -> value."""
    return {m.label: m.value for m in at.metric}


def texts(at: AppTest, kind: str) -> str:
    """The text of every element of ``kind`` ("warning", "info", "markdown", ...), joined."""
    return " ".join(e.value for e in getattr(at, kind))
