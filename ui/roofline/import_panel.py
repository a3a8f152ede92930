"""The roofline page's Import section.

* :func:`render_import_panel` — file uploader (.json, .json.gz, .gz, .csv), import options,
  a progress bar, the import report, the ``ncu`` command line. Imported kernels join the
  table through :func:`ui.roofline.state.add_kernels`, once per file (a file is remembered
  by name, size and SHA-1 in ``st.session_state``).
* :func:`handle_upload` — the widget-free handler (tests call it directly).

The chart's view controls (top-N, size by, filter) are in :mod:`ui.roofline.view`.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any, Callable, MutableMapping, Sequence

import streamlit as st

from calc.importers import (NCU_COMMAND, NCU_TENSOR_COMMAND, SKIP_REASONS, ImportFormatError, ImportReport, import_file,
                            import_files)
from calc.kernel_table import KernelRecord, to_csv
from calc.units import format_si
from ui.i18n import Translator
from ui.roofline import state
from ui.roofline.doctor_report import render_coverage
from ui.trace_device import render_trace_device
from ui.trace_session import file_signature, from_roofline_import
from ui.widgets import uploader_note

UPLOAD_KEY = "rlx_import_file"
DTYPE_KEY = "rlx_import_dtype"
TENSOR_KEY = "rlx_import_tensor_k"
DONE_KEY = "_rlx.import_done"        # signature of the last file imported
DONE_FILES_KEY = "_rlx.import_done_files"   # signatures of the files in the uploader already imported
RESULT_KEY = "_rlx.import_result"    # ImportOutcome of the last import (for the report)
DISMISS_KEY = "rlx_import_dismiss"
REPLACE_KEY = "rlx_import_replace"   # replace the example rows with the imported kernels
SWITCH_KEY = "rlx_import_switch_device"

#: dtypes offered for traces without 'Input type' (calc.importers.torch_trace).
DTYPES = ("bf16", "fp16", "fp32", "fp8", "fp64", "int8", "fp4", "tf32")
#: File types the uploader accepts (".json.gz" is covered by "gz").
UPLOAD_TYPES = ["json", "gz", "csv"]
#: Most skipped rows listed in the report table (all are counted).
MAX_SKIPPED_SHOWN = 500


@dataclass(frozen=True)
class ImportOutcome:
    """What :func:`handle_upload` returns: the records and report, or an error.

    ``error`` is None on success; else ``error_kind`` is "format" (the file cannot be
    imported: ImportFormatError / ValueError, message for a person) or "internal"
    (an unexpected exception; the message names it)."""

    filename: str
    records: tuple[KernelRecord, ...] = ()
    report: ImportReport | None = None
    format: str = ""
    error: str | None = None
    error_kind: str = ""
    seconds: float = 0.0
    added: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None


def _seconds_since(start: float) -> float:
    """Wall-clock seconds since ``start`` (time.perf_counter()): how long the import took."""
    return time.perf_counter() - start  # not a formula: a wall clock


def handle_upload(data: bytes, filename: str, options: dict | None = None,
                  progress: Callable[[float], None] | None = None,
                  files: Sequence[tuple[bytes, str]] | None = None) -> ImportOutcome:
    """Import one file through :func:`calc.importers.import_file` (no widgets), or, with
    ``files`` (several (bytes, name)), all of them merged through
    :func:`calc.importers.import_files` (an Nsight Compute metrics.csv + timing.csv by
    kernel name); ``filename`` then names them together.

    ``options``: ``default_dtype``, ``tensor_flops_per_inst`` (passed through).
    Never raises: a file that cannot be imported gives an outcome with ``error`` set.
    """
    opts = dict(options or {})
    if progress is not None:
        opts["progress"] = progress
    start = time.perf_counter()
    try:
        result = import_files(list(files), **opts) if files else import_file(data, filename, **opts)
    except (ImportFormatError, ValueError) as exc:
        return ImportOutcome(filename, error=str(exc) or type(exc).__name__, error_kind="format",
                             seconds=_seconds_since(start))
    except Exception as exc:  # noqa: BLE001 - an upload must never break the page
        return ImportOutcome(filename, error=f"{type(exc).__name__}: {exc}", error_kind="internal",
                             seconds=_seconds_since(start))
    return ImportOutcome(filename, tuple(result.kernels), result.report, result.format,
                         seconds=_seconds_since(start))


def process_upload(session: MutableMapping[str, Any], data: bytes, filename: str,
                   options: dict, add: Callable[..., int],
                   progress: Callable[[float], None] | None = None,
                   files: Sequence[tuple[bytes, str]] | None = None) -> ImportOutcome | None:
    """Import an uploaded file once: None when this exact file (name, size, SHA-1) was the
    last one processed; else import it, hand the records to ``add(records,
    source_label=...)`` (the table's :func:`ui.roofline.state.add_kernels`) on success,
    and remember the file and the outcome (for the report) in ``session``. A file that
    cannot be imported adds nothing."""
    sig = file_signature(data, filename)
    if session.get(DONE_KEY) == sig:
        return None
    out = handle_upload(data, filename, options, progress, files)
    session[DONE_KEY] = sig
    if out.ok:
        added = add(out.records, source_label=f"import:{filename}")
        out = dataclasses.replace(out, added=int(added or 0))
        if out.format == "torch_trace" and not files:   # the Trace doctor reads the trace too
            from_roofline_import(session, data, filename, sig)
    session[RESULT_KEY] = out
    return out


def import_options(device_name: str | None = None) -> dict:
    """The import options as currently set in the panel (defaults before it is drawn).

    ``tensor_flops_per_inst`` is None (take it from the report's GPU, else from
    ``device_name``, the sidebar's device) unless the user typed a value."""
    dtype = st.session_state.get(DTYPE_KEY, DTYPES[0])
    k = st.session_state.get(TENSOR_KEY)
    return {"default_dtype": dtype if dtype in DTYPES else DTYPES[0],
            "tensor_flops_per_inst": int(k) if k else None, "device_name": device_name}


def _translate_or(t: Translator, key: str, fallback: str, **fields: Any) -> str:
    # "_" makes the translator always format, so a template needing a field the importer
    # did not give falls back instead of showing "{n}".
    try:
        return t(key, _="", **fields)
    except (KeyError, IndexError, ValueError):
        return fallback


def reason_text(t: Translator, reason: str) -> str:
    """A skip reason key in the page's language (the English text for unknown keys)."""
    return _translate_or(t, f"roofline.reason.{reason}", SKIP_REASONS.get(reason, reason))


def warning_text(t: Translator, key: str, message: str, detail: Sequence[tuple[str, Any]]) -> str:
    """An import warning in the page's language, with its detail; English if unknown."""
    fields = {k: (", ".join(map(str, v)) if isinstance(v, (tuple, list)) else v)
              for k, v in dict(detail).items()}
    return _translate_or(t, f"roofline.warn.{key}", message, **fields)


def skipped_table(t: Translator, report: ImportReport, limit: int = MAX_SKIPPED_SHOWN) -> list[dict]:
    """The report's skipped items as rows for st.dataframe (largest time first)."""
    rows = []
    dash = "—"
    for sk in report.skipped[:limit]:
        rows.append({
            t("roofline.imp.col.name"): sk.name,
            t("roofline.imp.col.reason"): reason_text(t, sk.reason),
            t("roofline.imp.col.count"): int(sk.count),
            t("roofline.imp.col.time"): format_si(sk.seconds, "s") if sk.seconds else dash,
            t("roofline.imp.col.detail"): sk.message if sk.message and sk.message != SKIP_REASONS.get(sk.reason) else "",
        })
    return rows


def _basis_text(t: Translator, basis: str) -> str:
    return _translate_or(t, f"roofline.imp.basis.{basis}", basis)


def table_holds_only_examples() -> bool:
    """True when the kernel table still holds exactly the example rows."""
    return state.normalize_rows(state.get_rows()) == state.normalize_rows(state.default_rows())


def replace_then_add(records, source_label=None) -> int:
    """The table becomes the imported kernels (the example rows go)."""
    state.set_rows([])
    return state.add_kernels(records, source_label=source_label)


def render_device_check(t: Translator, rep: ImportReport, ctx) -> None:
    """Say which GPU the trace was recorded on; when it is not the sidebar's device, say so
    and offer to switch (the kernels are judged against the sidebar's roofs)."""
    if ctx is None or not rep.device_name:
        return
    render_trace_device(t, rep.device_name, ctx, key=SWITCH_KEY)


def render_report(t: Translator, out: ImportOutcome, *, key: str = "rlx_import", ctx=None) -> None:
    """The import report: what was read, placed, skipped and why; the trace's GPU;
    warnings; downloads."""
    rep = out.report
    if rep is None:
        return
    st.success(t("roofline.imp.done", file=out.filename, n=rep.n_imported, placed=rep.n_placed,
                 read=rep.n_read, added=out.added, format=_translate_or(
                     t, f"roofline.imp.format.{out.format}", out.format),
                 seconds=f"{out.seconds:.2f}"))
    counts = dict(rep.item_counts)
    if counts:
        st.caption(t("roofline.imp.counts", read=counts["read"], placed=counts["placed"],
                     skipped=counts["skipped"], other=counts["other"]))
    render_device_check(t, rep, ctx)
    basis = _basis_text(t, rep.time_basis)
    if rep.total_seconds > 0:
        msg = t("roofline.imp.unplaced", share=f"{rep.unplaced_time_share:.1%}",
                skipped=format_si(rep.skipped_seconds, "s"), total=format_si(rep.total_seconds, "s"),
                basis=basis)
        (st.warning if rep.unplaced_time_share > 0.10 else st.info)(msg)
    else:
        st.info(t("roofline.imp.no_time"))
    if out.format == "torch_trace":
        render_coverage(t, out.filename, rep)
    for n in rep.notes:
        key = "tensor_k_option" if n.key == "tensor_k" and dict(n.detail).get("basis") == "option" \
            else n.key
        fields = dict(n.detail)
        st.info(_translate_or(t, f"roofline.note.{key}", n.message, **fields), icon=":material/info:")
    for w in rep.warnings:
        st.warning(warning_text(t, w.key, w.message, w.detail), icon=":material/warning:")
    if rep.skipped:
        counts = rep.reason_counts()
        summary = "; ".join(f"{reason_text(t, r)}: {n:,}" for r, n in
                            sorted(counts.items(), key=lambda kv: -kv[1]))
        with st.expander(t("roofline.imp.skipped_heading", n=sum(counts.values()), groups=len(rep.skipped))):
            st.caption(summary)
            st.dataframe(skipped_table(t, rep), hide_index=True, width="stretch")
            if len(rep.skipped) > MAX_SKIPPED_SHOWN:
                st.caption(t("roofline.imp.skipped_more", shown=MAX_SKIPPED_SHOWN, n=len(rep.skipped)))
    if out.records:
        stem = out.filename.split("/")[-1].split(".")[0] or "import"
        st.download_button(t("roofline.imp.download"), data=to_csv(out.records),
                           file_name=f"imported_{stem}.csv", mime="text/csv",
                           key=f"{key}_download", help=t("roofline.imp.download_help"), on_click="ignore")


def _ncu_command() -> str:
    return str(NCU_COMMAND)


def render_import_panel(ctx) -> ImportOutcome | None:
    """Draw the Import section. Returns the outcome of an import done in this run, if any.

    A new file is imported once: its kernels are appended to the table and the page reruns
    so the table and chart show them; the report stays until the next import. An
    unreadable file shows an error; the table is not touched.
    """
    t = ctx.t
    st.subheader(t("roofline.imp.heading"))
    st.caption(t("roofline.imp.intro"))
    c1, c2 = st.columns(2)
    with c1:
        if st.session_state.get(DTYPE_KEY) not in DTYPES:
            st.session_state.pop(DTYPE_KEY, None)
        st.selectbox(t("roofline.imp.dtype"), DTYPES, index=0, key=DTYPE_KEY,
                     format_func=lambda d: t(f"common.prec.{d}"), help=t("roofline.imp.dtype_help"))
    with c2:
        st.number_input(t("roofline.imp.tensor_k"), min_value=1, max_value=1 << 20,
                        value=None, step=1, key=TENSOR_KEY,
                        placeholder=t("roofline.imp.tensor_k_placeholder"),
                        help=t("roofline.imp.tensor_k_help"))
    examples_only = table_holds_only_examples()
    if examples_only:
        st.checkbox(t("roofline.imp.replace_examples"), value=True, key=REPLACE_KEY,
                    help=t("roofline.imp.replace_examples_help"))
    uploads = st.file_uploader(t("roofline.imp.uploader"), type=UPLOAD_TYPES, key=UPLOAD_KEY,
                               help=t("roofline.imp.uploader_help"), accept_multiple_files=True)
    uploader_note(t, UPLOAD_TYPES)
    command = _ncu_command()
    if command:
        with st.expander(t("roofline.imp.ncu_heading")):
            st.caption(t("roofline.imp.ncu_caption"))
            st.code(command, language="bash", wrap_lines=True)
            st.caption(t("roofline.imp.ncu_tensor"))
            st.code(str(NCU_TENSOR_COMMAND), language="bash", wrap_lines=True)
            st.caption(t("roofline.imp.ncu_after"))

    done: ImportOutcome | None = None
    uploads = list(uploads or [])
    if not uploads:
        st.session_state[DONE_KEY] = None     # the same file may be uploaded again later
        st.session_state[DONE_FILES_KEY] = set()
    else:
        # The files added since the last import are one import (an ncu metrics.csv +
        # timing.csv selected together are merged by kernel name); a file already imported
        # stays in the uploader's list but is not imported again.
        # A file whose import added nothing (a timing-only ncu file, an error) is not "done":
        # it joins the next file added, so timing.csv then metrics.csv still merge.
        listed = {file_signature(u.getvalue(), u.name): (u.getvalue(), u.name) for u in uploads}
        before = st.session_state.get(DONE_FILES_KEY, set())
        if before - set(listed):
            st.session_state[DONE_KEY] = None         # a file was removed: re-adding imports it
        seen = before & set(listed)
        st.session_state[DONE_FILES_KEY] = seen       # removed files are forgotten
        new_sigs = [sig for sig in listed if sig not in seen]
        files = [listed[sig] for sig in new_sigs]
        name = " + ".join(n for _, n in files)
        data = files[0][0] if len(files) == 1 else b"\0".join(d for d, _ in files) if files else b""
        if files and st.session_state.get(DONE_KEY) != file_signature(data, name):
            bar = st.progress(0.0, text=t("roofline.imp.progress", file=name))

            def progress(fraction: float) -> None:
                bar.progress(min(1.0, max(0.0, float(fraction))),
                             text=t("roofline.imp.progress", file=name))

            device_name = ctx.device.name if ctx.device is not None else None
            replace = examples_only and st.session_state.get(REPLACE_KEY, True)
            done = process_upload(st.session_state, data, name, import_options(device_name),
                                  replace_then_add if replace else state.add_kernels, progress,
                                  files if len(files) > 1 else None)
            bar.empty()
            if done is not None and done.ok and done.added:
                st.session_state[DONE_FILES_KEY] = seen | set(new_sigs)
                st.rerun()          # the table and chart show the new kernels
    out = st.session_state.get(RESULT_KEY)
    if isinstance(out, ImportOutcome):
        if out.ok:
            render_report(t, out, ctx=ctx)
        else:
            framing = t("roofline.imp.error_internal" if out.error_kind == "internal" else "roofline.imp.error",
                        file=out.filename)
            st.error(f"{framing}\n\n{out.error}", icon=":material/error:")
        st.button(t("roofline.imp.dismiss"), key=DISMISS_KEY, on_click=_dismiss)
    return done


def _dismiss() -> None:
    st.session_state.pop(RESULT_KEY, None)
