"""'Use this layout': its predicted MFU goes to the Training time page (shown there as
predicted, beside the published band) and, as a training plan, to Plans."""
from __future__ import annotations

import streamlit as st

from calc.parallel import TrainingStep
from calc.units import format_percent
from ui.pages import page_file
from ui.predicted_mfu import PREDICTION_KEY, mfu_text
from ui.state import nav_query_params, url_text

TRAINING_PAGE = page_file("training")


def prediction(step: TrainingStep, label: str, model_id: str, device_id: str) -> dict:
    """What the Training time page needs to show the prediction (plain values)."""
    return {"mfu": step.mfu, "gpus": step.gpus, "seq": step.seq_len, "label": label,
            "model": model_id, "device": device_id, "recompute": step.recompute,
            "mfu_text": mfu_text(step.mfu), "mfu_shown": format_percent(step.mfu),
            # the Training page's memory section (URL names shared with it)
            "layout": {"tp": str(step.tp), "pp": str(step.pp), "cp": str(step.cp),
                       "ep": str(step.ep), "mbs": str(step.micro_batch), "zero": str(step.zero_stage),
                       "sp": step.sequence_parallel, "flash": step.flash_attention,
                       "schedule": "1f1b" if step.schedule == "interleaved" else step.schedule,
                       "interleave": str(step.interleave),
                       "microbatches": str(step.n_microbatches)}}


def render_use(ctx, step: TrainingStep, label: str):
    """A link to the Training time page carrying this layout; returns the column where the
    page puts "Add this setup to the plans" (ui.plans.add, a page-level import)."""
    t = ctx.t
    st.subheader(t("training_layout.use_heading"))
    c1, c2 = st.columns(2)
    pred = prediction(step, label, ctx.model_id, ctx.device_id)
    st.session_state[PREDICTION_KEY] = pred          # the Training page labels this MFU
    c1.page_link(TRAINING_PAGE, label=t("training_layout.use"), help=t("training_layout.use_help"),
                 icon=":material/schedule:", query_params=training_link_params(pred))
    return c2


def training_link_params(pred: dict) -> dict[str, str]:
    """The Training time page's URL for this layout: the shared names and what this session
    keeps for that page (ui.state.nav_query_params), then the cluster, the sequence, the
    recomputation, the predicted MFU and the memory section's layout (the same URL names)."""
    params = nav_query_params("training")
    params.update({"gpus": str(pred["gpus"]), "seq": str(pred["seq"]), "recompute": pred["recompute"],
                   "mfu": pred["mfu_text"]})
    params.update({k: url_text(v) for k, v in pred["layout"].items()})
    return params
