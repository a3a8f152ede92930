from pathlib import Path

import pytest

from calc import hardware
from calc.hardware import PRECISIONS, Accelerator, HardwareFileError, custom_accelerator, load_hardware

REQUIRED_IDS = ["v100-sxm2-32gb", "a100-40gb-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "h100-sxm", "h100-pcie",
                "h200-sxm", "b200", "gb200", "l4", "l40s", "rtx-4090", "mi250x", "mi300x", "mi325x", "tpu-v4",
                "tpu-v5e", "tpu-v5p", "tpu-v6e", "gaudi3"]


@pytest.fixture(scope="module")
def hw():
    return load_hardware()


def test_default_path_is_repo_root_not_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert hardware.DEFAULT_HARDWARE_PATH == Path(hardware.__file__).resolve().parent.parent / "hardware.toml"
    assert len(load_hardware()) >= 43   # 33 + the 10 devices of issue 8


def test_all_devices_load(hw):
    assert len(hw) >= 43
    for dev_id in REQUIRED_IDS:
        assert dev_id in hw
    for dev_id, a in hw.items():
        assert isinstance(a, Accelerator) and a.id == dev_id
        assert a.peaks and all(p in PRECISIONS for p in a.peaks)
        assert all(v > 0 for v in a.peaks.values())
        assert list(a.peaks) == [p for p in PRECISIONS if p in a.peaks]
        assert a.mem_bw > 0 and a.memory_bytes > 0
        assert a.name and a.vendor in {"NVIDIA", "AMD", "Google", "Intel", "Apple", "Huawei", "AWS"}
        assert a.source and 2015 <= a.year <= 2026
        assert a.default_precision in a.peaks
        assert a.peak_flops() == a.peaks[a.default_precision]


@pytest.mark.parametrize("dev_id, precision, tflops", [
    ("h100-sxm", "bf16", 989.4),      # dense, not the 1979 sparse headline
    ("h100-sxm", "fp8", 1978.9),
    ("a100-80gb-sxm", "bf16", 312),
    ("mi300x", "bf16", 1307.4),
    ("tpu-v5e", "bf16", 197),
    ("v100-sxm2-32gb", "fp16", 125),
    ("b200", "bf16", 2250),
    ("gb200", "bf16", 2500),
    ("mi250x", "int8", 383),          # AMD's figure; some tables list 766
    ("rtx-4090", "fp16", 165.2),      # conservative FP32-accumulate figure
])
def test_datasheet_peaks(hw, dev_id, precision, tflops):
    assert hw[dev_id].peak_flops(precision) == pytest.approx(tflops * 1e12)


def test_datasheet_bandwidth_and_memory(hw):
    assert hw["a100-80gb-sxm"].mem_bw == pytest.approx(2.039e12)
    assert hw["h100-sxm"].mem_bw == pytest.approx(3.35e12)  # not 3072 GB/s
    assert hw["h100-sxm"].memory_bytes == 80 * 2**30  # HBM capacity is binary (80 GiB)
    assert hw["tpu-v5e"].memory_bytes == 16 * 2**30  # Google documents GiB
    assert hw["h100-sxm"].sparse_headline is True
    assert hw["tpu-v4"].sparse_headline is False
    assert hw["h100-sxm"].l2_bytes == 50 * 2**20
    assert hw["h100-sxm"].interconnect_bytes_per_s == 900e9
    assert hw["h100-sxm"].tdp_w == 700


def test_default_precisions(hw):
    assert hw["h100-sxm"].default_precision == "bf16"
    assert hw["v100-sxm2-32gb"].default_precision == "fp16"
    assert hw["apple-m2-ultra"].default_precision == "fp32"


def test_uncertain_devices_say_so(hw):
    assert "UNCERTAIN" in hw["rtx-5090"].notes
    assert "after launch" in hw["b200"].notes
    assert "ESTIMATE" in hw["apple-m4-max"].notes
    assert "two GCDs" in hw["mi250x"].notes


