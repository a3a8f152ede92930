"""Open a page the way a link does: app.py first (pages-directory mode needs it as the
entry point), query parameters set before the first run, then switch to the page."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

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
