"""Server time under load, through the team server (HAProxy + N Streamlit workers,
``python -m serve``), 1 worker against N in the same run.

For each worker count (``--workers 1,2``: one, then one per core) one team server is
started on 127.0.0.1 (free ports) with the timing log (``ROOFLINE_LAB_TIMING=1``,
ui/timing.py) and Streamlit's agent API (``server.enableAgentApi``, ``POST
/_stcore/agent/interact``: widget values in, the browser's rerun path on the server), and
driven at each load level (``--levels 1,20,50,100`` concurrent sessions) without browsers,
so 100 sessions do not mean 100 Chromium tabs rendering on the same 2 cores. Each session
keeps its own cookie jar (the proxy's ROOFLINE_WORKER cookie keeps it on its worker), opens
a page (all pages in pages/, in turn, with the query the page needs), then moves its first
"quick adjust" slider (a fragment rerun on the calculators) or reruns the page, with a think
time between actions. Meanwhile ONE headless Chromium tab on the MFU page, through the same
proxy, measures what a person waits: slider key press -> page redrawn (bench/slider_bench.py's
measure). Bounded: a fixed number of seconds per level, 127.0.0.1 only, each server started
and stopped by this script.

    python bench/server_load.py [--workers 1,2] [--levels 1,20,50,100] [--seconds 30] [--think 1.0]

Errors: a refused or failed request, a run that ends with ``status: error`` or shows an
exception element. Reported per worker count and level: p50 / p95 / max of the logged run
times (all runs; full runs and fragment reruns separately; a run's time on the server, not
its wait for the worker), of each request as the client saw it (``client``: the wait in
the proxy's and the worker's queues included), runs, errors, the browser's slider ->
redrawn median / p95, and the load average before and after.
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from slider_bench import OBSERVER_JS, _sample, discover_pages, pct  # noqa: E402
from browser_helpers import CHROMIUM_ARGS, start_team_server, stop_server, wait_idle  # noqa: E402

LINE = re.compile(r"roofline-lab timing page=(\S+) run=(\S+) ms=([0-9.]+) session=(\S+)")


def _post(base: str, body: dict, opener=None, timeout: float = 120) -> dict:
    req = urllib.request.Request(base + "/_stcore/agent/interact", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with (opener or urllib.request.build_opener()).open(req, timeout=timeout) as r:
        return json.loads(r.read())


def _opener():
    """A client with its own cookie jar: the proxy's ROOFLINE_WORKER cookie keeps it on its
    worker (the agent API's session lives in that worker's memory)."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def open_body(path: str, lang: str | None = None) -> dict:
    """The agent API's request that opens PATH ('Model?model=llama-2-7b': the page name and
    its query parameters apart; the API's "page" is a page name, not a URL)."""
    page, _, query = path.partition("?")
    params = {k: v for k, v in urllib.parse.parse_qs(query).items()}
    if lang:
        params["lang"] = [lang]
    body: dict = {"page": page}
    if params:
        body["query_params"] = params
    return body


