"""The roofline page's outputs: kernels placed on the selected device (calc.roofline), the
chart, the results table, a plain sentence per kernel, CSV downloads and "How this is
computed". `analyze` is pure (no Streamlit) and vectorized: thousands of kernels stay fast.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from calc.csv_out import write_csv
from calc.kernel_table import KernelRecord, TableParse, rows_to_csv, to_csv
from calc.roofline import (ABOVE_ROOF_FRACTION, NEAR_ROOF_FRACTION, KernelPlacements, min_seconds,
                           verdict_decimals,
                           conv_algorithm_cause,
                           place_kernels, ridge_point)
from calc.hardware import rate_unit
from calc.units import format_percent, format_si, format_si_many, is_absurd_fraction
from ui.formula import Formula, formula, si
from ui.frame import how_computed
from ui.i18n import Translator
from ui.numbers import plural
from ui.widgets import percent_text
from ui.roofline import state
from ui.roofline.table import md_escape

#: Sentences are written for at most this many kernels (the top ones by time).
MAX_SENTENCES = 20
#: Above this many kernels the chart's hover text is shortened (responsiveness).
LIGHT_HOVER_ABOVE = 2000


@dataclass(frozen=True)
class Analysis:
    """The placeable kernels (FLOPs known) of a parsed table on one device.

    Arrays have one entry per placeable kernel; `rows` holds the 1-based table row of each
    (as the editor and error messages count). `no_flops` lists kernels with unknown FLOPs
    (e.g. from an Nsight Compute file without FLOP counters): they cannot be placed."""
    kernels: tuple[KernelRecord, ...]
    names: list[str]
    flops: np.ndarray
    bytes_moved: np.ndarray
    seconds: np.ndarray           # NaN: not measured
    rows: np.ndarray
    placement: KernelPlacements
    floor: np.ndarray             # min_seconds: the roofline's time floor (s)
    no_flops: tuple[KernelRecord, ...]
    peak_flops: float
    mem_bw: float
    precision: str = ""           # the sidebar's: what a kernel without its own is judged at
    judged: tuple[str, ...] = ()  # per kernel, the precision whose roof it is judged against

    def __len__(self) -> int:
        return len(self.names)

    @property
    def integer_ops(self) -> np.ndarray:
        """True where a kernel's math is integer (INT8): its rates read OP/s, not FLOP/s
        (calc.hardware.rate_unit)."""
        return np.array([rate_unit(p) == "OP/s" for p in self.judged_precisions()], dtype=bool)

    def rate_unit(self, i: int, per: str = "/s") -> str:
        """FLOP/s, or OP/s for a kernel judged against an INT8 roof (``per="/B"``: its intensity's)."""
        return rate_unit(self.judged_precisions()[i], per)

    def judged_precisions(self) -> tuple[str, ...]:
        """Per kernel, the precision whose roof it is judged against."""
        return self.judged if len(self.judged) == len(self.kernels) else (self.precision,) * len(self.kernels)

    @property
    def measured(self) -> np.ndarray:
        return np.isfinite(self.seconds)


def analyze(parse: TableParse, peak_flops: float, mem_bw: float,
            peaks: dict | None = None, precision: str = "") -> Analysis:
    """Place every kernel with known FLOPs on the roofline of (peak_flops, mem_bw).

    ``peaks`` (precision -> FLOP/s, the sidebar device's): a kernel whose ``precision`` the
    device has is judged against that precision's roof (an FP32 convolution from a trace
    against the FP32 peak, not the sidebar's BF16 one); others against ``peak_flops``."""
    # One pass over the records (thousands of kernels): placeable ones, their rows and numbers.
    kept: list[KernelRecord] = []
    no_flops_list: list[KernelRecord] = []
    rows_l: list[int] = []
    flops_l: list[float] = []
    bytes_l: list[float] = []
    secs_l: list[float] = []
    peak_l: list[float] = []
    judged_l: list[str] = []
    nan = float("nan")
    peaks = peaks or {}
    for k, i in zip(parse.kernels, parse.row_index):
        f = k.flops
        if f is None:
            no_flops_list.append(k)
            continue
        kept.append(k)
        rows_l.append(i + 1)
        flops_l.append(f)
        bytes_l.append(k.bytes_moved)
        s = k.seconds
        secs_l.append(nan if s is None else s)
        own = bool(k.precision) and k.precision in peaks
        peak_l.append(peaks[k.precision] if own else peak_flops)
        judged_l.append(k.precision if own else precision)
    no_flops = tuple(no_flops_list)
    ks = tuple(kept)
    flops = np.array(flops_l, dtype=float)
    nbytes = np.array(bytes_l, dtype=float)
    secs = np.array(secs_l, dtype=float)
    rows = np.array(rows_l, dtype=int)
    if ks:
        kpeak = np.array(peak_l, dtype=float)
        if np.all(kpeak == peak_flops):
            kpeak = peak_flops
        placement = place_kernels(flops, nbytes, kpeak, mem_bw, seconds=secs)
        floor = np.asarray(min_seconds(flops, nbytes, kpeak, mem_bw), dtype=float)
    else:
        empty = np.zeros(0)
        placement = KernelPlacements(empty, empty, np.zeros(0, dtype=object), np.zeros(0, dtype=bool),
                                     empty, empty, np.zeros(0, dtype=object), empty)
        floor = empty
    return Analysis(ks, [k.name for k in ks], flops, nbytes, secs, rows, placement, floor,
                    no_flops, float(peak_flops), float(mem_bw), precision, tuple(judged_l))


def order_by_time(a: Analysis) -> np.ndarray:
    """Indices, slowest first: measured time, else the time floor for unmeasured kernels."""
    key = np.where(a.measured, a.seconds, a.floor)
    return np.argsort(-key, kind="stable")


def sentence_indices(a: Analysis, limit: int = MAX_SENTENCES) -> np.ndarray:
    """Which kernels get a sentence: all in table order when few, else the top `limit` by time."""
    if len(a) <= limit:
        return np.arange(len(a))
    return order_by_time(a)[:limit]


def sentence(t: Translator, a: Analysis, i: int) -> str:
    """The plain-language verdict for kernel `i` (markdown; the name is escaped).

    A zero-FLOP kernel (copy, fill) is judged by its bandwidth against the memory roof."""
    p = a.placement
    bound = str(p.bound[i])
    zero = float(a.flops[i]) == 0.0
    sep = "" if getattr(t, "lang", "en") == "zh" else " "
    if zero:
        parts = [t("roofline.s.head_zero", row=int(a.rows[i]), name=md_escape(a.names[i]),
                   bytes=format_si(float(a.bytes_moved[i]), "B"),
                   bw=format_si(a.mem_bw, "B/s"), floor=format_si(float(a.floor[i]), "s"))]
    else:
        unit = a.rate_unit(i)            # OP/s for an INT8 kernel
        parts = [t("roofline.s.head", row=int(a.rows[i]), name=md_escape(a.names[i]),
                   bound=t(f"fig.bound.{bound}"),
                   intensity=format_si(float(p.intensity[i]), a.rate_unit(i, "/B")),
                   ceiling=format_si(float(p.attainable_flops[i]), unit),
                   floor=format_si(float(a.floor[i]), "s"))]
    if not a.measured[i]:
        parts.append(t("roofline.s.unmeasured_zero" if zero else "roofline.s.unmeasured"))
    elif zero:
        parts.append(t("roofline.s.measured_zero", achieved=format_si(float(p.achieved_bw[i]), "B/s"),
                       pct=roof_percent(t, float(p.fraction_of_roof[i]), 0),
                       time=format_si(float(a.seconds[i]), "s")))
        verdict = str(p.verdict[i])          # judged by its bandwidth against the memory roof
        parts.append(t("roofline.s.below") + sep + t("roofline.s.fix.zero_flop")
                     if verdict == "below_roof" else t(f"roofline.s.{verdict}_zero"))
    else:
        frac = float(p.fraction_of_roof[i])
        parts.append(t("roofline.s.measured", achieved=format_si(float(p.achieved_flops[i]), a.rate_unit(i)),
                       pct=roof_percent(t, frac, 0), time=format_si(float(a.seconds[i]), "s")))
        verdict = str(p.verdict[i])
        if verdict == "below_roof":
            parts.append(t("roofline.s.below") + sep + t(f"roofline.s.fix.{bound}"))
        elif verdict == "above_roof" and conv_algorithm_cause(a.names[i]):
            # a convolution: the algorithm first (Winograd / FFT do fewer FLOPs than counted)
            parts.append(t(f"roofline.s.above_roof_{conv_algorithm_cause(a.names[i])}"))
        else:
            parts.append(t(f"roofline.s.{verdict}"))
    return sep.join(parts)


def roof_percent(t: Translator, fraction: float, decimals: int = 0) -> str:
    """A fraction of the roof as text on the same side of the 70 % and 105 % thresholds as
    its verdict (calc.roofline.verdict_decimals)."""
    return percent_text(t, fraction, verdict_decimals(fraction, decimals))


def results_frame(t: Translator, a: Analysis) -> pd.DataFrame:
    """The results table shown on the page (translated headers, SI-formatted text)."""
    p = a.placement
    dash = "—"
    measured = a.measured

    fast = len(a) > LIGHT_HOVER_ABOVE

    def si(values: np.ndarray, unit: str, mask: np.ndarray | None = None) -> list[str]:
        if fast:     # thousands of rows: a quick 3-digit formatter (format_si is exact but slower)
            return format_si_many(values, unit, mask=mask)
        return [format_si(float(v), unit) if (mask is None or m) else dash
                for v, m in zip(values, mask if mask is not None else values)]

    ops = a.integer_ops if len(a) else np.zeros(0, dtype=bool)

    def rate(values: np.ndarray, per: str, mask: np.ndarray | None = None) -> list[str]:
        """FLOP/s (or FLOP/B) per row, OP/s (OP/B) on an INT8 kernel's row."""
        flop = si(values, "FLOP" + per, mask)
        if not ops.any():
            return flop
        op = si(values, "OP" + per, mask)
        return [o if is_op else f for f, o, is_op in zip(flop, op, ops.tolist())]

    # Translated labels looked up once per distinct value, not once per row.
    verdict_key = np.where(measured, np.asarray(p.verdict, dtype=object), "unmeasured")
    verdict_text = {v: t(f"fig.verdict.{v}") for v in ("near_roof", "below_roof", "above_roof",
                                                        "unmeasured")}
    verdict = [verdict_text[v] if v in verdict_text else t(f"fig.verdict.{v}")
               for v in verdict_key.tolist()]
    bound_key = np.where(a.flops == 0, "zero_flop", np.asarray(p.bound, dtype=object))
    bound_text = {b: t(f"fig.bound.{b}") for b in set(bound_key.tolist())}
    bound = [bound_text[b] for b in bound_key.tolist()]
    achieved_bw = p.achieved_bw if p.achieved_bw is not None else np.full(len(a), np.nan)
    # What a user reads first comes first (name, verdict, % of ceiling, bound, ceiling); the
    # inputs (time, FLOPs, bytes) last. "—" where a kernel has no time (never "None");
    # fractions far beyond any meaningful value (a cell typed as 2**90) read as such.
    fraction = [(percent_text(t, x, 0) if is_absurd_fraction(x) else
                 format_percent(x, verdict_decimals(x, 1))) if m else dash
                for x, m in zip(np.asarray(p.fraction_of_roof, dtype=float).tolist(),
                                np.asarray(measured, dtype=bool).tolist())]
    return pd.DataFrame({
        t("roofline.r.row"): a.rows,
        t("roofline.col.name"): a.names,
        t("roofline.r.verdict"): verdict,
        t("roofline.r.fraction"): fraction,
        t("roofline.r.bound"): bound,
        t("roofline.r.attainable"): rate(p.attainable_flops, "/s"),
        t("roofline.col.seconds"): si(a.seconds, "s", measured),
        t("roofline.r.floor"): si(a.floor, "s"),
        t("roofline.r.achieved"): rate(p.achieved_flops, "/s", measured),
        t("roofline.r.achieved_bw"): si(achieved_bw, "B/s", measured),
        t("roofline.r.intensity"): rate(p.intensity, "/B"),
        t("roofline.col.flops"): si(a.flops, "FLOP"),
        t("roofline.col.bytes"): si(a.bytes_moved, "B"),
    })


def results_csv(a: Analysis) -> str:
    """Results as CSV (English machine headers, SI base units, raw numbers; the one CSV
    writer, calc.csv_out: names that look like formulas escaped, blank = not measured)."""
    p = a.placement
    header = ["row", "name", "flops", "bytes", "seconds", "count", "intensity_flop_per_byte",
              "bound", "attainable_flop_per_s", "min_seconds", "achieved_flop_per_s",
              "achieved_bytes_per_s", "fraction_of_roof", "verdict"]
    cols = [a.rows.tolist(), list(a.names), a.flops.tolist(), a.bytes_moved.tolist(),
            a.seconds.tolist(), [k.count for k in a.kernels],
            np.asarray(p.intensity, dtype=float).tolist(), [str(b) for b in p.bound],
            np.asarray(p.attainable_flops, dtype=float).tolist(), np.asarray(a.floor, dtype=float).tolist(),
            np.asarray(p.achieved_flops, dtype=float).tolist(),
            np.asarray(p.achieved_bw, dtype=float).tolist(),
            np.asarray(p.fraction_of_roof, dtype=float).tolist(),
            [v if v else "unmeasured" for v in p.verdict]]
    return write_csv(header, zip(*cols), text_columns=("name",))


def table_csv(parse: TableParse, rows: Sequence[Mapping[str, str]] | None = None) -> str:
    """The kernel table (valid rows) as CSV in the import format: the cells as typed
    (expressions and units kept: "2*8192**3", "4.4 ms"; calc.kernel_table.rows_to_csv),
    which the Import panel reads back to the same numbers. Without ``rows``, the parsed
    numbers (calc.kernel_table.to_csv)."""
    if rows is None:
        return to_csv(parse.kernels)
    return rows_to_csv([rows[i] for i in parse.row_index])


# ----------------------------------------------------------------------------- page parts

def render_results(t: Translator, a: Analysis) -> None:
    """Results table and the sentences."""
    if not len(a):
        st.info(t("roofline.r.none"))
        return
    st.dataframe(results_frame(t, a), hide_index=True, width="stretch")
    n_meas = int(a.measured.sum())
    counts = {v: int(np.sum(a.placement.verdict == v)) for v in ("near_roof", "below_roof", "above_roof")}
    st.markdown(t("roofline.r.summary", n=len(a), measured=n_meas, near=counts["near_roof"],
                  below=counts["below_roof"], above=counts["above_roof"],
                  near_pct=f"{NEAR_ROOF_FRACTION:.0%}", above_pct=f"{ABOVE_ROOF_FRACTION:.0%}"))
    idx = sentence_indices(a)
    if len(a) > len(idx):
        st.caption(t("roofline.r.top_note", shown=len(idx), n=len(a)))
    st.markdown("\n".join(f"- {sentence(t, a, int(i))}" for i in idx))
    if a.no_flops:
        st.warning(plural(t, "roofline.r.no_flops", len(a.no_flops)), icon=":material/info:")


def render_results_section(ctx, parse: TableParse, a: Analysis) -> None:
    """Results heading, table and sentences, downloads, and "How this is computed"."""
    t = ctx.t
    st.subheader(t("roofline.results_heading"))
    render_results(t, a)
    render_downloads(t, parse, a, f"{ctx.device_id}_{ctx.precision}")
    how_computed(t, how_items(t, a, ctx.peak_flops, ctx.mem_bw))


def render_downloads(t: Translator, parse: TableParse, a: Analysis, stem: str) -> None:
    c1, c2 = st.columns(2)
    # CSV text is made only when the button is pressed (thousands of rows stay fast).
    # on_click="ignore": a download is not a question, so the page does not rerun. With
    # Streamlit's default ("rerun") the click also reruns the page, and the rerun replaces
    # the deferred file id the same click is fetching: on a loaded server the fetch can
    # lose that race and the download never starts (seen in CI).
    rows = state.get_rows()
    c1.download_button(t("roofline.dl.table"), lambda: table_csv(parse, rows), file_name="kernels.csv",
                       mime="text/csv", help=t("roofline.dl.table_help"), key="dl_table",
                       disabled=not parse.kernels, on_click="ignore")
    c2.download_button(t("roofline.dl.results"), (lambda: results_csv(a)) if len(a) else "",
                       file_name=f"roofline_results_{stem}.csv", mime="text/csv",
                       help=t("roofline.dl.results_help"), key="dl_results", disabled=not len(a),
                       on_click="ignore")


def how_items(t: Translator, a: Analysis, peak: float, bw: float) -> list[Formula]:
    """The formulas with the selected device's numbers (and those of the first kernel judged
    at its precision, whose ceiling is this peak's) substituted; INT8 in OP/s and OP/B."""
    P, B = si(peak, rate_unit(a.precision)), si(bw, "B/s")
    items = [
        formula(r"P_{\text{attainable}} = \min\left(P_{\text{peak}},\; I \times B\right)"
                r" = \min\left(@peak,\; I \times @bw\right)",
                t("roofline.how.attainable"), peak=P, bw=B),
        formula(r"I_{\text{ridge}} = \frac{P_{\text{peak}}}{B} = \frac{@peak}{@bw} = @ridge",
                t("roofline.how.ridge"), peak=P, bw=B,
                ridge=si(ridge_point(peak, bw), rate_unit(a.precision, "/B"))),
    ]
    at_peak = [j for j, p in enumerate(a.judged_precisions()) if p == a.precision]
    if at_peak:
        i = at_peak[0]
        items.append(formula(
            r"I = \frac{@flops}{@bytes} = @intensity,\quad"
            r" \min\left(@peak,\; @intensity \times @bw\right) = @attainable",
            t("roofline.how.example", row=int(a.rows[i])),
            flops=si(a.flops[i], a.rate_unit(i, "")), bytes=si(a.bytes_moved[i], "B"),
            intensity=si(a.placement.intensity[i], a.rate_unit(i, "/B")), peak=P, bw=B,
            attainable=si(a.placement.attainable_flops[i], a.rate_unit(i))))
    # The words inside the formula are the page's language ("of roof" stayed English).
    items.append(formula(
        r"t_{\min} = \max\left(\frac{F}{P_{\text{peak}}},\; \frac{@bytes}{B}\right),\qquad"
        r" P_{\text{achieved}} = \frac{F}{t},\qquad @fraction = \frac{P_{\text{achieved}}}"
        r"{P_{\text{attainable}}}",
        t("roofline.how.measured", near=f"{NEAR_ROOF_FRACTION:.0%}", above=f"{ABOVE_ROOF_FRACTION:.0%}"),
        bytes=t("roofline.how.sym_bytes"), fraction=t("roofline.how.sym_fraction")))
    return items


# ----------------------------------------------------------------------------- subsets

def subset(a: Analysis, mask: np.ndarray) -> Analysis:
    """The kernels where `mask` is True (e.g. the name filter), as a smaller Analysis."""
    m = np.asarray(mask, dtype=bool)
    if m.all():
        return a
    idx = np.flatnonzero(m)
    p = a.placement
    sub = KernelPlacements(
        p.intensity[idx], p.attainable_flops[idx], p.bound[idx], p.is_memory_bound[idx],
        None if p.achieved_flops is None else p.achieved_flops[idx],
        None if p.fraction_of_roof is None else p.fraction_of_roof[idx],
        None if p.verdict is None else p.verdict[idx],
        None if p.achieved_bw is None else p.achieved_bw[idx])
    return Analysis(tuple(a.kernels[i] for i in idx), [a.names[i] for i in idx], a.flops[idx],
                    a.bytes_moved[idx], a.seconds[idx], a.rows[idx], sub, a.floor[idx],
                    a.no_flops, a.peak_flops, a.mem_bw)
