"""Measure page in a real browser: a real quick measurement (about 10 s on the 2-core
machine), progress bars, the measured roofs on the chart, the measured device in the
sidebar, live kernels as points, and the downloaded TOML loading through calc.hardware."""
from __future__ import annotations

import pytest

from browser_helpers import act_and_wait, assert_no_exception, full_screenshot, goto, plot_point_counts, wait_idle

pytestmark = pytest.mark.browser


def test_quick_measurement_and_live_kernels(page, server, screenshot_dir, tmp_path):
    goto(page, server, "measure")
    main = page.locator('[data-testid="stMain"]')
    assert "Nothing measured yet" in main.inner_text()
    page.get_by_role("button", name="Start measuring").click()
    # the progress bars appear while the benchmarks run
    page.wait_for_selector('[data-testid="stProgress"]', timeout=30000)
    assert page.get_by_role("button", name="Cancel").count() == 1
    # the finished run reruns the page (so the sidebar lists the new device) and says so
    page.get_by_text("Measured in").wait_for(timeout=120000)
    wait_idle(page, timeout=120000)
    assert_no_exception(page)
    text = main.inner_text()
    assert "Measured in" in text and "Ceilings: measured ÷ datasheet" in text
    # the chart: measured roof and cache roofs; the curve. The sidebar's A100 is a GPU and
    # this is a CPU: no datasheet roof, "not comparable" (issue 23 item 5)
    legends = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')]
        .map(g => (g._fullData || []).map(t => t.name))""")
    # (the chart opens at the CPU's fastest measured float precision: FP32 or FP64)
    assert any(any(str(n).startswith(("Measured FP32", "Measured FP64")) for n in names)
               for names in legends), legends
    assert not any("Datasheet: NVIDIA A100" in " ".join(map(str, names)) for names in legends)
    assert "not comparable" in text
    assert any("copy" in names and "triad" in names for names in legends)
    # the sidebar's device list now holds the measured machine
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').nth(1).click()
    page.keyboard.type("measured")          # the list is long and virtualised: filter it
    page.wait_for_timeout(300)
    options = page.locator('[role="option"]').all_inner_texts()
    page.keyboard.press("Escape")
    assert any("measured" in o for o in options), options

    # live kernels: small sizes, run, four numbered points on the first chart
    for label, value in (("n", "256"), ("m (rows)", "1024"), ("n (columns)", "1024")):
        field = page.get_by_label(label, exact=True).first
        field.fill(value)
        act_and_wait(page, lambda: field.press("Enter"))
    page.get_by_role("button", name="Run the kernels").click()
    # wait for the rerun that draws the points (the click's run may not have started yet)
    page.wait_for_function("""() => {
        const g = document.querySelector('.js-plotly-plot');
        return g && (g._fullData || []).some(t => t.type.startsWith('scatter') && t.hovertext);
    }""", timeout=60000)
    wait_idle(page, timeout=60000)
    assert_no_exception(page)
    counts = plot_point_counts(page)
    # kernel marker traces carry the points: 4 kernels in all on the roofline chart
    names = page.evaluate("""() => (document.querySelector('.js-plotly-plot')._fullData || [])
        .map(t => [t.name, t.type, t._length || 0, !!(t.hovertext && t.hovertext.length)])""")
    # SVG markers for a few kernels (WebGL only above ui.figures.roofline.GL_ABOVE)
    kernel_points = sum(n for name, typ, n, named in names if named)
    assert kernel_points == 4, (names, counts)
    full_screenshot(page, screenshot_dir / "measure_en.png")

    # the download loads through calc.hardware as a measured device
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download measured.toml").click()
    path = tmp_path / "measured.toml"
    dl.value.save_as(path)
    from calc.hardware import load_hardware
    devices = load_hardware(path)
    assert devices and all(d.measured for d in devices.values())

    # Chinese, in the same session (the sidebar's language selector keeps the measurement)
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    act_and_wait(page, page.get_by_role("option", name="中文").click, timeout=60000)
    assert_no_exception(page)
    zh = main.inner_text()
    assert "实测本机" in zh and "上限：实测 ÷ 规格书" in zh and "实测 Roofline 上的 kernel" in zh
    full_screenshot(page, screenshot_dir / "measure_zh.png")
