"""The plan editor: choose a row, edit its inputs, save, duplicate, delete, mark it as the
baseline, or add a new training / serving plan.

The inputs are plain widgets (keys ``pl_e_<field>``), loaded from the selected plan
whenever another plan is selected or the table changed underneath them; "Save changes"
reads them in a callback (before the page is drawn again), so the tables above always
show the saved table.  Text fields read quantities like the other pages ("7B", "1T",
"45%", "2 TB/s"); a field that cannot be read shows why under it and blocks the save.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional

import streamlit as st

from calc.models import param_counts
from calc.plans import (KV_PRECISIONS, MAX_PLANS, RECOMPUTE, SERVING, TRAINING,
                        WEIGHT_PRECISIONS, Plan, auto_name, default_plans,
                        precision_differs)
from calc.published import decode_efficiency_range, device_family, hfu_runs, mfu_range
from calc.units import QuantityError, format_percent, format_si, parse_price, parse_quantity
from ui.i18n import Translator
from ui.model_sections import OPTIMIZERS, ZERO_OPTIONS
from ui.plans import state
from ui.plans.rows import currency_sign, model_name, plan_label
from ui.widgets import format_quantity, quantity_error

P = "pl_e_"
LOADED_KEY = "plans.editor_loaded"
FLASH_KEY = "plans.flash"
SELECT_KEY = "pl_select"
CUSTOM = "custom"
MAX_INT = 10 ** 9
MAX_BATCH = 4096


def _fields_of(plan: Plan, currency: str = "") -> dict[str, Any]:
    """Widget values for a plan (text as people type it)."""
    v: dict[str, Any] = {
        "name": plan.name, "params": format_quantity(plan.n_params), "device": plan.device,
        "precision": plan.precision, "gpus": f"{plan.n_gpus}",
        "price": "" if plan.price is None else f"{currency_sign(currency)}{plan.price:g}",
        "peak": format_si(plan.peak_flops, "FLOP/s", digits=6) if plan.peak_flops else "312 TFLOP/s",
        "bw": format_si(plan.mem_bw, "B/s", digits=6) if plan.mem_bw else "2 TB/s",
        "memory": format_si(plan.memory_bytes, "B", digits=6) if plan.memory_bytes else "",
        "model": plan.model,
        "tokens": format_quantity(plan.n_tokens), "mfu": format_percent(plan.mfu, 2, trim=True),
        "recompute": plan.recompute, "seq_len": f"{plan.seq_len}", "causal": plan.causal,
        "micro_batch": f"{plan.micro_batch}", "zero_stage": str(plan.zero_stage),
        "tp": f"{plan.tp}", "pp": f"{plan.pp}", "optimizer": plan.optimizer,
        "flash_attention": plan.flash_attention, "weights": plan.weights, "kv_dtype": plan.kv_dtype,
        "batch": f"{plan.batch}", "prompt": f"{plan.prompt_len}", "output": f"{plan.output_len}",
        "kv": plan.kv, "context": f"{plan.context}", "tp_comm": plan.tp_comm, "layers": f"{plan.n_layers}",
        "kv_heads": f"{plan.kv_heads}", "head_dim": f"{plan.head_dim}",
        "efficiency": format_percent(plan.efficiency, 2, trim=True),
    }
    return v


def _load(i: int, plan: Plan) -> None:
    for k, val in _fields_of(plan, state.get_table().currency_code).items():
        st.session_state[f"{P}{k}"] = val
    st.session_state[LOADED_KEY] = (i, plan)


def _ensure_loaded(i: int, plan: Plan) -> None:
    if st.session_state.get(LOADED_KEY) != (i, plan) or (P + "name") not in st.session_state:
        _load(i, plan)


class _Reader:
    """Reads the editor's widget values into Plan fields, collecting messages."""

    def __init__(self, t: Translator):
        self.t = t
        self.errors: dict[str, str] = {}

    def raw(self, key: str) -> str:
        return str(st.session_state.get(f"{P}{key}", "") or "")

    def quantity(self, key: str, label: str, kind: str, *, unit: str = "",
                 optional: bool = False) -> Optional[float]:
        raw = self.raw(key).strip()
        if optional and not raw:
            return None
        try:
            x = parse_quantity(raw, kind=kind)
        except (QuantityError, ValueError, TypeError) as exc:
            self.errors[key] = self.t("plans.err.field", label=label,
                                      message=quantity_error(self.t, raw, exc, kind))
            return None
        lo_ok = optional and key == "price"
        if not (x >= 0 if lo_ok else x > 0) or x > 1e30:
            msg = self.t("common.err.ge" if lo_ok else "common.err.gt", limit="0") \
                if x <= 0 else self.t("common.err.le", limit=format_si(1e30, unit))
            self.errors[key] = self.t("plans.err.field", label=label, message=msg)
            return None
        return x

    def fraction(self, key: str, label: str) -> Optional[float]:
        x = self.quantity(key, label, "fraction")
        if x is not None and x > 1:
            self.errors[key] = self.t("plans.err.field", label=label,
                                      message=self.t("common.err.le", limit="100%"))
            return None
        return x

    def whole(self, key: str, label: str, hi: int = MAX_INT) -> Optional[int]:
        x = self.quantity(key, label, "count")
        if x is None:
            return None
        if x != int(x) or not 1 <= x <= hi:
            self.errors[key] = self.t("plans.err.field", label=label,
                                      message=self.t("plans.err.whole", hi=f"{hi:,}"))
            return None
        return int(x)


