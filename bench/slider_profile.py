"""Where a slider's redraw spends the browser's main thread: a CPU profile per page.

Starts the app and the one-chart floor (``bench/chart_page.py``) on free 127.0.0.1 ports,
opens each page in headless Chromium, presses its first slider ``--presses`` times (1 s
apart) under the Chrome DevTools sampling profiler (``Profiler.start``, 200 µs), and prints
the main thread's busy time per press split by script bundle (plotly, react-dom, emotion,
Streamlit's markdown, ...) and by native work (layout, style, GC: "(program)" and
unattributed), next to the server's own run time (``ROOFLINE_LAB_TIMING=1``).  It says
WHY a page's slider is slower than the floor's; ``bench/slider_bench.py`` says how much.

    python bench/slider_profile.py [--pages /MFU,/Decode_speed] [--presses 6]
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM_ARGS, start_server, stop_server, wait_idle  # noqa: E402

SLIDER = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'
IDLE = ("(idle)",)


def _bundle(url: str) -> str:
    """A script's bundle name without its content hash ("react-dom.Dzbslgj4.js" -> "react-dom")."""
    name = url.rsplit("/", 1)[-1]
    return re.sub(r"\.[A-Za-z0-9_-]{8}\.js$", "", name) or "(native)"


def profile_presses(ctx, url: str, presses: int) -> dict:
    """Busy main-thread ms per press by bundle, for ``presses`` slider presses on ``url``."""
    tab = ctx.new_page()
    tab.set_default_timeout(120_000)
    tab.goto(url)
    wait_idle(tab)
    slider = tab.locator(SLIDER).first
    if not slider.count():
        tab.close()
        return {}
    slider.focus()
    slider.press("ArrowRight")                       # warm-up press, not profiled
    time.sleep(1.5)
    cdp = ctx.new_cdp_session(tab)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    for i in range(presses):
        slider.focus()
        slider.press("ArrowRight" if (i // 3) % 2 == 0 else "ArrowLeft")
        time.sleep(1.0)
    prof = cdp.send("Profiler.stop")["profile"]
    tab.close()
    nodes = {n["id"]: n["callFrame"] for n in prof["nodes"]}
    by = collections.Counter()
    for sample, dt in zip(prof["samples"], prof["timeDeltas"][1:] + [0]):
        frame = nodes[sample]
        if frame["functionName"] in IDLE:
            continue
        key = _bundle(frame["url"]) if frame["url"] else frame["functionName"] or "(native)"
        by[key] += dt / 1e3 / presses                  # µs -> ms per press
    busy = sum(by.values())
    top = {k: round(v, 1) for k, v in by.most_common(10)}
    return {"busy_ms_per_press": round(busy, 1), "by_bundle_ms": top}


def server_ms(log: Path) -> dict:
    """Median server run (ms) per page and kind from the ROOFLINE_LAB_TIMING log."""
    runs = collections.defaultdict(list)
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.search(r"timing page=(\S+) run=(\S+) ms=([0-9.]+)", line)
        if m:
            runs[(m.group(1), m.group(2))].append(float(m.group(3)))
    return {f"{p} {k}": round(sorted(v)[len(v) // 2], 1) for (p, k), v in runs.items()}


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", default="/MFU,/Training_time,/Decode_speed,/Model,/Training_layout,/Serving")
    ap.add_argument("--presses", type=int, default=6)
    args = ap.parse_args()
    logs = ROOT / "bench" / "results"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / "slider-profile-app.log"
    app = start_server(None, env={"ROOFLINE_LAB_TIMING": "1"}, log_path=log)
    floor = start_server(None, script="bench/chart_page.py")
    out: dict = {}
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            ctx = b.new_context(viewport={"width": 1400, "height": 1000})
            out["floor"] = profile_presses(ctx, floor[1] + "/", args.presses)
            for path in [s for s in args.pages.split(",") if s]:
                out[path] = profile_presses(ctx, app[1] + path, args.presses)
            b.close()
    finally:
        stop_server(app[0])
        stop_server(floor[0])
    out["server_median_ms"] = server_ms(log)
    print(json.dumps(out, indent=2))
    (logs / f"slider-profile-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
