"""The Decode page when a model is chosen in the sidebar: memory holds the total weights;
each step reads the dense weights, the experts the batch routes to (uniform routing) and
the KV cache (GQA / MQA / MLA, sliding windows capped); prefill gives the time to first
token; an optional tensor-parallel all-reduce time is added per token.

Every number comes from calc.models and calc.decode; this module lays out the results and
builds the "How this is computed" formulas with the numbers substituted.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from calc.decode import (achieved_bandwidth, aggregate, bandwidth_utilisation, fits_in_memory,
                         max_batch_in_memory)
from calc.models import (ModelArch, decode_critical_batch, decode_step, decode_weight_bytes,
                         expected_distinct_experts, kv_bytes_per_token, kv_cache_bytes_per_seq,
                         param_counts, prefill_flops, prefill_flops_params, prefill_seconds,
                         time_to_first_token, tp_allreduce_seconds_per_token)
from calc.units import format_si
from ui.figures.decode import batch_figure, decode_roofline_figure
from ui.figures.roofline import Roof
from ui.formula import Formula, count, formula, latex, si, text
from ui.i18n import Translator
from ui.widgets import format_quantity
from ui.numbers import plural


def _tps(x: float) -> str:
    return format_si(x, "tok/s")


def decode_model_results(ctx, t: Translator, arch: ModelArch, *, bpp: float, weights: str,
                         n_gpus: float, batch: int, use_kv: bool, context: float | None,
                         kv_bpe: float, measured: float | None, prompt: float | None,
                         tp_comm: bool, curve_batches: np.ndarray) -> list[Formula]:
    """Draw the model-aware decode results; return the formulas for 'How this is computed'."""
    c = float(context) if use_kv and context is not None else 0.0
    bw = aggregate(ctx.mem_bw, n_gpus)
    peak = aggregate(ctx.peak_flops, n_gpus)
    pc = param_counts(arch)
    link = ctx.device.interconnect_bytes_per_s if ctx.device is not None else None
    comm_on = tp_comm and n_gpus > 1 and bool(link)

    def comm(b):
        if not comm_on:
            return 0.0 * np.asarray(b, dtype=float) if not np.isscalar(b) else 0.0
        return tp_allreduce_seconds_per_token(arch, b, n_gpus, link / 2.0, 2.0)

    def step(b):
        s = decode_step(arch, b, c, bpp, kv_bpe, peak, bw)
        secs = np.asarray(s.seconds) + np.asarray(comm(b))
        return s, secs

    s1, t1 = step(1.0)
    sb, tb = step(float(batch))
    bound_b1 = 1.0 / float(t1)
    thr, per = batch / float(tb), 1.0 / float(tb)
    knee = decode_critical_batch(arch, c, bpp, kv_bpe, peak, bw)

    w_total = pc.total * bpp
    kv_seq = float(kv_cache_bytes_per_seq(arch, c, kv_bpe))
    kv_total = batch * kv_seq
    device_mem = ctx.device.memory_bytes if ctx.device is not None else None
    mem = aggregate(device_mem, n_gpus) if device_mem else None
    fits_b1 = mem is None or fits_in_memory(w_total, mem, kv_seq)
    fits_now = mem is None or fits_in_memory(w_total, mem, kv_total)
    max_fit = max_batch_in_memory(w_total, mem, kv_seq) if mem is not None else None

    # As the page's own metrics: a batch that does not fit shows the memory it needs (and
    # the GPUs' memory) instead of a speed.
    c1, c2, c3 = st.columns(3)
    if fits_b1:
        c1.metric(t("decode.metric.bound"), _tps(bound_b1), help=t("model.decode.bound_help"))
    else:
        c1.metric(t("decode.metric.needs", batch=1), format_si(w_total + kv_seq, "B"),
                  help=t("model.decode.bound_help"))
    if fits_now:
        c2.metric(t("decode.metric.throughput", batch=batch), _tps(thr),
                  help=t("decode.metric.throughput_help"))
        c3.metric(t("decode.metric.per_request", batch=batch), _tps(per),
                  help=t("decode.metric.per_request_help"))
    else:
        c2.metric(t("decode.metric.needs", batch=batch), format_si(w_total + kv_total, "B"),
                  help=t("decode.metric.throughput_help"))
        c3.metric(t("decode.metric.has", batch=batch), format_si(mem, "B"),
                  help=t("decode.metric.throughput_help"))

    read_b1 = float(s1.weight_bytes)
    read_b = float(sb.weight_bytes)
    if not fits_b1:
        st.error(t("model.decode.no_fit_b1", total=format_si(w_total, "B"),
                   kv=format_si(kv_seq, "B"), mem=format_si(mem, "B"),
                   gpus=plural(t, "common.n_gpus", n_gpus), weights=weights.upper()),
                 icon=":material/error:")
    else:
        st.info(t("model.decode.headline", bw=format_si(bw, "B/s"), read=format_si(read_b1, "B"),
                  kv=format_si(kv_seq, "B"), bound=_tps(bound_b1), weights=weights.upper(),
                  total=format_si(w_total, "B")), icon=":material/bolt:")
    if arch.is_moe:
        d1 = float(expected_distinct_experts(arch.n_experts, arch.experts_per_token, 1))
        db = float(expected_distinct_experts(arch.n_experts, arch.experts_per_token, batch))
        st.caption(t("model.decode.moe" if batch > 1 else "model.decode.moe_b1", batch=batch, d=f"{db:.1f}", d1=f"{d1:g}",
                     e=arch.n_experts, read=format_si(read_b, "B"), total=format_si(w_total, "B"),
                     active=format_si(pc.active * bpp, "B")))
    if comm_on:
        st.caption(t("model.decode.comm", time=format_si(float(comm(float(batch))), "s"),
                     gpus=f"{n_gpus:,.0f}", link=format_si(link / 2.0, "B/s")))
    elif tp_comm and n_gpus > 1:
        st.caption(t("model.decode.comm_unknown"))

    if np.isfinite(knee) and curve_batches[0] < knee < curve_batches[-1]:
        curve_batches = np.union1d(curve_batches, [knee])   # the curves' corner, drawn exactly
    curve_s, curve_t = step(curve_batches)
    curve_thr = curve_batches / curve_t
    curve_per = 1.0 / curve_t
    fig = batch_figure(t, curve_batches, curve_thr, curve_per, knee=knee,
                       current=(batch, thr, per), max_fit=max_fit)
    st.plotly_chart(fig, config=ctx.chart_config("decode_batch"), key="decode_batch")
    if np.isfinite(knee):
        _, tk = step(float(knee))
        st.markdown(t("decode.knee_text", knee=f"{knee:,.0f}", thr=_tps(knee / float(tk)),
                      per=_tps(bound_b1)))
    else:
        st.markdown(t("decode.knee_never"))

    render_memory_fit(t, w_total, kv_total, mem, n_gpus, fits_now=fits_now, use_kv=use_kv,
                      max_fit=max_fit, kv_seq=kv_seq)
    if measured is not None:
        render_measured(t, measured, read_b, batch, kv_total, bw)

    ttft = None
    if prompt is not None:
        st.subheader(t("model.decode.prefill_heading"))
        ttft = float(prefill_seconds(arch, prompt, bpp, peak, bw))
        pf = float(prefill_flops(arch, prompt))
        pread = float(decode_weight_bytes(arch, prompt, bpp))
        p1, p2, p3 = st.columns(3)
        p1.metric(t("model.decode.ttft"), format_si(ttft, "s"), help=t("model.decode.ttft_help"))
        p2.metric(t("model.decode.per_token"), format_si(float(t1), "s"),
                  help=t("model.decode.per_token_help"))
        p3.metric(t("model.decode.prefill_flops"), format_si(pf, "FLOP"),
                  help=t("model.decode.prefill_flops_help"))
        bound_by = "compute" if pf / peak >= pread / bw else "memory"
        st.caption(t(f"model.decode.prefill_{bound_by}", prompt=f"{prompt:,.0f}",
                     compute=format_si(pf / peak, "s"), memory=format_si(pread / bw, "s")))

    st.subheader(t("decode.roofline_heading"))
    roof = Roof(label=f"{ctx.device_label()} · {t('common.prec.' + ctx.precision)}",
                peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw)
    steps = [1] if batch == 1 else [1, batch]
    works = [s1] if batch == 1 else [s1, sb]
    names = [t("decode.step_name", batch=b) for b in steps]
    rfig = decode_roofline_figure(t, roof, names, [float(w.flops) for w in works],
                                  [float(w.bytes) for w in works])
    st.plotly_chart(rfig, config=ctx.chart_config("decode_roofline"), key="decode_roofline")
    i1 = float(s1.flops) / float(s1.bytes)
    mfu1 = float(s1.flops) / (float(t1) * peak)
    mfub = float(sb.flops) / (float(tb) * peak)
    st.markdown(t("model.decode.roofline_text", intensity=f"{i1:.2g}",
                  ridge=format_si(roof.ridge, "FLOP/B"), mfu1=f"{mfu1:.2%}", batch=batch,
                  mfub=f"{mfub:.1%}"))

    # ------------------------------------------------------------ How this is computed
    B, P = si(bw, "B/s"), si(peak, "FLOP/s")
    kvpt = float(kv_bytes_per_token(arch, kv_bpe))
    items: list[Formula] = [
        formula(r"W_{\text{mem}} = N_{\text{total}} \times b_w = @n \times @bpp = @w",
                t("model.how.decode_total"), n=format_quantity(pc.total), bpp=si(bpp, "B"),
                w=si(w_total, "B")),
    ]
    if arch.is_moe:
        items.append(formula(
            r"\begin{aligned} D(b) &= E\left(1 - \left(1 - \tfrac{k}{E}\right)^{b}\right) = "
            r"@e \left(1 - \left(1 - \tfrac{@k}{@e}\right)^{@b}\right) = @d \\ W_{\text{read}}(b) &= "
            r"\left(N_{\text{total}} - N_{\text{routed}}\right) b_w + L_{\text{moe}}\,D(b)\,"
            r"N_{\text{expert}}\,b_w = @read\end{aligned}",
            t("model.how.decode_moe"), e=count(arch.n_experts), k=count(arch.experts_per_token),
            b=count(batch), d=text(f"{float(expected_distinct_experts(arch.n_experts, arch.experts_per_token, batch)):.2f}"),
            read=si(read_b, "B")))
    else:
        items.append(formula(r"W_{\text{read}} = @read", t("model.how.decode_dense"),
                             read=si(read_b, "B")))
    if arch.is_mla:
        kv_tex = (r"KV_{\text{tok}} = (r_{kv} + d_{\text{rope}}) \times L \times b_{kv} = "
                  r"(@r + @rope) \times @l \times @e = @kvpt")
        kv_vals = dict(r=count(arch.kv_lora_rank), rope=count(arch.qk_rope_head_dim))
    else:
        kv_tex = (r"KV_{\text{tok}} = 2 \times H_{kv} \times d_{\text{head}} \times L \times b_{kv}"
                  r" = 2 \times @h \times @hd \times @l \times @e = @kvpt")
        kv_vals = dict(h=count(arch.n_kv_heads), hd=count(arch.head_dim))
    items.append(formula(kv_tex, t("model.how.decode_kv", ctx=f"{c:,.0f}", seq=format_si(kv_seq, "B"),
                                   windows=t("model.how.decode_windows") if arch.sliding_window else ""),
                         l=count(arch.n_layers), e=si(kv_bpe, "B"), kvpt=si(kvpt, "B"), **kv_vals))
    items.append(formula(
        r"\begin{aligned} t_{\text{step}} &= \max\left(\frac{W_{\text{read}} + b\,KV_{\text{seq}}}"
        r"{B_{\text{mem}}},\;\frac{b\,(2N_{\text{active}} + A_{\text{ctx}})}{P_{\text{peak}}}\right)"
        r" + t_{\text{comm}} \\ &= \max\left(\frac{@bytes}{@bw},\;\frac{@flops}{@peak}\right) + @comm"
        r" \\ \text{tok/s} &= \frac{b}{t_{\text{step}}} = @thr\end{aligned}",
        t("model.how.decode_step", batch=batch), bytes=si(float(sb.bytes), "B"), bw=B,
        flops=si(float(sb.flops), "FLOP"), peak=P, comm=si(float(comm(float(batch))), "s"),
        thr=_tps(thr)))
    items.append(formula(r"b^{*}:\ \frac{\text{bytes}(b)}{B_{\text{mem}}} = \frac{\text{FLOP}(b)}"
                         r"{P_{\text{peak}}} \Rightarrow b^{*} = @knee", t("model.how.decode_knee"),
                         knee=f"{knee:,.0f}" if np.isfinite(knee) else latex(r"\infty")))
    if ttft is not None:
        items.append(formula(
            r"t_{\text{first}} = \max\left(\frac{P\,(2N_{\text{body}} + A_{\text{causal}}) + 2N_{\text{head}}}"
            r"{P_{\text{peak}}},\;\frac{W_{\text{read}}(P)}{B_{\text{mem}}}\right) = "
            r"\max\left(\frac{@pf}{@peak},\;\frac{@pread}{@bw}\right) = @ttft",
            t("model.how.prefill"), pf=si(pf, "FLOP"), peak=P, pread=si(pread, "B"), bw=B,
            ttft=si(ttft, "s")))
    if comm_on:
        items.append(formula(
            r"t_{\text{comm}} = L \times 2 \times \frac{2(t-1)}{t} \times \frac{b\,d\,e}{B_{\text{link}}}"
            r" = @l \times 2 \times \frac{2 \times (@t - 1)}{@t} \times \frac{@b \times @d \times 2\,\text{B}}"
            r"{@link} = @time", t("model.how.comm"), l=count(arch.n_layers), t=count(n_gpus),
            b=count(batch), d=count(arch.d_model), link=si(link / 2.0, "B/s"),
            time=si(float(comm(float(batch))), "s")))
    return items


def prefill_params_section(t: Translator, *, n_params: float, bpp: float, prompt: float,
                           peak: float, bw: float, per_token_s: float) -> Formula:
    """Prefill for "Custom: parameters only": 2·N·P FLOP (no attention term) against one
    read of the weights; returns the formula for 'How this is computed'."""
    st.subheader(t("model.decode.prefill_heading"))
    pf = float(prefill_flops_params(n_params, prompt))
    w = n_params * bpp
    ttft = float(time_to_first_token(pf, w, peak, bw))
    p1, p2, p3 = st.columns(3)
    p1.metric(t("model.decode.ttft"), format_si(ttft, "s"), help=t("model.decode.ttft_help"))
    p2.metric(t("model.decode.per_token"), format_si(per_token_s, "s"),
              help=t("model.decode.per_token_help"))
    p3.metric(t("model.decode.prefill_flops"), format_si(pf, "FLOP"),
              help=t("model.decode.prefill_flops_params_help"))
    bound_by = "compute" if pf / peak >= w / bw else "memory"
    st.caption(t(f"model.decode.prefill_{bound_by}", prompt=f"{prompt:,.0f}",
                 compute=format_si(pf / peak, "s"), memory=format_si(w / bw, "s"))
               + " " + t("model.decode.prefill_params_note"))
    return formula(r"t_{\text{first}} = \max\left(\frac{2\,N\,P}{P_{\text{peak}}},\;\frac{N\,b_w}"
                   r"{B_{\text{mem}}}\right) = \max\left(\frac{@pf}{@peak},\;\frac{@w}{@bw}\right) = @ttft",
                   t("model.how.prefill_params"), pf=si(pf, "FLOP"), peak=si(peak, "FLOP/s"),
                   w=si(w, "B"), bw=si(bw, "B/s"), ttft=si(ttft, "s"))


def render_memory_fit(t, weight_bytes, kv_total, mem, n_gpus, *, fits_now, use_kv, max_fit,
                      kv_seq) -> None:
    """Weights + KV cache against the GPUs' memory (with 10 % reserve, then without), and the
    largest batch that fits; shared by the Decode page with and without a model."""
    if mem is None:
        st.caption(t("decode.memory_unknown"))
        return
    args = dict(model=format_si(weight_bytes, "B"), kv=format_si(kv_total, "B"),
                mem=format_si(mem, "B"), gpus=plural(t, "common.n_gpus", n_gpus))
    if fits_in_memory(weight_bytes, mem, kv_total, reserve_fraction=0.1):
        st.success(t("decode.fits", **args), icon=":material/check_circle:")
    elif fits_now:
        st.warning(t("decode.fits_tight", **args), icon=":material/warning:")
    else:
        st.error(t("decode.no_fit", **args), icon=":material/error:")
    if use_kv and max_fit is not None and np.isfinite(max_fit):
        st.caption(t("decode.max_fit", batch=f"{max_fit:,.0f}", kv=format_si(kv_seq, "B"))
                   if max_fit >= 1 else t("decode.max_fit_none"))


def render_measured(t, measured, read_bytes, batch, kv_total, bw) -> None:
    """A measured decode speed turned into achieved bandwidth and its share of the bound."""
    ach = achieved_bandwidth(measured, read_bytes, batch, kv_total)
    mbu = bandwidth_utilisation(ach, bw)
    msg = t("decode.measured_result", measured=format_si(measured, "tok/s"),
            ach=format_si(ach, "B/s"), bw=format_si(bw, "B/s"), mbu=f"{mbu:.0%}")
    if mbu > 1.0:
        st.error(msg + " " + t("decode.measured_over"), icon=":material/error:")
    else:
        st.info(msg + " " + t("decode.measured_advice"), icon=":material/speed:")
