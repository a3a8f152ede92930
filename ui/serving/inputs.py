"""The Serving page's inputs: the workload, the targets, the candidates (devices,
precisions, tensor-parallel sizes), the engine options, speculative decoding, and the price
and power for cost and energy.

URL names (README, "Share links"; a value equal to its default is left out):
``s_isl``, ``s_osl``, ``s_dist``, ``s_spread``, ``s_prefix``, ``s_rate``, ``s_ttft``,
``s_tpot``, ``s_devices``, ``s_prec``, ``s_kv``, ``s_tp``, ``s_mode``, ``s_budget``,
``s_eff``, ``s_overhead``, ``s_spec``, ``s_spec_m``, ``s_draft``, ``s_alpha``, ``s_gamma``, ``s_price``,
``s_kw``, ``s_sim``, ``s_ttft_stat``, ``s_max_load``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import streamlit as st

from calc.currency import CURRENCY_CODES, DEFAULT_CURRENCY
from calc.serving import DISTRIBUTIONS, SERVING_PRECISIONS, SpecDecode, Workload
from calc.units import QuantityError, format_si, parse_price
from ui.serving.how import network_terms
from ui import live
from ui.state import bound, kept, remember, say_ignored, url_changed, write_url
from ui.widgets import COUNT, FRACTION, Bounds, bound_checkbox, bound_select, percent_text, quantity_input

OVERHEAD_BOUNDS = Bounds(lo=0.0, hi=1.0, lo_open=False)
"""A step's fixed cost: 0 (none) up to 1 s (calc.serving.replica.Efficiency.step_overhead)."""

