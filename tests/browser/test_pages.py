"""Real-browser tests (Playwright + Debian's Chromium) of every page.

Run with `pytest -m browser`; they are part of the default `pytest` run. See conftest.py
for the server and browser fixtures.
"""
from __future__ import annotations

import csv
import io
import re
from urllib.parse import parse_qs, urlparse

import pytest

from browser_helpers import (PAGE_PATHS, PAGE_TIMEOUT_MS, act_and_wait, assert_no_exception, full_screenshot,
                             goto, plot_point_counts, pushed_margins, reran, wait_idle, watch_reruns)

pytestmark = pytest.mark.browser

LANGS = ("en", "zh")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page_id", list(PAGE_PATHS))
def test_page_loads_without_exception(page, server, screenshot_dir, page_id, lang):
    goto(page, server, page_id, lang=lang)
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert main.strip(), "the page's main area is empty"
    if lang == "zh":
        assert CJK.search(main), "the Chinese page shows no Chinese text"
    # every chart's own margins hold its labels and legend: none is drawn twice per rerun
    assert not pushed_margins(page), pushed_margins(page)
    full_screenshot(page, screenshot_dir / f"{page_id}_{lang}.png")
    # every formula in the page's expanders ("How this is computed", notes) parses and fits
    # its box: KaTeX draws an unknown command in red (rgb(204, 0, 0)) instead of failing,
    # and a long display formula runs past the box's edge, cut off. Expanders inside a
    # tab that is not shown are not visible and are left shut.
    summaries = page.locator('[data-testid="stMain"] [data-testid="stExpander"] summary')
    for i in range(summaries.count()):
        if summaries.nth(i).is_visible():
            summaries.nth(i).click(timeout=5000)
            page.wait_for_timeout(300)
    wait_idle(page)
    assert not _formula_faults(page), _formula_faults(page)


_FORMULA_FAULTS_JS = """() => {
    const out = [];
    for (const e of document.querySelectorAll('[data-testid="stMain"] .katex-error, '
                                              + '[data-testid="stMain"] .katex [style*="204, 0, 0"], '
                                              + '[data-testid="stMain"] .katex [style*="cc0000"]'))
        out.push('red: ' + e.textContent.slice(0, 40));
    for (const e of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
        const box = e.closest('[data-testid="stExpanderDetails"]') || e.closest('[data-testid="stMarkdownContainer"]');
        const html = e.querySelector('.katex-html') || e;
        if (box && (html.getBoundingClientRect().right > box.getBoundingClientRect().right + 1
                    || e.scrollWidth > e.clientWidth + 4))
            out.push('too wide: ' + e.textContent.slice(0, 40));
    }
    return out;
}"""


def _formula_faults(page) -> list[str]:
    """Formulas in the main area KaTeX drew with an error (red) or wider than their box."""
    return page.evaluate(_FORMULA_FAULTS_JS)


