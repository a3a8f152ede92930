"""The Model page with a catalog model (the shared suite opens it without one): every text
field fed hostile values, and random query strings over its URL names — a clear message,
no traceback, the chart and the inputs still there."""
from __future__ import annotations

import random

import pytest

from robust_helpers import exceptions, new_apptest, random_value
from test_inputs import FIELD_VALUES, _messages, _parses
from ui.state import URL_NAMES

PAGE = "pages/5_Model.py"
MODELS = ("llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "gemma-2-9b")


@pytest.mark.parametrize("phase", ["decode", "prefill"])
def test_model_page_fields_survive_hostile_values(phase):
    query = {"model": "mixtral-8x7b", "phase": phase}
    at = new_apptest(PAGE, query)
    at.run()
    assert not at.exception, exceptions(at)
    fields = [(w.key, w.value) for w in at.text_input if w.key in ("prompt", "context", "tp")]
    assert len(fields) == 2, fields                   # prompt or context, and tp
    n_inputs = len(at.text_input)
    problems = []
    for key, original in fields:
        for value in FIELD_VALUES:
            at.text_input(key=key).set_value(value[:200]).run()
            label = f"{phase}: {key}={value[:30]!r}"
            if at.exception:
                problems.append(f"{label}: {exceptions(at)[0][:300]}")
                at = new_apptest(PAGE, query)
                at.run()
                continue
            if len(at.text_input) < n_inputs:
                problems.append(f"{label}: inputs disappeared")
            if value.strip() and not _parses(value) and not _messages(at):
                problems.append(f"{label}: rejected text but no message")
        at.text_input(key=key).set_value(original).run()
        assert at.dataframe, f"{key}: the operator table did not come back"
    assert not problems, "\n".join(problems[:40])


def test_model_page_random_query_strings():
    # One AppTest arrives at the page 60 times, each time from a new link (the query string
    # set, then st.switch_page: every widget of the page is new, the sidebar re-reads the
    # URL), as tests/robustness/test_query.py does; a fresh one after a failure.
    rng = random.Random(20261201)
    names = list(URL_NAMES["common"]) + list(URL_NAMES["model"])
    failures = []
    at = new_apptest(PAGE)
    at.run()
    for i in range(60):
        q = {"model": MODELS[i % len(MODELS)]}
        for _ in range(rng.randint(1, 6)):
            q[rng.choice(names)] = random_value(rng)
        at.query_params.clear()
        for k, v in q.items():
            at.query_params[k] = v
        at.switch_page(PAGE)
        at.run()
        if at.exception or not at.title:
            failures.append(f"{q!r:.300}: {(exceptions(at) or ['no title'])[0][:300]}")
            at = new_apptest(PAGE)
            at.run()
    assert not failures, "\n".join(failures[:20])
