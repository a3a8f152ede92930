from pathlib import Path

import pytest

from calc import hardware
from calc.hardware import PRECISIONS, Accelerator, HardwareFileError, custom_accelerator, load_hardware
from calc.hardware import SPARSE_PRECISIONS, HardwareFileError, load_hardware
from calc.units import format_binary_bytes, parse_quantity
from calc.inference import link_bw_one_way

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
    assert hw["dev-a"].notes == hw["dev-a"].notes_zh == ""      # both notes optional


def _with_notes(extra: str) -> str:
    return GOOD.replace("[devices.dev-a.peak_tflops]", extra + "\n[devices.dev-a.peak_tflops]")


def test_notes_zh_is_read_beside_notes(tmp_path):
    dev = load_hardware(_write(tmp_path, _with_notes('notes = "Dense."\nnotes_zh = "稠密。"')))["dev-a"]
    assert (dev.notes, dev.notes_zh) == ("Dense.", "稠密。")


def test_name_zh_is_shown_in_chinese_only_and_falls_back_to_name(tmp_path):
    dev = load_hardware(_write(tmp_path, _with_notes('name_zh = "设备甲"')))["dev-a"]
    assert (dev.name_for("zh"), dev.name_for("en"), dev.name_for("fr")) == ("设备甲", "Dev A", "Dev A")
    plain = load_hardware(_write(tmp_path, GOOD))["dev-a"]
    assert (plain.name_zh, plain.name_for("zh")) == ("", "Dev A")      # optional: name is the fallback


def test_the_textbook_a100_has_a_chinese_name_with_the_chapters_figures():
    dev = load_hardware()["a100-textbook"]
    zh = dev.name_for("zh")
    assert "教材" in zh and "textbook" not in zh, zh
    for figure in ("312 TFLOP/s", "2 TB/s"):        # the chapter's two numbers, in both names
        assert figure in zh and figure in dev.name_for("en")


def test_a_non_string_name_zh_names_file_device_and_field(tmp_path):
    p = _write(tmp_path, _with_notes("name_zh = 3"))
    with pytest.raises(HardwareFileError) as e:
        load_hardware(p)
    msg = str(e.value)
    assert str(p) in msg and "device 'dev-a'" in msg and "field 'name_zh'" in msg, msg


@pytest.mark.parametrize("value", ["3", "true", '["稠密"]', "{ a = 1 }"])
def test_a_non_string_notes_zh_names_file_device_and_field(tmp_path, value):
    p = _write(tmp_path, _with_notes(f'notes = "x"\nnotes_zh = {value}'))
    with pytest.raises(HardwareFileError) as e:
        load_hardware(p)
    msg = str(e.value)
    assert str(p) in msg and "device 'dev-a'" in msg and "field 'notes_zh'" in msg, msg
    assert "must be a string" in msg, msg


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


# ---- Folded from tests/calc/test_calc_hardware_review.py:
# Issue 8, defects 1, 7 and 8: per-precision sparse headlines, binary memory capacity,
# China-market and recent devices.  Every expected value comes from a datasheet (cited
# in the comment), not from the code.
GIB = 2**30


@pytest.fixture(scope="module")
def hw():
    return load_hardware()


# ---- defect 1: only tensor precisions have a 2:4-sparse headline ----------------------

@pytest.mark.parametrize("dev, precision, headline_tflops", [
    # A100 datasheet: BF16 312 | 624*, TF32 156 | 312*, INT8 624 | 1248* (* with sparsity)
    ("a100-80gb-sxm", "bf16", 624),
    ("a100-80gb-sxm", "tf32", 312),
    ("a100-80gb-sxm", "int8", 1248),
    # H100 SXM datasheet: FP8 3,958* TFLOPS (dense 1978.9 x 2 = 3957.8)
    ("h100-sxm", "fp8", 3957.8),
    # MI300X datasheet: FP16 1307.4 dense, 2614.9 with structured sparsity (2 x 1307.4 = 2614.8)
    ("mi300x", "fp16", 2614.8),
])
def test_sparse_headline_is_twice_dense_for_tensor_precisions(hw, dev, precision, headline_tflops):
    assert hw[dev].sparse_headline_flops(precision) == pytest.approx(headline_tflops * 1e12)