def candidate(t: Translator, base: Plan, models=None) -> tuple[Optional[Plan], dict[str, str]]:
    """The plan the editor's inputs describe (None while a field is invalid) and the
    messages per field.  With a catalog model, N is the model's (total) parameter count."""
    r = _Reader(t)
    s = st.session_state
    device = s.get(P + "device", base.device)
    model = s.get(P + "model", base.model) or ""
    if model and (models is None or model not in models):
        model = ""
    if model:
        n_params: Optional[float] = param_counts(models[model]).total
    else:
        n_params = r.quantity("params", t("plans.f.params"), "count")
    typed = r.raw("name").strip()[:120]
    if typed in (auto_name(base, model_name(base, models=models), precision=p)
                 for p in (False, True)):
        typed = ""          # the automatic name, as shown: it keeps following the setup
    values: dict[str, Any] = {
        "name": typed,
        "model": model,
        "n_params": n_params,
        "device": device,
        "precision": s.get(P + "precision", base.precision) if device != CUSTOM else "bf16",
        "n_gpus": r.whole("gpus", t("plans.f.gpus")),
        "price": r.quantity("price", t("plans.f.price"), "price", optional=True),
    }
    if device == CUSTOM:
        values["peak_flops"] = r.quantity("peak", t("plans.f.peak"), "flop_rate", unit="FLOP/s")
        values["mem_bw"] = r.quantity("bw", t("plans.f.bw"), "bandwidth", unit="B/s")
        values["memory_bytes"] = r.quantity("memory", t("plans.f.memory"), "bytes", unit="B",
                                            optional=True)
    else:
        values.update(peak_flops=None, mem_bw=None, memory_bytes=None)
    if base.kind == TRAINING:
        values.update(n_tokens=r.quantity("tokens", t("plans.f.tokens"), "count"),
                      mfu=r.fraction("mfu", t("plans.f.mfu")),
                      recompute=s.get(P + "recompute", base.recompute),
                      seq_len=r.whole("seq_len", t("mfu.seq")),
                      causal=bool(s.get(P + "causal", base.causal)),
                      micro_batch=r.whole("micro_batch", t("arch.mem.mbs")),
                      zero_stage=int(s.get(P + "zero_stage", base.zero_stage)),
                      tp=r.whole("tp", t("arch.mem.tp")), pp=r.whole("pp", t("arch.mem.pp")),
                      optimizer=s.get(P + "optimizer", base.optimizer),
                      flash_attention=bool(s.get(P + "flash_attention", base.flash_attention)))
    else:
        values.update(weights=s.get(P + "weights", base.weights),
                      kv_dtype=s.get(P + "kv_dtype", base.kv_dtype),
                      batch=r.whole("batch", t("plans.f.batch"), MAX_BATCH),
                      prompt_len=r.whole("prompt", t("plans.f.prompt")),
                      output_len=r.whole("output", t("plans.f.output")),
                      kv=bool(s.get(P + "kv", base.kv)),
                      tp_comm=bool(s.get(P + "tp_comm", base.tp_comm)) and bool(model),
                      context=r.whole("context", t("plans.f.context")),
                      n_layers=r.whole("layers", t("plans.f.layers")),
                      kv_heads=r.whole("kv_heads", t("plans.f.kv_heads")),
                      head_dim=r.whole("head_dim", t("plans.f.head_dim")),
                      efficiency=r.fraction("efficiency", t("plans.f.efficiency")))
    optional = {"price", "peak_flops", "mem_bw", "memory_bytes"}
    if r.errors or any(v is None for k, v in values.items() if k not in optional):
        return None, r.errors
    return dataclasses.replace(base, **values), r.errors


