"""Bounded load test: N concurrent browser sessions (Playwright contexts in one headless
Chromium) using the pages for D seconds against a local server (127.0.0.1 only). Stops by
itself. Reports errors (stException elements, timeouts, console errors) and latency
percentiles of page loads and of input changes (until the app is idle again).

    python bench/load_test.py [--sessions 20] [--seconds 60]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM_ARGS, PAGE_PATHS, start_server, stop_server  # noqa: E402

IDLE_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return false;
    const s = app.getAttribute('data-test-script-state');
    if (s !== null && s !== 'notRunning') return false;
    return !document.querySelector('[data-testid="stStatusWidget"]');
}"""

FIELDS = {  # page -> (a text field label fragment, values to cycle)
    "mfu": ["8", "16", "64", "8"],
    "training": ["64", "128", "256", "64"],
    "decode": ["1", "2", "4", "8"],
}


def pct(v, q):
    v = sorted(v)
    if not v:
        return None
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return round((v[lo] + (v[hi] - v[lo]) * (k - lo)) * 1e3, 1)


async def session(i, browser, base, stop_at, stats):
    rng = random.Random(i)
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: stats["errors"].append(f"s{i} pageerror {e}"))
    lang = "zh" if i % 2 else "en"
    try:
        while time.monotonic() < stop_at:
            pid = rng.choice(list(PAGE_PATHS))
            t0 = time.perf_counter()
            try:
                await page.goto(f"{base}{PAGE_PATHS[pid]}?lang={lang}")
                await page.wait_for_selector('[data-testid="stApp"]')
                await page.wait_for_function(IDLE_JS, polling=50)
                stats["load"].append(time.perf_counter() - t0)
                exc_el = page.locator('[data-testid="stException"]')
                if await exc_el.count():
                    text = (await exc_el.first.inner_text())[:300].replace("\n", " | ")
                    stats["errors"].append(f"s{i} {pid}: stException: {text}")
                if pid in FIELDS and time.monotonic() < stop_at:
                    field = page.locator('[data-testid="stMain"] [data-testid="stTextInput"] input:visible').nth(2)
                    for value in FIELDS[pid]:
                        if time.monotonic() >= stop_at:
                            break
                        t1 = time.perf_counter()
                        await field.fill(value)
                        await field.press("Enter")
                        await page.wait_for_timeout(30)
                        await page.wait_for_function(IDLE_JS, polling=50)
                        stats["interact"].append(time.perf_counter() - t1)
                        exc_el = page.locator('[data-testid="stException"]')
                        if await exc_el.count():
                            text = (await exc_el.first.inner_text())[:300].replace("\n", " | ")
                            stats["errors"].append(f"s{i} {pid} {value}: stException: {text}")
            except Exception as exc:  # noqa: BLE001 - counted as an error
                stats["errors"].append(f"s{i} {pid}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await ctx.close()


async def run(n_sessions, seconds, base, warmup=False):
    from playwright.async_api import async_playwright

    stats = {"load": [], "interact": [], "errors": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        if warmup:
            ctx = await browser.new_context()
            page = await ctx.new_page()
            for path in PAGE_PATHS.values():
                await page.goto(base + path, timeout=120_000)
                await page.wait_for_function(IDLE_JS, polling=100, timeout=120_000)
            await ctx.close()
        stop_at = time.monotonic() + seconds
        await asyncio.gather(*(session(i, browser, base, stop_at, stats) for i in range(n_sessions)))
        await browser.close()
    return stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--warmup", action="store_true",
                    help="open every page once (one session) before the load starts")
    args = ap.parse_args()
    out_dir = ROOT / "bench" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    proc, base = start_server(log_path=out_dir / "streamlit-load.log")
    t0 = time.monotonic()
    try:
        stats = asyncio.run(run(args.sessions, args.seconds, base, args.warmup))
    finally:
        stop_server(proc)
    wall = time.monotonic() - t0
    result = {
        "sessions": args.sessions, "seconds": args.seconds, "warmup": args.warmup, "wall_s": round(wall, 1),
        "page_loads": len(stats["load"]), "interactions": len(stats["interact"]),
        "errors": len(stats["errors"]), "error_samples": stats["errors"][:10],
        "load_ms": {"p50": pct(stats["load"], .5), "p90": pct(stats["load"], .9),
                    "p99": pct(stats["load"], .99), "max": pct(stats["load"], 1)},
        "interaction_ms": {"p50": pct(stats["interact"], .5), "p90": pct(stats["interact"], .9),
                           "p99": pct(stats["interact"], .99), "max": pct(stats["interact"], 1)},
    }
    print(json.dumps(result, indent=2, ensure_ascii=False))
    (out_dir / f"load-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(json.dumps(result, indent=2))
    return 1 if stats["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
