"""Two tiers of tests (README, "Tests").

- ``pytest``: everything (what CI runs, via .ci/run): browser tests, slow tests, and the
  query-string fuzzer at 1,000 query strings per page.
- ``pytest --quick``: the working tier (about 3 minutes on a 2-core machine): leaves out
  the tests marked ``slow`` or ``browser`` and fuzzes 100 query strings per page.
  ``-m`` given with it wins; ``ROOFLINE_LAB_FUZZ_N`` given with it wins.
"""
import os

QUICK_MARKS = "not slow and not browser"
QUICK_FUZZ_N = 100      # query strings per page in the quick tier (1,000 in the full run)


def pytest_addoption(parser):
    parser.addoption("--quick", action="store_true", default=False,
                     help=f"the quick tier: -m '{QUICK_MARKS}' and {QUICK_FUZZ_N} fuzzed "
                          "query strings per page (the full run fuzzes 1,000)")


def pytest_configure(config):
    if config.getoption("quick"):
        if not config.option.markexpr:
            config.option.markexpr = QUICK_MARKS
        os.environ.setdefault("ROOFLINE_LAB_FUZZ_N", str(QUICK_FUZZ_N))
