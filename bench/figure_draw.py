"""What one redraw of each page's plotly charts costs the browser, outside Streamlit.

Opens each page under AppTest (its default inputs), takes the plotly specs it sends (the
JSON ``st.plotly_chart`` puts in its protobuf), and draws each one in headless Chromium
with plotly.py's own plotly.js: one ``Plotly.newPlot``, then ``--draws`` times
``Plotly.react`` with every x value moved by a factor 1 + 1e-9 (so plotly redraws, as it
does when a slider changes a figure), timed with ``performance.now()`` around the awaited
call. The floor's chart (``bench/chart_page.py``'s figure) is drawn the same way, and
each chart is reported as ms per redraw and as a ratio to the floor's. It says which
chart of a page a slider's redraw spends its plotly time on; ``bench/slider_profile.py``
says how much of a press plotly takes in the app.

    python bench/figure_draw.py [--pages pages/10_Serving.py,pages/4_Decode_speed.py] [--draws 20]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pages"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))

CALCULATORS = ("pages/2_MFU.py", "pages/3_Training_time.py", "pages/4_Decode_speed.py",
               "pages/5_Model.py", "pages/9_Training_layout.py", "pages/10_Serving.py")

DRAW = """async ([spec, draws]) => {
  const div = document.createElement('div');
  div.style.width = '900px';
  document.body.appendChild(div);
  const fig = JSON.parse(spec);
  await Plotly.newPlot(div, fig.data, fig.layout, {responsive: false});
  const times = [];
  for (let k = 0; k < draws; k++) {
    const f = 1 + 1e-9 * (k + 1);
    const data = fig.data.map(tr => Array.isArray(tr.x)
        ? Object.assign({}, tr, {x: tr.x.map(v => typeof v === 'number' ? v * f : v)}) : tr);
    const t0 = performance.now();
    await Plotly.react(div, data, Object.assign({}, fig.layout, {datarevision: k}));
    times.push(performance.now() - t0);
  }
  Plotly.purge(div);
  div.remove();
  return times;
}"""


def floor_spec() -> str:
    """The one-chart floor's figure (bench/floor_figure.py) at chart_page.py's default 50."""
    from floor_figure import floor_figure
    return floor_figure(50).to_json()


def page_specs(page: str) -> list[str]:
    """The plotly specs ``page`` sends at its default inputs, in page order."""
    from page_helpers import open_app_page
    at = open_app_page(page)
    return [el.proto.spec for el in at.get("plotly_chart")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default=",".join(CALCULATORS))
    ap.add_argument("--draws", type=int, default=20)
    args = ap.parse_args()

    import plotly
    from browser_helpers import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright
    plotly_js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

    charts = [("floor (one chart)", floor_spec())]
    for page in args.pages.split(","):
        for i, spec in enumerate(page_specs(page)):
            charts.append((f"{Path(page).stem} chart {i + 1}", spec))

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        tab.set_content("<html><body></body></html>")
        tab.add_script_tag(path=str(plotly_js))
        rows = []
        for name, spec in charts:
            times = tab.evaluate(DRAW, [spec, args.draws])
            rows.append((name, statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))],
                         len(spec)))
        browser.close()
    floor = rows[0][1]
    print(f"{'chart':34} {'median ms':>10} {'p95 ms':>8} {'× floor':>8} {'spec bytes':>11}")
    for name, med, p95, size in rows:
        print(f"{name:34} {med:10.1f} {p95:8.1f} {med / floor:8.2f} {size:11,}")
    print(json.dumps({"draws": args.draws, "plotly.js": plotly.__version__}))


if __name__ == "__main__":
    main()
