"""'Use this layout': its predicted MFU goes to the Training time page (shown there as
predicted, beside the published band) and, as a training plan, to Plans."""
from __future__ import annotations

import streamlit as st

from calc.parallel import TrainingStep
from calc.units import format_percent
from ui.frame import PAGES
from ui.state import nav_query_params, remember

PREDICTION_KEY = "_training_layout.prediction"
"""Session key: the prediction the Training time page shows beside its MFU (a dict)."""
TRAINING_PAGE = next(path for pid, path, _icon in PAGES if pid == "training")


def prediction(step: TrainingStep, label: str, model_id: str, device_id: str) -> dict:
    """What the Training time page needs to show the prediction (plain values)."""
    return {"mfu": step.mfu, "gpus": step.gpus, "seq": step.seq_len, "label": label,
            "model": model_id, "device": device_id, "recompute": step.recompute,
            "mfu_text": format_percent(step.mfu)}


def render_use(ctx, step: TrainingStep, label: str) -> None:
    """The two buttons."""
    t = ctx.t
    st.subheader(t("training_layout.use_heading"))
    c1, c2 = st.columns(2)
    pred = prediction(step, label, ctx.model_id, ctx.device_id)
    if c1.button(t("training_layout.use"), help=t("training_layout.use_help"), type="primary",
                 icon=":material/schedule:", key="tl_use"):
        use_on_training_page(pred)
    with c2:
        from ui.plans.add import training_layout_button
        training_layout_button(ctx, step, label)


def use_on_training_page(pred: dict) -> None:
    """Keep the cluster, sequence length and predicted MFU for the Training time page and
    open it (its MFU input takes the prediction, see ui.training_layout.use.PREDICTION_KEY)."""
    st.session_state[PREDICTION_KEY] = pred
    remember("gpus", f"{pred['gpus']:,}".replace(",", ""))
    remember("seq", str(pred["seq"]))
    remember("recompute", pred["recompute"])
    remember("mfu", pred["mfu_text"])
    st.switch_page(TRAINING_PAGE, query_params=nav_query_params("training"))
