"""Every public calc function rejects bad input with a ValueError naming the argument."""

import functools
import math
import re

import numpy as np
import pytest

from calc import decode, hardware, inference, kernels, mfu, placement, roofline, training
from calc.arch import params_only

N7 = params_only(7e9)

P, NN, F = "positive", "non_negative", "fraction"

# (function, valid keyword arguments, {argument: rule})
CASES = [
    (roofline.ridge_point, dict(peak_flops=312e12, mem_bw=2e12), dict(peak_flops=P, mem_bw=P)),
    (roofline.arithmetic_intensity, dict(flops=1e9, bytes_moved=1e9), dict(flops=NN, bytes_moved=P)),
    (roofline.attainable_flops, dict(intensity=2, peak_flops=312e12, mem_bw=2e12),
     dict(intensity=NN, peak_flops=P, mem_bw=P)),
    # flops >= 0: a copy or fill kernel has bytes but no FLOPs (issue 8, defect 6)
    (roofline.place_kernel, dict(flops=1e9, bytes_moved=1e9, peak_flops=312e12, mem_bw=2e12, seconds=1e-3),
     dict(flops=NN, bytes_moved=P, peak_flops=P, mem_bw=P, seconds=P)),
    (roofline.place_kernels, dict(flops=[1e9], bytes_moved=[1e9], peak_flops=312e12, mem_bw=2e12, seconds=[1e-3]),
     dict(flops=NN, bytes_moved=P, peak_flops=P, mem_bw=P)),
    (roofline.verdict_for, dict(fraction_of_roof=0.5), dict(fraction_of_roof=NN)),
    (mfu.training_flops_per_token, dict(n_params=7e9, n_layers=32, d_model=4096, seq_len=8192),
     dict(n_params=P, n_layers=NN, d_model=NN, seq_len=NN)),
    (mfu.attention_flops_share, dict(n_params=7e9, n_layers=32, d_model=4096, seq_len=8192),
     dict(n_params=P, n_layers=NN, d_model=NN, seq_len=NN)),
    (mfu.mfu, dict(n_params=7e9, tokens_per_s=12000, n_gpus=8, peak_flops=312e12, flops_per_token=4.2e10),
     dict(n_params=P, tokens_per_s=NN, n_gpus=P, peak_flops=P, flops_per_token=P)),
    (mfu.mfu_band, dict(value=0.3), dict(value=NN)),
    (mfu.required_tokens_per_s, dict(n_params=7e9, target_mfu=0.4, n_gpus=8, peak_flops=312e12,
                                       flops_per_token=4.2e10),
     dict(n_params=P, target_mfu=F, n_gpus=P, peak_flops=P, flops_per_token=P)),
    (mfu.achieved_flops_per_gpu, dict(n_params=7e9, tokens_per_s=12000, n_gpus=8, flops_per_token=4.2e10),
     dict(n_params=P, tokens_per_s=NN, n_gpus=P, flops_per_token=P)),
    (training.training_flops, dict(n_params=7e9, n_tokens=1e12, flops_per_token=4.2e10),
     dict(n_params=P, n_tokens=P, flops_per_token=P)),
    (training.training_seconds, dict(n_params=7e9, n_tokens=1e12, n_gpus=64, peak_flops=312e12, mfu=0.45),
     dict(n_params=P, n_tokens=P, n_gpus=P, peak_flops=P, mfu=F)),
    (training.gpus_for_deadline, dict(n_params=7e9, n_tokens=1e12, seconds=1e6, peak_flops=312e12, mfu=0.45),
     dict(n_params=P, n_tokens=P, seconds=P, peak_flops=P, mfu=F)),
    (training.gpu_hours, dict(n_params=7e9, n_tokens=1e12, peak_flops=312e12, mfu=0.45),
     dict(n_params=P, n_tokens=P, peak_flops=P, mfu=F)),
    (training.training_cost, dict(gpu_hours=1000, price_per_gpu_hour=2.0), dict(gpu_hours=NN, price_per_gpu_hour=NN)),
    (training.tokens_for_params, dict(n_params=7e9, tokens_per_param=20), dict(n_params=P, tokens_per_param=P)),
    (training.days, dict(seconds=86400), dict(seconds=NN)),
    (inference.decode_step, dict(arch=N7, batch=1, context_len=4096, peak_flops=312e12,
                                 mem_bw=2e12, memory_bytes=80e9, bytes_per_param=2,
                                 kv_bytes_per_elem=2),
     dict(batch=P, context_len=NN, peak_flops=P, mem_bw=P, memory_bytes=P, bytes_per_param=P,
          kv_bytes_per_elem=P)),
    (inference.prefill, dict(arch=N7, prompt_len=1024, peak_flops=312e12, mem_bw=2e12,
                             bytes_per_param=2, batch=1),
     dict(prompt_len=P, peak_flops=P, mem_bw=P, bytes_per_param=P, batch=P)),
    (placement.place, dict(arch=N7, tp=1, bytes_per_param=2, kv_bytes_per_elem=2,
                           context_len=4096, batch=1),
     dict(tp=P, bytes_per_param=P, kv_bytes_per_elem=P, context_len=NN, batch=P)),
    (placement.memory_fit, dict(needed_bytes=1e9, memory_bytes=80e9),
     dict(needed_bytes=NN, memory_bytes=P)),
    (decode.achieved_bandwidth, dict(tokens_per_s=100, model_bytes=14e9, batch=1, kv_bytes=0),
     dict(tokens_per_s=NN, model_bytes=P, batch=P, kv_bytes=NN)),
    (kernels.gemm, dict(m=8, n=8, k=8, bytes_per_elem=2), dict(m=P, n=P, k=P, bytes_per_elem=P)),
    (kernels.gemv, dict(m=8, n=8, bytes_per_elem=2), dict(m=P, n=P, bytes_per_elem=P)),
    (kernels.elementwise, dict(n=8, bytes_per_elem=2, flops_per_elem=1, n_inputs=1, n_outputs=1),
     dict(n=P, bytes_per_elem=P, flops_per_elem=NN, n_inputs=NN, n_outputs=NN)),
    (kernels.softmax, dict(rows=8, cols=8, bytes_per_elem=2), dict(rows=P, cols=P, bytes_per_elem=P)),
    (kernels.layernorm, dict(rows=8, cols=8, bytes_per_elem=2), dict(rows=P, cols=P, bytes_per_elem=P)),
    (kernels.attention, dict(batch=1, heads=2, seq_len=8, head_dim=4, bytes_per_elem=2),
     dict(batch=P, heads=P, seq_len=P, head_dim=P, bytes_per_elem=P)),
    (hardware.custom_accelerator, dict(peak_flops=1e12, mem_bw=1e9, memory_bytes=1e9),
     dict(peak_flops=P, mem_bw=P, memory_bytes=P)),
]

