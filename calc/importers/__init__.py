"""Importers: bring your own kernels from files people already have.

One entry point, :func:`import_file` (a contract the UI and checks rely on)::

    result = import_file(data, "trace.json.gz", default_dtype="bf16")
    result.kernels           # tuple of calc.kernel_table.KernelRecord
    result.report            # ImportReport: read / imported / placed / skipped + why
    result.unplaced_time_share
    result.format            # "csv" | "torch_trace" | "ncu_long" | "ncu_wide" | "ncu_summary" | "scenario"

Formats, detected from content (the file name only breaks ties):

* gzip (magic 1f 8b) is decompressed first (``.json.gz`` traces), with a size guard;
* JSON object with ``traceEvents`` (or a bare event list): PyTorch profiler chrome trace
  (:mod:`calc.importers.torch_trace`); a ``roofline-lab.scenario`` document: its kernels;
* CSV whose header row starts with ``"ID",`` or ``"Process ID",`` (after any preamble such
  as ``==PROF==`` lines): Nsight Compute (:mod:`calc.importers.ncu`);
* any other CSV: the kernel table format (:mod:`calc.importers.csv_table`).

Text may start with a UTF-8 BOM or be UTF-16 (PowerShell redirects). Bad input raises
:class:`ImportFormatError` (a ``ValueError``) with a message a person understands.
"""
from __future__ import annotations

import zlib
from typing import Callable, Iterable

from .common import (
    SKIP_REASONS,
    WARNING_KEYS,
    ImportFormatError,
    ImportReport,
    ImportResult,
    ImportWarning,
    SkippedItem,
)

__all__ = [
    "import_file",
    "import_files",
    "detect_format",
    "ImportFormatError",
    "ImportResult",
    "ImportReport",
    "ImportWarning",
    "SkippedItem",
    "SKIP_REASONS",
    "WARNING_KEYS",
    "MAX_INPUT_BYTES",
    "MAX_DECOMPRESSED_BYTES",
    "NCU_COMMAND",
    "NCU_TENSOR_COMMAND",
]

#: Largest accepted upload (bytes, as given).
MAX_INPUT_BYTES = 512 * 1024 * 1024
#: Largest accepted size after gunzip (guards against gzip bombs).
MAX_DECOMPRESSED_BYTES = 1024 * 1024 * 1024


