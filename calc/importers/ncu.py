"""Import Nsight Compute CSV exports (``ncu --csv``).

Layouts (detected from the header row, found after any preamble: ``==PROF==`` lines and
the application's own stdout; a UTF-8 BOM may lead):

* long / details page (``ncu --csv``): header ``"ID","Process ID",...,"Kernel Name",...,
  "Metric Name","Metric Unit","Metric Value"``, one row per (launch, metric);
* wide / raw page (``ncu --csv --page raw``): header ``"ID",...,"Kernel Name",...`` then one
  column per metric, and a second row with the units;
* summary (``ncu --csv --print-summary per-kernel``): header ``"Process ID",...,
  "Invocations",...,"Metric Name","Metric Unit","Minimum","Maximum","Average"``: per-launch
  statistics over ``Invocations`` launches; totals = Average x Invocations, count =
  Invocations.

Values: thousands separators removed ("10,195,552"), ``n/a`` = missing, units scaled to SI
(ns/nsecond/usecond/msecond/second, byte/Kbyte/Mbyte/Gbyte (decimal, as ncu prints them),
sector = 32 bytes, rates such as cycle/nsecond). A time with no unit (a raw page without its
units row, a blank "Metric Unit") is read in ncu's base unit, ns, with a ``unit_assumed``
warning; it was read as seconds, 10^9 too slow.

Metrics used (the method of NERSC's roofline papers and Nsight Compute's own roofline):

* time: ``gpu__time_duration.sum`` (or ``.avg``, ``gpu__time_active.sum``/``.avg``, or
  ``sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second``);
* FLOPs: sum over p in d, f, h of ``sm__sass_thread_inst_executed_op_{p}add_pred_on.sum``
  + ``..._{p}mul_...`` + 2 x ``..._{p}fma_...``; plus tensor-core FLOPs: the
  ``sm__ops_path_tensor_*`` op counters when present (taken as FLOPs; a counter a more
  general one present covers, ``_src_fp16_dst_fp32`` beside ``_src_fp16``, is not added
  again), else
  ``tensor_flops_per_inst`` x ``sm__inst_executed_pipe_tensor.sum`` where
  ``tensor_flops_per_inst`` is the FLOPs of one warp-level MMA instruction, which depends
  on the architecture (:func:`tensor_flops_per_inst_for`): 512 on Volta (HMMA.884),
  2*16*8*8 = 2048 on Turing (HMMA.1688), 2*16*8*16 = 4096 on Ampere and later (mma
  m16n8k16). Taken from the report's compute capability ("CC" column) or device name,
  else the selected device; an explicit option overrides it; the report says which;
* bytes per level: DRAM ``dram__bytes.sum`` (or read + write, ``dram__bytes_op_read/
  write.sum`` on RTX 50xx, or ``dram__sectors*`` x 32); L2 ``lts__t_bytes.sum`` (or
  ``lts__t_sectors.sum`` or the sum of ``lts__t_sectors_op_{read,write,atom,red}.sum``, x 32);
  L1 ``l1tex__t_bytes.sum`` (or ``l1tex__t_sectors.sum`` or the global load/store/atomic
  sectors ``l1tex__t_sectors_pipe_lsu_mem_global_op_*.sum``, x 32). The record's
  ``bytes_moved`` is DRAM when present, else L2, else L1; all levels are kept in
  ``level_bytes`` for the hierarchical view.

Each record's ``precision`` is the math that did more than half of its FLOPs (FP64 / FP32
SIMT from the SASS counters, a tensor op counter's ``src_<type>``), so an FP32 GEMM is judged
against the FP32 roof, not the sidebar's BF16 one; "" (the sidebar's) when no format has a
majority or the counters do not name it (half-precision SIMT, tensor instruction counts).

Launches of the same kernel (name, grid, block) are aggregated with a count. A file without
FLOP counters (common) gives records with ``flops=None`` and a ``flops_missing`` warning: the
user enters FLOPs. Kernels without any memory metric are skipped (``no_bytes``) with their
time. :func:`merge_ncu_parsed` merges the runs of one program (a metrics-only and a
timing-only file) launch by launch.
"""
from __future__ import annotations

import csv
import math
import re

from calc.kernel_table import MAX_NAME_CHARS, MAX_ROWS, KernelRecord

from .common import ImportFormatError, ImportResult, ReportBuilder

__all__ = [
    "NCU_METRICS",
    "NCU_COMMAND",
    "NCU_TENSOR_COMMAND",
    "NCU_TENSOR_OP_METRICS",
    "DEFAULT_TENSOR_FLOPS_PER_INST",
    "tensor_flops_per_inst_for",
    "import_ncu_text",
    "parse_ncu_text",
    "NcuKernel",
]

csv.field_size_limit(10_000_000)

DEFAULT_TENSOR_FLOPS_PER_INST = 4096
"""FLOPs per warp-level tensor instruction when the architecture is unknown: an FP16 mma
m16n8k16 (2 x 16 x 8 x 16), the shape of Ampere and every later NVIDIA GPU."""

