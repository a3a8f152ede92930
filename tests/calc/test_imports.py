import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_import_calc_is_light():
    out = _run(
        "import sys, calc\n"
        "print(sorted(m for m in ('numpy', 'streamlit', 'plotly', 'pandas') if m in sys.modules))"
    )
    assert out.strip() == "[]"


def test_units_and_hardware_do_not_need_numpy():
    out = _run(
        "import sys\n"
        "from calc.units import parse_quantity\nfrom calc.hardware import load_hardware\n"
        "parse_quantity('2 TB/s'); load_hardware()\n"
        "print('numpy' in sys.modules)"
    )
    assert out.strip() == "False"


def test_lazy_submodule_attributes():
    out = _run("import calc\nprint(calc.roofline.ridge_point(312e12, 2e12), calc.mfu.mfu(7e9, 12000, 8, 312e12) > 0.2)")
    assert out.split() == ["156.0", "True"]


def test_calc_submodules_never_import_ui_libraries():
    names = [m.name for m in pkgutil.iter_modules([str(ROOT / "calc")])]
    mine = [n for n in ("roofline", "mfu", "training", "decode", "kernels", "units", "hardware", "_validate")
            if n in names]
    code = (
        "import sys, importlib\n"
        f"for n in {mine!r}: importlib.import_module('calc.' + n)\n"
        "print(sorted(m for m in ('streamlit', 'plotly', 'pandas') if m in sys.modules))"
    )
    assert _run(code).strip() == "[]"


def test_every_public_function_has_a_docstring():
    for name in ("roofline", "mfu", "training", "decode", "kernels", "units", "hardware"):
        mod = importlib.import_module(f"calc.{name}")
        for attr in mod.__all__:
            obj = getattr(mod, attr)
            if callable(obj) and not isinstance(obj, type):
                assert obj.__doc__ and len(obj.__doc__) > 40, f"calc.{name}.{attr}"
