"""The training records: FLOP per token (calc.training_flops), a measured run's MFU
(calc.mfu.measured_mfu) and a planned run (calc.training.training_run).  Expected values by
hand in the comments (seed chapter 04, PaLM App. B, the models' config.json)."""
import pytest

from calc.mfu import IMPOSSIBLE_HFU_CAUSES, IMPOSSIBLE_MFU_CAUSES, measured_mfu
from calc.models import load_models
from calc.training import training_run
from calc.training_flops import CAUSAL_DEFAULT, flops_per_token, params_only_arch


@pytest.fixture(scope="module")
def catalog():
    return load_models()


def test_one_causal_default_llama_31_70b(catalog):
    # Defect 1b: Llama-3.1-70B at seq 4096.  N_active = 70,553,706,496 − 128256 × 8192 (input
    # embedding) = 69,503,033,344; 6N = 417,018,200,064.
    # causal: A = 80 × 2 × 2048 keys × (8192 + 8192) = 5,368,709,120; 3A = 16,106,127,360
    #   -> 433,124,327,424 = 433 GFLOP (the default everywhere)
    # full matrix: 3A = 32,212,254,720 -> 449,230,454,784 = 449 GFLOP (causal=False)
    a = catalog["llama-3.1-70b"]
    assert CAUSAL_DEFAULT is True
    assert flops_per_token(a, 4096).model == pytest.approx(433_124_327_424)
    assert flops_per_token(a, 4096, causal=False).model == pytest.approx(449_230_454_784)


def test_parameters_only_is_a_dense_architecture_with_n_given():
    # The seed: 7B -> 6 × 7e9 = 42 GFLOP per token without the attention term (seq 0);
    # with 32 layers of 4096 at seq 32768, the full matrix: + 12 × 32 × 4096 × 32768 = 5.154e10
    seed = flops_per_token(params_only_arch(7e9), 0)
    assert seed.model == 4.2e10 and seed.attention == 0
    long = flops_per_token(params_only_arch(7e9, 32, 4096), 32768, causal=False)
    assert long.model == pytest.approx(4.2e10 + 12 * 32 * 4096 * 32768)
    # a width that is no multiple of 128 is still counted whole: 4 × 3000 × 4096 keys per layer
    odd = flops_per_token(params_only_arch(7e9, 1, 3000), 4096, causal=False)
    assert odd.attention_forward == pytest.approx(4 * 3000 * 4096)


def test_recompute_model_and_hardware_flops():
    # N = 7e9, A = 4 × 32 × 4096 × 2048 (causal, seq 4096) = 1.0737e9:
    # none 6N + 3A; selective 6N + 4A; full 8N + 4A (PaLM App. B; Korthikanti §5)
    arch = params_only_arch(7e9, 32, 4096)
    A = 4 * 32 * 4096 * 2048
    f = {r: flops_per_token(arch, 4096, recompute=r) for r in ("none", "selective", "full")}
    assert all(x.model == pytest.approx(4.2e10 + 3 * A) for x in f.values())
    assert f["none"].hardware == pytest.approx(4.2e10 + 3 * A)
    assert f["selective"].hardware == pytest.approx(4.2e10 + 4 * A)
    assert f["full"].hardware == pytest.approx(5.6e10 + 4 * A)
    with pytest.raises(ValueError, match="recompute"):
        flops_per_token(arch, 4096, recompute="some")


def test_measured_mfu_reproduces_the_seed():
    # 6 × 7e9 × 12 000 / (8 × 312e12) = 5.04e14 / 2.496e15 = 20.19 %: "low"; 63 TFLOP/s per GPU;
    # 1 500 tok/s per GPU; target 45 %: 0.45 × 2.496e15 / 4.2e10 = 26 743 tok/s
    r = measured_mfu(flops_per_token(params_only_arch(7e9), 0), 12_000, 8, 312e12, target_mfu=0.45)
    assert r.mfu == pytest.approx(0.201923, rel=1e-5) and r.hfu == r.mfu
    assert r.band.key == "low" and r.verdict == "ok" and r.causes == ()
    assert r.achieved_flops_per_gpu == pytest.approx(6.3e13)
    assert r.tokens_per_s_per_gpu == 1500
    assert r.target_tokens_per_s == pytest.approx(26_742.857, rel=1e-6)
    # typed per GPU: 1 500 tok/s -> 2.52 %; × 8 = 20.2 % would be plausible: 12 000 tok/s
    mix = measured_mfu(flops_per_token(params_only_arch(7e9), 0), 1_500, 8, 312e12)
    assert mix.per_gpu_mfu == pytest.approx(0.201923, rel=1e-5)
    assert mix.per_gpu_tokens_per_s == pytest.approx(12_000)