# (compute capability major, minor or None for any) -> (FLOPs per warp-level tensor
# instruction, architecture, instruction).  Volta: HMMA.884 = 4 x m8n8k4 per warp = 512
# (Yang et al., "Hierarchical Roofline Analysis for GPUs", NERSC 2020); Turing: HMMA.1688
# (m16n8k8) = 2048; Ampere/Ada/Hopper/Blackwell: HMMA.16816 (m16n8k16) = 4096 (PTX ISA,
# "Matrix shapes" of mma.sync; Hopper's wgmma is counted by sm__ops_path_tensor_* instead).
_TENSOR_K_BY_CC = (
    ((7, 0), 512.0, "Volta", "HMMA.884"), ((7, 2), 512.0, "Volta", "HMMA.884"),
    ((7, 5), 2048.0, "Turing", "HMMA.1688 (m16n8k8)"),
    ((8, None), 4096.0, "Ampere/Ada", "HMMA.16816 (m16n8k16)"),
    ((9, None), 4096.0, "Hopper", "HMMA.16816 (m16n8k16)"),
    ((10, None), 4096.0, "Blackwell", "HMMA.16816 (m16n8k16)"),
    ((12, None), 4096.0, "Blackwell", "HMMA.16816 (m16n8k16)"),
)
# device-name patterns -> compute capability (checked in order, case-insensitive)
_CC_BY_NAME = (
    (r"v100|titan v\b|gv100", (7, 0)),
    (r"\bt4\b|rtx 20\d0|titan rtx|quadro rtx|tu10\d", (7, 5)),
    (r"a100|a800|\ba30\b|ga100", (8, 0)),
    (r"\ba10\b|\ba40\b|\ba16\b|\ba2\b|rtx 30\d0|rtx a\d000|ga10\d", (8, 6)),
    (r"\bl4\b|\bl40|\bl20\b|rtx 40\d0|rtx \d000 ada|ad10\d", (8, 9)),
    (r"h100|h800|h200|\bh20\b|gh200|gh100", (9, 0)),
    (r"b100|b200|b300|gb200|gb300", (10, 0)),
    (r"rtx 50\d0|rtx pro \d000|gb20\d", (12, 0)),
)


def _cc_from_text(cc: str | None) -> tuple[int, int] | None:
    m = re.match(r"^\s*(?:sm_?)?(\d+)[._]?(\d)?\s*$", str(cc or ""), re.I)
    if not m:
        return None
    if m.group(2) is None and len(m.group(1)) >= 2:      # "sm_80" / "80"
        return int(m.group(1)[:-1]), int(m.group(1)[-1])
    return int(m.group(1)), int(m.group(2) or 0)


def _cc_from_name(device_name: str | None) -> tuple[int, int] | None:
    """A GPU's compute capability from its name ("NVIDIA H100 80GB HBM3" -> (9, 0)), or None."""
    for pattern, c in _CC_BY_NAME:
        if device_name and re.search(pattern, str(device_name), re.I):
            return c
    return None


def tensor_flops_per_inst_for(cc: str | None = None, device_name: str | None = None
                              ) -> tuple[float, str, str] | None:
    """FLOPs of one warp-level tensor-pipe instruction for a GPU: (FLOPs, architecture,
    instruction), or None when neither the compute capability nor the name is known.

    ``cc``: "8.0", "sm_90", "12.0"; ``device_name``: "NVIDIA A100-SXM4-80GB", "Tesla V100".
    A100 (8.0) / H100 (9.0): an mma m16n8k16 = 2 x 16 x 8 x 16 = 4096 FLOPs; V100 (7.0):
    512; T4 (7.5): 2048.  Source: PTX ISA mma shapes; NERSC hierarchical roofline (V100).
    """
    key = _cc_from_text(cc) or _cc_from_name(device_name)
    if key is None:
        return None
    for (major, minor), k, arch, inst in _TENSOR_K_BY_CC:
        if key[0] == major and (minor is None or key[1] == minor):
            return k, arch, inst
    if key[0] > 12:
        return DEFAULT_TENSOR_FLOPS_PER_INST, "newer than Blackwell", "HMMA.16816 (m16n8k16)"
    return None

_SASS = "sm__sass_thread_inst_executed_op_{p}{op}_pred_on.sum"
#: Every metric the importer reads (the ones :data:`NCU_COMMAND` collects).
NCU_METRICS = (
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_bytes.sum",
    "l1tex__t_bytes.sum",
    *(_SASS.format(p=p, op=op) for p in "dfh" for op in ("add", "mul", "fma")),
    "sm__inst_executed_pipe_tensor.sum",
)
#: The command line that collects every metric used here, long CSV on stdout.
NCU_COMMAND = (
    "ncu --csv --page details --print-units base --target-processes all "
    "--metrics " + ",".join(NCU_METRICS) + " python train.py > profile.csv"
)
#: Tensor-core op counters (Ampere and later): each counts the FLOPs (2·M·N·K, not
#: instructions) of the tensor math of one source type, whatever instruction did it
#: (mma.sync, Hopper's wgmma, Blackwell's tcgen05), so they replace instruction count x
#: FLOPs per instruction, which is one shape per architecture and wrong for TF32, FP64, INT8
#: and wgmma.  Names as Nsight Compute lists them on A100/H100 (``ncu --query-metrics``);
#: a GPU without one of them (no BF16 / TF32 path before Ampere) makes ncu refuse the run,
#: hence a second command.  FP8 counters differ by GPU (``src_fp8`` on Ada,
#: ``src_fp8_dst_fp16`` / ``_dst_fp32`` on Hopper and later): add the ones the GPU lists.
NCU_TENSOR_OP_METRICS = tuple(
    f"sm__ops_path_tensor_src_{s}.sum"
    for s in ("fp16_dst_fp16", "fp16_dst_fp32", "bf16_dst_fp32", "tf32_dst_fp32", "fp64", "int8"))
