"""Shared pieces of the robustness suite: hostile values, page list, AppTest helpers."""
from __future__ import annotations

import os
import random
from pathlib import Path

from ui.pages import PAGES as REGISTRY

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")

# (page id, script path relative to app.py), from the page registry; home is app.py itself.
PAGES: tuple[tuple[str, str], ...] = tuple((p.id, p.file) for p in REGISTRY)

HOSTILE: tuple[str, ...] = (
    "0", "-1", "-7B", "NaN", "nan", "inf", "-inf", "Infinity", "1e308", "1e309", "",
    "   ", "hello", "9**9**9", "__import__('os')", "__import__('os').system('id')",
    "x" * 10_000, "1" * 10_000,
    "٣١٢", "３１２Ｔ", "१२३", "½", "²", "1e-320", "0x1F", "1_000", "()", "**", "1/0",
    "<script>alert(1)</script>", "'; DROP TABLE kernels; --", "\x00", "\u202e12",
    "💥", "%00", "../../etc/passwd", "{{7*7}}", "${7*7}",
)

# Hostile values plus random unicode and random ASCII, for the query-string fuzzer.
def random_value(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        return rng.choice(HOSTILE)
    if r < 0.65:
        n = rng.randint(0, 30)
        return "".join(chr(rng.randint(0x20, 0x7E)) for _ in range(n))
    if r < 0.85:
        n = rng.randint(1, 20)
        # anywhere in the BMP except surrogates
        out = []
        for _ in range(n):
            c = rng.randint(0x20, 0xFFFD)
            if 0xD800 <= c <= 0xDFFF:
                c = 0x4E2D
            out.append(chr(c))
        return "".join(out)
    # plausible but out-of-range numbers
    return rng.choice(["1", "2", "8", "1e3", "7B", "312T", "2 TB/s", "45%", "101%", "-0",
                       "1e100", "1e-100", "3.5", "0.5", "1024", "2049", "true", "false",
                       "en", "zh", "h100-sxm", "bf16", "fp8", "custom", "png", "svg"])


def fuzz_count() -> int:
    """Query strings per page: 1,000 (the issue's minimum) in the full run, 100 in the quick
    tier (tests/conftest.py sets ROOFLINE_LAB_FUZZ_N for `pytest --quick`)."""
    return int(os.environ.get("ROOFLINE_LAB_FUZZ_N", "1000"))


def new_apptest(page_path: str, query: dict[str, str] | None = None, timeout: float = 60):
    """A fresh AppTest opened directly on `page_path` (one script run when run)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=timeout)
    if page_path != "app.py":
        at.switch_page(page_path)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at


def exceptions(at) -> list[str]:
    return [e.value if hasattr(e, "value") else str(e) for e in at.exception]


def page_intact(at) -> bool:
    """The page drew its title (the frame and the page body ran to the end or to a message)."""
    return len(at.title) >= 1 or len(at.markdown) >= 1
