"""calc.plans: plans evaluated with the Training / Decode formulas, baseline ratios, the
share token, the plans file and the CSV.  Expected numbers by hand (seed chapter 04 and
the datasheets in hardware.toml), never from the code under test.
"""
import dataclasses
import csv
import io
import math

import pytest

from calc.hardware import load_hardware
from calc.models import load_models, param_counts
from calc.plans import (MAX_PLANS, SERVING, TRAINING, Plan, PlanTable, ServingResult,
                        TrainingResult, cost_per_million_tokens, decode_plans, default_plans,
                        dump_plans, encode_plans, evaluate, evaluate_all, load_plans,
                        plans_csv, relative)
from calc.published import load_published
from calc.scenario import ScenarioError

DEV = load_hardware()
PUB = load_published()
MODELS = load_models()

SEED = Plan(kind=TRAINING, name="seed 45", n_params=7e9, n_tokens=1e12, device="a100-80gb-sxm",
            n_gpus=64, mfu=0.45)


def test_seed_training_plan():
    # C = 6 x 7e9 x 1e12 = 4.2e22; 64 x 312e12 x 0.45 = 8.9856e15 FLOP/s -> 4.674e6 s
    # = 54.10 days; GPU-hours = 4.2e22 / (312e12 x 0.45) / 3600 = 83,096; price 2 -> 166,192.
    r = evaluate(Plan(**{**SEED.__dict__, "price": 2.0}), DEV, PUB)
    assert isinstance(r, TrainingResult)
    assert r.flops == pytest.approx(4.2e22)
    assert r.days == pytest.approx(4.2e22 / 8.9856e15 / 86400)
    assert round(r.days, 1) == 54.1
    assert r.gpu_hours == pytest.approx(4.2e22 / (312e12 * 0.45) / 3600)
    assert r.cost == pytest.approx(2 * 4.2e22 / (312e12 * 0.45) / 3600)
    # published range 50.14 .. 64.23 % (MosaicML A100 rows, see tests/calc/test_published.py):
    assert r.days_at_hi == pytest.approx(4.2e22 / (64 * 312e12 * 0.6423) / 86400)
    assert r.days_at_lo == pytest.approx(4.2e22 / (64 * 312e12 * 0.5014) / 86400)
    assert r.cost_at_lo == pytest.approx(2 * 4.2e22 / (312e12 * 0.5014) / 3600)
    # GPU-hours at the range's ends: 4.2e22 / (312e12 x MFU) / 3600 (the fast end is fewer)
    assert r.gpu_hours_at_hi == pytest.approx(4.2e22 / (312e12 * 0.6423) / 3600)
    assert r.gpu_hours_at_lo == pytest.approx(4.2e22 / (312e12 * 0.5014) / 3600)
    assert r.memory_per_gpu is None and r.hfu is None


def test_baseline_ratios_seed():
    # 25 % vs 45 %: days scale as 1/MFU -> x 45/25 = 1.8; 97.38 - 54.10 = +43.28 days;
    # cost at 2 per GPU-hour: 4.2e22/3600 x 2 x (1/(312e12 x .25) - 1/(312e12 x .45)).
    slow = Plan(**{**SEED.__dict__, "mfu": 0.25, "price": 2.0})
    fast = Plan(**{**SEED.__dict__, "price": 2.0})
    a, b = evaluate(slow, DEV), evaluate(fast, DEV)
    rel = relative(a, b)
    assert rel.ratio == pytest.approx(1.8)
    assert rel.delta == pytest.approx(4.2e22 / 86400 / (64 * 312e12) * (1 / 0.25 - 1 / 0.45))
    assert round(rel.delta, 1) == 43.3
    assert rel.cost_ratio == pytest.approx(1.8)
    assert rel.cost_delta == pytest.approx(4.2e22 / 3600 * 2 / 312e12 * (1 / 0.25 - 1 / 0.45))
    assert relative(b, b).ratio == 1.0 and relative(b, b).delta == 0.0
    # different kinds and errors are not compared
    serving = evaluate(default_plans()[2], DEV)
    assert relative(serving, b) is None and relative("bad", b) is None
    # serving: the ratio and the delta are of the same quantity, tokens/s per user (here a
    # memory-bound decode on half the bandwidth)
    p = default_plans()[2]
    fast = evaluate(p, DEV)
    slow = evaluate(p, {**DEV, p.device: dataclasses.replace(DEV[p.device], mem_bw=DEV[p.device].mem_bw / 2)})
    rel = relative(slow, fast)
    assert rel.delta == pytest.approx(slow.per_user_at_eff - fast.per_user_at_eff, rel=1e-12)
    assert rel.ratio == pytest.approx(slow.per_user_at_eff / fast.per_user_at_eff, rel=1e-12)


