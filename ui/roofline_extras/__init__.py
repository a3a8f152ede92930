"""Roofline page additions: Import panel and view controls, hierarchical (per memory level)
view, device comparison, scenario files. Each ``render_*`` draws its own section; the
pure helpers feed the chart.

Where the page uses them (pages/1_Roofline.py):

* ``render_import_panel(ctx)`` — the Import section (uploader, options, progress, report).
* ``render_view_controls(ctx) -> ViewOptions`` and ``view_arrays(kernels, options)`` —
  top-N highlight / size by time share / name filter for the chart's points
  (``view_options()`` reads them without drawing, for chart code placed above them).
* ``render_hierarchy_controls(ctx, kernels) -> HierarchyOptions``,
  ``hierarchy_roofs(t, peak, options)`` (extra roofs for L2/L1 ceilings) and
  ``add_hierarchy(fig, t, kernels, peak, bw, mask)`` (per-level points, linked).
* ``render_compare_section(ctx, kernels)`` and ``compare_roofs(ctx)`` (extra roofs).
* ``render_scenario_panel(ctx, kernels)`` and ``scenario_download_button(ctx, ...)``.

URL names (ui.state.URL_NAMES["roofline"]): ``top`` (int, 0 = off), ``size_by``
("none" | "time"), ``filter`` (text), ``hier`` (bool), ``l2_bw`` / ``l1_bw`` (bytes/s as
typed, blank = not drawn), ``compare`` ("h100-sxm:bf16,mi300x:fp8", at most three).
"""
from __future__ import annotations

from .compare import compare_roofs, render_compare_section
from .hierarchy import (
    HierarchyOptions,
    add_hierarchy,
    current_options as hierarchy_options,
    hierarchy_roofs,
    hierarchy_traces,
    render_hierarchy_controls,
)
from .import_panel import (
    ImportOutcome,
    ViewArrays,
    ViewOptions,
    handle_upload,
    render_import_panel,
    render_view_controls,
    view_arrays,
    view_options,
)
from .scenario_panel import render_scenario_panel, scenario_download_button

__all__ = [
    "HierarchyOptions", "ImportOutcome", "ViewArrays", "ViewOptions", "add_hierarchy",
    "compare_roofs", "handle_upload", "hierarchy_options", "hierarchy_roofs",
    "hierarchy_traces", "render_compare_section", "render_hierarchy_controls",
    "render_import_panel", "render_scenario_panel", "render_view_controls",
    "scenario_download_button", "view_arrays", "view_options",
]
