"""The code's shape: a page is a list of sections imported directly (no optional imports);
the roofline page's sections are one plain package, ui/roofline."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"))


def test_pages_import_their_sections_directly():
    assert PAGES
    for page in PAGES:
        tree = ast.parse(page.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                assert not any("importlib" in n for n in names), f"{page.name}: importlib"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
                raise AssertionError(f"{page.name}: __import__")
        assert "roofline_extras" not in page.read_text(encoding="utf-8")


def test_one_roofline_package_with_a_module_per_section():
    assert not (ROOT / "ui" / "roofline_extras").exists()
    sections = {"table", "builder", "import_panel", "view", "hierarchy", "compare", "scenario",
                "results", "chart", "state"}
    have = {p.stem for p in (ROOT / "ui" / "roofline").glob("*.py")} - {"__init__"}
    assert sections <= have, sections - have
    page = ast.parse((ROOT / "pages" / "1_Roofline.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(page) if isinstance(n, ast.ImportFrom)
                and n.module == "ui.roofline" for a in n.names}
    # view is drawn by chart (its controls sit under the chart); the rest are page sections.
    assert sections - {"view"} <= imported, sections - {"view"} - imported


def test_calculator_fragments_wrap_the_calculators():
    # A calculator fragment (ui.frame.calculator) holds a page's inputs and everything they
    # drive. Decorating a helper instead (a field drawn inside the calculator) would make
    # that field rerun alone and leave the results that use it stale.
    found = {}
    for page in PAGES:
        tree = ast.parse(page.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                decorated = any(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "calculator"
                                for d in node.decorator_list)
                if decorated or node.name.endswith("_calculator"):
                    found[f"{page.name}:{node.name}"] = decorated
    assert {"2_MFU.py:mfu_calculator", "3_Training_time.py:training_calculator",
            "4_Decode_speed.py:decode_calculator"} <= set(found), found
    assert all(decorated and name.endswith("_calculator") for name, decorated in found.items()), found


# ---------------------------------------------------------------- no arithmetic in the UI
# Pages and their section packages lay out what calc/ computed: an arithmetic operator on
# two non-literal operands (a quantity times a quantity, a sum of bytes, 1 / bound ...) is
# a formula living in the UI.  Text is not arithmetic: "+" with a string or an f-string on
# either side (or a conditional whose branches are text) is concatenation.
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _is_text(node) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) or _is_text(node.orelse)
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, str))


def _is_literal(node) -> bool:
    return isinstance(node, ast.Constant) or (isinstance(node, ast.UnaryOp)
                                              and isinstance(node.operand, ast.Constant))


def arithmetic_lines(path: Path) -> list[int]:
    """Lines of ``path`` with arithmetic on quantities (see above)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
            if not (_is_text(node.left) or _is_text(node.right)
                    or (_is_literal(node.left) and _is_literal(node.right))):
                out.append(node.lineno)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, _ARITH) \
                and not _is_text(node.value):
            out.append(node.lineno)
    return sorted(out)


# Named exemptions, each with its reason.  Remove a line when its file is rewired.
EXEMPT = {
    "pages/2_MFU.py": "MFU page: rewired to the training records by issue-19b",
    "pages/3_Training_time.py": "Training page: rewired to the training records by issue-19b",
}
# Page packages whose numbers all come from calc.inference / calc.placement records.
STRICT_PACKAGES = ("decode", "ops")


def test_arithmetic_checker_catches_a_formula_and_spares_text(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("a = b * c\nd = 1.0 / bound\ns = msg + ' ' + t('k')\nu = f'{x}' + y\n"
                 "n = 2 * 3\nz = p + (f'{q}' if q else '')\nk -= 1\n", encoding="utf-8")
    assert arithmetic_lines(f) == [1, 2, 7]


def test_pages_and_decode_model_sections_do_no_arithmetic():
    files = [p for p in PAGES] + [p for pkg in STRICT_PACKAGES for p in (ROOT / "ui" / pkg).glob("*.py")]
    found = {}
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        lines = arithmetic_lines(path)
        if rel in EXEMPT:
            assert lines, f"{rel} is clean now: drop its exemption ({EXEMPT[rel]})"
        elif lines:
            found[rel] = lines
    assert not found, f"arithmetic in pages/sections (move it into calc/): {found}"


def test_decode_page_is_a_short_list_of_sections():
    # issue 21's shape: the page lists sections of ui/decode, each a function
    page = ROOT / "pages" / "4_Decode_speed.py"
    assert len(page.read_text(encoding="utf-8").splitlines()) <= 60
    tree = ast.parse(page.read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                and n.module == "ui.decode" for a in n.names}
    have = {p.stem for p in (ROOT / "ui" / "decode").glob("*.py")} - {"__init__"}
    assert have == imported, (have, imported)
