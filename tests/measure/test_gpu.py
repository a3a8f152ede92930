"""The GPU path (torch). Runs where torch sees a CUDA, ROCm or MPS device; elsewhere the
measurement tests are skipped with the reason, and only the "no torch" path is checked.

Where it runs: the quick matmul and copy sweeps against plain torch timings taken here,
within a factor of 2 (bf16 matmul 2·n³ FLOP; copy = read + write = 2 × nbytes), and the
measured GPU device written and loaded through calc.hardware. Reference on an H200:
~790 TFLOP/s bf16 matmul, ~4.3 TB/s copy (read + write).
"""
import sys
import time

import pytest

from measure import gpu


def test_without_torch_the_status_says_how_to_enable_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)       # `import torch` raises ImportError
    status = gpu.gpu_status()
    assert not status.available and status.reason == "no_torch"
    assert "torch" in status.detail and "Error" in status.detail


def _gpu_or_skip():
    pytest.importorskip("torch", reason="torch is not installed (optional extra: pip install -e "
                                        "'.[gpu]'); the GPU path is tested where a GPU is present")
    status = gpu.gpu_status()
    if not status.available:
        pytest.skip(f"torch {status.torch_version} sees no CUDA, ROCm or MPS device")
    return status


def _best(fn, sync, repeats=10):
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best


def test_gpu_matmul_and_copy_agree_with_plain_torch_timings(tmp_path):
    status = _gpu_or_skip()
    import torch

    info = gpu.gpu_info(status)
    dev = torch.device("mps" if status.backend == "mps" else "cuda")
    sync = torch.mps.synchronize if status.backend == "mps" else torch.cuda.synchronize
    points, skipped = gpu.gpu_matmul_sweep(status, info, 2.0, sizes=(4096,),
                                           precisions=("fp32", "bf16"))
    rates = {p.precision: p.rate for p in points}
    if "bf16" in rates:
        n = 4096
        a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
        b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
        plain = 2 * n**3 / _best(lambda: a @ b, sync)
        assert plain / 2 <= rates["bf16"] <= plain * 2, (rates["bf16"], plain)
    copies = gpu.gpu_copy_sweep(status, info, 1.0, max_bytes=2**30)
    nbytes = 2**29
    src = torch.ones(nbytes, dtype=torch.uint8, device=dev)
    dst = torch.empty_like(src)
    plain_bw = 2 * nbytes / _best(lambda: dst.copy_(src), sync)
    big = max(p.bandwidth for p in copies if p.working_set_bytes >= 2**29)
    assert plain_bw / 2 <= big <= plain_bw * 2, (big, plain_bw)


def test_measured_gpu_device_loads(tmp_path):
    _gpu_or_skip()
    from calc.hardware import load_hardware
    from measure import run as runner
    from measure.device import to_toml

    m = runner.run(quick=True)
    assert m.gpu is not None and m.gpu_gemm and m.gpu_copy
    path = tmp_path / "gpu.toml"
    path.write_text(to_toml(m), encoding="utf-8")
    devices = load_hardware(path)
    gpu_dev = [d for d in devices.values() if d.id.startswith("measured-gpu-")]
    assert len(gpu_dev) == 1 and gpu_dev[0].measured
    assert "torch" in gpu_dev[0].versions
    assert gpu_dev[0].mem_bw > 0 and gpu_dev[0].peaks
