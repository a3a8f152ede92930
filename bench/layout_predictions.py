"""Training layouts, predicted vs published: calc.parallel.training_step for the layout of
each published run, against what the run measured.  Prints the README table
("Training layouts: predicted vs published").

Nothing here is fitted: every constant is calc.parallel's cited one.  Where a source does not
give a setting (schedule, recompute), the row says what was assumed.  Compared quantity:
MFU where the source prints a model-FLOPs MFU (Llama 3, Megatron-LM), tokens/s per GPU where
its FLOP count is another (MosaicML and Narayanan et al. count non-causal attention,
Narayanan et al. the recomputed forward too; tokens/s does not depend on a definition) or
where it prints a time (Korthikanti et al.).

    python bench/layout_predictions.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calc.arch import ModelArch  # noqa: E402
from calc.hardware import load_hardware  # noqa: E402
from calc.models import load_models  # noqa: E402
from calc.parallel import custom_network, training_step  # noqa: E402


def _megatron_gpt(size: str, n_layers: int, d_model: int, n_heads: int, *,
                  paper: str = "Korthikanti 2022", source: str = "arXiv:2205.05198 Table 3") -> ModelArch:
    """A Megatron-LM GPT of Narayanan et al. 2021 (arXiv:2104.04473) Table 1 or Korthikanti
    et al. 2022 (arXiv:2205.05198) Table 3 (learned positions 2,048, LayerNorm, GELU FFN
    4·d, tied embeddings) at its layers, hidden size and heads;
    vocabulary 51,200, Narayanan et al.'s (the same padded GPT-2 BPE; Korthikanti's table
    does not print it)."""
    return ModelArch(id=f"megatron-gpt-{size.lower()}", name=f"GPT {size} ({paper})",
                     source=source, n_layers=n_layers, d_model=d_model,
                     n_heads=n_heads, n_kv_heads=n_heads, head_dim=d_model // n_heads,
                     ffn_size=4 * d_model, vocab_size=51200, ffn_kind="plain",
                     tied_embeddings=True, norm="layernorm", learned_positions=2048,
                     context_length=2048)


# GPT 1T of Narayanan et al. 2021, Table 1: 128 layers, hidden 25600, 160 heads.
GPT_1T = _megatron_gpt("1T", 128, 25600, 160, paper="Narayanan 2021", source="arXiv:2104.04473 Table 1")


def _mpt_benchmark(size: str, n_layers: int, d_model: int, n_heads: int) -> ModelArch:
    """The llm-foundry benchmark's small MPTs (its ``NumParams`` column, to the parameter:
    1,315,950,592 and 2,651,837,440): learned positions (2,048), LayerNorm and Linear
    biases, FFN 4·d (GELU), vocabulary 50,368, tied embeddings."""
    return ModelArch(id=f"mpt-{size}-bench", name=f"MPT-{size.upper()} (llm-foundry benchmark)",
                     source="mosaicml/llm-foundry scripts/train/benchmarking/README.md",
                     n_layers=n_layers, d_model=d_model, n_heads=n_heads, n_kv_heads=n_heads,
                     head_dim=d_model // n_heads, ffn_size=4 * d_model, vocab_size=50368,
                     ffn_kind="plain", tied_embeddings=True, norm="layernorm",
                     learned_positions=2048, context_length=2048, attention_bias="all", mlp_bias=True)


MPT_1B = _mpt_benchmark("1b", 24, 2048, 16)
MPT_3B = _mpt_benchmark("3b", 32, 2560, 20)


def _foundry(model, device: str, gpus: int, *, seq: int, global_batch: int, micro_batch: int,
             recompute: str, published: float):
    """A row of llm-foundry's benchmark tables (FSDP FULL_SHARD = ZeRO-3, tokens/s per GPU):
    ``model`` a catalog id or a ModelArch, the table named by the device."""
    name = model.name.split(" (")[0] if isinstance(model, ModelArch) else model.upper()
    gpu, table = ("H100", "H100 BF16") if device.startswith("h100") else ("A100 80GB", "A100 80GB")
    return (f"{name}, {gpus} × {gpu}, seq {seq}", model, device, gpus,
            dict(seq_len=seq, global_batch=global_batch, micro_batch=micro_batch,
                 recompute=recompute, zero_stage=3),
            published, "tok/s/GPU", f"llm-foundry benchmarks, {table} table", "")


# (label, model, device, GPUs, layout dict, published value, quantity, source, assumptions)
RUNS = [
    ("Llama 3 405B, 8,192 × H100", "llama-3.1-405b", "h100-sxm", 8192,
     dict(tp=8, pp=16, cp=1, seq_len=8192, global_batch=2048, schedule="interleaved", interleave=2,
          recompute="selective", zero_stage=1), 0.43, "mfu",
     "Llama 3 report Table 4", "v = 2, selective recompute"),
    ("Llama 3 405B, 16,384 × H100", "llama-3.1-405b", "h100-sxm", 16384,
     dict(tp=8, pp=16, cp=1, seq_len=8192, global_batch=2048, schedule="interleaved", interleave=2,
          recompute="selective", zero_stage=1), 0.41, "mfu",
     "Llama 3 report Table 4", "v = 2, selective recompute"),
    ("Llama 3 405B, 16,384 × H100, 131k context", "llama-3.1-405b", "h100-sxm", 16384,
     dict(tp=8, pp=16, cp=16, seq_len=131072, global_batch=128, schedule="interleaved", interleave=2,
          recompute="selective", zero_stage=1), 0.38, "mfu",
     "Llama 3 report Table 4", "v = 2, selective recompute"),
    ("GPT-3 175B, 96 × H100", "gpt-3-175b", "h100-sxm", 96,
     dict(tp=8, pp=12, seq_len=2048, global_batch=1152, schedule="interleaved", interleave=2,
          recompute="selective", zero_stage=1), 0.47, "mfu",
     "Megatron-LM README, strong scaling", "layout tp 8 · pp 12, v = 2 (not printed)"),
    ("GPT-3 175B, 4,608 × H100", "gpt-3-175b", "h100-sxm", 4608,
     dict(tp=8, pp=12, seq_len=2048, global_batch=1152, schedule="interleaved", interleave=2,
          recompute="selective", zero_stage=1), 0.42, "mfu",
     "Megatron-LM README, strong scaling", "layout tp 8 · pp 12, v = 2 (not printed)"),
    # DeepSeek-V3 report (arXiv 2412.19437) §1 / §3.2: 180K H800 GPU-hours per trillion
    # tokens on 2,048 H800 = 1e12 / (180e3 · 3600) = 1,543 tokens/s per GPU; PP 16, EP 64,
    # no TP, DualPipe, ZeRO-1; §4.2: sequence 4K, batch 15,360 sequences.
    ("DeepSeek-V3 671B, 2,048 × H800", "deepseek-v3", "h800-sxm", 2048,
     dict(tp=1, pp=16, ep=64, seq_len=4096, global_batch=15360, schedule="dualpipe",
          recompute="selective", zero_stage=1, precision="fp8"), 1543, "tok/s/GPU",
     "DeepSeek-V3 report §1, §3.2, §4.2", "every GEMM and attention at the FP8 peak (the run keeps attention in BF16), selective recompute"),
]

# What every Megatron-era A100 run below shares: sequence 2,048, attention unfused (before
# FlashAttention) with Megatron's default dropout 0.1 as a kernel of its own.
MEGATRON_2022 = dict(seq_len=2048, flash_attention=False, attention_dropout=True)


# Narayanan et al. 2021 (arXiv:2104.04473), Table 1: the weak-scaling runs of Megatron-LM's
# PTD-P on Selene (A100 80GB), fp16, sequence 2,048, vocabulary 51,200, full activation
# recomputation.  "Achieved teraFLOP/s per GPU" divides their Eq. 3 FLOP count by the time;
# Eq. 3 counts every attention score (non-causal, as their unfused kernels compute them) and
# the recomputed forward, neither of which calc.training_flops' HFU counts the same way, so
# the rows compare tokens/s per GPU = achieved FLOP/s ÷ Eq. 3's FLOP per token,
#     96·l·h²·(1 + s/(6h) + V/(16·l·h))   (Eq. 3 ÷ B·s),
# which does not depend on a FLOP count.  The table prints the layout but not the
# micro-batch (1 assumed) nor the interleaving depth (§5.1: the interleaved schedule is on
# for these runs; assumed the smallest depth > 1 that splits each stage's layers evenly).
# (billions, heads, hidden, layers, tp, pp, GPUs, batch, achieved TFLOP/s per GPU)
NARAYANAN = [
    ("1.7B", 24, 2304, 24, 1, 1, 32, 512, 137),
    ("3.6B", 32, 3072, 30, 2, 1, 64, 512, 138),
    ("7.5B", 32, 4096, 36, 4, 1, 128, 512, 142),
    ("18B", 48, 6144, 40, 8, 1, 256, 1024, 135),
    ("39B", 64, 8192, 48, 8, 2, 512, 1536, 138),
    ("76B", 80, 10240, 60, 8, 4, 1024, 1792, 140),
    ("145B", 96, 12288, 80, 8, 8, 1536, 2304, 148),
    ("310B", 128, 16384, 96, 8, 16, 1920, 2160, 155),
    ("530B", 128, 20480, 105, 8, 35, 2520, 2520, 163),
    ("1T", 160, 25600, 128, 8, 64, 3072, 3072, 163),
]


def narayanan_flops_per_token(layers: int, hidden: int, seq: int = 2048, vocab: int = 51200) -> float:
    """Narayanan et al. 2021 Eq. 3 per token: 96·l·h²·(1 + s/(6h) + V/(16·l·h))   [FLOP]."""
    return 96.0 * layers * hidden**2 * (1 + seq / (6 * hidden) + vocab / (16 * layers * hidden))


def _interleave_depth(n_layers: int, pp: int) -> int:
    """The smallest v > 1 dividing each stage's n_layers ÷ pp layers (1 without a pipeline)."""
    per_stage = n_layers // pp
    return 1 if pp == 1 else next(v for v in range(2, per_stage + 1) if per_stage % v == 0)


