"""The kernel builder: pick a kernel kind and its shapes, see its FLOPs and bytes (and how
they were counted, from calc.kernels), add it to the table.

Every input is bound to the URL (names `b_kind`, `b_dtype`, `b_m`, ...; see
ui/state.URL_NAMES["roofline"]).
"""
from __future__ import annotations

import math
from typing import Callable

import streamlit as st

from calc import kernels as K
from calc.kernel_table import KernelRecord, readable_number
from calc.units import MAX_MAGNITUDE, QuantityError, format_si, parse_quantity
from ui.i18n import Translator
from ui.roofline import state
from ui.state import bound, set_value
from ui.widgets import COUNT, Bounds, quantity_input

KINDS: tuple[str, ...] = ("gemm", "gemv", "elementwise", "softmax", "layernorm", "attention")
# dtype id -> bytes per element
DTYPES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}

#: URL names of the builder's inputs (all in URL_NAMES["roofline"]).
URL_NAMES: tuple[str, ...] = (
    "b_kind", "b_dtype", "b_m", "b_n", "b_k", "b_vm", "b_vn", "b_elems", "b_inputs", "b_fpe", "b_rows",
    "b_cols", "b_batch", "b_heads", "b_seq", "b_hd", "b_flash", "b_causal", "b_time",
)

_SHAPE_HELP_KEY = "roofline.b.shape_help"


def _shape(t: Translator, label_key: str, key: str, default: str, bounds: Bounds = COUNT) -> float | None:
    return quantity_input(t, t(label_key), key, default, help=t(_SHAPE_HELP_KEY), bounds=bounds,
                          kind="count")


def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _product(*factors: float | str) -> str:
    """"2*4096**3" from (2, 4096, 4096, 4096): ones dropped, equal neighbours as a power."""
    parts: list[tuple[str, int]] = []
    for f in factors:
        text = f if isinstance(f, str) else _n(f)
        if text == "1":
            continue
        if parts and parts[-1][0] == text:
            parts[-1] = (text, parts[-1][1] + 1)
        else:
            parts.append((text, 1))
    return "*".join(p if k == 1 else f"{p}**{k}" for p, k in parts) or "1"


def _sum(*terms: str) -> str:
    """"(a+b+c)", or "3*a" when the terms are equal."""
    if len(set(terms)) == 1 and len(terms) > 1:
        return f"{len(terms)}*{terms[0]}"
    return "(" + "+".join(terms) + ")" if len(terms) > 1 else terms[0]


def expressions(kind: str, dims: dict, b: float) -> tuple[str, str]:
    """The FLOPs and bytes of a built kernel as arithmetic a person types (the table keeps
    it, and its CSV too): GEMM 4096³ bf16 -> ("2*4096**3", "3*4096**2*2"). The formulas are
    calc.kernels' (the page checks the texts read back to calc's numbers)."""
    if kind == "gemm":
        m, n, k = dims["m"], dims["n"], dims["k"]
        return (_product(2, m, n, k),
                _product(_sum(_product(m, k), _product(k, n), _product(m, n)), b))
    if kind == "gemv":
        m, n = dims["m"], dims["n"]
        return _product(2, m, n), _product(_sum(_product(m, n), _n(n), _n(m)), b)
    if kind == "elementwise":
        n, f, i = dims["n"], dims["f"], dims["i"]
        return (_product(n, f) if f else "0"), _product(n, _n(i + 1), b)
    if kind == "softmax":
        r, c = dims["r"], dims["c"]
        return _product(K.SOFTMAX_FLOPS_PER_ELEM, r, c), _product(2, r, c, b)
    if kind == "layernorm":
        r, c = dims["r"], dims["c"]
        return (_product(K.LAYERNORM_FLOPS_PER_ELEM, r, c),
                _product(_sum(_product(2, r, c), _product(2, c)), b))
    bt, h, s_, d = dims["bt"], dims["h"], dims["s"], dims["d"]
    half = dims["flash"] and dims["causal"]
    flops = _product(2 if half else 4, bt, h, s_, s_, d)
    if dims["flash"]:
        return flops, _product(4, bt, h, s_, d, b)
    return flops, _product(_sum(_product(4, s_, d), _product(4, s_, s_)), bt, h, b)


