"""calc.published: the cited table of published MFU and decode efficiency, and the
"range at this scale" lookup.

Expected values are copied from the sources (published_mfu.toml says which row) and the
selection rule is applied by hand here: parameters within x4, GPUs within x8, same device
family, at least two runs.
"""
import importlib.util
import math
from pathlib import Path

import pytest

from calc.hardware import load_hardware
from calc.published import (PublishedFileError, TrainingRun, decode_efficiency,
                            decode_efficiency_range, device_family, hfu_runs, implied_mfu,
                            load_published, mfu_range)

PUB = load_published()
DEV = load_hardware()


def test_every_row_cites_a_source_with_a_url():
    assert PUB.training and PUB.decode
    for run in PUB.training + PUB.decode:
        src = PUB.sources[run.source]
        assert src.url.startswith("https://") and run.where
    # spot checks against the sources' own tables
    mpt13 = [r for r in PUB.training if r.model == "MPT-13B" and r.device == "h100-sxm" and r.n_gpus == 8]
    assert [r.mfu for r in mpt13] == [pytest.approx(0.3979)]          # MosaicML H100 13b/2048/8
    palm = next(r for r in PUB.training if r.source == "palm")
    assert (palm.mfu, palm.hfu, palm.n_gpus) == (pytest.approx(0.462), pytest.approx(0.578), 6144)
    llama = sorted(r.mfu for r in PUB.training if r.source == "llama3")
    assert llama == [pytest.approx(0.38), pytest.approx(0.41), pytest.approx(0.43)]   # Table 4


def test_serving_rows_are_tensorrt_llm_columns_as_printed():
    # TensorRT-LLM perf overview (commit 00f37686): six columns of ten (isl, osl) cells.
    assert len(PUB.serving) == 6 and all(len(r.isl) == len(r.osl) == len(r.tokens_per_s) == 10
                                         for r in PUB.serving)
    assert all(PUB.sources[r.source].url.startswith("https://") and r.where and r.note for r in PUB.serving)
    h100_8b = next(r for r in PUB.serving if r.model == "llama-3.1-8b" and r.device == "h100-sxm")
    cells = dict(zip(zip(h100_8b.isl, h100_8b.osl), h100_8b.tokens_per_s))
    assert cells[(128, 128)] == 28312 and cells[(2048, 128)] == 3450 and cells[(20000, 2000)] == 1351
    tp2 = next(r for r in PUB.serving if r.model == "llama-3.3-70b" and r.device == "h100-sxm")
    assert tp2.n_gpus == 2 and tp2.tokens_per_s[0] == 6378


def test_hfu_only_rows_stay_out_of_mfu_ranges():
    # Narayanan et al. count recomputation: 52 % is an HFU. A 1T plan on 3072 A100s must
    # not see 52 % as an MFU.
    nar = next(r for r in PUB.training if r.source == "narayanan2021")
    assert nar.mfu is None and nar.hfu == pytest.approx(0.52)
    rng = mfu_range(1e12, 3072, "a100-80gb-sxm", PUB)
    assert nar not in rng.runs



def test_hfu_only_runs_at_175b_on_1024_a100():
    # Window: N in [43.75B, 700B], GPUs in [128, 8192], family a100. HFU-only rows inside:
    # Narayanan et al. Table 1 76.1B / 1024 45 %, 145.6B / 1536 47 %, 310.1B / 1920 50 %,
    # 529.6B / 2520 52 %; BLOOM 176B / 384 48 % (149.77 TFLOP/s ÷ 312). Outside: 39.1B
    # (below 43.75B) and 1T (above 700B). All recompute fully: MFU = HFU × 6N / 8N,
    # 45 × 3/4 = 33.75 %, 52 × 3/4 = 39 %.
    got = hfu_runs(175e9, 1024, "a100-80gb-sxm", PUB)
    assert sorted(r.model for r in got.runs) == ["BLOOM 176B", "GPT 145.6B", "GPT 310.1B",
                                                 "GPT 529.6B", "GPT 76.1B"]
    assert (got.lo, got.hi) == (pytest.approx(0.45), pytest.approx(0.52))
    assert (got.mfu_lo, got.mfu_hi) == (pytest.approx(0.3375), pytest.approx(0.39))
    assert all(r.mfu is None for r in got.runs)


