"""Slider -> page redrawn, in headless Chromium, every page against a one-chart floor.

Three local servers (127.0.0.1): the app, ``bench/chart_page.py`` (the one-chart floor: one
slider, one plotly chart of two 256-point log-log lines and a marker) and
``bench/bare_page.py`` (one slider, no chart). Every page in ``pages/`` (discovered, so new
pages are included) is opened in its own tab; rounds are interleaved (floor, bare, each
page, floor, ...) so machine noise hits all alike, and each page's median and p95 are
reported as a ratio to the floor's, measured in the same run.

One sample: a key press (ArrowRight / ArrowLeft, alternating in threes) on the page's first
slider in the main area -> the LAST DOM change the rerun causes (a MutationObserver on the
whole document, clock started by the keydown event itself; the page counts as done when
the rerun has started (the app's script state went "running"), the script is idle again
and nothing has changed for ``QUIET_MS``). Pages without a slider are
listed as such.

    python bench/slider_bench.py [--rounds 25] [--port 8610]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM_ARGS, start_server, stop_server, wait_idle  # noqa: E402

QUIET_MS = 400
TARGET_MEDIAN = 1.3
TARGET_P95 = 1.6

SLIDER = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'

OBSERVER_JS = """() => {
    if (window.__bench) return;
    window.__bench = {t0: null, last: null, count: 0, ran: false};
    document.addEventListener('keydown', () => {
        window.__bench.t0 = performance.now(); window.__bench.last = null; window.__bench.count = 0;
        window.__bench.ran = false;
    }, true);
    new MutationObserver((records) => {
        if (window.__bench.t0 === null) return;
        window.__bench.last = performance.now(); window.__bench.count++;
        for (const r of records) {
            if (r.attributeName === 'data-test-script-state' && r.target.getAttribute(r.attributeName) === 'running')
                window.__bench.ran = true;
        }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

DONE_JS = """(quiet) => {
    const b = window.__bench;
    if (!b || b.t0 === null || b.last === null) return false;
    if (!b.ran) return false;          // the rerun has not started yet (a loaded server)
    const app = document.querySelector('[data-testid="stApp"]');
    const s = app && app.getAttribute('data-test-script-state');
    if (s !== null && s !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
    return performance.now() - b.last >= quiet;
}"""


#: Query strings a page needs to show its calculator: none today (the Model page opens on a
#: catalog model for a new visitor, so it is timed as a new user sees it).
PAGE_QUERY: dict[str, str] = {}


def discover_pages() -> dict[str, str]:
    """Page id -> URL path (with PAGE_QUERY) for every file in pages/ (pages-directory names)."""
    out = {}
    for path in sorted((ROOT / "pages").glob("*.py")):
        name = re.sub(r"^[0-9]+[_ -]*", "", path.stem)
        out[name.lower()] = "/" + name + PAGE_QUERY.get(name.lower(), "")
    return out


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def _sample(page, i: int, timeout_ms: int = 20_000) -> float | None:
    slider = page.locator(SLIDER).first
    slider.focus()
    page.evaluate("() => { window.__bench.t0 = null; }")
    slider.press("ArrowRight" if (i // 3) % 2 == 0 else "ArrowLeft")
    try:
        page.wait_for_function(DONE_JS, arg=QUIET_MS, timeout=timeout_ms, polling=50)
    except Exception as exc:  # noqa: BLE001 - no DOM change: not a sample
        print(f"no sample on {page.url}: {type(exc).__name__}: {str(exc)[:120]}", file=sys.stderr)
        return None
    return page.evaluate("() => window.__bench.last - window.__bench.t0") / 1e3


def run(rounds: int = 25, port: int = 0, only: list[str] | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    logs = ROOT / "bench" / "results"
    logs.mkdir(parents=True, exist_ok=True)
    ports = [port, port + 1, port + 2] if port else [None, None, None]   # None: a free port
    servers = []
    try:
        servers.append(start_server(ports[0], log_path=logs / "slider-app.log"))
        servers.append(start_server(ports[1], script="bench/chart_page.py"))
        servers.append(start_server(ports[2], script="bench/bare_page.py"))
        app, floor, bare = (b for _, b in servers)
        targets = {"floor": floor + "/", "bare": bare + "/"}
        for pid, path in discover_pages().items():
            if only is None or pid in only:
                targets[pid] = app + path
        times: dict[str, list[float]] = {k: [] for k in targets}
        result: dict = {"load_before": os.getloadavg(), "rounds": rounds, "quiet_ms": QUIET_MS}
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            ctx = b.new_context(viewport={"width": 1400, "height": 1000})
            tabs = {}
            for name, url in targets.items():
                tab = ctx.new_page()
                tab.set_default_timeout(120_000)
                tab.goto(url)
                wait_idle(tab)
                if not tab.locator(SLIDER).count():
                    result.setdefault("no_slider", []).append(name)
                    tab.close()
                    continue
                tab.evaluate(OBSERVER_JS)
                tabs[name] = tab
            for name, tab in tabs.items():     # one warm-up press each (in front: a
                tab.bring_to_front()           # background tab does not redraw)
                _sample(tab, 0, timeout_ms=5_000)
            for i in range(rounds):
                for name, tab in tabs.items():
                    tab.bring_to_front()
                    s = _sample(tab, i + 1)
                    if s is not None:
                        times[name].append(s)
            b.close()
        result["load_after"] = os.getloadavg()
        result["samples"] = {k: len(v) for k, v in times.items()}
        if not times["floor"]:
            raise RuntimeError(f"no floor samples: {result}")
        floor_med = statistics.median(times["floor"])
        floor_p95 = pct(times["floor"], 0.95)
        pages = {}
        for name, v in times.items():
            if not v:
                continue
            med, p95 = statistics.median(v), pct(v, 0.95)
            pages[name] = {"n": len(v), "median_ms": round(med * 1e3, 1), "p95_ms": round(p95 * 1e3, 1),
                           "median_x_floor": round(med / floor_med, 2),
                           "p95_x_floor": round(p95 / floor_p95, 2)}
            if name not in ("floor", "bare"):
                pages[name]["meets"] = (med / floor_med <= TARGET_MEDIAN
                                        and p95 / floor_p95 <= TARGET_P95)
        result["pages"] = pages
        return result
    finally:
        for proc, _ in servers:
            stop_server(proc)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--port", type=int, default=0, help="first of three ports (default: free ports)")
    ap.add_argument("--only", default="", help="comma-separated page ids (default: all)")
    args = ap.parse_args()
    res = run(args.rounds, args.port, [s for s in args.only.split(",") if s] or None)
    print(json.dumps(res, indent=2))
    out = ROOT / "bench" / "results" / f"slider-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