@pytest.mark.parametrize("dev, precision", [
    # A100 datasheet: FP32 19.5 TFLOPS, FP64 9.7 -- no sparse figure (sparsity is a tensor mode)
    ("a100-80gb-sxm", "fp32"), ("a100-80gb-sxm", "fp64"),
    ("h100-sxm", "fp64"), ("h100-sxm", "fp32"),
    ("mi300x", "fp32"), ("mi300x", "fp64"),
    # MI355X: AMD publishes no sparse MXFP4 figure
    ("mi355x", "fp4"),
    # TPUs, V100 and T4 have no 2:4 sparsity at all
    ("tpu-v5p", "bf16"), ("v100-sxm2-32gb", "fp16"), ("t4", "fp16"),
])
def test_no_sparse_headline_where_the_datasheet_has_none(hw, dev, precision):
    assert hw[dev].sparse_headline_flops(precision) is None


def test_no_device_flags_fp64_or_fp32(hw):
    for dev in hw.values():
        assert set(dev.sparse_precisions) <= set(SPARSE_PRECISIONS), dev.id
        assert set(dev.sparse_precisions) <= set(dev.peaks), dev.id
        assert dev.sparse_headline == bool(dev.sparse_precisions)


@pytest.mark.parametrize("value", ['["fp32"]', '["fp8"]', '"yes"', '["bf16", "bf16"]'])
def test_bad_sparse_lists_are_rejected(tmp_path, value):
    # fp32 has no sparse mode; fp8 is not among the device's peaks; a string is not a list
    p = tmp_path / "hw.toml"
    p.write_text(f'[devices.dev-a]\nname = "A"\nvendor = "X"\nyear = 2024\nmemory_gb = 8\n'
                 f'mem_bw_gbs = 100\nsparse_headline = {value}\nsource = "s"\n'
                 f'[devices.dev-a.peak_tflops]\nfp32 = 1\nbf16 = 2\n')
    with pytest.raises(HardwareFileError, match="dev-a.*sparse_headline"):
        load_hardware(p)


def test_true_means_tensor_precisions_only(tmp_path):
    p = tmp_path / "hw.toml"
    p.write_text('[devices.dev-a]\nname = "A"\nvendor = "X"\nyear = 2024\nmemory_gb = 8\n'
                 'mem_bw_gbs = 100\nsparse_headline = true\nsource = "s"\n'
                 '[devices.dev-a.peak_tflops]\nfp64 = 1\nfp32 = 2\nbf16 = 4\n')
    assert load_hardware(p)["dev-a"].sparse_precisions == ("bf16",)


# ---- defect 7: HBM/DRAM capacity is binary ----------------------------------------------

@pytest.mark.parametrize("dev, gib", [
    ("a100-80gb-sxm", 80),   # nvidia-smi: 81920 MiB = 80 GiB = 85,899,345,920 bytes
    ("a100-40gb-sxm", 40),   # 40960 MiB
    ("h100-sxm", 80),
    ("mi300x", 192),         # 192 GiB HBM3 (8 stacks x 24 GiB)
    ("tpu-v5e", 16),         # Google documents 16 GiB
])
def test_capacity_is_binary(hw, dev, gib):
    assert hw[dev].memory_binary is True
    assert hw[dev].memory_bytes == gib * GIB


def test_a100_80gb_holds_85_9_decimal_gigabytes(hw):
    # 80 x 2**30 = 85,899,345,920 bytes = 85.9e9: 7.4 % more than 80e9
    assert hw["a100-80gb-sxm"].memory_bytes == pytest.approx(85.899e9, rel=1e-4)
    assert format_binary_bytes(hw["a100-80gb-sxm"].memory_bytes) == "80 GiB"
    assert parse_quantity(format_binary_bytes(141 * GIB)) == 141 * GIB


def test_decimal_capacity_when_flagged(tmp_path):
    p = tmp_path / "hw.toml"
    p.write_text('[devices.dev-a]\nname = "A"\nvendor = "X"\nyear = 2024\nmemory_gb = 8\n'
                 'memory_binary = false\nmem_bw_gbs = 100\nsparse_headline = false\nsource = "s"\n'
                 '[devices.dev-a.peak_tflops]\nbf16 = 2\n')
    assert load_hardware(p)["dev-a"].memory_bytes == 8e9


def test_every_device_states_its_capacity_kind():
    from calc.hardware import DEFAULT_HARDWARE_PATH
    import tomllib
    raw = tomllib.loads(DEFAULT_HARDWARE_PATH.read_text())["devices"]
    for dev_id, d in raw.items():
        assert "memory_binary" in d or "memory_gib" in d, dev_id
    assert "memory_binary" in DEFAULT_HARDWARE_PATH.read_text().split("\n[devices.")[0]


