"""Issue 8, defect 9: after moving between pages, the address reproduces exactly what the
page shows.  Set 13B on 8 GPUs on MFU, follow the sidebar link to Training time: that
link (the new address) must carry 13B and 8 GPUs, so a fresh browser opening it shows the
same numbers as the session that navigated (not 7B on 64 GPUs)."""
from urllib.parse import parse_qsl

import pytest

from page_helpers import open_app_page

MFU, TRAINING, DECODE = "pages/2_MFU.py", "pages/3_Training_time.py", "pages/4_Decode_speed.py"


def link_params(at, page_name):
    for link in at.sidebar.get("page_link"):
        if link.proto.page == page_name:
            return dict(parse_qsl(link.proto.query_string))
    raise AssertionError(f"no sidebar link to {page_name}")


def follow(at, page, params):
    """What a click on a sidebar link does: the URL becomes the link's, then the page runs."""
    for key in list(at.query_params):
        del at.query_params[key]
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(page)
    at.run()
    assert not at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_link_to_training_carries_the_values_the_page_will_show(lang):
    at = open_app_page(MFU, lang)
    at.text_input(key="params").set_value("13B").run()
    at.text_input(key="gpus").set_value("8").run()
    params = link_params(at, "Training_time")
    assert params["params"] == "13B" and params["gpus"] == "8" and params["lang"] == lang
    # the navigating session
    here = follow(at, TRAINING, params)
    shown = [m.value for m in here.metric]
    assert here.text_input(key="params").value == "13B" and here.text_input(key="gpus").value == "8"
    # a fresh browser opening that address shows exactly the same
    fresh = open_app_page(TRAINING, lang, **{k: v for k, v in params.items() if k != "lang"})
    assert fresh.text_input(key="params").value == "13B" and fresh.text_input(key="gpus").value == "8"
    assert [m.value for m in fresh.metric] == shown
    # 6 x 13e9 x 1e12 / (8 x 312e12 x 0.45) = 6.944e7 s... = 803.7 days: not the 7B/64-GPU 54 days
    assert not any(v.startswith("54") for v in shown)


def test_values_survive_two_hops():
    at = open_app_page(MFU, "en")
    at.text_input(key="params").set_value("13B").run()
    at = follow(at, DECODE, link_params(at, "Decode_speed"))
    params = link_params(at, "Training_time")
    assert params["params"] == "13B"
    fresh = open_app_page(DECODE, "en", **{k: v for k, v in link_params(at, "Decode_speed").items()
                                           if k != "lang"})
    assert [m.value for m in fresh.metric] == [m.value for m in at.metric]


def test_first_run_of_a_shared_link_already_links_onwards():
    # a fresh session opened on MFU?params=70B: the links drawn in that very run carry 70B
    at = open_app_page(MFU, "en", params="70B")
    assert link_params(at, "Training_time")["params"] == "70B"