def _narayanan(size: str, heads: int, hidden: int, layers: int, tp: int, pp: int, gpus: int,
               batch: int, tflops: float):
    arch = _megatron_gpt(size, layers, hidden, heads, paper="Narayanan 2021",
                         source="arXiv:2104.04473 Table 1")
    v = _interleave_depth(layers, pp)
    return (f"GPT {size}, {gpus:,} × A100", arch, "a100-80gb-sxm", gpus,
            dict(MEGATRON_2022, tp=tp, pp=pp, global_batch=batch, micro_batch=1,
                 schedule="interleaved" if v > 1 else "1f1b", interleave=v, recompute="full",
                 zero_stage=0, sequence_parallel=False, precision="fp16"),
            tflops * 1e12 / narayanan_flops_per_token(layers, hidden), "tok/s/GPU",
            f"Narayanan et al. 2021, Table 1 ({tflops} TFLOP/s per GPU ÷ Eq. 3 per token)",
            "; ".join(x for x in (f"v = {v}" if v > 1 else "", "micro-batch 1",
                                  "attention unfused (2021: before FlashAttention), with dropout") if x))


RUNS += [_narayanan(*row) for row in NARAYANAN]


# Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models":
# measured seconds per iteration on Selene (DGX A100 80GB), fp16, sequence 2,048, DP 1,
# no FlashAttention (2022), for full recomputation (tensor-parallel all-reduces) and for the
# paper's "present work" (selective recomputation + sequence parallelism).  The iteration
# times and layouts as calculon-ai/calculon restates them (calculon/megatron/validation.py
# kProfile; validation/*_full.json, *_seqsel.json), the interleaving depth among them.
# (model, GPUs, pp, global batch, micro-batch, interleave, s/iteration full, present work)
KORTHIKANTI = [
    (_megatron_gpt("22B", 48, 6144, 64), 8, 1, 4, 4, 1, 1.42, 1.10),
    (_megatron_gpt("175B", 96, 12288, 96), 64, 8, 64, 1, 3, 18.13, 13.75),
    (_megatron_gpt("530B", 105, 20480, 128), 280, 35, 280, 1, 3, 49.05, 37.83),
    (GPT_1T, 512, 64, 512, 1, 1, 94.42, 71.49),
]