def _sidebar_links(page) -> dict[str, str]:
    hrefs = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stSidebar"] a')]
                 .map(a => a.href)""")
    out = {}
    for href in hrefs:
        u = urlparse(href)
        if u.hostname == "127.0.0.1":
            out[u.path.rstrip("/") or "/"] = href
    return out


def _sidebar_link(page, path: str):
    """The sidebar anchor whose resolved path is `path` (hrefs are relative: "MFU?lang=...")."""
    links = page.locator('[data-testid="stSidebar"] a')
    for i in range(links.count()):
        href = links.nth(i).evaluate("a => a.href")
        if urlparse(href).path.rstrip("/") == path.rstrip("/") and urlparse(href).hostname == "127.0.0.1":
            return links.nth(i)
    raise AssertionError(f"no sidebar link to {path}")


def test_navigation_links_carry_lang_and_device(page, server):
    goto(page, server, "home", lang="zh", device="h100-sxm")
    links = _sidebar_links(page)
    for pid, path in PAGE_PATHS.items():
        if pid == "home":
            continue
        assert path in links, f"no sidebar link to {path}: {links}"
        q = parse_qs(urlparse(links[path]).query)
        assert q.get("lang") == ["zh"] and q.get("device") == ["h100-sxm"], links[path]
    # Click through every tool page via the sidebar.
    for pid in ("mfu", "training", "decode", "roofline"):
        _sidebar_link(page, PAGE_PATHS[pid]).click()
        page.wait_for_url(re.compile(re.escape(PAGE_PATHS[pid])))
        wait_idle(page)
        assert_no_exception(page)
        query = parse_qs(urlparse(page.url).query)
        assert query.get("lang") == ["zh"], f"{pid}: language lost: {page.url}"
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert "989 TFLOP/s" in sidebar, f"{pid}: device lost (H100 SXM bf16 = 989 TFLOP/s)"
        assert CJK.search(page.locator('[data-testid="stMain"]').inner_text())


def _metrics(page) -> list[str]:
    return page.locator('[data-testid="stMain"] [data-testid="stMetricValue"]').all_inner_texts()


def test_mfu_defaults_and_slider_changes_headline(page, server):
    goto(page, server, "mfu", lang="en")
    before = _metrics(page)
    assert before and before[0] == "20.2%", before      # the seed: 7B, 8 x A100, 12k tok/s
    slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
    slider.focus()
    act_and_wait(page, lambda: slider.press("ArrowRight"))
    after = _metrics(page)
    assert after[0] != before[0], "moving the parameters slider did not change the MFU"
    assert_no_exception(page)


@pytest.mark.parametrize("lang,days", [("en", "days"), ("zh", "天")])
def test_training_mfu_is_typed_and_slid(page, server, lang, days):
    # Issue 23: the Training page's MFU is a field (any value) over a 1 % slider, both bound
    # to the URL name mfu. 37.5 %: 54.099 days x 45 / 37.5 = 64.9 days; one step right on the
    # slider (37.5 % is an option of its own) is 38 %: 54.099 x 45 / 38 = 64.1 days.
    goto(page, server, "training", lang=lang)
    _set_text(page, "MFU", "37.5%")
    assert _metrics(page)[1] == f"64.9 {days}"
    assert parse_qs(urlparse(page.url).query).get("mfu") == ["37.5%"]
    field = page.locator('[data-testid="stMain"] [data-testid="stTextInput"]').filter(
        has_text=re.compile("MFU")).first
    slider = field.locator("xpath=following::*[@data-testid='stSlider'][1]").locator(
        'input[type="range"], [role="slider"]').first
    slider.focus()
    act_and_wait(page, lambda: slider.press("ArrowRight"))
    assert_no_exception(page)
    assert _metrics(page)[1] == f"64.1 {days}"
    assert parse_qs(urlparse(page.url).query).get("mfu") == ["38%"]


def _set_text(page, label_regex: str, value: str) -> None:
    field = page.locator('[data-testid="stMain"] [data-testid="stTextInput"]').filter(
        has_text=re.compile(label_regex)).locator("input").first
    field.fill(value)
    act_and_wait(page, lambda: field.press("Enter"))


@pytest.mark.parametrize("page_id,label,value", [
    ("mfu", r"[Tt]okens", "20k"),
    ("training", r"GPU", "128"),
    ("decode", r"GPU", "4"),
])
def test_share_link_reproduces_the_numbers(browser, page, server, page_id, label, value):
    goto(page, server, page_id, lang="zh", device="h100-sxm")
    default = _metrics(page) or [page.locator('[data-testid="stMain"]').inner_text()]
    _set_text(page, label, value)
    changed = _metrics(page)
    assert changed and changed != default, f"{page_id}: changing {label} changed nothing"
    url = page.url
    assert "lang=zh" in url and "device=h100-sxm" in url, url
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        pg2 = other.new_page()
        pg2.goto(url)
        wait_idle(pg2)
        assert_no_exception(pg2)
        assert _metrics(pg2) == changed, f"{page_id}: the shared link shows other numbers"
    finally:
        other.close()


# ----------------------------------------------------------------------------- roofline

def _kernel_points(page) -> int:
    """Points of the kernel traces on the page's first (main) roofline chart: traces
    whose name is not a roof/region; approximated as the traces with mode markers."""
    return page.evaluate(
        """() => {
            const g = document.querySelector('.js-plotly-plot');
            if (!g || !g._fullData) return -1;
            return g._fullData.filter(t => (t.mode || '').includes('markers'))
                         .reduce((n, t) => n + (t._length || 0), 0);
        }""")


def test_roofline_draws(page, server):
    goto(page, server, "roofline", lang="en")
    assert_no_exception(page)
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.wait_for()
    assert page.locator(".js-plotly-plot .main-svg").count() >= 1
    counts = plot_point_counts(page)
    assert counts and sum(counts[0]) > 0
    assert _kernel_points(page) >= 4, "the four newcomer examples are not drawn"


def _upload(page, name: str, data: bytes, mime: str = "text/csv", files=None) -> None:
    """Set the kernel import's file input to one file, or to ``files`` (several at once)."""
    inputs = page.locator('[data-testid="stMain"] input[type="file"]')
    assert inputs.count() >= 1, "no file uploader on the roofline page"
    target = inputs.first
    for i in range(inputs.count()):
        accept = inputs.nth(i).get_attribute("accept") or ""
        if ".csv" in accept or accept == "":
            target = inputs.nth(i)
            break
    chosen = files or [{"name": name, "mimeType": mime, "buffer": data}]
    act_and_wait(page, lambda: target.set_input_files(files=chosen))