def test_serving_plan_without_kv_reproduces_143_tok_s_kind():
    # 7B bf16 = 14e9 B on one A100 80GB SXM (2039 GB/s): batch 1 step = 14e9/2.039e12 =
    # 6.866 ms -> 145.6 tok/s (the seed's 143 uses 2 TB/s). Prefill of 1024 tokens, the
    # plan's 32 layers x 32 heads x 128 (parameters only is a dense architecture): per token
    # 2 x 7e9 + causal attention 4 x 32 x 32 x 128 x 512 = 1.4268e10 FLOP; x 1024 / 312e12
    # = 46.8 ms > 6.9 ms weight read.
    p = Plan(kind=SERVING, n_params=7e9, device="a100-80gb-sxm", n_gpus=1, batch=1, kv=False,
             prompt_len=1024, output_len=100, efficiency=0.5, price=2.0)
    r = evaluate(p, DEV, PUB)
    assert isinstance(r, ServingResult)
    assert r.step_seconds == pytest.approx(14e9 / 2.039e12)
    assert r.per_user == pytest.approx(2.039e12 / 14e9) == r.total == r.per_gpu
    pf = 1024 * (2 * 7e9 + 4 * 32 * 32 * 128 * 512)
    assert r.ttft == pytest.approx(pf / 312e12)
    assert r.request_seconds == pytest.approx(pf / 312e12 + 100 * 14e9 / 2.039e12)
    assert r.per_user_at_eff == pytest.approx(0.5 * 2.039e12 / 14e9)
    # tokens/s per user at the published efficiency range's ends: the bound x each end
    rng = r.published
    assert rng is not None and rng.lo < rng.hi
    assert r.per_user_lo == pytest.approx(2.039e12 / 14e9 * rng.lo)
    assert r.per_user_hi == pytest.approx(2.039e12 / 14e9 * rng.hi)
    # cost: 2 per hour / 3600 s / 145.64 tok/s x 1e6 = 3.814 per million tokens
    assert r.cost_per_m == pytest.approx(2 / 3600 / (2.039e12 / 14e9) * 1e6)
    assert r.cost_per_m_at_eff == pytest.approx(2 * r.cost_per_m)
    # 14 GB + no KV in 80 GiB (binary capacity) with 10 % free: fits
    assert r.fits == "fits" and r.kv_bytes == 0


def test_serving_plan_kv_tp_and_fit():
    # 70B bf16 on 2 x A100 80GB, batch 8, KV 80 layers x 8 heads x 128 x 4096 x 2 x 2 B
    # = 1.342e9 B per sequence, 10.74e9 for the batch; weights 140e9.  Per GPU (8 KV heads
    # split 2 ways): 70e9 + 5.37e9 = 75.4e9 <= 0.9 x 85.9e9 = 77.3e9 -> fits.  The attention
    # FLOP (4 x 80 x 8 x 128 x 4096 per token, the plan's MHA-like shape) is far below the
    # memory term.
    p = Plan(kind=SERVING, n_params=70e9, device="a100-80gb-sxm", n_gpus=2, batch=8, kv=True,
             n_layers=80, kv_heads=8, head_dim=128, context=4096)
    r = evaluate(p, DEV)
    kv_seq = 2 * 80 * 8 * 128 * 4096 * 2
    assert r.kv_bytes == pytest.approx(8 * kv_seq / 2)
    step = (70e9 + 8 * kv_seq / 2) / 2.039e12
    assert r.step_seconds == pytest.approx(step)
    assert r.total == pytest.approx(8 / step) and r.per_gpu == pytest.approx(4 / step)
    assert r.fits == "fits"
    # batch 64: per GPU 70e9 + 64 x 0.671e9 = 112.9e9 > 85.9e9 -> does not fit
    assert evaluate(Plan(**{**p.__dict__, "batch": 64}), DEV).fits == "no"


