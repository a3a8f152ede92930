"""Currencies for prices and costs: the list a page offers and how an amount is written.

Standard library only, so the Training page, the Plans page and the HTML report all
write money the same way (calc.units.format_money and parse_price use this list too). A cost is always written with the currency's symbol AND its ISO
4217 code ("$2,690,266 USD", "¥19,363,968 CNY"): several currencies share a symbol (¥ is
both yuan and yen, $ a dozen dollars), and a number pasted into a meeting's notes must
still say which one it is. Amounts are not converted: Roofline Lab has no exchange rates;
the currency only names what the typed price is in.

    >>> format_money(2690265.6, "USD")
    '$2,690,266 USD'
    >>> format_money(2.5, "EUR")
    '€2.50 EUR'
    >>> currency_label("CNY")
    'CNY (¥)'
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Currency:
    """An ISO 4217 code, the symbol written before amounts, and its minor-unit digits
    (2 for cents; 0 for yen and won, which have no minor unit in use)."""
    code: str
    symbol: str
    decimals: int = 2


# The currencies GPU time is commonly priced in (cloud price lists, Chinese and Japanese
# and Korean clouds, European providers). Order = order in the selector.
CURRENCIES: tuple[Currency, ...] = (
    Currency("USD", "$"),
    Currency("CNY", "¥"),
    Currency("EUR", "€"),
    Currency("GBP", "£"),
    Currency("JPY", "¥", 0),
    Currency("KRW", "₩", 0),
    Currency("INR", "₹"),
    Currency("HKD", "HK$"),
    Currency("TWD", "NT$"),
    Currency("SGD", "S$"),
    Currency("CAD", "C$"),
    Currency("AUD", "A$"),
)
CURRENCY_CODES: tuple[str, ...] = tuple(c.code for c in CURRENCIES)
DEFAULT_CURRENCY = "USD"

_BY_CODE = {c.code: c for c in CURRENCIES}


def currency(code: str) -> Currency:
    """The Currency for an ISO code (case-insensitive); ValueError naming the known codes."""
    found = _BY_CODE.get(str(code).strip().upper())
    if found is None:
        raise ValueError(f"unknown currency {code!r}; known: {', '.join(CURRENCY_CODES)}")
    return found


def currency_label(code: str) -> str:
    """How the selector names a currency: code, then symbol ("USD ($)", "JPY (¥)")."""
    c = currency(code)
    return f"{c.code} ({c.symbol})"


def format_money(amount: float, code: str, decimals: int | None = None) -> str:
    """An amount with symbol and code: "$2,690,266 USD", "€2.50 EUR", "−$120 USD".

    Digits: amounts of 100 or more are rounded to whole units (a cost estimate has no
    meaningful cents); smaller ones keep the currency's minor unit (a price of $2.50 per
    GPU-hour), or `decimals` when given.  The choice is made on the rounded amount, so
    99.995 USD is "$100 USD" (not "$100.00 USD").  A non-zero amount never reads as zero:
    below the minor unit it keeps one significant digit more ("¥0.5 JPY", "$0.004 USD",
    "−$0.001 USD"; never "¥0 JPY" or "−$0.00 USD").  Amounts of 1e15 and more switch to
    scientific notation ("$1.23e+18 USD").  A value that is not finite is written "—".
    """
    c = currency(code)
    if amount is None or not math.isfinite(amount):
        return "—"
    x = abs(float(amount))
    if decimals is None:
        decimals = 0 if round(x, c.decimals) >= 100 else c.decimals
        if 0 < x and round(x, decimals) == 0:            # below the minor unit: 1 sig. digit
            decimals = -math.floor(math.log10(x))
    if x >= 1e15 or (0 < x and decimals > 8):
        body = f"{x:.2e}"
    else:
        body = f"{x:,.{decimals}f}"
    sign = "−" if amount < 0 and any(ch in "123456789" for ch in body) else ""
    return f"{sign}{c.symbol}{body} {c.code}"


def format_price(price: float, code: str) -> str:
    """A unit price (per GPU-hour, per million tokens): the currency's minor unit
    ("$2.50 USD", "¥300 JPY"), more decimals for a price below one unit so that it keeps
    3 significant digits ("$0.0125 USD")."""
    c = currency(code)
    if price is None or not math.isfinite(price):
        return "—"
    x = abs(float(price))
    decimals = c.decimals
    if 0 < x < 1:
        # enough decimals for 3 significant digits of a sub-unit price
        decimals = max(decimals, min(8, 2 - math.floor(math.log10(x))))
    text = f"{x:,.{decimals}f}"
    if "." in text and decimals > c.decimals:
        text = text.rstrip("0")
        if len(text.split(".")[1]) < c.decimals:
            text += "0" * (c.decimals - len(text.split(".")[1]))
    return f"{'−' if price < 0 else ''}{c.symbol}{text} {c.code}"


__all__ = ["CURRENCIES", "CURRENCY_CODES", "Currency", "DEFAULT_CURRENCY", "currency",
           "currency_label", "format_money", "format_price"]
