"""Decode-speed page: why generating tokens is bandwidth-bound, and what batching buys.

A list of sections (ui.decode); every number comes from calc.inference.decode_report
(one call, ui.decode.answer), for a catalog model or "Custom: parameters only" alike.
"""
import streamlit as st

from ui import live
from ui.decode import header, inputs, parts
from ui.frame import calculator, page_frame
from ui.learn.link import why_link
from ui.plans.add import serving_setup_button

ctx = page_frame("decode")
inputs.legacy_gpus()          # an old link's gpus= is this page's tp, read once
t = ctx.t
header.render_header(ctx)


def decode_plan(setup) -> None:
    """The plan button under the inputs."""
    serving_setup_button(ctx, setup.n_params, setup.weights, setup.tp, setup.batch, setup.kv,
                         setup.layers, setup.kv_heads, setup.head_dim, setup.context_typed,
                         setup.kv_dtype, prompt=setup.prompt, tp_comm=setup.tp_comm)


@calculator("decode")
def decode_calculator() -> None:
    """Inputs, results, the two charts and how they are computed (a slider reruns only
    itself and the result parts, ui.live)."""
    left, right = st.columns([1, 1.45], gap="large")
    with left:
        inputs.render_inputs(ctx)          # the record the parts read: live.record
        plan_box = st.container()
    with right:
        live.results("decode", "results",
                     lambda setup: parts.render_results_part(ctx, setup, why_link))
    live.results("decode", "how",
                 lambda setup: parts.render_how_part(ctx, setup, live.output("decode", "results")))
    with plan_box:
        live.results("decode", "plan", decode_plan)


decode_calculator()
header.render_takeaway(ctx)
