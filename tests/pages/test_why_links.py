"""Each page's key results link to the Learn lesson that explains them ("Why? → the ridge
point"), and a link opens that lesson."""
import pytest

from page_helpers import open_app_page

# page -> the lessons its results link to (lesson n = the chapter's checkpoint n)
LINKS = {
    "app.py": {1, 2},                      # ridge and the intensity-2 ceiling
    "pages/1_Roofline.py": {1, 2},         # the chart's ridge; each kernel's ceiling
    "pages/2_MFU.py": {3, 4, 5, 6, 7},     # MFU, 6N/attention, bands, first experiment, trace
    "pages/3_Training_time.py": {4},       # 6·N·D
    "pages/4_Decode_speed.py": {8},        # bandwidth ÷ model bytes
}


def _why_links(at):
    out = {}
    for el in at.main.get("page_link"):
        q = el.proto.query_string
        if "lesson=" in q and el.proto.page == "Learn":       # pages/0_Learn.py's URL path
            out[int(q.split("lesson=")[1].split("&")[0])] = el.proto
    return out


@pytest.mark.parametrize("page", sorted(LINKS))
def test_key_results_link_to_their_lesson(page):
    at = open_app_page(page, "zh", device="h100-sxm")
    links = _why_links(at)
    assert set(links) == LINKS[page], (page, sorted(links))
    for n, proto in links.items():
        assert "为什么？→" in proto.label and "device=h100-sxm" in proto.query_string
        assert "lang=zh" in proto.query_string


def test_a_why_link_opens_its_lesson():
    at = open_app_page("pages/0_Learn.py", "en", lesson="5", quiz="3")
    assert any("Checkpoint 5" in h.value for h in at.subheader)
