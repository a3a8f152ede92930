"""The page frame: page config, the shared sidebar (language, navigation, device,
precision, device facts) and the context every page works from.

Every page starts with `ctx = page_frame("mfu")` and then uses `ctx.t` for text and
`ctx.peak_flops` / `ctx.mem_bw` for the selected device and precision.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import streamlit as st

from calc.hardware import Accelerator, HardwareFileError, custom_accelerator, load_hardware, rate_unit
from calc.models import ModelArch
from calc.roofline import ridge_point
from calc.units import format_binary_bytes, format_si
from ui import live, timing
from ui.figures.roofline import Roof
from ui.formula import Formula, latex_text  # noqa: F401 - latex_text: pages import it from here
from ui.i18n import LANG_NAMES, LANGS, Translator, translator
from ui.model_picker import model_picker
from ui.pages import PAGES, page
from ui.state import bound, kept, nav_query_params_for
from ui.widgets import Bounds, quantity_input

CUSTOM = "custom"

# Set ROOFLINE_LAB_HARDWARE to read another hardware file (tests, private devices).
HARDWARE_ENV = "ROOFLINE_LAB_HARDWARE"

IMAGE_FORMATS = ("png", "svg")

# Devices added for this session only ({id: Accelerator}; the Measure page's measured
# machine), listed in the sidebar after the hardware file's.
SESSION_DEVICES = "_session_devices"


@dataclass(frozen=True)
class PageContext:
    """What a page needs from the frame."""
    lang: str
    t: Translator
    devices: Mapping[str, Accelerator]
    device_id: str
    device: Accelerator | None       # None only when a custom device's fields are invalid
    precision: str
    peak_flops: float | None         # FLOP/s, dense, of `precision` on `device`
    mem_bw: float | None             # bytes/s
    hardware_error: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    img_format: str = "png"           # chart download format (plotly modebar camera)
    model_id: str = "custom"          # sidebar Model choice: a models.toml id, "custom", "config"
    model: ModelArch | None = None    # None for "Custom: parameters only"

    @property
    def ready(self) -> bool:
        """True when a peak and a bandwidth are known (the custom fields may be invalid)."""
        return self.peak_flops is not None and self.mem_bw is not None

    def device_label(self) -> str:
        if self.device_id == CUSTOM or self.device is None:
            return self.t("common.custom_device")
        return self.device.name_for(self.lang)

    def roof_label(self) -> str:
        """The main roof's name on every chart: "device · precision"."""
        return f"{self.device_label()} · {self.t('common.prec.' + self.precision)}"

    def roof(self, peak_flops: float | None = None, mem_bw: float | None = None) -> Roof:
        """The sidebar's roofline (ui.figures.roofline.Roof) at its precision (an INT8 one reads
        OP/s); ``peak_flops`` / ``mem_bw`` replace the sidebar's (a page's own model of them)."""
        return Roof(label=self.roof_label(), precision=self.precision,
                    peak_flops=self.peak_flops if peak_flops is None else peak_flops,
                    mem_bw=self.mem_bw if mem_bw is None else mem_bw)

    def op(self) -> str:
        """What the sidebar precision's math counts: "FLOP", or "OP" for INT8
        (calc.hardware.rate_unit)."""
        return rate_unit(self.precision, "")

    def chart_config(self, stem: str) -> dict:
        """Plotly config whose download button names the chart and the device."""
        return plotly_config(f"{stem}_{self.device_id}_{self.precision}", self.img_format)


@st.cache_resource(show_spinner=False)
def _load_hardware_cached(path: str | None, mtime: float) -> dict[str, Accelerator]:
    return load_hardware(path)


def hardware() -> tuple[dict[str, Accelerator], str | None]:
    """Devices from hardware.toml, or ({}, message) when the file is malformed."""
    path = os.environ.get(HARDWARE_ENV) or None
    try:
        target = Path(path) if path else Path(__file__).resolve().parent.parent / "hardware.toml"
        mtime = target.stat().st_mtime if target.exists() else 0.0
        return _load_hardware_cached(path, mtime), None
    except (HardwareFileError, ValueError, OSError) as exc:
        return {}, str(exc)


