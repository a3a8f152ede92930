"""The page registry: every page of the app, once. The navigation (ui.frame), the home
page's tool cards, the links between pages and the tests all read it.

Adding a page is one line here (plus its script in pages/, its package ui/<id>/, its
``nav.<id>`` title and ``home.tool.<id>`` caption in the catalogs, and its URL names in
ui.state.URL_NAMES).

The app stays in Streamlit's pages-directory mode: a page's URL path is derived from its
file name (``pages/3_Training_time.py`` opens at ``/Training_time``), so keeping the file
names keeps every old link working (tests/ui/test_url_names.py pins the paths).
"""
from __future__ import annotations

import re
from typing import NamedTuple


class Page(NamedTuple):
    """One page: its id (the ui/<id>/ package, the ``nav.<id>`` title key and the key of
    ui.state.URL_NAMES), its script relative to the repository root, its sidebar icon."""
    id: str
    file: str
    icon: str

    @property
    def url_path(self) -> str:
        """The path Streamlit serves the page at ("" for the home page, app.py)."""
        if not self.file.startswith("pages/"):
            return ""
        # Streamlit's rule (streamlit.source_util.page_icon_and_name): the file's stem
        # without its leading number and separator.
        stem = self.file.removeprefix("pages/").removesuffix(".py")
        return re.sub(r"^[0-9]*[_ -]*", "", stem, count=1)

    @property
    def title_key(self) -> str:
        return f"nav.{self.id}"


# The order is the navigation order.
PAGES: tuple[Page, ...] = (
    Page("home", "app.py", ":material/home:"),
    Page("learn", "pages/0_Learn.py", ":material/school:"),
    Page("roofline", "pages/1_Roofline.py", ":material/show_chart:"),
    Page("mfu", "pages/2_MFU.py", ":material/speed:"),
    Page("training", "pages/3_Training_time.py", ":material/schedule:"),
    Page("decode", "pages/4_Decode_speed.py", ":material/bolt:"),
    Page("model", "pages/5_Model.py", ":material/account_tree:"),
    Page("diagnosis", "pages/6_Trace_doctor.py", ":material/troubleshoot:"),
    Page("plans", "pages/7_Plans.py", ":material/compare:"),
    Page("measure", "pages/8_Measure.py", ":material/timer:"),
    Page("training_layout", "pages/9_Training_layout.py", ":material/view_timeline:"),
    Page("serving", "pages/10_Serving.py", ":material/dns:"),
)

_BY_ID = {p.id: p for p in PAGES}


def page(page_id: str) -> Page:
    """The registry entry of ``page_id`` (KeyError names an unknown id)."""
    return _BY_ID[page_id]


def page_file(page_id: str) -> str:
    """The script of ``page_id``, as st.page_link and st.switch_page take it."""
    return _BY_ID[page_id].file
