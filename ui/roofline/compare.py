"""Compare devices: up to three other devices' rooflines on the chart, and per kernel the
attainable FLOP/s on each and the most it can speed up by moving there.

URL name ``compare`` (a stable, documented format): comma-separated ``device:precision``
pairs with hardware.toml ids, e.g. ``compare=h100-sxm:bf16,mi300x:fp8``. At most three;
unknown devices or precisions a device lacks are dropped; absent when nothing is compared.
It is synced by hand (a multiselect's display labels would otherwise land in the URL).

The page calls :func:`render_compare_section` (picker, table, sentences) and passes
:func:`compare_roofs` to the chart. Ratios come from :func:`calc.views.compare_rows`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import streamlit as st

from calc.hardware import Accelerator, rate_unit
from calc.kernel_table import KernelRecord
from calc.units import format_si
from calc.views import CompareRow, compare_rows, time_shares
from ui.figures.roofline import Roof
from ui.i18n import Translator
from ui.state import kept, remember, say_ignored, url_changed, write_url

URL_NAME = "compare"
WIDGET_KEY = "rlx_compare"
MAX_COMPARE = 3
#: Most sentences written under the table (the kernels with the most time first).
MAX_SENTENCES = 5
COMPARE_COLORS = ("#d81b60", "#f9a825", "#5e35b1")
COMPARE_DASH = ("dash", "dashdot", "longdash")


@dataclass(frozen=True)
class CompareDevice:
    device_id: str
    precision: str
    device: Accelerator

    @property
    def option(self) -> str:
        return f"{self.device_id}:{self.precision}"

    @property
    def peak_flops(self) -> float:
        return self.device.peak_flops(self.precision)


def compare_options(devices: Mapping[str, Accelerator]) -> list[str]:
    """Every ``device:precision`` option, in hardware.toml order."""
    return [f"{dev_id}:{p}" for dev_id, dev in devices.items() for p in dev.precisions]


def parse_compare(text: str | None, devices: Mapping[str, Accelerator]) -> list[str]:
    """The URL value -> valid option ids (at most three, duplicates and unknowns dropped)."""
    out: list[str] = []
    for part in str(text or "").split(","):
        dev_id, _, prec = part.strip().partition(":")
        dev = devices.get(dev_id.strip())
        prec = prec.strip()
        if dev is None:
            continue
        if not prec:
            prec = dev.default_precision
        opt = f"{dev_id.strip()}:{prec}"
        if prec in dev.precisions and opt not in out:
            out.append(opt)
        if len(out) == MAX_COMPARE:
            break
    return out


def unknown_compare(text: str | None, devices: Mapping[str, Accelerator]) -> list[str]:
    """The parts of a URL value :func:`parse_compare` leaves out because no such device or
    precision exists (an unknown id, a precision the device has no peak for); duplicates and
    the parts past MAX_COMPARE are not listed."""
    out = []
    for part in str(text or "").split(","):
        part = part.strip()
        dev_id, _, prec = part.partition(":")
        dev = devices.get(dev_id.strip())
        if part and (dev is None or (prec.strip() and prec.strip() not in dev.precisions)):
            out.append(part)
    return out


def format_compare(options: Sequence[str]) -> str:
    """Option ids -> the URL value ("" when none)."""
    return ",".join(options)


def _valid(options: Sequence[str], devices: Mapping[str, Accelerator]) -> list[str]:
    return parse_compare(format_compare(list(options)), devices)


def selected_options(devices: Mapping[str, Accelerator]) -> list[str]:
    """The comparison as it stands in this run (reads only; no widget state is written).

    A URL value this session did not write (a shared link, a fresh session) wins; then the
    widget's value; then the value kept from an earlier page."""
    from_url = url_changed(URL_NAME)
    if from_url is not None:
        return parse_compare(from_url, devices)
    if WIDGET_KEY in st.session_state:
        return _valid(st.session_state[WIDGET_KEY] or [], devices)
    return _valid(kept(URL_NAME) or [], devices)


def selected_devices(devices: Mapping[str, Accelerator]) -> list[CompareDevice]:
    out = []
    for opt in selected_options(devices):
        dev_id, _, prec = opt.partition(":")
        out.append(CompareDevice(dev_id, prec, devices[dev_id]))
    return out


def set_selection(options: Sequence[str]) -> None:
    """Set the comparison from code (a callback, before the widget is drawn)."""
    opts = list(options)[:MAX_COMPARE]
    st.session_state[WIDGET_KEY] = opts
    remember(URL_NAME, opts)


def device_label(t: Translator, dev: Accelerator, precision: str) -> str:
    return f"{dev.name_for(t.lang)} · {t(f'common.prec.{precision}')}"


def judged_unit(row: CompareRow | KernelRecord, peaks, precision: str, per: str = "/s") -> str:
    """A kernel's rate unit on one device (a compared row, or a kernel of the hierarchical
    view): OP/s where it is judged at INT8 (its own
    precision where the device has that peak, else the device's chosen ``precision``: the
    rule of calc.views.kernel_peaks), else FLOP/s."""
    own = row.precision if row.precision and row.precision in (peaks or {}) else ""
    return rate_unit(own or precision, per)


