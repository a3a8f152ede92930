"""The roofline page, one module per section; pages/1_Roofline.py lists them in order.

* state — the kernel table (session state, share link); every section reads it from here.
* chart — intro and the chart (roofs, points); results — placements, results table,
  sentences, downloads, "How this is computed".
* table, builder, import_panel — the tabs that fill the kernel table (editor, kernel
  builder, profiler import); doctor_report — the import report's line about the Trace
  doctor (a torch trace imported here is the Trace doctor's trace too: ui.trace_session).
* view — the chart's view controls (top-N highlight, size by time, name filter).
* hierarchy — per memory level points and L2/L1 ceilings; compare — other devices' roofs
  and speed-up bounds; scenario — the page as a JSON file, and the too-long-link note.

URL names (ui.state.URL_NAMES["roofline"]): ``top`` (int, 0 = off), ``size_by``
("none" | "time"), ``filter`` (text), ``hier`` (bool), ``l2_bw`` / ``l1_bw`` (bytes/s as
typed, blank = not drawn), ``compare`` ("h100-sxm:bf16,mi300x:fp8", at most three),
``roofs`` (other precisions), ``k`` (the kernel table).
"""
