"""URL names are a public contract: shared links must keep working. Renaming one breaks
every link anybody pasted in a chat. Add names freely; never remove or rename."""
from pathlib import Path

from streamlit.source_util import page_icon_and_name

from ui.i18n import LANGS, translator
from ui.pages import PAGES
from ui.state import LEGACY_NAMES, SHARED_NAMES, URL_NAMES

# Pinned by hand from README.md ("Share links"). Extend when a page gains a name.
PINNED = {
    "common": {"lang", "device", "precision", "peak", "bw", "img", "model", "mcfg"},
    "roofline": {"roofs", "k", "compare", "l2_bw", "l1_bw", "hier", "top", "filter", "size_by",
                 "b_kind", "b_dtype", "b_m", "b_n", "b_k", "b_vm", "b_vn", "b_elems", "b_inputs",
                 "b_fpe", "b_rows", "b_cols", "b_batch", "b_heads", "b_seq", "b_hd", "b_flash",
                 "b_causal", "b_time"},
    "mfu": {"params", "tokens_per_s", "gpus", "peak_override", "attn", "layers", "hidden",
            "seq", "causal", "target_mfu"},
    "training": {"params", "tokens", "gpus", "mfu", "compare_mfu", "price", "deadline_days",
                 "logy", "currency"},
    "learn": {"quiz", "lesson"},
    "decode": {"params", "weights", "tp", "batch", "kv", "layers", "kv_heads", "head_dim",
               "context", "kv_dtype", "measured"},
    "model": {"phase", "batch", "prompt", "context", "weights", "act", "kv_dtype", "tp",
              "attn_impl", "overlay"},
    "diagnosis": {"small", "trace_gpu", "params", "tokens_step", "gpus", "recompute", "seq",
                  "causal"},
    "plans": {"plans", "currency"},
    "measure": {"m_quick", "m_gpu", "m_dev", "m_prec", "m_dtype", "m_gemm", "m_gemv", "m_add",
                "m_sum", "m_gemm_n", "m_gemv_m", "m_gemv_n", "m_add_n", "m_sum_n"},
}


def test_pinned_url_names_still_exist():
    for page, names in PINNED.items():
        missing = names - set(URL_NAMES[page])
        assert not missing, f"{page}: URL names removed or renamed: {sorted(missing)}"


# Old names still read (as the new name, once); a link never carries them (issue 19: the
# Decode page's tensor-parallel "gpus" is "tp", "gpus" is the cluster size elsewhere).
PINNED_LEGACY = {"decode": {"gpus": "tp"}}


def test_legacy_names_still_read_and_never_carried():
    for page, names in PINNED_LEGACY.items():
        for old, new in names.items():
            assert LEGACY_NAMES[page][old] == new
            assert old not in URL_NAMES[page] and new in URL_NAMES[page]


def test_shared_names_are_the_sidebar_ones():
    assert set(SHARED_NAMES) == PINNED["common"]


def test_names_are_short_and_url_safe():
    for names in URL_NAMES.values():
        for name in names:
            assert name.replace("_", "").isalnum() and name.islower() and len(name) <= 14, name


# Page paths are part of every link too (pages-directory mode serves a page at its file
# name without the number). Pinned by hand: moving or renaming a page's file breaks links.
PINNED_PATHS = {
    "home": "", "learn": "Learn", "roofline": "Roofline", "mfu": "MFU",
    "training": "Training_time", "decode": "Decode_speed", "model": "Model",
    "diagnosis": "Trace_doctor", "plans": "Plans", "measure": "Measure",
    "training_layout": "Training_layout", "serving": "Serving",
}


def test_pinned_page_paths_still_open():
    paths = {p.id: p.url_path for p in PAGES}
    for page_id, path in PINNED_PATHS.items():
        assert paths.get(page_id) == path, f"{page_id}: URL path {paths.get(page_id)!r}, pinned {path!r}"


def test_registry_paths_are_the_ones_streamlit_serves():
    # The registry derives a page's path from its file name; Streamlit's own rule
    # (streamlit.source_util.page_icon_and_name) must give the same name.
    for p in PAGES:
        if p.id != "home":
            assert page_icon_and_name(Path(p.file))[1] == p.url_path, p


def test_every_page_has_url_names_and_a_title():
    for p in PAGES:
        assert p.id == "home" or p.id in URL_NAMES, f"{p.id}: no URL_NAMES entry in ui/state.py"
        for lang in LANGS:     # a missing key raises KeyError, naming it
            assert translator(lang)(p.title_key).strip(), (p.id, lang)
            if p.id != "home":  # the home page's card for the page
                assert translator(lang)(f"home.tool.{p.id}").strip(), (p.id, lang)