def test_hfu_only_runs_at_the_seed_scale_and_where_there_are_none():
    # 7B on 64 A100s: N in [1.75B, 28B], GPUs in [8, 512]: Narayanan's 3.6B / 64 44 %,
    # 7.5B / 128 46 %, 18.4B / 256 43 % (1.7B is below 1.75B) -> 43-46 %, MFU 32.25-34.5 %.
    got = hfu_runs(7e9, 64, "a100-80gb-sxm", PUB)
    assert sorted(r.model for r in got.runs) == ["GPT 18.4B", "GPT 3.6B", "GPT 7.5B"]
    assert (got.mfu_lo, got.mfu_hi) == (pytest.approx(0.3225), pytest.approx(0.345))
    # every HFU-only row is an A100 row: none on H100, none without a device; never widened
    assert hfu_runs(7e9, 64, "h100-sxm", PUB) is None
    assert hfu_runs(7e9, 64, None, PUB) is None
    assert hfu_runs(7e9, 1, "a100-80gb-sxm", PUB) is None       # GPUs in [0.125, 8]: none


def test_implied_mfu_follows_the_recomputation():
    row = dict(source="x", model="m", n_params=1e9, device="a100-80gb-sxm", n_gpus=8,
               mfu=None, seq_len=None, where="w")
    assert implied_mfu(TrainingRun(**row, hfu=0.48, recompute=True)) == pytest.approx(0.36)
    assert implied_mfu(TrainingRun(**row, hfu=0.48, recompute=False)) == pytest.approx(0.48)
    assert implied_mfu(TrainingRun(**row, hfu=0.48, recompute=None)) is None
    assert implied_mfu(TrainingRun(**row, hfu=None, recompute=True)) is None

def test_seed_plan_7b_on_64_a100():
    # Window: N in [1.75B, 28B], GPUs in [8, 512], family a100. MosaicML A100 rows inside:
    # 80GB 13b/8 59.57, 7b/8 64.23, 7b(4096)/8 54.84; 40GB 13b/128 51.93, 7b/128 50.14,
    # 7b/64 50.73  ->  50.14 % .. 64.23 %, six runs, no widening.
    rng = mfu_range(7e9, 64, "a100-80gb-sxm", PUB)
    assert (rng.lo, rng.hi) == (pytest.approx(0.5014), pytest.approx(0.6423))
    assert len(rng.runs) == 6 and rng.same_family and not rng.widened


def test_llama3_scale_on_h100():
    # 405B on 16,384 H100: N in [101B, 1.62T], GPUs in [2048, 131072]: the three Llama 3
    # rows (38, 41, 43 %) and Megatron's GPT-3 175B on 4608 GPUs (42 %) -> 38 % .. 43 %.
    rng = mfu_range(405e9, 16384, "h100-sxm", PUB)
    assert (rng.lo, rng.hi) == (pytest.approx(0.38), pytest.approx(0.43))
    assert {r.source for r in rng.runs} == {"llama3", "megatron"}


def test_widening_and_other_families():
    # One run only in the x4/x8 window on TPU v4 (PaLM): the window widens on the same
    # family, still one TPU v4 row, so it falls back to every device at the first level.
    rng = mfu_range(540e9, 6144, "tpu-v4", PUB)
    assert not rng.same_family and not rng.widened
    assert any(r.source == "palm" for r in rng.runs)
    # An AMD part has no published rows: other devices, flagged.
    assert not mfu_range(7e9, 8, "mi300x", PUB).same_family
    # Custom device: no family at all.
    assert mfu_range(7e9, 64, None, PUB) is not None


