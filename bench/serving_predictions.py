"""Serving, predicted vs published: calc.serving's bound and estimate for each published
serving run of ../shared/reference/published-figures.md and of published_mfu.toml's
[[serving]] rows.  Prints the README tables ("Serving: predicted vs published": the runs,
the offline maximum throughput against TensorRT-LLM's throughput table, the first-token
latency at batch 1 against its latency table) and the aiconfigurator sizing the text
quotes.

Nothing here is fitted: the estimate is calc.serving.published_efficiency() (gpt-fast's
measured bandwidth band, Calculon's GEMM and network efficiencies, the family's best
published MFU) and each device's network from hardware.toml.  tests/calc/test_serving.py
checks every row against its published figure.

    python bench/serving_predictions.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calc.hardware import load_hardware  # noqa: E402
from calc.models import load_models  # noqa: E402
from calc.published import load_published  # noqa: E402
from calc.serving import (BOUND, SpecDecode, cost_per_mtok, max_throughput,  # noqa: E402
                          serving_point, size_deployment)

MODELS = load_models()
DEVICES = load_hardware()
# gpt-fast's weight formats in our storage precisions: int8 is 1 byte (our FP8 storage);
# int4 with a 16-bit scale per 32 is 0.5 + 2/32 = 0.5625 bytes (our FP4 storage: the same)
STORAGE = {"int8": "fp8", "int4": "fp4", "bf16": "bf16"}
GPT_FAST_MODELS = {"Llama-2-7B": "llama-2-7b", "Llama-2-70B": "llama-2-70b"}


def _row(run: str, published: str, bound: str, estimate: str, ratio: float | None) -> str:
    return f"| {run} | {published} | {bound} | {estimate} | {'—' if ratio is None else f'{ratio:.2f}'} |"


def gpt_fast_rows() -> list[str]:
    """gpt-fast README (published_mfu.toml [[decode]]): batch 1, a 5-token prompt."""
    out = []
    for row in load_published().decode:
        kw = dict(device=DEVICES[row.device], gpus=row.n_gpus, weights=STORAGE[row.weights],
                  kv_dtype="bf16", act="bf16", isl=5, osl=200, concurrency=1)
        arch = MODELS[GPT_FAST_MODELS[row.model]]
        bound = serving_point(arch, efficiency=BOUND, **kw).tokens_per_s_per_user
        est = serving_point(arch, **kw).tokens_per_s_per_user
        out.append(_row(f"gpt-fast {row.model} {row.weights}, {row.n_gpus} × A100 (330 W), batch 1",
                        f"{row.tokens_per_s:g} tok/s", f"{bound:.0f}", f"{est:.0f}",
                        est / row.tokens_per_s))
    return out


def speculative_rows() -> list[str]:
    """gpt-fast's 70B int4 + 7B int4 draft (48.4 tok/s) and EAGLE's 13B (71.5 tok/s), at the
    stated α = 0.8, γ = 4 (Leviathan et al.'s worked example, not these pairs' measured α)."""
    a100 = DEVICES["a100-80gb-sxm"]
    draft = SpecDecode(method="draft", alpha=0.8, gamma=4, draft=MODELS["llama-2-7b"], alpha_source="stated")
    mtp = SpecDecode(method="mtp", alpha=0.8, gamma=4, alpha_source="stated")
    cases = [
        ("gpt-fast Llama-2-70B int4 + 7B int4 draft, 1 × A100 (330 W), batch 1 (α 0.8, γ 4: stated, not measured)",
         48.4, MODELS["llama-2-70b"], dict(weights="fp4", isl=5, osl=200), draft),
        ("EAGLE LLaMA2-Chat 13B fp16, 1 × A100, MT-bench (one-layer draft, α 0.8, γ 4: stated)",
         71.5, MODELS["llama-2-13b"], dict(weights="bf16", isl=128, osl=256), mtp),
    ]
    out = []
    for name, published, arch, kw, spec in cases:
        common = dict(device=a100, gpus=1, kv_dtype="bf16", concurrency=1, spec=spec, **kw)
        bound = serving_point(arch, efficiency=BOUND, **common).tokens_per_s_per_user
        est = serving_point(arch, **common).tokens_per_s_per_user
        out.append(_row(name, f"{published:g} tok/s", f"{bound:.0f}", f"{est:.0f}", est / published))
    return out


def aiconfigurator_rows() -> tuple[list[str], str]:
    """aiconfigurator README (a PREDICTION of that tool): Qwen3-32B FP8 on H200, 4000 in /
    500 out / 500 prefix; its best aggregated layout TP 4 at batch 16: 410.22 tok/s per GPU,
    TPOT 9.75 ms; disaggregated 684.79 tok/s per GPU at TTFT ≤ 300 ms, TPOT ≤ 10 ms."""
    arch, h200 = MODELS["qwen3-32b"], DEVICES["h200-sxm"]
    kw = dict(device=h200, gpus=4, weights="fp8", kv_dtype="fp8", isl=4000, osl=500,
              prefix_hit=500 / 4000, concurrency=16)
    bound, est = serving_point(arch, efficiency=BOUND, **kw), serving_point(arch, **kw)
    row = _row("aiconfigurator (PREDICTION) Qwen3-32B FP8, H200, aggregated TP 4 batch 16, 4000/500/500 prefix",
               "410.22 tok/s/GPU (TPOT 9.75 ms)",
               f"{bound.tokens_per_s_per_gpu:.0f} (TPOT {bound.tpot_seconds * 1e3:.1f} ms)",
               f"{est.tokens_per_s_per_gpu:.0f} (TPOT {est.tpot_seconds * 1e3:.1f} ms, "
               f"TTFT {est.ttft_seconds * 1e3:.0f} ms)", est.tokens_per_s_per_gpu / 410.22)
    sized = {}
    for name, eff in (("estimate", None), ("bound", BOUND)):
        dep = size_deployment(arch, device=h200, weights="fp8", kv_dtype="fp8", isl=4000, osl=500,
                              prefix_hit=0.125, request_rate=40, ttft_target=0.3, tpot_target=0.010,
                              efficiency=eff)
        sized[name] = (dep.aggregated.tokens_per_s_per_gpu if dep.aggregated else float("nan"),
                       dep.disaggregated.tokens_per_s_per_gpu if dep.disaggregated else float("nan"))
    text = (f"size_deployment at 40 requests/s, TTFT ≤ 300 ms, TPOT ≤ 10 ms: estimate "
            f"{sized['estimate'][0]:,.0f} tok/s per GPU aggregated, {sized['estimate'][1]:,.0f} "
            f"disaggregated ({sized['estimate'][1] / sized['estimate'][0]:.2f}×); bound "
            f"{sized['bound'][0]:,.0f} and {sized['bound'][1]:,.0f} (aiconfigurator: 410 and 685, 1.67×)")
    return [row], text


def cost_row() -> str:
    """InferenceX's cost formula at its H100 hyperscaler price, $1.30 per GPU-hour."""
    return _row("InferenceX cost formula: H100 at $1.30 per GPU-hour and 2,568 tok/s per GPU",
                "$0.141 / Mtok", "—", f"${cost_per_mtok(1.30, 2568):.4f} (`cost_per_mtok`)",
                cost_per_mtok(1.30, 2568) / 0.141)


