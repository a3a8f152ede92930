import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc.units import QuantityError, format_si, parse_quantity
from calc.units import (QuantityError, UnitKindError, format_money, kind_for_unit, parse_price,
                        parse_quantity)


@pytest.mark.parametrize("text, expected", [
    ("1.1e12", 1.1e12), ("1e12", 1e12), ("42", 42.0), ("-5", -5.0), ("\u22125", -5.0),
    ("1,000,000", 1e6), ("1.1T", 1.1e12), ("500M", 500e6), ("7B", 7e9), ("70b", 70e9), ("12k", 12e3),
    ("312 TFLOP/s", 312e12), ("312 TFLOPS", 312e12), ("989.4 tflops", 989.4e12), ("624 TOPS", 624e12),
    ("14 GB", 14e9), ("16 GiB", 16 * 2**30), ("512 B", 512.0), ("80gb", 80e9),
    ("2 TB/s", 2e12), ("2039 GB/s", 2.039e12),
    ("1.2 ms", 1.2e-3), ("350 us", 350e-6), ("350 µs", 350e-6), ("350 μs", 350e-6), ("10 ns", 10e-9),
    ("1.5 s", 1.5), ("2 min", 120.0), ("54 days", 54 * 86400.0),
    ("4.2e22 FLOP", 4.2e22), ("1.2 GFLOPs", 1.2e9), ("156 FLOP/B", 156.0), ("143 tok/s", 143.0),
    ("12k tokens/s", 12e3), ("45%", 0.45),
    ("2*8192**3", 2 * 8192**3), ("3*8192^2*2", 3 * 8192**2 * 2), ("(1+2)*3e3", 9e3), ("3×10^12", 3e12),
    ("\uff13\uff11\uff12T", 312e12),  # full-width digits are normalised
    ("  7B  ", 7e9), (312, 312.0), (1.5, 1.5),
])
def test_parse_quantity_accepts(text, expected):
    got = parse_quantity(text)
    assert isinstance(got, float)
    assert got == pytest.approx(expected, rel=1e-12)


def test_b_is_billion_glued_bytes_spaced():
    assert parse_quantity("7B") == 7e9
    assert parse_quantity("7 B") == 7.0
    assert parse_quantity("7 B", kind="count") == 7e9
    assert parse_quantity("7B", kind="bytes") == 7.0


@pytest.mark.parametrize("text, kind", [("14 GB", "time"), ("1.2 ms", "bytes"), ("2 TB/s", "flop_rate"),
                                        ("312 TFLOP/s", "bandwidth")])
def test_kind_mismatch_rejected(text, kind):
    with pytest.raises(QuantityError, match="Expected"):
        parse_quantity(text, kind=kind)


def test_kind_accepts_bare_numbers_and_multipliers():
    assert parse_quantity("312T", kind="flop_rate") == 312e12
    assert parse_quantity("1.2 ms", kind="time") == 1.2e-3
    with pytest.raises(ValueError):
        parse_quantity("1", kind="furlongs")


@pytest.mark.parametrize("text", ["", "   ", "abc", "nan", "NaN", "inf", "-inf", "1,5", "1 m", "2 Ms",
                                  "__import__('os')", "[1]", "1 if 1 else 2", "x" * 201, "1/0",
                                  "(-8)**0.5", "10**400", "2**2000", "1e999", "3 furlongs", None, True,
                                  float("nan"), float("inf")])
def test_parse_quantity_rejects(text):
    with pytest.raises(QuantityError) as e:
        parse_quantity(text)
    assert isinstance(e.value, ValueError)
    assert len(str(e.value)) > 10


def test_rejection_messages_are_human():
    with pytest.raises(QuantityError, match=r'Could not read "abc" as a number.*Examples'):
        parse_quantity("abc")
    with pytest.raises(QuantityError, match="too long"):
        parse_quantity("1+" * 150 + "1")
    with pytest.raises(QuantityError, match="exponent"):
        parse_quantity("9**9**9")


def test_power_tower_rejected_quickly():
    t = time.perf_counter()
    for text in ("9**9**9", "9^9^9^9", "(10**300)**(10**300)", "2**1e308"):
        with pytest.raises(QuantityError):
            parse_quantity(text)
    assert time.perf_counter() - t < 0.5  # generous; each is microseconds


@pytest.mark.parametrize("value, unit, expected", [
    (312e12, "FLOP/s", "312 TFLOP/s"), (2.039e12, "B/s", "2.04 TB/s"), (156, "FLOP/B", "156 FLOP/B"),
    (1.5e-3, "s", "1.5 ms"), (350e-6, "s", "350 µs"), (10e-9, "s", "10 ns"), (14e9, "B", "14 GB"),
    (0, "FLOP/s", "0 FLOP/s"), (-3e9, "B", "-3 GB"), (4.2e22, "FLOP", "42 ZFLOP"), (999.7, "FLOP", "1 kFLOP"),
    (0.5, "FLOP/B", "0.5 FLOP/B"), (143, "tok/s", "143 tok/s"), (7e9, "", "7G"), (989.4e12, "FLOP/s", "989 TFLOP/s"),
])
def test_format_si(value, unit, expected):
    assert format_si(value, unit) == expected


