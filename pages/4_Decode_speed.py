"""Decode-speed page: why generating tokens is bandwidth-bound, and what batching buys.

Every number comes from calc.decode (and calc.roofline for the small roofline); this page
only reads inputs and lays out results.
"""
import numpy as np
import streamlit as st

from calc.decode import (BYTES_PER_PARAM, aggregate,
                         batch1_decode_mfu, batch_for_decode_mfu, bytes_per_param, critical_batch,
                         decode_intensity, decode_memory_bytes, decode_mfu, decode_step_work,
                         decode_tokens_per_s, fits_in_memory, kv_cache_bytes,
                         max_batch_in_memory, max_decode_tokens_per_s, model_bytes,
                         per_sequence_tokens_per_s)
from calc.units import format_si
from ui.figures.decode import batch_figure, curve_batches, decode_roofline_figure
from ui.figures.roofline import Roof
from ui.formula import formula, latex, si
from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.plans.add import serving_setup_button
from ui.model_decode import (decode_model_results, prefill_params_section, render_measured,
                              render_memory_fit)
from ui.model_sections import model_params_note
from ui.numbers import plural
from ui.state import bound, set_value
from ui.widgets import (COUNT, bound_checkbox, bound_select,
                        format_quantity, quantity_input)

ctx = page_frame("decode")
t = ctx.t
model = ctx.model           # None: "Custom: parameters only" (N × bytes per weight)

WEIGHT_OPTIONS = ["bf16", "fp16", "fp8", "int8", "int4"]
KV_OPTIONS = ["bf16", "fp16", "fp8", "int8"]
BATCH_OPTIONS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
CURVE_BATCHES = curve_batches()


def tps(x: float) -> str:
    return format_si(x, "tok/s")


def seed_example() -> None:
    """Button callback: the seed's example, 7B in bf16 on a 2 TB/s device, batch 1."""
    for key, value in (("params", "7B"), ("weights", "bf16"), ("device", "custom"),
                       ("peak", "312T"), ("bw", "2 TB/s"), ("gpus", "1"), ("batch", 1),
                       ("kv", False), ("model", "custom")):
        set_value(key, value)
    for key in ("params__slider", "peak__slider", "bw__slider"):
        st.session_state.pop(key, None)


st.title(t("decode.title"))
st.markdown(t("decode.intro"))
st.button(t("decode.seed_button"), on_click=seed_example, help=t("decode.seed_button_help"),
          icon=":material/science:")