def compare_roofs(ctx) -> list:
    """The compared devices' roofs (ui.figures.roofline.Roof), dashed, in their colours."""
    roofs = []
    for i, c in enumerate(selected_devices(ctx.devices)):
        roofs.append(Roof(label=device_label(ctx.t, c.device, c.precision),
                          peak_flops=c.peak_flops, mem_bw=c.device.mem_bw,
                          color=COMPARE_COLORS[i % len(COMPARE_COLORS)],
                          dash=COMPARE_DASH[i % len(COMPARE_DASH)], precision=c.precision))
    return roofs


def _draw_picker(ctx) -> list[str]:
    t = ctx.t
    devices = ctx.devices
    options = compare_options(devices)
    from_url = url_changed(URL_NAME)
    ignored: list[str] = []
    if from_url is not None:
        st.session_state[WIDGET_KEY] = parse_compare(from_url, devices)
        ignored = unknown_compare(from_url, devices)
    elif WIDGET_KEY not in st.session_state:
        st.session_state[WIDGET_KEY] = _valid(kept(URL_NAME) or [], devices)
    else:
        st.session_state[WIDGET_KEY] = _valid(st.session_state[WIDGET_KEY] or [], devices)

    def label(opt: str) -> str:
        dev_id, _, prec = opt.partition(":")
        dev = devices.get(dev_id)
        return device_label(t, dev, prec) if dev is not None else opt

    value = st.multiselect(t("roofline.cmp.pick"), options, key=WIDGET_KEY,
                           max_selections=MAX_COMPARE, format_func=label,
                           help=t("roofline.cmp.pick_help"), placeholder=t("roofline.cmp.placeholder"))
    say_ignored(URL_NAME, ignored, t("roofline.cmp.pick"))
    value = _valid(value, devices)
    remember(URL_NAME, value)
    write_url(URL_NAME, format_compare(value))
    return value


_MD_SPECIAL = frozenset("\\`*_{}[]()#+-.!|<>~$:")


def md_escape(text: str) -> str:
    """Kernel names are user text: show them literally inside st.markdown."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text))


def sentence(t: Translator, row: CompareRow, j: int, from_label: str, to_label: str) -> str:
    """"Moving this memory-bound kernel from A100 to H100 can speed it up by at most
    1.64×, the bandwidth ratio." (in the page's language)."""
    ratio = row.ratio[j]
    regime = row.regime[j]
    key = {"memory": "roofline.cmp.sentence.memory", "compute": "roofline.cmp.sentence.compute"}.get(
        regime, "roofline.cmp.sentence.mixed")
    if ratio < 1:
        key = "roofline.cmp.sentence.slower"
    return t(key, name=md_escape(row.name), src=from_label, dst=to_label, ratio=f"{ratio:.2f}",
             slow=f"{row.slowdown[j]:.2f}" if ratio > 0 else "∞")


def render_compare_section(ctx, kernels: Sequence[KernelRecord] = ()) -> list[CompareDevice]:
    """The Compare-devices section: the picker, then (with kernels and a main device) a
    table of attainable FLOP/s and speed-up bounds, and a few sentences."""
    t = ctx.t
    st.subheader(t("roofline.cmp.heading"))
    if not ctx.devices:
        st.info(t("roofline.cmp.no_devices"))
        return []
    _draw_picker(ctx)
    chosen = selected_devices(ctx.devices)
    if not chosen:
        st.caption(t("roofline.cmp.empty"))
        return []
    if not ctx.ready:
        st.warning(t("common.custom_incomplete"))
        return chosen
    main_peaks = dict(ctx.device.peaks) if ctx.device is not None else None
    rows = compare_rows(kernels, ctx.peak_flops, ctx.mem_bw,
                        [(c.peak_flops, c.device.mem_bw) for c in chosen],
                        main_peaks=main_peaks,
                        others_peaks=[dict(c.device.peaks) for c in chosen])
    src = ctx.roof_label()
    dst = [device_label(t, c.device, c.precision) for c in chosen]
    if not rows:
        st.caption(t("roofline.cmp.no_kernels"))
        return chosen
    table = []
    for r in rows:
        row = {t("roofline.cmp.col.kernel"): r.name,
               t("roofline.cmp.col.intensity"): format_si(
                   r.intensity, judged_unit(r, main_peaks, ctx.precision, "/B")),
               t("roofline.cmp.col.attainable", device=src): format_si(
                   r.attainable_main, judged_unit(r, main_peaks, ctx.precision))}
        for j, (label, c) in enumerate(zip(dst, chosen)):
            row[t("roofline.cmp.col.attainable", device=label)] = format_si(
                r.attainable[j], judged_unit(r, c.device.peaks, c.precision))
            row[t("roofline.cmp.col.ratio", device=label)] = f"{r.ratio[j]:.2f}×"
            row[t("roofline.cmp.col.regime", device=label)] = t(f"roofline.cmp.regime.{r.regime[j]}")
        table.append(row)
    st.dataframe(table, hide_index=True, width="stretch")
    # sentences for the kernels with the most time (table order when none has a time)
    shares = time_shares([r.seconds for r in rows])
    order = np.argsort(-shares, kind="stable")[:MAX_SENTENCES]
    lines = [sentence(t, rows[int(i)], j, src, label)
             for j, label in enumerate(dst) for i in order]
    st.markdown("\n".join(f"- {line}" for line in lines))
    st.caption(t("roofline.cmp.caption", n=min(MAX_SENTENCES, len(rows))))
    return chosen
