"""Records shared by every importer: results, reports, skip reasons, errors.

Skip reasons and warnings carry a stable machine ``key`` (the UI translates by key, using
``detail`` for the parameters) plus an English ``message``.

Skip reason keys (:data:`SKIP_REASONS`):

``no_formula``      op without a FLOP formula (its time is still counted as unplaced)
``no_shapes``       op whose input shapes were not recorded (``record_shapes=False``)
``bad_shapes``      shapes present but not usable by the formula (wrong rank, mismatch)
``zero_work``       the formula gives 0 FLOPs or 0 bytes (empty tensors)
``zero_flops``      (older reports) data movement only; such ops are now kept as zero-FLOP records
``memory_copy``     GPU memcpy / memset activity (no FLOPs; listed with its time)
``orphan_kernel``   GPU kernel not linked to any op
``op_overhead``     CPU traces: an op's time outside its children (when its children are placed)
``cell_error``      CSV row with an unreadable cell (the cell error is in ``message``)
``no_bytes``        Nsight Compute kernel without any memory metric

Warning keys: ``flops_missing``, ``dtype_assumed``, ``conv_geometry_assumed``,
``no_gpu_time``, ``names_truncated``, ``time_missing``, ``unit_unknown``,
``scenario_kernels``, ``time_only``, ``dram_missing`` (an Nsight Compute kernel's
bytes are its L2 or L1 traffic: no DRAM metric), ``unit_assumed`` (an Nsight Compute time
without a unit, read in its base unit, ns), ``last_row_short`` (a CSV's last row has fewer
cells than its header and no line break ends the file: cut short?), ``tensor_k_wgmma``
(Nsight Compute tensor FLOPs counted from instructions on a GPU whose GEMMs issue wgmma /
tcgen05, whose work per instruction the count cannot know).

Note keys (information, not a problem): ``tensor_k`` (the FLOPs per tensor instruction an
Nsight Compute import used), ``header_units`` (CSV columns whose header names a unit).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from calc.kernel_table import KernelRecord

__all__ = [
    "ImportFormatError",
    "ImportResult",
    "ImportReport",
    "SkippedItem",
    "ImportWarning",
    "SKIP_REASONS",
    "WARNING_KEYS",
    "ReportBuilder",
]

SKIP_REASONS = {
    "no_formula": "no FLOP formula for this op",
    "no_shapes": "input shapes were not recorded (profile with record_shapes=True)",
    "bad_shapes": "the recorded shapes do not fit the formula",
    "zero_work": "the formula gives zero FLOPs or bytes (empty tensors)",
    "zero_flops": "moves data but does no arithmetic (intensity 0 cannot be drawn on a log roofline)",
    "memory_copy": "memory copy or memset (no FLOPs)",
    "orphan_kernel": "GPU kernel not linked to any operator",
    "cell_error": "a cell could not be read",
    "op_overhead": "time an operator spends outside its child operators (dispatch overhead)",
    "no_bytes": "no memory traffic metric for this kernel",
}

WARNING_KEYS = (
    "flops_missing",
    "dtype_assumed",
    "conv_geometry_assumed",
    "no_gpu_time",
    "names_truncated",
    "time_missing",
    "unit_unknown",
    "scenario_kernels",
    "time_only",
    "dram_missing",
    "unit_assumed",
    "last_row_short",
    "tensor_k_wgmma",
)


class ImportFormatError(ValueError):
    """The file cannot be imported; the message says why in words a person understands."""


@dataclass(frozen=True)
class SkippedItem:
    """Something read but not imported, aggregated by (name, reason).

    ``seconds``: total time of the skipped items (s) when known, else None; ``count``: how
    many; ``reason``: a key of :data:`SKIP_REASONS`; ``detail``: parameters for the UI's
    translation; ``message``: English text."""

    name: str
    reason: str
    seconds: float | None
    count: int = 1
    message: str = ""
    detail: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class ImportWarning:
    """A caveat about the whole import: stable ``key``, English ``message``, ``detail``."""

    key: str
    message: str
    detail: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """What an import read, placed and skipped.

    ``n_read``: items read (CSV rows, profiler ops, ncu kernels); ``n_imported``: kernel
    records returned (after aggregation); ``n_placed``: records with FLOPs and bytes (they
    can be drawn on a roofline); ``skipped``: :class:`SkippedItem` list;
    ``unplaced_time_share``: skipped time / (imported + skipped time), 0..1 (0 when no
    time is known); ``time_basis``: "gpu_kernels", "cpu_ops", "measured" or "none".
    """

    format: str
    n_read: int
    n_imported: int
    n_placed: int
    skipped: tuple[SkippedItem, ...]
    unplaced_time_share: float
    warnings: tuple[ImportWarning, ...]
    time_basis: str = "none"
    total_seconds: float = 0.0
    skipped_seconds: float = 0.0
    notes: tuple[ImportWarning, ...] = ()
    device_name: str = ""     # the GPU the trace was recorded on (deviceProperties), if known
    device_cc: str = ""       # its compute capability ("7.0"), if known
    #: How the items read split, when the importer tracks it: (("read", R), ("placed", P),
    #: ("skipped", S), ("other", O)) with R = P + S + O (items = operators and GPU events
    #: that belong to no operator; "other": no GPU work of their own)
    item_counts: tuple[tuple[str, int], ...] = ()
    #: The placed GPU time split by the GPU it ran on, when the importer knows it (torch
    #: traces: (("0", s), ("1", s)), the GPU as the trace's pid); () when it does not
    placed_seconds_by_device: tuple[tuple[str, float], ...] = ()

    @property
    def placed_gpu_seconds(self) -> float:
        """GPU time of the kernels this import placed (s): total_seconds − skipped_seconds
        (≥ 0) when the times are GPU kernel times (time_basis "gpu_kernels"), else 0."""
        if self.time_basis != "gpu_kernels":
            return 0.0
        return max(0.0, self.total_seconds - self.skipped_seconds)

    def placed_gpu_seconds_on(self, device: str) -> float:
        """GPU time this import placed on one GPU (s): its share of ``placed_gpu_seconds``
        from ``placed_seconds_by_device`` (0 for a GPU with nothing placed); the whole
        ``placed_gpu_seconds`` when the importer does not split it by GPU."""
        if self.time_basis != "gpu_kernels":
            return 0.0
        if not self.placed_seconds_by_device:
            return self.placed_gpu_seconds
        return dict(self.placed_seconds_by_device).get(str(device), 0.0)

    def reason_counts(self) -> dict[str, int]:
        """Number of skipped items per reason key."""
        out: dict[str, int] = {}
        for s in self.skipped:
            out[s.reason] = out.get(s.reason, 0) + s.count
        return out


@dataclass(frozen=True)
class ImportResult:
    """Result of :func:`calc.importers.import_file`: ``kernels`` (tuple of
    :class:`~calc.kernel_table.KernelRecord`), ``report`` (:class:`ImportReport`),
    ``format`` ("csv", "torch_trace", "ncu_long", "ncu_wide", "ncu_summary", "scenario")."""

    kernels: tuple[KernelRecord, ...]
    report: ImportReport
    format: str

    @property
    def unplaced_time_share(self) -> float:
        """Share (0..1) of the total time that could not be placed (see ImportReport)."""
        return self.report.unplaced_time_share

    @property
    def warnings(self) -> tuple[ImportWarning, ...]:
        """The report's warnings."""
        return self.report.warnings