def test_device_family():
    assert device_family("a100-80gb-sxm") == device_family("a100-40gb-sxm") == "a100"
    assert device_family("h200-sxm") == device_family("h100-nvl") == "h100"
    assert device_family("tpu-v5e") == "tpu-v5e" and device_family("tpu-v4") == "tpu-v4"


def test_decode_efficiency_from_gpt_fast():
    # Llama-2-70B int8 on one A100 80GB SXM: 1322.58 GB/s / 2039 GB/s = 0.6486.
    row = next(r for r in PUB.decode if r.model == "Llama-2-70B" and r.weights == "int8")
    assert decode_efficiency(row, DEV) == pytest.approx(1322.58 / 2039)
    # One GPU: int4 7B 862.69 (lowest) .. int8 70B 1322.58 (highest), of 2039.
    rng = decode_efficiency_range(1, PUB, DEV)
    assert (rng.lo, rng.hi) == (pytest.approx(862.69 / 2039), pytest.approx(1322.58 / 2039))
    assert rng.same_gpus and len(rng.runs) == 4
    # 8 GPUs: one row only, so every row is used (lowest is TP 8: 704.10 / 2039 = 0.345).
    rng8 = decode_efficiency_range(8, PUB, DEV)
    assert not rng8.same_gpus and rng8.lo == pytest.approx(704.10 / 2039)


@pytest.mark.parametrize("text,needle", [
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[training]]\nsource='b'\nmodel='m'\n"
     "n_params=1\ndevice='x'\nn_gpus=1\nmfu_pct=40\nwhere='w'\n", "training[0]: source 'b'"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[training]]\nsource='a'\nmodel='m'\n"
     "n_params=1\ndevice='x'\nn_gpus=1\nmfu_pct=140\nwhere='w'\n", "mfu_pct is a percentage"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[training]]\nsource='a'\nmodel='m'\n"
     "n_params=1\ndevice='x'\nn_gpus=1\nwhere='w'\n", "needs mfu_pct or hfu_pct"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[decode]]\nsource='a'\nmodel='m'\n"
     "n_params=1\ndevice='x'\nweights='int8'\nn_gpus=1\nbatch=1\ntokens_per_s=-3\n"
     "achieved_gbs=1\nwhere='w'\n", "decode[0]: tokens_per_s must be a number > 0"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[serving]]\nsource='a'\nmodel='m'\n"
     "device='x'\nn_gpus=1\nweights='fp8'\nkv='fp8'\nisl=[128, 128]\nosl=[128]\n"
     "tokens_per_s=[1, 2]\nwhere='w'\n", "serving[0]: isl, osl and tokens_per_s must have the same length"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[serving]]\nsource='a'\nmodel='m'\n"
     "device='x'\nn_gpus=1\nweights='fp8'\nkv='fp8'\nisl=[128, 0.5]\nosl=[128, 128]\n"
     "tokens_per_s=[1, 2]\nwhere='w'\n", "serving[0].isl[1]: isl must be a whole number"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\n[[serving]]\nsource='a'\nmodel='m'\n"
     "device='x'\nn_gpus=1\nweights='fp8'\nkv='fp8'\nisl=[]\nosl=[128]\n"
     "tokens_per_s=[1]\nwhere='w'\n", "serving[0]: isl must be a non-empty list"),
    ("[sources.a]\ntitle='t'\nurl='u'\ndefinition='d'\nextra=1\n", "unknown"),
    ("not toml [", "is not valid TOML"),
])
def test_malformed_file_names_row_and_field(tmp_path, text, needle):
    p = tmp_path / "published_mfu.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(PublishedFileError) as exc:
        load_published(p)
    assert needle in str(exc.value) or (needle == "unknown" and "not a known" in str(exc.value))
    assert "published_mfu.toml" in str(exc.value)