BAD_ALWAYS = [("negative", -1), ("nan", math.nan), ("inf", math.inf), ("-inf", -math.inf), ("str", "1"),
              ("None", None), ("bool", True), ("complex", 1j)]
BAD_BY_RULE = {P: [("zero", 0)], NN: [], F: [("zero", 0), ("above one", 1.5)]}


def _params():
    for fn, valid, rules in CASES:
        for arg, rule in rules.items():
            for label, bad in BAD_ALWAYS + BAD_BY_RULE[rule]:
                if bad is None and arg in ("seconds", "flops_per_token", "memory_bytes", "n_params") and \
                        fn in (roofline.place_kernel, mfu.mfu, mfu.required_tokens_per_s,
                               mfu.achieved_flops_per_gpu, training.training_flops,
                               hardware.custom_accelerator, inference.decode_step,
                               placement.memory_fit):
                    continue  # None means "not given" for these optional arguments
                yield pytest.param(fn, valid, arg, bad, id=f"{fn.__module__.split('.')[-1]}.{fn.__name__}-{arg}-{label}")


@pytest.mark.parametrize("fn, valid, arg, bad", list(_params()))
def test_bad_input_names_the_argument(fn, valid, arg, bad):
    fn(**valid)  # the valid call works
    kwargs = dict(valid)
    kwargs[arg] = bad
    with pytest.raises(ValueError, match=rf"^{re.escape(arg)} "):
        fn(**kwargs)