def _current_lang() -> str:
    """The language before the sidebar is drawn (for the page title)."""
    value = st.session_state.get("lang") or st.query_params.get("lang") \
        or kept("lang")
    return value if value in LANGS else "en"


def page_frame(page_id: str) -> PageContext:
    """Set up the page and draw the shared sidebar. Call first on every page."""
    timing.start_run(page_id)
    t0 = translator(_current_lang())
    st.set_page_config(page_title=f"{t0(page(page_id).title_key)} · Roofline Lab",
                       page_icon=":material/show_chart:", layout="wide")
    sb = st.sidebar
    lang = bound(sb.selectbox, "Language / 语言", list(LANGS), key="lang", index=0,
                 format_func=lambda code: LANG_NAMES[code], help=t0("common.lang_help"),
                 is_valid=lambda v: v in LANGS)
    t = translator(lang)

    devices, hw_error = hardware()
    devices = {**devices, **st.session_state.get(SESSION_DEVICES, {})}
    device_ids = list(devices) + [CUSTOM]
    default_device = "a100-80gb-sxm" if "a100-80gb-sxm" in devices else device_ids[0]
    if st.session_state.get("device") not in device_ids:
        st.session_state.pop("device", None)

    def device_label(dev_id: str) -> str:
        if dev_id == CUSTOM:
            return t("common.custom_option")
        dev = devices[dev_id]
        name = dev.name_for(lang)
        return name if name.startswith(dev.vendor) else f"{dev.vendor} · {name}"

    sb.markdown(f"### {t('common.device_heading')}")
    device_id = bound(sb.selectbox, t("common.device"), device_ids, key="device",
                      index=device_ids.index(default_device), format_func=device_label,
                      help=t("common.device_help"), is_valid=lambda v: v in device_ids)
    if hw_error:
        sb.error(t("common.hardware_error", message=hw_error), icon=":material/error:")

    notes: list[str] = []
    device: Accelerator | None
    if device_id == CUSTOM:
        peak = quantity_input(t, t("common.custom_peak"), "peak", "312T", unit="FLOP/s",
                              help=t("common.custom_peak_help"), container=sb,
                              bounds=Bounds(hi=1e21))
        bw = quantity_input(t, t("common.custom_bw"), "bw", "2 TB/s", unit="B/s",
                            help=t("common.custom_bw_help"), container=sb,
                            bounds=Bounds(hi=1e18))
        precision = "bf16"
        device = _custom_device(peak, bw)
        peak_flops, mem_bw = peak, bw
    else:
        device = devices[device_id]
        precisions = list(device.precisions)
        default_precision = device.default_precision
        if st.session_state.get("precision") not in precisions:
            st.session_state.pop("precision", None)
        precision = bound(sb.selectbox, t("common.precision"), precisions, key="precision",
                          index=precisions.index(default_precision),
                          format_func=lambda p: t(f"common.prec.{p}"),
                          help=t("common.precision_help"),
                          is_valid=lambda v: v in precisions)
        peak_flops = device.peak_flops(precision)
        mem_bw = device.mem_bw
        if device.notes_for(lang):
            notes.append(device.notes_for(lang))

    # The Learn page asks for the ridge point: the sidebar does not give it away there.
    _device_facts(sb, t, device, precision, peak_flops, mem_bw, show_ridge=page_id != "learn")
    model_id, model = model_picker(sb, t)
    _navigation(sb, t, page_id)
    img_format = bound(sb.radio, t("common.img_format"), list(IMAGE_FORMATS), key="img",
                       index=0, horizontal=True, help=t("common.img_format_help"),
                       format_func=lambda f: f.upper(),
                       is_valid=lambda v: v in IMAGE_FORMATS)
    return PageContext(lang=lang, t=t, devices=devices, device_id=device_id, device=device,
                       precision=precision, peak_flops=peak_flops, mem_bw=mem_bw,
                       hardware_error=hw_error, notes=tuple(notes), img_format=img_format,
                       model_id=model_id, model=model)