def _has_exception(node) -> bool:
    if isinstance(node, dict):
        if node.get("type") == "exception":
            return True
        return any(_has_exception(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_exception(v) for v in node)
    return False


def _first_slider(snap: dict):
    """(key, options) of the first quick-adjust select_slider in the main area, if any."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") in ("select_slider", "slider") and node.get("key") and \
                    isinstance(node.get("props", {}).get("options"), list):
                found.append((node["key"], node["props"]["options"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(snap.get("tree"))
    return found[0] if found else None


def session(i: int, base: str, pages: list[str], stop_at: float, think: float, stats: dict,
            lock: threading.Lock) -> None:
    rng = random.Random(i)
    page = pages[i % len(pages)]
    opener = _opener()
    try:
        snap = _post(base, open_body(page, "zh" if i % 2 else "en"), opener)
    except Exception as exc:  # noqa: BLE001 - counted
        with lock:
            stats["errors"].append(f"s{i} open {page}: {type(exc).__name__}: {exc}"[:300])
        return
    sid = snap.get("session_id")
    slider = _first_slider(snap)
    step = 0
    while time.monotonic() < stop_at:
        time.sleep(think * rng.uniform(0.5, 1.5))
        if time.monotonic() >= stop_at:
            break
        body: dict = {"session_id": sid}
        if slider is not None:
            key, options = slider
            mid = len(options) // 2
            body["widget_state"] = {key: options[mid + (step % 6) - 3 if len(options) > 6 else step % len(options)]}
        step += 1
        try:
            t0 = time.monotonic()
            snap = _post(base, body, opener)
            waited = time.monotonic() - t0
            bad = snap.get("status") == "error" or _has_exception(snap.get("tree"))
            with lock:
                stats["requests"] += 1
                stats["client_ms"].append(waited * 1e3)
                if bad:
                    stats["errors"].append(f"s{i} {page}: status={snap.get('status')}")
        except urllib.error.HTTPError as exc:
            with lock:
                stats["errors"].append(f"s{i} {page}: HTTP {exc.code} {exc.read()[:200]!r}")
        except Exception as exc:  # noqa: BLE001 - counted
            with lock:
                stats["errors"].append(f"s{i} {page}: {type(exc).__name__}: {exc}"[:300])


def _runs(log: Path, offset: int) -> list[tuple[str, str, float]]:
    text = log.read_bytes()[offset:].decode("utf-8", "replace")
    return [(m.group(1), m.group(2), float(m.group(3))) for m in LINE.finditer(text)]


def _summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": round(pct(values, 0.5), 1) if values else None,
            "p95_ms": round(pct(values, 0.95), 1) if values else None,
            "max_ms": round(max(values), 1) if values else None}


def _browser_samples(tab, stop_at: float) -> list[float]:
    """Slider -> redrawn samples in the browser tab until STOP_AT (bounded by the clock)."""
    out, i = [], 0
    while time.monotonic() < stop_at:
        i += 1
        sample = _sample(tab, i)
        if sample is not None:
            out.append(sample)
        tab.wait_for_timeout(300)
    return out


def run_team(workers: int, levels, seconds: float, think: float, browser) -> dict:
    """One team server with WORKERS workers, every level in turn; its numbers."""
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    log = out_dir / f"server-load-{workers}w.log"
    # The agent API holds at most server.agentMaxSessions (default 64) sessions per server
    # and answers 429 beyond: a limit of this harness, not of browsers; raised above the
    # largest level so one worker is measured at 100 sessions too.
    proc, base, _ = start_team_server(workers, env={"ROOFLINE_LAB_TIMING": "1"}, log_path=log,
                                      extra=["--server.enableAgentApi", "true",
                                             "--server.agentMaxSessions", str(2 * max(levels) + 50)])
    pages = [p.lstrip("/") for p in discover_pages().values()]
    result: dict = {"workers": workers, "levels": {}}
    try:
        warm = _opener()
        for page in pages:                      # warm-up: each page once on each worker
            for _ in range(workers):
                _post(base, open_body(page), warm)
                warm = _opener()
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        tab = ctx.new_page()
        tab.set_default_timeout(120_000)
        tab.goto(base + discover_pages()["mfu"])
        wait_idle(tab)
        tab.evaluate(OBSERVER_JS)
        _sample(tab, 0, timeout_ms=5_000)
        for n in levels:
            offset = log.stat().st_size
            stats = {"requests": 0, "errors": [], "client_ms": []}
            lock = threading.Lock()
            load0 = os.getloadavg()
            stop_at = time.monotonic() + seconds
            threads = [threading.Thread(target=session, args=(i, base, pages, stop_at, think, stats, lock))
                       for i in range(n)]
            for th in threads:
                th.start()
            waits = _browser_samples(tab, stop_at)
            for th in threads:
                th.join(timeout=seconds + 180)
            time.sleep(1.0)                    # the last runs' lines
            runs = _runs(log, offset)
            result["levels"][str(n)] = {
                "sessions": n, "requests": stats["requests"], "errors": len(stats["errors"]),
                "error_samples": stats["errors"][:5],
                "all": _summary([ms for _, _, ms in runs]),
                "fragment": _summary([ms for _, kind, ms in runs if kind == "fragment"]),
                "full": _summary([ms for _, kind, ms in runs if kind == "full"]),
                "client": _summary(stats["client_ms"]),
                "browser_slider": _summary([w * 1e3 for w in waits]),
                "by_page": {pg: _summary([ms for p_, _, ms in runs if p_ == pg])
                            for pg in sorted({p_ for p_, _, _ in runs})},
                "loadavg_before": [round(x, 1) for x in load0],
                "loadavg_after": [round(x, 1) for x in os.getloadavg()],
            }
            print(json.dumps({f"{workers} worker(s), {n} sessions": result["levels"][str(n)]}, indent=1),
                  flush=True)
        ctx.close()
    finally:
        stop_server(proc)
    return result


def run(workers=(1, 2), levels=(1, 20, 50, 100), seconds=30.0, think=1.0) -> dict:
    from playwright.sync_api import sync_playwright

    result: dict = {"pages": [p.lstrip("/") for p in discover_pages().values()], "think_s": think,
                    "seconds": seconds, "cores": os.cpu_count(), "runs": {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            for w in workers:
                result["runs"][str(w)] = run_team(w, levels, seconds, think, browser)
        finally:
            browser.close()
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", default=f"1,{os.cpu_count() or 1}",
                    help="worker counts, one team server each, in this order (default: 1 and one per core)")
    ap.add_argument("--levels", default="1,20,50,100", help="concurrent sessions per level")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds per level")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a session's actions")
    args = ap.parse_args()
    res = run(tuple(int(x) for x in args.workers.split(",")), tuple(int(x) for x in args.levels.split(",")),
              args.seconds, args.think)
    path = ROOT / "bench" / "results" / f"server-load-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(res, indent=2))
    print(f"written {path}")
    return 1 if any(v["errors"] for r in res["runs"].values() for v in r["levels"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
