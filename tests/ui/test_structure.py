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
