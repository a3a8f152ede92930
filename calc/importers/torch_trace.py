"""Import PyTorch profiler chrome traces (``prof.export_chrome_trace``; JSON or .json.gz).

What is read
------------
* Operators: complete events (``ph == "X"``) with category ``cpu_op`` (Kineto, 2022+) or
  ``Operator`` (2021 legacy schema); their ``args["Input Dims"]`` (recorded with
  ``record_shapes=True``), ``args["Input type"]`` (dtype names such as "float",
  "c10::BFloat16"; missing in some traces: the ``default_dtype`` option is used and a
  ``dtype_assumed`` warning given) and ``args["Concrete Inputs"]`` (scalar arguments:
  conv stride/padding/dilation, attention ``is_causal``) when present.
* GPU activity: category ``kernel``/``Kernel`` (time), ``gpu_memcpy``/``gpu_memset``/
  ``Memcpy``/``Memset``: memsets (bytes written) and device-to-device copies (bytes read
  and written, 2x) become zero-FLOP records judged by bandwidth; host transfers (HtoD,
  DtoH) are listed as skipped ``memory_copy`` with their time.
* ``ts``/``dur`` are microseconds.

Kernel -> operator linking (all three schemes of the fixtures README)
---------------------------------------------------------------------
(a) the kernel's ``External id`` equals the operator's ``External id``;
(b) 2023-era traces: the kernel's ``External id`` equals its ``correlation``; the
    ``cudaLaunchKernel`` (``cuda_runtime``/``cuda_driver``/``Runtime``) event with the same
    correlation is found and the owner is the innermost operator enclosing that launch on
    the same pid/tid. Scheme (b) is chosen when most kernels have External id ==
    correlation, and also for any kernel whose id matches no operator;
(c) legacy: lowercase ``external id`` on kernels (categories ``Operator``/``Kernel``).

Attribution rule (no double counting)
-------------------------------------
* With GPU kernels in the trace, time is GPU time. Every kernel belongs to exactly one
  owner op (above). Its time and the FLOPs/bytes go to the owner if the owner has a
  formula; otherwise to the nearest enclosing op that has one (e.g. a kernel launched by
  an op without a formula inside ``aten::scaled_dot_product_attention``). Each op instance
  is counted once however many kernels it owns; ops that own no kernels (e.g.
  ``aten::linear`` around ``aten::addmm``, which owns the GEMM kernel) add nothing, so
  nested ops never double count. Kernels whose attribution op has no formula are listed
  (``no_formula``) with their time; unlinked kernels as ``orphan_kernel``.
* Without GPU kernels (a CPU trace), time is the op's own wall duration and the op tree
  (nesting in time per thread) is walked top-down. Ops have a class: GEMM/conv/attention >
  elementwise/reduction/norm > data movement. An op with a formula is placed (its duration
  includes its children, which are not counted again) unless something below it has a
  formula of the same or a heavier class: then it is descended into, like the GPU rule's
  innermost owner (``aten::linear`` -> ``aten::addmm`` is placed, the ``aten::copy_`` of the
  bias inside addmm is absorbed; ``aten::relu`` -> ``aten::clamp_min``). The time an op
  spends outside its children when descended into is listed as ``op_overhead``; ``aten::``
  ops with nothing placeable below are listed as ``no_formula`` with their duration. Other
  events (annotations, autograd nodes, ProfilerStep) are transparent.
* Identical (name, shapes, dtypes) are aggregated: count = instances, seconds, FLOPs and
  bytes = totals.

Shape formulas (FLOPs: multiply-add = 2 FLOPs; bytes: traffic model "each input tensor read
once, each output written once", sizes from shapes x dtype sizes)
---------------------------------------------------------------------------------------
* mm [m,k]x[k,n], addmm (bias,A,B), bmm/baddbmm [b,m,k]x[b,k,n], matmul (broadcast
  batch), linear (x[...,k], W[n,k]): 2*m*n*k (x batch). The bias add of addmm/linear
  (m*n) is not counted in FLOPs (the usual convention; its bytes are).
* convolution (conv1d/2d/3d, convolution, _convolution, cudnn_convolution,
  mkldnn_convolution, ...): 2 * numel(output) * Cin/groups * prod(kernel) (= 2 * numel(out)
  * prod(weight[1:])). Output size from stride/padding/dilation in ``Concrete Inputs`` when
  present; else from the matching backward op's grad_output shape in the same trace;
  else assumed stride 1 and "same" padding (output spatial = input spatial, an upper
  bound) with a ``conv_geometry_assumed`` warning. Backward: ``*_backward_input`` and
  ``*_backward_weight`` each cost the forward's FLOPs; ``convolution_backward`` computes
  the grads in its output mask (default both = 2x forward).
* attention (scaled_dot_product_attention, _scaled_dot_product_{flash,efficient,cudnn}
  _attention, _flash_attention_forward, _efficient_attention_forward, ...): 2*B*H*L*S*(E+Ev)
  (QK^T and PV), halved when ``is_causal`` is True in Concrete Inputs; bytes q,k,v read and
  the output written once (flash model: the L x S matrix never reaches memory). Backward
  ops (…_backward): 2.5 x forward FLOPs (five L x S matmuls: recomputed QK^T, dV, dP, dQ,
  dK vs two forward) and bytes grad_out, q, k, v, out read + dq, dk, dv written.
* elementwise and reductions: FLOPs = flops_per_element x elements (output elements =
  broadcast of the tensor inputs; reductions use input elements) from
  :data:`ELEMENTWISE_FLOPS` (a documented estimate: transcendental functions count 1);
  bytes = inputs read + output written (in-place ops write their first input). When the
  inputs do not broadcast (norms with their weight/stats vectors, pooling backward, losses)
  the output is taken as large as the largest input. Reductions whose ``dim`` is not in
  Concrete Inputs count a 1-element output (bytes are dominated by the input).
* Ops that move data but do no arithmetic (copy_, fill_, zero_, cat, to, ...) have
  intensity 0: kept as zero-FLOP records (flops = 0) with their time, judged by the
  bandwidth they reach (calc.roofline.place_kernels).
* Inductor pointwise/reduction kernels (``triton_poi_fused_*``, ``triton_red_*``,
  ``triton_per_*``): an estimate, 1 FLOP per fused op named in the kernel name per element
  of the largest tensor argument, bytes = all tensor arguments once.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from calc.kernel_table import MAX_NAME_CHARS, KernelRecord

from .common import ImportFormatError, ImportResult, ReportBuilder

__all__ = [
    "import_json_text",
    "import_trace_events",
    "DTYPE_BYTES",
    "DEFAULT_DTYPE_BYTES",
    "ELEMENTWISE_FLOPS",
    "ZERO_FLOP_OPS",
    "op_cost",
]

#: Bytes per element for the ``Input type`` names PyTorch writes.
DTYPE_BYTES = {
    "float": 4, "double": 8, "c10::Half": 2, "Half": 2, "c10::BFloat16": 2, "BFloat16": 2,
    "long int": 8, "long": 8, "int": 4, "short int": 2, "short": 2, "signed char": 1,
    "unsigned char": 1, "bool": 1, "c10::Float8_e4m3fn": 1, "c10::Float8_e5m2": 1,
    "c10::Float8_e4m3fnuz": 1, "c10::Float8_e5m2fnuz": 1, "c10::complex<float>": 8,
    "c10::complex<double>": 16, "c10::complex<c10::Half>": 4, "unsigned int": 4,
    "unsigned long": 8, "c10::qint8": 1, "c10::quint8": 1, "c10::qint32": 4,
}
#: ``default_dtype`` option values (precision names) -> bytes per element.
DEFAULT_DTYPE_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "bf16": 2, "fp16": 2, "fp8": 1,
                       "int8": 1, "fp4": 0.5}
_NON_TENSOR = {"", "Scalar", "ScalarList", "GenericList", "TensorList", "Int", "Bool", "Double",
               "String", "Device", "Layout", "None", "Tuple", "IntList", "ScalarType",
               "MemoryFormat", "Float", "Long", "Storage"}

#: FLOPs per element (estimates; transcendental = 1) for elementwise/reduction/norm ops.
ELEMENTWISE_FLOPS = {
    # binary / unary arithmetic: 1
    **{n: 1 for n in (
        "add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide", "remainder", "pow",
        "maximum", "minimum", "max", "min", "neg", "abs", "exp", "exp2", "expm1", "log", "log2",
        "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "erf", "sign", "floor",
        "ceil", "round", "trunc", "relu", "relu6", "clamp", "clamp_min", "clamp_max", "clip",
        "threshold", "threshold_backward", "hardtanh", "leaky_relu", "where", "eq", "ne", "lt",
        "le", "gt", "ge", "logical_not", "logical_and", "logical_or", "masked_fill", "square",
        "sum", "mean", "amax", "amin", "prod", "cumsum", "norm", "linalg_vector_norm", "argmax",
        "argmin", "any", "all", "scale", "bitwise_and", "bitwise_or", "bitwise_not",
        "hardsigmoid", "_foreach_add", "_foreach_mul", "_foreach_div", "_foreach_sub",
        "mse_loss", "nll_loss_forward", "nll_loss_backward", "nll_loss2d_forward",
        "max_pool2d_with_indices", "max_pool2d_with_indices_backward", "avg_pool2d",
        "adaptive_avg_pool2d", "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward",
        "avg_pool2d_backward", "var", "std",
    )},
    "addcmul": 2, "addcdiv": 2, "lerp": 2, "_foreach_addcmul": 2, "_foreach_addcdiv": 2,
    "_foreach_lerp": 2, "_fused_adam": 12, "_fused_adamw": 12, "_fused_sgd": 3,
    "sigmoid": 3, "tanh": 3, "silu": 4, "mish": 6, "gelu": 8, "elu": 3, "hardswish": 3,
    "softplus": 3, "sigmoid_backward": 3, "tanh_backward": 2, "silu_backward": 6,
    "gelu_backward": 10, "hardswish_backward": 3, "elu_backward": 2, "leaky_relu_backward": 1,
    "dropout": 2, "native_dropout": 2, "native_dropout_backward": 1,
    "softmax": 5, "_softmax": 5, "log_softmax": 5, "_log_softmax": 5, "_safe_softmax": 5,
    "_softmax_backward_data": 4, "_log_softmax_backward_data": 3,
    "layer_norm": 8, "native_layer_norm": 8, "native_layer_norm_backward": 12,
    "rms_norm": 4, "_fused_rms_norm": 4, "group_norm": 8, "native_group_norm": 8,
    "native_group_norm_backward": 12,
    "batch_norm": 8, "native_batch_norm": 8, "cudnn_batch_norm": 8, "_batch_norm_impl_index": 8,
    "_native_batch_norm_legit": 8, "_native_batch_norm_legit_no_training": 2,
    "native_batch_norm_backward": 12, "cudnn_batch_norm_backward": 12,
    "embedding_dense_backward": 1, "_log_softmax_backward": 3,
}
_REDUCTIONS = {"sum", "mean", "amax", "amin", "prod", "norm", "linalg_vector_norm", "argmax",
               "argmin", "any", "all", "var", "std", "max", "min", "nll_loss_forward",
               "nll_loss2d_forward", "mse_loss", "adaptive_avg_pool2d", "_adaptive_avg_pool2d"}
#: Ops that only move data (intensity 0): kept as zero-FLOP records (flops = 0).
ZERO_FLOP_OPS = {
    "copy_", "fill_", "zero_", "zeros", "ones", "zeros_like", "ones_like", "full", "full_like",
    "to", "_to_copy", "clone", "contiguous", "cat", "_cat", "stack", "index", "index_select",
    "gather", "scatter", "scatter_", "embedding", "index_put_", "_index_put_impl_", "masked_select",
    "repeat", "copy", "empty", "empty_like", "empty_strided", "_local_scalar_dense", "item",
    "normal_", "uniform_", "random_", "bernoulli_", "arange", "nonzero", "constant_pad_nd",
    "pad", "roll", "flip", "narrow_copy", "slice_scatter", "select_scatter", "split_with_sizes_copy",
    "_unsafe_view", "view", "reshape", "permute", "transpose", "t", "expand", "as_strided",
    "unsqueeze", "squeeze", "flatten", "slice", "select", "detach", "detach_", "resize_",
    "set_", "lift_fresh", "alias", "_reshape_alias", "unbind", "split", "chunk",
}
# the in-place / _out suffix variants map to their base op

_GEMM = {"mm", "addmm", "_addmm_activation", "bmm", "baddbmm", "matmul", "linear", "mv",
         "addmv", "dot", "vdot", "_scaled_mm", "_int_mm", "addbmm"}
_CONV = {"conv1d", "conv2d", "conv3d", "convolution", "_convolution", "cudnn_convolution",
         "mkldnn_convolution", "_slow_conv2d_forward", "thnn_conv2d", "slow_conv3d",
         "miopen_convolution", "_nnpack_spatial_convolution", "conv_transpose1d",
         "conv_transpose2d", "conv_transpose3d", "cudnn_convolution_transpose",
         "convolution_overrideable", "_convolution_mode", "slow_conv_dilated2d",
         "cudnn_convolution_relu", "cudnn_convolution_add_relu"}
_CONV_BWD_INPUT = {"cudnn_convolution_backward_input", "miopen_convolution_backward_input"}
_CONV_BWD_WEIGHT = {"cudnn_convolution_backward_weight", "miopen_convolution_backward_weight"}
_CONV_BWD_FULL = {"convolution_backward", "cudnn_convolution_backward",
                  "mkldnn_convolution_backward", "_slow_conv2d_backward",
                  "convolution_backward_overrideable", "miopen_convolution_backward"}
_ATTN_BHLE = {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
              "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
              "_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_attention_math",
              "_scaled_dot_product_fused_attention_overrideable"}
_ATTN_BLHE = {"_flash_attention_forward", "_efficient_attention_forward"}
_ATTN_BWD_BHLE = {"_scaled_dot_product_flash_attention_backward",
                  "_scaled_dot_product_efficient_attention_backward",
                  "_scaled_dot_product_cudnn_attention_backward",
                  "_scaled_dot_product_flash_attention_for_cpu_backward",
                  "_scaled_dot_product_fused_attention_overrideable_backward"}
_ATTN_BWD_BLHE = {"_flash_attention_backward", "_efficient_attention_backward"}
#: index of is_causal in Concrete Inputs per attention op
_CAUSAL_ARG = {"scaled_dot_product_attention": 5, "_scaled_dot_product_flash_attention": 4,
               "_scaled_dot_product_efficient_attention": 5,
               "_scaled_dot_product_cudnn_attention": 6,
               "_scaled_dot_product_flash_attention_for_cpu": 4}
#: (stride, padding, dilation, transposed) positions in Concrete Inputs per conv op
_CONV_ARGS = {
    "conv1d": (3, 4, 5, None), "conv2d": (3, 4, 5, None), "conv3d": (3, 4, 5, None),
    "convolution": (3, 4, 5, 6), "_convolution": (3, 4, 5, 6),
    "cudnn_convolution": (3, 2, 4, None), "mkldnn_convolution": (4, 3, 5, None),
    "miopen_convolution": (4, 3, 5, None), "cudnn_convolution_relu": (3, 4, 5, None),
    "conv_transpose1d": (3, 4, 7, True), "conv_transpose2d": (3, 4, 7, True),
    "conv_transpose3d": (3, 4, 7, True), "cudnn_convolution_transpose": (4, 2, 5, True),
}
_TRITON_RE = re.compile(r"^triton_(poi|red|per)_fused_?(.*?)(?:_\d+)?$")

BACKWARD_ATTENTION_FACTOR = 2.5


class _NoFormula(Exception):
    pass


class _BadShapes(Exception):
    pass


def _base(name: str) -> str | None:
    """'aten::add_' -> 'add' ; None for names without a formula namespace."""
    if name.startswith("aten::"):
        b = name[6:]
    else:
        return None
    if b.endswith(".out"):
        b = b[:-4]
    if b.endswith("_") and not b.endswith("__") and b[:-1] in ELEMENTWISE_FLOPS:
        return b[:-1] if b not in ZERO_FLOP_OPS else b
    return b


def _prod(xs) -> int:
    p = 1
    for x in xs:
        p *= int(x)
    return p


class _Op:
    __slots__ = ("name", "pid", "tid", "ts", "end", "dims", "types", "concrete", "idx",
                 "parent", "children", "dur", "ext")

    def __init__(self, e: dict, idx: int):
        self.name = str(e.get("name", ""))
        self.pid = e.get("pid")
        self.tid = str(e.get("tid"))
        ts = e.get("ts")
        dur = e.get("dur")
        self.ts = float(ts) if isinstance(ts, (int, float)) else 0.0
        self.dur = float(dur) if isinstance(dur, (int, float)) and dur >= 0 else 0.0
        self.end = self.ts + self.dur
        a = e.get("args")
        if not isinstance(a, dict):
            a = {}
        self.dims = a.get("Input Dims", a.get("Input dims"))
        self.types = a.get("Input type", a.get("Input types"))
        self.concrete = a.get("Concrete Inputs")
        self.idx = idx
        self.parent = None
        self.children = None
        ext = a.get("External id", a.get("external id"))
        self.ext = ext if isinstance(ext, (int, str)) and not isinstance(ext, bool) else None


class _Ctx:
    def __init__(self, default_bytes: float, rb: ReportBuilder):
        self.default_bytes = default_bytes
        self.rb = rb
        self.conv_out: dict = {}  # (input shape, weight shape) -> output shape
        self.conv_out2: dict = {}  # (input shape, Cout) -> output shape
        self.conv_w: dict = {}  # (input shape, Cout) -> weight shape
        self.dtype_assumed = False
        self.geometry_assumed = 0


def _tensors(op: _Op, ctx: _Ctx) -> list[tuple[list[int], float] | None]:
    """Per input: (shape, bytes per element) for tensors, None for non-tensors."""
    dims = op.dims
    if not isinstance(dims, list):
        raise _BadShapes("no shapes")
    types = op.types if isinstance(op.types, list) else None
    out = []
    for i, d in enumerate(dims):
        t = types[i] if types is not None and i < len(types) else None
        if not isinstance(d, list) or (d and not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in d)):
            out.append(None)  # TensorList or junk
            continue
        if t is not None:
            if not isinstance(t, str) or t in _NON_TENSOR:
                out.append(None)
                continue
            size = DTYPE_BYTES.get(t)
            if size is None:
                size = ctx.default_bytes
            out.append((d, size))
        else:
            if not d:
                out.append(None)  # scalars / non-tensors cannot be told apart: ignore
                continue
            ctx.dtype_assumed = True
            out.append((d, ctx.default_bytes))
    return out


def _nbytes(t) -> float:
    return _prod(t[0]) * t[1] if t else 0.0


def _concrete(op: _Op, i: int | None):
    c = op.concrete
    if i is None or not isinstance(c, list) or i >= len(c):
        return None
    v = c[i]
    if not isinstance(v, str) or not v.strip():
        return None
    s = v.strip()
    try:
        return json.loads(s.replace("True", "true").replace("False", "false").replace("(", "[").replace(")", "]"))
    except (ValueError, RecursionError):
        return s


def _need(ts, *idx):
    got = []
    for i in idx:
        if i >= len(ts) or ts[i] is None:
            raise _BadShapes(f"input {i} is not a tensor")
        got.append(ts[i])
    return got


def _gemm_cost(b: str, ts) -> tuple[float, float]:
    if b in ("mm", "_int_mm", "_scaled_mm"):
        A, B = _need(ts, 0, 1)
        if len(A[0]) != 2 or len(B[0]) != 2 or A[0][1] != B[0][0]:
            raise _BadShapes("mm needs [m,k] x [k,n]")
        m, k = A[0]
        n = B[0][1]
        out = m * n * A[1]
        return 2.0 * m * n * k, _nbytes(A) + _nbytes(B) + out
    if b in ("addmm", "_addmm_activation"):
        C, A, B = _need(ts, 0, 1, 2)
        if len(A[0]) != 2 or len(B[0]) != 2 or A[0][1] != B[0][0]:
            raise _BadShapes("addmm needs bias, [m,k], [k,n]")
        m, k = A[0]
        n = B[0][1]
        return 2.0 * m * n * k, _nbytes(C) + _nbytes(A) + _nbytes(B) + m * n * A[1]
    if b in ("bmm", "baddbmm", "addbmm"):
        off = 0 if b == "bmm" else 1
        A, B = _need(ts, off, off + 1)
        if len(A[0]) != 3 or len(B[0]) != 3 or A[0][2] != B[0][1]:
            raise _BadShapes("bmm needs [b,m,k] x [b,k,n]")
        bb, m, k = A[0]
        n = B[0][2]
        extra = _nbytes(ts[0]) if off and ts[0] is not None else 0.0
        outn = (m * n) if b == "addbmm" else bb * m * n
        return 2.0 * bb * m * n * k, extra + _nbytes(A) + _nbytes(B) + outn * A[1]
    if b == "matmul":
        A, B = _need(ts, 0, 1)
        a, bs = list(A[0]), list(B[0])
        if not a or not bs:
            raise _BadShapes("matmul of scalars")
        if len(a) == 1:
            a = [1] + a
        if len(bs) == 1:
            bs = bs + [1]
        if a[-1] != bs[-2]:
            raise _BadShapes("matmul inner dimensions differ")
        m, k, n = a[-2], a[-1], bs[-1]
        ba, bb_ = a[:-2], bs[:-2]
        nb = max(len(ba), len(bb_))
        ba = [1] * (nb - len(ba)) + ba
        bb_ = [1] * (nb - len(bb_)) + bb_
        batch = 1
        for x, y in zip(ba, bb_):
            if x != y and 1 not in (x, y):
                raise _BadShapes("matmul batch dimensions do not broadcast")
            batch *= max(x, y)
        return 2.0 * batch * m * n * k, _nbytes(A) + _nbytes(B) + batch * m * n * A[1]
    if b == "linear":
        X, W = _need(ts, 0, 1)
        if len(W[0]) != 2 or not X[0] or X[0][-1] != W[0][1]:
            raise _BadShapes("linear needs x[...,k] and W[n,k]")
        rows = _prod(X[0][:-1])
        n, k = W[0]
        bias = _nbytes(ts[2]) if len(ts) > 2 and ts[2] is not None else 0.0
        return 2.0 * rows * n * k, _nbytes(X) + _nbytes(W) + bias + rows * n * X[1]
    if b in ("mv", "addmv"):
        off = 0 if b == "mv" else 1
        A, x = _need(ts, off, off + 1)
        if len(A[0]) != 2:
            raise _BadShapes("mv needs a matrix")
        m, k = A[0]
        return 2.0 * m * k, _nbytes(A) + _nbytes(x) + m * A[1]
    if b in ("dot", "vdot"):
        x, y = _need(ts, 0, 1)
        n = _prod(x[0])
        return 2.0 * n, _nbytes(x) + _nbytes(y) + x[1]
    raise _NoFormula(b)


def _conv_out_shape(op: _Op, b: str, X, W, ctx: _Ctx) -> list[int]:
    x, w = list(X[0]), list(W[0])
    key = (tuple(x), tuple(w))
    if key in ctx.conv_out:
        return list(ctx.conv_out[key])
    if (tuple(x), w[0]) in ctx.conv_out2:
        return list(ctx.conv_out2[(tuple(x), w[0])])
    nsp = len(x) - 2
    pos = _CONV_ARGS.get(b)
    if pos is not None and op.concrete:
        stride = _concrete(op, pos[0])
        padding = _concrete(op, pos[1])
        dilation = _concrete(op, pos[2])

        def expand(v, default):
            if v is None:
                return [default] * nsp
            if isinstance(v, int):
                return [v] * nsp
            if isinstance(v, list) and len(v) in (1, nsp) and all(isinstance(q, int) for q in v):
                return v * nsp if len(v) == 1 else v
            return None

        st, dl = expand(stride, 1), expand(dilation, 1)
        if isinstance(padding, str) and padding.strip("'\"") in ("same", "valid") and st:
            pmode = padding.strip("'\"")
            if pmode == "same":
                return [x[0], w[0]] + x[2:]
            pd = [0] * nsp
        else:
            pd = expand(padding, 0)
        if st and pd and dl and stride is not None:
            outsp = []
            for i in range(nsp):
                o = (x[2 + i] + 2 * pd[i] - dl[i] * (w[2 + i] - 1) - 1) // st[i] + 1
                if o <= 0:
                    raise _BadShapes("convolution output would be empty")
                outsp.append(o)
            return [x[0], w[0]] + outsp
    ctx.geometry_assumed += 1
    return [x[0], w[0]] + x[2:]


def _conv_cost(op: _Op, b: str, ts, ctx: _Ctx) -> tuple[float, float]:
    if b in _CONV:
        X, W = _need(ts, 0, 1)
        if len(X[0]) < 3 or len(W[0]) != len(X[0]):
            raise _BadShapes("convolution needs input [N,C,...] and weight [Cout,Cin/g,...]")
        transposed = "transpose" in b
        pos = _CONV_ARGS.get(b)
        if pos is not None and pos[3] is not None and not isinstance(pos[3], bool):
            tv = _concrete(op, pos[3])
            transposed = transposed or tv is True or tv == "True"
        if transposed:
            flops = 2.0 * _prod(X[0]) * _prod(W[0][1:])
            bias = _nbytes(ts[2]) if len(ts) > 2 and ts[2] is not None else 0.0
            # output at least as large as the input per channel group: bytes use input size
            return flops, _nbytes(X) + _nbytes(W) + bias + _prod(X[0]) / max(1, X[0][1]) * W[0][1] * X[1]
        out = _conv_out_shape(op, b, X, W, ctx)
        flops = 2.0 * _prod(out) * _prod(W[0][1:])
        bias = _nbytes(ts[2]) if len(ts) > 2 and ts[2] is not None and b != "cudnn_convolution" else 0.0
        return flops, _nbytes(X) + _nbytes(W) + bias + _prod(out) * X[1]
    if b in _CONV_BWD_INPUT:
        G, W = _need(ts, 1, 2)
        if len(W[0]) != len(G[0]):
            raise _BadShapes("backward_input needs grad_output and weight")
        flops = 2.0 * _prod(G[0]) * _prod(W[0][1:])
        # grad_input has the input's size, about numel(grad_out)/Cout*Cin
        gin = _prod(G[0]) / max(1, G[0][1]) * W[0][1]
        return flops, _nbytes(G) + _nbytes(W) + gin * G[1]
    if b in _CONV_BWD_WEIGHT:
        G, X = _need(ts, 1, 2)
        w = ctx.conv_w.get((tuple(X[0]), G[0][1]))
        if w is None:
            raise _BadShapes("weight shape unknown (no matching forward convolution in the trace)")
        flops = 2.0 * _prod(G[0]) * _prod(w[1:])
        return flops, _nbytes(G) + _nbytes(X) + _prod(w) * G[1]
    if b in _CONV_BWD_FULL:
        if b == "cudnn_convolution_backward":
            X, G, W = _need(ts, 0, 1, 2)
        else:
            G, X, W = _need(ts, 0, 1, 2)
        mask = _concrete(op, 10 if b == "convolution_backward" else len(ts) - 1)
        n_grads = 2
        if isinstance(mask, list) and len(mask) >= 2:
            n_grads = int(bool(mask[0])) + int(bool(mask[1])) or 1
        flops = n_grads * 2.0 * _prod(G[0]) * _prod(W[0][1:])
        return flops, 2 * _nbytes(X) + 2 * _nbytes(W) + _nbytes(G)
    raise _NoFormula(b)


def _attn_cost(op: _Op, b: str, ts) -> tuple[float, float]:
    bwd = b in _ATTN_BWD_BHLE or b in _ATTN_BWD_BLHE
    blhe = b in _ATTN_BLHE or b in _ATTN_BWD_BLHE
    off = 1 if bwd else 0
    Q, K, V = _need(ts, off, off + 1, off + 2)
    q, k, v = Q[0], K[0], V[0]
    if len(q) < 3 or len(k) != len(q) or len(v) != len(q):
        raise _BadShapes("attention needs q, k, v of the same rank")
    E, Ev = q[-1], v[-1]
    S = k[1] if blhe else k[-2]
    rows = _prod(q[:-1])  # B*H*L
    flops = 2.0 * rows * S * (E + Ev)
    causal = _concrete(op, _CAUSAL_ARG.get(b))
    if causal is True or causal == "True":
        flops /= 2
    out_bytes = rows * Ev * Q[1]
    if bwd:
        flops *= BACKWARD_ATTENTION_FACTOR
        byts = 2 * out_bytes + 2 * (_nbytes(Q) + _nbytes(K) + _nbytes(V))
    else:
        byts = _nbytes(Q) + _nbytes(K) + _nbytes(V) + out_bytes
    return flops, byts


def _broadcast(shapes: list[list[int]]) -> list[int]:
    n = max(len(s) for s in shapes)
    out = [1] * n
    for s in shapes:
        s = [1] * (n - len(s)) + list(s)
        for i, x in enumerate(s):
            if x != 1:
                if out[i] not in (1, x):
                    raise _BadShapes("shapes do not broadcast")
                out[i] = x
    return out


def _elementwise_cost(op: _Op, b: str, ts) -> tuple[float, float]:
    per = ELEMENTWISE_FLOPS[b]
    tens = [t for t in ts if t is not None]
    if not tens:
        raise _BadShapes("no tensor input")
    first = ts[0] if ts and ts[0] is not None else tens[0]
    inplace = op.name.endswith("_") and not op.name.endswith("__")
    if b in _REDUCTIONS:
        n_in = _prod(first[0])
        reduced = 1
        dim = _concrete(op, 1)
        if isinstance(dim, int):
            dim = [dim]
        if isinstance(dim, list) and first[0] and all(isinstance(d, int) for d in dim):
            keep = [x for i, x in enumerate(first[0]) if i not in {d % len(first[0]) for d in dim}]
            reduced = _prod(keep)
        return float(per * n_in), sum(_nbytes(t) for t in tens) + reduced * first[1]
    if inplace:
        out_n = _prod(first[0])
    else:
        try:
            out_n = _prod(_broadcast([t[0] for t in tens]))
        except _BadShapes:
            # norms, pooling backward, losses: the output has the largest input's size
            out_n = max(_prod(t[0]) for t in tens)
    rd = sum(_nbytes(t) for t in tens)
    return float(per * out_n), rd + out_n * first[1]


def _triton_cost(op: _Op, ts) -> tuple[float, float]:
    m = _TRITON_RE.match(op.name)
    if not m:
        raise _NoFormula(op.name)
    tens = [t for t in ts if t is not None and t[0]]
    if not tens:
        raise _BadShapes("no tensor argument")
    tokens = [t for t in m.group(2).split("_") if t and not t.isdigit()]
    per = max(1, len(tokens))
    n = max(_prod(t[0]) for t in tens)
    return float(per * n), float(sum(_nbytes(t) for t in tens))


def _op_class(name: str) -> int:
    """-1 no formula, 0 data movement, 1 elementwise/reduction/norm, 2 GEMM/conv/attention."""
    if name.startswith("triton_"):
        return 1 if _TRITON_RE.match(name) else -1
    b = _base(name)
    if b is None:
        return -1
    if (b in _GEMM or b in _CONV or b in _CONV_BWD_INPUT or b in _CONV_BWD_WEIGHT
            or b in _CONV_BWD_FULL or b in _ATTN_BHLE or b in _ATTN_BLHE or b in _ATTN_BWD_BHLE
            or b in _ATTN_BWD_BLHE):
        return 2
    if b in ELEMENTWISE_FLOPS:
        return 1
    if b in ZERO_FLOP_OPS:
        return 0
    return -1


def has_formula(name: str) -> bool:
    """True when :func:`op_cost` knows a formula (or a zero-FLOP rule) for this op name."""
    if name.startswith("triton_"):
        return bool(_TRITON_RE.match(name))
    b = _base(name)
    if b is None:
        return False
    return (b in _GEMM or b in _CONV or b in _CONV_BWD_INPUT or b in _CONV_BWD_WEIGHT
            or b in _CONV_BWD_FULL or b in _ATTN_BHLE or b in _ATTN_BLHE or b in _ATTN_BWD_BHLE
            or b in _ATTN_BWD_BLHE or b in ELEMENTWISE_FLOPS or b in ZERO_FLOP_OPS)


def _cost(op: _Op, ctx: _Ctx) -> tuple[float, float]:
    """(flops, bytes) of one op instance; raises _NoFormula / _BadShapes."""
    if op.name.startswith("triton_"):
        return _triton_cost(op, _tensors(op, ctx))
    b = _base(op.name)
    if b is None:
        raise _NoFormula(op.name)
    if b in ZERO_FLOP_OPS:
        ts = _tensors(op, ctx) if isinstance(op.dims, list) else []
        return 0.0, float(sum(_nbytes(t) for t in ts if t is not None))
    if not (b in _GEMM or b in _CONV or b in _CONV_BWD_INPUT or b in _CONV_BWD_WEIGHT
            or b in _CONV_BWD_FULL or b in _ATTN_BHLE or b in _ATTN_BLHE
            or b in _ATTN_BWD_BHLE or b in _ATTN_BWD_BLHE or b in ELEMENTWISE_FLOPS):
        raise _NoFormula(b)
    if not isinstance(op.dims, list) or not op.dims:
        raise _BadShapes("no shapes")
    ts = _tensors(op, ctx)
    if b in _GEMM:
        return _gemm_cost(b, ts)
    if b in _CONV or b in _CONV_BWD_INPUT or b in _CONV_BWD_WEIGHT or b in _CONV_BWD_FULL:
        return _conv_cost(op, b, ts, ctx)
    if b in _ATTN_BHLE or b in _ATTN_BLHE or b in _ATTN_BWD_BHLE or b in _ATTN_BWD_BLHE:
        return _attn_cost(op, b, ts)
    return _elementwise_cost(op, b, ts)


def op_cost(name: str, input_dims: list, input_types: list | None = None,
            concrete_inputs: list | None = None, default_dtype: str = "bf16") -> tuple[float, float]:
    """FLOPs and bytes of one profiler op from its recorded shapes (see module docstring).

    ``op_cost("aten::mm", [[512, 256], [256, 128]], ["float", "float"])`` ->
    (2*512*128*256, (512*256 + 256*128 + 512*128) * 4). Raises ValueError for an op without
    a formula or shapes that do not fit it.
    """
    op = _Op({"name": name, "args": {"Input Dims": input_dims, "Input type": input_types,
                                     "Concrete Inputs": concrete_inputs}}, 0)
    ctx = _Ctx(DEFAULT_DTYPE_BYTES.get(default_dtype, 2), ReportBuilder("torch_trace"))
    try:
        return _cost(op, ctx)
    except _NoFormula:
        raise ValueError(f"no FLOP formula for {name}") from None
    except _BadShapes as exc:
        raise ValueError(f"{name}: {exc}") from None


# ----------------------------------------------------------------------------- the trace

def _cat(e: dict) -> str:
    c = e.get("cat")
    return c.lower() if isinstance(c, str) else ""


def _build_tree(ops: list[_Op]) -> None:
    """Set parent/children by time nesting per (pid, tid)."""
    by_thread: dict = {}
    for op in ops:
        by_thread.setdefault((op.pid, op.tid), []).append(op)
    for lst in by_thread.values():
        lst.sort(key=lambda o: (o.ts, -o.dur))
        stack: list[_Op] = []
        for op in lst:
            while stack and op.ts >= stack[-1].end:
                stack.pop()
            if stack:
                p = stack[-1]
                op.parent = p
                if p.children is None:
                    p.children = []
                p.children.append(op)
            stack.append(op)


def _enclosing(ops: list[_Op], queries: list[tuple[Any, str, float, int]]) -> dict[int, _Op]:
    """For launch events (pid, tid, ts, key): innermost op on that thread enclosing ts."""
    by_thread: dict = {}
    for op in ops:
        by_thread.setdefault((op.pid, op.tid), [[], []])[0].append(op)
    for q in queries:
        by_thread.setdefault((q[0], q[1]), [[], []])[1].append(q)
    found: dict[int, _Op] = {}
    for lst, qs in by_thread.values():
        if not qs or not lst:
            continue
        items = [(o.ts, 0, -o.dur, i) for i, o in enumerate(lst)]
        items += [(q[2], 1, 0.0, j) for j, q in enumerate(qs)]
        items.sort()
        stack: list[_Op] = []
        for t, kind, _, i in items:
            while stack and t >= stack[-1].end:
                stack.pop()
            if kind == 0:
                stack.append(lst[i])
            elif stack:
                found[qs[i][3]] = stack[-1]
    return found


def _shape_key(op: _Op) -> str:
    dims = op.dims if isinstance(op.dims, list) else []
    parts = []
    for d in dims:
        if isinstance(d, list) and d and all(isinstance(x, int) for x in d):
            parts.append("[" + ",".join(str(x) for x in d) + "]")
    return "x".join(parts)


def _learn_conv_geometry(ops: list[_Op], ctx: _Ctx) -> None:
    for op in ops:
        b = _base(op.name)
        if b is None or not isinstance(op.dims, list):
            continue
        d = op.dims

        def ok(i):
            return i < len(d) and isinstance(d[i], list) and len(d[i]) >= 3 and all(isinstance(x, int) for x in d[i])

        try:
            if b in _CONV and ok(0) and ok(1) and "transpose" not in b:
                ctx.conv_w[(tuple(d[0]), d[1][0])] = tuple(d[1])
            elif b == "cudnn_convolution_backward" and ok(0) and ok(1) and ok(2):
                ctx.conv_out[(tuple(d[0]), tuple(d[2]))] = tuple(d[1])
                ctx.conv_w[(tuple(d[0]), d[2][0])] = tuple(d[2])
            elif b in _CONV_BWD_FULL and ok(0) and ok(1) and ok(2):
                ctx.conv_out[(tuple(d[1]), tuple(d[2]))] = tuple(d[0])
                ctx.conv_w[(tuple(d[1]), d[2][0])] = tuple(d[2])
            elif b in _CONV_BWD_WEIGHT and ok(1) and ok(2):
                ctx.conv_out2[(tuple(d[2]), d[1][1])] = tuple(d[1])
        except (TypeError, IndexError):
            continue


def import_json_text(text: str, filename: str = "trace.json", **options) -> ImportResult:
    """Parse JSON text: a PyTorch profiler trace, or a Roofline Lab scenario (its kernels).

    Raises :class:`ImportFormatError` for invalid JSON or JSON that is neither.
    """
    progress = options.get("progress")
    from calc.importers import MAX_DECOMPRESSED_BYTES
    from calc.json_in import read_json
    doc = read_json(text, filename, max_bytes=MAX_DECOMPRESSED_BYTES, error=ImportFormatError,
                    hint="The file may be cut short or not a profiler trace. Export traces "
                         "with prof.export_chrome_trace(\"trace.json\").")
    if progress:
        try:
            progress(0.4)
        except Exception:
            pass
    if isinstance(doc, dict) and doc.get("format") == "roofline-lab.scenario":
        from calc.scenario import ScenarioError, scenario_from_dict

        try:
            sc = scenario_from_dict(doc)
        except ScenarioError as exc:
            raise ImportFormatError(f"{filename}: scenario file is not valid: {exc}") from None
        rb = ReportBuilder("scenario", progress)
        rb.n_read = len(sc.kernels)
        rb.warn("scenario_kernels", "Only the kernels of this scenario file were imported; "
                "open it as a scenario to restore devices and settings too.")
        return rb.build(list(sc.kernels), time_basis="measured")
    if isinstance(doc, dict):
        events = doc.get("traceEvents")
        if events is None:
            raise ImportFormatError(
                f"{filename}: JSON without \"traceEvents\": not a PyTorch profiler chrome trace "
                "(export one with prof.export_chrome_trace(\"trace.json\"))."
            )
    elif isinstance(doc, list):
        events = doc
    else:
        raise ImportFormatError(f"{filename}: the JSON holds a single value, not a profiler trace.")
    if not isinstance(events, list):
        raise ImportFormatError(f"{filename}: \"traceEvents\" must be a list of events.")
    props = doc.get("deviceProperties") if isinstance(doc, dict) else None
    return import_trace_events(events, filename, device_properties=props, **options)


#: ``Input type`` names -> the precision of the math (calc.hardware.PRECISIONS).
PRECISION_OF_TYPE = {
    "float": "fp32", "double": "fp64", "c10::Half": "fp16", "Half": "fp16",
    "c10::BFloat16": "bf16", "BFloat16": "bf16", "c10::Float8_e4m3fn": "fp8",
    "c10::Float8_e5m2": "fp8", "c10::Float8_e4m3fnuz": "fp8", "c10::Float8_e5m2fnuz": "fp8",
    "signed char": "int8", "c10::qint8": "int8", "c10::quint8": "int8",
}


def _precision_of(types: tuple, default: str) -> str:
    """The precision of an op from its input types (the first float type; else an int8
    type), or ``default`` when the trace gives no types."""
    names = [t for t in types if isinstance(t, str)]
    if not names:
        return default
    found = [PRECISION_OF_TYPE[t] for t in names if t in PRECISION_OF_TYPE]
    floats = [p for p in found if p != "int8"]
    return floats[0] if floats else (found[0] if found else default)


def _gpu_of(event: dict) -> str:
    """The GPU a kernel, copy or memset ran on: its ``pid`` as text, the rule the Trace
    doctor's reader uses (calc.trace_events: the device of a GPU event is its pid)."""
    return str(event.get("pid", ""))


