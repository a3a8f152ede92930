"""The network the layouts run on: the device's (hardware.toml) or one typed here.

URL names: ``net`` (device / custom), ``net_gpus``, ``net_up``, ``net_out``.
"""
from __future__ import annotations

import streamlit as st

from calc.parallel import (SCALE_OUT_EFFICIENCY, SCALE_UP_EFFICIENCY, Network, custom_network,
                           network_for)
from calc.units import format_percent, format_si
from ui.widgets import COUNT, bound_select, quantity_input

CHOICES = ["device", "custom"]


def render_network(t, device) -> Network | None:
    """Draw the network choice and return the Network (None: the typed one is incomplete)."""
    st.subheader(t("training_layout.net_heading"))
    own = network_for(device) if device is not None else None

    def label(choice: str) -> str:
        if choice == "custom":
            return t("training_layout.net.custom")
        if own is None:
            return t("training_layout.net.device_missing")
        return t("training_layout.net.device", domain=own.domain_gpus,
                 up=format_si(own.scale_up.bandwidth, "B/s"), out=format_si(own.scale_out.bandwidth, "B/s"))

    choice = bound_select(t("training_layout.net"), CHOICES, "net", index=0, format_func=label,
                          help=t("training_layout.net_help"))
    if choice == "device" and own is not None:
        net, source = own, device.network_source_for(getattr(t, "lang", "en"))
    else:
        if own is None and choice == "device":
            st.info(t("training_layout.net_missing"), icon=":material/lan:")
        n = quantity_input(t, t("training_layout.net_gpus"), "net_gpus", "8", kind="count",
                           bounds=COUNT, help=t("training_layout.net_gpus_help"))
        up = quantity_input(t, t("training_layout.net_up"), "net_up", "450 GB/s", unit="B/s",
                            help=t("training_layout.net_up_help"))
        out = quantity_input(t, t("training_layout.net_out"), "net_out", "50 GB/s", unit="B/s",
                             help=t("training_layout.net_out_help"))
        if n is None or up is None or out is None:
            return None
        net = custom_network(int(n), up, out)
        source = t("training_layout.net.custom_source")
    st.caption(t("training_layout.net_caption", up_eff=format_percent(SCALE_UP_EFFICIENCY, 0),
                 out_eff=format_percent(SCALE_OUT_EFFICIENCY, 0), source=source))
    return net
