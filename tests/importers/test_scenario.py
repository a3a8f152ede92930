"""Scenario files and share-link tokens: exact round trips, hostile input fails cleanly."""
import base64
import json
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from calc.kernel_table import KernelRecord
from calc.scenario import (
    MAX_URL_TOKEN_CHARS, Ceilings, CompareDevice, CustomDevice, Scenario, ScenarioError,
    decode_kernels, dump_scenario, encode_kernels, fits_in_url, load_scenario, scenario_to_dict,
)

KS = (
    KernelRecord("gemm 4096", 2 * 4096**3, 3 * 4096**2 * 2, 0.0012, 1, "table"),
    KernelRecord("ncu kernel, with comma", None, 0.1 + 0.2, None, 100, "ncu:m.csv",
                 (("dram", 0.1 + 0.2), ("l2", 1e-300), ("l1", 1.7976931348623157e308))),
    KernelRecord("ünïcödé 😀", 5e-324, 1e300, 1e-9, 10**12, ""),
)
SC = Scenario("custom", "bf16", CustomDevice(989.4e12, 3.35e12),
              (CompareDevice("a100-80gb-sxm", "bf16"), CompareDevice("h100-sxm", "fp8")),
              Ceilings(1.2e13, None), ("fp8", "fp32"), KS)


def test_round_trip_exact():
    text = dump_scenario(SC)
    assert load_scenario(text) == SC
    assert load_scenario(text.encode("utf-8")) == SC
    assert dump_scenario(load_scenario(text)) == text


def test_schema_keys_in_order():
    d = json.loads(dump_scenario(SC))
    assert list(d) == ["format", "version", "device", "precision", "custom", "compare", "ceilings",
                       "extra_roofs", "kernels"]
    assert d["format"] == "roofline-lab.scenario" and d["version"] == 1
    assert list(d["kernels"][0]) == ["name", "flops", "bytes", "seconds", "count", "source"]
    assert d["kernels"][1]["level_bytes"] == {"dram": 0.30000000000000004, "l2": 1e-300,
                                              "l1": 1.7976931348623157e308}


def test_default_scenario_round_trip():
    assert load_scenario(dump_scenario(Scenario())) == Scenario()


def test_known_devices():
    known = {"h100-sxm", "a100-80gb-sxm"}
    assert load_scenario(dump_scenario(SC), known_devices=known) == SC
    bad = scenario_to_dict(SC)
    bad["compare"][0]["device"] = "h900"
    with pytest.raises(ScenarioError, match=r"compare\[0\]\.device: unknown device id \"h900\""):
        load_scenario(json.dumps(bad), known_devices=known)


def mutate(fn):
    d = scenario_to_dict(SC)
    fn(d)
    return json.dumps(d)


@pytest.mark.parametrize("fn,match", [
    (lambda d: d.update(version=2), "version 2 is not supported.*newer"),
    (lambda d: d.update(version="1"), "version must be a whole number"),
    (lambda d: d.update(format="something"), "format must be"),
    (lambda d: d.pop("device"), "device is missing"),
    (lambda d: d.pop("kernels"), "kernels is missing"),
    (lambda d: d.update(precision="fp7"), "precision must be one of"),
    (lambda d: d.update(custom=None), "custom must give peak_flops"),
    (lambda d: d["custom"].update(mem_bw=-1), r"custom\.mem_bw must be a finite number > 0, got -1"),
    (lambda d: d.update(compare=[{"device": "h100-sxm", "precision": "bf16"}] * 4), "at most 3"),
    (lambda d: d["ceilings"].update(l2_bw="fast"), r"ceilings\.l2_bw must be a number > 0 or null"),
    (lambda d: d.update(extra_roofs="fp8"), "extra_roofs must be a list"),
    (lambda d: d["kernels"][2].update(bytes="abc"), r'kernels\[2\]\.bytes must be a number > 0, got "abc"'),
    (lambda d: d["kernels"][0].update(flops=True), r"kernels\[0\]\.flops must be a number"),
    # a zero-FLOP copy is accepted, so the message says >= 0
    (lambda d: d["kernels"][0].update(flops=-5), r"kernels\[0\]\.flops must be a finite number >= 0 or null, got -5"),
    (lambda d: d["kernels"][0].update(count=1.5), r"kernels\[0\]\.count must be a whole number"),
    (lambda d: d["kernels"][0].pop("name"), r"kernels\[0\]\.name is missing"),
    (lambda d: d["kernels"][0].update(name=7), r"kernels\[0\]\.name must be text"),
    (lambda d: d["kernels"][0].update(name="x" * 201), r"kernels\[0\]\.name is longer than 200"),
    (lambda d: d["kernels"].append([1, 2]), r"kernels\[3\] must be an object"),
    (lambda d: d.update(kernels={"a": 1}), "kernels must be a list"),
])
def test_hostile_fields(fn, match):
    with pytest.raises(ScenarioError, match=match):
        load_scenario(mutate(fn))


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    ("not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"format": "roofline-lab.scenario", "version": 1, "x": NaN}', "NaN"),
    ('{"format": "roofline-lab.scenario", "version": 1, "x": Infinity}', "Infinity"),
    ("[" * 200_000 + "]" * 200_000, "nested too deeply|not valid JSON"),
    ('{"format": "roofline-lab.scenario", "version": 1, "device": "h100-sxm", "precision": "bf16",'
     ' "kernels": [{"name": "a", "flops": 1e999, "bytes": 1}]}', r"kernels\[0\]\.flops must be a finite"),
    ('{"format": "roofline-lab.scenario", "version": 1, "device": "h100-sxm", "precision": "bf16",'
     ' "kernels": [{"name": "a", "flops": 1' + "0" * 5000 + ', "bytes": 1}]}', "number"),
])
def test_hostile_documents(text, match):
    with pytest.raises(ScenarioError, match=match):
        load_scenario(text)