def test_peak_flops_unknown_precision(hw):
    with pytest.raises(KeyError) as e:
        hw["tpu-v5e"].peak_flops("fp64")
    assert "bf16" in str(e.value) and "tpu-v5e" in str(e.value)
    with pytest.raises(ValueError):
        hw["tpu-v5e"].peak_flops("fp64")


def test_custom_accelerator():
    c = custom_accelerator(100e12, 1e12)
    assert c.peak_flops() == 100e12 and c.default_precision == "bf16" and c.ridge_point() == 100
    with pytest.raises(ValueError, match="mem_bw"):
        custom_accelerator(100e12, -1)
    with pytest.raises(ValueError, match="precision"):
        custom_accelerator(100e12, 1e12, precision="fp12")


GOOD = """
[devices.dev-a]
name = "Dev A"
vendor = "NVIDIA"
year = 2024
memory_gb = 80
mem_bw_gbs = 2000
sparse_headline = false
source = "made up"
[devices.dev-a.peak_tflops]
bf16 = 100
"""


def _write(tmp_path, text):
    p = tmp_path / "hw.toml"
    p.write_text(text)
    return p


def test_minimal_file_loads(tmp_path):
    hw = load_hardware(_write(tmp_path, GOOD))
    assert hw["dev-a"].mem_bw == 2e12 and hw["dev-a"].peaks == {"bf16": 100e12}


@pytest.mark.parametrize("text, device, field", [
    (GOOD.replace("mem_bw_gbs = 2000\n", ""), "dev-a", "mem_bw_gbs"),                # missing field
    (GOOD.replace("mem_bw_gbs = 2000", 'mem_bw_gbs = "fast"'), "dev-a", "mem_bw_gbs"),  # wrong type
    (GOOD.replace("mem_bw_gbs = 2000", "mem_bw_gbs = -2000"), "dev-a", "mem_bw_gbs"),  # negative
    (GOOD.replace("mem_bw_gbs = 2000", "mem_bw_gbs = 0"), "dev-a", "mem_bw_gbs"),      # zero
    (GOOD.replace("mem_bw_gbs = 2000", "mem_bw_gbs = nan"), "dev-a", "mem_bw_gbs"),    # nan
    (GOOD + GOOD.replace("Dev A", "Dev A2"), "dev-a", "id"),                           # duplicate id
    (GOOD.replace("bf16 = 100", "bf16 = 100\nfp12 = 5"), "dev-a", "fp12"),             # unknown precision
    (GOOD.replace("year = 2024", "year = true"), "dev-a", "year"),
    (GOOD.replace("sparse_headline = false", "sparse_headline = 1"), "dev-a", "sparse_headline"),
    (GOOD.replace('name = "Dev A"', "name = 3"), "dev-a", "name"),
    (GOOD.replace("memory_gb = 80", "memory_gb = 80\nmemory_gib = 80"), "dev-a", "memory_gb"),
    (GOOD.replace("source", "sauce"), "dev-a", "source"),
    (GOOD.replace("bf16 = 100", "bf16 = 100\nbf16 = 200"), "dev-a", "bf16"),            # duplicate key
    (GOOD.replace("bf16 = 100", ""), "dev-a", "peak_tflops"),                           # no peaks
    (GOOD.replace("dev-a", "Dev_A"), "Dev_A", "id"),                                   # not kebab-case
])
def test_malformed_files_name_file_device_field(tmp_path, text, device, field):
    p = _write(tmp_path, text)
    with pytest.raises(HardwareFileError) as e:
        load_hardware(p)
    msg = str(e.value)
    assert isinstance(e.value, ValueError)
    assert str(p) in msg and device in msg and field in msg, msg


@pytest.mark.parametrize("text", ["this is not toml [[[", "", "[other]\nx = 1\n", "devices = 3\n"])
def test_not_toml_or_no_devices(tmp_path, text):
    p = _write(tmp_path, text)
    with pytest.raises(HardwareFileError, match=str(p).replace("\\", "\\\\")):
        load_hardware(p)


