"""Scenario files: save the whole roofline page as versioned JSON, open one again.

Saved (:func:`calc.scenario.dump_scenario`, format version 1): device, precision, the
custom peak/bandwidth when the device is custom, the compared devices, the L2/L1 ceilings,
the extra precision roofs and the kernel table. The file name names the device and the
date: ``roofline_<device>_<precision>_<YYYY-MM-DD>.json``.

Opened (:func:`calc.scenario.load_scenario` with the app's device ids, then a check that
each device has the precision asked for): a bad file shows a translated framing and the
validator's message, and nothing changes. A good one is applied whole, in a button
callback (widget values can only be set before the widgets are drawn): device,
precision, custom fields, comparison, ceilings, extra roofs, then the kernel table.

The page calls :func:`render_scenario_panel`; :func:`scenario_download_button` can be
placed anywhere else (e.g. next to the "table too long for a link" note).
"""
from __future__ import annotations

import datetime as _dt
from typing import Any, Mapping, Sequence

import streamlit as st

from calc.hardware import Accelerator
from calc.kernel_table import KernelRecord
from calc.scenario import (
    PRECISIONS,
    Ceilings,
    CompareDevice,
    CustomDevice,
    Scenario,
    ScenarioError,
    dump_scenario,
    load_scenario,
)
from ui.frame import CUSTOM
from ui.roofline import compare, hierarchy, state
from ui.state import kept, set_value
from ui.widgets import uploader_note

FILE_KEY = "rlx_scn_file"
PASTE_KEY = "rlx_scn_paste"
APPLY_KEY = "rlx_scn_apply"
ERROR_KEY = "_rlx.scn_error"       # message of the last failed open (shown once)
DONE_KEY = "_rlx.scn_done"         # summary of the last successful open
DUMP_CACHE_KEY = "_rlx.scn_dump"
ROOFS_KEY = "roofs"                # roofline-a's extra-precision roofs (URL name)


def extra_roofs_value() -> tuple[str, ...]:
    """The extra precision roofs as a tuple of precision names (list or "a,b" text)."""
    value = st.session_state.get(ROOFS_KEY, kept(ROOFS_KEY))
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for p in items:
        p = str(p).strip()
        if p in PRECISIONS and p not in out:
            out.append(p)
    return tuple(out)


def current_scenario(ctx, kernels: Sequence[KernelRecord] | None = None) -> Scenario:
    """The page as a :class:`calc.scenario.Scenario` (kernels: the parsed table)."""
    if kernels is None:
        kernels = state.parsed().kernels
    custom = None
    if ctx.device_id == CUSTOM and ctx.ready:
        custom = CustomDevice(float(ctx.peak_flops), float(ctx.mem_bw))
    device = ctx.device_id if (ctx.device_id != CUSTOM or custom is not None) else CUSTOM
    comp = tuple(CompareDevice(c.device_id, c.precision)
                 for c in compare.selected_devices(ctx.devices))
    h = hierarchy.current_options()
    return Scenario(device=device, precision=ctx.precision, custom=custom, compare=comp,
                    ceilings=Ceilings(h.l2_bw, h.l1_bw), extra_roofs=extra_roofs_value(),
                    kernels=tuple(kernels))


def scenario_file_name(device_id: str, precision: str, today: _dt.date | None = None) -> str:
    """``roofline_<device>_<precision>_<YYYY-MM-DD>.json`` (safe characters only)."""
    day = (today or _dt.date.today()).isoformat()
    stem = f"roofline_{device_id}_{precision}_{day}"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in stem) + ".json"


def check_against_devices(sc: Scenario, devices: Mapping[str, Accelerator]) -> str | None:
    """English message when the scenario asks for a precision its device lacks, else None."""
    if sc.device != CUSTOM:
        dev = devices.get(sc.device)
        if dev is None:
            return f'device: unknown device id "{sc.device}" (not in hardware.toml)'
        if sc.precision not in dev.precisions:
            return (f'precision: {dev.name} has no "{sc.precision}" peak; '
                    f"available: {', '.join(dev.precisions)}")
    for i, c in enumerate(sc.compare):
        dev = devices.get(c.device)
        if dev is None:
            return f'compare[{i}].device: unknown device id "{c.device}"'
        if c.precision not in dev.precisions:
            return (f'compare[{i}].precision: {dev.name} has no "{c.precision}" peak; '
                    f"available: {', '.join(dev.precisions)}")
    return None


def read_scenario(data: bytes | str, devices: Mapping[str, Accelerator]) -> Scenario:
    """Validate a scenario file completely (no widgets). Raises ScenarioError."""
    sc = load_scenario(data, known_devices=set(devices) if devices else None)
    problem = check_against_devices(sc, devices) if devices else None
    if problem:
        raise ScenarioError(problem)
    return sc