def test_catalog_model_plans_use_calc_models():
    arch = MODELS["llama-3.1-8b"]
    p = Plan(kind=TRAINING, model="llama-3.1-8b", n_tokens=15e12, device="h100-sxm", n_gpus=256,
             mfu=0.4, seq_len=8192, recompute="full")
    r = evaluate(p, DEV, PUB, MODELS)
    from calc.models import flops_per_token
    fpt = flops_per_token(arch, 8192, causal=True, recompute="full")
    # time = FLOP/token x D / (GPUs x 989.4e12 x MFU); HFU = MFU x hardware / model FLOP
    peak = DEV["h100-sxm"].peak_flops("bf16")
    assert r.seconds == pytest.approx(fpt.model * 15e12 / (256 * peak * 0.4))
    assert r.hfu == pytest.approx(0.4 * fpt.hardware / fpt.model)
    assert r.memory_per_gpu > 0 and r.fits in ("fits", "tight", "no")
    # MoE serving: memory holds every expert (46.7B x 2 B = 93 GB does not fit one 80 GiB H100)
    s = evaluate(Plan(kind=SERVING, model="mixtral-8x7b", device="h100-sxm", n_gpus=1, batch=1),
                 DEV, None, MODELS)
    assert s.weight_bytes == pytest.approx(param_counts(MODELS["mixtral-8x7b"]).total * 2)
    assert s.fits == "no"
    with pytest.raises(ValueError, match="not in models.toml"):
        evaluate(Plan(kind=SERVING, model="nope"), DEV, None, MODELS)


def test_errors_are_per_plan():
    bad = Plan(kind=TRAINING, device="a100-80gb-sxm", precision="fp8")   # A100 has no fp8
    out = evaluate_all([SEED, bad, Plan(device="nowhere")], DEV)
    assert isinstance(out[0], TrainingResult)
    assert "fp8" in out[1] and "nowhere" in out[2]


def test_cost_per_million_tokens():
    # 1 GPU at 2 per hour making 2000 tok/s: 2 / 3600 / 2000 x 1e6 = 0.2778
    assert cost_per_million_tokens(2.0, 1, 2000) == pytest.approx(0.27777, rel=1e-4)
    assert cost_per_million_tokens(2.0, 8, 2000) == pytest.approx(8 * 0.277777, rel=1e-4)
    with pytest.raises(ValueError):
        cost_per_million_tokens(2.0, 1, 0)


def test_token_and_file_round_trip():
    plans = tuple(default_plans()) + (
        Plan(kind=SERVING, name="custom <b>&", device="custom", peak_flops=1e15, mem_bw=3e12,
             memory_bytes=96e9, n_params=13e9, price=1.25, efficiency=0.55, kv=False),)
    table = PlanTable(plans, 2, "€", "EUR")
    token = encode_plans(table)
    assert token.startswith("1") and len(token) < 1800
    assert decode_plans(token, set(DEV)) == table
    assert load_plans(dump_plans(table), set(DEV)) == table
    assert load_plans(dump_plans(table).encode("utf-8")) == table


