"""AppTest: the Training layout page (pages/9_Training_layout.py).

Hand checks: Llama 3.1 70B on 64 × H100 (80 GiB), seq 4096, global batch 1024 sequences,
selective recompute, ZeRO-1, 1F1B: the table lists only layouts that fit; the chosen (first)
layout is the fastest; every number the page shows is the calc.parallel record's.
"""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.parallel import search_layouts
from calc.units import format_percent, format_si
from page_helpers import open_app_page

PAGE = "pages/9_Training_layout.py"
RUN = dict(model="llama-3.1-70b", device="h100-sxm", gpus="64", seq="4096", gbatch="1024")


def _search(**kw):
    hw, models = load_hardware(), load_models()
    return search_layouts(models["llama-3.1-70b"], device=hw["h100-sxm"], gpus=64,
                          seq_len=kw.pop("seq_len", 4096), global_batch=kw.pop("global_batch", 1024),
                          precision="bf16", **kw)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_shows_the_fastest_layout_in_both_languages(lang):
    at = open_app_page(PAGE, lang, timeout=120, **RUN)
    assert not at.exception and not at.error
    best = _search()[0]
    values = [m.value for m in at.metric]
    assert values[0] == format_si(best.step_seconds, "s")
    assert values[1] == format_percent(best.mfu)
    assert at.selectbox(key="layout").value == "fastest"    # the fastest, whichever it is
    label = f"tp {best.tp} · pp {best.pp} · dp {best.dp} · ep 1 · cp 1"
    assert label in at.selectbox(key="layout").format_func("fastest")
    assert len(at.dataframe) == 1 and len(at.dataframe[0].value) == len(_search())
    assert at.get("plotly_chart")                   # step bar, memory bar (and the Gantt)
    assert any("Calculon" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_network_source_is_in_the_page_language(lang):
    # hardware.toml's network_source / network_source_zh of the H100: the DGX H100's 8 ×
    # 400 Gb/s NICs; a typed network cites the typed figures, in the page's language
    dev = load_hardware()["h100-sxm"]
    at = open_app_page(PAGE, lang, timeout=120, **RUN)
    caption = next(c.value for c in at.caption if "Calculon" in c.value)
    if lang == "zh":
        assert caption.endswith(dev.network_source_zh) and "规格书" in caption
        assert dev.network_source not in caption
    else:
        assert caption.endswith(dev.network_source) and "datasheet" in caption
    at = open_app_page(PAGE, lang, timeout=120, net="custom", **RUN)
    caption = next(c.value for c in at.caption if "Calculon" in c.value)
    assert caption.endswith({"en": "the figures typed above.", "zh": "上面输入的数值。"}[lang])


def test_a_new_visitor_opens_on_a_catalog_model():
    # no model in the URL, none picked: the page opens on Llama 2 7B (as the Model page),
    # selected in the sidebar, with a note saying so; the layouts are searched for it
    at = open_app_page(PAGE, "en", timeout=120)
    assert not at.exception
    assert at.selectbox(key="model").value == "llama-2-7b"
    assert any("Llama 2 7B" in c.value for c in at.caption) and at.dataframe


def test_custom_model_asks_for_an_architecture():
    at = open_app_page(PAGE, "en", timeout=120)
    at.selectbox(key="model").select("custom").run()      # chosen in the sidebar
    assert at.info and not at.dataframe
    at.button[0].click().run()                      # "Use Llama 2 7B"
    assert not at.exception
    assert at.dataframe


def test_rejected_layouts_show_their_reasons():
    at = open_app_page(PAGE, "en", timeout=120, rejected="true", **RUN)
    assert len(at.dataframe) == 2
    reasons = at.dataframe[1].value["Why rejected"].tolist()
    assert any("crosses the 8-GPU scale-up domain" in r for r in reasons)
    assert any(r.startswith("needs ") and "usable of" in r for r in reasons)


def test_share_link_reproduces_a_pinned_layout_and_schedule():
    found = _search(schedule="interleaved", interleave=2)
    second = found[1]
    lid = f"t{second.tp}-p{second.pp}-d{second.dp}-e1-c1-b{second.micro_batch}"
    at = open_app_page(PAGE, "en", timeout=120, interleave="2", layout=lid, **RUN)
    assert not at.exception and not at.error
    assert at.selectbox(key="layout").value == lid
    assert at.metric[0].value == format_si(second.step_seconds, "s")


def test_global_batch_in_tokens():
    # 4,194,304 tokens / 4096 per sequence = 1024 sequences: the same search as above
    at = open_app_page(PAGE, "en", timeout=120, gbatch_unit="tokens",
                       **{**RUN, "gbatch": "4194304"})
    assert any("1,024 sequences" in c.value for c in at.caption)
    assert at.metric[0].value == format_si(_search()[0].step_seconds, "s")


def test_device_without_network_asks_for_one():
    at = open_app_page(PAGE, "en", timeout=120, **{**RUN, "device": "l40s", "model": "llama-2-7b",
                                                   "gpus": "8", "gbatch": "64"})
    assert not at.exception
    assert any("gives no network" in i.value for i in at.info)
    assert at.text_input(key="net_up").value == "450 GB/s"


def test_bad_input_names_the_field():
    at = open_app_page(PAGE, "en", timeout=120, **{**RUN, "gpus": "many"})
    assert any("GPUs (the cluster)" in e.value for e in at.error)
    assert not at.metric


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_use_this_layout_feeds_the_training_page(lang):
    from urllib.parse import parse_qsl
    from ui.i18n import translator

    best = _search(global_batch=1024)[0]
    at = open_app_page(PAGE, lang, timeout=120, **RUN)
    link = next(p for p in at.get("page_link") if p.proto.label == translator(lang)("training_layout.use"))
    params = dict(parse_qsl(link.proto.query_string))
    assert params["mfu"] == f"{best.mfu * 100:.4g}%" and params["gpus"] == "64"
    assert params["tp"] == str(best.tp) and params["pp"] == str(best.pp)
    assert link.proto.page.endswith("Training_time")
    # follow the link in the same session (AppTest cannot click a page link)
    at.query_params.clear()
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("pages/3_Training_time.py")
    at.run()
    assert not at.exception, at.exception
    # the Training time page: its MFU field holds the predicted MFU, the cluster and the
    # layout's memory settings came along, and the prediction is labelled as such
    assert at.text_input(key="mfu").value == f"{best.mfu * 100:.4g}%"
    assert at.text_input(key="gpus").value == "64"
    assert at.text_input(key="tp").value == str(best.tp)
    assert at.text_input(key="pp").value == str(best.pp)
    word = "Predicted" if lang == "en" else "预测值"
    assert any(word in c.value and format_percent(best.mfu) in c.value for c in at.caption)


@pytest.mark.parametrize("lang, named", [("en", "MFU {} predicted"), ("zh", "预测 MFU {}")])
def test_add_this_layout_to_the_plans(lang, named):
    best = _search()[0]
    at = open_app_page(PAGE, lang, timeout=120, **RUN)
    at.button(key="pl_add_training_layout").click().run()
    assert not at.exception, at.exception
    added = at.session_state["plans.table"].plans[-1]       # ui.plans.state.TABLE_KEY
    # the plan's name says the MFU is predicted, in the page's language
    assert added.name.endswith(named.format(f"{best.mfu:.1%}")), added.name
    assert any(added.name in s.value for s in at.success)       # "Added “…”": the message names it
    assert added.mfu == pytest.approx(best.mfu)
    assert (added.tp, added.pp, added.n_gpus, added.seq_len) == (best.tp, best.pp, 64, 4096)


def test_attention_dropout_is_asked_only_without_flash_attention():
    # FlashAttention on: no dropout checkbox (a fused kernel drops in registers). Off: the
    # checkbox appears, and ticking it shows the step of search_layouts(attention_dropout=True)
    at = open_app_page(PAGE, "en", timeout=120, **RUN)
    assert not any(c.key == "dropout" for c in at.checkbox)
    at = open_app_page(PAGE, "en", timeout=120, flash="false", **RUN)
    assert not at.exception
    plain = _search(flash_attention=False)[0]
    assert at.metric[0].value == format_si(plain.step_seconds, "s")
    at.checkbox(key="dropout").check().run()
    assert not at.exception
    dropped = _search(flash_attention=False, attention_dropout=True)[0]
    assert format_si(dropped.step_seconds, "s") != format_si(plain.step_seconds, "s")
    assert at.metric[0].value == format_si(dropped.step_seconds, "s")


def test_the_fastest_follows_the_inputs_a_picked_layout_stays():
    """Not chosen by name, the inspected layout is the fastest of whatever the inputs now
    give, and the URL pins none; a layout picked by name stays (in the URL) while it fits.
    (seq 4096 → 2048 moves the fastest from tp 4 · pp 4 to another, and the old one still
    fits: a kept choice would have stayed on it.)"""
    at = open_app_page(PAGE, "en", timeout=120, **RUN)
    before = _search()[0]
    at.text_input(key="seq").set_value("2048").run(timeout=120)
    found = _search(seq_len=2048)
    best = found[0]
    assert (best.tp, best.pp) != (before.tp, before.pp)          # the inputs did move it
    assert any((r.tp, r.pp, r.dp, r.micro_batch) == (before.tp, before.pp, before.dp, before.micro_batch)
               for r in found)                                     # and the old one still fits
    assert at.metric[0].value == format_si(best.step_seconds, "s")
    assert "layout" not in at.query_params
    second = found[1]
    lid = f"t{second.tp}-p{second.pp}-d{second.dp}-e1-c1-b{second.micro_batch}"
    at.selectbox(key="layout").set_value(lid).run(timeout=120)
    assert at.query_params["layout"] in (lid, [lid])
    at.run(timeout=120)
    assert at.selectbox(key="layout").value == lid
    assert at.metric[0].value == format_si(second.step_seconds, "s")