def _cost(t: Translator, kind: str, b: float, dims: dict | None = None) -> K.KernelCost | None:
    """Draw the shape inputs of `kind` and return its cost, or None when an input is bad.
    The shapes are also put in ``dims`` (for :func:`expressions`)."""
    dims = {} if dims is None else dims
    cols = st.columns(3)
    if kind == "gemm":
        with cols[0]:
            m = _shape(t, "roofline.b.m", "b_m", "8192")
        with cols[1]:
            n = _shape(t, "roofline.b.n", "b_n", "8192")
        with cols[2]:
            k = _shape(t, "roofline.b.k", "b_k", "8192")
        dims.update(m=m, n=n, k=k)
        return None if None in (m, n, k) else K.gemm(m, n, k, b)
    if kind == "gemv":
        with cols[0]:
            m = _shape(t, "roofline.b.gemv_m", "b_vm", "4096")
        with cols[1]:
            n = _shape(t, "roofline.b.gemv_n", "b_vn", "4096")
        dims.update(m=m, n=n)
        return None if None in (m, n) else K.gemv(m, n, b)
    if kind == "elementwise":
        with cols[0]:
            n = _shape(t, "roofline.b.elems", "b_elems", "8192*4096")
        with cols[1]:
            i = _shape(t, "roofline.b.inputs", "b_inputs", "1")
        with cols[2]:
            f = quantity_input(t, t("roofline.b.fpe"), "b_fpe", "1", help=t("roofline.b.fpe_help"),
                               bounds=Bounds(lo=0.0, lo_open=False, hi=1e6))
        dims.update(n=n, i=i, f=f)
        return None if None in (n, i, f) else K.elementwise(n, b, f, i)
    if kind in ("softmax", "layernorm"):
        with cols[0]:
            r = _shape(t, "roofline.b.rows", "b_rows", "8192")
        with cols[1]:
            c = _shape(t, "roofline.b.cols", "b_cols", "4096")
        if None in (r, c):
            return None
        dims.update(r=r, c=c)
        return K.softmax(r, c, b) if kind == "softmax" else K.layernorm(r, c, b)
    # attention
    with cols[0]:
        bt = _shape(t, "roofline.b.batch", "b_batch", "1")
        s = _shape(t, "roofline.b.seq", "b_seq", "4096")
    with cols[1]:
        h = _shape(t, "roofline.b.heads", "b_heads", "32")
        d = _shape(t, "roofline.b.hd", "b_hd", "128")
    with cols[2]:
        flash = bool(bound(st.checkbox, t("roofline.b.flash"), key="b_flash", value=True,
                           help=t("roofline.b.flash_help")))
        causal = bool(bound(st.checkbox, t("roofline.b.causal"), key="b_causal", value=True,
                            help=t("roofline.b.causal_help")))
    if None in (bt, s, h, d):
        return None
    dims.update(bt=bt, h=h, s=s, d=d, flash=flash, causal=causal)
    return K.attention(bt, h, s, d, b, flash=flash, causal=causal)


def parse_time(text: str) -> float | None | str:
    """The optional measured time: None when blank, seconds (> 0), or "bad"."""
    if text is None or not str(text).strip():
        return None
    try:
        x = float(parse_quantity(str(text), kind="time"))
    except (QuantityError, ValueError, TypeError, ArithmeticError):
        return "bad"
    return x if x > 0 and x == x and x != float("inf") else "bad"


def kernel_name(cost: K.KernelCost, dtype: str) -> str:
    """calc's label with the precision named: "GEMM 4096×4096×4096 bf16", not "…, 2 B"
    (which, by the table's own rule, reads as 2 billion)."""
    head, sep, tail = cost.label.rpartition(", ")
    return f"{head} {dtype}" if sep and tail.endswith(" B") else cost.label


def record_for(cost: K.KernelCost, seconds: float | None, dtype: str = "") -> KernelRecord:
    """The table record of a built kernel (name: calc's language-neutral label, precision
    named; ``precision`` = the dtype, so an FP8 GEMM is judged against the FP8 roof, not the
    sidebar's)."""
    name = kernel_name(cost, dtype) if dtype else cost.label
    return KernelRecord(name, float(cost.flops), float(cost.bytes_moved), seconds, 1, "builder",
                        precision=dtype)