GOOD_CSV = b"name,flops,bytes,seconds,count\nmy uploaded kernel,2*4096**3,3*4096**2*2,1 ms,1\n"


def test_upload_adds_a_point_and_bad_file_keeps_kernels(page, server):
    goto(page, server, "roofline", lang="en")
    n0 = _kernel_points(page)
    _upload(page, "kernels.csv", GOOD_CSV)
    assert_no_exception(page)
    n1 = _kernel_points(page)
    # "Replace the example rows" is on by default (issue 8, defect 12): the upload's one
    # kernel takes the place of the example rows.
    from ui.roofline.state import default_rows
    assert n1 == n0 - len(default_rows()) + 1, f"uploading one kernel: {n0} -> {n1} points"
    assert "my uploaded kernel" in page.locator('[data-testid="stMain"]').inner_text()
    _upload(page, "garbage.csv", b"\x00\x01\x02 not a table \xff\xfe" * 50, "text/csv")
    assert_no_exception(page)
    assert page.locator('[data-testid="stMain"] [data-testid="stAlertContentError"]').count() \
        >= 1, "a bad file shows no error"
    assert _kernel_points(page) == n1, "a bad upload changed the kernels"


def test_two_ncu_files_selected_together_merge_and_an_imported_one_is_not_added_again(page, server):
    # the fixtures' metrics-only and timing-only Nsight Compute exports, selected together:
    # one import, merged launch by launch (each alone lacks the time or the bytes)
    from pathlib import Path
    data = Path(__file__).resolve().parents[1] / "data" / "ncu"
    goto(page, server, "roofline", lang="en")
    files = [{"name": n, "mimeType": "text/csv", "buffer": (data / n).read_bytes()}
             for n in ("metrics.csv", "timing.csv")]
    _upload(page, "", b"", files=files)
    assert_no_exception(page)
    page.get_by_role("tab", name="Import a file").click()
    main = page.locator('[data-testid="stMain"]').inner_text()
    # the report of ONE import of both (these exports carry no FLOP counters: not drawn)
    assert "Imported metrics.csv + timing.csv" in main and "2 rows added" in main, main[-2000:]
    _upload(page, "kernels.csv", GOOD_CSV)          # a third file later: only it is imported
    assert_no_exception(page)
    page.get_by_role("tab", name="Import a file").click()
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Imported kernels.csv (" in main and "metrics.csv + timing.csv + kernels.csv" not in main
    assert _kernel_points(page) >= 1                 # the CSV's kernel, with its FLOPs


def test_a_timing_only_ncu_file_merges_with_the_metrics_file_added_after_it(page, server):
    # the time_only warning asks for both files; added one after the other they still merge
    from pathlib import Path
    data = Path(__file__).resolve().parents[1] / "data" / "ncu"
    goto(page, server, "roofline", lang="en")
    one = lambda n: [{"name": n, "mimeType": "text/csv", "buffer": (data / n).read_bytes()}]
    _upload(page, "", b"", files=one("timing.csv"))
    _upload(page, "", b"", files=one("metrics.csv"))
    assert_no_exception(page)
    page.get_by_role("tab", name="Import a file").click()
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Imported timing.csv + metrics.csv" in main and "2 rows added" in main, main[-2000:]


def test_csv_download_returns_the_table(page, server):
    goto(page, server, "roofline", lang="en")
    buttons = page.locator('[data-testid="stMain"] [data-testid="stDownloadButton"]')
    assert buttons.count() >= 1, "no download button on the roofline page"
    button = buttons.filter(has_text=re.compile("CSV|csv")).first
    if not button.count():
        button = buttons.first
    watch_reruns(page)
    with page.expect_download(timeout=30_000) as info:
        button.locator("button").first.click()
    text = open(info.value.path(), encoding="utf-8-sig").read()
    # on_click="ignore": the download does not rerun the page (a rerun would race the fetch)
    assert not reran(page), "the download click reran the page"
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and {"name", "flops", "bytes"} <= {k.strip().lower() for k in rows[0]}
    names = " ".join(r.get("name", "") for r in rows)
    assert "GEMM" in names and "LayerNorm" in names, names


HOSTILE_NAME = '<script>alert("x")</script><img src=x onerror=alert(1)><b>bold</b>'


def _hostile_link(base: str) -> str:
    from calc.kernel_table import KernelRecord
    from calc.scenario import encode_kernels

    k = KernelRecord(name=HOSTILE_NAME, flops=2e12, bytes_moved=1e10, seconds=0.01, count=1)
    return f"{base}{PAGE_PATHS['roofline']}?lang=en&k={encode_kernels([k])}"


def test_html_kernel_names_are_shown_as_text(page, server):
    page.goto(_hostile_link(server))
    wait_idle(page)
    assert_no_exception(page)
    page.wait_for_timeout(300)
    assert not page.dialogs, page.dialogs  # type: ignore[attr-defined]
    assert page.locator('[data-testid="stMain"] img[src="x"]').count() == 0
    assert page.locator('[data-testid="stMain"] script:has-text("alert")').count() == 0
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "<script>" in text, "the kernel name is not shown literally in the sentences"
    hover = page.evaluate(
        """() => JSON.stringify([...document.querySelectorAll('.js-plotly-plot')]
                 .map(g => (g.data || []).map(t => [t.text, t.hovertext, t.customdata])))""")
    assert "<script>" not in hover, "a raw <script> reaches plotly hover text"


def test_two_contexts_do_not_share_kernels(browser, server):
    a = browser.new_context(viewport={"width": 1400, "height": 1000})
    b = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        pa, pb = a.new_page(), b.new_page()
        for pg in (pa, pb):
            pg.set_default_timeout(PAGE_TIMEOUT_MS)
            goto(pg, server, "roofline", lang="en")
        n_b = _kernel_points(pb)
        _upload(pa, "kernels.csv", GOOD_CSV)
        assert "my uploaded kernel" in pa.locator('[data-testid="stMain"]').inner_text()
        pb.reload()
        wait_idle(pb)
        assert "my uploaded kernel" not in pb.locator('[data-testid="stMain"]').inner_text()
        assert _kernel_points(pb) == n_b
    finally:
        a.close()
        b.close()


def test_builder_adds_a_point(page, server):
    goto(page, server, "roofline", lang="en")
    n0 = _kernel_points(page)
    page.get_by_role("tab", name="Kernel builder").click()
    act_and_wait(page, page.get_by_role("button", name="Add to the table").click)
    assert_no_exception(page)
    assert _kernel_points(page) == n0 + 1, "the builder's kernel was not drawn"
    assert page.locator('[data-testid="stMain"] [data-testid="stAlertContentSuccess"]').count() >= 1