def test_format_si_digits_and_specials():
    assert format_si(989.4e12, "FLOP/s", digits=4) == "989.4 TFLOP/s"
    assert format_si(float("nan"), "s") == "—"
    assert format_si(float("inf"), "B") == "∞ B"
    for bad in ("x", None, True):
        with pytest.raises(ValueError):
            format_si(bad, "B")
    with pytest.raises(ValueError):
        format_si(1.0, "B", digits=0)


UNITS = ["FLOP/s", "B/s", "B", "FLOP", "FLOP/B", "s", "tok/s", ""]


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-11, max_value=1e27, allow_nan=False), st.sampled_from(UNITS),
       st.integers(min_value=1, max_value=6), st.booleans())
def test_parse_format_round_trip(x, unit, digits, negative):
    if negative:
        x = -x
    text = format_si(x, unit, digits)
    kind = "bytes" if unit == "B" else None
    back = parse_quantity(text, kind=kind)
    # within half a unit in the last printed digit (relative 0.5 * 10**(1-digits)) + float slack
    assert back == pytest.approx(x, rel=0.5 * 10 ** (1 - digits) * 1.0001 + 1e-12), text


# ---- Folded from tests/calc/test_calc_units_review.py:
# Issue 8, defect 11 in calc.units: a quantity of the wrong kind names both kinds; a price
# takes a currency sign.
@pytest.mark.parametrize("text, kind, got", [
    ("3 TB/s", "flop_rate", "bandwidth"),    # a bandwidth typed as a peak
    ("14 GB", "flop_rate", "bytes"),         # a memory size typed as a peak
    ("2 TFLOP/s", "bandwidth", "flop_rate"), # a peak typed as a bandwidth
    ("2 TB/s", "count", "bandwidth"),
])
def test_wrong_kind_names_both(text, kind, got):
    with pytest.raises(UnitKindError) as e:
        parse_quantity(text, kind=kind)
    assert e.value.expected == kind and e.value.got == got and e.value.text == text


@pytest.mark.parametrize("unit, kind", [("FLOP/s", "flop_rate"), ("B/s", "bandwidth"),
                                        ("B", "bytes"), ("s", "time"), ("tok/s", "token_rate"),
                                        ("", None)])
def test_kind_for_unit(unit, kind):
    assert kind_for_unit(unit) == kind


@pytest.mark.parametrize("text, amount, code", [
    ("2.5", 2.5, None), ("$2", 2.0, "USD"), ("¥15", 15.0, "CNY"), ("2 USD", 2.0, "USD"),
    ("15 元", 15.0, "CNY"), ("€1.8k", 1800.0, "EUR"), ("￥15", 15.0, "CNY"), ("2 usd", 2.0, "USD"),
])
def test_price_with_currency(text, amount, code):
    assert parse_price(text) == (amount, code)
    assert parse_quantity(text, kind="price") == amount


@pytest.mark.parametrize("text", ["14 GB", "$2 CNY", "abc", "$", "-1", "$-2", "-0.5 USD"])
def test_bad_prices(text):
    with pytest.raises(QuantityError):
        parse_price(text)


def test_format_money():
    # 83,095.9 GPU-hours x $2 = $166,191.8 -> "$166,192 USD" (issue 16: symbol and code,
    # through calc.currency); without a currency a plain number
    assert format_money(166191.8, "USD") == "$166,192 USD"
    assert format_money(2.5, "CNY") == "¥2.50 CNY" and format_money(0) == "0"
    assert format_money(3e12, "USD") == "$3,000,000,000,000 USD"
    assert format_money(3e12) == "3e+12"


