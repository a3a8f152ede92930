"""Microbenchmarks of the machine the app runs on (separate from calc/, which only computes).

    measure.timing   time_op: warm-up, repeats in a time budget, best / median / spread
    measure.system   host, CPU, caches, memory, BLAS and library versions
    measure.cpu      numpy streaming bandwidth vs working set; numpy GEMM per precision
    measure.gpu      torch matmul per precision and device copy (optional extra "gpu")
    measure.run      plan and run the benchmarks in a time budget -> Measurement
    measure.device   a Measurement as hardware.toml devices (loaded by calc.hardware)
    measure.kernels  live numpy kernels (GEMM, GEMV, add, reduction) timed for the roofline
    measure.lock     one measurement at a time per server
    measure.report   the measured ceilings as rows

Command line: ``python -m measure [--quick] [--out FILE.toml] [--cpu-only]``.
"""