def test_message_says_what_is_allowed():
    with pytest.raises(ValueError, match=r"mem_bw must be a finite number > 0 \(bytes/s\), got -1"):
        roofline.ridge_point(312e12, -1)
    with pytest.raises(ValueError, match=r"mfu must be a finite number in \(0, 1\]"):
        training.training_seconds(7e9, 1e12, 64, 312e12, 45)


@pytest.mark.parametrize("fn, args", [
    (roofline.attainable_flops, (np.array([1.0, -2.0, 3.0]), 312e12, 2e12)),
    (mfu.mfu, (7e9, np.array([1.0, 2.0, np.nan]), 8, 312e12)),
    (training.training_seconds, (7e9, 1e12, 64, 312e12, np.array([0.3, 0.0]))),
    (functools.partial(inference.decode_step, context_len=0, peak_flops=312e12, mem_bw=2e12),
     (N7, np.array([1, 2, 0]))),
])
def test_arrays_report_first_bad_index(fn, args):
    with pytest.raises(ValueError, match=r"element \[\d\]"):
        fn(*args)


@pytest.mark.parametrize("bad", [["1", "2"], [None, 1.0], [True, False], [[1, 2], [3]]])
def test_non_numeric_arrays_rejected(bad):
    with pytest.raises(ValueError, match="intensity"):
        roofline.attainable_flops(bad, 312e12, 2e12)


def test_numpy_scalars_accepted_and_return_float():
    out = roofline.ridge_point(np.float32(312e12), np.int64(2_000_000_000_000))
    assert isinstance(out, float) and out == pytest.approx(156)


def test_kernels_reject_arrays():
    with pytest.raises(ValueError, match="single number"):
        kernels.gemm([1, 2], 3, 4)



@pytest.mark.parametrize("call, name", [
    (lambda: kernels.gemm(4, 2.5, 4), "n"), (lambda: kernels.gemm(1e-3, 4, 4), "m"),
    (lambda: kernels.gemv(3.7, 4), "m"), (lambda: kernels.elementwise(10.5), "n"),
    (lambda: kernels.elementwise(10, n_inputs=1.5), "n_inputs"),
    (lambda: kernels.elementwise(10, n_outputs=0.3), "n_outputs"),
    (lambda: kernels.reduction(2.5), "n"), (lambda: kernels.softmax(4, 1.5), "cols"),
    (lambda: kernels.layernorm(0.5, 4), "rows"), (lambda: kernels.attention(1, 2.5, 8, 4), "heads")])
def test_kernel_shapes_are_whole_numbers(call, name):
    # a shape counts elements, rows, heads or tensors: 2.5 of them is a wrong input (an
    # independent audit found these returned numbers and a label like "GEMM 4×2.5×4")
    with pytest.raises(ValueError, match=rf"^{name} must be a whole number"):
        call()


def test_whole_floats_and_fractional_bytes_are_shapes_and_sizes():
    # 4096.0 (a parsed "4k") is a shape; bytes per element may be fractional (FP4: 0.5)
    assert kernels.gemm(4096.0, 4096, 4096).flops == 2 * 4096**3
    assert kernels.gemv(4096, 4096, 0.5).bytes_moved == (4096 * 4096 + 2 * 4096) * 0.5

def test_boolean_flags_checked():
    with pytest.raises(ValueError, match="causal"):
        mfu.training_flops_per_token(7e9, causal="yes")
    with pytest.raises(ValueError, match="flash"):
        kernels.attention(1, 1, 1, 1, 2, flash=1)
