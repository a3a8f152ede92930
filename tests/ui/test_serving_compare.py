"""The Serving page's answer cached per input set (ui.serving.compare): the same inputs give
the one record every session shares, any changed input (a device's figure included) a new
one, and each is exactly what calc.serving.compare_candidates returns for those inputs."""
from __future__ import annotations

import dataclasses

import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.serving import Workload, compare_candidates
from ui.serving import compare
from ui.serving.inputs import ServingInputs


def _inputs(**kw) -> ServingInputs:
    base = dict(isl=4000.0, osl=500.0, distribution="fixed", spread=0.0, prefix_hit=0.0, rate=20.0,
                ttft_target=1.0, tpot_target=0.05, devices=("h100-sxm", "h200-sxm"),
                precisions=("bf16", "fp8"), kv="same", tps=(1, 2, 4, 8), mode="both", token_budget=8192,
                efficiency="estimate", spec=None, spec_error=None, price=None, currency=None,
                all_in_watts=None, simulate=False)
    base.update(kw)
    return ServingInputs(**base)


def _direct(arch, devices, inp, wl):
    return compare_candidates(arch, devices, list(inp.devices), inp.precisions, inp.kv, inp.tps, wl,
                              request_rate=inp.rate, ttft_target=inp.ttft_target,
                              tpot_target=inp.tpot_target, modes=inp.modes, token_budget=inp.token_budget,
                              spec=inp.spec, efficiency=inp.efficiency, price_per_gpu_hour=inp.price,
                              all_in_w=inp.all_in_watts, ttft_quantile=inp.ttft_quantile,
                              step_overhead=inp.step_overhead, max_load=inp.max_load)


def _workload(inp):
    # the expected side builds its record from the fields, not from inp.workload
    return Workload(isl=inp.isl, osl=inp.osl, distribution=inp.distribution, spread=inp.spread,
                    prefix_hit=inp.prefix_hit)


@pytest.fixture(autouse=True)
def _empty_cache():
    compare._compare.clear()
    yield
    compare._compare.clear()


def test_the_same_inputs_share_one_record_equal_to_the_direct_call():
    arch, devices = load_models()["qwen3-32b"], load_hardware()
    inp = _inputs()
    first = compare.compare(arch, devices, inp)
    again = compare.compare(arch, dict(devices), _inputs())   # another session's objects
    assert again is first
    assert repr(first) == repr(_direct(arch, devices, inp, _workload(inp)))


@pytest.mark.parametrize("change", [dict(prefix_hit=0.3), dict(rate=21.0), dict(ttft_stat="p90"),
                                    dict(max_load=0.7), dict(tps=(1, 2)), dict(step_overhead=0.002)])
def test_any_changed_input_is_a_new_record_of_its_own_inputs(change):
    arch, devices = load_models()["qwen3-32b"], load_hardware()
    base = compare.compare(arch, devices, _inputs())
    inp = _inputs(**change)
    new = compare.compare(arch, devices, inp)
    assert new is not base and repr(new) != repr(base)
    assert repr(new) == repr(_direct(arch, devices, inp, _workload(inp)))


def test_an_edited_device_or_model_is_never_answered_from_the_old_record():
    # hardware.toml edited while the server runs: the same id, another bandwidth; a custom
    # model of the same id with one more layer
    arch, devices = load_models()["qwen3-32b"], load_hardware()
    inp = _inputs(devices=("h100-sxm",))
    base = compare.compare(arch, devices, inp)
    edited = dict(devices, **{"h100-sxm": dataclasses.replace(devices["h100-sxm"],
                                                              mem_bw=2 * devices["h100-sxm"].mem_bw)})
    faster = compare.compare(arch, edited, inp)
    assert faster is not base
    assert repr(faster) == repr(_direct(arch, edited, inp, _workload(inp)))
    assert max(c.curve.requests_per_s.max() for c in faster.candidates) > \
        max(c.curve.requests_per_s.max() for c in base.candidates)
    deeper = dataclasses.replace(arch, n_layers=arch.n_layers + 1)
    assert compare.compare(deeper, devices, inp) is not base
