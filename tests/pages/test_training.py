"""AppTest: the training-time page (pages/3_Training_time.py), both languages.

Hand arithmetic (seed chapter 04): C = 6 x 7e9 x 1e12 = 4.2e22 FLOP;
64 x 312e12 x 0.45 = 8.9856e15 FLOP/s -> 4.674e6 s = 54.10 days;
at 25 %: 64 x 312e12 x 0.25 = 4.992e15 -> 8.413e6 s = 97.37 days; 43.3 days apart.
"""

import pytest

from page_helpers import metric, open_app_page, texts

PAGE = "pages/3_Training_time.py"


def open_page(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


@pytest.mark.parametrize("lang,days_word", [("en", "days"), ("zh", "天")])
def test_defaults_reproduce_seed(lang, days_word):
    at = open_page(lang)
    assert metric(at, "training.metric.flops") == "42 ZFLOP"                 # 4.2e22
    assert metric(at, "training.metric.days") == f"54.1 {days_word}"
    # GPU-hours: 4.2e22 / (312e12 x 0.45) / 3600 = 83 096
    assert metric(at, "training.metric.gpu_hours") == "83,096"
    assert metric(at, "training.metric.cost") == "—"                        # no price given
    info = texts(at, "info")
    assert "97.4" in info and "43.3" in info and "66,477" in info   # 149 573 - 83 096
    # 30 days: 4.2e22 / (2.592e6 x 312e12 x 0.45) = 115.4 -> 116 GPUs
    assert "116" in texts(at, "success")
    assert len(at.get("plotly_chart")) == 1


def test_doubling_gpus_halves_days():
    at = open_page("en")
    at.text_input(key="gpus").set_value("128").run()
    assert not at.exception
    assert metric(at, "training.metric.days") == "27.0 days"                # 54.099 / 2 = 27.05 -> 27.0
    assert metric(at, "training.metric.gpu_hours") == "83,096"                   # GPU-hours do not change


def test_chinchilla_button_sets_tokens():
    at = open_page("en")
    at.button[0].click().run()
    assert not at.exception
    assert at.text_input(key="tokens").value == "140B"      # 20 x 7B
    assert metric(at, "training.metric.days") == "7.6 days"                 # 54.099 x 0.14 = 7.57


def test_query_params_reproduce_state():
    # MFU 30 %: 54.099 x 45 / 30 = 81.15 days; price 2 -> 4.2e22/(312e12 x 0.3)/3600 x 2
    # = 124 644 GPU-h x 2 = 249 288
    at = open_page("en", mfu="30%", price="2")
    assert metric(at, "training.metric.days") == "81.1 days"
    assert metric(at, "training.metric.cost") == "$249,288 USD"             # the default currency: USD


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_garbage_query_params(lang):
    at = open_page(lang, params="abc", gpus="-1", mfu="nan", compare_mfu="500%",
                   price="xyz", deadline_days="0", logy="perhaps")
    assert len(at.error) >= 3
    assert len(at.metric) == 0 and at.warning
    # The MFU is a typed field (issue 23): "nan" is refused with a message naming the field
    at = open_page(lang, mfu="nan", compare_mfu="garbage")
    assert at.error and len(at.metric) == 0
    at = open_page(lang, compare_mfu="garbage")
    assert metric(at, "training.metric.days").startswith("54.1")            # compare fell back to 25 %


@pytest.mark.parametrize("lang,days_word", [("en", "days"), ("zh", "天")])
def test_mfu_is_typed_and_the_slider_follows(lang, days_word):
    # 37.5 % lies between the slider's 1 % steps: 54.099 x 45 / 37.5 = 64.92 days
    at = open_page(lang, mfu="37.5%")
    assert metric(at, "training.metric.days") == f"64.9 {days_word}"
    at.text_input(key="mfu").set_value("0.3").run()        # 54.099 x 45 / 30 = 81.15 days
    assert metric(at, "training.metric.days") == f"81.1 {days_word}"
    assert at.select_slider(key="mfu__slider").value == pytest.approx(0.3)


@pytest.mark.parametrize("lang,word", [("en", "impossible"), ("zh", "不可能")])
def test_hfu_above_100_is_impossible(lang, word):
    # Defect 4: MFU 80 % with full recomputation: HFU = 80 % x 8N / 6N = 106.7 % > 100 %
    at = open_page(lang, mfu="80%", recompute="full")
    err = texts(at, "error")
    assert "106.7%" in err and word in err
    at = open_page(lang, mfu="70%", recompute="full")        # 93.3 %: possible, a caption
    assert "93.3%" in texts(at, "caption") and not at.error


def test_bad_typed_input_keeps_page_working():
    at = open_page("en")
    at.text_input(key="tokens").set_value("lots").run()
    assert not at.exception and at.error and len(at.metric) == 0
    at.text_input(key="tokens").set_value("1T").run()
    at.text_input(key="price").set_value("-3").run()
    assert not at.exception and at.error
    assert metric(at, "training.metric.days") == "54.1 days"                # the rest still computes


@pytest.mark.parametrize("lang,word", [("en", "does not fit"), ("zh", "装不进")])
def test_405b_pipeline_activations_on_the_page(lang, word):
    # Defect 2: Llama-3.1-405B, 2,048 x H100, tp 8, pp 16, ZeRO-1, selective, seq 8192, mb 1.
    # 1F1B keeps 16 micro-batches of 7.875 layers = 126 layers x 34 x 8192 x 16384 / 8 B
    # = 71.9 GB of activations; the first stage's 3,400,791,040 parameters (its layers and
    # the embedding, tests/calc/test_training_memory.py by hand): + 6.80 (bf16 weights) +
    # 13.6 (FP32 gradients) + 2.55 GB (Adam / 16) of states = 94.8 GB > 80 GiB (85.9 GB).
    at = open_page(lang, model="llama-3.1-405b", device="h100-sxm", gpus="2048", tp="8", pp="16",
                   zero="1", recompute="selective", seq="8192")
    values = [m.value for m in at.metric]
    assert "71.9 GB" in values and "13.6 GB" in values and "94.8 GB" in values
    assert word in texts(at, "error")
    # the caption names the first stage and why it is the worst; one stage is the whole model
    caps = texts(at, "caption")
    assert ("the embedding" in caps if lang == "en" else "词嵌入" in caps) and "126" in caps
    at = open_page(lang, model="llama-3.1-405b", device="h100-sxm", gpus="2048", tp="8", pp="1",
                   zero="1", recompute="selective", seq="8192")
    caps = texts(at, "caption")
    assert ("One stage holds the whole model" in caps if lang == "en" else "一级装下整个模型" in caps)


def test_adam_fp32_on_the_page():
    # Defect 5: Llama-2-7B, ZeRO-0, "Adam, FP32 weights and gradients": 4 + 4 + 8 = 16 B/param
    # x 6,738,415,616 = 107.8 GB, + 34 x 4096 x 4096 x 32 = 18.3 GB of activations (FlashAttention)
    # = 126.1 GB (it read 99.1 GB: weights and gradients at 2 B)
    at = open_page("en", model="llama-2-7b", gpus="8", zero="0", optim="adam-fp32")
    values = [m.value for m in at.metric]
    assert "27 GB" in values                    # weights 4 B x 6.738e9 = 26.95 GB
    assert "126 GB" in values


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mfu_caption_names_the_hfu_only_runs_at_this_scale(lang):
    # 7B on 64 A100s (the seed's run): MosaicML's MFU rows give 50-64 %; Narayanan et al.
    # 2021 print only HFU at this scale: 3.6B / 64 44 %, 7.5B / 128 46 %, 18.4B / 256 43 %,
    # so 43-46 % HFU, with full recomputation an MFU of 32.25-34.5 %.
    cap = texts(open_page(lang), "caption")
    assert "50%–64%" in cap and "Narayanan et al. 2021" in cap and "GPT 7.5B × 128 A100" in cap
    assert "HFU **43%–46%**" in cap and "MFU = HFU × 3/4" in cap
    assert ("an MFU of about 32%–34%" if lang == "en" else "相当于 MFU 约 32%–34%") in cap
    # on H100 no run prints only an HFU: the caption has no HFU sentence
    assert "HFU" not in texts(open_page(lang, device="h100-sxm"), "caption")
