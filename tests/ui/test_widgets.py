"""Pure helpers behind the quantity fields (ui/widgets.py)."""
import math

import pytest

from calc.units import parse_quantity
from ui.i18n import translator
from ui.widgets import COUNT, POSITIVE, Bounds, check_bounds, format_quantity, log_options, nearest_option


def test_log_options_hold_common_sizes_and_stay_in_range():
    opts = log_options(1e8, 2e12)
    assert opts[0] == 1e8 and opts[-1] == 2e12
    for size in (7e9, 70e9, 1.5e9, 12e9, 400e9):  # 7B, 70B, 1.5B, 12B, 400B
        assert size in opts
    assert opts == sorted(opts) and len(set(opts)) == len(opts)
    assert 12e3 in log_options(100, 1e8)  # 12k tok/s, the seed's throughput


def test_nearest_option_is_nearest_on_a_log_scale():
    opts = [1.0, 10.0, 100.0]
    assert nearest_option(3.0, opts) == 1.0    # log10(3) = 0.48 < 0.5
    assert nearest_option(3.2, opts) == 10.0   # log10(3.2) = 0.505 > 0.5
    assert nearest_option(-5, opts) == 1.0     # nonsense falls back to the first
    assert nearest_option(float("nan"), opts) == 1.0


@pytest.mark.parametrize("value,unit,text", [
    (7e9, "", "7B"), (1e12, "", "1T"), (12_000, "", "12k"), (8, "", "8"),
    (2.039e12, "B/s", "2.04 TB/s"), (312e12, "FLOP/s", "312 TFLOP/s"),
])
def test_format_quantity_writes_what_parse_quantity_reads(value, unit, text):
    assert format_quantity(value, unit) == text
    back = parse_quantity(text, kind="count" if not unit else None)
    assert math.isclose(back, value, rel_tol=5e-3)


def test_check_bounds_messages():
    t = translator("en")
    assert check_bounds(5.0, POSITIVE, "", t) is None
    assert "greater than 0" in check_bounds(0.0, POSITIVE, "", t)
    assert "whole number" in check_bounds(2.5, COUNT, "", t)
    assert "at least" in check_bounds(0.0, COUNT, "", t)
    assert "at most" in check_bounds(2e21, Bounds(hi=1e21), "FLOP/s", t)
    # a count's limit in full, as the user types it; a quantity's in SI prefixes
    layers = Bounds(lo=1.0, hi=10_000.0, lo_open=False, integer=True)
    assert check_bounds(20_000, layers, "", t).endswith("at most 10,000.")
    assert "10k" not in check_bounds(20_000, layers, "", t)
    assert "1 TB/s" in check_bounds(2e12, Bounds(hi=1e12), "B/s", t)
    assert "finite" in check_bounds(float("inf"), POSITIVE, "", t)
    assert "必须" in check_bounds(-1.0, POSITIVE, "", translator("zh"))


def test_every_field_has_a_finite_range_so_formulas_cannot_overflow():
    t = translator("en")
    # 1e308 typed anywhere: 6 x 1e308 would be inf inside calc; the field refuses it.
    assert "at most" in check_bounds(1e308, POSITIVE, "", t)
    assert "at most" in check_bounds(1e308, COUNT, "", t)
    assert "at least" in check_bounds(1e-300, POSITIVE, "s", t)
    assert check_bounds(1e-9, POSITIVE, "s", t) is None       # a nanosecond is fine
    assert check_bounds(1e24, POSITIVE, "FLOP", t) is None


def test_with_option_adds_the_fields_own_value_in_order():
    from ui.widgets import with_option
    opts = log_options(1e9, 2e10)                       # ... 1.2e10, 1.5e10, 2e10
    got = with_option(opts, 1.3e10)
    assert 1.3e10 in got and got == sorted(got) and len(got) == len(opts) + 1
    assert with_option(opts, 1.2e10 * (1 + 1e-12)) == opts     # already there
    assert with_option(opts, 5e12)[-1] == 5e12                # beyond the range: its own end


@pytest.mark.parametrize("value, text", [(4096, "4.096k"), (37_712, "37.712k"), (1.3e10, "13B"),
                                         (7e9, "7B"), (123_456_789, "123.457M")])
def test_exact_quantity_reads_back_as_the_value(value, text):
    # 4096 written "4.1k" would read back as 4100: the slider would claim another value
    from calc.units import parse_quantity
    from ui.widgets import exact_quantity
    assert exact_quantity(value) == text
    if value != 123_456_789:                              # 6 digits is the limit
        assert parse_quantity(text) == pytest.approx(value, rel=1e-12)
