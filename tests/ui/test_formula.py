"""ui.formula: a formula stated once, values substituted by name and formatted."""
import pytest

from ui.formula import Formula, count, formula, latex, si, text


def test_values_are_formatted_and_substituted_by_name():
    # A100 bf16: ridge = 312e12 / 2.039e12 = 153.0 FLOP/B (format_si: 3 significant digits).
    f = formula(r"I = \frac{@peak}{@bw} = @ridge", "why", peak=si(312e12, "FLOP/s"),
                bw=(2.039e12, "B/s"), ridge=si(312e12 / 2.039e12, "FLOP/B"))
    assert isinstance(f, Formula) and f.explanation == "why"
    assert f.latex == (r"I = \frac{\text{312 TFLOP/s}}{\text{2.04 TB/s}} = \text{153 FLOP/B}")


def test_one_value_used_twice_and_the_kinds_of_value():
    f = formula(r"@n \times @n = @p,\; @inf, @pct", n=count(1024), p="45%", inf=latex(r"\infty"),
                pct=text("20 µs"))
    # count: LaTeX thousands separator {,}; "%" escaped; µ as a math-mode \mu between two
    # \text{} (KaTeX rejects \mu inside \text{}: it rendered as a red error); latex() as is.
    assert f.latex == r"1{,}024 \times 1{,}024 = \text{45\%},\; \infty, \text{20 }\mu\text{s}"


def test_a_missing_or_unused_value_raises():
    with pytest.raises(KeyError, match="peak"):
        formula(r"P = @peak")
    with pytest.raises(ValueError, match="bw"):
        formula(r"P = @peak", peak="1", bw="2")
    with pytest.raises(TypeError, match="x"):
        formula(r"@x", x=3.0)          # a bare number: which unit? Refused.


def _adjacent_literals(path):
    """Pairs of adjacent plain string literals in a Python file (implicit concatenation),
    with the line of the second."""
    import io
    import tokenize
    toks = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    prev = None
    for tk in toks:
        if tk.type in (tokenize.NL, tokenize.COMMENT):
            continue
        if tk.type == tokenize.STRING and prev is not None and not prev.string[:2].lower().count("f") \
                and not tk.string[:2].lower().count("f"):
            yield eval(prev.string), eval(tk.string), tk.start[0]
        prev = tk if tk.type == tokenize.STRING else None


def test_no_latex_command_runs_into_the_next_literal():
    # r"...\quad" r"t_q = ..." joins to "\quadt_q": KaTeX reads an unknown command and
    # draws it in red (the Serving page's prefill-queue formula did until 2026-12-06)
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    bad = [f"{p.relative_to(root)}:{line}: {a[-16:]!r} + {b[:16]!r}"
           for d in ("ui", "pages", "calc") for p in sorted((root / d).rglob("*.py"))
           for a, b, line in _adjacent_literals(p)
           if isinstance(a, str) and isinstance(b, str) and re.search(r"\\[A-Za-z]+$", a) and re.match(r"[A-Za-z]", b)]
    assert not bad, "\n".join(bad)
