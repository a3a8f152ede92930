"""Real browser through the team server (`python -m serve`: 2 Streamlit workers behind
HAProxy, basic auth on, 127.0.0.1 only).

One test, in the order a meeting lives it: the proxy refuses a visitor without credentials
(401) and serves the app with them; two browser sessions open the MFU page, each over a
websocket through the proxy, each kept on ONE worker (every response of a session names the
same worker, and the two sessions are on different workers: leastconn); session A moves a
slider (its state is now in its URL). Then A's worker is killed (SIGKILL, a crash): A's
page reconnects to a live worker and shows exactly the numbers it showed before, from its
URL; B, on the other worker, never notices (same websocket, never closed, no reconnect,
same numbers, and its slider still works). A then uploads a kernel CSV through the proxy
(XSRF protection on; the uploader states the --max-upload-mb cap). The supervisor restarts
the dead worker (HAProxy sees it UP again), and SIGINT (Ctrl-C) stops the supervisor,
HAProxy and both workers.
"""
from __future__ import annotations

import base64
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse

import pytest

from browser_helpers import (ARTIFACTS, PAGE_PATHS, act_and_wait, assert_no_exception, in_ci, start_team_server,
                             stop_server, wait_idle)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SLIDER = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'
USER, PASSWORD = "team", "roofline-meeting"
STARTED = re.compile(r"serve: worker (w\d+) \(pid (\d+)\) starting")
HAPROXY = re.compile(r"serve: proxy HAProxy \(pid (\d+)\)")
UPLOAD_CSV = b"name,flops,bytes,seconds,count\nteam kernel,2*4096**3,3*4096**2*2,1 ms,1\n"


def _need(tool: str) -> str:
    path = shutil.which(tool) or next((p for p in (f"/usr/sbin/{tool}", f"/usr/bin/{tool}")
                                       if os.path.exists(p)), None)
    if path is None:
        msg = f"{tool} not installed (apt-get install {'haproxy' if tool == 'haproxy' else 'apache2-utils'})"
        pytest.fail(msg + " (CI=true)") if in_ci() else pytest.skip(msg)
    return path


def _get(url: str, auth: bool) -> tuple[int, dict]:
    req = urllib.request.Request(url)
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers)


def _worker_states(stats: str) -> dict[str, str]:
    """{'w1': 'UP', ...} from HAProxy's stats CSV (pxname, svname, ..., status is column 18;
    'UP 1/2' = up, one failed or pending check of the two that would take it down: 'UP')."""
    with urllib.request.urlopen(stats + "/;csv", timeout=10) as r:
        rows = [line.split(",") for line in r.read().decode().splitlines() if not line.startswith("#")]
    return {row[1]: row[17].split()[0] for row in rows if len(row) > 17 and row[0] == "streamlit_workers"
            and row[1].startswith("w")}


def _pids(log) -> dict[str, int]:
    """Each worker's latest pid, from the supervisor's output."""
    return {name: int(pid) for name, pid in STARTED.findall(log.read_text(errors="replace"))}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purpose
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


class Session:
    """One browser context through the proxy: its websockets and which worker answered each response."""

    def __init__(self, browser, base: str):
        self.ctx = browser.new_context(viewport={"width": 1400, "height": 1000},
                                       http_credentials={"username": USER, "password": PASSWORD})
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(120_000)
        self.sockets: list = []
        self.closed: list[str] = []
        self.workers: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("response", lambda r: self.workers.append(r.headers.get("x-roofline-worker", "?")))
        self.base = base

    def _socket(self, ws) -> None:
        self.sockets.append(ws)
        ws.on("close", lambda _ws: self.closed.append(ws.url))

    def open(self, path: str) -> None:
        self.page.goto(self.base + path)
        wait_idle(self.page)
        assert_no_exception(self.page)

    def numbers(self) -> list[str]:
        return [m.inner_text() for m in self.page.locator('[data-testid="stMetricValue"]').all()]

    def worker(self) -> str:
        names = set(self.workers) - {"?"}      # "?": the proxy's own 401 before the credentials
        assert len(names) == 1, f"one session's responses came from several workers: {self.workers}"
        return names.pop()

    def cookie(self) -> str | None:
        """The worker the proxy's cookie names (ROOFLINE_WORKER)."""
        return next((c["value"] for c in self.ctx.cookies() if c["name"] == "ROOFLINE_WORKER"), None)

    def press(self, key: str = "ArrowRight") -> None:
        before = self.page.url
        slider = self.page.locator(SLIDER).first
        slider.focus()
        slider.press(key)
        self.page.wait_for_function(f"() => location.href !== {before!r}")
        wait_idle(self.page)
        assert_no_exception(self.page)


