"""Real browser: on the Training layout page a user picks a layout (the second fastest),
presses "Use this layout's MFU on the Training time page", and the Training time page opens
with that layout's predicted MFU in its MFU field, labelled as predicted, and the URL
carries it (a link copied there reopens the same run)."""
from __future__ import annotations

import pytest

from browser_helpers import act_and_wait, assert_no_exception, full_screenshot, goto, wait_idle

pytestmark = pytest.mark.browser


def test_pick_a_layout_and_use_its_mfu_on_the_training_page(page, server, screenshot_dir):
    from calc.hardware import load_hardware
    from calc.models import load_models
    from calc.parallel import search_layouts

    hw, models = load_hardware(), load_models()
    second = search_layouts(models["llama-3.1-70b"], device=hw["h100-sxm"], gpus=128, seq_len=4096,
                            global_batch=1024, precision="bf16")[1]
    expected = f"{second.mfu * 100:.4g}%"
    label = (f"tp {second.tp} · pp {second.pp} · dp {second.dp} · ep 1 · cp 1 · "
             f"micro-batch {second.micro_batch}")

    goto(page, server, "training_layout", lang="en", model="llama-3.1-70b", device="h100-sxm",
         gpus="128", seq="4096", gbatch="1024")
    assert_no_exception(page)
    full_screenshot(page, screenshot_dir / "training_layout_en.png")
    # pick the second layout in "Layout to inspect"
    page.get_by_role("combobox", name="Layout to inspect").click()
    act_and_wait(page, page.get_by_role("option", name=label).click)
    assert "layout=" in page.url
    page.get_by_role("link", name="Use this layout's MFU on the Training time page").click()
    try:
        page.wait_for_url("**/Training_time**", timeout=90000)
    finally:
        full_screenshot(page, screenshot_dir / "training_layout_after_use_en.png")
    wait_idle(page)
    assert_no_exception(page)
    field = page.get_by_role("textbox", name="MFU", exact=False).first
    assert field.input_value() == expected
    assert page.get_by_text("Predicted", exact=False).first.is_visible()
    # the URL carries what differs from the Training page's defaults (64 GPUs, 45 %, tp 1)
    assert f"mfu={expected.replace('%', '%25')}" in page.url and "gpus=128" in page.url
    assert f"tp={second.tp}" in page.url or second.tp == 1
    full_screenshot(page, screenshot_dir / "training_layout_used_en.png")
