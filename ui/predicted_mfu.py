"""A predicted MFU handed from the Training layout page to the Training time page.

The Training layout page keeps its chosen layout's prediction in the session
(:data:`PREDICTION_KEY`) and links to the Training time page with the MFU in the URL (``mfu``,
written by :func:`mfu_text`); the Training time page calls :func:`predicted_caption` under
its MFU field, which labels the value as predicted while it is still the layout's (same
model, device and MFU), beside the published band.
"""
from __future__ import annotations

import streamlit as st

from calc.units import format_percent

PREDICTION_KEY = "_training_layout.prediction"
"""Session key: the Training layout page's last shown prediction (a dict of plain values)."""


def mfu_text(value: float) -> str:
    """How an MFU reads in the Training page's field and the URL: 45% (37.5% between the steps)."""
    return format_percent(value, 2, trim=True)


def predicted_caption(ctx, mfu: float | None) -> None:
    """Under the Training time page's MFU: "Predicted by the Training layout page: MFU … for
    tp 8 · pp 16 … on N GPUs" while the MFU, model and device are still the layout's."""
    pred = st.session_state.get(PREDICTION_KEY)
    if not pred or mfu is None or ctx.model_id != pred["model"] or ctx.device_id != pred["device"]:
        return
    if mfu_text(mfu) != pred["mfu_text"]:
        return
    st.caption(ctx.t("training_layout.predicted_caption", mfu=pred["mfu_shown"],
                     layout=pred["label"], gpus=f"{pred['gpus']:,}"))
