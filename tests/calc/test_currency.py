"""calc.currency: the currency list and how money is written (symbol and ISO code)."""
import pytest

from calc.currency import CURRENCIES, CURRENCY_CODES, DEFAULT_CURRENCY, currency, currency_label, format_money, format_price


def test_codes_are_iso_4217_unique_and_default_is_listed():
    assert len(set(CURRENCY_CODES)) == len(CURRENCY_CODES)
    assert all(len(c) == 3 and c.isupper() for c in CURRENCY_CODES)
    assert DEFAULT_CURRENCY in CURRENCY_CODES and {"USD", "CNY", "EUR", "JPY"} <= set(CURRENCY_CODES)
    # yen and won have no minor unit in use; the others have cents
    assert {c.code for c in CURRENCIES if c.decimals == 0} == {"JPY", "KRW"}


def test_costs_carry_symbol_and_code_and_round_to_whole_units():
    # 83 095.9 GPU-hours x 2.5 = 207 739.8 -> "$207,740 USD"
    assert format_money(83_095.9 * 2.5, "USD") == "$207,740 USD"
    # the same symbol for two currencies: the code tells them apart
    assert format_money(1_246_438.8, "CNY") == "¥1,246,439 CNY"
    assert format_money(1_246_438.8, "JPY") == "¥1,246,439 JPY"
    assert format_money(12.345, "EUR") == "€12.35 EUR"       # under 100: cents kept
    assert format_money(12.345, "JPY") == "¥12 JPY"          # ... unless there are none
    assert format_money(-120, "GBP") == "−£120 GBP"
    assert format_money(0, "USD") == "$0.00 USD"
    assert format_money(2e18, "USD") == "$2.00e+18 USD"
    assert format_money(float("inf"), "USD") == "—" and format_money(float("nan"), "EUR") == "—"


def test_prices_keep_their_digits():
    assert format_price(2.5, "USD") == "$2.50 USD"
    assert format_price(15, "CNY") == "¥15.00 CNY"
    assert format_price(300, "JPY") == "¥300 JPY"
    assert format_price(0.0125, "USD") == "$0.0125 USD"      # 3 significant digits survive
    assert format_price(1234.5, "GBP") == "£1,234.50 GBP"


def test_labels_and_unknown_codes():
    assert currency_label("USD") == "USD ($)" and currency_label("cny") == "CNY (¥)"
    assert currency(" eur ").symbol == "€"
    with pytest.raises(ValueError, match="unknown currency 'XYZ'.*USD"):
        currency("XYZ")
    with pytest.raises(ValueError):
        format_money(1.0, "dollars")


def test_format_money_review_defects():
    # Issue 19, defect 7.  0.5 JPY (JPY has no minor unit) is not zero yen: one significant
    # digit more, "¥0.5 JPY" (was "¥0 JPY").
    assert format_money(0.5, "JPY") == "¥0.5 JPY"
    # 99.995 USD rounds to 100.00 at cents, and 100 or more is written in whole units:
    # "$100 USD" (was "$100.00 USD"); 99.994 stays "$99.99 USD".
    assert format_money(99.995, "USD") == "$100 USD"
    assert format_money(99.994, "USD") == "$99.99 USD"
    # −0.001 USD is a tenth of a cent below zero, not "−$0.00 USD"
    assert format_money(-0.001, "USD") == "−$0.001 USD"
    # zero has no sign; far below the cent: scientific
    assert format_money(-0.0, "USD") == "$0.00 USD"
    assert format_money(1e-10, "USD") == "$1.00e-10 USD"
