"""Real browser: the Model page's batch slider moves the operators along the roofline.

At batch 1 every decode GEMM of Llama 2 7B sits at ~1 FLOP/byte (2 FLOPs per 2-byte weight);
each step of the batch slider doubles the batch and so, roughly, the GEMMs' intensity, while
attention (each request reads its own KV cache) stays where it is.
"""
from __future__ import annotations

import pytest

from browser_helpers import assert_no_exception, full_screenshot, goto, wait_idle

pytestmark = pytest.mark.browser


def _operator_x(page) -> list[float]:
    """x (arithmetic intensity) of every operator point on the Model page's chart."""
    return page.evaluate(
        """() => {
            const g = document.querySelector('.js-plotly-plot');
            return (g._fullData || []).filter(t => t.mode === 'markers+text')
                .flatMap(t => Array.from(t.x || []));
        }""")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch_slider_moves_the_gemms_right(page, server, screenshot_dir, lang):
    goto(page, server, "model", lang=lang, model="llama-2-7b")
    assert_no_exception(page)
    before = sorted(_operator_x(page))
    assert before and 0.9 < before[-1] <= 1.0 + 1e-6, before   # batch 1: GEMMs at ~1 FLOP/B
    slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
    slider.focus()
    # batch 1 → 2 → 4 → 8, one key press per redrawn page (the pace of a user watching the
    # chart; presses inside one rerun can be dropped when Streamlit interrupts a run).
    for batch in (2, 4, 8):
        slider.press("ArrowRight")
        page.wait_for_function(f"() => location.search.includes('batch={batch}')", timeout=30000)
        wait_idle(page)
    after = sorted(_operator_x(page))
    assert after[-1] > 7 * before[-1], (before[-1], after[-1])
    assert_no_exception(page)
    full_screenshot(page, screenshot_dir / f"model_batch8_{lang}.png")


def test_operator_csv_downloads_the_table(page, server):
    # the CSV is built on the click (a deferred download) and the click reruns nothing
    import csv
    import io

    from browser_helpers import reran, watch_reruns

    goto(page, server, "model", lang="en", model="llama-2-7b")
    button = page.locator('[data-testid="stMain"] [data-testid="stDownloadButton"] button').first
    watch_reruns(page)
    with page.expect_download(timeout=30_000) as info:
        button.click()
    rows = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8-sig").read())))
    assert not reran(page)
    # Llama 2 7B's decode step, in the model's order: the embedding gather, one dense
    # pre-norm block with rotary attention and a SwiGLU MLP (norm, QKV, RoPE, attention,
    # output projection, residual; norm, gate, up, activation, down, residual), the final
    # norm and the LM head
    assert [r["operator"] for r in rows] == [
        "embedding", "norm_in", "qkv", "rope", "attn_fused", "o_proj", "residual_attn",
        "norm_post", "mlp_gate", "mlp_up", "mlp_act", "mlp_down", "residual_mlp",
        "norm_final", "lm_head"]
    # the gather: 0 FLOP, T·d·(b_w + b_a) = 1 · 4096 · (2 + 2) = 16,384 bytes; the LM head
    # 2·B·d·V = 2 · 1 · 4096 · 32000 FLOP; the block's operators run once per layer (32)
    assert float(rows[0]["flops"]) == 0 and float(rows[0]["bytes"]) == 16384
    assert float(rows[-1]["flops"]) == 2 * 1 * 4096 * 32000
    assert {r["count"] for r in rows[1:-2]} == {"32"}
