"""Every input on every page carries help text (units, accepted syntax, what it does)."""
import pytest

from page_helpers import open_app_page

PAGES = ["app.py", "pages/0_Learn.py", "pages/1_Roofline.py", "pages/2_MFU.py",
         "pages/3_Training_time.py", "pages/4_Decode_speed.py", "pages/7_Plans.py",
         "pages/8_Measure.py"]
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
