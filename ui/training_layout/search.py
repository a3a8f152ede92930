"""The search, cached per input set (calc.parallel.search_layouts is pure)."""
from __future__ import annotations

import time

import streamlit as st

from calc.parallel import LayoutSearch, Network, search_layouts


@st.cache_resource(show_spinner=False, max_entries=32)
def _search(arch, device, precision: str, gpus: int, seq_len: int, global_batch: int,
            network: Network, fixed: tuple) -> tuple[LayoutSearch, float]:
    start = time.perf_counter()
    found = search_layouts(arch, device=device, gpus=gpus, seq_len=seq_len,
                           global_batch=global_batch, network=network, precision=precision,
                           **dict(fixed))
    return found, (time.perf_counter() - start) * 1e3  # not a formula: a wall clock (ms)


def search(arch, device, precision: str, run, network: Network) -> tuple[LayoutSearch, float]:
    """(layouts, search milliseconds) for the page's inputs."""
    return _search(arch, device, precision, run.gpus, run.seq_len, run.global_batch, network,
                   tuple(sorted(run.search_kwargs().items())))
