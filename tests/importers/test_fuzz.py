"""Fuzz import_file: random bytes and text never raise anything but ImportFormatError/ValueError."""
import pytest
import gzip
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from calc.importers import ImportFormatError, ImportResult, import_file

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(data: bytes, name: str):
    try:
        r = import_file(data, name)
    except (ImportFormatError, ValueError):
        return
    assert isinstance(r, ImportResult)
    for k in r.kernels:
        assert k.bytes_moved > 0
        assert k.flops is None or k.flops >= 0   # issue 8: 0 = a zero-FLOP kernel (copy, fill)
    assert 0.0 <= r.unplaced_time_share <= 1.0


@SETTINGS
@given(st.binary(max_size=600), st.sampled_from(["x.csv", "t.json", "t.json.gz", "p.csv", "noext"]))
def test_random_bytes(data, name):
    check(data, name)


@SETTINGS
@given(st.binary(max_size=300))
def test_random_gzip_payload(data):
    check(gzip.compress(data), "t.json.gz")


csv_cell = st.one_of(st.text(max_size=12), st.sampled_from(["1e9", "14 GB", "1.2 ms", "n/a", "-1", "0", "2*8**3", "inf", ""]))


@SETTINGS
@given(st.lists(st.lists(csv_cell, min_size=1, max_size=6), max_size=8),
       st.sampled_from(["name,flops,bytes,seconds,count", '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"',
                        '"Process ID","Kernel Name","Invocations","Metric Name","Metric Unit","Average"', "a,b"]))
def test_random_csv(rows, header):
    text = header + "\n" + "\n".join(",".join('"' + c.replace('"', "") + '"' for c in r) for r in rows)
    check(text.encode("utf-8", "surrogatepass"), "x.csv")


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))
json_val = st.recursive(json_leaf, lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(max_size=6), c, max_size=4)),
                        max_leaves=20)
event = st.fixed_dictionaries({
    "ph": st.sampled_from(["X", "i", "M"]),
    "cat": st.sampled_from(["cpu_op", "kernel", "Operator", "Kernel", "cuda_runtime", "gpu_memcpy", "x"]),
    "name": st.sampled_from(["aten::mm", "aten::addmm", "aten::add", "aten::conv2d", "aten::linear",
                             "aten::scaled_dot_product_attention", "aten::sum", "k", "triton_poi_fused_add_0"]),
    "ts": st.one_of(st.integers(0, 1000), st.floats(0, 1000), st.text(max_size=3)),
    "dur": st.one_of(st.integers(-5, 100), st.none()),
    "pid": st.integers(0, 2), "tid": st.one_of(st.integers(0, 2), st.sampled_from(["1", "stream 7"])),
    "args": st.one_of(json_val, st.fixed_dictionaries({
        "External id": st.integers(0, 5), "correlation": st.integers(0, 5),
        "Input Dims": st.one_of(json_val, st.lists(st.lists(st.integers(0, 64), max_size=4), max_size=4)),
        "Input type": st.one_of(json_val, st.lists(st.sampled_from(["float", "c10::Half", "Scalar", "", "weird"]), max_size=4)),
        "Concrete Inputs": st.one_of(json_val, st.lists(st.sampled_from(["", "[2, 2]", "True", "1", "[1"]), max_size=10)),
    })),
})


@SETTINGS
@given(st.lists(event, max_size=12))
def test_random_traces(events):
    check(json.dumps({"traceEvents": events}).encode(), "t.json")


def test_one_json_reader_for_every_upload_and_paste():
    # issue 23 item 12: config.json, traces (the Trace doctor's diagnose_trace and the
    # Roofline importer), scenario and plans files: 100,000 levels of nesting, NaN, bad
    # bytes get the same message from calc.json_in.read_json, never a RecursionError
    from calc.diagnosis import diagnose_trace
    from calc.hf_config import from_hf_config
    from calc.importers import import_file
    from calc.plans import load_plans
    from calc.scenario import load_scenario
    deep = "[" * 100_000 + "]" * 100_000
    trace_deep = '{"traceEvents": ' + deep + "}"
    readers = [
        (lambda d: from_hf_config(d), "config.json"),
        (lambda d: diagnose_trace(d.encode(), "t.json"), "t.json"),
        (lambda d: import_file(d.encode(), "k.json"), "k.json"),
        (lambda d: load_scenario(d), "scenario file"),
        (lambda d: load_plans(d), "plans file"),
    ]
    for read, what in readers:
        for data, words in ((deep if what != "t.json" else trace_deep, "nested too deeply"),
                            ('{"a": NaN}' if what != "t.json" else '{"traceEvents": [NaN]}',
                             "contains NaN")):
            with pytest.raises(ValueError) as exc:
                read(data)
            assert not isinstance(exc.value, RecursionError)
            assert f"The {what} " in str(exc.value) and words in str(exc.value), (what, str(exc.value))


def test_architecture_fields_are_bounded_naming_the_key():
    # issue 23 item 13: calc.arch.ARCH_LIMITS, in config.json (HF key named) and in
    # models.toml / the share link (the schema's key named)
    import json as _json
    from pathlib import Path
    from dataclasses import replace
    from calc.arch import ARCH_LIMITS, ModelConfigError, _validate_arch
    from calc.hf_config import from_hf_config
    from calc.models import load_models
    cfg = _json.loads((Path(__file__).resolve().parents[1] / "data" / "hf_configs"
                       / "mixtral-8x7b.json").read_text())
    for key, value in (("num_hidden_layers", 10 ** 12), ("hidden_size", 10 ** 9),
                       ("num_attention_heads", 10 ** 9), ("num_local_experts", 10 ** 9),
                       ("vocab_size", 10 ** 12)):
        bad = {**cfg, key: value}
        with pytest.raises(ModelConfigError, match=f"'{key}' must be at most"):
            from_hf_config(bad)
    arch = load_models()["llama-2-7b"]
    with pytest.raises(ModelConfigError, match="'layers' must be at most 10,000"):
        _validate_arch(replace(arch, n_layers=ARCH_LIMITS["n_layers"] + 1))
    _validate_arch(replace(arch, n_layers=ARCH_LIMITS["n_layers"]))      # the bound itself is fine
