"""Navigation links carry what the session keeps for the target page (ui.state.nav_query_params);
the sidebar asks for all pages at once (nav_query_params_for) and must get the same links."""
from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from ui.pages import PAGES
    from ui.state import nav_query_params, nav_query_params_for, remember

    st.session_state["device"] = "h100-sxm"
    remember("tokens_per_s", "12k")       # an MFU field
    remember("batch", 32)                  # a Decode field
    remember("gpus", 64)                   # MFU and Training both have one
    together = nav_query_params_for([p.id for p in PAGES] + [None])
    st.session_state["together"] = together
    st.session_state["alone"] = {p: nav_query_params(p) for p in together}


def test_links_for_all_pages_at_once_equal_one_by_one():
    at = AppTest.from_function(_script)
    at.run()
    assert not at.exception
    together, alone = at.session_state["together"], at.session_state["alone"]
    assert together == alone
    # the shared device on every link; each page's own fields only on its link
    assert all(v.get("device") == "h100-sxm" for v in together.values())
    assert together["mfu"]["tokens_per_s"] == "12k" and together["mfu"]["gpus"] == "64"
    assert "batch" not in together["mfu"] and together["decode"]["batch"] == "32"
    assert "tokens_per_s" not in together["decode"]
    assert set(together[None]) == {"device"}          # None: the shared names only
