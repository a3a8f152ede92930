"""AppTest: the Serving page (pages/10_Serving.py), in English and Chinese.

Numbers checked against calc.serving (whose hand-derived tests are tests/calc/test_serving.py):
the page must show the same GPU count size_deployment gives for the same inputs, and the
count must follow the TPOT target (a tighter target never needs fewer GPUs)."""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.serving import size_deployment
from page_helpers import metric, open_app_page
from ui.i18n import CATALOGS

PAGE = "pages/10_Serving.py"


def gpus(at) -> int:
    """The "GPUs needed" headline, in the page's language."""
    return int(metric(at, "serving.metric.gpus").replace(",", ""))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_opens_with_the_answer_chart_table_and_simulator(lang):
    at = open_app_page(PAGE, lang, timeout=120, model="qwen3-32b")
    assert not at.exception and not at.error
    assert gpus(at) >= 1
    assert len(at.get("plotly_chart")) == 2          # frontier + TTFT/TPOT vs rate
    assert at.dataframe
    assert len(at.metric) == 4
    # every row with a layout has its cost: aggregated beside disaggregated, not only the better
    table = at.dataframe[0].value
    cost = CATALOGS[lang]["serving.col.cost"]
    gpus_col = CATALOGS[lang]["serving.col.gpus"]
    laid_out = table[table[gpus_col] != "—"]
    assert len(laid_out) >= 2 and (laid_out[cost] != "—").all(), laid_out[[gpus_col, cost]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_parameters_only_model_falls_back_with_a_note(lang):
    at = open_app_page(PAGE, lang, timeout=120, s_sim="false")
    assert at.info                                   # says which model it shows instead
    assert gpus(at) >= 1


def test_gpu_count_is_size_deployments_and_follows_the_tpot_target():
    m, d = load_models(), load_hardware()
    counts = {}
    for tpot in ("0.05", "0.01"):
        at = open_app_page(PAGE, "en", timeout=120, model="llama-3.1-70b", s_devices="h200-sxm",
                           s_prec="fp8", s_tpot=tpot, s_rate="20", s_sim="false")
        counts[tpot] = gpus(at)
        dep = size_deployment(m["llama-3.1-70b"], device=d["h200-sxm"], weights="fp8", kv_dtype="fp8",
                              isl=4000, osl=500, request_rate=20, ttft_target=1.0,
                              tpot_target=float(tpot))
        assert counts[tpot] == dep.best.gpus
    assert counts["0.01"] > counts["0.05"]


def test_bad_input_names_the_field_and_keeps_the_rest():
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_isl="lots", s_sim="false")
    assert any("Prompt tokens" in e.value for e in at.error)
    assert at.warning                                # "missing inputs": nothing computed from it


def test_share_link_names_round_trip():
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_devices="b200,h100-sxm",
                       s_prec="fp8", s_tp="4,8", s_tpot="0.02", s_sim="false")
    assert at.query_params["s_devices"] == "b200,h100-sxm"
    assert at.query_params["s_tpot"] == "0.02"
    ms = [w for w in at.multiselect]
    assert ms[0].value == ["b200", "h100-sxm"] and ms[2].value == [4, 8]
    # a value equal to its default is left out of the link
    at2 = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_sim="false")
    assert "s_tpot" not in at2.query_params and "s_devices" not in at2.query_params


def test_bound_is_never_below_the_estimate():
    est = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_sim="false")
    bnd = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_sim="false", s_eff="bound")
    assert gpus(bnd) <= gpus(est)


def test_add_to_plans_puts_the_best_aggregated_layout_in_the_plans_table():
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_sim="false", s_price="$1.30",
                       s_mode="aggregated")
    gpus_needed = gpus(at)
    button = next(b for b in at.button if b.label == "Add this setup to the plans")
    button.click().run()
    assert not at.exception
    assert any("Added" in s.value for s in at.success)
    at.switch_page("pages/7_Plans.py").run()
    assert not at.exception
    names = [str(v) for df in at.dataframe for v in df.value.iloc[:, 0]]
    added = [n for n in names if n.startswith("Qwen3 32B")]
    assert added, names
    # the name carries the replicas and tp: replicas × tp = the GPUs the Serving page needs
    import re
    n, tp = map(int, re.search(r"(\d+) × TP(\d+)", added[0]).groups())
    assert n * tp == gpus_needed