def _korthikanti(arch: ModelArch, gpus: int, pp: int, batch: int, micro_batch: int,
                 interleave: int, seconds: float, mode: str):
    """A row of Korthikanti et al.'s iteration-time table as tokens/s per GPU =
    batch · 2,048 ÷ seconds ÷ GPUs (the same direction as every other row: above 1 is
    optimistic)."""
    full = mode == "full"
    label = (f"{arch.name.split(' (')[0]}, {gpus} × A100, "
             f"{'full recompute' if full else 'selective + sequence parallel'}")
    v = f"v = {interleave} (Calculon's config)" if interleave > 1 else ""
    return (label, arch, "a100-80gb-sxm", gpus,
            dict(MEGATRON_2022, tp=8, pp=pp, global_batch=batch, micro_batch=micro_batch,
                 schedule="interleaved" if interleave > 1 else "1f1b", interleave=interleave,
                 recompute="full" if full else "selective", sequence_parallel=not full,
                 zero_stage=0, precision="fp16"),
            batch * 2048 / seconds / gpus, "tok/s/GPU",
            f"Korthikanti et al. 2022 ({seconds:.2f} s/iteration, via Calculon's validation)",
            "; ".join(x for x in (v, "attention unfused, with dropout") if x))


RUNS += [_korthikanti(arch, gpus, pp, batch, mb, v, sec, mode)
         for arch, gpus, pp, batch, mb, v, full_s, present_s in KORTHIKANTI
         for mode, sec in (("full", full_s), ("present", present_s))]