@pytest.mark.parametrize("doc,needle", [
    ('{"plans": [{"kind": "training", "mfu": 1.5}]}', "plans[0].mfu must be a fraction"),
    ('{"plans": [{"kind": "flying"}]}', "plans[0].kind must be one of"),
    ('{"plans": [{"n_gpus": 2.5}]}', "plans[0].n_gpus must be a whole number"),
    ('{"plans": [{"device": "custom"}]}', 'a "custom" device needs peak_flops'),
    ('{"plans": [{"device": "tpu-v99"}]}', "unknown device id"),
    ('{"plans": [{}], "baseline": 3}', "baseline must be the index"),
    ('{"plans": [{"price": -1}]}', "plans[0].price must be a finite number"),
    ('{"plans": [{"zero_stage": 5}]}', "plans[0].zero_stage must be 0, 1, 2 or 3"),
])
def test_bad_plans_are_named(doc, needle):
    from calc.scenario import pack_token
    import json
    with pytest.raises(ScenarioError, match=None) as exc:
        decode_plans(pack_token(json.loads(doc)), set(DEV))
    assert needle in str(exc.value)


def test_bad_tokens_and_files():
    for token in ("", "9abc", "1!!!", "1" + "A" * 40):
        with pytest.raises(ScenarioError, match="plan table"):
            decode_plans(token)
    with pytest.raises(ScenarioError, match="format"):
        load_plans('{"format": "roofline-lab.scenario", "version": 1, "plans": []}')
    with pytest.raises(ScenarioError, match="version"):
        load_plans('{"format": "roofline-lab.plans", "version": 7, "plans": []}')
    with pytest.raises(ScenarioError, match="NaN"):
        load_plans('{"format": "roofline-lab.plans", "version": 1, "plans": [{"mfu": NaN}]}')
    from calc.scenario import pack_token
    with pytest.raises(ScenarioError, match=f"at most {MAX_PLANS}"):
        decode_plans(pack_token({"plans": [{}] * (MAX_PLANS + 1)}))


def test_csv_has_every_plan_and_si_columns():
    table = PlanTable(tuple(default_plans()) + (Plan(device="nowhere", name="broken"),), 0,
                      "$", "USD")
    text = plans_csv(table, evaluate_all(table.plans, DEV, PUB))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in rows] == ["7B · 64 × A100 · MFU 45 %", "7B · 64 × A100 · MFU 25 %",
                                         "7B bf16 · 1 × A100 · batch 16", "broken"]
    assert float(rows[0]["days"]) == pytest.approx(4.2e22 / 8.9856e15 / 86400)
    assert rows[0]["is_baseline"] == "true" and rows[1]["vs_baseline_ratio"] != ""
    assert float(rows[1]["vs_baseline_ratio"]) == pytest.approx(1.8)
    assert "cost_USD" in rows[0] and rows[2]["tokens_per_s_total"] != ""
    assert rows[2]["n_tokens"] == "" and rows[0]["batch"] == ""       # other kind left empty
    assert "nowhere" in rows[3]["error"]


def test_csv_numbers_names_and_memory_needed():
    # issue 23 items 10 and 14: MFU typed as "35%" is 35 / 100 = 0.35000000000000003 in
    # binary; the CSV writes 0.35. A name that starts like a formula is escaped with an
    # apostrophe (CSV injection). memory_bytes_total is the memory a serving plan NEEDS:
    # 7e9 x 2 B of bf16 weights = 14e9 B, plus KV 2 (K,V) x 32 layers x 32 heads x 128 x 2 B
    # = 524,288 B per token x 4,096 tokens x 16 sequences = 34,359,738,368 B; the A100's
    # 80 GiB = 85,899,345,920 B is its capacity, in memory_capacity_bytes.
    from calc.units import parse_quantity
    mfu = parse_quantity("35%", kind="fraction")
    assert repr(mfu) == "0.35000000000000003"
    plans = (Plan(kind=TRAINING, name="=HYPERLINK(\"http://x\")", mfu=mfu),
             Plan(kind=SERVING, name="−1+2", n_params=7e9, device="a100-80gb-sxm", n_gpus=1,
                  batch=16))
    table = PlanTable(plans, 0)
    text = plans_csv(table, evaluate_all(table.plans, DEV, PUB))
    assert "0.35000000000000003" not in text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["mfu"] == "0.35"
    assert rows[0]["name"] == "'=HYPERLINK(\"http://x\")" and rows[1]["name"] == "'−1+2"
    assert float(rows[1]["memory_bytes_total"]) == pytest.approx(14e9 + 34_359_738_368)
    assert float(rows[1]["memory_capacity_bytes"]) == pytest.approx(80 * 2 ** 30)