# Issue 25: a value a Chinese page shows can be typed back. Expected values by hand from the
# unit's definition (1 天 = 24 × 3600 s, 1 小时 = 3600 s, 1 分钟 = 60 s; /秒 = per second;
# 1 字节 = 1 byte), never from parse_quantity's own output.
@pytest.mark.parametrize("text, kind, expected", [
    ("54 天", "time", 54 * 24 * 3600.0),          # the chapter's 54 days = 4,665,600 s
    ("97天", "time", 97 * 86400.0),               # glued, as 天 often is
    ("3 小时", "time", 3 * 3600.0),                # 10,800 s
    ("20 分钟", "time", 20 * 60.0),                # 1,200 s
    ("1.5 秒", "time", 1.5),
    ("2 毫秒", "time", 2e-3),
    ("350 微秒", "time", 350e-6),
    ("10 纳秒", "time", 10e-9),
    ("120 tokens/秒", "token_rate", 120.0),
    ("143 tok/秒", "token_rate", 143.0),
    ("12k tokens/秒", "token_rate", 12_000.0),      # the chapter's 12000 tokens/秒
    ("2 TB/秒", "bandwidth", 2e12),
    ("900 GiB/秒", "bandwidth", 900 * 2.0**30),
    ("312 TFLOP/秒", "flop_rate", 312e12),
    ("156 FLOP/字节", "intensity", 156.0),          # the A100 ridge as the page writes it
    ("14 字节", "bytes", 14.0),
    ("３ 小时", "time", 10_800.0),                  # full-width digit, NFKC-normalised
])
def test_chinese_units_are_read(text, kind, expected):
    assert parse_quantity(text, kind=kind) == pytest.approx(expected, rel=1e-12)
    assert parse_quantity(text) == pytest.approx(expected, rel=1e-12)  # without a kind too


@pytest.mark.parametrize("zh, en", [
    ("54 天", "54 days"), ("3 小时", "3 h"), ("20 分钟", "20 min"), ("1.5 秒", "1.5 s"),
    ("120 tokens/秒", "120 tokens/s"), ("2 TB/秒", "2 TB/s"), ("156 FLOP/字节", "156 FLOP/byte"),
])
def test_chinese_and_english_units_agree(zh, en):
    assert parse_quantity(zh) == parse_quantity(en)


@pytest.mark.parametrize("text, kind", [("3 小时", "bytes"), ("54 天", "token_rate"),
                                        ("120 tokens/秒", "time"), ("14 字节", "time")])
def test_chinese_units_keep_their_kind(text, kind):
    with pytest.raises(UnitKindError):
        parse_quantity(text, kind=kind)


@pytest.mark.parametrize("text", ["天", "3 小", "5 年", "1 小时 30 分钟"])
def test_chinese_nonsense_is_rejected(text):
    with pytest.raises(QuantityError):
        parse_quantity(text)


def test_format_percent_is_the_one_percent_formatter():
    # trim: the Plans editor writes a typed 35 % back as "35%", not "35.00%" or the float
    # noise 0.35000000000000003 → "35.000000000000004%"
    from calc.units import format_percent
    assert format_percent(0.35000000000000003, 2, trim=True) == "35%"
    assert format_percent(0.125, 2, trim=True) == "12.5%"
    assert format_percent(0.2019, 1) == "20.2%"
    # keep_small: decode MFU at batch 1 of a 70B model, 0.00034 → "0.034%", not "0.0%"
    assert format_percent(0.00034, 1, keep_small=True) == "0.034%"
    assert format_percent(0.0, 1, keep_small=True) == "0.0%"
    assert format_percent(0.5, 0, keep_small=True) == "50%"


def test_format_si_many_by_hand():
    # 2.5e14 -> exponent 3*floor(14.4/3) = 12 -> "250 T"; 999.7 rounds to 1000 at 3 digits,
    # so it moves up a prefix: "1 k" (format_si's rule: the largest prefix whose rounded
    # mantissa is >= 1); seconds keep sub-unit prefixes, bytes below 1 do not
    from calc.units import format_si_many
    assert format_si_many([2.5e14, 312e12, 999.0, 999.7], "FLOP/s") == \
        ["250 TFLOP/s", "312 TFLOP/s", "999 FLOP/s", "1 kFLOP/s"]
    assert format_si_many([1.5e-3, 3.5e-7], "s") == ["1.5 ms", "350 ns"]
    assert format_si_many([0.5], "B") == ["0.5 B"]
    assert format_si_many([0.0, float("nan"), -1.0, float("inf")], "B") == ["0 B", "— B", "-1 B", "∞ B"]
    assert format_si_many([2730.7, 2.0], "FLOP/B") == ["2730 FLOP/B", "2 FLOP/B"]
    assert format_si_many([1e9, 1e9], "B", mask=[True, False]) == ["1 GB", "—"]


def test_format_si_many_writes_what_format_si_writes():
    # the table's vectorized text is the one formatter's, for values across 40 decades in
    # every unit family (prefixes up to Y, seconds down to p, exponent notation beyond)
    import numpy as np
    from calc.units import format_si_many
    rng = np.random.default_rng(7)
    edges = [999.4999, 999.7, 1000.0, 0.99949, 1e-12, 999.7e24, 4.67e6, 5e-13]
    for unit in ("s", "B", "FLOP", "FLOP/s", "B/s", "FLOP/B", "tok/s"):
        values = np.concatenate([10 ** rng.uniform(-14, 26, 3000), edges])
        assert format_si_many(values, unit) == [format_si(float(x), unit) for x in values], unit
