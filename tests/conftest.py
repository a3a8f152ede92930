"""Two tiers of tests (README, "Tests").

- ``pytest``: everything (what CI runs, via .ci/run): browser tests, slow tests, and the
  query-string fuzzer at 1,000 query strings per page, on every core (pytest-xdist,
  pyproject's addopts; ``-n 0`` for one process).
- ``pytest --quick``: the working tier (about 3 minutes on a 2-core machine): leaves out
  the tests marked ``slow`` or ``browser``, fuzzes 40 query strings per page, and runs a
  tenth of the hypothesis examples (``ROOFLINE_LAB_QUICK=1``, read by
  tests/robustness/test_parsers.py; the fixture ``quick_tier`` for the rest), and runs each parametrized AppTest test of
  tests/pages and tests/robustness once, with its first parameter set (the full run has
  every set: both languages, every catalog model, every quiz). ``-m`` given with it wins; ``ROOFLINE_LAB_FUZZ_N``
  given with it wins.
"""
import os
from pathlib import Path

import pytest

QUICK_MARKS = "not slow and not browser"
QUICK_FUZZ_N = 40       # query strings per page in the quick tier (1,000 in the full run)
QUICK_ENV = "ROOFLINE_LAB_QUICK"
# Folders of AppTest tests (a second or more each): one parameter set per test when quick.
APPTEST_DIRS = {"pages", "robustness"}


def pytest_addoption(parser):
    parser.addoption("--quick", action="store_true", default=False,
                     help=f"the quick tier: -m '{QUICK_MARKS}' and {QUICK_FUZZ_N} fuzzed "
                          "query strings per page (the full run fuzzes 1,000)")


def pytest_configure(config):
    if config.getoption("quick"):
        if not config.option.markexpr:
            config.option.markexpr = QUICK_MARKS
        os.environ.setdefault("ROOFLINE_LAB_FUZZ_N", str(QUICK_FUZZ_N))
        os.environ[QUICK_ENV] = "1"


@pytest.fixture
def quick_tier() -> bool:
    """True under ``pytest --quick``: a test whose sweep is long takes fewer points then."""
    return os.environ.get(QUICK_ENV) == "1"


def pytest_itemcollected(item):
    """Browser tests share one process (one Streamlit server, one Chromium): under
    pytest-xdist's ``--dist loadgroup`` (pyproject addopts) they form the group "browser"
    and run one after another while the other processes take the rest."""
    if item.get_closest_marker("browser") is not None:
        item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.hookimpl(trylast=True)      # after -m has deselected: keep the first set that runs
def pytest_collection_modifyitems(config, items):
    if not config.getoption("quick"):
        return
    seen, keep, drop = set(), [], []
    for item in items:
        path = Path(str(item.fspath))
        if (path.parent.name in APPTEST_DIRS and hasattr(item, "callspec")
                and item.get_closest_marker("every_param") is None):
            key = (path, getattr(item, "originalname", item.name))
            if key in seen:
                drop.append(item)
                continue
            seen.add(key)
        keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