# ----------------------------------------------------------------------------- callbacks

def _flash(kind: str, text: str, restore: bool = False) -> None:
    st.session_state[FLASH_KEY] = (kind, text, restore)


def _price_currency() -> Optional[str]:
    """The currency the editor's price names ("$2" -> "USD"), or None."""
    try:
        return parse_price(st.session_state.get(P + "price", "") or "")[1]
    except (QuantityError, ValueError):
        return None


def _on_select() -> None:
    state.select(int(st.session_state[SELECT_KEY]))


def _on_save(t: Translator, models) -> None:
    i = state.selected()
    table = state.get_table()
    if not table.plans:
        return
    plan, _ = candidate(t, table.plans[i], models)
    if plan is None:
        _flash("error", t("plans.not_saved"))
        return
    state.replace_plan(i, plan)
    typed = _price_currency()
    if typed:
        state.set_currency(typed)
    st.session_state[LOADED_KEY] = (i, plan)
    _flash("success", t("plans.saved", name=state.shown_name(plan, model_name(plan, models=models))))


def _on_add(t: Translator, plan: Plan, models=None, *, replace_examples: bool = True) -> None:
    n = len(state.get_table().plans)
    if state.add_plan(plan, replace_examples=replace_examples) is None:
        _flash("warning", t("plans.too_many", n=MAX_PLANS))
        return
    name = state.shown_name(plan, model_name(plan, models=models))
    if state.replaced_examples():
        _flash("success", t("plans.added_replaced", name=name), restore=True)
        return
    _flash("success", t("plans.added", name=name, n=n + 1))


def _on_duplicate(t: Translator, models=None) -> None:
    table = state.get_table()
    if table.plans:
        p = table.plans[state.selected()]
        # an automatic name stays automatic (it follows the copy's setup once edited); a
        # typed one gets the page language's "(copy)"
        name = (p.name + t("plans.copy_suffix"))[:120] if p.name else ""
        _on_add(t, dataclasses.replace(p, name=name), models, replace_examples=False)


def _on_restore() -> None:
    state.restore_examples()


def _on_delete() -> None:
    state.delete_plan(state.selected())


def _on_baseline() -> None:
    state.set_baseline(state.selected())


# ----------------------------------------------------------------------------- drawing

def _error(errors: Mapping[str, str], key: str) -> None:
    if key in errors:
        st.error(errors[key], icon=":material/warning:")


def _text(t, label_key: str, key: str, errors, **kw) -> None:
    st.text_input(t(label_key), key=f"{P}{key}", help=t(f"{label_key}_help"), **kw)
    _error(errors, key)


def _select(t, label_key: str, key: str, options, fmt) -> None:
    st.selectbox(t(label_key), list(options), key=f"{P}{key}", format_func=fmt,
                 help=t(label_key + "_help"))


def _model_label(t: Translator, models, m: str) -> str:
    if not m:
        return t("plans.f.model_custom")
    return models[m].name


def _model_caption(t: Translator, models, m: str) -> None:
    arch = models[m]
    pc = param_counts(arch)
    st.caption(t("plans.f.model_facts", total=format_quantity(pc.total),
                 active=format_quantity(pc.active), layers=arch.n_layers,
                 heads=arch.n_heads, kv_heads=arch.n_kv_heads, source=arch.source))


