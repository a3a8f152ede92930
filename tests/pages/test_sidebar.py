"""Issue 8, defects 1 and 7 in the shared sidebar (ui.frame), both languages."""
import pytest
from streamlit.testing.v1 import AppTest


def run_home(**params) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def captions(at) -> str:
    return "\n".join(c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("device, precision", [
    ("a100-80gb-sxm", "fp32"),  # A100 datasheet: FP32 19.5 TFLOPS, no sparse figure (not 39)
    ("h100-sxm", "fp64"),       # H100: FP64 33.5 (vector), no sparse figure (not 67)
    ("mi300x", "fp32"),         # MI300X: FP32 163.4, no sparse figure (not 326.8)
])
def test_no_sparse_caption_for_precisions_without_one(lang, device, precision):
    at = run_home(lang=lang, device=device, precision=precision)
    assert "2:4" not in captions(at)
    assert "39 TFLOP/s" not in captions(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sparse_caption_names_the_precision_and_the_right_number(lang):
    # A100 datasheet: BF16 312 | 624* TFLOPS (* with sparsity) -> 2 x 312 = 624 TFLOP/s
    at = run_home(lang=lang, device="a100-80gb-sxm", precision="bf16")
    cap = captions(at)
    assert "2:4" in cap and "624 TFLOP/s" in cap and "312 TFLOP/s" in cap and "BF16" in cap


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_fact_is_binary(lang):
    # "80 GB" A100 = 80 GiB = 80 x 2**30 = 85,899,345,920 bytes = 85.9 GB
    at = run_home(lang=lang)
    facts = "\n".join(m.value for m in at.sidebar.markdown)
    assert "80 GiB" in facts and "85.9 GB" in facts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_int8_peak_is_in_operations_not_flops(lang):
    # A100 80GB SXM: INT8 Tensor Core 624 TOPS dense (NVIDIA datasheet; hardware.toml), an
    # integer rate: OP/s, and its ridge 624e12 / 2.039e12 = 306 OP/B
    at = run_home(lang=lang, device="a100-80gb-sxm", precision="int8")
    facts = "\n".join(m.value for m in at.sidebar.markdown)
    assert "624 TOP/s" in facts and "306 OP/B" in facts and "FLOP/s" not in facts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_int8_pages_read_in_operations(lang):
    # A100 80GB SXM at INT8 (624 TOPS dense, 2.039 TB/s): the Roofline intro's intensity-2
    # kernel is capped at 2 x 2.039e12 = 4.078e12 ops/s -> "4.08 TOP/s"; the MFU page's peak
    # is 624 TOP/s and its default run (6 x 7e9 x 12 000 tok/s over 8 GPUs) 63 TOP/s per GPU
    from page_helpers import metric, open_app_page
    at = open_app_page("pages/1_Roofline.py", lang, device="a100-80gb-sxm", precision="int8")
    intro = "\n".join(m.value for m in at.main.markdown)
    assert "4.08 TOP/s" in intro and "4.08 TFLOP/s" not in intro
    at = open_app_page("pages/2_MFU.py", lang, device="a100-80gb-sxm", precision="int8")
    assert metric(at, "mfu.metric.peak") == "624 TOP/s"
    assert metric(at, "mfu.metric.achieved") == "63 TOP/s"
    assert "OP/s" in at.text_input(key="peak_override").label         # the override's unit too
    assert "FLOP/s" not in at.text_input(key="peak_override").label
    # at BF16 the same pages keep FLOP/s
    at = open_app_page("pages/2_MFU.py", lang, device="a100-80gb-sxm", precision="bf16")
    assert metric(at, "mfu.metric.peak") == "312 TFLOP/s"
    assert "FLOP/s" in at.text_input(key="peak_override").label
