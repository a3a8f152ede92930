"""Every input on every page carries help text (units, accepted syntax, what it does)."""
import pytest

from page_helpers import open_app_page
from ui.pages import PAGES as REGISTRY

PAGES = [p.file for p in REGISTRY]          # every page of the registry
KINDS = ["text_input", "number_input", "selectbox", "slider", "select_slider", "checkbox",
         "radio", "multiselect", "toggle"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", PAGES)
def test_every_input_has_help(page, lang):
    at = open_app_page(page, lang)
    missing = []
    for kind in KINDS:
        for widget in getattr(at, kind):
            # The log slider under a quantity field is the field's companion, not an input
            # of its own: it is labelled (collapsed) after its field and shares its help.
            if str(widget.key or "").endswith("__slider"):
                continue
            if not (widget.proto.help or "").strip():
                missing.append(f"{kind} {widget.key!r} ({widget.label[:40]!r})")
    assert not missing, f"{page} [{lang}]: inputs without help: {missing}"
