"""The code's shape (issue 21): one registry of pages; a page is a short list of sections
imported directly from its package ui/<page id>/; the top of ui/ holds only shared modules;
a layer of ui/ imports only from below itself, at the top of the module.

The layers, bottom to top (a module may import from lower layers and from its own
package; page packages never import each other, pages/*.py and app.py may import any):

    0  ui.text.*, ui.pages, ui.timing        catalogs, the page registry, timing
    1  ui.i18n                               translation (reads ui.text)
    2  ui.numbers, ui.formula                number words, formulas
    3  ui.state                              URL-bound state
    4  ui.widgets                            input widgets
    5  ui.figures.*                          plotly figure builders
    6  ui.model_picker, ui.trace_session,    sections and state that several pages share
       ui.model_sections
    7  ui.frame                              page frame and sidebar
    8  ui.<page id>.*                        one package per page
"""
import ast
import subprocess
import functools
from pathlib import Path

from ui.pages import PAGES as REGISTRY

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
PAGES = sorted((ROOT / "pages").glob("*.py"))
ENTRY_POINTS = [ROOT / "app.py", *PAGES]

LAYERS = {
    "ui.text": 0, "ui.pages": 0, "ui.timing": 0,
    "ui.live": 1,               # live sliders: a field and the results rerun alone (issue 22)
    "ui.i18n": 1,
    "ui.numbers": 2, "ui.formula": 2,
    "ui.state": 3,
    "ui.widgets": 4,
    "ui.figures": 5,
    "ui.model_picker": 6, "ui.trace_session": 6, "ui.model_sections": 6,
    "ui.trace_device": 6,       # the trace's GPU vs the sidebar's: Roofline import, Trace doctor
    "ui.predicted_mfu": 6,      # the Training layout page -> the Training time page (issue 20)
    "ui.frame": 7,
}
PAGE_LAYER = 8
# Shared packages at the top of ui/ that are no page: figure builders and catalogs.
SHARED_PACKAGES = {"figures", "text"}

# Pages other engineers are rewriting this round (issue-19 / issue-19b: sections out of
# pages/2_MFU.py, 3_Training_time.py and 4_Decode_speed.py into ui/mfu, ui/training,
# ui/decode). Remove an entry when its page is a list of sections.
PENDING_PAGES: set[str] = set()
PENDING_FILES = {ROOT / p.file for p in REGISTRY if p.id in PENDING_PAGES}
# Shared modules still being moved (none).
PENDING_SHARED: set[str] = set()


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    """The layer of a ui module (None: not in ui/, or the bare package ``ui``)."""
    parts = module.split(".")
    if parts[0] != "ui" or len(parts) == 1:
        return None
    top = f"ui.{parts[1]}"
    if top in LAYERS:
        return LAYERS[top]
    return PAGE_LAYER if (UI / parts[1]).is_dir() else None


def _package(module: str) -> str:
    """'ui.roofline.chart' -> 'ui.roofline'; a top-level module is its own package."""
    return ".".join(module.split(".")[:2])


@functools.cache
def _imports(path: Path) -> tuple:
    """(node, imported module names, at module top?) of every import in ``path``."""
    return tuple(_walk_imports(path))


def _walk_imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set()
    for node in tree.body:          # imports at the top, or in a top-level if/try block
        top.add(id(node))
        if isinstance(node, (ast.If, ast.Try)):
            for sub in ast.walk(node):
                top.add(id(sub))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node, [a.name for a in node.names], id(node) in top
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                     if (ROOT / Path(*f"{node.module}.{a.name}".split("."))).with_suffix(".py").exists()
                                     or (ROOT / Path(*f"{node.module}.{a.name}".split("."))).is_dir()]
            yield node, names, id(node) in top


def _ui_files():
    return sorted(UI.rglob("*.py"))


def test_registry_lists_every_page_file_once():
    files = [p.file for p in REGISTRY]
    assert len(files) == len(set(files)) and len({p.id for p in REGISTRY}) == len(REGISTRY)
    assert sorted(files) == sorted(str(p.relative_to(ROOT)) for p in ENTRY_POINTS)
    assert REGISTRY[0].file == "app.py"


def test_pages_import_their_sections_directly():
    assert PAGES
    for page in ENTRY_POINTS:
        tree = ast.parse(page.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                assert not any("importlib" in n for n in names), f"{page.name}: importlib"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
                raise AssertionError(f"{page.name}: __import__")


def test_every_page_is_a_short_list_of_sections_from_its_package():
    for p in REGISTRY:
        if p.id in PENDING_PAGES:
            continue
        path = ROOT / p.file
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 60, f"{p.file}: {len(lines)} lines (at most 60: a list of sections)"
        assert (UI / p.id / "__init__.py").exists(), f"{p.id}: no package ui/{p.id}/"
        own = {m for _node, names, _top in _imports(path) for m in names
               if m == f"ui.{p.id}" or m.startswith(f"ui.{p.id}.")}
        assert own, f"{p.file} imports no section from ui.{p.id}"


def test_no_arithmetic_in_pages():
    # A page lays out sections; numbers are computed in calc/ and the sections.
    for p in REGISTRY:
        if p.id in PENDING_PAGES:
            continue
        tree = ast.parse((ROOT / p.file).read_text(encoding="utf-8"))
        ops = [f"{p.file}:{n.lineno}" for n in ast.walk(tree)
               if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult,
                                                                 ast.Div, ast.FloorDiv, ast.Pow))
               and not (isinstance(n.left, ast.Constant) and isinstance(n.left.value, str))]
        assert not ops, f"arithmetic in a page: {ops}"