def test_typed_price_sets_the_cost_and_its_currency():
    # ¥10 per GPU-hour: the cost metric is written in CNY (calc.currency: symbol and code)
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_sim="false", s_price="¥10")
    assert metric(at, "serving.metric.cost").endswith("CNY")
    # a bare number: the currency chosen on the Plans page (EUR) earlier in the session
    at2 = open_app_page("pages/7_Plans.py", "en", timeout=120, currency="EUR")
    for key, value in dict(model="qwen3-32b", s_sim="false", s_price="10").items():
        at2.query_params[key] = value
    at2.switch_page(PAGE).run()
    assert not at2.exception
    assert metric(at2, "serving.metric.cost").endswith("EUR")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_estimate_quotes_the_network_constants_it_uses(lang):
    # the frontier caption names NVLink's efficiency and latency per ring step as
    # calc.parallel.network defines them (Calculon: 0.6, 1 µs), in either language; the old
    # flat "8 µs per all-reduce" is gone
    at = open_app_page(PAGE, lang, timeout=120, model="qwen3-32b")
    captions = " ".join(c.value for c in at.caption)
    assert "60%" in captions and "1 µs" in captions, captions
    assert "8 µs" not in captions


@pytest.mark.parametrize("lang, words", [("en", ("Not simulated", "Spread")), ("zh", ("未模拟", "离散程度"))])
def test_a_long_tail_request_that_cannot_fit_is_named_not_a_traceback(lang, words):
    # lognormal lengths with spread 2 around 20,000 prompt tokens draw requests far past one
    # H100's KV budget for Llama 3.1 8B in BF16 (the audit's repro): the page says so
    at = open_app_page(PAGE, lang, timeout=120, model="llama-3.1-8b", s_devices="h100-sxm",
                       s_prec="bf16", s_dist="lognormal", s_spread="2", s_isl="20000")
    assert not at.exception, at.exception
    assert any(all(w in x.value for w in words) for x in at.warning), [x.value for x in at.warning]
    assert gpus(at) >= 1                             # the sizing above it still stands


@pytest.mark.parametrize("lang, words", [("en", ("131,072", "Prompt tokens")), ("zh", ("131,072", "提示词长度"))])
def test_a_request_longer_than_the_context_is_refused_naming_the_fields(lang, words):
    # Llama 3.1 8B's context is 131,072 tokens (max_position_embeddings); 200,000 + 500 is more
    at = open_app_page(PAGE, lang, timeout=120, model="llama-3.1-8b", s_isl="200000", s_sim="false")
    assert not at.exception, at.exception
    assert any(all(w in e.value for w in words) for e in at.error), [e.value for e in at.error]
    assert not at.dataframe                          # nothing sized for a request no engine serves


