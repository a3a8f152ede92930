"""Real-browser helpers (server, chromium, waits): one Streamlit server per session, one Chromium per session.

The server runs `streamlit run app.py` headless on 127.0.0.1 at a free port and is stopped
by its process group at the end. Chromium is Debian's (/usr/bin/chromium): Playwright's own
browser download is not available here. Without Chromium the browser tests are skipped,
except in CI (CI=true), where a missing browser fails the run.

Screenshots go to artifacts/screenshots/ (or $ROOFLINE_LAB_ARTIFACTS/screenshots/);
the folder is printed at the start of the session.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from ui.pages import PAGES


ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("ROOFLINE_LAB_ARTIFACTS", ROOT / "artifacts"))
SCREENSHOTS = ARTIFACTS / "screenshots"

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]

# Page paths in pages-directory mode, from the page registry (derived from the file names).
PAGE_PATHS = {p.id: "/" + p.url_path for p in PAGES}


# Generous: on a loaded 2-core CI machine a first page load can take tens of seconds.
PAGE_TIMEOUT_MS = int(os.environ.get("ROOFLINE_LAB_PAGE_TIMEOUT_MS", "90000"))


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def find_chromium() -> str | None:
    for candidate in (os.environ.get("ROOFLINE_LAB_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int | None = None, env: dict | None = None,
                 log_path: Path | None = None) -> tuple[subprocess.Popen, str]:
    """Start `streamlit run app.py` on 127.0.0.1; return (process, base URL) once healthy."""
    port = port or _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
           "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none", "--server.runOnSave", "false",
           "--server.address", "127.0.0.1", "--server.port", str(port)]
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})}, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}; see {log_path}")
        try:
            with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc, base
        except OSError:
            pass
        time.sleep(0.25)
    stop_server(proc)
    raise RuntimeError("streamlit did not become healthy within 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server we started: its process group (it was started in a new session)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


# ----------------------------------------------------------------------------- helpers

def wait_idle(page, timeout: float = PAGE_TIMEOUT_MS, settle_ms: int = 150) -> None:
    """Wait until the app has finished running (Streamlit's e2e rule: script state
    'notRunning', no status widget), then until the plotly charts have drawn."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            if (!app) return false;
            const state = app.getAttribute('data-test-script-state');
            if (state !== null && state !== 'notRunning') return false;
            if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
            if (document.querySelector('[data-testid="stSkeleton"]')) return false;
            return true;
        }""",
        timeout=timeout,
    )
    page.wait_for_timeout(settle_ms)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
              .every(c => c.querySelector('.main-svg'))""",
        timeout=timeout,
    )


def goto(page, base: str, page_id: str, **params) -> None:
    from urllib.parse import urlencode

    url = base + PAGE_PATHS[page_id]
    if params:
        url += "?" + urlencode(params)
    page.goto(url)
    wait_idle(page)


def assert_no_exception(page) -> None:
    exc = page.locator('[data-testid="stException"]')
    if exc.count():
        raise AssertionError("stException on the page:\n" + exc.first.inner_text()[:2000])


def plot_point_counts(page, selector: str = ".js-plotly-plot") -> list[list[int]]:
    """For each plotly chart on the page: the number of points of each trace (plotly's
    _fullData; plotly 6 ships arrays as typed/base64 data, so t.x.length is not reliable)."""
    return page.evaluate(
        f"""() => [...document.querySelectorAll('{selector}')].map(
                 g => (g._fullData || []).map(t => (t._length || 0)))""")


def full_screenshot(page, path, max_height: int = 8000) -> None:
    """Screenshot the whole page. Streamlit scrolls inside its own container, so
    full_page=True only gets the viewport: grow the viewport to the content instead."""
    size = page.viewport_size or {"width": 1400, "height": 1000}
    height = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll(
               '[data-testid="stMain"], [data-testid="stAppViewContainer"], [data-testid="stSidebarContent"]')]
               .map(e => e.scrollHeight), document.body.scrollHeight)""")
    page.set_viewport_size({"width": size["width"], "height": min(max_height, max(size["height"], int(height) + 40))})
    page.wait_for_timeout(400)          # plotly re-lays out on resize
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