ProgressFn = Callable[[float], None] | None


class ReportBuilder:
    """Collects skips and warnings while an importer runs (internal helper)."""

    def __init__(self, fmt: str, progress: ProgressFn = None):
        self.format = fmt
        self.progress = progress
        self._skipped: dict[tuple[str, str], list] = {}
        self._warnings: dict[str, ImportWarning] = {}
        self._notes: dict[str, ImportWarning] = {}
        self.n_read = 0
        self.device_name = ""
        self.device_cc = ""
        self.item_counts: tuple[tuple[str, int], ...] = ()
        self._placed_by_device: dict[str, float] = {}

    def placed_on(self, device: str, seconds: float) -> None:
        """Record ``seconds`` of placed GPU time on ``device`` (ImportReport.placed_seconds_by_device)."""
        self._placed_by_device[device] = self._placed_by_device.get(device, 0.0) + seconds

    def tick(self, fraction: float) -> None:
        """Report progress 0..1 to the callback (errors in the callback are ignored)."""
        if self.progress is not None:
            try:
                self.progress(min(1.0, max(0.0, float(fraction))))
            except Exception:  # a UI callback must never break an import
                pass

    def skip(self, name: str, reason: str, seconds: float | None = None,
             message: str = "", count: int = 1, **detail: object) -> None:
        """Record a skipped item (aggregated by name and reason)."""
        key = (name, reason)
        cur = self._skipped.get(key)
        if cur is None:
            self._skipped[key] = [seconds, count, message or SKIP_REASONS.get(reason, reason),
                                  tuple(sorted(detail.items()))]
        else:
            if seconds is not None:
                cur[0] = seconds if cur[0] is None else cur[0] + seconds
            cur[1] += count

    def warn(self, key: str, message: str, **detail: object) -> None:
        """Record a warning once per key."""
        if key not in self._warnings:
            self._warnings[key] = ImportWarning(key, message, tuple(sorted(detail.items())))

    def note(self, key: str, message: str, **detail: object) -> None:
        """Record an informational note (an assumption the import made) once per key."""
        if key not in self._notes:
            self._notes[key] = ImportWarning(key, message, tuple(sorted(detail.items())))

    def build(self, kernels: list[KernelRecord], time_basis: str = "none",
              total_seconds: float | None = None) -> ImportResult:
        """Freeze into an :class:`ImportResult`. ``total_seconds`` defaults to imported +
        skipped time."""
        skipped = tuple(
            SkippedItem(name, reason, v[0], v[1], v[2], v[3])
            for (name, reason), v in sorted(
                self._skipped.items(), key=lambda kv: -(kv[1][0] or 0.0)
            )
        )
        skipped_s = sum(s.seconds for s in skipped if s.seconds)
        placed_s = sum(k.seconds for k in kernels if k.seconds)
        total = total_seconds if total_seconds is not None else placed_s + skipped_s
        share = min(1.0, skipped_s / total) if total > 0 else 0.0
        if any(k.flops is None for k in kernels):
            n_missing = sum(1 for k in kernels if k.flops is None)
            self.warn("flops_missing",
                      f"{n_missing} kernel(s) have no FLOP count; enter FLOPs to place them "
                      "on the roofline.", n=n_missing)
        report = ImportReport(
            format=self.format,
            n_read=self.n_read,
            n_imported=len(kernels),
            n_placed=sum(1 for k in kernels if k.flops is not None),
            skipped=skipped,
            unplaced_time_share=share,
            warnings=tuple(self._warnings.values()),
            time_basis=time_basis,
            total_seconds=total,
            skipped_seconds=skipped_s,
            notes=tuple(self._notes.values()),
            device_name=self.device_name,
            device_cc=self.device_cc,
            item_counts=self.item_counts,
            placed_seconds_by_device=tuple(sorted(self._placed_by_device.items())),
        )
        self.tick(1.0)
        return ImportResult(tuple(kernels), report, self.format)


def detail_dict(item: SkippedItem | ImportWarning) -> Mapping[str, object]:
    """The ``detail`` pairs of a skip or warning as a dict."""
    return dict(item.detail)
