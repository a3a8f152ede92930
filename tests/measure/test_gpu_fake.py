"""The GPU path's orchestration on a machine without a GPU: a fake `torch` whose matmul
and copy take exactly the time an H200-like device would (they advance a fake clock by
FLOP / peak and bytes / bandwidth; measure.gpu's timer reads that clock) runs through
measure.gpu, measure.run and measure.device, and the measured GPU device must come back
with exactly those peaks and that bandwidth. This checks the
code around torch (precision support, TF32 switching, fp8 via _scaled_mm, sizes, byte and
FLOP counts, the TOML); tests/measure/test_gpu.py checks real torch on a real GPU.
"""
import sys
import types

import pytest

PEAKS = {"fp64": 60e12, "fp32": 60e12, "tf32": 400e12, "bf16": 800e12, "fp16": 800e12,
         "fp8": 1600e12}
COPY_BW = 4.3e12          # bytes/s, read + write counted
L2 = 50 * 2**20


class FakeClock:
    """Seconds of fake device time; the fake kernels advance it."""
    now = 0.0

    def __call__(self):
        return self.now


CLOCK = FakeClock()


def _busy(seconds):
    CLOCK.now += seconds


class _DType:
    def __init__(self, name, size):
        self.name, self.itemsize = name, size


def make_fake_torch():
    torch = types.ModuleType("torch")
    torch.__version__ = "2.5.0+fake"
    dtypes = {"float64": 8, "float32": 4, "bfloat16": 2, "float16": 2, "float8_e4m3fn": 1, "uint8": 1}
    for name, size in dtypes.items():
        setattr(torch, name, _DType(name, size))
    state = types.SimpleNamespace(allow_tf32=False)

    class Tensor:
        def __init__(self, shape, dtype):
            self.shape, self.dtype = shape, dtype

        def to(self, dtype):
            return Tensor(self.shape, dtype)

        def t(self):
            return Tensor(self.shape[::-1], self.dtype)

        def fill_(self, _v):
            return self

        def numel(self):
            n = 1
            for s in self.shape:
                n *= s
            return n

        def copy_(self, src):
            _busy(2 * src.numel() * src.dtype.itemsize / COPY_BW)
            return self

    def _mk(*shape, device=None, dtype=None):
        return Tensor(shape, dtype or torch.float32)

    torch.randn = _mk
    torch.empty = _mk
    torch.ones = lambda *shape, device=None, dtype=None: Tensor(shape, dtype or torch.float32)
    torch.empty_like = lambda t: Tensor(t.shape, t.dtype)
    torch.device = lambda name: name

    def matmul(a, b, out=None):
        n = a.shape[0]
        prec = {"float64": "fp64", "bfloat16": "bf16", "float16": "fp16"}.get(a.dtype.name)
        if prec is None:
            prec = "tf32" if state.allow_tf32 else "fp32"
        _busy(2 * n**3 / PEAKS[prec])
        return out

    def scaled_mm(a, b, scale_a=None, scale_b=None, out_dtype=None):
        assert a.dtype is torch.float8_e4m3fn and b.dtype is torch.float8_e4m3fn
        _busy(2 * a.shape[0] ** 3 / PEAKS["fp8"])
        return Tensor(a.shape, out_dtype)

    torch.matmul = matmul
    torch._scaled_mm = scaled_mm
    props = types.SimpleNamespace(name="NVIDIA H200", total_memory=141 * 10**9, L2_cache_size=L2,
                                  major=9, minor=0)
    torch.cuda = types.SimpleNamespace(is_available=lambda: True, get_device_properties=lambda i: props,
                                       synchronize=lambda: None, empty_cache=lambda: None,
                                       is_bf16_supported=lambda: True)
    matmul_ns = type("Matmul", (), {
        "allow_tf32": property(lambda self: state.allow_tf32,
                               lambda self, v: setattr(state, "allow_tf32", v))})()
    torch.backends = types.SimpleNamespace(
        cuda=types.SimpleNamespace(matmul=matmul_ns),
        cudnn=types.SimpleNamespace(is_available=lambda: True, version=lambda: 90100),
        mps=types.SimpleNamespace(is_available=lambda: False))
    torch.version = types.SimpleNamespace(cuda="12.4", hip=None)
    return torch, state