def _device_from_properties(props) -> tuple[str, str]:
    """(name, compute capability) of the first GPU in a trace's ``deviceProperties``."""
    if not isinstance(props, list):
        return "", ""
    for d in props:
        if isinstance(d, dict) and isinstance(d.get("name"), str) and d["name"].strip():
            major, minor = d.get("computeMajor"), d.get("computeMinor")
            cc = f"{major}.{minor}" if isinstance(major, int) and isinstance(minor, int) else ""
            return d["name"].strip()[:120], cc
    return "", ""


def import_trace_events(events: list, filename: str = "trace.json", *, default_dtype: str = "bf16",
                        progress=None, device_properties=None, **_ignored) -> ImportResult:
    """Import a list of chrome-trace events (see the module docstring for every rule).

    Each record carries the precision of its op (from ``Input type``; ``default_dtype``
    when the trace has none) so it is judged against that precision's roof; the report
    names the trace's GPU (``device_properties``, the trace's ``deviceProperties``) and
    splits the items read into placed + skipped + no GPU work of their own.
    """
    if default_dtype not in DEFAULT_DTYPE_BYTES:
        raise ValueError(f"default_dtype must be one of {', '.join(DEFAULT_DTYPE_BYTES)}, got {default_dtype!r}")
    rb = ReportBuilder("torch_trace", progress)
    ctx = _Ctx(DEFAULT_DTYPE_BYTES[default_dtype], rb)
    ops: list[_Op] = []
    kernels: list[dict] = []
    copies: list[dict] = []
    runtime_by_corr: dict = {}
    n_ev = len(events)
    for i, e in enumerate(events):
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        c = _cat(e)
        if c in ("cpu_op", "operator"):
            ops.append(_Op(e, len(ops)))
        elif c == "kernel":
            kernels.append(e)
        elif c in ("gpu_memcpy", "gpu_memset", "memcpy", "memset"):
            copies.append(e)
        elif c in ("cuda_runtime", "runtime", "cuda_driver"):
            a = e.get("args")
            if isinstance(a, dict) and a.get("correlation") is not None:
                runtime_by_corr[a.get("correlation")] = e
        if i % 50000 == 0:
            rb.tick(0.4 + 0.2 * i / max(1, n_ev))
    if not ops and not kernels:
        raise ImportFormatError(
            f"{filename}: the trace has no operator or kernel events (is it a PyTorch profiler "
            "trace? profile at least one step inside the profiler context)."
        )
    rb.n_read = len(ops)
    rb.device_name, rb.device_cc = _device_from_properties(device_properties)
    tally = {"placed": 0, "skipped": 0, "extra": 0}   # extra: GPU events that are no operator
    _build_tree(ops)
    _learn_conv_geometry(ops, ctx)
    rb.tick(0.7)
    # cost per signature (name, shapes, dtypes, concrete inputs): computed once per distinct op
    cost_cache: dict[tuple, tuple] = {}

    def cost_of(op: _Op):
        sig = (op.name, repr(op.dims), repr(op.types), repr(op.concrete))
        r = cost_cache.get(sig)
        if r is None:
            try:
                r = ("ok",) + _cost(op, ctx)
            except _NoFormula:
                r = ("no_formula",)
            except _BadShapes as exc:
                r = ("no_shapes" if str(exc) == "no shapes" else "bad_shapes", str(exc))
            except (TypeError, ValueError, OverflowError, ZeroDivisionError, IndexError, KeyError) as exc:
                r = ("bad_shapes", str(exc)[:100])
            if r[0] == "ok":
                types = op.types if isinstance(op.types, list) else []
                gkey = (op.name, _shape_key(op),
                        tuple(t for t in types if isinstance(t, str) and t not in _NON_TENSOR))
                r = r + (gkey,)
            cost_cache[sig] = r
        return r

    groups: dict[tuple, list] = {}

    def place(op: _Op, seconds: float, n_inst: int = 1, on_devices=None):
        """Place ``op`` with ``seconds`` of time; ``on_devices``: {GPU (its pid): seconds} of
        the kernels behind it, recorded as placed on each GPU when the op is placed."""
        r = cost_of(op)
        if r[0] != "ok":
            reason = r[0]
            rb.skip(op.name[:MAX_NAME_CHARS], reason, seconds,
                    f"{op.name}: {r[1]}" if len(r) > 1 else "")
            tally["skipped"] += 1
            return
        flops, byts, key = r[1], r[2], r[3]
        if flops < 0 or byts <= 0 or not math.isfinite(flops) or not math.isfinite(byts):
            rb.skip(op.name[:MAX_NAME_CHARS], "zero_work", seconds)
            tally["skipped"] += 1
            return
        tally["placed"] += 1
        for dev, dev_s in (on_devices or {}).items():
            rb.placed_on(dev, dev_s)
        # flops == 0 with bytes > 0 (copy_, fill_, cat, ...): real GPU time, kept as a
        # zero-FLOP record judged by its bandwidth (calc.roofline.place_kernels).
        g = groups.get(key)
        if g is None:
            groups[key] = [flops * n_inst, byts * n_inst, seconds, n_inst]
        else:
            g[0] += flops * n_inst
            g[1] += byts * n_inst
            g[2] += seconds
            g[3] += n_inst

    total_s = 0.0
    if kernels:
        time_basis = "gpu_kernels"
        op_by_ext: dict = {}
        for op in ops:
            if op.ext is not None and op.ext not in op_by_ext:
                op_by_ext[op.ext] = op
        kinfo = []
        same = 0
        for k in kernels:
            a = k.get("args") if isinstance(k.get("args"), dict) else {}
            ext = a.get("External id", a.get("external id"))
            corr = a.get("correlation")
            if ext is not None and ext == corr:
                same += 1
            d = k.get("dur")
            dur = float(d) if isinstance(d, (int, float)) and d >= 0 else 0.0
            kinfo.append((ext, corr, dur, str(k.get("name", "kernel")), _gpu_of(k)))
        scheme_b = same > len(kernels) / 2 and bool(runtime_by_corr)
        queries = []
        for qi, (ext, corr, dur, name, _dev) in enumerate(kinfo):
            if (scheme_b or ext not in op_by_ext) and corr in runtime_by_corr:
                r = runtime_by_corr[corr]
                rts = r.get("ts")
                if isinstance(rts, (int, float)):
                    queries.append((r.get("pid"), str(r.get("tid")), float(rts), qi))
        launch_owner = _enclosing(ops, queries) if queries else {}
        attributed: dict[int, list] = {}
        for qi, (ext, corr, dur, name, dev) in enumerate(kinfo):
            total_s += dur * 1e-6
            owner = launch_owner.get(qi)
            if owner is None and not scheme_b:
                owner = op_by_ext.get(ext)
            if owner is None and scheme_b:
                owner = op_by_ext.get(ext) if ext != corr else None
            if owner is None:
                rb.skip(name[:80], "orphan_kernel", dur * 1e-6)
                tally["skipped"] += 1
                tally["extra"] += 1
                continue
            target = owner
            if not has_formula(owner.name):
                p = owner.parent
                while p is not None and not has_formula(p.name):
                    p = p.parent
                if p is not None:
                    target = p
            slot = attributed.get(target.idx)
            if slot is None:
                slot = attributed[target.idx] = [target, 0.0, {}]
            slot[1] += dur * 1e-6
            slot[2][dev] = slot[2].get(dev, 0.0) + dur * 1e-6
        rb.tick(0.85)
        for target, secs, on_devices in attributed.values():
            place(target, secs, on_devices=on_devices)
        for e in copies:
            d = e.get("dur")
            dur = float(d) if isinstance(d, (int, float)) and d >= 0 else 0.0
            total_s += dur * 1e-6
            name = str(e.get("name", "memcpy"))[:80]
            a = e.get("args") if isinstance(e.get("args"), dict) else {}
            nbytes = a.get("bytes")
            # Device-memory traffic with no arithmetic: a memset writes its bytes, a
            # device-to-device copy reads and writes them (2x).  Host transfers are bound by
            # PCIe/NVLink, not by the device memory, so they stay listed as memory_copy.
            low = name.lower()
            dram = None
            if isinstance(nbytes, (int, float)) and not isinstance(nbytes, bool) and nbytes > 0:
                if "memset" in low:
                    dram = float(nbytes)
                elif "dtod" in low or "device -> device" in low:
                    dram = 2.0 * float(nbytes)
            tally["extra"] += 1
            if dram is None:
                rb.skip(name, "memory_copy", dur * 1e-6)
                tally["skipped"] += 1
                continue
            tally["placed"] += 1
            rb.placed_on(_gpu_of(e), dur * 1e-6)
            g = groups.get((name, "", ()))
            if g is None:
                groups[(name, "", ())] = [0.0, dram, dur * 1e-6, 1]
            else:
                g[1] += dram
                g[2] += dur * 1e-6
                g[3] += 1
    else:
        time_basis = "cpu_ops"
        rb.warn("no_gpu_time", "The trace has no GPU kernels; times are the operators' own "
                "durations on the CPU (wall time, including launch overhead).")

        def rank(op: _Op) -> int:
            if not (op.name.startswith("aten::") or op.name.startswith("triton_")):
                return -1
            return _op_class(op.name)

        order = []
        roots = [op for op in ops if op.parent is None]
        stack = list(roots)
        while stack:
            o = stack.pop()
            order.append(o)
            if o.children:
                stack.extend(o.children)
        best_below: dict[int, int] = {}
        for o in reversed(order):  # children before parents
            m = -1
            if o.children:
                for ch in o.children:
                    m = max(m, rank(ch), best_below[ch.idx])
            best_below[o.idx] = m
        stack = list(roots)
        while stack:
            o = stack.pop()
            rk = rank(o)
            below = best_below[o.idx]
            if rk >= 0:
                r = cost_of(o)
                if below < 0 or (r[0] == "ok" and below < rk):
                    total_s += o.dur * 1e-6
                    place(o, o.dur * 1e-6)
                    continue
            if below >= 0:
                if rk != -1 or o.name.startswith("aten::"):
                    own = max(0.0, o.dur - sum(c.dur for c in o.children))
                    if own > 0:
                        total_s += own * 1e-6
                        rb.skip(o.name[:MAX_NAME_CHARS], "op_overhead", own * 1e-6)
                        tally["skipped"] += 1
                stack.extend(o.children)
            elif o.name.startswith("aten::"):
                total_s += o.dur * 1e-6
                rb.skip(o.name[:MAX_NAME_CHARS], "no_formula", o.dur * 1e-6)
                tally["skipped"] += 1
    if ctx.dtype_assumed:
        rb.warn("dtype_assumed", f"Some operators have no 'Input type' in the trace; "
                f"{default_dtype} ({ctx.default_bytes:g} bytes per element) was assumed.",
                dtype=default_dtype)
    if ctx.geometry_assumed:
        rb.warn("conv_geometry_assumed", f"{ctx.geometry_assumed} convolution shape(s) had no stride/"
                "padding in the trace: stride 1 and 'same' padding were assumed (an upper "
                "bound on FLOPs for strided convolutions).", n=ctx.geometry_assumed)
    out: list[KernelRecord] = []
    for (name, shapes, _types), (flops, byts, secs, n) in sorted(
            groups.items(), key=lambda kv: -kv[1][2]):
        label = f"{name} {shapes}" if shapes else name
        if len(label) > MAX_NAME_CHARS:
            label = label[: MAX_NAME_CHARS - 1] + "\u2026"
        precision = _precision_of(_types, default_dtype) if flops > 0 else ""
        out.append(KernelRecord(label, float(flops), float(byts), secs if secs > 0 else None,
                                int(n), f"torch:{name}"[:MAX_NAME_CHARS], (), precision))
    read = rb.n_read + tally["extra"]
    rb.n_read = read
    rb.item_counts = (("read", read), ("placed", tally["placed"]), ("skipped", tally["skipped"]),
                      ("other", read - tally["placed"] - tally["skipped"]))
    return rb.build(out, time_basis=time_basis, total_seconds=total_s)
