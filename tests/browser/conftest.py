"""Real-browser fixtures: one Streamlit server and one Chromium per session.

Helpers live in browser_helpers.py (a unique module name; conftest modules are not
imported by name). Without Chromium the tests are skipped, except in CI (CI=true).
"""
from __future__ import annotations

import pytest

from browser_helpers import (ARTIFACTS, CHROMIUM_ARGS, PAGE_TIMEOUT_MS, SCREENSHOTS, find_chromium, in_ci,
                             start_server, stop_server)


def _missing(reason: str):
    if in_ci():
        pytest.fail(f"{reason} (CI=true: the browser tests must run in CI)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        _missing("Chromium not found at /usr/bin/chromium (apt-get install chromium fonts-noto-cjk)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _missing("the playwright Python package is not installed (pip install -e '.[test]')")
    return path


@pytest.fixture(scope="session")
def screenshot_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\n[browser tests] screenshots are saved in {SCREENSHOTS}")
    return SCREENSHOTS


@pytest.fixture(scope="session")
def server(chromium_path) -> str:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    proc, base = start_server(log_path=ARTIFACTS / "streamlit-browser-tests.log")
    yield base
    stop_server(proc)


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    pg = context.new_page()
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    dialogs: list[str] = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pg.dialogs = dialogs  # type: ignore[attr-defined]
    yield pg
    assert not dialogs, f"a dialog fired: {dialogs}"