def __getattr__(name: str):
    if name in ("NCU_COMMAND", "NCU_TENSOR_COMMAND"):
        from . import ncu

        return getattr(ncu, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _gunzip(data: bytes, filename: str, limit: int) -> bytes:
    d = zlib.decompressobj(wbits=47)  # 32 + 15: gzip or zlib header, auto-detected
    out = []
    size = 0
    buf = data
    try:
        while buf:
            chunk = d.decompress(buf, 64 * 1024 * 1024)
            size += len(chunk)
            if size > limit:
                raise ImportFormatError(
                    f"{filename}: the decompressed file is larger than {limit // 2**20:,} MiB; "
                    "profile fewer steps or split the trace."
                )
            out.append(chunk)
            buf = d.unconsumed_tail
            if d.eof:
                break
    except zlib.error as exc:
        raise ImportFormatError(
            f"{filename}: the gzip data is corrupt ({exc}); download or copy the file again."
        ) from None
    if not d.eof:
        raise ImportFormatError(
            f"{filename}: the gzip file is truncated (it ends before the compressed data "
            "does); the download or copy was probably cut short."
        )
    return b"".join(out)


def _decode_text(data: bytes, filename: str) -> str:
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    head = data[:4096]
    if b"\x00" in head:
        raise ImportFormatError(
            f"{filename}: this is a binary file, not a profiler export. Expected a PyTorch "
            "profiler trace (.json or .json.gz), an Nsight Compute CSV (ncu --csv) or a "
            "kernel table CSV (name, flops, bytes, seconds, count). (An .ncu-rep report must "
            "be exported first: ncu --import report.ncu-rep --csv > out.csv)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        bad = sum(1 for b in head if b >= 0x80 or (b < 32 and b not in (9, 10, 13)))
        if head and bad / len(head) > 0.1:
            raise ImportFormatError(
                f"{filename}: this does not look like text (binary data?). Expected a PyTorch "
                "profiler trace, an Nsight Compute CSV or a kernel table CSV."
            ) from None
        text = data.decode("latin-1")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def detect_format(text: str, filename: str = "") -> str:
    """Guess the format of decoded text: "json", "ncu" or "csv" (see module docstring)."""
    s = text.lstrip()
    if s[:1] in ("{", "["):
        return "json"
    # look for an ncu header line in the first lines (preamble may precede it)
    n = 0
    for line in s.splitlines():
        t = line.strip().lstrip("\ufeff")
        if t.startswith('"ID",') or t.startswith('"Process ID",') or t.startswith("ID,") \
                or t.startswith("Process ID,"):
            return "ncu"
        if t.startswith("==PROF==") or t.startswith("==WARNING==") or t.startswith("==ERROR=="):
            n += 1
            continue
        n += 1
        if n > 2000:
            break
    if s.startswith("==PROF==") or s.startswith("==ERROR=="):
        return "ncu"
    return "csv"


def _load_text(data: bytes, filename: str, options: dict) -> str:
    """Bytes -> text: size checks, gunzip, BOM/UTF-16 decoding, binary detection."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ImportFormatError("import_file expects the file's bytes.")
    data = bytes(data)
    filename = str(filename or "upload")
    progress: Callable[[float], None] | None = options.get("progress")
    limit = int(options.get("max_bytes") or MAX_DECOMPRESSED_BYTES)
    if not data.strip():
        raise ImportFormatError(f"{filename}: the file is empty.")
    if len(data) > MAX_INPUT_BYTES:
        raise ImportFormatError(
            f"{filename}: the file is {len(data) / 2**20:,.0f} MiB; at most "
            f"{MAX_INPUT_BYTES // 2**20} MiB can be imported."
        )
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, filename, limit)
        if not data.strip():
            raise ImportFormatError(f"{filename}: the gzip file contains nothing.")
    if data[:4] == b"PK\x03\x04":
        raise ImportFormatError(f"{filename}: this is a zip archive; unzip it and import the file inside.")
    if len(data) > limit:
        raise ImportFormatError(
            f"{filename}: the file is larger than {limit // 2**20:,} MiB; profile fewer steps."
        )
    if progress:
        try:
            progress(0.05)
        except Exception:
            pass
    text = _decode_text(data, filename)
    if not text.strip():
        raise ImportFormatError(f"{filename}: the file is empty.")
    return text


def import_file(data: bytes, filename: str, **options) -> ImportResult:
    """Import a profiler export or kernel table; the format is detected from the content.

    ``data``: the file's bytes; ``filename``: its name (for messages and tie-breaks).
    Options: ``default_dtype`` ("bf16"; dtype for traces without ``Input type``),
    ``tensor_flops_per_inst`` (None: from the report's GPU architecture, see
    :func:`calc.importers.ncu.tensor_flops_per_inst_for`; a number overrides it),
    ``device_name`` (the selected device, used when the report names no GPU),
    ``progress`` (callable taking 0..1), ``max_rows`` (table rows / ncu kernels limit),
    ``max_bytes`` (decompressed size limit).
    Returns an :class:`ImportResult`; raises :class:`ImportFormatError` for empty,
    truncated, binary, non-JSON, wrong-JSON, missing-column, unknown or too large input.
    """
    filename = str(filename or "upload")
    text = _load_text(data, filename, options)
    kind = detect_format(text, filename)
    if kind == "json":
        from .torch_trace import import_json_text

        return import_json_text(text, filename, **options)
    if kind == "ncu":
        from .ncu import import_ncu_text

        return import_ncu_text(text, filename, **options)
    from .csv_table import import_table_csv

    first = text.lstrip().splitlines()[0] if text.strip() else ""
    if "," not in first and ";" not in first and "\t" not in first:
        raise ImportFormatError(
            f"{filename}: unknown format. Expected a PyTorch profiler trace (.json or "
            ".json.gz from export_chrome_trace), an Nsight Compute CSV (ncu --csv) or a kernel "
            "table CSV with the columns name, flops, bytes, seconds, count."
        )
    return import_table_csv(text, filename, **options)


def import_files(files: Iterable[tuple[bytes, str]], **options) -> ImportResult:
    """Import several files and merge them into one result.

    Nsight Compute files are merged launch by launch before the records are built (e.g. a
    metrics-only ``metrics.csv`` and a timing-only ``timing.csv`` from two ``ncu`` runs of
    one program; ``calc.importers.ncu.merge_ncu_parsed``): each launch gets every metric
    found for it in any file.
    Other formats are imported one by one and concatenated. Skips and warnings of all
    files are combined in one report.
    """
    from .common import ReportBuilder
    from .ncu import import_ncu_texts

    opts = {k: v for k, v in options.items() if k != "progress"}
    files = list(files)
    if not files:
        raise ImportFormatError("No file to import.")
    results = []
    ncu_texts = []
    for data, name in files:
        name = str(name or "upload")
        text = _load_text(data, name, opts)
        if detect_format(text, name) == "ncu":
            ncu_texts.append((text, name))
        else:
            results.append(import_file(data, name, **opts))
    if ncu_texts:
        results.append(import_ncu_texts(ncu_texts, **opts))
    if len(results) == 1:
        return results[0]
    kernels = []
    for r in results:
        kernels.extend(r.kernels)
    fmt = results[0].format if len({r.format for r in results}) == 1 else "mixed"
    rb = ReportBuilder(fmt, options.get("progress"))
    rb.n_read = sum(r.report.n_read for r in results)
    for r in results:
        for sk in r.report.skipped:
            rb.skip(sk.name, sk.reason, sk.seconds, sk.message, sk.count, **dict(sk.detail))
        for w in r.report.warnings:
            if w.key != "flops_missing":
                rb.warn(w.key, w.message, **dict(w.detail))
        for n in r.report.notes:
            rb.note(n.key, n.message, **dict(n.detail))
    basis = {r.report.time_basis for r in results}
    total = sum(r.report.total_seconds for r in results)
    return rb.build(kernels, time_basis=basis.pop() if len(basis) == 1 else "mixed",
                    total_seconds=total)