def test_too_large_and_binary():
    with pytest.raises(ScenarioError, match="larger than 25 MB"):
        load_scenario(b" " * (25 * 1024 * 1024 + 1))
    with pytest.raises(ScenarioError, match="not UTF-8"):
        load_scenario(b"\xff\xfe\x00garbage")


def test_dump_refuses_nan():
    with pytest.raises(ScenarioError):
        dump_scenario(Scenario(kernels=(KernelRecord("x", float("nan"), 1.0),)))


# --------------------------------------------------------------------------- share links

def test_token_round_trip_and_format():
    tok = encode_kernels(KS)
    assert tok[0] == "1" and "=" not in tok and "+" not in tok and "/" not in tok
    back = decode_kernels(tok)
    assert [k for k in back] == [KernelRecord(k.name, k.flops, k.bytes_moved, k.seconds, k.count,
                                              "link", k.level_bytes) for k in KS]


def test_fits_in_url():
    assert MAX_URL_TOKEN_CHARS == 1800
    assert fits_in_url(KS)
    many = [KernelRecord(f"kernel number {i} with a long name", 1e9 + i * 7919.3, 1e6 + i * 104729.7, 1e-3 + i * 1e-7, i + 1)
            for i in range(400)]
    assert not fits_in_url(many)
    assert len(encode_kernels(many)) > MAX_URL_TOKEN_CHARS


def tok(raw: bytes) -> str:
    return "1" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize("token,match", [
    ("", "empty"),
    ("2abc", "unknown version"),
    ("1!!!not base64", "not base64url"),
    ("1" + base64.urlsafe_b64encode(b"not zlib at all").decode().rstrip("="), "bad compressed data"),
    (tok(b"[" + b" " * 20_000_000 + b"]"), "expands to more than"),  # zip bomb
    (tok(b"{not json"), "not valid JSON"),
    (tok(b'{"a": 1}'), "must be a list"),
    (tok(b'[["a", 1, -5, null, 1]]'), r"kernels\[0\]\.bytes must be a finite number > 0"),
    (tok(b'[["a", 1, 2, null]]'), r"kernels\[0\] must be \[name"),
    (tok(b'[["a", NaN, 2, null, 1]]'), "NaN"),
    (tok(b"[" * 100_000), "not valid JSON"),
])
def test_hostile_tokens(token, match):
    with pytest.raises(ScenarioError, match=match):
        decode_kernels(token)


def test_truncated_token():
    t = encode_kernels(KS * 20)
    with pytest.raises(ScenarioError):
        decode_kernels(t[: len(t) // 2])


def test_max_kernels():
    with pytest.raises(ScenarioError, match="at most 2"):
        decode_kernels(encode_kernels(KS), max_kernels=2)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_decode_fuzz_only_scenario_errors(s):
    try:
        decode_kernels(s)
    except ScenarioError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_load_fuzz_only_scenario_errors(data):
    try:
        load_scenario(data)
    except ScenarioError:
        pass


@pytest.mark.parametrize("path", ["ncu/metrics.csv", "ncu/gemm_tiled.csv", "torch-traces/cpu_small.json",
                                  "torch-traces/triton_example.json.gz"])
def test_every_import_saves_and_travels(path):
    from pathlib import Path

    from calc.importers import import_file

    f = Path(__file__).resolve().parents[1] / "data" / path
    ks = import_file(f.read_bytes(), "x" * 300 + f.name).kernels
    sc = Scenario(kernels=ks)
    assert load_scenario(dump_scenario(sc)) == sc
    back = decode_kernels(encode_kernels(ks))
    assert [(k.name, k.flops, k.bytes_moved, k.seconds, k.count, k.level_bytes) for k in back] == \
        [(k.name, k.flops, k.bytes_moved, k.seconds, k.count, k.level_bytes) for k in ks]