# BLOOM 176B (BigScience, train/tr11-176B-ml: README and tr11-176B-ml.slurm, commit e726b159):
# 70 layers, hidden 14336, 112 heads, vocabulary padded to 250,880, ALiBi (no position
# table), LayerNorm, GELU FFN 4h, Linear biases, tied embeddings; Megatron-DeepSpeed, bf16,
# TP 4 · PP 12 · DP 8 on 384 A100 80GB, micro-batch 2, global batch 2,048 of 2,048 tokens,
# activation checkpointing (full), its BF16 optimizer's own ZeRO-1, Megatron's default
# dropout 0.1.  Measured, the log line that ends epoch one (iteration 85,376): 104.70 s per
# iteration = 2048 · 2048 / 104.70 / 384 = 104.3 tokens/s per GPU (the log's 149.77 TFLOPs).
BLOOM_176B = ModelArch(id="bloom-176b-bench", name="BLOOM 176B", source="bigscience-workshop/bigscience train/tr11-176B-ml",
                       n_layers=70, d_model=14336, n_heads=112, n_kv_heads=112, head_dim=128,
                       ffn_size=4 * 14336, vocab_size=250880, ffn_kind="plain", tied_embeddings=True,
                       norm="layernorm", context_length=2048, attention_bias="all", mlp_bias=True)
# Jean Zay's A100 nodes: 8 GPUs on NVLink and "4 OmniPath links" per node (the README);
# Omni-Path's link rate is 100 Gb/s, so 4 · 100 / 8 bits / 8 GPUs = 6.25 GB/s per GPU beyond
# the node (a quarter of a DGX A100's 25); NVLink as hardware.toml's A100, Calculon's
# efficiencies as for every network.
_A100 = load_hardware()["a100-80gb-sxm"]
JEAN_ZAY_A100 = custom_network(_A100.scale_up_gpus, _A100.scale_up_bw, 4 * 100e9 / 8 / 8,
                               source="BigScience tr11 README: 8 A100 per node, 4 OmniPath (100 Gb/s) links")
