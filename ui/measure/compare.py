"""Measured beside datasheet: which measured device and precision, the datasheet roof from
the sidebar's device, and the "measured ÷ datasheet" table per ceiling."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pandas as pd
import streamlit as st

from calc.hardware import Accelerator
from calc.units import format_si
from measure.device import device_id
from measure.report import ceilings, datasheet_percent, format_bytes
from ui.frame import CUSTOM, PageContext
from ui.measure import state
from ui.state import bound


@dataclass(frozen=True)
class Datasheet:
    """The roof to compare with: label, peak (FLOP/s) at `precision`, bandwidth (B/s);
    note: a translated remark (another precision was used, ...), or ""."""

    label: str
    device: Optional[Accelerator]
    precision: str
    peak_flops: float
    mem_bw: float
    note: str = ""


def choose_measured(ctx: PageContext) -> tuple[Accelerator, str]:
    """The measured device and precision to show (selectors on the page)."""
    t = ctx.t
    devices = state.measured_devices()
    ids = list(devices)
    c1, c2 = st.columns(2)
    dev_id = bound(c1.selectbox, t("measure.measured_device"), ids, key="m_dev",
                   index=len(ids) - 1, format_func=lambda i: devices[i].name_for(t.lang),
                   help=t("measure.measured_device_help"), is_valid=lambda v: v in ids)
    dev = devices[dev_id]
    precisions = list(dev.precisions)
    precision = bound(c2.selectbox, t("measure.precision"), precisions, key="m_prec",
                      index=precisions.index(dev.default_precision),
                      format_func=lambda p: t(f"common.prec.{p}"), help=t("measure.precision_help"),
                      is_valid=lambda v: v in precisions)
    return dev, precision


def comparable(ctx: PageContext, dev: Optional[Accelerator]) -> bool:
    """Whether the measured ``dev`` can be compared with the sidebar's device: the same
    kind (calc.hardware.DEVICE_KINDS: a CPU with a CPU datasheet entry, a GPU with a GPU);
    a custom device is the user's numbers, comparable with anything."""
    if dev is None or ctx.device_id == CUSTOM or ctx.device is None:
        return True
    return dev.kind == ctx.device.kind


def datasheet_for(ctx: PageContext, precision: str,
                  dev: Optional[Accelerator] = None) -> Optional[Datasheet]:
    """The sidebar device's datasheet roof at `precision` (or at the sidebar's precision
    when the datasheet has no such peak); None when the sidebar shows a measured device,
    an incomplete custom one, or a device of another kind than the measured ``dev`` (a
    measured CPU is not compared with a GPU datasheet)."""
    t = ctx.t
    if not ctx.ready or (ctx.device is not None and ctx.device.measured):
        return None
    if not comparable(ctx, dev):
        return None
    label = ctx.device_label()
    if ctx.device_id == CUSTOM or ctx.device is None:
        return Datasheet(label, None, precision, ctx.peak_flops, ctx.mem_bw,
                         t("measure.custom_note", precision=t(f"common.prec.{precision}")))
    if precision in ctx.device.peaks:
        return Datasheet(label, ctx.device, precision, ctx.device.peak_flops(precision), ctx.device.mem_bw)
    return Datasheet(label, ctx.device, ctx.precision, ctx.peak_flops, ctx.mem_bw,
                     t("measure.other_precision", device=label, wanted=t(f"common.prec.{precision}"),
                       used=t(f"common.prec.{ctx.precision}")))


def _measurement_of(dev: Accelerator):
    """The session's Measurement when `dev` came from it (medians and spreads known)."""
    m = state.measurement()
    if m is None:
        return None, None
    if dev.id == device_id("cpu", m.host.hostname) and m.started.strftime("%Y-%m-%dT%H:%M:%SZ") == dev.date:
        return m, "cpu"
    if dev.id == device_id("gpu", m.host.hostname) and m.started.strftime("%Y-%m-%dT%H:%M:%SZ") == dev.date:
        return m, "gpu"
    return None, None