def test_missing_file(tmp_path):
    with pytest.raises(HardwareFileError, match="cannot be read"):
        load_hardware(tmp_path / "nope.toml")


# --- measured devices (written by `python -m measure`, issue 14) -----------------------

_MEASURED = """
[devices.measured-cpu-box]
name = "AMD EPYC (2 CPUs, measured)"
vendor = "AMD"
year = 2026
memory_gb = 25.3
memory_binary = false
mem_bw_gbs = 20.13
l2_mb = 32
sparse_headline = false
source = "python -m measure"
measured = true
date = "2026-12-01T08:04:36Z"
host = "box: Linux, AMD EPYC"
[devices.measured-cpu-box.peak_tflops]
fp64 = 0.0767
fp32 = 0.1537
fp16 = 0.000449
[devices.measured-cpu-box.cache_bw_gbs]
l1 = 14.42
l3 = 81.59
[devices.measured-cpu-box.versions]
numpy = "2.4.6"
"""


def _write(tmp_path, text):
    p = tmp_path / "m.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_measured_device_fields(tmp_path):
    from calc.hardware import load_hardware
    dev = load_hardware(_write(tmp_path, _MEASURED))["measured-cpu-box"]
    assert dev.measured and dev.date == "2026-12-01T08:04:36Z" and dev.host.startswith("box")
    # GB/s -> bytes/s, TFLOP/s -> FLOP/s
    assert dev.cache_bw == {"l1": 14.42e9, "l3": 81.59e9}
    assert dev.mem_bw == 20.13e9 and dev.peak_flops("fp64") == 0.0767e12
    assert dev.versions == {"numpy": "2.4.6"}
    assert dev.memory_bytes == 25.3e9
    # fastest float precision, not the fp16 that bf16/fp16-first would pick
    assert dev.default_precision == "fp32"


def test_datasheet_devices_are_not_measured():
    from calc.hardware import load_hardware
    for dev in load_hardware().values():
        assert not dev.measured and dev.cache_bw == {} and dev.versions == {}


def test_measured_device_errors_name_the_field(tmp_path):
    import pytest
    from calc.hardware import HardwareFileError, load_hardware
    cases = [
        (_MEASURED.replace('date = "2026-12-01T08:04:36Z"\n', ""), "field 'date': is missing"),
        (_MEASURED.replace("measured = true", 'measured = "yes"'), "field 'measured': must be true or false"),
        (_MEASURED.replace("l1 = 14.42", "l7x = 14.42"), "field 'cache_bw_gbs.l7x'"),
        (_MEASURED.replace("l1 = 14.42", "l1 = -1"), "field 'cache_bw_gbs.l1': must be a finite number > 0"),
        (_MEASURED.replace('numpy = "2.4.6"', "numpy = 2"), "field 'versions.numpy': must be a string"),
    ]
    for text, message in cases:
        with pytest.raises(HardwareFileError, match="measured-cpu-box") as err:
            load_hardware(_write(tmp_path, text))
        assert message in str(err.value), str(err.value)
    # a TOML datetime (unquoted) is accepted and kept as ISO text
    dev = load_hardware(_write(tmp_path, _MEASURED.replace('"2026-12-01T08:04:36Z"', "2026-12-01T08:04:36Z")))
    assert dev["measured-cpu-box"].date.startswith("2026-12-01T08:04:36")


def test_tiny_measured_peaks_in_exponent_notation(tmp_path):
    # numpy's float16 matmul on a loaded CPU: 65.85 MFLOP/s = 6.585e-05 TFLOP/s, which TOML
    # and Python write with an exponent; 6.585e-05 × 1e12 = 65.85e6 FLOP/s exactly.
    from calc.hardware import load_hardware
    text = _MEASURED.replace("fp16 = 0.000449", "fp16 = 6.585e-05")
    dev = load_hardware(_write(tmp_path, text))["measured-cpu-box"]
    assert dev.peak_flops("fp16") == 65.85e6
    assert dev.peak_flops("fp64") == 76.7e9