RUNS.append(("BLOOM 176B, 384 × A100", BLOOM_176B, "a100-80gb-sxm", 384,
             dict(MEGATRON_2022, tp=4, pp=12, global_batch=2048, micro_batch=2, schedule="1f1b",
                  recompute="full", sequence_parallel=False, zero_stage=1, network=JEAN_ZAY_A100),
             2048 * 2048 / 104.70 / 384, "tok/s/GPU", "BigScience tr11-176B-ml README (104.70 s/iteration)",
             "Omni-Path 6.25 GB/s per GPU across nodes; DeepSpeed's 1F1B; attention unfused, with dropout"))

# llm-foundry's benchmark tables: (model, device, GPUs, sequence, global batch, micro-batch,
# recompute, published tokens/s per GPU).
FOUNDRY = [
    ("mpt-7b", "h100-sxm", 8, 2048, 48, 6, "none", 10643),
    ("mpt-13b", "h100-sxm", 8, 2048, 16, 2, "none", 4792),
    ("mpt-13b", "h100-sxm", 8, 4096, 240, 10, "full", 4717),
    ("mpt-30b", "h100-sxm", 8, 2048, 504, 3, "full", 2002),
    ("mpt-30b", "h100-sxm", 8, 8192, 168, 1, "full", 1384),
    ("mpt-70b", "h100-sxm", 64, 2048, 2048, 8, "full", 1039),
    (MPT_1B, "h100-sxm", 8, 2048, 112, 14, "none", 45455),
    (MPT_3B, "h100-sxm", 16, 2048, 480, 10, "none", 24142),
    # The same benchmark on A100 80GB (its "1600 Gbps RoCE" table), where the stack reached
    # 53-64 % MFU against 30-46 % on H100.
    ("mpt-7b", "a100-80gb-sxm", 8, 2048, 96, 6, "none", 4641),
    ("mpt-13b", "a100-80gb-sxm", 8, 2048, 48, 2, "none", 2262),
    ("mpt-30b", "a100-80gb-sxm", 8, 2048, 504, 3, "full", 916),
    ("mpt-70b", "a100-80gb-sxm", 64, 2048, 2048, 8, "full", 410),
]
RUNS += [_foundry(m, dev, gpus, seq=seq, global_batch=gb, micro_batch=mb, recompute=rec, published=pub)
         for m, dev, gpus, seq, gb, mb, rec, pub in FOUNDRY]


def predicted(step, quantity: str) -> float:
    if quantity == "mfu":
        return step.mfu
    if quantity == "hfu":
        return step.hfu
    return step.tokens_per_s / step.gpus


def fmt(x: float, quantity: str) -> str:
    """A percentage for MFU and HFU; tokens/s to the token, with a decimal below 100 (the
    large models' few tokens/s per GPU keep three digits)."""
    if quantity in ("mfu", "hfu"):
        return f"{100 * x:.1f} %"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def rows():
    hw, models = load_hardware(), load_models()
    out = []
    for label, model, dev, gpus, layout, published, quantity, source, assumed in RUNS:
        arch = model if isinstance(model, ModelArch) else models[model]
        step = training_step(arch, device=hw[dev], gpus=gpus, **layout)
        pred = predicted(step, quantity)
        out.append((label, step, quantity, pred, published, pred / published, source, assumed))
    return out


def main() -> None:
    print("| run | layout (tp · pp · dp · cp, micro-batch) | quantity | predicted | published | "
          "predicted ÷ published | largest cost besides compute | source; assumed |")
    print("|---|---|---|---|---|---|---|---|")
    for label, s, q, pred, pub, ratio, source, assumed in rows():
        lay = f"{s.tp} · {s.pp} · {s.dp} · {s.cp}, {s.micro_batch}"
        extra = f"{source}; {assumed}" if assumed else source
        print(f"| {label} | {lay} | {q} | {fmt(pred, q)} | {fmt(pub, q)} | {ratio:.2f} | "
              f"{s.largest_exposed} ({100 * s.parts[s.largest_exposed] / s.step_seconds:.0f} %) | {extra} |")


if __name__ == "__main__":
    main()