NCU_TENSOR_COMMAND = (
    "ncu --csv --page details --print-units base --target-processes all "
    "--metrics " + ",".join(NCU_METRICS + NCU_TENSOR_OP_METRICS) + " python train.py > profile.csv"
)
#: Compute-capability majors whose GEMM kernels issue warpgroup / tensor-memory MMA
#: instructions (Hopper's wgmma: 9.x; data-centre Blackwell's tcgen05: 10.x, 11.x), whose FLOPs
#: depend on the tile and the type (wgmma m64nNkK: 2·64·N·K per warpgroup instruction, N up to
#: 256, K 16 at BF16/FP16, 8 at TF32, 32 at FP8/INT8; tcgen05 has M up to 256 on a pair of SMs),
#: so
#: an instruction count times one mma.sync shape can be off many times over.  RTX 50 (12.x)
#: keeps mma.sync.
_TILE_MMA_MAJORS = (9, 10, 11)

_TIME_UNITS = {"ns": 1e-9, "nsecond": 1e-9, "nanosecond": 1e-9, "us": 1e-6, "usecond": 1e-6,
               "microsecond": 1e-6, "ms": 1e-3, "msecond": 1e-3, "millisecond": 1e-3,
               "s": 1.0, "second": 1.0, "sec": 1.0}
_BYTE_UNITS = {"byte": 1.0, "b": 1.0, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12,
               "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kibyte": 1024.0,
               "mibyte": 2.0**20, "gibyte": 2.0**30}