# ---- defect 8: China-market and recent parts ---------------------------------------------

@pytest.mark.parametrize("dev, precision, tflops", [
    ("h800-sxm", "bf16", 989.4),   # H800 = H100 SXM compute: 1979* sparse / 2
    ("h800-sxm", "fp64", 1),       # H800 datasheet: FP64 1 TFLOPS
    ("h20", "bf16", 148),          # H20: FP16/BF16 148 TFLOPS dense
    ("h20", "fp8", 296),
    ("a800-80gb-sxm", "bf16", 312),  # A800 = A100 80GB compute (624* sparse / 2)
    ("l20", "fp8", 239),
    ("b300", "fp4", 13500),        # HGX B300: 108 PFLOPS dense FP4 / 8 GPUs
    ("b300", "bf16", 2250),        # HGX B300: 36 PFLOPS sparse BF16 / 8 / 2
    ("gb300", "fp4", 15000),       # GB300 NVL72: 1,080 PFLOPS dense FP4 / 72
    ("rtx-pro-6000", "bf16", 503.8),  # RTX Blackwell whitepaper: 503.8 | 1007.6* (FP32 acc.)
    ("rtx-pro-6000", "fp4", 2015.2),  # 4000 "AI TOPS" is the sparse FP4 figure (~2 x 2015)
    ("ascend-910b", "fp16", 320),
    ("tpu-v7", "bf16", 2307),      # Google TPU7x docs: 2307 BF16, 4614 FP8 TFLOPs per chip
    ("tpu-v7", "fp8", 4614),
    ("trainium2", "bf16", 667),    # AWS Neuron docs: 667 BF16/FP16/TF32, 1,299 FP8 TFLOPS
    ("trainium2", "fp8", 1299),
])
def test_new_devices_dense_peaks(hw, dev, precision, tflops):
    assert hw[dev].peak_flops(precision) == pytest.approx(tflops * 1e12)


@pytest.mark.parametrize("dev, bw_gbs, mem_gib", [
    ("h800-sxm", 3350, 80), ("h20", 4000, 96), ("a800-80gb-sxm", 2039, 80), ("l20", 864, 48),
    ("b300", 8000, 288), ("gb300", 8000, 288), ("rtx-pro-6000", 1792, 96),
    ("ascend-910b", 1600, 64), ("tpu-v7", 7370, 192), ("trainium2", 2900, 96),
])
def test_new_devices_memory(hw, dev, bw_gbs, mem_gib):
    d = hw[dev]
    assert d.mem_bw == bw_gbs * 1e9 and d.memory_bytes == mem_gib * GIB
    assert d.source.strip()


def test_uncertain_new_devices_say_so(hw):
    for dev in ("h20", "l20", "b300", "gb300", "ascend-910b"):
        assert "UNCERTAIN" in hw[dev].notes, dev
    # the China-market variants' cut interconnect is documented
    assert hw["h800-sxm"].interconnect_bytes_per_s == 400e9
    assert hw["a800-80gb-sxm"].interconnect_bytes_per_s == 400e9
    # no 2:4 headline on parts whose vendor uses another sparsity (or none)
    assert not hw["trainium2"].sparse_headline and not hw["tpu-v7"].sparse_headline
    assert "fp4" not in hw["b300"].sparse_precisions   # B300 FP4 sparse is not 2x dense


def test_device_kind_field(tmp_path):
    # issue 23 item 5: measured figures are compared only with a device of the same kind;
    # "kind" is optional (default "accelerator"; ids measured-cpu-* default to "cpu")
    import pytest as _pytest
    from calc.hardware import HardwareFileError, load_hardware
    base = ('name = "X"\nvendor = "V"\nyear = 2024\nmemory_gb = 8\nmem_bw_gbs = 100\n'
            'sparse_headline = false\nsource = "s"\n')
    text = (f'[devices.some-cpu]\n{base}kind = "cpu"\n[devices.some-cpu.peak_tflops]\nfp32 = 1\n'
            f'[devices.some-gpu]\n{base}[devices.some-gpu.peak_tflops]\nfp32 = 1\n')
    p = tmp_path / "hw.toml"
    p.write_text(text)
    devs = load_hardware(p)
    assert devs["some-cpu"].kind == "cpu" and devs["some-gpu"].kind == "accelerator"
    assert load_hardware()["a100-80gb-sxm"].kind == "accelerator"
    p.write_text(text.replace('kind = "cpu"', 'kind = "toaster"'))
    with _pytest.raises(HardwareFileError, match="kind"):
        load_hardware(p)


