"""One answer per question, inference side (issue 19): the Decode page, the Model page and
Plans give the same tokens/s and the same memory verdict for the same setup, computed
through the calls the pages themselves make (ui.decode.answer.decode_answer,
ui.model.results.model_answer, calc.plans.evaluate), and the three cases the review found
wrong read as derived by hand, on the pages themselves (AppTest)."""
from types import SimpleNamespace

import pytest

from calc.hardware import load_hardware
from calc.model_catalog import load_models
from calc.placement import PlacementError, check_tp
from calc.plans import SERVING, Plan, evaluate
from page_helpers import metric, metrics, open_app_page
from ui.decode.answer import decode_answer
from ui.decode.inputs import DecodeInputs
from ui.model.inputs import StepInputs
from ui.model.results import model_answer

MODELS = load_models()
DEVICES = load_hardware()
DECODE, MODEL = "pages/4_Decode_speed.py", "pages/5_Model.py"

GRID = [(m, tp, b, c, dev) for m in MODELS for tp in (1, 2, 8, 16) for b in (1, 64)
        for c in (4096, 32768) for dev in ("a100-80gb-sxm", "h200-sxm")]


def _ctx(dev_id, arch):
    dev = DEVICES[dev_id]
    return SimpleNamespace(device=dev, peak_flops=dev.peak_flops("bf16"), mem_bw=dev.mem_bw,
                           model=arch, t=None)


def _three(model_id, tp, batch, context, dev_id):
    arch = MODELS[model_id]
    ctx = _ctx(dev_id, arch)
    d = decode_answer(ctx, DecodeInputs(arch=arch, from_model=True, weights="bf16", tp=tp,
                                        batch=batch, kv=True, context=float(context),
                                        kv_dtype="bf16", measured=None, prompt=None,
                                        tp_comm=False)).step
    m = model_answer(ctx, arch, StepInputs("decode", batch, context, "bf16", "bf16", "bf16", tp,
                                           True, False)).step
    p = evaluate(Plan(kind=SERVING, model=model_id, device=dev_id, n_gpus=tp, batch=batch,
                      context=context, kv=True), DEVICES, None, MODELS)
    return d, m, p


@pytest.mark.slow
@pytest.mark.parametrize("model_id, tp, batch, context, dev_id", GRID)
def test_decode_model_and_plans_agree(model_id, tp, batch, context, dev_id):
    try:
        check_tp(MODELS[model_id], tp)
    except PlacementError as exc:
        # every page rejects the split the same way: the shared tp field (ui.widgets.tp_input)
        # on Decode and Model, calc.plans.evaluate's error on Plans, one message
        with pytest.raises(ValueError) as plans_err:
            evaluate(Plan(kind=SERVING, model=model_id, device=dev_id, n_gpus=tp, batch=batch,
                          context=context), DEVICES, None, MODELS)
        assert str(plans_err.value) == str(exc)
        return
    d, m, p = _three(model_id, tp, batch, context, dev_id)
    assert m.tokens_per_s == pytest.approx(d.tokens_per_s, rel=0.005)
    assert p.total == pytest.approx(d.tokens_per_s, rel=0.005)
    assert d.fit.verdict == m.fit.verdict == p.fits


def test_the_grid_covers_every_model_and_rejects_only_what_cannot_split():
    # qwen2.5-7b (28 heads) cannot take 8 or 16 GPUs, palm-540b and mixtral-8x22b (48 heads)
    # not 16: tp must divide the heads.  Everything else splits.
    bad = {(m, tp) for m, tp, *_ in GRID if m in MODELS and _rejects(m, tp)}
    assert ("qwen2.5-7b", 8) in bad and ("qwen2.5-7b", 16) in bad
    assert ("llama-3.1-70b", 16) not in bad and ("deepseek-v3", 16) not in bad


def _rejects(model_id, tp):
    try:
        check_tp(MODELS[model_id], tp)
    except PlacementError:
        return True
    return False


# ------------------------------------------------------------ the review's cases, on the pages