def test_one_csv_writer():
    from calc.csv_out import csv_cell, unescape_cell, write_csv
    # formula starts (= + - − @ TAB CR and the apostrophe itself) escaped, reversibly
    for s in ("=1+1", "+1", "-1", "−1", "@SUM(A1)", "\tx", "\rx", "'x"):
        assert csv_cell(s) == "'" + s and unescape_cell(csv_cell(s)) == s
    assert csv_cell("gemm") == "gemm" and csv_cell(-3) == "-3" and csv_cell(-3.5) == "-3.5"
    assert csv_cell(0.1 + 0.2) == "0.3" and csv_cell(0.1 + 0.2, exact_floats=True) == repr(0.1 + 0.2)
    assert csv_cell(None) == "" and csv_cell(float("nan")) == "" and csv_cell(True) == "true"
    text = write_csv(["name", "x"], [["=cmd", 1.5]], text_columns=("name",))
    assert text == "name,x\n'=cmd,1.5\n"

def test_hfu_above_100_is_impossible_in_plans():
    # Defect 4 (Plans' HFU column): 7B parameters only, MFU 80 %, full recompute:
    # HFU = 80 % x 8N / 6N = 106.7 % > 100 %: impossible (tests/ui/test_plans_report.py: the
    # row says so).
    plan = Plan(**{**SEED.__dict__, "mfu": 0.8, "recompute": "full"})
    r = evaluate(plan, DEV, PUB)
    assert r.hfu == pytest.approx(0.8 * 8 / 6)
    assert r.run.verdict == "hfu_impossible"
    ok = evaluate(Plan(**{**SEED.__dict__, "mfu": 0.7, "recompute": "full"}), DEV, PUB)
    assert ok.run.verdict == "ok"                              # 93.3 %


def test_automatic_names_say_the_precision_when_plans_differ_in_it():
    # Two 7B runs on 64 H100s at MFU 40 %, one BF16 and one FP8: alike but for the precision,
    # so their automatic names must say it (they were the same); a table of BF16 plans only
    # keeps the short names.
    from calc.plans import auto_name, display_name, precision_differs
    from ui.plans.rows import plan_name
    bf16 = Plan(kind=TRAINING, n_params=7e9, device="h100-sxm", precision="bf16", n_gpus=64, mfu=0.40)
    fp8 = dataclasses.replace(bf16, precision="fp8")
    assert auto_name(bf16) == auto_name(fp8) == "7B · 64 × H100 · MFU 40 %"
    assert auto_name(fp8, precision=True) == "7B · 64 × H100 · FP8 · MFU 40 %"
    table = PlanTable(plans=(bf16, fp8))
    assert precision_differs(table.plans, TRAINING) and not precision_differs(table.plans, SERVING)
    names = [plan_name(table, i) for i in range(2)]
    assert names == ["7B · 64 × H100 · BF16 · MFU 40 %", "7B · 64 × H100 · FP8 · MFU 40 %"]
    same = PlanTable(plans=(bf16, dataclasses.replace(bf16, n_gpus=128)))
    assert [plan_name(same, i) for i in range(2)] == ["7B · 64 × H100 · MFU 40 %",
                                                       "7B · 128 × H100 · MFU 40 %"]
    # a typed name is kept either way
    assert display_name(dataclasses.replace(fp8, name="ours"), precision=True) == "ours"