def apply_scenario(sc: Scenario) -> None:
    """Apply a validated scenario to the page state at once (call from a callback, i.e.
    before the sidebar and the page's widgets are drawn)."""

    set_value("device", sc.device)
    if sc.device == CUSTOM and sc.custom is not None:
        set_value("peak", hierarchy.exact_text(sc.custom.peak_flops, "FLOP/s"))
        set_value("bw", hierarchy.exact_text(sc.custom.mem_bw, "B/s"))
    else:
        set_value("precision", sc.precision)
    compare.set_selection([f"{c.device}:{c.precision}" for c in sc.compare])
    hierarchy.set_ceilings(sc.ceilings.l2_bw, sc.ceilings.l1_bw)
    roofs_now = st.session_state.get(ROOFS_KEY, kept(ROOFS_KEY))
    roofs = list(sc.extra_roofs)
    set_value(ROOFS_KEY, ",".join(roofs) if isinstance(roofs_now, str) else roofs)
    state.replace_kernels(sc.kernels)


def open_scenario(data: bytes | str, devices: Mapping[str, Accelerator]) -> str | None:
    """Validate and apply; returns None on success, else the validator's message (and
    nothing was changed)."""
    try:
        sc = read_scenario(data, devices)
    except ScenarioError as exc:
        return str(exc)
    apply_scenario(sc)
    st.session_state[DONE_KEY] = (sc.device, sc.precision, len(sc.kernels))
    return None


def _on_apply(devices: Mapping[str, Accelerator]) -> None:
    st.session_state.pop(ERROR_KEY, None)
    st.session_state.pop(DONE_KEY, None)
    upload = st.session_state.get(FILE_KEY)
    if upload is not None:
        data: Any = upload.getvalue()
    else:
        data = st.session_state.get(PASTE_KEY) or ""
    if not (data.strip() if isinstance(data, (str, bytes)) else data):
        st.session_state[ERROR_KEY] = ("empty", "")
        return
    message = open_scenario(data, devices)
    if message is not None:
        st.session_state[ERROR_KEY] = ("invalid", message)


def scenario_json(ctx, kernels: Sequence[KernelRecord] | None = None) -> tuple[str, str]:
    """(file name, JSON text) of the current page; the JSON is cached until it changes."""
    sc = current_scenario(ctx, kernels)
    cache = st.session_state.get(DUMP_CACHE_KEY)
    if cache is not None and cache[0] == sc:
        text = cache[1]
    else:
        text = dump_scenario(sc)
        st.session_state[DUMP_CACHE_KEY] = (sc, text)
    return scenario_file_name(sc.device, sc.precision), text


def scenario_download_button(ctx, kernels: Sequence[KernelRecord] | None = None, *,
                             key: str = "rlx_scn_download", label: str | None = None) -> None:
    """A download button for the current page as a scenario JSON file."""
    t = ctx.t
    try:
        name, text = scenario_json(ctx, kernels)
    except ScenarioError as exc:
        st.error(t("roofline.scn.save_error", message=str(exc)))
        return
    st.download_button(label or t("roofline.scn.save"), data=text, file_name=name,
                       mime="application/json", key=key, help=t("roofline.scn.save_help"), on_click="ignore")


def render_scenario_panel(ctx, kernels: Sequence[KernelRecord] | None = None) -> None:
    """The Scenario section: save the page as JSON; open a JSON file (or pasted text)."""
    t = ctx.t
    st.subheader(t("roofline.scn.heading"))
    st.caption(t("roofline.scn.intro"))
    left, right = st.columns(2)
    with left:
        scenario_download_button(ctx, kernels)
    with right:
        st.file_uploader(t("roofline.scn.open"), type=["json"], key=FILE_KEY,
                         help=t("roofline.scn.open_help"))
        uploader_note(t, ["json"])
        with st.expander(t("roofline.scn.paste_heading")):
            st.text_area(t("roofline.scn.paste"), key=PASTE_KEY, height=120,
                         placeholder='{"format": "roofline-lab.scenario", "version": 1, ...}')
        st.button(t("roofline.scn.apply"), key=APPLY_KEY, on_click=_on_apply,
                  args=(dict(ctx.devices),), type="primary")
    err = st.session_state.pop(ERROR_KEY, None)
    if err is not None:
        kind, message = err
        if kind == "empty":
            st.warning(t("roofline.scn.nothing"))
        else:
            st.error(f"{t('roofline.scn.error')}\n\n{message}", icon=":material/error:")
    done = st.session_state.pop(DONE_KEY, None)
    if done is not None:
        dev_id, prec, n = done
        st.success(t("roofline.scn.opened", device=dev_id, precision=t(f"common.prec.{prec}"), n=n))


def render_link_note(ctx, kernels: Sequence[KernelRecord]) -> None:
    """Put the kernel table in the URL; when it is too long for a link, say so and offer
    the page as a scenario file instead."""
    if not state.sync_url(kernels):
        st.info(ctx.t("roofline.link.too_long"), icon=":material/link:")
        scenario_download_button(ctx, kernels, key="scn_dl_too_long")
