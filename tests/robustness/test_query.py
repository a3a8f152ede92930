"""Hostile and random query strings: at least 1,000 per page through AppTest (seeded),
no exception, and garbage falls back to the defaults.

Speed: a fresh AppTest per query string costs ~0.3-0.4 s here (2 cores) — 5,000 would take
half an hour. So one AppTest per page opens it again and again (st.switch_page) with a new
query string, which is how a user arrives from a link (the sidebar's option widgets
re-read the URL every run). That is ~0.04-0.15 s per query string; one test per page, so
pytest-xdist spreads the pages over the cores. ROOFLINE_LAB_FUZZ_N sets the count per page
(default 1,000, the issue's minimum; the quick tier, `pytest --quick`, sets 100).
"""
from __future__ import annotations

import random
import time

import pytest

from robust_helpers import PAGES, exceptions, fuzz_count, new_apptest, page_intact, random_value
from ui.state import URL_NAMES

ALL_NAMES = sorted({n for names in URL_NAMES.values() for n in names})
RANDOM_NAMES = ("", " ", "lang ", "LANG", "device[]", "__proto__", "constructor", "k2",
                "<script>", "页面", "a" * 300, "embed", "embed_options", "x" * 10)


def random_query(rng: random.Random, page_id: str) -> dict[str, str]:
    own = URL_NAMES.get(page_id, ())
    names = list(URL_NAMES["common"]) + list(own)
    q: dict[str, str] = {}
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.7:
            name = rng.choice(names)
        elif r < 0.85:
            name = rng.choice(ALL_NAMES)
        else:
            name = rng.choice(RANDOM_NAMES)
        q[name] = random_value(rng)
    return q


@pytest.mark.every_param          # the quick tier fuzzes every page too (tests/conftest.py)
@pytest.mark.timeout(600)
@pytest.mark.parametrize("page_id,path", PAGES, ids=[p for p, _ in PAGES])
def test_random_query_strings_never_crash(page_id, path, capsys):
    n = fuzz_count()
    rng = random.Random(f"20240604-{page_id}")
    at = new_apptest("app.py")
    at.run()
    failures: list[str] = []
    done = {page_id: 0}
    t0 = time.perf_counter()
    for _ in range(n):
        q = random_query(rng, page_id)
        at.query_params.clear()
        for k, v in q.items():
            at.query_params[k] = v
        at.switch_page(path)
        try:
            at.run()
        except Exception as exc:  # noqa: BLE001 - AppTest itself failing (timeout) is a failure too
            failures.append(f"{page_id} {q!r:.300}: {type(exc).__name__}: {exc}")
            at = new_apptest("app.py")
            at.run()
            continue
        done[page_id] += 1
        if at.exception or not page_intact(at):
            failures.append(f"{page_id} {q!r:.300}: {(exceptions(at) or ['no title'])[0][:400]}")
            at = new_apptest("app.py")
            at.run()
        if len(failures) >= 20:
            break
    elapsed = time.perf_counter() - t0
    with capsys.disabled():
        print(f"\n[query fuzz] {sum(done.values())} query strings ({done}) in {elapsed:.1f} s, "
              f"{1000 * elapsed / max(1, sum(done.values())):.0f} ms each")
    assert not failures, "\n".join(failures)


def _sidebar_select(at, key):
    return at.selectbox(key=key).value


@pytest.mark.parametrize("page_id,path", PAGES, ids=[p for p, _ in PAGES])
def test_garbage_shared_params_fall_back_to_defaults(page_id, path):
    default = new_apptest(path)
    default.run()
    assert not default.exception, exceptions(default)
    at = new_apptest(path, {"lang": "klingon", "device": "<script>", "precision": "fp128",
                            "img": "gif", "peak": "9**9**9", "bw": "nan"})
    at.run()
    assert not at.exception, exceptions(at)
    assert _sidebar_select(at, "lang") == "en"
    assert _sidebar_select(at, "device") == _sidebar_select(default, "device")
    assert _sidebar_select(at, "precision") == _sidebar_select(default, "precision")
    assert [t.value for t in at.title] == [t.value for t in default.title]
    assert [m.value for m in at.metric] == [m.value for m in default.metric]
    # the garbage was dropped from the URL
    for name in ("lang", "device", "precision"):
        assert at.query_params.get(name) in (None, [], ""), (name, at.query_params.get(name))
