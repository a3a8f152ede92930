"""Issue 8, defects 1, 7 and 8: per-precision sparse headlines, binary memory capacity,
China-market and recent devices.  Every expected value comes from a datasheet (cited
in the comment), not from the code."""
import pytest

from calc.hardware import SPARSE_PRECISIONS, HardwareFileError, load_hardware
from calc.units import format_binary_bytes, parse_quantity

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