def ratio_rows(t, dev: Accelerator, sheet: Optional[Datasheet]) -> pd.DataFrame:
    """One row per measured ceiling: measured (best), median, spread, datasheet, ratio."""
    m, which = _measurement_of(dev)
    extra = {}
    if m is not None:
        extra = {(c.kind, c.key.lower()): c for c in ceilings(m) if c.device == which}
    dash = "—"
    rows = []

    def ratio(measured: float, sheet_value: Optional[float]) -> str:
        return f"{datasheet_percent(measured, sheet_value):.3g} %" if sheet_value else dash

    for p, value in dev.peaks.items():
        unit = "OP/s" if p == "int8" else "FLOP/s"
        c = extra.get(("peak", p))
        if sheet is None:
            sv = None
        elif sheet.device is None:
            sv = sheet.peak_flops if p == sheet.precision else None
        else:
            sv = sheet.device.peaks.get(p)
        rows.append({
            t("measure.col.ceiling"): t("measure.ceiling.peak", precision=t(f"common.prec.{p}")),
            t("measure.col.measured"): format_si(value, unit),
            t("measure.col.median"): format_si(c.median, unit) if c else dash,
            t("measure.col.spread"): f"{c.spread:.0%}" if c else dash,
            t("measure.col.where"): f"n = {c.n}" if c and c.n else dash,
            t("measure.col.datasheet"): format_si(sv, unit) if sv else dash,
            t("measure.col.ratio"): ratio(value, sv),
        })
    levels = [("dram", dev.mem_bw)] + list(dev.cache_bw.items())
    for level, value in levels:
        c = extra.get(("bw", level))
        sv = sheet.mem_bw if (sheet is not None and level == "dram") else None
        name = t("measure.ceiling.dram") if level == "dram" else t("measure.ceiling.cache", level=level.upper())
        rows.append({
            t("measure.col.ceiling"): name,
            t("measure.col.measured"): format_si(value, "B/s"),
            t("measure.col.median"): format_si(c.median, "B/s") if c else dash,
            t("measure.col.spread"): f"{c.spread:.0%}" if c else dash,
            t("measure.col.where"): (f"{format_bytes(c.band[0])} – {format_bytes(c.band[1])}"
                                     if c and c.band else dash),
            t("measure.col.datasheet"): format_si(sv, "B/s") if sv else dash,
            t("measure.col.ratio"): ratio(value, sv),
        })
    return pd.DataFrame(rows)


def render_ratio_table(ctx: PageContext, dev: Accelerator, sheet: Optional[Datasheet]) -> None:
    t = ctx.t
    st.subheader(t("measure.table_heading"))
    if sheet is None and not comparable(ctx, dev):
        st.info(t("measure.not_comparable", measured=dev.name_for(t.lang), sidebar=ctx.device_label(),
                  kind=t(f"measure.kind.{dev.kind}"),
                  other=t(f"measure.kind.{ctx.device.kind}")), icon=":material/info:")
    elif sheet is None:
        st.info(t("measure.no_datasheet") if ctx.ready else t("common.custom_incomplete"),
                icon=":material/info:")
    elif sheet.note:
        st.caption(sheet.note)
    st.dataframe(ratio_rows(t, dev, sheet), hide_index=True, width="stretch")
    st.caption(t("measure.table_caption"))
    with st.expander(t("measure.host_heading")):
        st.markdown(t("measure.host_line", host=dev.host, date=dev.date, source=dev.source))
        st.markdown("\n".join(f"- {k}: `{v}`" for k, v in dev.versions.items()))
        if dev.notes_for(ctx.lang):
            st.text(dev.notes_for(ctx.lang))
    toml_text = st.session_state.get(state.TOML)
    if toml_text and _measurement_of(dev)[0] is not None:
        st.download_button(t("measure.download"), toml_text, file_name="measured.toml",
                           mime="application/toml", key="measure_download",
                           help=t("measure.download_help"), icon=":material/download:", on_click="ignore")
