"""Real-browser helpers (server, chromium, waits): one Streamlit server per session, one Chromium per session.

The server runs `streamlit run app.py` headless on 127.0.0.1 at a free port (serve.workers,
the one way this repository starts a server; `start_team_server` starts `python -m serve`,
the workers behind HAProxy) and is stopped by its process group at the end. Chromium is Debian's (/usr/bin/chromium): Playwright's own
browser download is not available here. Without Chromium the browser tests are skipped,
except in CI (CI=true), where a missing browser fails the run.

Screenshots go to artifacts/screenshots/ (or $ROOFLINE_LAB_ARTIFACTS/screenshots/);
the folder is printed at the start of the session.
"""
from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from ui.pages import PAGES


ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:           # serve/ (the one way to start a server) from this tree
    sys.path.insert(0, str(ROOT))

from serve.workers import free_port, spawn, start_streamlit, stop  # noqa: E402
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


def start_server(port: int | None = None, env: dict | None = None, log_path: Path | None = None,
                 script: str = "app.py", extra: list[str] | None = None,
                 timeout: float = 90.0) -> tuple[subprocess.Popen, str]:
    """Start `streamlit run SCRIPT` (app.py) on 127.0.0.1 at PORT (default: a free port);
    return (process, base URL) once healthy. The one way to start a server: serve.workers
    (the team server's workers use it too)."""
    return start_streamlit(script, port, env=env, log_path=log_path, extra=extra, timeout=timeout)


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server we started: its process group (it was started in a new session)."""
    stop(proc)


def start_team_server(workers: int = 2, *, htpasswd: Path | None = None, stats: bool = True,
                      env: dict | None = None, log_path: Path | None = None,
                      extra: list[str] | None = None, auth: tuple[str, str] | None = None,
                      serve_args: list[str] | None = None,
                      timeout: float = 180.0) -> tuple[subprocess.Popen, str, str | None]:
    """Start `python -m serve` (WORKERS Streamlit workers + HAProxy) on free 127.0.0.1 ports;
    return (supervisor process, proxy base URL, stats base URL or None) once the proxy answers
    /_stcore/health (with AUTH = (user, password) when HTPASSWD is given). EXTRA: Streamlit
    flags for every worker; SERVE_ARGS: more `python -m serve` flags (`--max-upload-mb 3`)."""
    port, stats_port = free_port(), free_port() if stats else None
    worker_ports = ",".join(str(free_port()) for _ in range(workers))
    cmd = [sys.executable, "-u", "-m", "serve", "--workers", str(workers), "--port", str(port),
           "--worker-ports", worker_ports]
    if stats_port:
        cmd += ["--stats-port", str(stats_port)]
    if htpasswd:
        cmd += ["--htpasswd", str(htpasswd)]
    cmd += list(serve_args or [])
    if extra:
        cmd += ["--"] + list(extra)
    log = open(log_path, "wb") if log_path else None
    try:
        proc = spawn(cmd, env={"PYTHONPATH": str(ROOT), **(env or {})}, stdout=log)
    finally:
        if log:
            log.close()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"python -m serve exited with code {proc.returncode}; see {log_path}")
        req = urllib.request.Request(base + "/_stcore/health")
        if auth:
            req.add_header("Authorization", "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode())
        try:
            with urllib.request.urlopen(req, timeout=2) as r:
                if r.status == 200:
                    return proc, base, f"http://127.0.0.1:{stats_port}" if stats_port else None
        except OSError:
            pass
        time.sleep(0.25)
    stop(proc)
    raise RuntimeError(f"the team server did not answer within {timeout:.0f} s; see {log_path}")


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


_RERUN_FLAG_JS = """() => {
    window.__rl_ran = false;
    if (window.__rl_obs) return;
    const app = document.querySelector('[data-testid="stApp"]');
    window.__rl_obs = new MutationObserver((records) => {
        for (const r of records)
            if (r.target.getAttribute('data-test-script-state') === 'running') window.__rl_ran = true;
    });
    window.__rl_obs.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def watch_reruns(page) -> None:
    """From now on, note whether the app starts a script run (read it with ``reran``)."""
    page.evaluate(_RERUN_FLAG_JS)


def reran(page) -> bool:
    """Whether a script run started since the last ``watch_reruns``."""
    return bool(page.evaluate("() => window.__rl_ran === true"))


def act_and_wait(page, action, start_ms: int = 5_000, timeout: float = PAGE_TIMEOUT_MS) -> None:
    """Do ``action`` (a key press, a click) and wait for the rerun it causes to START, then
    for it to finish.  ``wait_idle`` alone can return before a loaded server has begun the
    rerun (the state still reads "notRunning"), and an action taken then may be dropped when
    Streamlit interrupts the run (a CI run once lost a Check click that way).  No rerun
    within ``start_ms``: the action changed nothing; go on."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    watch_reruns(page)
    action()
    try:
        page.wait_for_function("() => window.__rl_ran === true", timeout=start_ms, polling=25)
    except PlaywrightTimeoutError:
        pass                       # no rerun was caused
    wait_idle(page, timeout)


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


def pushed_margins(page, selector: str = ".js-plotly-plot") -> list[str]:
    """The charts whose labels or legend pushed a margin past the figure's own (plotly's
    automargin): each such chart is laid out and drawn twice on every rerun that redraws it
    (ui.figures.roofline, "held margins"). One line per chart: its title, set and drawn
    margins (l, r, t, b in px)."""
    return page.evaluate(
        f"""() => [...document.querySelectorAll('{selector}')].flatMap(g => {{
                 const m = g.layout.margin || {{}}, s = g._fullLayout._size;
                 const set = [m.l, m.r, m.t, m.b], got = [s.l, s.r, s.t, s.b];
                 if (!set.some((v, i) => got[i] > (v ?? 80) + 0.5)) return [];
                 const title = (g.layout.title && g.layout.title.text) || '(untitled)';
                 return [title + ': margins set ' + set.join('/') + ', drawn '
                         + got.map(v => Math.round(v)).join('/')]; }})""")


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