def throughput_ratios() -> list[tuple]:
    """(run, isl, osl, published, estimate, ceiling) for every cell of every [[serving]] row
    of published_mfu.toml (TensorRT-LLM's maximum-throughput table): calc.serving.max_throughput
    of the run's replica, output tokens/s of the whole replica."""
    out = []
    for run in load_published().serving:
        arch, dev = MODELS[run.model], DEVICES[run.device]
        for isl, osl, pub in zip(run.isl, run.osl, run.tokens_per_s):
            p = max_throughput(arch, device=dev, gpus=run.n_gpus, weights=run.weights,
                               kv_dtype=run.kv, isl=isl, osl=osl)
            out.append((run, isl, osl, pub, p.tokens_per_s, p.ceiling_tokens_per_s))
    return out


def throughput_table() -> tuple[list[str], str]:
    """The README's second table: one row per (isl, osl), one column per published replica;
    a cell is published → estimate (estimate ÷ published)."""
    cells = throughput_ratios()
    runs = list(dict.fromkeys(c[0] for c in cells))
    head = ["| isl / osl |" + "".join(
        f" {MODELS[r.model].name}, {r.n_gpus} × {r.device.split('-')[0].upper()} |" for r in runs),
        "|---|" + "---|" * len(runs)]
    body = []
    for isl, osl in dict.fromkeys((c[1], c[2]) for c in cells):
        row = f"| {isl} / {osl} |"
        for r in runs:
            c = next(c for c in cells if c[0] is r and c[1] == isl and c[2] == osl)
            row += f" {c[3]:,.0f} → {c[4]:,.0f} ({c[4] / c[3]:.2f}) |"
        body.append(row)
    ratios = sorted(c[4] / c[3] for c in cells)
    n_above = sum(c[5] >= c[3] for c in cells)
    mid = ratios[len(ratios) // 2] if len(ratios) % 2 else 0.5 * (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2])
    summary = (f"{len(cells)} cells: estimate ÷ published {ratios[0]:.2f}-{ratios[-1]:.2f}, median "
               f"{mid:.2f}; the ceiling is at or above the published figure in {n_above} of {len(cells)}")
    return head + body, summary


TTFT_RUNS = (
    # TensorRT-LLM docs/source/performance.md (commit 138f96d4), "Low Latency" (v0.5 data):
    # batch 1, one output token, first-token latency in ms; H100 FP8 (--enable_fp8
    # --fp8_kv_cache), A100 FP16; "LLaMA" = the Llama 2 7B / 70B of its build commands.
    ("llama-2-7b", "h100-sxm", 1, "fp8", 128, 7.0), ("llama-2-7b", "h100-sxm", 1, "fp8", 2048, 36.0),
    ("llama-2-70b", "h100-sxm", 4, "fp8", 128, 26.0), ("llama-2-70b", "h100-sxm", 4, "fp8", 2048, 109.0),
    ("llama-2-7b", "a100-80gb-sxm", 1, "bf16", 128, 16.0), ("llama-2-7b", "a100-80gb-sxm", 1, "bf16", 2048, 133.0),
    ("llama-2-70b", "a100-80gb-sxm", 4, "bf16", 128, 47.0), ("llama-2-70b", "a100-80gb-sxm", 4, "bf16", 2048, 377.0),
)


def ttft_cells() -> list[tuple]:
    """(model, device, tp, precision, isl, published ms, bound ms, estimate ms) for each
    TTFT_RUNS cell: serving_point at one request in flight, the prompt's first token."""
    out = []
    for model, dev, tp, prec, isl, pub in TTFT_RUNS:
        kw = dict(device=DEVICES[dev], gpus=tp, weights=prec, kv_dtype=prec, isl=isl, osl=2, concurrency=1)
        bound = serving_point(MODELS[model], efficiency=BOUND, **kw).ttft_seconds * 1e3
        est = serving_point(MODELS[model], **kw).ttft_seconds * 1e3
        out.append((model, dev, tp, prec, isl, pub, bound, est))
    return out


def ttft_table() -> list[str]:
    """The README's first-token latency table."""
    rows = ["| run (batch 1) | prompt | published | bound | estimate | estimate ÷ published |",
            "|---|---|---|---|---|---|"]
    for model, dev, tp, prec, isl, pub, bound, est in ttft_cells():
        rows.append(f"| {MODELS[model].name} {prec.upper()}, {tp} × {DEVICES[dev].name} | {isl} | "
                    f"{pub:g} ms | {bound:.1f} ms | {est:.1f} ms | {est / pub:.2f} |")
    return rows


def main() -> None:
    print("| published run | published | bound | estimate | estimate ÷ published |")
    print("|---|---|---|---|---|")
    rows, sized = aiconfigurator_rows()
    for line in [*gpt_fast_rows(), *speculative_rows(), *rows, cost_row()]:
        print(line)
    print()
    print(sized)
    print()
    table, summary = throughput_table()
    print("\n".join(table))
    print()
    print(summary)
    print()
    print("\n".join(ttft_table()))


if __name__ == "__main__":
    main()
