"""Measure this machine and draw the README's charts (docs/measure/).

    python scripts/measure_readme_chart.py [--quick] [--peak 78.25G] [--bw "204.8 GB/s"]
        [--label "AMD EPYC 7003, 2 cores (datasheet)"] [--precision fp64]

Runs `measure.run.run` (a default run unless --quick), writes docs/measure/measured.toml,
prints the ceilings table, and renders with headless Chromium (the plotly figures of the
Measure page, ui.figures.measure) docs/measure/measured_vs_datasheet.png and
docs/measure/bandwidth_curve.png. The "datasheet" is given on the command line: the
development machine's CPU is not in hardware.toml (see the README for its derivation).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calc.units import parse_quantity  # noqa: E402


def _png(fig, path: Path, width: int = 1100, height: int = 560) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "fig.html"
        fig.update_layout(width=width, height=height)
        fig.write_html(str(html), include_plotlyjs=True, full_html=True)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=os.environ.get("ROOFLINE_LAB_CHROMIUM", "/usr/bin/chromium"),
                                  args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = b.new_page(viewport={"width": width + 40, "height": height + 40})
            page.goto(html.as_uri())
            page.wait_for_selector(".main-svg")
            page.wait_for_timeout(500)
            page.locator(".js-plotly-plot").first.screenshot(path=str(path))
            b.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--peak", default="78.25G", help="datasheet peak FLOP/s at --precision")
    ap.add_argument("--bw", default="204.8 GB/s", help="datasheet DRAM bandwidth")
    ap.add_argument("--label", default="AMD EPYC 7003 (Zen 3), 2 cores at 2.445 GHz")
    ap.add_argument("--precision", default="fp64")
    ap.add_argument("--from", dest="from_file", metavar="FILE.toml",
                    help="draw the comparison chart from a saved measurement instead of "
                         "measuring (the curve needs a run and is left as it is)")
    args = ap.parse_args()

    from calc.hardware import load_hardware
    from measure.device import to_toml
    from measure.report import format_table
    from measure.run import run
    from ui.figures.measure import bandwidth_curve_figure, comparison_figure
    from ui.i18n import translator

    out = ROOT / "docs" / "measure"
    out.mkdir(parents=True, exist_ok=True)
    t = translator("en")
    peak = parse_quantity(args.peak)
    bw = parse_quantity(args.bw)
    if args.from_file:
        dev = next(d for d in load_hardware(args.from_file).values() if d.measured)
        _png(comparison_figure(t, dev, args.precision, (args.label, peak, bw)),
             out / "measured_vs_datasheet.png")
        print(f"measured ÷ datasheet: {args.precision} {dev.peak_flops(args.precision) / peak:.1%}, "
              f"DRAM {dev.mem_bw / bw:.1%}; wrote {out / 'measured_vs_datasheet.png'}")
        return 0
    print(f"load average before: {os.getloadavg()}")
    m = run(quick=args.quick, use_gpu=True)
    print(f"load average after: {os.getloadavg()}; {m.seconds:.1f} s")
    (out / "measured.toml").write_text(to_toml(m), encoding="utf-8")
    print(format_table(m))
    dev = next(d for d in load_hardware(out / "measured.toml").values() if d.id.startswith("measured-cpu"))
    fig = comparison_figure(t, dev, args.precision, (args.label, peak, bw))
    _png(fig, out / "measured_vs_datasheet.png")
    curve = bandwidth_curve_figure(t, m.stream, [(c.name, c.size_bytes) for c in m.host.caches],
                                   m.cpu_plateaus, (args.label, bw))
    _png(curve, out / "bandwidth_curve.png", height=440)
    print(f"measured ÷ datasheet: {args.precision} {dev.peak_flops(args.precision) / peak:.1%}, "
          f"DRAM {dev.mem_bw / bw:.1%}")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
