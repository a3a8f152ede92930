"""What a new user waits for (issue 23, item 11), in headless Chromium against one local
server (127.0.0.1, ``streamlit run app.py`` as the browser tests start it).

Measured, each from the action to the page being idle (Streamlit's script state
"notRunning", no status widget or skeleton, every plotly chart drawn — the browser
tests' ``wait_idle`` without its settling pause):

* **first load**: the first visitor of a freshly started server opens a page (the
  server's first script run: the imports of ``ui``, pandas and plotly, the catalogs);
* **new visitor**: every page opened in a new browser context (a new session) once the
  server is warm;
* **in-session navigation**: the sidebar link to the next page, in one session;
* **typing**: a new value typed into the page's first text field and Enter;
* **Plans button**: "Duplicate" on the Plans page's first plan.

Medians over ``--rounds`` (the first load is one sample per server start: ``--cold``
starts that many servers).

    python bench/page_load.py [--rounds 5] [--cold 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_helpers import (CHROMIUM_ARGS, PAGE_PATHS, find_chromium, start_server,  # noqa: E402
                             stop_server, wait_idle)


WATCH_RUN_JS = """() => {
    window.__ran = false;
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return;
    new MutationObserver(() => {
        if (app.getAttribute('data-test-script-state') === 'running') window.__ran = true;
    }).observe(app, {attributes: true});
}"""


def _timed(page, action, *, rerun: bool = False, title: bool = True) -> float:
    """Seconds from ``action()`` to the page idle with its title drawn; with ``rerun``
    (an action inside a loaded page) only once the rerun it causes has started, so that
    an idle page before the rerun does not count as done."""
    if rerun:
        page.evaluate(WATCH_RUN_JS)
    t0 = time.perf_counter()
    action()
    if rerun:
        try:
            page.wait_for_function("() => window.__ran === true", timeout=5000)
        except Exception:  # noqa: BLE001 - no rerun at all (nothing changed): idle already
            pass
    if title:
        page.wait_for_selector('[data-testid="stMain"] h1', timeout=60000)
    wait_idle(page, settle_ms=0)
    return time.perf_counter() - t0


def _new_page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    return ctx, ctx.new_page()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cold", type=int, default=3, help="server starts for the first-load sample")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    ids = list(PAGE_PATHS)
    cold, fresh, nav, typing, plans_button = [], {i: [] for i in ids}, {i: [] for i in ids}, {}, []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for k in range(args.cold):
            proc, base = start_server()
            try:
                ctx, page = _new_page(browser)
                first = ids[(k * 3 + 2) % len(ids)]          # a different page each time
                cold.append((first, _timed(page, lambda: page.goto(base + PAGE_PATHS[first]))))
                ctx.close()
                if k < args.cold - 1:
                    continue
                for _ in range(args.rounds):
                    for pid in ids:
                        ctx, page = _new_page(browser)
                        fresh[pid].append(_timed(page, lambda: page.goto(base + PAGE_PATHS[pid])))
                        box = page.locator('[data-testid="stMain"] [data-testid="stTextInput"] input:visible')
                        if box.count():
                            field = box.first
                            old = field.input_value()

                            def type_value(field=field, old=old) -> None:
                                field.fill("1" + old)          # 7B -> 17B: a new value
                                field.press("Enter")
                            typing.setdefault(pid, []).append(_timed(page, type_value, rerun=True))
                        ctx.close()
                    ctx, page = _new_page(browser)
                    page.goto(base + PAGE_PATHS[ids[0]])
                    wait_idle(page, settle_ms=0)
                    for pid in ids[1:] + ids[:1]:
                        href = PAGE_PATHS[pid].lstrip("/") + "?"     # the frame's links
                        link = page.locator(f'[data-testid="stSidebar"] a[href^="{href}"]')
                        if link.count():
                            nav[pid].append(_timed(page, link.first.click, rerun=True))
                    page.goto(base + PAGE_PATHS["plans"])
                    wait_idle(page, settle_ms=0)
                    dup = page.get_by_role("button", name="Duplicate")
                    if dup.count():
                        plans_button.append(_timed(page, dup.first.click, rerun=True))
                    ctx.close()
            finally:
                stop_server(proc)

        # The floor: a new visitor of a one-chart page (bench/chart_page.py) and of a
        # one-slider page (bench/bare_page.py): Streamlit's own page load in this browser.
        floors = {}
        for script in ("bench/bare_page.py", "bench/chart_page.py"):
            proc, base = start_server(script=script)
            try:
                samples = []
                for _ in range(args.rounds + 1):
                    ctx, page = _new_page(browser)
                    samples.append(_timed(page, lambda: page.goto(base + "/"), title=False))
                    ctx.close()
                floors[script] = samples[1:]
            finally:
                stop_server(proc)
        browser.close()

    med = lambda xs: f"{1000 * statistics.median(xs):.0f} ms" if xs else "—"  # noqa: E731
    print(f"load average at the end: {os.getloadavg()}")
    print("first load (server's first run):", ", ".join(f"{pid} {1000 * s:.0f} ms" for pid, s in cold))
    print("| page | new visitor | in-session navigation | typing in the first field |")
    print("|---|---|---|---|")
    for pid in ids:
        print(f"| {pid} | {med(fresh[pid])} | {med(nav[pid])} | {med(typing.get(pid, []))} |")
    print(f"Plans 'Duplicate': {med(plans_button)} (n={len(plans_button)})")
    for script, xs in floors.items():
        print(f"floor, new visitor of {script}: {med(xs)}")


if __name__ == "__main__":
    main()
