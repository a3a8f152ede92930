"""'How this is computed': a formula stated once, with named, formatted values.

A page writes the LaTeX of a formula with ``@name`` placeholders and passes the values by
name; the helper formats and substitutes them::

    formula(r"I_{\\text{ridge}} = \\frac{P_{\\text{peak}}}{B} = \\frac{@peak}{@bw} = @ridge",
            t("roofline.how.ridge"),
            peak=si(peak_flops, "FLOP/s"), bw=si(mem_bw, "B/s"), ridge=si(ridge, "FLOP/B"))

A value is one of: :func:`si` (a number and its SI unit, "312 TFLOP/s"), :func:`text` (an
already formatted quantity, "45%"), :func:`count` (an integer with thousands separators),
:func:`latex` (LaTeX inserted as is, e.g. ``r"\\infty"``); a plain ``str`` is taken as
:func:`text` and a ``(number, unit)`` tuple as :func:`si`. A placeholder without a value,
or a value the formula does not use, raises (a formula cannot silently show ``@peak``).

:func:`ui.frame.how_computed` draws a list of :class:`Formula` (the explanation above its
formula).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Union

from calc.units import format_si

_PLACEHOLDER = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*)")


class Latex(str):
    """LaTeX that goes into a formula as it is."""


def latex_text(text: str) -> str:
    """A formatted quantity ("312 TFLOP/s", "45%", "20 µs", "$2,500") as text inside st.latex.

    µ becomes a math-mode \\mu between two \\text{}: KaTeX rejects \\mu inside \\text{}
    (it rendered as a red error)."""
    return (r"\text{" + text.replace("\\", r"\textbackslash{}").replace("$", r"\$")
            .replace("µ", r"}\mu\text{").replace("%", r"\%").replace("&", r"\&")
            .replace("#", r"\#").replace("_", r"\_") + "}")


def latex(code: str) -> Latex:
    """LaTeX inserted as is (e.g. ``r"\\infty"``)."""
    return Latex(code)


def text(formatted: str) -> Latex:
    """An already formatted quantity ("45%", "7 B") set as upright text."""
    return Latex(latex_text(str(formatted)))


def si(value: float, unit: str) -> Latex:
    """``value`` in SI base units, formatted with its prefix ("312 TFLOP/s")."""
    return text(format_si(float(value), unit))


def count(n: float) -> Latex:
    """A whole number with thousands separators, 1,024 (LaTeX ``1{,}024``)."""
    return Latex(f"{n:,.0f}".replace(",", "{,}"))


Value = Union[Latex, str, tuple]


def _as_latex(name: str, value: Value) -> Latex:
    if isinstance(value, Latex):
        return value
    if isinstance(value, str):
        return text(value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str):
        return si(value[0], value[1])
    raise TypeError(f"formula value {name!r}: expected si(), text(), count(), latex(), a str or "
                    f"a (number, unit) tuple, got {value!r}")


@dataclass(frozen=True)
class Formula:
    """A LaTeX template with ``@name`` placeholders, its values (LaTeX) and the sentence
    that explains it (markdown, already translated)."""

    template: str
    values: Mapping[str, Latex]
    explanation: str = ""

    @property
    def latex(self) -> str:
        """The formula with every placeholder replaced by its value."""
        return _PLACEHOLDER.sub(lambda m: self.values[m.group(1)], self.template)


def formula(template: str, explanation: str = "", **values: Value) -> Formula:
    """A :class:`Formula`; raises KeyError for a placeholder without a value and
    ValueError for a value the template does not use."""
    used = set(_PLACEHOLDER.findall(template))
    missing = used - set(values)
    if missing:
        raise KeyError(f"formula needs values for {sorted(missing)}: {template}")
    unused = set(values) - used
    if unused:
        raise ValueError(f"formula does not use {sorted(unused)}: {template}")
    return Formula(template, {k: _as_latex(k, v) for k, v in values.items()}, explanation)