def test_top_of_ui_holds_only_shared_modules():
    page_ids = {p.id for p in REGISTRY}
    for path in UI.iterdir():
        if path.name.startswith((".", "__")):
            continue
        if path.is_dir():
            if (path / "__init__.py").exists():
                assert path.name in page_ids | SHARED_PACKAGES, \
                    f"ui/{path.name}/: a package that is neither a page id nor shared"
            continue
        if path.suffix == ".py":
            assert f"ui.{path.stem}" in LAYERS, \
                f"ui/{path.name}: not a shared module (add it to a layer, or move it into its page's package)"


def test_shared_modules_are_shared():
    # A top-level module that a single page package uses belongs in that package.
    users: dict[str, set[str]] = {m: set() for m in LAYERS if m.count(".") == 1}
    for path in _ui_files() + ENTRY_POINTS:
        me = _module(path)
        user = _package(me) if me.startswith("ui.") else me
        for _node, names, _top in _imports(path):
            for name in names:
                target = _package(name)
                if target in users and target != user:
                    users[target].add(user)
    # The frame and the infrastructure under it serve every page through ui.frame.
    for module, who in users.items():
        if LAYERS[module] == 6 and module not in PENDING_SHARED:
            assert len(who) >= 2 or "ui.frame" in who, f"{module} is used only by {sorted(who)}"


def test_no_arrow_runs_back_up():
    wrong = []
    for path in _ui_files():
        me = _module(path)
        if me == "ui":
            continue
        mine = _layer(me)
        assert mine is not None, f"{me}: in no layer"
        for node, names, _top in _imports(path):
            for name in names:
                theirs = _layer(name)
                if theirs is None or _package(name) == _package(me):
                    continue
                if me.startswith("ui.figures.") and name.startswith("ui.figures"):
                    continue
                if theirs >= mine:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} ({me}, layer {mine}) "
                                 f"imports {name} (layer {theirs})")
    assert not wrong, "imports that do not run down:\n" + "\n".join(sorted(set(wrong)))


def test_imports_sit_at_the_top_of_the_module():
    local = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for path in _ui_files() + ENTRY_POINTS if path not in PENDING_FILES
             for node, _names, top in _imports(path) if not top]
    assert not local, f"imports inside functions (hoist them to the module top): {local}"


def test_one_roofline_package_with_a_module_per_section():
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