def _number(text):
    value, unit = text.split()
    return float(value.replace(",", "")) * {"tok/s": 1, "ktok/s": 1e3}[unit]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_case1_llama2_7b_a100_batch32_ctx4096_796_on_both_pages(lang):
    # 13.21 GB of weights read (6.738e9 - the 131.1 M untied input table, gathered) + 32 x 4096
    # x 2·32·128·32·2 B = 68.72 GB of KV, over 2.039 TB/s: 40.18 ms per step, 32 / 40.18 ms =
    # 796 tok/s (the Decode page said 4.94 ktok/s without the cache, the Model page 793).
    params = dict(model="llama-2-7b", batch="32", context="4096")
    dec = open_app_page(DECODE, lang, **params)
    mod = open_app_page(MODEL, lang, **params)
    assert metric(dec, "decode.metric.throughput") == "796 tok/s"
    assert metric(mod, "model.metric.decode_tps") == "796 tok/s"
    # 13.48 GB + 68.72 GB = 82.2 GB of 85.9 GB: within the GPU, not within the 10 % reserve
    assert dec.warning and mod.warning


def test_case2_llama31_70b_16_h100_kv_per_gpu_divided_by_kv_heads():
    # 8 KV heads on 16 GPUs: each GPU holds 64 x 2·8·128·80·8192·2 B / 8 = 21.47 GB of cache
    # and 8.858 GB of weights read (tests/calc/test_inference.py derives it):
    # 64 / ((8.858 + 21.475) GB / 3.35 TB/s) = 7.07 ktok/s on Decode, Model and Plans alike
    params = dict(model="llama-3.1-70b", device="h100-sxm", tp="16", batch="64", context="8192")
    dec = open_app_page(DECODE, "en", **params)
    mod = open_app_page(MODEL, "en", **params)
    assert metric(dec, "decode.metric.throughput") == "7.07 ktok/s" == metric(mod, "model.metric.decode_tps")
    plan = evaluate(Plan(kind=SERVING, model="llama-3.1-70b", device="h100-sxm", n_gpus=16,
                         batch=64, context=8192), DEVICES, None, MODELS)
    assert plan.total == pytest.approx(7068, rel=2e-3)
    assert "21.5 GB" in " ".join(s.value for s in dec.success)       # the KV per GPU


def test_case3_deepseek_v3_fp8_8_h200_batch64_32k_does_not_fit():
    # The latent cache is on every GPU: 64 x 32768 x 576 x 61 x 2 B = 147.4 GB per GPU, plus
    # the FP8 weights (671.03e9 - 1.03e9 replicated) / 8 + 1.03e9 = 84.8 GB: 232 GB > 151.4 GB
    # (141 GiB).  Decode shows the memory, no speed; Plans says "no".
    dec = open_app_page(DECODE, "en", model="deepseek-v3", device="h200-sxm", weights="fp8",
                        tp="8", batch="64", context="32768")
    m = metrics(dec)
    assert m["Memory per GPU, batch 64"] == "232 GB" and m["Memory of one GPU"] == "151 GB"
    assert not any("tok/s" in v for k, v in m.items() if "64" in k)
    plan = evaluate(Plan(kind=SERVING, model="deepseek-v3", device="h200-sxm", n_gpus=8,
                         weights="fp8", batch=64, context=32768), DEVICES, None, MODELS)
    assert plan.fits == "no"


@pytest.mark.parametrize("page", [DECODE, MODEL])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tp_that_does_not_divide_the_heads_is_rejected_on_both_pages(page, lang):
    # Llama-2-7B has 32 attention heads: 3 GPUs cannot take whole heads, on either page, with
    # the same message (calc.placement.check_tp through ui.widgets.tp_input)
    at = open_app_page(page, lang, model="llama-2-7b", tp="3")
    errors = " ".join(e.value for e in at.error)
    heads = {"en": "attention heads", "zh": "注意力头"}[lang]     # the page's language
    assert "32" in errors and heads in errors
    assert not [m for m in at.metric if "tok/s" in m.value]


def test_old_decode_link_gpus_is_tp_and_validated():
    # gpus=3 on an old Decode link is read as tp = 3 and rejected like tp=3 (32 heads)
    at = open_app_page(DECODE, "en", model="llama-2-7b", gpus="3")
    assert "32 attention heads" in " ".join(e.value for e in at.error)
    assert at.query_params["tp"] == "3" and "gpus" not in at.query_params


def test_training_cluster_size_does_not_become_decode_tp():
    # "GPUs" means the cluster on Training: 1,024 H100 there must not become a 1,024-GPU
    # tensor-parallel group on Decode (it was "24.5 ktok/s for one request" for Llama-70B)
    at = open_app_page("pages/3_Training_time.py", "en", model="llama-3.1-70b", gpus="1024",
                       device="h100-sxm")
    at.switch_page(DECODE)
    at.run()
    assert not at.exception
    assert at.text_input(key="tp").value == "1"