def _layout_bench():
    """bench/layout_predictions.py as a module (its RUNS, rows() and the benchmark MPTs)."""
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("layout_predictions",
                                                  root / "bench" / "layout_predictions.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_readme_layout_table_is_what_the_model_predicts_now():
    # The README's "Training layouts: predicted vs published" rows are printed by
    # bench/layout_predictions.py; a change to calc.parallel (or to a model) must rerun it.
    # (DeepSeek-V3's row once stayed at 1.15 after a fix had moved it to 1.19.)
    bench = _layout_bench()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    stale = []
    for label, _step, q, pred, pub, ratio, _source, _assumed in bench.rows():
        row = f"| {label} | "
        line = next((x for x in readme.splitlines() if x.startswith(row)), None)
        cells = [c.strip() for c in line.split("|")[1:-1]] if line else []
        if cells[3:6] != [bench.fmt(pred, q), bench.fmt(pub, q), f"{ratio:.2f}"]:
            stale.append(f"{label}: README {cells[3:6]}, model {bench.fmt(pred, q)}, {ratio:.2f}")
    assert not stale, "rerun python bench/layout_predictions.py into the README:\n" + "\n".join(stale)


def test_benchmark_mpt_architectures_have_the_published_parameter_counts():
    # llm-foundry's benchmark table prints NumParams 1,315,950,592 (1b) and 2,651,837,440 (3b):
    # 1B = 24·12·2048² (blocks) + 50,368·2048 (tied embedding) + 2,048·2048 (learned
    # positions) + 24·9·2048 (Linear biases: q, k, v, out, fc1 ×4, fc2) + (2·24 + 1)·2·2048
    # (LayerNorm weight and bias: two per block and the final one) — the row's model, exactly
    from calc.arch import param_counts
    bench = _layout_bench()
    d = 2048
    by_hand = 24 * 12 * d * d + 50368 * d + 2048 * d + 24 * 9 * d + (2 * 24 + 1) * 2 * d
    assert by_hand == 1_315_950_592
    assert param_counts(bench.MPT_1B).total == 1_315_950_592
    assert param_counts(bench.MPT_3B).total == 2_651_837_440


def test_korthikanti_rows_restate_the_iteration_times_by_hand():
    # Korthikanti et al. 2022 time one iteration (s); the rows compare tokens/s per GPU =
    # batch · 2,048 ÷ seconds ÷ GPUs: 22B full recompute 4 · 2048 / 1.42 / 8 = 721.1,
    # 1T with the paper's method 512 · 2048 / 71.49 / 512 = 28.65.
    bench = _layout_bench()
    by_label = {r[0]: r for r in bench.RUNS}
    assert by_label["GPT 22B, 8 × A100, full recompute"][5] == pytest.approx(721.1, abs=0.1)
    assert by_label["GPT 1T, 512 × A100, selective + sequence parallel"][5] == pytest.approx(28.65, abs=0.01)
    full = by_label["GPT 175B, 64 × A100, full recompute"][4]
    present = by_label["GPT 175B, 64 × A100, selective + sequence parallel"][4]
    assert (full["recompute"], full["sequence_parallel"]) == ("full", False)
    assert (present["recompute"], present["sequence_parallel"]) == ("selective", True)
    assert full["tp"] * full["pp"] == 64 and full["interleave"] == 3


def test_korthikanti_architectures_have_their_names_parameter_counts():
    # 12·L·h² (blocks) + 51,200·h (tied embedding) + 2,048·h (positions), by hand:
    # 22B: 12·48·6144² + 53,248·6144 = 22.07e9; 175B: 12·96·12288² + 53,248·12288 = 174.6e9;
    # 530B: 12·105·20480² + 53,248·20480 = 529.6e9 (biases and norms add < 0.1 %).
    from calc.arch import param_counts
    bench = _layout_bench()
    archs = {a.name: a for a, *_ in bench.KORTHIKANTI}
    for name, by_hand in (("GPT 22B (Korthikanti 2022)", 22.07e9),
                          ("GPT 175B (Korthikanti 2022)", 174.6e9),
                          ("GPT 530B (Korthikanti 2022)", 529.6e9)):
        assert param_counts(archs[name]).total == pytest.approx(by_hand, rel=2e-3), name


def test_narayanan_table_1_rows_by_hand():
    # Narayanan et al. 2021 Table 1 prints achieved teraFLOP/s per GPU of their Eq. 3 count;
    # per token that count is 96·l·h²·(1 + s/6h + V/16lh). 1.7B (l 24, h 2304):
    # 96·24·2304² = 1.22306e10 × (1 + 0.148148 + 0.057870) = 1.47503e10 FLOP, so
    # 137e12 / 1.47503e10 = 9,288 tokens/s per GPU; 1T (l 128, h 25600): 8.0531e12 ×
    # (1 + 0.013333 + 0.000977) = 8.1683e12 FLOP, 163e12 / 8.1683e12 = 19.96. Their parameter
    # column, from 12·l·h² + (51,200 + 2,048)·h by hand: 3.6B = 12·30·3072² + 53,248·3072 =
    # 3.56e9; 145.6B = 12·80·12288² + 53,248·12288 = 145.6e9.
    from calc.arch import param_counts
    bench = _layout_bench()
    by_label = {r[0]: r for r in bench.RUNS}
    assert by_label["GPT 1.7B, 32 × A100"][5] == pytest.approx(9288, abs=1)
    assert by_label["GPT 1T, 3,072 × A100"][5] == pytest.approx(19.96, abs=0.01)
    assert by_label["GPT 1T, 3,072 × A100"][6] == "tok/s/GPU"
    assert param_counts(by_label["GPT 3.6B, 64 × A100"][1]).total == pytest.approx(3.56e9, rel=3e-3)
    assert param_counts(by_label["GPT 145B, 1,536 × A100"][1]).total == pytest.approx(145.6e9, rel=2e-3)
    # interleaving: the smallest depth > 1 dividing the layers per stage (60 / 4 = 15 → 3)
    assert [bench._interleave_depth(l, p) for l, p in ((24, 1), (48, 2), (60, 4), (105, 35), (128, 64))] \
        == [1, 2, 3, 3, 2]
    assert by_label["GPT 76B, 1,024 × A100"][4]["interleave"] == 3


def test_bloom_row_by_hand():
    # BigScience tr11-176B-ml: 104.70 s for 2,048 sequences of 2,048 tokens on 384 GPUs =
    # 104.3 tokens/s per GPU; parameters l·(12h² + 13h) + v·h (the README's own formula,
    # without its position term: ALiBi has none) = 70·2,466,437,120 + 250,880·14,336 =
    # 176,247,214,080, plus the final LayerNorm's 2h; Omni-Path 4 × 100 Gb/s per 8 GPUs.
    from calc.arch import param_counts
    bench = _layout_bench()
    row = next(r for r in bench.RUNS if r[0] == "BLOOM 176B, 384 × A100")
    assert row[5] == pytest.approx(104.32, abs=0.01)
    assert param_counts(bench.BLOOM_176B).total == 176_247_214_080 + 2 * 14336
    assert bench.JEAN_ZAY_A100.tier(16).bandwidth == pytest.approx(6.25e9)
    assert bench.JEAN_ZAY_A100.tier(8).name == "scale_up"


def test_readme_megatron_era_summary_is_the_tables_own():
    # "the 19 Megatron-era A100 rows ... sit at 0.98-1.20, median 1.12": recomputed from the
    # rows, so a change to the model that moves them must rewrite the sentence
    import statistics
    bench = _layout_bench()
    ratios = [r[5] for r in bench.rows()
              if any(k in r[6] for k in ("Narayanan", "Korthikanti", "BigScience"))]
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    claim = (f"Together the {len(ratios)} Megatron-era A100 rows (Narayanan, Korthikanti, BLOOM) sit at\n"
             f"  {min(ratios):.2f}-{max(ratios):.2f}, median {statistics.median(ratios):.2f}")
    assert claim in readme
