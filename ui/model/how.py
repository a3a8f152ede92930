"""'How this is computed' on the Model page: the formulas of the largest operators and the
step's totals with this page's numbers substituted (ui.formula)."""
from __future__ import annotations

from calc.model_ops import ModelOps
from ui.formula import count, formula, si, text
from ui.frame import how_computed
from ui.model.inputs import StepInputs


def how_formulas(ctx, ops: ModelOps, inputs: StepInputs) -> list:
    """The formulas, with this step's numbers, in the sidebar precision's unit (FLOP, or OP
    at INT8: ``ctx.op()``)."""
    t = ctx.t
    by_key = {}
    for o in ops.operators:
        by_key.setdefault(o.key, o)
    items = [formula(r"T = B \times q = @b \times @q = @T", t("model.how.tokens"),
                     b=count(ops.batch), q=count(ops.new_tokens), T=count(ops.tokens))]
    qkv = by_key["qkv"]
    items.append(formula(
        r"F_{\text{QKV}} = @flops,\; \text{bytes} = @bytes,\; I = \frac{F}{\text{bytes}} = @i",
        t("model.how.gemm", op=ctx.op()), flops=si(qkv.flops, ctx.op()), bytes=si(qkv.bytes_moved, "B"),
        i=text(f"{qkv.intensity:.3g} {ctx.op()}/B")))
    att = by_key.get("attn_fused") or by_key.get("attn_qk")
    items.append(formula(
        r"F_{\text{attn}} = @flops,\; \text{bytes} = @bytes \;(\text{KV cache } @kv),\; I = @i",
        t("model.how.attention"), flops=si(att.flops, ctx.op()), bytes=si(att.bytes_moved, "B"),
        kv=si(att.kv_bytes, "B"), i=text(f"{att.intensity:.3g} {ctx.op()}/B")))
    if "experts" in by_key:
        e = by_key["experts"]
        items.append(formula(r"D = E\left(1 - \left(1 - \tfrac{k}{E}\right)^{T}\right) = @d",
                             t("model.how.experts"), d=text(f"{e.detail['experts_hit']:.3g}")))
    items.append(formula(
        r"t_{\text{step}} = \sum_{\text{ops}} n_{\text{layers}} \max\left(\frac{F}{P_{\text{peak}}},"
        r"\frac{\text{bytes}}{B_{\text{mem}}}\right) = @step \quad (P = @peak,\; B = @bw)",
        t("model.how.step"), step=si(ops.step_seconds, "s"), peak=si(ops.peak_flops, ctx.op() + "/s"),
        bw=si(ops.mem_bw, "B/s")))
    if ops.phase == "decode":
        items.append(formula(r"\text{tok/s} = \frac{B}{t_{\text{step}}} = \frac{@b}{@step} = @tps",
                             t("model.how.tokens_per_s"), b=count(ops.batch),
                             step=si(ops.step_seconds, "s"), tps=si(ops.tokens_per_s, "tok/s")))
    return items


def render_how(ctx, ops: ModelOps, inputs: StepInputs) -> None:
    how_computed(ctx.t, how_formulas(ctx, ops, inputs))