DEFAULT_DEVICES = ("h100-sxm", "h200-sxm")
DEFAULT_PRECISIONS = ("bf16", "fp8")
TP_OPTIONS = (1, 2, 4, 8)
DEFAULT_TPS = (1, 2, 4, 8)
TTFT_STATS = {"mean": None, "p50": 0.5, "p90": 0.9, "p99": 0.99}
"""What a TTFT target holds: the mean TTFT with queueing, or a percentile of it (the quantile)."""
TPOT_OPTIONS = (0.005, 0.0075, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2)
TTFT_OPTIONS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
PREFIX_OPTIONS = (0.0, 0.05, 0.1, 0.125, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
MODES = ("both", "aggregated", "disaggregated")
EFFICIENCIES = ("estimate", "bound")
KV_CHOICES = ("same", "bf16", "fp8")
SPEC_METHODS = ("mtp", "draft")
BUDGETS = (2048, 4096, 8192, 16384)


@dataclass(frozen=True)
class ServingInputs:
    """What the page computes for (SI units: tokens, requests/s, seconds, W)."""
    isl: Optional[float]
    osl: Optional[float]
    distribution: str
    spread: float
    prefix_hit: float
    rate: Optional[float]
    ttft_target: float
    tpot_target: float
    devices: tuple[str, ...]
    precisions: tuple[str, ...]
    kv: str
    tps: tuple[int, ...]
    mode: str
    token_budget: int
    efficiency: str
    spec: Optional[SpecDecode]
    spec_error: Optional[str]
    price: Optional[float]
    currency: Optional[str]
    all_in_watts: Optional[float]
    simulate: bool
    ttft_stat: str = "mean"           # what the TTFT target holds: "mean", "p50", "p90" or "p99" (TTFT_STATS)
    step_overhead: float = 0.0        # the stack's fixed cost per engine step [s] (blank: 0)
    max_load: float = 1.0             # the most of its capacity a sized replica may run at (blank: 1, none)

    @property
    def ok(self) -> bool:
        return (None not in (self.isl, self.osl, self.rate) and self.osl >= 2 and bool(self.devices)
                and bool(self.precisions) and bool(self.tps) and self.spec_error is None)

    @property
    def ttft_quantile(self):
        """None (the target holds the mean TTFT) or the quantile a percentile target holds (0.9)."""
        return TTFT_STATS[self.ttft_stat]

    @property
    def workload(self) -> Workload:
        """The prompt and answer lengths, their distribution and the prefix hit rate as the
        calc.serving record (call only when :attr:`ok`)."""
        return Workload(isl=self.isl, osl=self.osl, distribution=self.distribution, spread=self.spread,
                        prefix_hit=self.prefix_hit)

    @property
    def modes(self) -> tuple[str, ...]:
        return ("aggregated", "disaggregated") if self.mode == "both" else (self.mode,)


def _keep_choice(key: str) -> None:
    """on_change: keep the user's new choice before the rerun hands the widget its value."""
    remember(key, st.session_state[key])


def bound_multiselect(label: str, options: list[Any], key: str, default: tuple, *,
                      format_func=str, help: str | None = None, parse=str) -> list[Any]:
    """st.multiselect whose choice lives in the URL as comma-separated option ids
    (``s_devices=h100-sxm,h200-sxm``), left out when it equals ``default``; kept across
    pages.  Unknown ids in a link are dropped."""
    opts = list(options)
    from_url = url_changed(key)
    wanted = kept(key)
    ignored: list[str] = []
    if from_url is not None:
        vals = []
        for x in (x.strip() for x in from_url.split(",") if x.strip()):
            try:
                v = parse(x)
            except (TypeError, ValueError):
                v = None
            if v in opts:
                vals.append(v)
            else:
                ignored.append(x)
        wanted = vals if vals else wanted
    if wanted is None:
        wanted = [x for x in default if x in opts]
    st.session_state[key] = [x for x in wanted if x in opts]
    value = st.multiselect(label, opts, key=key, format_func=format_func, help=help,
                           on_change=live.on_change(_keep_choice), args=(key,))
    say_ignored(key, ignored, label)
    remember(key, list(value))
    same = list(value) == [x for x in default if x in opts]
    write_url(key, None if same else ",".join(str(x) for x in value))
    return list(value)


def bound_select_slider(label: str, options: list[Any], key: str, default: Any, *,
                        format_func=str, help: str | None = None, parse=float) -> Any:
    """st.select_slider whose option (not its label) lives in the URL (``s_tpot=0.05``),
    left out when it equals ``default``; kept across pages; an unknown value in a link is
    ignored."""
    opts = list(options)
    from_url = url_changed(key)
    wanted = kept(key)
    ignored = []
    if from_url is not None:
        try:
            v = parse(from_url)
        except (TypeError, ValueError):
            v = None
        wanted = v if v in opts else wanted
        ignored = [] if v in opts else [from_url]
    if wanted not in opts:
        wanted = default
    st.session_state[key] = wanted
    value = st.select_slider(label, options=opts, key=key, format_func=format_func, help=help,
                             on_change=live.on_change(_keep_choice), args=(key,))
    say_ignored(key, ignored, label)
    remember(key, value)
    write_url(key, None if value == default else f"{value:g}" if isinstance(value, float) else str(value))
    return value


# The four sliders are live fields (ui.live): moving one reruns it and the results only;
# each returns its ServingInputs field by name.
@live.field("serving", "prefix_hit")
def _prefix_slider(t) -> float:
    return float(bound_select_slider(t("serving.prefix"), list(PREFIX_OPTIONS), "s_prefix", 0.0,
                                     format_func=lambda f: percent_text(t, f, 1), help=t("serving.prefix_help")))


@live.field("serving", "ttft_target")
def _ttft_slider(t) -> float:
    return float(bound_select_slider(t("serving.ttft_target"), list(TTFT_OPTIONS), "s_ttft", 1.0,
                                     format_func=lambda s: format_si(s, "s"), help=t("serving.ttft_target_help")))


@live.field("serving", "tpot_target")
def _tpot_slider(t) -> float:
    return float(bound_select_slider(t("serving.tpot_target"), list(TPOT_OPTIONS), "s_tpot", 0.05,
                                     format_func=lambda s: format_si(s, "s"), help=t("serving.tpot_target_help")))


@live.field("serving", "token_budget")
def _budget_slider(t) -> int:
    return int(bound_select_slider(t("serving.budget"), list(BUDGETS), "s_budget", 8192,
                                   help=t("serving.budget_help"), parse=int))


def render_workload(t) -> dict:
    st.markdown(f"**{t('serving.workload_heading')}**")
    c1, c2 = st.columns(2)
    with c1:
        isl = quantity_input(t, t("serving.isl"), "s_isl", "4000", kind="count", bounds=COUNT,
                             help=t("serving.isl_help"))
    with c2:
        osl = quantity_input(t, t("serving.osl"), "s_osl", "500", kind="count",
                             bounds=Bounds(lo=2.0, lo_open=False, integer=True), help=t("serving.osl_help"))
    rate = quantity_input(t, t("serving.rate"), "s_rate", "20", kind="count", help=t("serving.rate_help"))
    prefix = _prefix_slider(t)
    dist = bound_select(t("serving.dist"), list(DISTRIBUTIONS), "s_dist",
                        format_func=lambda d: t(f"serving.dist.{d}"), help=t("serving.dist_help"))
    spread = 0.0
    if dist != "fixed":
        hi = 0.95 if dist == "uniform" else 2.0
        spread = quantity_input(t, t("serving.spread"), "s_spread", "0.5", kind="count",
                                bounds=Bounds(lo=0.0, hi=hi, lo_open=False),
                                help=t(f"serving.spread_help.{dist}"))
        spread = 0.0 if spread is None else spread
    return dict(isl=isl, osl=osl, rate=rate, prefix_hit=prefix, distribution=dist, spread=spread)


def render_targets(t) -> dict:
    st.markdown(f"**{t('serving.targets_heading')}**")
    ttft = _ttft_slider(t)
    stat = bound_select(t("serving.ttft_stat"), list(TTFT_STATS), "s_ttft_stat",
                        format_func=lambda s: t(f"serving.stat.{s}"), help=t("serving.ttft_stat_help"))
    tpot = _tpot_slider(t)
    max_load = quantity_input(t, t("serving.max_load"), "s_max_load", "", kind="fraction",
                              bounds=FRACTION, optional=True, help=t("serving.max_load_help"),
                              placeholder=t("serving.max_load_placeholder"))
    return dict(ttft_target=ttft, tpot_target=tpot, ttft_stat=stat,
                max_load=1.0 if max_load is None else float(max_load))


def render_candidates(t, devices) -> dict:
    st.markdown(f"**{t('serving.candidates_heading')}**")
    ids = [d for d, dev in devices.items() if getattr(dev, "memory_bytes", None)]
    devs = bound_multiselect(t("serving.devices"), ids, "s_devices", DEFAULT_DEVICES,
                             format_func=lambda d: devices[d].name_for(t.lang), help=t("serving.devices_help"))
    precs = bound_multiselect(t("serving.precisions"), list(SERVING_PRECISIONS), "s_prec",
                              DEFAULT_PRECISIONS, format_func=lambda p: p.upper(),
                              help=t("serving.precisions_help"))
    kv = bound_select(t("serving.kv"), list(KV_CHOICES), "s_kv",
                      format_func=lambda k: t("serving.kv.same") if k == "same" else k.upper(),
                      help=t("serving.kv_help"))
    tps = bound_multiselect(t("serving.tps"), list(TP_OPTIONS), "s_tp", DEFAULT_TPS,
                            help=t("serving.tps_help"), parse=int)
    return dict(devices=tuple(devs), precisions=tuple(precs), kv=kv, tps=tuple(int(x) for x in tps))


def render_engine(t, catalog, arch=None) -> dict:
    with st.expander(t("serving.engine_heading")):
        mode = bound(st.radio, t("serving.mode"), list(MODES), key="s_mode", index=0, horizontal=True,
                     format_func=lambda m: t(f"serving.mode.{m}"), help=t("serving.mode_help"),
                     is_valid=lambda v: v in MODES)
        budget = _budget_slider(t)
        eff = bound(st.radio, t("serving.eff"), list(EFFICIENCIES), key="s_eff", index=0, horizontal=True,
                    format_func=lambda e: t(f"serving.eff.{e}"), help=t("serving.eff_help", **network_terms()),
                    is_valid=lambda v: v in EFFICIENCIES)
        overhead = quantity_input(t, t("serving.overhead"), "s_overhead", "", unit="s", kind="time",
                                  bounds=OVERHEAD_BOUNDS, optional=True, help=t("serving.overhead_help"),
                                  placeholder=t("serving.overhead_placeholder"))
        sim = bound_checkbox(t("serving.sim"), "s_sim", value=True, help=t("serving.sim_help"))
    with st.expander(t("serving.spec_heading")):
        on = bound_checkbox(t("serving.spec"), "s_spec", value=False, help=t("serving.spec_help"))
        spec, err = None, None
        if on:
            # a model without MTP modules (config.json num_nextn_predict_layers) drafts with a
            # separately trained one-layer head (EAGLE-style): the same cost, its own name
            own = getattr(arch, "mtp_layers", 0) > 0
            label = {"mtp": t("serving.spec_method.mtp" if own else "serving.spec_method.head"),
                     "draft": t("serving.spec_method.draft")}
            method = bound(st.radio, t("serving.spec_method"), list(SPEC_METHODS), key="s_spec_m", index=0,
                           horizontal=True, format_func=label.get,
                           help=t("serving.spec_method_help"), is_valid=lambda v: v in SPEC_METHODS)
            if method == "mtp" and not own and arch is not None:
                st.caption(t("serving.spec_head_note", model=arch.name))
            draft = None
            if method == "draft":
                ids = list(catalog)
                default = ids.index("llama-3.1-8b") if "llama-3.1-8b" in ids else 0
                did = bound_select(t("serving.draft"), ids, "s_draft", index=default,
                                   format_func=lambda m: catalog[m].name, help=t("serving.draft_help"))
                draft = catalog[did]
            alpha = quantity_input(t, t("serving.alpha"), "s_alpha", "0.8", kind="count", bounds=FRACTION,
                                   help=t("serving.alpha_help"))
            gamma = quantity_input(t, t("serving.gamma"), "s_gamma", "4", kind="count", bounds=COUNT,
                                   help=t("serving.gamma_help"))
            if alpha is None or gamma is None:
                err = t("serving.spec_invalid")
            else:
                try:
                    spec = SpecDecode(method=method, alpha=float(alpha), gamma=int(gamma), draft=draft,
                                      alpha_source=t("serving.alpha_source"))
                except ValueError as exc:
                    err = str(exc)
                    st.error(err, icon=":material/warning:")
    with st.expander(t("serving.cost_heading")):
        price_text = bound(st.text_input, t("serving.price"), "", key="s_price", help=t("serving.price_help"),
                           placeholder=t("serving.price_placeholder"))
        price, code = None, None
        if str(price_text).strip():
            try:
                price, code = parse_price(price_text)
                # a bare number is in the currency chosen on the Training and Plans pages
                code = code or (kept("currency") if kept("currency") in CURRENCY_CODES else DEFAULT_CURRENCY)
            except (QuantityError, ValueError) as exc:
                st.error(t("common.err.field", label=t("serving.price"), message=str(exc)),
                         icon=":material/warning:")
        kw = quantity_input(t, t("serving.kw"), "s_kw", "", unit="W", optional=True,
                            help=t("serving.kw_help"), placeholder=t("serving.kw_placeholder"))
    return dict(mode=mode, token_budget=budget, efficiency=eff, step_overhead=float(overhead or 0.0),
                simulate=bool(sim), spec=spec,
                spec_error=err, price=price, currency=code, all_in_watts=kw)


def render_inputs(t, devices, catalog, arch=None) -> ServingInputs:
    """Draw every input (in the current container) and return them (``arch``: the model
    served, which names the speculative-decoding options)."""
    st.subheader(t("serving.inputs_heading"))
    values = {**render_workload(t), **render_targets(t), **render_candidates(t, devices),
              **render_engine(t, catalog, arch)}
    return live.record("serving", ServingInputs, values)
