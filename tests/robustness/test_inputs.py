"""Every text/number input on every page, and every kernel-table cell, fed hostile values:
a clear message, no traceback, the rest of the page intact."""
from __future__ import annotations

import math

import pytest

from calc.units import parse_quantity
from robust_helpers import PAGES, exceptions, new_apptest, page_intact

# The list: 0, negative, NaN, inf, 1e308, empty, plain text, 9**9**9,
# __import__('os'), a 10,000-character string, Unicode digits.
FIELD_VALUES = ("0", "-1", "NaN", "inf", "1e308", "", "hello", "9**9**9", "__import__('os')",
                "7" * 10_000, "x" * 10_000, "٣١٢", "３１２Ｔ", "<script>alert(1)</script>")
NUMBER_VALUES = (0, -1, 1e308, -1e308, 10**6)


def _parses(text: str) -> bool:
    try:
        value = parse_quantity(text)
    except ValueError:
        return False
    return math.isfinite(value)


def _messages(at) -> list[str]:
    out = []
    for group in (at.error, at.warning):
        out.extend(str(e.value) for e in group)
    return out


@pytest.mark.parametrize("page_id,path", PAGES, ids=[p for p, _ in PAGES])
@pytest.mark.parametrize("query", [{}, {"device": "custom"}], ids=["preset", "custom"])
def test_every_field_survives_hostile_values(page_id, path, query):
    at = new_apptest(path, dict(query))
    at.run()
    assert not at.exception, exceptions(at)
    # (key, default text, max_chars): the browser cuts typed text at max_chars.
    fields = [(w.key, w.value, getattr(w, "max_chars", 0) or 0) for w in at.text_input if w.key]
    numbers = [(w.key, w.value) for w in at.number_input if w.key]
    n_widgets = len(at.text_input) + len(at.number_input)
    problems = []
    for key, original, max_chars in fields:
        # A quantity field (its default reads as a quantity) must explain a rejection;
        # free-text fields (a name filter) may take any text.
        quantity_field = bool(original) and _parses(original)
        for value in FIELD_VALUES:
            if max_chars:
                value = value[:max_chars]
            at.text_input(key=key).set_value(value).run()
            label = f"{page_id}: {key}={value[:30]!r}"
            if at.exception:
                problems.append(f"{label}: exception {exceptions(at)[0][:300]}")
                at = new_apptest(path, dict(query))
                at.run()
                continue
            if not page_intact(at):
                problems.append(f"{label}: the page lost its title")
            # A bad custom-device peak/bandwidth leaves nothing to compute: the page may
            # stop after saying so. Any other bad field must leave the other inputs in place.
            if key in ("peak", "bw"):
                if (not _parses(value) or parse_quantity(value) <= 0) and not _messages(at):
                    problems.append(f"{label}: custom device incomplete but no message")
            elif len(at.text_input) + len(at.number_input) < n_widgets - 1:
                problems.append(f"{label}: inputs disappeared")
            if quantity_field and value.strip() and not _parses(value) and not _messages(at):
                problems.append(f"{label}: rejected text but no message")
            if any("Traceback" in m for m in _messages(at)):
                problems.append(f"{label}: a traceback in a message")
        at.text_input(key=key).set_value(original).run()
    for key, original in numbers:
        for value in NUMBER_VALUES:
            try:
                at.number_input(key=key).set_value(value).run()
            except Exception as exc:  # noqa: BLE001 - AppTest refuses an out-of-range value
                problems.append(f"{page_id}: number {key}={value}: {type(exc).__name__}: {exc}")
                at = new_apptest(path, dict(query))
                at.run()
                continue
            if at.exception:
                problems.append(f"{page_id}: number {key}={value}: {exceptions(at)[0][:300]}")
                at = new_apptest(path, dict(query))
                at.run()
        if original is not None:
            at.number_input(key=key).set_value(original).run()
    assert not problems, "\n".join(problems[:40])


# ----------------------------------------------------------------------------- table cells

CELL_VALUES = ("0", "-1", "NaN", "nan", "inf", "-inf", "1e308", "1e309", "", " ", "hello",
               "9**9**9", "__import__('os')", "x" * 10_000, "9" * 10_000, "٣١٢", "３１２Ｔ",
               None, float("nan"), float("inf"), -5, 0, 1e308, True, [], {}, b"12")
GOOD = {"name": "good kernel", "flops": "2 GFLOP", "bytes": "1 GB", "seconds": "1 ms",
        "count": "1"}


@pytest.mark.parametrize("column", ["name", "flops", "bytes", "seconds", "count"])
def test_table_cells_hostile_values_keep_other_rows(column):
    from calc.kernel_table import parse_rows

    for value in CELL_VALUES:
        bad = dict(GOOD, name="bad kernel")
        bad[column] = value
        result = parse_rows([GOOD, bad, dict(GOOD, name="other good")])
        names = [k.name for k in result.kernels]
        assert "good kernel" in names and "other good" in names, (column, value, names)
        if column == "name":    # any name is fine: shown as text, cut to MAX_NAME_CHARS
            assert len(result.kernels) == 3 and not result.errors, (value, result.errors)
            assert len(result.kernels[1].name) <= 10_000
            continue
        if "bad kernel" not in names:
            assert result.errors, f"row dropped without a message: {column}={value!r}"
            msg = str(result.errors[0])
            assert "2" in msg, f"the message does not name the row: {msg}"
            assert len(msg) < 600, "the message repeats the whole 10,000-character cell"
        else:
            k = result.kernels[names.index("bad kernel")]
            for x in (k.bytes_moved, k.seconds):
                assert x is None or (math.isfinite(x) and x > 0), (column, value, k)
            # FLOPs may be 0: a copy, fill or memset kernel (issue 8, defect 6)
            assert k.flops is None or (math.isfinite(k.flops) and k.flops >= 0), (column, value, k)


def _state_script():
    import streamlit as st

    from ui.roofline import state

    bad = st.session_state.get("bad_cell")
    if bad is not None:
        rows = state.get_rows()
        rows = rows + [{"name": "bad", "flops": bad, "bytes": bad, "seconds": bad, "count": bad}]
        state.rows_from_editor(rows)
    result = state.parsed()
    st.write(len(result.kernels), len(result.errors))
    st.text("|".join(k.name for k in result.kernels))


def test_state_api_keeps_previous_valid_kernels():
    pytest.importorskip("ui.roofline.state")
    from streamlit.testing.v1 import AppTest

    from ui.roofline.state import DEFAULT_ROWS

    at = AppTest.from_function(_state_script, default_timeout=30)
    at.run()
    assert not at.exception
    n_default = len(DEFAULT_ROWS)
    for value in ("NaN", "inf", "-1", "0", "9**9**9", "__import__('os')", "x" * 10_000, "٣١٢"):
        at.session_state["bad_cell"] = value
        at.run()
        assert not at.exception, (value, exceptions(at))
        names = at.text[0].value.split("|")
        assert len([n for n in names if n != "bad"]) == n_default, (value, names)
        assert "bad" not in names or value == "٣١٢", (value, names)
