"""The Decode page's "How this is computed": the formulas of calc.inference and
calc.placement with the report's numbers substituted (one GPU's bytes, the group's
tokens/s).  No arithmetic: every value is a field of the report or a count of the model."""
from __future__ import annotations

import math

from calc.arch import kv_bytes_per_token, param_counts
from calc.inference import DecodeReport
from calc.placement import weight_split
from calc.units import format_si
from ui.decode.inputs import DecodeInputs
from ui.formula import Formula, count, formula, latex, si, text
from ui.widgets import format_quantity


def _tps(x: float) -> str:
    return format_si(x, "tok/s")


def _weights(t, inputs: DecodeInputs, r: DecodeReport) -> list[Formula]:
    arch, pl, sb = inputs.arch, r.step.placement, r.step
    pc, ws = param_counts(arch), weight_split(arch)
    items = [formula(
        r"W_{\text{GPU}} = \left(\frac{N - N_{kv} - N_{\text{rep}}}{t} + \frac{N_{kv}}{s_{kv}}"
        r" + N_{\text{rep}}\right) b_w,\ N = @n,\ N_{kv} = @nkv,\ N_{\text{rep}} = @nrep,\ "
        r"t = @tp,\ s_{kv} = @split \Rightarrow @w",
        t("decode.how.placement"), n=format_quantity(pc.total), nkv=format_quantity(ws.kv_proj),
        nrep=format_quantity(ws.replicated), tp=count(pl.tp), split=count(pl.kv_split),
        w=si(pl.weight_bytes, "B"))]
    if arch.is_moe:
        items.append(formula(
            r"\begin{aligned} D(b) &= E\left(1 - \left(1 - \tfrac{k}{E}\right)^{b}\right) = "
            r"@e \left(1 - \left(1 - \tfrac{@k}{@e}\right)^{@b}\right) = @d \\ W_{\text{read}}(b) &= "
            r"\left(N_{\text{total}} - E_{\text{in}} + b\,d - N_{\text{routed}}\right) b_w + "
            r"L_{\text{moe}}\,D(b)\,N_{\text{expert}}\,b_w \ \text{(placed as above)} = @read"
            r"\end{aligned}",
            t("arch.how.decode_moe"), e=count(arch.n_experts), k=count(arch.experts_per_token),
            b=count(inputs.batch), d=text(f"{sb.distinct_experts:.2f}"), read=si(sb.weight_bytes, "B")))
    else:
        items.append(formula(
            r"W_{\text{read}}(b) = \left(N_{\text{total}} - E_{\text{in}} + b\,d\right) b_w"
            r"\ \text{(placed as above)} = @read,\ E_{\text{in}} = @ein",
            t("arch.how.decode_dense"), read=si(sb.weight_bytes, "B"),
            ein=format_quantity(pc.embedding if pc.lm_head > 0 else 0.0)))
    return items


def _kv(t, inputs: DecodeInputs, r: DecodeReport) -> Formula:
    arch, pl = inputs.arch, r.step.placement
    kvpt = float(kv_bytes_per_token(arch, inputs.kv_bytes_per_elem))
    if arch.is_mla:
        tex = (r"KV_{\text{tok}} = (r_{kv} + d_{\text{rope}}) \times L \times b_{kv} = "
               r"(@r + @rope) \times @l \times @e = @kvpt")
        vals = dict(r=count(arch.kv_lora_rank), rope=count(arch.qk_rope_head_dim))
    else:
        tex = (r"KV_{\text{tok}} = 2 \times H_{kv} \times d_{\text{head}} \times L \times b_{kv}"
               r" = 2 \times @h \times @hd \times @l \times @e = @kvpt")
        vals = dict(h=count(arch.n_kv_heads), hd=count(arch.head_dim))
    return formula(tex + r",\quad KV_{\text{GPU}} = \frac{b \cdot KV_{\text{seq}}}{s_{kv}} = @kvgpu",
                   t("decode.how.kv_placed", ctx=f"{inputs.context:,.0f}",
                     seq=si(pl.kv_bytes_per_seq, "B"), split=pl.kv_split),
                   l=count(arch.n_layers), e=si(inputs.kv_bytes_per_elem, "B"), kvpt=si(kvpt, "B"),
                   kvgpu=si(pl.kv_bytes, "B"), **vals)


def how_formulas(ctx, inputs: DecodeInputs, r: DecodeReport) -> list[Formula]:
    """The formulas, in the order the results are shown."""
    t, sb = ctx.t, r.step
    items = _weights(t, inputs, r)
    if inputs.kv:
        items.append(_kv(t, inputs, r))
    items.append(formula(
        r"\begin{aligned} t_{\text{step}} &= \max\left(\frac{W_{\text{read}} + KV_{\text{GPU}}}"
        r"{B_{\text{mem}}},\;\frac{b\,(2N_{\text{active}} + A_{\text{ctx}})_{\text{GPU}}}"
        r"{P_{\text{peak}}}\right) + t_{\text{comm}} \\ &= \max\left(\frac{@bytes}{@bw},\;"
        r"\frac{@flops}{@peak}\right) + @comm \\ \text{tok/s} &= \frac{b}{t_{\text{step}}} = @thr"
        r"\end{aligned}",
        t("arch.how.decode_step", batch=inputs.batch), bytes=si(sb.bytes, "B"),
        bw=si(sb.mem_bw, "B/s"), flops=si(sb.flops, ctx.op()), peak=si(sb.peak_flops, ctx.op() + "/s"),
        comm=si(sb.comm_seconds, "s"), thr=_tps(sb.tokens_per_s)))
    items.append(formula(r"b^{*}:\ \frac{\text{bytes}(b)}{B_{\text{mem}}} = \frac{\text{FLOP}(b)}"
                         r"{P_{\text{peak}}} \Rightarrow b^{*} = @knee", t("arch.how.decode_knee"),
                         knee=f"{r.knee:,.0f}" if math.isfinite(r.knee) else latex(r"\infty")))
    if r.prefill is not None:
        pf = r.prefill
        items.append(formula(
            r"t_{\text{first}} = \max\left(\frac{P\,(2N_{\text{body}} + A_{\text{causal}}) + 2N_{\text{head}}}"
            r"{t \cdot P_{\text{peak}}},\;\frac{W_{\text{read}}(P)}{B_{\text{mem}}}\right) = "
            r"\max\left(\frac{@pf}{@peak},\;\frac{@pread}{@bw}\right) = @ttft",
            t("arch.how.prefill"), pf=si(pf.flops_per_gpu, ctx.op()), peak=si(sb.peak_flops, ctx.op() + "/s"),
            pread=si(pf.weight_bytes, "B"), bw=si(sb.mem_bw, "B/s"), ttft=si(pf.seconds, "s")))
    if sb.comm_seconds > 0:
        items.append(formula(
            r"t_{\text{comm}} = L \times 2 \times \frac{2(t-1)}{t} \times \frac{b\,d\,e}{B_{\text{link}}}"
            r" = @time", t("arch.how.comm"), time=si(sb.comm_seconds, "s")))
    return items
