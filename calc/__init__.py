"""Roofline Lab computation core: pure functions, SI base units, numpy + stdlib only.

Units everywhere: FLOP, bytes, seconds, FLOP/s, bytes/s, plain parameter and token
counts; fractions (MFU, efficiency) are 0..1, never percent.

Submodules are imported lazily (PEP 562) so that ``import calc`` stays well under
50 ms and does not import numpy: ``import calc; calc.roofline.ridge_point(...)``
works, and so does ``from calc import roofline`` or ``from calc.roofline import ...``.

=================  ===========================================================
``roofline``       ridge point, attainable FLOP/s, placing kernels on the roof
``mfu``            model FLOPs utilisation, bands, 6N + 12·L·h·s FLOP/token
``training``       training FLOP, time, GPUs for a deadline, GPU-hours, cost
``decode``         bandwidth-bound decoding, KV cache, batching knee
``kernels``        FLOP and byte counts of common kernels (GEMM, attention...)
``units``          ``parse_quantity`` / ``format_si`` (no numpy)
``hardware``       ``load_hardware`` reading ``hardware.toml`` (no numpy)
``published``      cited MFU / decode efficiency of published runs (``published_mfu.toml``)
``plans``          plan records evaluated with training/decode, share link, CSV
``diagnosis``      trace doctor: idle gaps, tiny kernels, communication, time by class
``trace_events``   reading a Kineto chrome trace into arrays (for ``diagnosis``)
``lessons``        the Learn page's problems (quiz number + device) and answer checks
``model_ops``      every operator of a prefill / decode step on the roofline
``models``         ``load_models`` reading ``models.toml``; parameters, FLOP, KV, memory
``training_flops`` FLOP per training token (``FlopsPerToken``): the one count, causal default
``training_memory`` training memory per GPU of the worst pipeline stage (``TrainingMemory``)
``parallel``       training layouts: ``training_step`` (``TrainingStep``), ``search_layouts``
``serving``        serving at a latency target: KV budget, step mix, simulator, sizing, cost
=================  ===========================================================
"""

from __future__ import annotations

import importlib

__all__ = [
    "roofline",
    "mfu",
    "training",
    "decode",
    "kernels",
    "units",
    "hardware",
    "importers",
    "scenario",
    "kernel_table",
    "published",
    "plans",
    "diagnosis",
    "trace_events",
    "lessons",
    "models",
    "model_ops",
    "training_flops",
    "training_memory",
    "parallel",
    "serving",
]

_SUBMODULES = frozenset(__all__)


def __getattr__(name: str):
    if name in _SUBMODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _SUBMODULES)