def row_for(record: KernelRecord, exprs: tuple[str, str] | None) -> dict[str, str]:
    """The table row of a built kernel: FLOPs and bytes as typed arithmetic when it reads
    back to calc's numbers, the time as a person writes it ("1.2 ms")."""
    flops, nbytes = readable_number(record.flops, "flops"), readable_number(record.bytes_moved, "bytes")
    if exprs is not None:
        try:
            if (math.isclose(parse_quantity(exprs[0]), record.flops, rel_tol=1e-12, abs_tol=0.0)
                    and math.isclose(parse_quantity(exprs[1]), record.bytes_moved, rel_tol=1e-12)):
                flops, nbytes = exprs
        except (QuantityError, ValueError, ArithmeticError):
            pass
    return {"name": record.name, "flops": flops, "bytes": nbytes,
            "seconds": readable_number(record.seconds, "seconds"), "count": "1", "source": "builder",
            "precision": record.precision}


def _add(row: dict) -> None:
    state.add_rows([row])
    st.session_state["roofline.b.added"] = row["name"]
    # the measured time belonged to that kernel: the next one starts unmeasured (a
    # LayerNorm must not inherit the GEMM's 5.2 ms)
    set_value("b_time", "")


def render_builder(t: Translator, on_added: Callable[[], None] | None = None) -> None:
    """The builder's widgets, the computed cost with its formula, and the Add button."""
    st.caption(t("roofline.b.intro"))
    c1, c2, c3 = st.columns([1.2, 1, 1.2])
    with c1:
        kind = bound(st.selectbox, t("roofline.b.kind"), list(KINDS), key="b_kind", index=0,
                     format_func=lambda k: t(f"roofline.b.kind.{k}"), help=t("roofline.b.kind_help"),
                     is_valid=lambda v: v in KINDS)
    with c2:
        dtypes = list(DTYPES)
        dtype = bound(st.selectbox, t("roofline.b.dtype"), dtypes, key="b_dtype", index=1,
                      format_func=lambda d: t("roofline.b.dtype_opt", name=d.upper(), bytes=f"{DTYPES[d]:g}"),
                      help=t("roofline.b.dtype_help"), is_valid=lambda v: v in dtypes)
    with c3:
        time_text = bound(st.text_input, t("roofline.b.time"), "", key="b_time",
                          help=t("roofline.b.time_help"), placeholder=t("roofline.b.time_placeholder"))
    seconds = parse_time(time_text)
    if seconds == "bad":
        st.error(t("roofline.b.time_bad", text=str(time_text)[:40]), icon=":material/warning:")
    dims: dict = {}
    try:
        cost = _cost(t, kind, DTYPES[dtype], dims)
    except ValueError as exc:  # calc refused a value: say which, keep the page alive
        st.error(t("roofline.b.calc_error", message=str(exc)), icon=":material/warning:")
        cost = None
    if cost is None:
        return
    if not (cost.flops <= MAX_MAGNITUDE and cost.bytes_moved <= MAX_MAGNITUDE):
        # the table takes at most 1e30 per cell (calc.units): say so here, not after Add
        st.error(t("roofline.b.too_large", flops=format_si(cost.flops, "FLOP"),
                   bytes=format_si(cost.bytes_moved, "B"), limit=f"{MAX_MAGNITUDE:.0e}"),
                 icon=":material/warning:")
        return
    m1, m2, m3 = st.columns(3)
    m1.metric(t("roofline.b.flops"), format_si(cost.flops, "FLOP"))
    m2.metric(t("roofline.b.bytes"), format_si(cost.bytes_moved, "B"))
    m3.metric(t("roofline.b.intensity"), format_si(cost.intensity, "FLOP/B"))
    st.markdown(t("roofline.b.how"))
    st.code(cost.formula.replace("; ", "\n"), language=None, wrap_lines=True)
    st.caption(t(f"roofline.b.model.{kind}"))
    ok = seconds != "bad"
    record = record_for(cost, seconds if ok else None, dtype)
    try:
        exprs = expressions(kind, dims, DTYPES[dtype])
    except (KeyError, TypeError, ValueError):
        exprs = None
    st.button(t("roofline.b.add"), key="b_add_button", type="primary", disabled=not ok,
              on_click=_add, args=(row_for(record, exprs),), help=t("roofline.b.add_help"))
    added = st.session_state.pop("roofline.b.added", None)
    if added:
        st.success(t("roofline.b.added", name=added), icon=":material/check_circle:")
