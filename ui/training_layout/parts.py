"""The Training layout page's result parts (ui.live: the sequence slider reruns them and
itself only): the batch note under the inputs, the table of layouts that fit (the right
column), and the chosen layout — its numbers, step, memory and schedule, "Use this layout",
the rejected ones and how it is computed (full width). Numbers from calc.parallel via
ui.training_layout.search (cached per input set)."""
from __future__ import annotations

import streamlit as st

from ui.training_layout import how, inputs, results, search, use


def render_note_part(ctx, setup) -> None:
    inputs.render_batch_note(ctx.t, setup)


def render_answer_part(ctx, arch, setup):
    """The table of layouts that fit; returns (the search, the chosen layout or None) for
    the details part, or None after saying an input is unreadable."""
    if setup.run is None or setup.net is None or ctx.device is None:
        st.warning(ctx.t("common.missing_inputs"))
        return None
    found, ms = search.search(arch, ctx.device, ctx.precision, setup.run, setup.net)
    return found, results.render_table(ctx.t, found, ms)


def render_details_part(ctx, answer, plan_button) -> None:
    """The chosen layout, "Use this layout" with the plan button (``plan_button(ctx, step,
    label)``: ui.plans.add's, passed by the page), the rejected layouts, the caveat and how
    it is computed, for ``answer``, what the answer part returned (None: nothing)."""
    if answer is None:
        return
    t = ctx.t
    found, chosen = answer
    if chosen is not None:
        results.render_chosen(ctx, chosen)
        label = results.layout_label(t, chosen)
        with use.render_use(ctx, chosen, label):
            plan_button(ctx, chosen, label)
    results.render_rejected(t, found)
    st.info(t("training_layout.caveat"), icon=":material/info:")
    if chosen is not None:
        how.render_how(ctx, chosen)
