"""The trace's GPU against the sidebar's device, shared by two pages: the Roofline page's
import report and the Trace doctor (before its MFU per step, which divides by the sidebar's
peak). Says which GPU recorded the trace and, when it is not the sidebar's, offers a
"Switch the sidebar to ..." button."""
from __future__ import annotations

import streamlit as st

from calc.hardware import device_for_name
from ui.i18n import Translator
from ui.state import set_value


def _switch_device(dev_id: str) -> None:
    set_value("device", dev_id)


def render_trace_device(t: Translator, device_name: str, ctx, *, key: str,
                        what: str = "roofline.imp") -> None:
    """The trace's GPU against the sidebar's device, with a "Switch the sidebar to …"
    button when they differ (the Roofline import and the Trace doctor: ``what`` is the
    text prefix, ``{what}.device_same`` / ``_unknown`` / ``_differs``)."""
    if not device_name:
        return
    dev_id = device_for_name(device_name, ctx.devices)
    if dev_id is None:
        st.info(t(f"{what}.device_unknown", trace=device_name, sidebar=ctx.device_label()),
                icon=":material/memory:")
    elif dev_id == ctx.device_id:
        st.info(t(f"{what}.device_same", trace=device_name, sidebar=ctx.device_label()),
                icon=":material/memory:")
    else:
        name = ctx.devices[dev_id].name_for(ctx.lang)
        st.warning(t(f"{what}.device_differs", trace=device_name, sidebar=ctx.device_label(),
                     device=name), icon=":material/warning:")
        st.button(t("roofline.imp.switch_device", device=name), key=key,
                  on_click=_switch_device, args=(dev_id,), icon=":material/swap_horiz:")