def render_editor(t: Translator, devices: Mapping[str, Any], published, models=None) -> None:
    """The "Edit plans" section."""
    st.subheader(t("plans.editor_heading"))
    flash = st.session_state.pop(FLASH_KEY, None)
    table = state.get_table()
    b1, b2 = st.columns(2)
    seed_training, _, seed_serving = default_plans()
    b1.button(t("plans.new_training"), on_click=_on_add, args=(t, seed_training, models),
              help=t("plans.new_training_help"), icon=":material/add:", key="pl_new_training")
    b2.button(t("plans.new_serving"), on_click=_on_add, args=(t, seed_serving, models),
              help=t("plans.new_serving_help"), icon=":material/add:", key="pl_new_serving")
    if flash is not None:
        getattr(st, flash[0])(flash[1])
        if len(flash) > 2 and flash[2]:
            st.button(t("plans.restore_examples"), on_click=_on_restore,
                      help=t("plans.restore_examples_help"), icon=":material/undo:",
                      key="pl_restore")
    if not table.plans:
        return
    i = state.selected()
    plan = table.plans[i]
    _ensure_loaded(i, plan)
    st.session_state[SELECT_KEY] = i
    st.selectbox(t("plans.edit_which"), list(range(len(table.plans))), key=SELECT_KEY,
                 format_func=lambda k: f"{k + 1}. {t('plans.kind.' + table.plans[k].kind)} · "
                                       f"{plan_label(t, table, k, models=models)}",
                 on_change=_on_select, help=t("plans.edit_which_help"))
    _, errors = candidate(t, plan, models)
    device_ids = list(devices) + [CUSTOM]
    if st.session_state.get(P + "device") not in device_ids:
        st.session_state[P + "device"] = device_ids[0]

    def dev_label(d: str) -> str:
        return t("common.custom_option") if d == CUSTOM else devices[d].name_for(t.lang)

    c1, c2 = st.columns(2)
    with c1:
        cand, _ = candidate(t, plan, models)
        _text(t, "plans.f.name", "name", errors,
              placeholder=auto_name(cand or plan, model_name(cand or plan, models=models),
                                    precision_differs(table.plans, plan.kind)))
        model_ids = [""] + list(models or {})
        if st.session_state.get(P + "model") not in model_ids:
            st.session_state[P + "model"] = ""
        st.selectbox(t("plans.f.model"), model_ids, key=P + "model",
                     format_func=lambda m: _model_label(t, models, m), help=t("plans.f.model_help"))
        chosen_model = st.session_state[P + "model"]
        if chosen_model:
            _model_caption(t, models, chosen_model)
        else:
            _text(t, "plans.f.params", "params", errors)
        st.selectbox(t("plans.f.device"), device_ids, key=P + "device", format_func=dev_label,
                     help=t("plans.f.device_help"))
        dev_id = st.session_state[P + "device"]
        if dev_id == CUSTOM:
            _text(t, "plans.f.peak", "peak", errors)
            _text(t, "plans.f.bw", "bw", errors)
            _text(t, "plans.f.memory", "memory", errors, placeholder="80 GB")
        else:
            precs = list(devices[dev_id].precisions)
            if st.session_state.get(P + "precision") not in precs:
                st.session_state[P + "precision"] = devices[dev_id].default_precision
            st.selectbox(t("plans.f.precision"), precs, key=P + "precision",
                         format_func=lambda p: t(f"common.prec.{p}"),
                         help=t("plans.f.precision_help"))
        _text(t, "plans.f.gpus", "gpus", errors)
        _text(t, "plans.f.price", "price", errors, placeholder="2.5")
    with c2:
        if plan.kind == TRAINING:
            _text(t, "plans.f.tokens", "tokens", errors)
            _text(t, "plans.f.mfu", "mfu", errors)
            _published_mfu_caption(t, plan, published, models)
            _select(t, "arch.recompute", "recompute", RECOMPUTE,
                    lambda r: t(f"arch.recompute.{r}"))
            if chosen_model:
                m1, m2 = st.columns(2)
                with m1:
                    _text(t, "mfu.seq", "seq_len", errors)
                    _text(t, "arch.mem.mbs", "micro_batch", errors)
                    _text(t, "arch.mem.tp", "tp", errors)
                    st.checkbox(t("mfu.causal"), key=P + "causal", help=t("mfu.causal_help"))
                with m2:
                    _select(t, "arch.mem.zero", "zero_stage", ZERO_OPTIONS,
                            lambda z: t(f"arch.mem.zero.{z}"))
                    _select(t, "arch.mem.optim", "optimizer", OPTIMIZERS,
                            lambda o: t(f"arch.mem.optim.{o}"))
                    _text(t, "arch.mem.pp", "pp", errors)
                    st.checkbox(t("arch.mem.flash"), key=P + "flash_attention",
                                help=t("arch.mem.flash_help"))
        else:
            st.selectbox(t("plans.f.weights"), list(WEIGHT_PRECISIONS), key=P + "weights",
                         format_func=str.upper, help=t("plans.f.weights_help"))
            _text(t, "plans.f.batch", "batch", errors)
            _text(t, "plans.f.prompt", "prompt", errors)
            _text(t, "plans.f.output", "output", errors)
            st.checkbox(t("plans.f.kv"), key=P + "kv", help=t("plans.f.kv_help"))
            if st.session_state.get(P + "kv"):
                st.selectbox(t("plans.f.kv_dtype"), list(KV_PRECISIONS), key=P + "kv_dtype",
                             format_func=str.upper, help=t("plans.f.kv_dtype_help"))
                _text(t, "plans.f.context", "context", errors)
                if not chosen_model:
                    k1, k2, k3 = st.columns(3)
                    with k1:
                        _text(t, "plans.f.layers", "layers", errors)
                    with k2:
                        _text(t, "plans.f.kv_heads", "kv_heads", errors)
                    with k3:
                        _text(t, "plans.f.head_dim", "head_dim", errors)
            if chosen_model:
                st.checkbox(t("arch.decode.tp_comm"), key=P + "tp_comm",
                            help=t("arch.decode.tp_comm_help"))
            _text(t, "plans.f.efficiency", "efficiency", errors)
            _published_eff_caption(t, plan, published, devices, models)
    a1, a2, a3, a4 = st.columns(4)
    a1.button(t("plans.save"), on_click=_on_save, args=(t, models), type="primary",
              help=t("plans.save_help"), icon=":material/save:", key="pl_save")
    a2.button(t("plans.duplicate"), on_click=_on_duplicate, args=(t, models),
              help=t("plans.duplicate_help"), icon=":material/content_copy:", key="pl_dup")
    a3.button(t("plans.delete"), on_click=_on_delete, help=t("plans.delete_help"),
              icon=":material/delete:", key="pl_del")
    a4.button(t("plans.make_baseline"), on_click=_on_baseline,
              help=t("plans.make_baseline_help"), icon=":material/star:", key="pl_base",
              disabled=i == table.baseline)