_PREFIX = {"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
_COUNT_UNITS = {"inst", "sector", "cycle", "warp", "request", "thread", "wavefront", "block",
                "transaction", "instruction", "op", "flop"}
_NUM_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _unit_factor(unit: str) -> float | None:
    """SI factor of an ncu unit ("" = 1); None when unknown."""
    u = unit.strip().lower()
    if u in ("", "%", "inst", "cycle", "warp", "request", "thread", "wavefront", "block",
             "transaction", "instruction", "op", "flop", "ratio", "none", "ops"):
        return 1.0
    if u == "sector" or u == "sectors":
        return 32.0
    if u in _TIME_UNITS:
        return _TIME_UNITS[u]
    if u in _BYTE_UNITS:
        return _BYTE_UNITS[u]
    if "/" in u:
        num, den = u.split("/", 1)
        fn = _unit_factor(num)
        fd = _TIME_UNITS.get(den.strip())
        if fd is None:
            fd = _unit_factor(den)
        if fn is None or not fd:
            return None
        return fn / fd
    if u[:1] in _PREFIX and u[1:] in _COUNT_UNITS:
        return _PREFIX[u[:1]] * (32.0 if u[1:] == "sector" else 1.0)
    return None


#: Nsight Compute's base unit of a metric printed without one (``--print-units base``):
#: times are nanoseconds ("ns" in its exports), so a blank unit there is not seconds.
_BASE_TIME = 1e-9


def _blank_unit_factor(metric: str, assumed: set[str]) -> float:
    """The factor of a metric whose unit cell is blank or missing: 1e-9 for a time
    (``gpu__time_*``) and 1e9 for a rate (``*.per_second``, per ns in ncu's base units), both
    recorded in ``assumed`` for the report; 32 B per sector; else 1."""
    if metric.startswith("gpu__time_"):
        assumed.add(metric)
        return _BASE_TIME
    if metric.endswith(".per_second"):          # ncu prints a rate per ns ("cycle/nsecond")
        assumed.add(metric)
        return 1.0 / _BASE_TIME
    return 32.0 if "sector" in metric else 1.0


def _value(text: str) -> float | None:
    s = text.strip().replace(",", "")
    if not s or s.lower() in ("n/a", "na", "nan", "-", "(!)"):
        return None
    if not _NUM_RE.match(s):
        return None
    x = float(s)
    return x if math.isfinite(x) else None


class NcuKernel:
    """Per-launch-average metrics of one kernel (or of Invocations launches) — internal."""

    __slots__ = ("name", "key", "count", "metrics", "source", "ids", "cc", "device_name")

    def __init__(self, name: str, key: tuple, source: str):
        self.name = name
        self.key = key
        self.count = 1
        self.metrics: dict[str, float] = {}  # per launch, SI units
        self.source = source
        self.ids: list[str] = []
        self.cc = ""            # compute capability from the "CC" column ("8.0")
        self.device_name = ""   # from device__attribute_display_name, when collected


def _find_header(lines: list[str]) -> int:
    for i, line in enumerate(lines):
        t = line.strip().lstrip("\ufeff")
        if t.startswith('"ID",') or t.startswith('"Process ID",') or t.startswith("ID,") \
                or t.startswith("Process ID,"):
            return i
    return -1


def parse_ncu_text(text: str, filename: str = "ncu.csv", *, max_rows: int | None = None,
                   progress=None, rb: ReportBuilder | None = None) -> tuple[str, list[NcuKernel]]:
    """Parse ncu CSV text into (layout, kernels with per-launch metrics in SI units).

    ``layout`` is "ncu_long", "ncu_wide" or "ncu_summary". Raises ImportFormatError when no
    header row is found or the table lacks the kernel name / metric columns.
    """
    lines = text.splitlines()
    h = _find_header(lines)
    if h < 0:
        if any(line.startswith("==PROF==") or line.startswith("==ERROR==") for line in lines[:50]):
            raise ImportFormatError(
                f"{filename}: Nsight Compute output without a CSV table: run ncu with --csv "
                "(and check the ==PROF==/==ERROR== lines: was any kernel profiled?)."
            )
        raise ImportFormatError(f"{filename}: no Nsight Compute header row (\"ID\", or \"Process ID\",) found.")
    reader = csv.reader(lines[h:])
    try:
        header = [c.strip().lstrip("\ufeff") for c in next(reader)]
    except (csv.Error, StopIteration) as exc:
        raise ImportFormatError(f"{filename}: could not read the Nsight Compute header ({exc}).") from None
    col = {c: i for i, c in enumerate(header)}
    if "Kernel Name" not in col:
        raise ImportFormatError(f"{filename}: the Nsight Compute table has no \"Kernel Name\" column.")
    limit = max_rows or MAX_ROWS * 10
    kname = col["Kernel Name"]
    grid = col.get("Grid Size")
    block = col.get("Block Size")
    dev = col.get("Device")
    cc_col = col.get("CC")
    kernels: dict[tuple, NcuKernel] = {}
    unknown_units: set[str] = set()
    assumed_units: set[str] = set()
    n_rows = 0

    def get(rec, i):
        return rec[i].strip() if i is not None and i < len(rec) else ""

    def kernel_for(rec, launch_key) -> NcuKernel:
        key = (get(rec, kname), get(rec, grid), get(rec, block), get(rec, dev)) + launch_key
        k = kernels.get(key)
        if k is None:
            name = get(rec, kname) or "kernel"
            src = f"ncu:{filename}"
            k = kernels[key] = NcuKernel(name, key, src)
            k.cc = get(rec, cc_col)
        return k

    try:
        if "Metric Name" in col and ("Metric Value" in col or "Average" in col):
            summary = "Metric Value" not in col
            layout = "ncu_summary" if summary else "ncu_long"
            mname, munit = col["Metric Name"], col.get("Metric Unit")
            mval = col["Average"] if summary else col["Metric Value"]
            idc = col.get("ID")
            inv = col.get("Invocations")
            for rec in reader:
                if not rec or not any(c.strip() for c in rec):
                    continue
                n_rows += 1
                if n_rows > limit:
                    raise ImportFormatError(f"{filename}: more than {limit:,} rows; split the file.")
                if len(rec) <= mval:
                    continue
                launch = () if summary else (get(rec, idc),)
                k = kernel_for(rec, launch)
                if not summary and get(rec, idc) and (not k.ids or k.ids[-1] != get(rec, idc)):
                    k.ids.append(get(rec, idc))
                if summary and inv is not None:
                    c = _value(get(rec, inv))
                    if c and c >= 1:
                        k.count = int(c)
                if get(rec, mname) == "device__attribute_display_name":
                    k.device_name = rec[mval].strip()
                    continue
                v = _value(rec[mval])
                if v is None:
                    continue
                unit = get(rec, munit)
                f = _unit_factor(unit)
                if f is None:
                    unknown_units.add(unit)
                    continue
                m = get(rec, mname)
                if not unit.strip():
                    f = _blank_unit_factor(m, assumed_units)
                k.metrics[m] = v * f
                if n_rows % 20000 == 0 and rb is not None:
                    rb.tick(0.1 + 0.5 * n_rows / max(1, len(lines)))
        else:
            layout = "ncu_wide"
            metric_cols = [(i, c) for i, c in enumerate(header) if "__" in c]
            if not metric_cols:
                raise ImportFormatError(
                    f"{filename}: the Nsight Compute table has neither \"Metric Name\"/\"Metric "
                    "Value\" columns (details page) nor metric columns (raw page)."
                )
            idc = col.get("ID")
            # no units row: each metric in Nsight Compute's base unit (times in ns)
            units: dict[int, float] = {i: _blank_unit_factor(c, assumed_units) for i, c in metric_cols}
            first = True
            for rec in reader:
                if not rec or not any(c.strip() for c in rec):
                    continue
                if first:
                    first = False
                    idv = get(rec, idc) if idc is not None else ""
                    if not idv or _value(idv) is None:  # the units row
                        assumed_units.clear()
                        for i, c in metric_cols:
                            u = get(rec, i)
                            f = _unit_factor(u)
                            if f is None:
                                unknown_units.add(u)
                                units[i] = float("nan")
                            else:
                                units[i] = _blank_unit_factor(c, assumed_units) if not u.strip() else f
                        continue
                n_rows += 1
                if n_rows > limit:
                    raise ImportFormatError(f"{filename}: more than {limit:,} rows; split the file.")
                launch = (get(rec, idc),)
                k = kernel_for(rec, launch)
                k.ids.append(get(rec, idc))
                for i, c in metric_cols:
                    if c == "device__attribute_display_name" and i < len(rec):
                        k.device_name = rec[i].strip()
                        continue
                    if i < len(rec):
                        v = _value(rec[i])
                        f = units[i]
                        if v is not None and f == f:
                            k.metrics[c] = v * f
    except csv.Error as exc:
        raise ImportFormatError(f"{filename}: the CSV is malformed after row {n_rows} ({exc}).") from None
    if rb is not None:
        rb.n_read += n_rows
        if assumed_units:
            names = ", ".join(sorted(assumed_units)[:4])
            rb.warn("unit_assumed", f"{names}: no unit in {filename}; read in Nsight Compute's base "
                    "unit, nanoseconds (its exports print \"ns\", rates per ns).", metrics=names,
                    file=filename)
        if unknown_units:
            rb.warn("unit_unknown", "Some metric units were not understood and those values were "
                    "ignored: " + ", ".join(sorted(repr(u) for u in unknown_units)[:8]),
                    units=tuple(sorted(unknown_units))[:8])
    if not kernels:
        raise ImportFormatError(f"{filename}: the Nsight Compute table has no kernel rows.")
    return layout, list(kernels.values())


def _m(ms: dict, *names: str) -> float | None:
    for n in names:
        if n in ms:
            return ms[n]
    return None


def _sum_present(ms: dict, names) -> float | None:
    vals = [ms[n] for n in names if n in ms]
    return sum(vals) if vals else None


def _seconds(ms: dict) -> float | None:
    t = _m(ms, "gpu__time_duration.sum", "gpu__time_duration.avg", "gpu__time_active.sum",
           "gpu__time_active.avg", "gpu__time_duration.max", "gpu__time_active.max")
    if t is None:
        cyc = ms.get("sm__cycles_elapsed.avg", ms.get("sm__cycles_elapsed.max"))
        rate = ms.get("sm__cycles_elapsed.avg.per_second")
        if cyc and rate:
            t = cyc / rate
    return t if t and t > 0 else None


def _uses_tensor_instructions(ms: dict) -> bool:
    """True when the tensor FLOPs come from instruction counts x FLOPs per instruction."""
    if _tensor_op_counters(ms):
        return False
    return _tensor_insts(ms) not in (None, 0.0)


def _tensor_insts(ms: dict) -> float | None:
    """Tensor-pipe instructions executed (the first counter present), or None."""
    return _m(ms, "sm__inst_executed_pipe_tensor.sum", "sm__inst_executed_pipe_tensor_op_hmma.sum",
              "smsp__inst_executed_pipe_tensor.sum")


def _tensor_op_counters(ms: dict) -> list[str]:
    """The ``sm__ops_path_tensor*.sum`` counters to add up: each that no more general one
    present covers.  ``sm__ops_path_tensor_src_fp16.sum`` counts every destination type,
    so beside it ``..._src_fp16_dst_fp32.sum`` is the same work again (a report that
    collects both was counted twice); siblings (``src_fp16`` and ``src_bf16``) add up."""
    names = [n[:-4] for n in ms if n.endswith(".sum") and
             (n.startswith("sm__ops_path_tensor_") or n == "sm__ops_path_tensor.sum")]
    return [n + ".sum" for n in names
            if not any(o != n and n.startswith(o + "_") for o in names)]


#: The number format a tensor op counter's source names (``sm__ops_path_tensor_src_<x>``).
#: FP64 tensor ops map to "" (the sidebar's): hardware.toml's fp64 peak is the SIMT rate (H100:
#: 33.5 TFLOP/s), half of the FP64 tensor-core rate, so a DGEMM would read ~180 % of that roof.
_TENSOR_SRC = {"fp16": "fp16", "bf16": "bf16", "tf32": "tf32", "fp64": "", "fp8": "fp8",
               "e4m3": "fp8", "e5m2": "fp8", "int8": "int8", "s8": "int8", "u8": "int8",
               "fp4": "fp4", "e2m1": "fp4"}


def _flop_shares(ms: dict, k_tensor: float = 0.0) -> dict[str, float]:
    """A kernel's counted FLOPs by the precision of the math that did them ("" = a format
    the counters do not name: half-precision SIMT, FP64 tensor ops, tensor instructions
    counted without a source type, at ``k_tensor`` FLOPs each as :func:`_flops` counts
    them).  FP64 / FP32 SIMT from the SASS d / f counters; tensor ops from the
    ``src_<type>`` of each op counter (``_tensor_op_counters``)."""
    out: dict[str, float] = {}
    for p, prec in (("d", "fp64"), ("f", "fp32"), ("h", "")):
        vals = [ms.get(_SASS.format(p=p, op=op)) for op in ("add", "mul", "fma")]
        if any(v is not None for v in vals):
            a, m, f = (v or 0.0 for v in vals)
            out[prec] = out.get(prec, 0.0) + a + m + 2.0 * f
    counters = _tensor_op_counters(ms)
    for n in counters:
        src = n.split("_src_", 1)[1].split("_")[0].split(".")[0] if "_src_" in n else ""
        prec = _TENSOR_SRC.get(src, "")
        out[prec] = out.get(prec, 0.0) + ms[n]
    t = None if counters else _tensor_insts(ms)
    if t is not None:
        out[""] = out.get("", 0.0) + k_tensor * t
    return out


def kernel_precision(shares: dict[str, float]) -> str:
    """The precision a kernel is judged at: the one that did more than half of its FLOPs
    (an FP32 SIMT GEMM -> "fp32", an FP16 tensor-core GEMM -> "fp16"), else "" (the sidebar's:
    mixed, or a format the counters do not name)."""
    total = sum(shares.values())
    if not total > 0:
        return ""
    prec, flops = max(shares.items(), key=lambda kv: kv[1])
    return prec if prec and flops > 0.5 * total else ""


def _flops(ms: dict, k_tensor: float) -> float | None:
    """The kernel's FLOPs (the module docstring's sum: SASS add + mul + 2·fma over d, f, h,
    plus the tensor op counters, else k_tensor × tensor instructions): the sum of
    :func:`_flop_shares`; None when no FLOP counter was collected."""
    shares = _flop_shares(ms, k_tensor)
    total = sum(shares.values())
    if not shares or total < 0:
        return None
    return total        # 0 for a copy or fill kernel whose FLOP counters read 0


def _levels(ms: dict) -> list[tuple[str, float]]:
    out = []
    dram = _m(ms, "dram__bytes.sum")
    if dram is None:
        dram = _sum_present(ms, ("dram__bytes_read.sum", "dram__bytes_write.sum"))
    if dram is None:
        dram = _sum_present(ms, ("dram__bytes_op_read.sum", "dram__bytes_op_write.sum"))
    if dram is None:
        dram = _m(ms, "dram__sectors.sum")
    if dram is None:
        dram = _sum_present(ms, ("dram__sectors_read.sum", "dram__sectors_write.sum"))
    if dram is not None and dram > 0:
        out.append(("dram", dram))
    l2 = _m(ms, "lts__t_bytes.sum", "lts__t_sectors.sum")
    if l2 is None:
        l2 = _sum_present(ms, ("lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum",
                               "lts__t_sectors_op_atom.sum", "lts__t_sectors_op_red.sum"))
    if l2 is not None and l2 > 0:
        out.append(("l2", l2))
    l1 = _m(ms, "l1tex__t_bytes.sum", "l1tex__t_sectors.sum")
    if l1 is None:
        l1 = _sum_present(ms, tuple(
            f"l1tex__t_sectors_pipe_lsu_mem_global_op_{o}.sum" for o in ("ld", "st", "atom", "red")))
    if l1 is not None and l1 > 0:
        out.append(("l1", l1))
    return out


def _tensor_k(k: NcuKernel, override: float | None, device_name: str | None,
              rb: ReportBuilder) -> float:
    """FLOPs per tensor instruction for one kernel, recording in the report which was used."""
    uses = _uses_tensor_instructions(k.metrics)
    if override is not None:
        if uses:
            rb.note("tensor_k", f"Tensor-core FLOPs: {override:g} FLOPs per tensor instruction "
                    "(set in the import options).", value=f"{override:g}", basis="option",
                    arch="", inst="")
        return override
    found = tensor_flops_per_inst_for(k.cc, k.device_name)
    basis = f"CC {k.cc}" if _cc_from_text(k.cc) else (k.device_name or "")
    if found is None and device_name:
        found = tensor_flops_per_inst_for(None, device_name)
        basis = f"selected device {device_name}"
    if found is None:
        if uses:
            rb.warn("tensor_k_unknown", "The report names no GPU and the selected device is not "
                    f"an NVIDIA GPU with tensor cores: tensor FLOPs assume {DEFAULT_TENSOR_FLOPS_PER_INST:g} "
                    "FLOPs per instruction (mma m16n8k16, Ampere and later); set the value in the "
                    "import options if the GPU is older.", value=f"{DEFAULT_TENSOR_FLOPS_PER_INST:g}")
        return DEFAULT_TENSOR_FLOPS_PER_INST
    value, arch, inst = found
    if uses:
        rb.note("tensor_k", f"Tensor-core FLOPs: {value:g} FLOPs per tensor instruction "
                f"({arch}, {inst}; from {basis}).", value=f"{value:g}", basis=basis, arch=arch,
                inst=inst)
        key = _cc_from_text(k.cc) or _cc_from_name(k.device_name) or _cc_from_name(device_name)
        if key is not None and key[0] in _TILE_MMA_MAJORS:
            rb.warn("tensor_k_wgmma", f"Tensor-core FLOPs on {arch} were counted from instructions "
                    f"at {value:g} FLOPs each ({inst}), but its GEMM and attention kernels issue "
                    "wgmma / tcgen05 instructions whose work depends on the tile and the type (a "
                    "wgmma m64n256 does 2·64·256·16 FLOPs at BF16 and 2·64·256·32 at FP8 or INT8; "
                    "tcgen05 tiles are larger still): their FLOPs, intensity and rate can be many "
                    "times too low. Collect the tensor op counters (sm__ops_path_tensor_src_*.sum, "
                    "the second command), which count FLOPs; on a GPU that names them otherwise, "
                    "list its own with ncu --query-metrics.", arch=arch, value=f"{value:g}")
    return value


def _records(kernels: list[NcuKernel], rb: ReportBuilder, k_tensor: float | None,
             device_name: str | None = None) -> list[KernelRecord]:
    groups: dict[tuple, list] = {}
    order: list[tuple] = []
    for k in kernels:
        key = k.key[:4]  # merge launches: name, grid, block, device
        g = groups.get(key)
        if g is None:
            groups[key] = [k]
            order.append(key)
        else:
            g.append(k)
    out = []
    no_dram: dict[str, int] = {}           # level the bytes came from instead -> kernels
    for key in order:
        ks = groups[key]
        name = ks[0].name
        count = sum(k.count for k in ks)
        secs = [_seconds(k.metrics) for k in ks]
        total_s = sum(s * k.count for s, k in zip(secs, ks) if s) or None
        if total_s is not None and any(s is None for s in secs):
            rb.warn("time_missing", "Some launches had no time metric; their time is not counted.")
        ktens = [_tensor_k(k, k_tensor, device_name, rb) for k in ks]
        fl = [_flops(k.metrics, kt) for k, kt in zip(ks, ktens)]
        flops = sum(f * k.count for f, k in zip(fl, ks)) if all(f is not None for f in fl) else None
        lv: dict[str, float] = {}
        lv_ok: dict[str, bool] = {}
        for k in ks:
            got = dict(_levels(k.metrics))
            for level in ("dram", "l2", "l1"):
                if level in got:
                    lv[level] = lv.get(level, 0.0) + got[level] * k.count
                    lv_ok.setdefault(level, True)
                else:
                    lv_ok[level] = False
        levels = tuple((lvl, lv[lvl]) for lvl in ("dram", "l2", "l1") if lv_ok.get(lvl))
        label = name if len(name) <= MAX_NAME_CHARS else name[: MAX_NAME_CHARS - 1] + "\u2026"
        if len(name) > MAX_NAME_CHARS:
            rb.warn("names_truncated", f"Kernel names longer than {MAX_NAME_CHARS} characters were shortened.")
        if not levels:
            rb.skip(label, "no_bytes", total_s, count=count)
            continue
        ids = [i for k in ks for i in k.ids]
        src = ks[0].source
        if ids:
            src += f" ID {ids[0]}" + (f" (+{len(ids) - 1} more)" if len(ids) > 1 else "")
        if levels[0][0] != "dram":
            no_dram[levels[0][0]] = no_dram.get(levels[0][0], 0) + 1
        shares: dict[str, float] = {}
        for k, kt in zip(ks, ktens):
            for prec, f in _flop_shares(k.metrics, kt).items():
                shares[prec] = shares.get(prec, 0.0) + f * k.count
        out.append(KernelRecord(label, flops, levels[0][1], total_s, count, src[:MAX_NAME_CHARS], levels,
                                kernel_precision(shares)))
    if no_dram:
        n = sum(no_dram.values())
        used = "/".join(lvl.upper() for lvl in no_dram)
        rb.warn("dram_missing",
                f"Kernels without a DRAM metric: {n}. Their bytes are {used} traffic, so their "
                "intensity against the HBM roof is a lower bound (collect dram__bytes.sum).",
                n=n, levels=used)
    return out


def import_ncu_text(text: str, filename: str = "ncu.csv", *, tensor_flops_per_inst: float | None = None,
                    device_name: str | None = None, progress=None, max_rows: int | None = None,
                    **_ignored) -> ImportResult:
    """Import one Nsight Compute CSV (any of the three layouts) into an ImportResult.

    tensor_flops_per_inst: None (default) takes it from each kernel's GPU (the report's
    CC column or device name, else ``device_name``, the selected device), see
    :func:`tensor_flops_per_inst_for`; a number overrides it.  The report's notes say
    which value was used.
    """
    k_tensor = None if tensor_flops_per_inst is None else _check_k(tensor_flops_per_inst)
    rb = ReportBuilder("ncu", progress)
    layout, kernels = parse_ncu_text(text, filename, max_rows=max_rows, rb=rb)
    rb.format = layout
    recs = _records(kernels, rb, k_tensor, device_name)
    if not recs:
        rb.warn("time_only", f"{filename} has no memory-traffic metrics (only times?): import it "
                "together with the file that has them (e.g. metrics.csv + timing.csv); kernels "
                "are merged launch by launch.")
    rb.tick(0.95)
    return rb.build(recs, time_basis="measured")


def _check_k(k: object) -> float:
    if isinstance(k, bool) or not isinstance(k, (int, float)) or not math.isfinite(k) or k <= 0:
        raise ValueError(f"tensor_flops_per_inst must be a number > 0 (FLOPs per tensor-core instruction), got {k!r}")
    return float(k)


def _launch_key(k: NcuKernel) -> tuple:
    """(name, grid, block, device, launch ID): the ID is "" for a summary row (all launches)."""
    key = tuple(k.key[:4]) + ("",) * (4 - len(k.key[:4]))
    return key + ((k.key[4] if len(k.key) > 4 else ""),)


def _compatible(a: tuple, b: tuple) -> bool:
    """The same kernel name, and every other field equal where both files name it."""
    return a[0] == b[0] and all(x == y or not x or not y for x, y in zip(a[1:], b[1:]))


def _pair_launches(kernels: list[NcuKernel], launches: dict[tuple, list[NcuKernel]]) -> dict[int, NcuKernel]:
    """{id(kernel): the earlier launch it is}: per shape (name, grid, block, device), by
    launch ID when every launch of that shape in this file has an ID an earlier run has for
    it, else by their order (ncu numbers each run from 0, so a run limited to some kernels
    with -k or --launch-skip has other IDs, or the same IDs for other launches)."""
    shapes: dict[tuple, list[NcuKernel]] = {}
    for k in kernels:
        key = _launch_key(k)
        if key[4]:
            shapes.setdefault(key[:4], []).append(k)
    pairs: dict[int, NcuKernel] = {}
    for shape, ks in shapes.items():
        before = launches.get(shape, [])      # the earlier runs' launches of this shape
        by_id = {m.key[4]: m for m in before}
        if all(_launch_key(k)[4] in by_id for k in ks):
            pairs.update((id(k), by_id[_launch_key(k)[4]]) for k in ks)
        else:
            pairs.update((id(k), m) for k, m in zip(ks, before))
    return pairs


def merge_ncu_parsed(parsed: list[list[NcuKernel]]) -> list[NcuKernel]:
    """Merge the kernels of several ncu runs of one program (e.g. ``metrics.csv`` with bytes
    and ``timing.csv`` with times), launch by launch.  A launch of a later file fills the
    metrics missing from the earlier launch it is (``_pair_launches``: the same name, grid,
    block and device, then the same launch ID, or the same place in the order when the runs
    numbered their launches apart); one that no earlier file names a shape for fills the
    first unfilled entry that agrees with it where both name a field; a summary row (no
    ID) fills every launch of its kernel with its per-launch averages.  No entry is filled
    twice from one file.  Files with launch IDs are merged first, so the result does not
    depend on the order of the files.  Counts: a launch is one; two summary rows keep the
    larger Invocations.  A kernel no earlier file has is kept as it is."""
    files = sorted(parsed, key=lambda ks: not any(_launch_key(k)[4] for k in ks))
    merged: list[NcuKernel] = []
    for i, kernels in enumerate(files):
        by_name: dict[str, list[NcuKernel]] = {}          # the earlier files' entries
        launches: dict[tuple, list[NcuKernel]] = {}       # ... those with an ID, by shape
        for m in merged:
            by_name.setdefault(m.name, []).append(m)
            if m.key[4]:
                launches.setdefault(m.key[:4], []).append(m)
        pairs = _pair_launches(kernels, launches)
        used: set[int] = set(id(m) for m in pairs.values())
        for k in kernels:
            key = _launch_key(k)
            if id(k) in pairs:
                targets = [pairs[id(k)]]
            elif key[4] and key[:4] in launches:
                targets = []                  # a launch more than the earlier run had
            else:
                fits = [m for m in by_name.get(k.name, ()) if _compatible(m.key, key) and id(m) not in used]
                targets = fits if not key[4] else fits[:1]
                if key[4]:
                    used.update(id(m) for m in targets)
            if not targets:
                m = NcuKernel(k.name, key, k.source)
                m.count, m.metrics, m.ids = k.count, dict(k.metrics), list(k.ids)
                m.cc, m.device_name = k.cc, k.device_name
                merged.append(m)
                continue
            for m in targets:
                for name, v in k.metrics.items():
                    m.metrics.setdefault(name, v)
                if not m.key[4] and not key[4]:
                    m.count = max(m.count, k.count)
                if len(targets) == 1:          # fill the fields only this file names
                    m.key = tuple(x or y for x, y in zip(m.key, key))
                if k.source not in m.source:
                    m.source = (m.source + "+" + k.source.split(":", 1)[-1])[:MAX_NAME_CHARS]
                m.ids.extend(x for x in k.ids if x not in m.ids)
                m.cc = m.cc or k.cc
                m.device_name = m.device_name or k.device_name
    return merged


def import_ncu_texts(texts: list[tuple[str, str]], *, tensor_flops_per_inst: float | None = None,
                     device_name: str | None = None, progress=None, max_rows: int | None = None,
                     **_ignored) -> ImportResult:
    """Import several ncu CSVs (text, filename) merged launch by launch into one result
    (tensor_flops_per_inst and device_name as in :func:`import_ncu_text`)."""
    k_tensor = None if tensor_flops_per_inst is None else _check_k(tensor_flops_per_inst)
    rb = ReportBuilder("ncu", progress)
    parsed = []
    layouts = set()
    for text, fn in texts:
        layout, ks = parse_ncu_text(text, fn, max_rows=max_rows, rb=rb)
        layouts.add(layout)
        parsed.append(ks)
    rb.format = layouts.pop() if len(layouts) == 1 else "ncu"
    recs = _records(merge_ncu_parsed(parsed), rb, k_tensor, device_name)
    return rb.build(recs, time_basis="measured")
