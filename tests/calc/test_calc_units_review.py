"""Issue 8, defect 11 in calc.units: a quantity of the wrong kind names both kinds; a price
takes a currency sign."""
import pytest

from calc.units import (QuantityError, UnitKindError, format_money, kind_for_unit, parse_price,
                        parse_quantity)


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


@pytest.mark.parametrize("text", ["14 GB", "$2 CNY", "abc", "$"])
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
