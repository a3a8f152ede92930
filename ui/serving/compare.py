"""The Serving page's answer for its inputs (calc.serving.compare_candidates), computed once
per input set for every session of this server: a planning meeting's browsers open the
same share link, and a slider moved back and forth revisits the same values.

compare_candidates is pure (the same inputs give the same record, a frozen dataclass of
small arrays, ~30 kB), so the one record is handed to every session that asks
(``st.cache_resource``: no copy).  Its key is the inputs' ``repr`` (the model, the chosen
devices and the speculation are frozen dataclasses, their repr spells every field), so an
edited hardware.toml or a typed custom model is a new key, never a stale answer.
"""
from __future__ import annotations

import streamlit as st

from calc.serving import Comparison, compare_candidates

MAX_ENTRIES = 64
"""Input sets kept (least recently used dropped); one record is ~30 kB of arrays."""


@st.cache_resource(show_spinner=False, max_entries=MAX_ENTRIES)
def _compare(_arch, arch_key: str, _devices, devices_key: str, device_ids: tuple, wl_key: str,
             _wl, _spec, spec_key: str, fixed: tuple) -> Comparison:
    return compare_candidates(_arch, _devices, list(device_ids), wl=_wl, spec=_spec, **dict(fixed))


def compare(arch, devices, inp) -> Comparison:
    """compare_candidates for the page's inputs ``inp`` (ui.serving.inputs.ServingInputs),
    from this server's cache when any session asked the same."""
    wl = inp.workload
    chosen = {i: devices[i] for i in inp.devices}
    fixed = (("precisions", tuple(inp.precisions)), ("kv", inp.kv), ("tps", tuple(inp.tps)),
             ("request_rate", inp.rate), ("ttft_target", inp.ttft_target),
             ("tpot_target", inp.tpot_target), ("modes", tuple(inp.modes)),
             ("token_budget", inp.token_budget), ("efficiency", inp.efficiency),
             ("price_per_gpu_hour", inp.price), ("all_in_w", inp.all_in_watts),
             ("ttft_quantile", inp.ttft_quantile), ("step_overhead", inp.step_overhead),
             ("max_load", inp.max_load))
    return _compare(arch, repr(arch), chosen, repr(sorted(chosen.items())), tuple(inp.devices),
                    repr(wl), wl, inp.spec, repr(inp.spec), fixed)