def published_mfu_text(t: Translator, n_params: float, n_gpus: float, device: str,
                       published) -> str:
    """The caption beside an MFU input: the MFU range published runs reached at this scale,
    and the runs there that print only an HFU, with the MFU it implies (calc.published)."""
    dev = None if device == CUSTOM else device
    rng = mfu_range(n_params, n_gpus, dev, published) if published is not None else None
    hfu = hfu_runs(n_params, n_gpus, dev, published) if published is not None else None
    if rng is None:
        text = t("plans.published_none")
    else:
        note = "" if rng.same_family and not rng.widened else t(
            "plans.published_mfu_note_family" if not rng.same_family else "plans.published_mfu_note_wider")
        text = t("plans.published_mfu", lo=format_percent(rng.lo, 0), hi=format_percent(rng.hi, 0),
                 runs=_run_names(rng.runs, published), note=note)
    if hfu is not None:
        pct = dict(lo=format_percent(hfu.lo, 0), hi=format_percent(hfu.hi, 0),
                   runs=_run_names(hfu.runs, published))
        text += (t("plans.published_hfu_only", **pct) if hfu.mfu_lo is None else
                 t("plans.published_hfu", mlo=format_percent(hfu.mfu_lo, 0),
                   mhi=format_percent(hfu.mfu_hi, 0), **pct))
    return text


def _run_names(runs, published) -> str:
    """"Source: model × GPUs FAMILY, ..." per source, in the runs' order."""
    by_source: dict[str, list[str]] = {}
    for r in runs:
        by_source.setdefault(r.source, []).append(f"{r.model} × {r.n_gpus:,} {_family_name(r.device)}")
    return "; ".join(f"{_short(published.sources[k])}: {', '.join(dict.fromkeys(v))}"
                     for k, v in by_source.items())


def _short(source) -> str:
    return source.short or source.title


def _family_name(device_id: str) -> str:
    return device_family(device_id).upper()


def _published_mfu_caption(t: Translator, plan: Plan, published, models) -> None:
    cand, _ = candidate(t, plan, models)
    p = cand or plan
    n = p.n_params
    if p.model and models and p.model in models:
        n = param_counts(models[p.model]).active
    st.caption(published_mfu_text(t, n, p.n_gpus, p.device, published))


def _published_eff_caption(t: Translator, plan: Plan, published, devices, models=None) -> None:
    cand, _ = candidate(t, plan, models)
    p = cand or plan
    rng = decode_efficiency_range(p.n_gpus, published, devices) if published is not None else None
    if rng is None:
        st.caption(t("plans.published_none"))
        return
    runs = "; ".join(f"{r.model} {r.weights} × {r.n_gpus}" for r in rng.runs)
    src = _short(published.sources[rng.runs[0].source])
    st.caption(t("plans.published_eff", lo=format_percent(rng.lo, 0), hi=format_percent(rng.hi, 0),
                 runs=f"{src}: {runs}", note="" if rng.same_gpus else t("plans.published_eff_note_all")))


__all__ = ["render_editor", "candidate", "published_mfu_text"]