@calculator("decode")
def decode_calculator() -> None:
    """Inputs, results, the two charts and how they are computed (one fragment)."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        st.subheader(t("decode.inputs_heading"))
        if model is None:
            n_params = quantity_input(t, t("decode.params"), "params", "7B", kind="count",
                                      help=t("decode.params_help"), slider=(1e8, 2e12))
        else:
            n_params = model_params_note(t, model)
        weights = bound_select(t("decode.weights"), WEIGHT_OPTIONS, "weights", index=0,
                               format_func=lambda p: t("decode.dtype_label", name=p.upper(),
                                                       bytes=f"{BYTES_PER_PARAM[p]:g}"),
                               help=t("decode.weights_help"))
        n_gpus = quantity_input(t, t("decode.gpus"), "gpus", "1", kind="count", bounds=COUNT,
                                help=t("decode.gpus_help"))
        batch = bound(st.select_slider, t("decode.batch"), key="batch", options=BATCH_OPTIONS,
                      value=1, help=t("decode.batch_help"),
                      is_valid=lambda v: v in BATCH_OPTIONS)
        with st.expander(t("decode.kv_heading") if model is None else t("model.decode.kv_heading"),
                         expanded=model is not None):
            use_kv = bound_checkbox(t("decode.kv"), "kv", value=False, help=t("decode.kv_help"))
            if model is None:
                n_layers = quantity_input(t, t("decode.layers"), "layers", "32", kind="count",
                                          bounds=COUNT, help=t("decode.layers_help"))
                kv_heads = quantity_input(t, t("decode.kv_heads"), "kv_heads", "32", kind="count",
                                          bounds=COUNT, help=t("decode.kv_heads_help"))
                head_dim = quantity_input(t, t("decode.head_dim"), "head_dim", "128", kind="count",
                                          bounds=COUNT, help=t("decode.head_dim_help"))
            else:
                n_layers, kv_heads, head_dim = model.n_layers, model.n_kv_heads, model.head_dim
                st.caption(t("model.decode.kv_from_model"))
            context = quantity_input(t, t("decode.context"), "context", "4096", kind="count",
                                     bounds=COUNT, help=t("decode.context_help"),
                                     slider=(128, 2e6))
            kv_dtype = bound_select(t("decode.kv_dtype"), KV_OPTIONS, "kv_dtype", index=0,
                                    format_func=lambda p: t("decode.dtype_label", name=p.upper(),
                                                            bytes=f"{BYTES_PER_PARAM[p]:g}"),
                                    help=t("decode.kv_dtype_help"))
        measured = quantity_input(t, t("decode.measured"), "measured", "", unit="tok/s",
                                  kind="token_rate", help=t("decode.measured_help"),
                                  placeholder="120 tok/s", optional=True)
        prompt = quantity_input(t, t("model.decode.prompt"), "prompt", "", kind="count",
                                bounds=COUNT, help=t("model.decode.prompt_help"),
                                placeholder="2048", optional=True)
        if model is not None:
            tp_comm = bound_checkbox(t("model.decode.tp_comm"), "tp_comm", value=False,
                                     help=t("model.decode.tp_comm_help"))
        else:
            tp_comm = False
        serving_setup_button(ctx, n_params, weights, n_gpus, batch, use_kv, n_layers, kv_heads,
                             head_dim, context, kv_dtype, prompt=prompt, tp_comm=tp_comm)

    formulas: list = []
    kv_ok = n_layers is not None and kv_heads is not None and head_dim is not None \
        and context is not None
    ok = ctx.ready and n_params is not None and n_gpus is not None

    with results:
        st.subheader(t("decode.results_heading"))
        if not ok:
            st.warning(t("common.missing_inputs"))
        elif use_kv and not kv_ok:
            st.warning(t("decode.kv_missing"))
        elif model is not None:
            formulas = decode_model_results(
                ctx, t, model, bpp=bytes_per_param(weights), weights=weights, n_gpus=n_gpus,
                batch=batch, use_kv=use_kv, context=context, kv_bpe=bytes_per_param(kv_dtype),
                measured=measured, prompt=prompt, tp_comm=tp_comm, curve_batches=CURVE_BATCHES)
        else:
            bpp = bytes_per_param(weights)
            w_bytes = model_bytes(n_params, bpp)
            bw = aggregate(ctx.mem_bw, n_gpus)
            peak = aggregate(ctx.peak_flops, n_gpus)
            if use_kv:
                kv_elem = bytes_per_param(kv_dtype)
                kv_seq = kv_cache_bytes(n_layers, kv_heads, head_dim, context, 1, kv_elem)
                kv_total = kv_cache_bytes(n_layers, kv_heads, head_dim, context, batch, kv_elem)
            else:
                kv_seq = kv_total = 0.0
            bound_b1 = max_decode_tokens_per_s(w_bytes, bw, kv_seq)
            thr = decode_tokens_per_s(batch, n_params, bpp, peak, bw, kv_bytes_per_seq=kv_seq)
            per = per_sequence_tokens_per_s(batch, n_params, bpp, peak, bw, kv_bytes_per_seq=kv_seq)
            knee = critical_batch(n_params, bpp, peak, bw, kv_seq)

            # Memory: weights + KV cache against the GPUs' memory (None: the custom device has none).
            device_mem = ctx.device.memory_bytes if ctx.device is not None else None
            mem = aggregate(device_mem, n_gpus) if device_mem else None
            need_b1 = decode_memory_bytes(w_bytes, kv_seq, 1)
            need_now = decode_memory_bytes(w_bytes, kv_seq, batch)
            fits_b1 = mem is None or fits_in_memory(w_bytes, mem, kv_seq)
            fits_now = mem is None or fits_in_memory(w_bytes, mem, kv_total)
            max_fit = max_batch_in_memory(w_bytes, mem, kv_seq) if mem is not None else None

            # A throughput the memory cannot hold is never headlined: the metric shows the
            # memory it would need instead.
            c1, c2, c3 = st.columns(3)
            if fits_b1:
                c1.metric(t("decode.metric.bound"), tps(bound_b1), help=t("decode.metric.bound_help"))
            else:
                c1.metric(t("decode.metric.needs", batch=1), format_si(need_b1, "B"),
                          help=t("decode.metric.bound_help"))
            if fits_now:
                c2.metric(t("decode.metric.throughput", batch=batch), tps(thr),
                          help=t("decode.metric.throughput_help"))
                c3.metric(t("decode.metric.per_request", batch=batch), tps(per),
                          help=t("decode.metric.per_request_help"))
            else:
                c2.metric(t("decode.metric.needs", batch=batch), format_si(need_now, "B"),
                          help=t("decode.metric.throughput_help"))
                c3.metric(t("decode.metric.has", batch=batch), format_si(mem, "B"),
                          help=t("decode.metric.throughput_help"))
            if not fits_b1:
                st.error(t("decode.headline_no_fit", need=format_si(need_b1, "B"),
                           mem=format_si(mem, "B"), gpus=plural(t, "common.n_gpus", n_gpus)),
                         icon=":material/error:")
            elif use_kv:
                st.info(t("decode.headline_kv", bw=format_si(bw, "B/s"), model=format_si(w_bytes, "B"),
                          kv=format_si(kv_seq, "B"), bound=tps(bound_b1), weights=weights.upper(),
                          without=tps(max_decode_tokens_per_s(w_bytes, bw))),
                        icon=":material/bolt:")
            else:
                st.info(t("decode.headline", bw=format_si(bw, "B/s"), model=format_si(w_bytes, "B"),
                          bound=tps(bound_b1), weights=weights.upper()), icon=":material/bolt:")
            why_link(t, 8)

            batches = curve_batches(knee)
            curve_thr = decode_tokens_per_s(batches, n_params, bpp, peak, bw,
                                              kv_bytes_per_seq=kv_seq)
            curve_per = per_sequence_tokens_per_s(batches, n_params, bpp, peak, bw,
                                                    kv_bytes_per_seq=kv_seq)
            fig = batch_figure(t, batches, curve_thr, curve_per, knee=knee,
                               current=(batch, thr, per), max_fit=max_fit)
            st.plotly_chart(fig, config=ctx.chart_config("decode_batch"), key="decode_batch")
            if np.isfinite(knee):
                knee_thr = decode_tokens_per_s(knee, n_params, bpp, peak, bw, kv_bytes_per_seq=kv_seq)
                st.markdown(t("decode.knee_text", knee=f"{knee:,.0f}", thr=tps(knee_thr),
                              per=tps(bound_b1)))
            else:
                st.markdown(t("decode.knee_never"))

            render_memory_fit(t, w_bytes, kv_total, mem, n_gpus, fits_now=fits_now,
                              use_kv=use_kv, max_fit=max_fit, kv_seq=kv_seq)
            if measured is not None:
                render_measured(t, measured, w_bytes, batch, kv_total, bw)

            prefill_items = [] if prompt is None else [prefill_params_section(
                t, n_params=n_params, bpp=bpp, prompt=prompt, peak=peak, bw=bw,
                per_token_s=1.0 / bound_b1)]

            st.subheader(t("decode.roofline_heading"))
            roof = Roof(label=f"{ctx.device_label()} · {t('common.prec.' + ctx.precision)}",
                        peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw)
            steps = [1] if batch == 1 else [1, batch]
            work = [decode_step_work(b, n_params, bpp, kv_seq) for b in steps]
            names = [t("decode.step_name", batch=b) for b in steps]
            rfig = decode_roofline_figure(t, roof, names, [w[0] for w in work], [w[1] for w in work],
                                          n_params=n_params)
            st.plotly_chart(rfig, config=ctx.chart_config("decode_roofline"), key="decode_roofline")
            intensity_b1 = decode_intensity(1, bpp, kv_seq, n_params)
            mfu_b1 = decode_mfu(1, n_params, bpp, peak, bw, kv_seq)
            mfu_b = decode_mfu(batch, n_params, bpp, peak, bw, kv_seq)
            reach = [batch_for_decode_mfu(m, n_params, bpp, peak, bw, kv_seq) for m in (0.01, 0.05)]
            if not np.isfinite(reach[1]):
                reach_text = t("decode.reach_never", mfu=f"{mfu_b1:.1%}")
            elif reach[0] < 1:
                reach_text = t("decode.reach_b1", b5=f"{max(reach[1], 1):,.0f}")
            else:
                reach_text = t("decode.reach", b1=f"{reach[0]:,.0f}", b5=f"{reach[1]:,.0f}")
            if batch == 1:
                at_batch = ""
            elif not fits_now:
                at_batch = t("decode.at_batch_no_fit", batch=batch)
            elif batch >= knee:
                at_batch = t("decode.at_batch_knee_kv" if use_kv else "decode.at_batch_knee",
                             batch=batch, knee=f"{knee:,.0f}")
            else:
                at_batch = t("decode.at_batch", batch=batch, mfub=f"{mfu_b:.1%}")
            st.markdown(t("decode.roofline_text_kv" if use_kv else "decode.roofline_text",
                          intensity=f"{intensity_b1:.2g}", ridge=format_si(roof.ridge, "FLOP/B"),
                          mfu1=f"{mfu_b1:.2%}" if mfu_b1 < 0.01 else f"{mfu_b1:.1%}",
                          bpp=f"{bpp:g}", rule=f"{batch1_decode_mfu(bpp, roof.ridge):.2%}",
                          reach=reach_text, at_batch=at_batch))

            step_flops, step_bytes = decode_step_work(batch, n_params, bpp, kv_seq)
            W, B, P = si(w_bytes, "B"), si(bw, "B/s"), si(peak, "FLOP/s")
            formulas = [
                formula(r"W = N \times b_w = @params \times @bpp = @weights", t("decode.how.weights"),
                        params=format_quantity(n_params), bpp=si(bpp, "B"), weights=W),
                formula(r"\text{tok/s}_{\max} = \frac{B_{\text{mem}} \times n_{\text{GPU}}}"
                        r"{W + KV_{\text{seq}}} = \frac{@bw}{@weights + @kvseq} = @bound",
                        t("decode.how.bound_kv" if use_kv else "decode.how.bound"),
                        bw=B, weights=W, kvseq=si(kv_seq, "B"), bound=tps(bound_b1)),
                formula(r"\begin{aligned} t_{\text{step}} &= \max\left(\frac{W + b \cdot KV_{\text{seq}}}"
                        r"{B_{\text{mem}}},\;\frac{2 N b}{P_{\text{peak}}}\right) \\"
                        r" &= \max\left(\frac{@bytes}{@bw},\;\frac{@flops}{@peak}\right) \\"
                        r" \text{tok/s} &= \frac{b}{t_{\text{step}}} = @thr\end{aligned}",
                        t("decode.how.step", batch=batch), bytes=si(step_bytes, "B"), bw=B,
                        flops=si(step_flops, "FLOP"), peak=P, thr=tps(thr)),
                formula(r"b^{*} = \frac{W \cdot P_{\text{peak}}}{2 N B_{\text{mem}} - KV_{\text{seq}}"
                        r" P_{\text{peak}}} = @knee", t("decode.how.knee"),
                        knee=f"{knee:,.0f}" if np.isfinite(knee) else latex(r"\infty")),
                formula(r"KV = 2 \times L \times H_{kv} \times d_{\text{head}} \times \text{ctx}"
                        r" \times b \times b_{kv} = @kv", t("decode.how.kv"), kv=si(kv_total, "B")),
            ] + prefill_items

    if formulas:
        how_computed(t, formulas)


decode_calculator()

st.divider()
st.markdown(t("decode.takeaway"))