@pytest.fixture
def fake_torch(monkeypatch):
    import functools

    from measure import gpu
    from measure.timing import time_op
    torch, state = make_fake_torch()
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setattr(gpu, "time_op", functools.partial(time_op, clock=CLOCK))
    return torch, state


def test_fake_h200_round_trip(fake_torch, monkeypatch, tmp_path):
    from calc.hardware import load_hardware
    from measure import gpu, run as runner
    from measure.device import to_toml

    monkeypatch.setenv("ROOFLINE_LAB_MEASURE_SCALE", "0.3")
    status = gpu.gpu_status()
    assert status.available and status.backend == "cuda" and status.torch_version == "2.5.0+fake"
    m = runner.run(quick=True, status=status)
    assert m.gpu is not None and m.gpu.name == "NVIDIA H200" and m.gpu.l2_bytes == L2
    assert m.gpu_skipped == {}
    assert fake_torch[1].allow_tf32 is False          # restored after the sweep
    peaks = m.gpu_peaks
    assert set(peaks) == set(PEAKS)
    # each fake call takes exactly 2·n³ / peak: the rate must be the peak (a FLOP count
    # off by any factor, or the wrong precision's kernel, would show)
    for p, peak in PEAKS.items():
        assert peaks[p] == pytest.approx(peak, rel=1e-9), p
    # the DRAM plateau: copies of >= 2 × L2 = 100 MiB, read + write at 4.3 TB/s
    assert m.gpu_plateaus["dram"] == pytest.approx(COPY_BW, rel=1e-9)
    assert max(p.working_set_bytes for p in m.gpu_copy) <= 2**30
    path = tmp_path / "gpu.toml"
    path.write_text(to_toml(m), encoding="utf-8")
    devs = load_hardware(path)
    g = next(d for d in devs.values() if d.id.startswith("measured-gpu-"))
    assert g.measured and g.vendor == "NVIDIA" and g.name.startswith("NVIDIA H200")
    assert g.memory_bytes == 141e9 and g.l2_bytes == L2
    assert g.versions["torch"] == "2.5.0+fake" and g.versions["cuda"] == "12.4"
    assert g.peak_flops("bf16") == pytest.approx(peaks["bf16"], rel=1e-3)
    assert "l2" in g.cache_bw
    assert g.default_precision == "fp8"                # measured: the fastest float precision


def test_copy_sweep_spans_l2_to_a_quarter_of_memory(fake_torch):
    from measure import gpu
    status = gpu.gpu_status()
    info = gpu.gpu_info(status)
    copies = gpu.gpu_copy_sweep(status, info, 0.5, max_bytes=2**31)
    sizes = [c.working_set_bytes for c in copies]
    assert min(sizes) <= L2 // 8 + 192 and max(sizes) == pytest.approx(2**31, rel=0.01)
    # every copy: bytes per call = 2 × nbytes = the working set; bandwidth exact
    assert all(c.bytes_per_call == 2 * (c.working_set_bytes // 2) for c in copies)
    assert all(c.bandwidth == pytest.approx(COPY_BW, rel=1e-9) for c in copies)


def test_slow_precision_stops_before_the_bound(fake_torch):
    from measure import gpu
    # fp64 at 1 TFLOP/s (a consumer GPU): 16384³ would take 8.8 s a call; the sweep must stop
    PEAKS_SAVED = dict(PEAKS)
    PEAKS["fp64"] = 1e12
    try:
        status = gpu.gpu_status()
        info = gpu.gpu_info(status)
        points, _ = gpu.gpu_matmul_sweep(status, info, 1.0, sizes=(1024, 2048, 4096, 16384),
                                         precisions=("fp64",), clock=CLOCK)
    finally:
        PEAKS.update(PEAKS_SAVED)
    # By hand (1 s for the one precision, a quarter of it per size for samples):
    # n=1024: 2.15 ms a call, inner 3, 20 samples + 3 calls = 0.135 s spent;
    # n=2048: predicted 6 × 2.15 ms × 8 = 0.10 s, fits; 17.2 ms a call, 14 samples + 3 = 0.29 s;
    # n=4096: predicted 6 × 17.2 ms × 8 = 0.83 s, 0.43 + 0.83 > 1 s: stops (16384 would take
    # 8.8 s a call).
    assert [p.n for p in points] == [1024, 2048]