def test_measured_mfu_and_hfu_above_100_are_impossible():
    # Defect 4: 7B on 8 × A100 at 46k tok/s, seq 4096, full recompute, the full score matrix:
    # model 6N + 12·L·h·s = 4.2e10 + 6.442e9 = 4.844e10 -> 4.844e10 × 46e3 / 2.496e15 = 89.3 %
    # hardware 8N + 4A = 5.6e10 + 4 × 2.147e9 = 6.459e10 -> 119.0 %: impossible, named cause
    f = flops_per_token(params_only_arch(7e9, 32, 4096), 4096, causal=False, recompute="full")
    r = measured_mfu(f, 46_000, 8, 312e12)
    assert round(r.mfu, 3) == 0.893 and round(r.hfu, 3) == 1.190
    assert r.verdict == "hfu_impossible" and r.causes == IMPOSSIBLE_HFU_CAUSES
    assert "recompute_counted_twice" in r.causes
    # 100k tok/s: 6 × 7e9 × 1e5 / 2.496e15 = 168 %: the MFU itself is impossible
    r = measured_mfu(flops_per_token(params_only_arch(7e9), 0), 100_000, 8, 312e12)
    assert r.verdict == "mfu_impossible"
    assert set(r.causes) == {"peak_too_small", "flops_too_high", "time_too_short"}
    assert r.causes == IMPOSSIBLE_MFU_CAUSES


def test_training_run_reproduces_the_seed():
    # C = 6 × 7e9 × 1e12 = 4.2e22; 64 × 312e12 × 0.45 = 8.9856e15 -> 4.674e6 s = 54.10 days;
    # at 25 %: 97.38 days, 43.28 days and 149,573 − 83,096 = 66,477 GPU-hours apart;
    # 30 days: 4.2e22 / (2.592e6 × 312e12 × 0.45) = 115.4 -> 116 GPUs; price 2: 166,192
    run = training_run(flops_per_token(params_only_arch(7e9), 0), 1e12, 64, 312e12, 0.45,
                       price_per_gpu_hour=2.0, deadline_days=30, compare_mfu=0.25,
                       published_gpu_hours=83_095.9)
    assert run.total_flops == pytest.approx(4.2e22)
    assert round(run.days, 1) == 54.1 and round(run.compare_days, 1) == 97.4
    assert run.gpu_hours == pytest.approx(83_095.9, abs=0.1)
    assert run.cost == pytest.approx(166_191.8, abs=0.1)
    assert run.gain.gpu_hours == pytest.approx(66_476.7, abs=0.1)
    assert run.saved_seconds == pytest.approx(43.279 * 86400, rel=1e-4)
    assert run.gpus_for_deadline == pytest.approx(115.41, abs=0.01)
    assert run.gpus_for_deadline_whole == 116
    assert run.implied_mfu == pytest.approx(0.45, rel=1e-5) and run.implied_verdict == "ok"
    assert run.hfu == 0.45 and run.verdict == "ok"


def test_training_run_hfu_above_100_is_impossible():
    # Defect 4 (Training page): MFU 80 % with full recompute, parameters only (A = 0):
    # HFU = 80 % × 8N / 6N = 106.7 %: impossible
    f = flops_per_token(params_only_arch(7e9), 0, recompute="full")
    run = training_run(f, 1e12, 64, 312e12, 0.80)
    assert run.hfu == pytest.approx(0.8 * 8 / 6)
    assert run.verdict == "hfu_impossible" and run.causes == IMPOSSIBLE_HFU_CAUSES
    # GPU-hours that would need more than the peak: 4.2e22 / (1e4 h × 3600 × 312e12) = 374 %
    run = training_run(f, 1e12, 64, 312e12, 0.45, published_gpu_hours=1e4)
    assert run.implied_verdict == "mfu_impossible"
