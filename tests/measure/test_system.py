"""measure.system (cache sizes from a fake /sys tree) and measure.cpu.plateaus on synthetic
sweeps, with the expected bands worked out by hand."""
import pytest

from measure.cpu import StreamPoint, plateaus, working_set_sizes
from measure.system import CacheLevel, cache_levels, parse_size
from measure.timing import Timing


def test_parse_size():
    assert parse_size("32K") == 32 * 1024
    assert parse_size("32768K") == 32 * 2**20
    assert parse_size("1M") == 2**20
    assert parse_size("512 KiB") == 512 * 1024
    assert parse_size("4096") == 4096
    assert parse_size("") is None and parse_size("lots") is None


def _index(root, i, level, kind, size, shared):
    d = root / f"index{i}"
    d.mkdir()
    (d / "level").write_text(f"{level}\n")
    (d / "type").write_text(f"{kind}\n")
    (d / "size").write_text(f"{size}\n")
    (d / "shared_cpu_list").write_text(f"{shared}\n")


def test_cache_levels_from_sys(tmp_path):
    # The layout of an AMD EPYC (Zen 3) VM: L1d 32K, L1i 32K, L2 512K, L3 32M shared by 0-1.
    _index(tmp_path, 0, 1, "Data", "32K", "0")
    _index(tmp_path, 1, 1, "Instruction", "32K", "0")
    _index(tmp_path, 2, 2, "Unified", "512K", "0")
    _index(tmp_path, 3, 3, "Unified", "32768K", "0-1")
    levels = cache_levels(tmp_path)
    assert [(c.name, c.size_bytes, c.shared_cpus) for c in levels] == [
        ("L1", 32768, 1), ("L2", 524288, 1), ("L3", 33554432, 2)]


def test_cache_levels_unknown_without_sys_on_linux(tmp_path, monkeypatch):
    # No /sys cache tree on a Linux machine (a container without sysfs): the levels are
    # unknown, an empty tuple (the macOS sysctl fallback is only taken on darwin).
    import measure.system as system
    monkeypatch.setattr(system.sys, "platform", "linux")
    assert cache_levels(tmp_path / "missing") == ()
    # a tree with only an instruction cache and an unreadable level holds no data cache
    _index(tmp_path, 0, 1, "Instruction", "32K", "0")
    _index(tmp_path, 1, 2, "Unified", "512K", "0")
    (tmp_path / "index1" / "level").write_text("two\n")
    assert cache_levels(tmp_path) == ()


def _pt(kernel, ws, bw):
    # a point whose best time gives bandwidth bw: bytes 1e9, time 1e9 / bw
    return StreamPoint(kernel, ws, 10**9, Timing((1e9 / bw, 2e9 / bw)))


def test_plateaus_bands_by_hand():
    caches = (CacheLevel(1, 32 * 1024), CacheLevel(2, 512 * 1024), CacheLevel(3, 32 * 2**20))
    KiB, MiB = 1024, 2**20
    pts = [
        _pt("copy", 8 * KiB, 100e9), _pt("copy", 16 * KiB, 120e9),     # L1 band (0, 16 KiB]
        _pt("copy", 24 * KiB, 999e9),                                 # (16K, 32K]: no band
        _pt("copy", 64 * KiB, 60e9), _pt("copy", 256 * KiB, 80e9),     # L2 band (32 KiB, 256 KiB]
        _pt("copy", 4 * MiB, 40e9), _pt("copy", 8 * MiB, 30e9), _pt("copy", 16 * MiB, 20e9),  # L3
        _pt("copy", 64 * MiB, 10e9), _pt("copy", 128 * MiB, 12e9),    # DRAM: >= 64 MiB
        _pt("triad", 128 * MiB, 14e9), _pt("triad", 256 * MiB, 16e9),
    ]
    got = plateaus(pts, caches)
    assert got["L1"] == pytest.approx(110e9)        # median(100, 120)
    assert got["L2"] == pytest.approx(70e9)         # median(60, 80)
    assert got["L3"] == pytest.approx(30e9)         # median(40, 30, 20)
    # DRAM: copy median(10, 12) = 11, triad median(14, 16) = 15 -> the better kernel, 15
    assert got["dram"] == pytest.approx(15e9)


def test_plateaus_without_cache_info_uses_the_largest_quarter():
    pts = [_pt("copy", 2**20, 50e9), _pt("copy", 64 * 2**20, 9e9), _pt("copy", 256 * 2**20, 11e9)]
    # largest = 256 MiB -> DRAM band >= 64 MiB: median(9, 11) = 10
    assert plateaus(pts, ()) == {"dram": pytest.approx(10e9)}


def test_working_set_sizes():
    sizes = working_set_sizes(64 * 2**20, per_octave=2)
    assert sizes[0] == 4032 or sizes[0] == 4224     # 4 KiB rounded to 192 bytes
    assert sizes[-1] == pytest.approx(64 * 2**20, rel=0.01)
    # log2(64 MiB / 4 KiB) = 14 octaves, 2 per octave -> 29 sizes
    assert len(sizes) == 29
    assert all(s % 192 == 0 for s in sizes) and sizes == sorted(sizes)
    with pytest.raises(ValueError):
        working_set_sizes(100)


def test_bandwidth_for_picks_the_level_and_an_upper_bound():
    from measure.kernels import bandwidth_for
    caches = (CacheLevel(1, 32 * 1024), CacheLevel(2, 512 * 1024), CacheLevel(3, 32 * 2**20))
    # numpy's L1 figure below its L2/L3 (per-call overhead): the roof takes the envelope
    bws = {"L1": 14e9, "L2": 57e9, "L3": 81e9, "dram": 20e9}
    assert bandwidth_for(48 * 1024, caches, bws) == ("L1", 81e9)      # 48K <= 2 × 32K
    assert bandwidth_for(600 * 1024, caches, bws) == ("L2", 81e9)
    assert bandwidth_for(40 * 2**20, caches, bws) == ("L3", 81e9)     # <= 64 MiB
    assert bandwidth_for(65 * 2**20, caches, bws) == ("dram", 20e9)   # > 2 × LLC
    ordered = {"L1": 200e9, "L2": 100e9, "L3": 50e9, "dram": 20e9}
    assert bandwidth_for(8 * 1024, caches, ordered) == ("L1", 200e9)
    assert bandwidth_for(1 * 2**20, caches, ordered) == ("L2", 100e9)
    assert bandwidth_for(2**30, (), ordered) == ("dram", 20e9)


def test_plateaus_when_the_sweep_stops_inside_a_huge_last_level_cache():
    # an L3 of 768 MiB: no set reaches 2 × 768 MiB, so the largest sets (>= half of 1 GiB)
    # stand in for DRAM: median(30, 50) = 40
    caches = (CacheLevel(3, 768 * 2**20),)
    pts = [_pt("copy", 2**20, 90e9), _pt("copy", 2**29, 30e9), _pt("copy", 2**30, 50e9)]
    assert plateaus(pts, caches)["dram"] == pytest.approx(40e9)


def test_datasheet_percent_by_hand():
    # 675 MFLOP/s measured against a 1.35 GFLOP/s sheet: 50 %; a sheet of 0 is refused
    from measure.report import datasheet_percent
    assert datasheet_percent(675e6, 1.35e9) == pytest.approx(50.0)
    assert datasheet_percent(1.9e12, 2.039e12) == pytest.approx(93.18, abs=0.01)
    with pytest.raises(ValueError, match="datasheet"):
        datasheet_percent(1.0, 0.0)