def test_context_overflow_by_hand():
    from calc.serving import context_overflow
    arch = load_models()["llama-3.1-8b"]
    assert context_overflow(arch, 131_072 - 500, 500) is None          # exactly the context: fits
    assert context_overflow(arch, 131_072 - 499, 500) == 131_072


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model,own", [("qwen3-32b", False), ("deepseek-v3", True)])
def test_mtp_is_named_for_what_the_model_has(lang, model, own):
    # Qwen3 32B has no multi-token-prediction module (config.json: no num_nextn_predict_layers):
    # the option is a separately trained one-layer head, and the page says so; DeepSeek-V3 has one
    at = open_app_page(PAGE, lang, timeout=120, model=model, s_spec="true", s_spec_m="mtp",
                       s_sim="false", s_devices="h200-sxm", s_tp="8")
    assert not at.exception
    cat = CATALOGS[lang]
    (radio,) = [r for r in at.radio if r.label == cat["serving.spec_method"]]
    want = cat["serving.spec_method.mtp" if own else "serving.spec_method.head"]
    assert want in radio.options
    note = cat["serving.spec_head_note"].split("{model}")[1][:12]
    assert any(note in c.value for c in at.caption) == (not own)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unmeetable_target_is_named_with_the_fastest_any_candidate_reaches(lang):
    # TPOT <= 5 ms: Llama 3.1 405B FP8 on 8 x H100 reads 405 GB / 8 = 50.6 GB per GPU per token
    # at most 3.35 TB/s, 15 ms even at the bound; the message names the TPOT target and the floor
    from calc.serving import Workload, compare_candidates
    from calc.units import format_si
    m, d = load_models(), load_hardware()
    at = open_app_page(PAGE, lang, timeout=120, model="llama-3.1-405b", s_devices="h100-sxm",
                       s_prec="fp8", s_tpot="0.005", s_sim="false")
    assert not at.exception
    cat = CATALOGS[lang]
    (w,) = [w for w in at.warning if cat["serving.no_layout"][:20] in w.value]
    assert cat["serving.no_layout.tpot"].split("{target}")[0] in w.value
    assert cat["serving.no_layout.ttft"].split("{target}")[0] not in w.value
    comp = compare_candidates(m["llama-3.1-405b"], d, ["h100-sxm"], ["fp8"], "fp8", (1, 2, 4, 8),
                              Workload(isl=4000, osl=500), request_rate=20, ttft_target=1.0,
                              tpot_target=0.005)
    f = comp.fastest()
    assert f.tpot_seconds > 405e9 / 8 / 3.35e12 and f.tpot_candidate.tp == 8
    assert format_si(f.tpot_seconds, "s") in w.value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_simulator_says_when_it_is_not_the_answers_layout(lang):
    # Qwen3 32B at the defaults: the answer is disaggregated (fewer GPUs), the simulator runs
    # the best aggregated replica; the page says so
    at = open_app_page(PAGE, lang, timeout=120, model="qwen3-32b")
    assert not at.exception
    cat = CATALOGS[lang]
    assert metric(at, "serving.metric.gpus")
    head = cat["serving.sim_not_answer"].split("{mode}")[1][:15]
    assert any(head in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_simulator_runs_and_says_the_speculative_decoding(lang):
    # with speculative decoding on, the simulated replica verifies draft tokens too
    # (calc.serving.simulate, spec): the caption names γ and α; without it, no such caption
    cat = CATALOGS[lang]
    head = cat["serving.sim_spec"].split("{gamma}")[0][-12:]
    at = open_app_page(PAGE, lang, timeout=180, model="qwen3-32b", s_spec="true", s_spec_m="mtp",
                       s_devices="h200-sxm", s_tp="8")
    assert not at.exception
    assert len(at.get("plotly_chart")) == 2
    (cap,) = [c.value for c in at.caption if head in c.value]
    assert "γ = " in cap and "α = " in cap
    plain = open_app_page(PAGE, lang, timeout=180, model="qwen3-32b", s_devices="h200-sxm", s_tp="8")
    assert not any(head in c.value for c in plain.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_percentile_ttft_target_is_size_deployments_and_never_needs_fewer_gpus(lang):
    # Llama 3.1 70B FP8 on H200, 20 requests/s, TTFT <= 0.5 s: the same target held by the
    # mean, the median, the p90 and the p99 TTFT (the page's s_ttft_stat); the page shows
    # size_deployment's count for each, and the table's TTFT column says which it is
    m, d = load_models(), load_hardware()
    counts = {}
    for stat, q in (("mean", None), ("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
        at = open_app_page(PAGE, lang, timeout=120, model="llama-3.1-70b", s_devices="h200-sxm",
                           s_prec="fp8", s_ttft="0.5", s_rate="20", s_sim="false", s_ttft_stat=stat)
        counts[stat] = gpus(at)
        dep = size_deployment(m["llama-3.1-70b"], device=d["h200-sxm"], weights="fp8", kv_dtype="fp8",
                              isl=4000, osl=500, request_rate=20, ttft_target=0.5, tpot_target=0.05,
                              ttft_quantile=q)
        assert counts[stat] == dep.best.gpus
        col = CATALOGS[lang]["serving.col.ttft"].format(stat=CATALOGS[lang][f"serving.stat.{stat}"])
        assert col in at.dataframe[0].value.columns
    assert counts["mean"] <= counts["p90"] <= counts["p99"] and counts["mean"] < counts["p99"]
    assert counts["p50"] <= counts["p90"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replicas_near_capacity_point_to_the_simulator(lang):
    # Llama 3.1 8B FP8 on H100, 2,000 / 300 tokens, 23 requests/s, TPOT <= 50 ms: the
    # aggregated sizing runs its one replica above 0.9 of its capacity, where 5 % more traffic
    # overloads it (tests/calc/test_serving.py): the answer says so, with the load
    # size_deployment gives
    from calc.serving.plan import STEADY_STATE_LOAD_LIMIT
    from calc.units import format_percent
    params = dict(model="llama-3.1-8b", s_devices="h100-sxm", s_prec="fp8", s_isl="2000", s_osl="300",
                  s_tpot="0.05", s_mode="aggregated", s_sim="false")
    dep = size_deployment(load_models()["llama-3.1-8b"], device=load_hardware()["h100-sxm"], weights="fp8",
                          kv_dtype="fp8", isl=2000, osl=300, request_rate=23, ttft_target=1.0,
                          tpot_target=0.05, modes=("aggregated",))
    assert dep.aggregated.near_capacity
    at = open_app_page(PAGE, lang, timeout=120, s_rate="23", **params)
    assert not at.exception and not at.error
    assert gpus(at) == dep.aggregated.gpus
    want = CATALOGS[lang]["serving.near_capacity"].format(
        load=format_percent(dep.aggregated.load, 0), limit=format_percent(STEADY_STATE_LOAD_LIMIT, 0))
    assert want in [c.value for c in at.caption]
    # 20 requests/s on the same GPU is 0.8 of capacity: no such caption
    light = open_app_page(PAGE, lang, timeout=120, s_rate="20", **params)
    marker = CATALOGS[lang]["serving.near_capacity"].split("{load}")[0]
    assert not any(c.value.startswith(marker) for c in light.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_disaggregated_answer_names_its_busiest_pool_and_every_pool_says_its_load(lang):
    # Qwen3 32B FP8 on H100, 4,000 / 500 tokens, 20 requests/s, TTFT <= 1 s, TPOT <= 50 ms,
    # disaggregated only: the sizing runs its prefill pool above 0.9 of r_p (tests/calc:
    # each pool's load = rate / (instances · capacity)); the answer names that pool, the
    # table's layout cell gives every pool's load, and 80 % typed caps both pools and says so
    from calc.serving.plan import STEADY_STATE_LOAD_LIMIT
    from calc.units import format_percent
    from ui.serving.results import layout_text
    from ui.i18n import translator
    kw = dict(device=load_hardware()["h100-sxm"], weights="fp8", kv_dtype="fp8", isl=4000, osl=500,
              request_rate=20, ttft_target=1.0, tpot_target=0.05, modes=("disaggregated",))
    arch = load_models()["qwen3-32b"]
    d = size_deployment(arch, **kw).disaggregated
    assert d.near_capacity and d.busiest_pool.role == "prefill" and d.load > STEADY_STATE_LOAD_LIMIT
    params = dict(model="qwen3-32b", s_devices="h100-sxm", s_prec="fp8", s_mode="disaggregated", s_sim="false")
    at = open_app_page(PAGE, lang, timeout=120, **params)
    assert not at.exception and not at.error
    assert gpus(at) == d.gpus
    captions = [c.value for c in at.caption]
    assert CATALOGS[lang]["serving.near_capacity.prefill"].format(
        load=format_percent(d.load, 0), limit=format_percent(STEADY_STATE_LOAD_LIMIT, 0)) in captions
    cells = list(at.dataframe[0].value[CATALOGS[lang]["serving.col.layout"]])
    pre, dec = d.pools
    for pool in (pre, dec):
        assert any(format_percent(pool.load, 0) in c and f"{pool.instances} × TP{pool.tp}" in c for c in cells)
    assert layout_text(translator(lang), d) in cells
    # with 80 % typed: both pools at or below it, said under the answer, no near-capacity caption
    capped = size_deployment(arch, max_load=0.8, **kw).disaggregated
    at = open_app_page(PAGE, lang, timeout=120, s_max_load="80%", **params)
    assert gpus(at) == capped.gpus > d.gpus
    captions = [c.value for c in at.caption]
    pre, dec = capped.pools
    assert CATALOGS[lang]["serving.headroom_pools"].format(
        max_load="80%", prefill=format_percent(pre.load, 0), decode=format_percent(dec.load, 0)) in captions
    for role in ("prefill", "decode"):
        marker = CATALOGS[lang][f"serving.near_capacity.{role}"].split("{load}")[0]
        assert not any(c.startswith(marker) for c in captions)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_typed_headroom_is_size_deployments_and_said_under_the_answer(lang):
    # s_max_load = 80 % at the near-capacity case above (Llama 3.1 8B FP8 on H100, 23
    # requests/s): the page's GPU count is size_deployment's with max_load 0.8 (2, not 1),
    # the near-capacity caption is gone and the headroom caption says the replicas' load
    from calc.units import format_percent
    params = dict(model="llama-3.1-8b", s_devices="h100-sxm", s_prec="fp8", s_isl="2000", s_osl="300",
                  s_tpot="0.05", s_mode="aggregated", s_sim="false", s_rate="23")
    dep = size_deployment(load_models()["llama-3.1-8b"], device=load_hardware()["h100-sxm"], weights="fp8",
                          kv_dtype="fp8", isl=2000, osl=300, request_rate=23, ttft_target=1.0,
                          tpot_target=0.05, modes=("aggregated",), max_load=0.8)
    at = open_app_page(PAGE, lang, timeout=120, s_max_load="80%", **params)
    assert not at.exception and not at.error
    assert gpus(at) == dep.aggregated.gpus == 2
    captions = [c.value for c in at.caption]
    assert CATALOGS[lang]["serving.headroom"].format(
        max_load="80%", load=format_percent(dep.aggregated.load, 0)) in captions
    marker = CATALOGS[lang]["serving.near_capacity"].split("{load}")[0]
    assert not any(c.startswith(marker) for c in captions)
    assert at.query_params["s_max_load"] == "80%"
    # blank: no headroom caption; a share above 100 % names the field
    plain = open_app_page(PAGE, lang, timeout=120, **params)
    assert gpus(plain) == 1 and "s_max_load" not in plain.query_params
    head = CATALOGS[lang]["serving.headroom"].split("{max_load}")[0]
    assert not any(c.value.startswith(head) for c in plain.caption)
    bad = open_app_page(PAGE, lang, timeout=120, s_max_load="120%", **params)
    label = CATALOGS[lang]["serving.max_load"]
    assert any(label in e.value for e in bad.error), [e.value for e in bad.error]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_typed_step_overhead_is_size_deployments_and_said_under_the_chart(lang):
    # s_overhead (the stack's fixed cost per step) reaches the sizing: the page's GPU count
    # is size_deployment's with that Efficiency, more than without it at a 20 ms TPOT
    # target, and the frontier caption says the cost is included; blank leaves it out.
    from dataclasses import replace
    from calc.serving import published_efficiency
    m, d = load_models(), load_hardware()
    q = dict(model="llama-3.1-70b", s_devices="h200-sxm", s_prec="fp8", s_tpot="0.02", s_sim="false")
    plain = open_app_page(PAGE, lang, timeout=120, **q)
    slow = open_app_page(PAGE, lang, timeout=120, s_overhead="5 ms", **q)
    assert not slow.exception and not slow.error
    dep = size_deployment(m["llama-3.1-70b"], device=d["h200-sxm"], weights="fp8", kv_dtype="fp8",
                          isl=4000, osl=500, request_rate=20, ttft_target=1.0, tpot_target=0.02,
                          efficiency=replace(published_efficiency(), step_overhead=0.005))
    assert gpus(slow) == dep.best.gpus > gpus(plain)
    said = CATALOGS[lang]["serving.overhead_source"].format(overhead="5 ms")
    assert said in " ".join(c.value for c in slow.caption)
    assert said not in " ".join(c.value for c in plain.caption)
    assert slow.query_params["s_overhead"] == "5 ms" and "s_overhead" not in plain.query_params


def test_a_bad_step_overhead_names_the_field():
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_overhead="2 s", s_sim="false")
    assert any("Fixed cost per step" in e.value for e in at.error), [e.value for e in at.error]
    at = open_app_page(PAGE, "en", timeout=120, model="qwen3-32b", s_overhead="4 GB", s_sim="false")
    assert any("Fixed cost per step" in e.value for e in at.error), [e.value for e in at.error]