def _custom_device(peak: float | None, bw: float | None) -> Accelerator | None:
    if peak is None or bw is None:
        return None
    return custom_accelerator(peak, bw)


def _device_facts(sb, t: Translator, device: Accelerator | None, precision: str,
                  peak_flops: float | None, mem_bw: float | None,
                  show_ridge: bool = True) -> None:
    if peak_flops is None or mem_bw is None:
        sb.warning(t("common.custom_incomplete"))
        return
    unit = rate_unit(precision)              # INT8 peaks are OP/s (datasheets: TOPS)
    rows = [
        (t("common.fact.peak", precision=t(f"common.prec.{precision}")),
         format_si(peak_flops, unit)),
        (t("common.fact.bw"), format_si(mem_bw, "B/s")),
    ]
    if show_ridge:
        rows.append((t("common.fact.ridge"), format_si(ridge_point(peak_flops, mem_bw),
                                                       rate_unit(precision, "/B"))))
    if device is not None and device.memory_bytes:
        mem = device.memory_bytes
        rows.append((t("common.fact.memory"),
                     t("common.fact.memory_binary", gib=format_binary_bytes(mem),
                       gb=format_si(mem, "B")) if device.memory_binary else format_si(mem, "B")))
    sb.markdown("\n".join("- " + t("common.fact.row", name=name, value=value) for name, value in rows))
    sparse = device.sparse_headline_flops(precision) if device is not None else None
    if sparse is not None:
        sb.caption(t("common.sparse_caption", sparse=format_si(sparse, unit),
                     dense=format_si(peak_flops, unit),
                     precision=t(f"common.prec.{precision}")))
    device_notes = device.notes_for(getattr(t, "lang", "en")) if device is not None else ""
    if device_notes:
        with sb.expander(t("common.device_notes")):
            st.text(device_notes)
    if device is not None and device.source:
        sb.caption(t("common.source", source=device.source))


def _navigation(sb, t: Translator, page_id: str) -> None:
    sb.divider()
    sb.markdown(f"### {t('common.nav_heading')}")
    params = nav_query_params_for(p.id for p in PAGES)
    for p in PAGES:
        sb.page_link(p.file, label=t(p.title_key), icon=p.icon, query_params=params[p.id],
                     disabled=(p.id == page_id))


def calculator(page_id: str):
    """Decorator: a page's calculator — its inputs and everything computed from them — as an
    ``st.fragment``. Moving one of its inputs reruns only the calculator (not the sidebar,
    the title or the explanations below it); the URL still follows, since its widgets
    write it themselves. Everything that depends on the calculator's inputs must be drawn
    inside it. Its fragment-only reruns are timed like page runs (ui.timing)."""
    def decorate(body):
        @functools.wraps(body)
        def run(*args, **kwargs):
            timing.start_run(page_id, fragment=True)
            with live.calculator_scope():
                return body(*args, **kwargs)
        return st.fragment(run)
    return decorate


def how_computed(t: Translator, items: Sequence[Formula | tuple[str, str]], *,
                 key: str = "how_computed") -> None:
    """The 'How this is computed' expander: each formula (ui.formula.Formula, or a
    (LaTeX, explanation) pair) under its explanation.

    Lazy: the formulas are sent (and typeset by the browser) only while the expander is
    open, not on every rerun of a page whose reader never opens it; opening it reruns
    the page (or only the calculator fragment it is in). ``key``: one per expander on a
    page."""
    box = st.expander(t("common.how_computed"), key=key, on_change="rerun")
    if box.open is False:
        return
    with box:
        for item in items:
            code, text = (item.latex, item.explanation) if isinstance(item, Formula) else item
            if text:
                st.markdown(text)
            st.latex(code)


def plotly_config(filename: str, img_format: str = "png") -> dict:
    """Plotly modebar config: the camera button downloads `filename`.png or .svg."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in filename)
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": img_format if img_format in IMAGE_FORMATS
                                 else "png", "filename": safe, "scale": 2},
    }