def _readme_layout() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Layout")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def _project_entries() -> set[str]:
    """Top-level names of the files git tracks or would track (ignored build output such as
    ``roofline_lab.egg-info/``, which ``pip install -e .`` writes, is not the project's)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {p.name for p in ROOT.iterdir()}
    return {line.split("/", 1)[0] for line in out.splitlines() if line}


def test_readme_layout_table_names_the_tree():
    layout = _readme_layout()
    skip = {"README.md", "pyproject.toml", "artifacts"}
    for path in ROOT.iterdir():
        if path.name.startswith(".") and path.name != ".ci" or path.name in skip:
            continue
        if path.name not in _project_entries():      # build output, venvs: what .gitignore ignores
            continue
        if path.name == ".ci":
            assert "`.ci/run`" in layout
            continue
        name = f"`{path.name}/`" if path.is_dir() else f"`{path.name}`"
        assert name in layout, f"README's Layout table does not name {name}"
    for path in UI.iterdir():
        if path.name.startswith((".", "__")) or not (path.suffix == ".py" or path.is_dir()):
            continue
        assert f"`{path.stem}`" in layout or f"`{path.stem}/`" in layout, \
            f"README's Layout table does not name ui/{path.name}"
    for p in REGISTRY:
        assert f"`{p.id}`" in layout, f"README's Layout table does not name the page package {p.id}"


# ---------------------------------------------------------------- no arithmetic in the UI
# Pages and their section packages lay out what calc/ computed: an arithmetic operator on
# two non-literal operands (a quantity times a quantity, a sum of bytes, 1 / bound ...) is
# a formula living in the UI.  Text is not arithmetic: "+" with a string or an f-string on
# either side (or a conditional whose branches are text) is concatenation.
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


_SEQUENCE_CALLS = ("list", "tuple", "set", "sorted", "frozenset")
#: A line that does arithmetic that is not a formula says so, with its reason, after this
#: marker (``elapsed = time.perf_counter() - start  # not a formula: wall clock``).
PRAGMA = "# not a formula:"


def _is_sequence(node) -> bool:
    """A list, tuple or set (display, comprehension, list(...)/sorted(...)/set(...)): + joins
    sequences, - takes a set from a set."""
    return isinstance(node, (ast.List, ast.Tuple, ast.ListComp, ast.Set, ast.SetComp)) or (
        isinstance(node, ast.Call) and getattr(node.func, "id", "") in _SEQUENCE_CALLS)


def _is_text(node) -> bool:
    if _is_sequence(node):
        return True                                   # concatenation, like text
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) or _is_text(node.orelse)
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("t", "str"):
        return True                                   # a translated string, str(...)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, str))


def _is_literal(node) -> bool:
    return isinstance(node, ast.Constant) or (isinstance(node, ast.UnaryOp)
                                              and isinstance(node.operand, ast.Constant))


def _is_small_int(node) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) <= 1


def _is_index(node) -> bool:
    """Counting and indexing, not a formula: ``i + 1``, ``len(rows) - 1``, ``n += 1``, a
    palette cycled by ``i % len(COLORS)``."""
    right = node.value if isinstance(node, ast.AugAssign) else node.right
    left = node.target if isinstance(node, ast.AugAssign) else node.left
    if isinstance(node.op, (ast.Add, ast.Sub)):
        return _is_small_int(right) or _is_small_int(left)
    if isinstance(node.op, ast.Mod):
        return any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "len"
                   for n in ast.walk(right))
    return False


def arithmetic_lines(path: Path) -> list[int]:
    """Lines of ``path`` with arithmetic on quantities (see above): neither text nor
    sequences joined, nor counting and indexing (also inside a slice), nor on a line marked
    with PRAGMA and its reason."""
    text = path.read_text(encoding="utf-8")
    marked = {i for i, line in enumerate(text.splitlines(), 1) if PRAGMA in line}
    tree = ast.parse(text)
    in_slice = {id(n) for s in ast.walk(tree) if isinstance(s, ast.Slice) for n in ast.walk(s)}
    out = []
    for node in ast.walk(tree):
        if id(node) in in_slice:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
            if not (_is_text(node.left) or _is_text(node.right) or _is_index(node)
                    or (_is_literal(node.left) and _is_literal(node.right))):
                out.append(node.lineno)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, _ARITH) \
                and not (_is_text(node.value) or _is_index(node)):
            out.append(node.lineno)
    return sorted(set(out) - marked)


# Every page's section package: its numbers come from calc's records (calc.inference and
# calc.placement for Decode and Model, calc.training* for MFU and Training, calc.parallel
# for Training layout, calc.serving for Serving, calc.views / calc.importers for the
# Roofline, calc.diagnosis for the Trace doctor, calc.lessons for Learn, calc.plans for
# Plans, measure.report for Measure): they lay the numbers out and compute none.  A line
# that must do arithmetic that is not a formula (a wall clock, an axis range) carries
# PRAGMA and its reason.
STRICT_PACKAGES = tuple(sorted(p.id for p in REGISTRY))
# Named whole-file exemptions, each with its reason (file: reason).
EXEMPT: dict[str, str] = {
    "ui/plans/svg.py": "draws the printable report's chart as SVG: pixel geometry (ticks, "
                       "axes, label positions), no quantity",
}


def test_arithmetic_checker_catches_a_formula_and_spares_text(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("a = b * c\nd = 1.0 / bound\ns = msg + ' ' + t('k')\nu = f'{x}' + y\n"
                 "n = 2 * 3\nz = p + (f'{q}' if q else '')\nk -= step\nl = list(a) + [b]\n",
                 encoding="utf-8")
    assert arithmetic_lines(f) == [1, 2, 7]
    # counting and indexing are not formulas; a marked line is spared; a formula next to
    # an index is still caught
    g = tmp_path / "y.py"
    g.write_text("a = rows[i + 1]\nb = xs[lo:hi + n]\nn += 1\nc = COLORS[i % len(COLORS)]\n"
                 f"d = time.time() - t0  {PRAGMA} wall clock\ne = {{'k': 2 * peak}}\n"
                 "f = t(prefix + key)\ng = sorted(a) + sorted(b)\nh = total - skipped\n",
                 encoding="utf-8")
    assert arithmetic_lines(g) == [6, 7, 9]          # 7: names joined may be numbers (write f"{a}{b}")


def test_every_page_package_is_checked():
    # a page added to the registry is checked too: its package exists under ui/
    for pkg in STRICT_PACKAGES:
        assert (UI / pkg).is_dir() and list((UI / pkg).glob("*.py")), pkg
    assert {"home", "learn", "roofline", "diagnosis", "plans", "measure"} <= set(STRICT_PACKAGES)


def test_record_driven_sections_do_no_arithmetic():
    files = [p for pkg in STRICT_PACKAGES for p in sorted((UI / pkg).glob("*.py"))]
    found = {}
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        lines = arithmetic_lines(path)
        if rel in EXEMPT:
            assert lines, f"{rel} is clean now: drop its exemption ({EXEMPT[rel]})"
        elif lines:
            found[rel] = lines
    assert not found, f"arithmetic in sections (move it into calc/): {found}"
