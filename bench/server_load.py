"""Server time under load: the time of each script run ON THE SERVER, from its own log
(``ROOFLINE_LAB_TIMING=1``, ui/timing.py), with 1, 5 and 20 concurrent sessions.

The sessions are driven without browsers, through Streamlit's agent API
(``server.enableAgentApi``, ``POST /_stcore/agent/interact``: widget values in, the
browser's rerun path on the server), so 20 sessions do not mean 20 Chromium tabs
rendering on the same 2 cores. Each session opens a page (all pages in pages/, in turn)
and then moves its first "quick adjust" slider (a fragment rerun on the calculators) or
reruns the page, with a think time between actions (a person dragging a slider, reading,
dragging again). Bounded: a fixed number of seconds per level, 127.0.0.1 only, one
server started and stopped by this script.

    python bench/server_load.py [--levels 1,5,20] [--seconds 40] [--think 1.0] [--port 8618]

Errors: a refused or failed request, a run that ends with ``status: error`` or shows an
exception element. Reported: p50 / p95 / max of the logged run times per level (all
runs; full runs and fragment reruns separately), runs, errors, the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from slider_bench import discover_pages, pct, start  # noqa: E402
from browser_helpers import stop_server  # noqa: E402

LINE = re.compile(r"roofline-lab timing page=(\S+) run=(\S+) ms=([0-9.]+) session=(\S+)")


def _post(base: str, body: dict, timeout: float = 120) -> dict:
    req = urllib.request.Request(base + "/_stcore/agent/interact", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


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
    try:
        snap = _post(base, {"page": page, "query_params": {"lang": ["zh" if i % 2 else "en"]}})
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
            snap = _post(base, body)
            bad = snap.get("status") == "error" or _has_exception(snap.get("tree"))
            with lock:
                stats["requests"] += 1
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


def run(levels=(1, 5, 20), seconds=40.0, think=1.0, port=0) -> dict:
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    log = out_dir / "server-load.log"
    if not port:
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    proc, base = start("app.py", port, env={"ROOFLINE_LAB_TIMING": "1"}, log=log,
                       extra=["--server.enableAgentApi", "true"])
    pages = [p.lstrip("/") for p in discover_pages().values()]
    result: dict = {"pages": pages, "think_s": think, "seconds": seconds, "levels": {}}
    try:
        for page in pages:                      # warm-up: each page once
            _post(base, {"page": page})
        for n in levels:
            offset = log.stat().st_size
            stats = {"requests": 0, "errors": []}
            lock = threading.Lock()
            load0 = os.getloadavg()
            stop_at = time.monotonic() + seconds
            threads = [threading.Thread(target=session, args=(i, base, pages, stop_at, think, stats, lock))
                       for i in range(n)]
            for th in threads:
                th.start()
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
                "by_page": {pg: _summary([ms for p_, _, ms in runs if p_ == pg])
                            for pg in sorted({p_ for p_, _, _ in runs})},
                "loadavg_before": [round(x, 1) for x in load0],
                "loadavg_after": [round(x, 1) for x in os.getloadavg()],
            }
            print(json.dumps({n: result["levels"][str(n)]}, indent=1), flush=True)
    finally:
        stop_server(proc)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default="1,5,20")
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a session's actions")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    res = run(tuple(int(x) for x in args.levels.split(",")), args.seconds, args.think, args.port)
    path = ROOT / "bench" / "results" / f"server-load-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(res, indent=2))
    print(f"written {path}")
    return 1 if any(v["errors"] for v in res["levels"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
