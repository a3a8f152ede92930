"""Fuzz import_file: random bytes and text never raise anything but ImportFormatError/ValueError."""
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