# ---------------------------------------------------------------- hardware.toml network fields

def _write_network_device(tmp_path, extra):
    text = f'''[devices.x]
name = "X"
vendor = "NVIDIA"
year = 2023
memory_gb = 80
mem_bw_gbs = 3350
sparse_headline = false
source = "test"
{extra}
[devices.x.peak_tflops]
bf16 = 989
'''
    p = tmp_path / "hw.toml"
    p.write_text(text)
    return p


def test_hardware_network_fields_all_or_none(tmp_path):
    p = _write_network_device(tmp_path, "scale_up_gpus = 8\nscale_up_gbs = 450\n")
    with pytest.raises(HardwareFileError, match=r"hw.toml: device 'x': field 'scale_out_gbs': is missing"):
        load_hardware(p)
    p = _write_network_device(tmp_path, 'scale_up_gpus = 8.5\nscale_up_gbs = 450\nscale_out_gbs = 50\nnetwork_source = "s"\n')
    with pytest.raises(HardwareFileError, match="field 'scale_up_gpus'"):
        load_hardware(p)
    p = _write_network_device(tmp_path, 'scale_up_gpus = 8\nscale_up_gbs = 450\nscale_out_gbs = 50\nnetwork_source = "DGX"\n')
    x = load_hardware(p)["x"]
    assert (x.scale_up_gpus, x.scale_up_bw, x.scale_out_bw, x.network_source) == (8, 450e9, 50e9, "DGX")
    zh = 'network_source_zh = "规格书"\n'
    x = load_hardware(_write_network_device(tmp_path, 'scale_up_gpus = 8\nscale_up_gbs = 450\n'
                                            'scale_out_gbs = 50\nnetwork_source = "DGX"\n' + zh))["x"]
    assert (x.network_source, x.network_source_zh) == ("DGX", "规格书")
    p = _write_network_device(tmp_path, zh)               # a translation of no network
    with pytest.raises(HardwareFileError, match=r"device 'x': field 'network_source_zh': is given without a network"):
        load_hardware(p)
    p = _write_network_device(tmp_path, 'scale_up_gpus = 8\nscale_up_gbs = 450\nscale_out_gbs = 50\n'
                                        'network_source = "DGX"\nnetwork_source_zh = 3\n')
    with pytest.raises(HardwareFileError, match="field 'network_source_zh'"):
        load_hardware(p)
    p = _write_network_device(tmp_path, "matmul_fraction = 1.2\n")
    with pytest.raises(HardwareFileError, match="field 'matmul_fraction'"):
        load_hardware(p)


def test_every_networked_device_cites_its_network(hw):
    for dev in hw.values():
        if dev.scale_up_gpus is not None:
            assert dev.network_source.strip(), dev.id
            assert dev.scale_out_bw < dev.scale_up_bw, dev.id


def test_the_scale_up_bandwidth_is_half_the_interconnect_figure_wherever_both_are_given(hw):
    # Two fields of hardware.toml carry the same link: interconnect_gbs (both directions, the
    # Decode page's all-reduce: calc.inference.link_bw_one_way halves it) and scale_up_gbs
    # (one direction, the Training layout page's and the Serving estimate's scale-up tier).
    # H100 SXM: 900 GB/s NVLink both ways = 450 GB/s each way.  Where a device gives both,
    # they must agree, or two pages would time the same all-reduce on two bandwidths.
    both = {i: d for i, d in hw.items() if d.interconnect_bytes_per_s and d.scale_up_bw}
    assert len(both) >= 12
    assert hw["h100-sxm"].scale_up_bw == 450e9
    for dev_id, d in both.items():
        assert d.scale_up_bw == pytest.approx(link_bw_one_way(d.interconnect_bytes_per_s)), dev_id


def test_is_sparse_headline():
    # A100 BF16: dense 312, sparse headline 2 x 312 = 624 TFLOP/s (datasheet); H100 SXM BF16
    # dense 989.4, the datasheet prints 1,979 (= 2 x 989.4 = 1,978.8, within 2 %)
    from calc.hardware import load_hardware
    devs = load_hardware()
    a100, h100 = devs["a100-80gb-sxm"], devs["h100-sxm"]
    assert a100.is_sparse_headline(624e12, "bf16") and not a100.is_sparse_headline(400e12, "bf16")
    assert not a100.is_sparse_headline(312e12, "bf16")
    assert h100.is_sparse_headline(1979e12, "bf16")
    assert not a100.is_sparse_headline(39e12, "fp32")     # no sparse FP32 figure
