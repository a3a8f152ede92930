"""Generate a small PyTorch profiler trace on the CPU for the importer tests.

    pip install torch==2.13.0          # NOT a dependency of the project; only for this script
    python scripts/make_torch_trace.py  # writes tests/data/torch-traces/cpu_small.json(.gz)

The trace is committed, so tests never need torch. It records shapes (record_shapes=True)
for ops with known sizes, so the tests can check the importer against 2*m*n*k by hand:

* ``torch.mm(a, b)`` with a [64, 128], b [128, 32]             -> aten::mm, 3 calls
* ``nn.Linear(128, 96)`` on x [64, 128]                        -> aten::linear > aten::addmm, 2 calls
* ``torch.bmm`` [4, 16, 8] x [4, 8, 24]                        -> aten::bmm, 1 call
* ``torch.relu`` on [64, 96] and ``torch.softmax`` on [64, 96] (elementwise / softmax)
* ``torch.mm`` in float64 [16, 16] x [16, 16]                  -> aten::mm with 'double' type
"""
from __future__ import annotations

import gzip
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "tests", "data", "torch-traces", "cpu_small.json")


def main(path: str = OUT) -> None:
    torch.manual_seed(0)
    a = torch.randn(64, 128)
    b = torch.randn(128, 32)
    lin = torch.nn.Linear(128, 96)
    x = torch.randn(64, 128)
    p = torch.randn(4, 16, 8)
    q = torch.randn(4, 8, 24)
    d1 = torch.randn(16, 16, dtype=torch.float64)
    d2 = torch.randn(16, 16, dtype=torch.float64)
    with torch.no_grad():
        torch.mm(a, b)  # warm-up outside the profiler
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
            for _ in range(3):
                torch.mm(a, b)
            for _ in range(2):
                y = lin(x)
            torch.bmm(p, q)
            z = torch.relu(y)
            torch.softmax(z, dim=-1)
            torch.mm(d1, d2)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    prof.export_chrome_trace(path)
    with open(path, "rb") as f, open(path + ".gz", "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as g:
            g.write(f.read())
    print(f"wrote {path} and {path}.gz (torch {torch.__version__})")


if __name__ == "__main__":
    main(*sys.argv[1:])