def test_team_server_sticky_websockets_crash_and_auth(browser, tmp_path):
    _need("haproxy")
    htpasswd = tmp_path / "team.htpasswd"
    subprocess.run([_need("htpasswd"), "-B", "-b", "-c", str(htpasswd), USER, PASSWORD],
                   check=True, capture_output=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = ARTIFACTS / "team-server.log"
    proc, base, stats = start_team_server(2, htpasswd=htpasswd, auth=(USER, PASSWORD), log_path=log,
                                          serve_args=["--max-upload-mb", "3"])
    sessions: list[Session] = []
    try:
        # --- who may come in: 401 and a login prompt without credentials, the app with them
        status, headers = _get(base + "/", auth=False)
        assert status == 401 and "basic" in headers.get("www-authenticate", "").lower(), (status, headers)
        assert _get(base + PAGE_PATHS["mfu"], auth=True)[0] == 200
        assert _worker_states(stats) == {"w1": "UP", "w2": "UP"}

        # --- two sessions, each on one worker, each with its websocket through the proxy
        a, b = Session(browser, base), Session(browser, base)
        sessions += [a, b]
        a.open(PAGE_PATHS["mfu"] + "?lang=en")
        b.open(PAGE_PATHS["mfu"] + "?lang=zh")
        port = urlparse(base).port
        for s in (a, b):
            assert len(s.sockets) == 1 and not s.closed, (s.sockets, s.closed)
            assert s.sockets[0].url.startswith(f"ws://127.0.0.1:{port}/_stcore/stream"), s.sockets[0].url
        a.press()                                  # A's state: a moved slider, in its URL
        a.press()
        b.page.reload()                            # a reload stays on B's worker (the cookie)
        wait_idle(b.page)
        b.sockets.clear()                          # B's websocket from now on: the reloaded page's
        b.closed.clear()
        b.page.wait_for_timeout(500)
        worker_a, worker_b = a.worker(), b.worker()
        assert {worker_a, worker_b} == {"w1", "w2"}, (worker_a, worker_b)
        assert (a.cookie(), b.cookie()) == (worker_a, worker_b)
        url_a, numbers_a = a.page.url, a.numbers()
        url_b, numbers_b = b.page.url, b.numbers()
        assert "params=" in url_a and numbers_a, (url_a, numbers_a)

        # --- A's worker crashes
        pids = _pids(log)
        dead = pids[worker_a]
        os.kill(dead, signal.SIGKILL)
        a.workers.clear()
        # A reconnects (a second websocket, through the proxy, to the live worker) ...
        deadline = time.monotonic() + 120
        while len(a.sockets) < 2 and time.monotonic() < deadline:
            a.page.wait_for_timeout(250)
        assert len(a.sockets) >= 2, f"session A never reconnected: {a.sockets}"
        assert a.closed, "session A's first websocket should have been closed by the crash"
        wait_idle(a.page)
        a.page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=\"stMetricValue\"]').length >= n",
            arg=len(numbers_a))
        wait_idle(a.page)
        assert_no_exception(a.page)
        # ... and shows the same numbers, from its URL
        assert a.page.url == url_a
        assert a.numbers() == numbers_a
        # B never noticed: the same websocket, never closed, the same numbers; it still works
        assert not b.closed and all(not ws.is_closed() for ws in b.sockets), b.closed
        assert b.page.url == url_b and b.numbers() == numbers_b
        b.workers.clear()
        b.press()
        assert b.numbers() != numbers_b
        assert set(b.workers) <= {worker_b, "?"}, b.workers
        assert b.cookie() == worker_b
        # A's session now lives on a live worker (the other one, or the restarted one): the
        # reconnect's requests (/_stcore/health, host-config) were answered by one, and the
        # proxy's cookie now names it; A's slider works there
        reconnected = set(a.workers) - {"?"}
        assert len(reconnected) == 1 and a.cookie() in reconnected, (a.workers, a.cookie())
        a.press("ArrowLeft")
        assert a.numbers() != numbers_a
        # An upload through the proxy, on the worker A was moved to, with Streamlit's XSRF
        # protection on (the upload carries the token of A's cookie); the cap is the flag's
        a.open(PAGE_PATHS["roofline"] + "?lang=en")
        uploader = a.page.locator('[data-testid="stMain"] [data-testid="stFileUploader"]').first
        assert "3MB" in uploader.inner_text().replace(" ", ""), uploader.inner_text()
        # wait for the upload's rerun to start, then to end (wait_idle alone can return first)
        act_and_wait(a.page, lambda: a.page.locator('[data-testid="stMain"] input[type="file"]').first
                     .set_input_files(files=[{"name": "kernels.csv", "mimeType": "text/csv",
                                              "buffer": UPLOAD_CSV}]))
        assert_no_exception(a.page)
        assert "team kernel" in a.page.locator('[data-testid="stMain"]').inner_text()

        # --- the supervisor restarts the dead worker; HAProxy puts it back in rotation
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (
                _pids(log).get(worker_a) not in (None, dead) and _worker_states(stats).get(worker_a) == "UP"):
            time.sleep(0.5)
        assert _pids(log)[worker_a] != dead, log.read_text(errors="replace")[-2000:]
        assert _worker_states(stats) == {"w1": "UP", "w2": "UP"}

        # --- Ctrl-C stops all of it: the supervisor, HAProxy, every worker
        for s in sessions:
            s.ctx.close()
        sessions.clear()
        children = list(_pids(log).values()) + [int(p) for p in HAPROXY.findall(log.read_text(errors="replace"))]
        assert len(children) == 3 and all(_alive(p) for p in children), children
        os.kill(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 0, log.read_text(errors="replace")[-2000:]
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in children if _alive(p)], "processes left after Ctrl-C"
    finally:
        for s in sessions:
            s.ctx.close()
        stop_server(proc)
