"""The plan table as rows of display text (no Streamlit): the page's tables and the
report's use the same rows, so they always agree.

:func:`training_rows` / :func:`serving_rows` return ``(columns, rows)``: the translated
column labels and one list of cell texts per plan of that kind, with the baseline's
relative columns; errors come back separately as ``(name, message)``.
"""
from __future__ import annotations

from typing import Optional, Sequence

from calc.plans import (SERVING, TRAINING, PlanTable, ServingResult, TrainingResult, count_text,
                        display_name, precision_differs, relative)
from calc.currency import DEFAULT_CURRENCY, currency, format_money, format_price
from calc.units import format_percent, format_si
from ui.i18n import Translator


def fmt_days(d: float) -> str:
    """Days as the Training page writes them: one decimal below 100."""
    return f"{d:,.1f}" if d < 100 else f"{d:,.0f}"


def fmt_money(x: Optional[float], code: str = "") -> str:
    """Money as the Training page writes it (calc.currency.format_money): "$2,500 USD"."""
    return "—" if x is None else format_money(x, code or DEFAULT_CURRENCY)


def fmt_price(x: Optional[float], code: str = "") -> str:
    """A unit price (per million tokens) with 3 significant digits: "$0.278 USD"."""
    return "—" if x is None else format_price(x, code or DEFAULT_CURRENCY)


def fmt_signed_money(x: Optional[float], code: str = "") -> str:
    if x is None:
        return "—"
    return ("+" if x > 0 else "") + fmt_money(x, code)


def currency_sign(code: str) -> str:
    """The symbol of a currency ("$" for USD, "HK$" for HKD; "" without a currency), as
    calc.currency lists it; parse_price reads it back."""
    try:
        return currency(code).symbol if code else ""
    except ValueError:
        return ""


def _whole_pct(x: float) -> str:
    return format_percent(x, 0)


def fmt_tps(x: Optional[float]) -> str:
    return "—" if x is None else format_si(x, "tok/s")


def fmt_count(x: float) -> str:
    return count_text(x)


def setup_text(t: Translator, plan, devices) -> str:
    """"8 × A100 SXM4 80GB · BF16": the plan's GPUs, device and precision (tables, report)."""
    return t("plans.setup", gpus=f"{plan.n_gpus:,}", device=short_device(plan, devices, t.lang),
             precision=t(f"common.prec.{plan.precision}") if plan.precision else "")


def model_name(plan, result=None, models=None) -> str:
    """The plan's catalog model by name ("Llama 3.1 8B"), "" for parameters only: from
    its result, else the catalog, else the id."""
    if not plan.model:
        return ""
    name = getattr(result, "model_name", "") if result is not None else ""
    if not name and models and plan.model in models:
        name = models[plan.model].name
    return name or plan.model


def plan_name(table: PlanTable, i: int, results: Optional[Sequence] = None, models=None) -> str:
    """The name plan ``i`` shows: typed, else automatic (calc.plans.display_name), with the
    precision where the table's plans of its kind differ in it."""
    plan = table.plans[i]
    res = results[i] if results is not None and i < len(results) else None
    return display_name(plan, model_name(plan, res, models),
                        precision_differs(table.plans, plan.kind))


def plan_label(t: Translator, table: PlanTable, i: int, results: Optional[Sequence] = None,
               models=None) -> str:
    name = plan_name(table, i, results, models)
    return f"{name}  {t('plans.baseline_mark')}" if i == table.baseline else name


def _range(t, lo, hi, fmt) -> str:
    if lo is None or hi is None:
        return "—"
    a, b = fmt(lo), fmt(hi)
    return a if a == b else t("plans.range", lo=a, hi=b)


def published_note(t: Translator, rng) -> str:
    if rng is None:
        return t("plans.not_known")
    text = _range(t, rng.lo, rng.hi, _whole_pct) + " · " + t("plans.runs", n=len(rng.runs))
    if not rng.same_family:
        text += t("plans.other_family")
    elif rng.widened:
        text += t("plans.wider")
    return text


def hfu_note(t: Translator, plan, res) -> str:
    """The HFU beside a training plan's MFU, marked impossible above 100 % (the record's
    verdict, calc.mfu.utilisation_verdict)."""
    recompute = t(f"arch.recompute.{plan.recompute}")
    if res.run is not None and res.run.verdict == "hfu_impossible":
        return t("plans.hfu_impossible", hfu=format_percent(res.hfu, 1, trim=True), recompute=recompute)
    return t("plans.hfu", hfu=format_percent(res.hfu, 0), recompute=recompute)


def _fit(t, fit: Optional[str]) -> str:
    return t(f"plans.fit.{fit}") if fit else t("plans.fit.unknown")


def _base_result(table: PlanTable, results: Sequence, kind_cls):
    if table.baseline is None or table.baseline >= len(results):
        return None
    base = results[table.baseline]
    return base if isinstance(base, kind_cls) else None


# What a meeting reads first comes first: the plan, its result, against the baseline, then
# the realistic range, then the inputs.
# What makes plans differ (setup: GPUs × device · precision; the model; MFU) sits beside
# the name, visible without scrolling (issue 23 item 1).
TRAINING_ORDER = ("plans.col.name", "plans.col.setup", "plans.col.model", "plans.col.mfu",
                  "plans.col.days", "plans.col.cost", "plans.col.gpu_hours",
                  "plans.col.x_days", "plans.col.d_days", "plans.col.d_cost",
                  "plans.col.published", "plans.col.days_range", "plans.col.cost_range",
                  "plans.col.memory", "plans.col.tokens")
SERVING_ORDER = ("plans.col.name", "plans.col.setup", "plans.col.model", "plans.col.per_user",
                 "plans.col.cost_per_m", "plans.col.ttft", "plans.col.per_token",
                 "plans.col.total", "plans.col.per_gpu", "plans.col.fit", "plans.col.x_user",
                 "plans.col.d_cost_m", "plans.col.efficiency", "plans.col.published_eff",
                 "plans.col.weights", "plans.col.shape")


def _reorder(cols, rows, order, t):
    pos = [cols.index(t(k)) for k in order]
    assert len(pos) == len(cols)
    return [cols[p] for p in pos], [[r[p] for p in pos] for r in rows]


def training_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                  code: str = "") -> tuple[list[str], list[list[str]], list[int]]:
    """Columns, rows and plan indices of the training plans that could be evaluated."""
    cols = [t("plans.col.name"), t("plans.col.setup"), t("plans.col.model"),
            t("plans.col.tokens"), t("plans.col.mfu"), t("plans.col.published"),
            t("plans.col.days"), t("plans.col.days_range"), t("plans.col.gpu_hours"),
            t("plans.col.cost"), t("plans.col.cost_range"), t("plans.col.memory"),
            t("plans.col.x_days"), t("plans.col.d_days"), t("plans.col.d_cost")]
    base = _base_result(table, results, TrainingResult)
    rows, idx = [], []
    for i, (plan, res) in enumerate(zip(table.plans, results)):
        if plan.kind != TRAINING or not isinstance(res, TrainingResult):
            continue
        rel = relative(res, base) if base is not None and i != table.baseline else None
        mfu = format_percent(plan.mfu, 0) + (f" · {hfu_note(t, plan, res)}" if res.hfu else "")
        rows.append([
            plan_label(t, table, i, results), setup_text(t, plan, devices),
            model_name(plan, res) or fmt_count(plan.n_params), fmt_count(plan.n_tokens), mfu,
            published_note(t, res.published), fmt_days(res.days),
            _range(t, res.days_at_hi, res.days_at_lo, fmt_days), f"{res.gpu_hours:,.0f}",
            fmt_money(res.cost, code),
            _range(t, res.cost_at_hi, res.cost_at_lo, lambda x: fmt_money(x, code)),
            (f"{format_si(res.memory_per_gpu, 'B')} · {_fit(t, res.fits)}"
             if res.memory_per_gpu is not None else t("plans.memory_needs_model")),
            f"×{rel.ratio:.2f}" if rel else "—",
            (("+" if rel.delta > 0 else "") + fmt_days(rel.delta)) if rel else "—",
            fmt_signed_money(rel.cost_delta, code) if rel else "—",
        ])
        idx.append(i)
    return _reorder(cols, rows, TRAINING_ORDER, t) + (idx,)


def serving_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                 code: str = "") -> tuple[list[str], list[list[str]], list[int]]:
    """Columns, rows and plan indices of the serving plans that could be evaluated."""
    cols = [t("plans.col.name"), t("plans.col.setup"), t("plans.col.model"),
            t("plans.col.weights"), t("plans.col.shape"), t("plans.col.ttft"),
            t("plans.col.per_token"), t("plans.col.per_user"), t("plans.col.total"),
            t("plans.col.per_gpu"), t("plans.col.efficiency"), t("plans.col.published_eff"),
            t("plans.col.cost_per_m"), t("plans.col.fit"), t("plans.col.x_user"),
            t("plans.col.d_cost_m")]
    base = _base_result(table, results, ServingResult)
    rows, idx = [], []
    for i, (plan, res) in enumerate(zip(table.plans, results)):
        if plan.kind != SERVING or not isinstance(res, ServingResult):
            continue
        rel = relative(res, base) if base is not None and i != table.baseline else None
        pub = res.published
        pub_text = t("plans.not_known") if pub is None else (
            _range(t, pub.lo, pub.hi, _whole_pct) + " · " + t("plans.runs", n=len(pub.runs)))
        ctx = f"{plan.context:,}" if plan.kv else "—"
        rows.append([
            plan_label(t, table, i, results), setup_text(t, plan, devices),
            model_name(plan, res) or fmt_count(plan.n_params),
            f"{plan.weights.upper()} / {plan.kv_dtype.upper() if plan.kv else '—'}",
            f"{plan.batch:,} · {plan.prompt_len:,} → {plan.output_len:,} · {ctx}",
            format_si(res.ttft, "s"), format_si(res.step_seconds, "s"),
            t("plans.arrow", a=fmt_tps(res.per_user), b=fmt_tps(res.per_user_at_eff)),
            t("plans.arrow", a=fmt_tps(res.total), b=fmt_tps(res.total_at_eff)),
            fmt_tps(res.per_gpu), format_percent(plan.efficiency, 0), pub_text,
            t("plans.arrow", a=fmt_price(res.cost_per_m, code),
              b=fmt_price(res.cost_per_m_at_eff, code)) if res.cost_per_m is not None else "—",
            _fit(t, res.fits) + (f" ({format_si(res.memory_per_gpu, 'B')} / "
                                 f"{format_si(res.memory, 'B')})" if res.memory else ""),
            f"×{rel.ratio:.2f}" if rel else "—",
            (("+" if rel.cost_delta > 0 else "") + fmt_price(rel.cost_delta, code))
            if rel and rel.cost_delta is not None else "—",
        ])
        idx.append(i)
    return _reorder(cols, rows, SERVING_ORDER, t) + (idx,)


def errors(t: Translator, table: PlanTable, results: Sequence) -> list[tuple[str, str]]:
    return [(plan_name(table, i, results), r)
            for i, (p, r) in enumerate(zip(table.plans, results)) if isinstance(r, str)]


# ----------------------------------------------------------------------------- report rows
# The printed page has room for about ten columns (180 mm): the same cells as the page's
# tables, merged into fewer columns.

def short_device(plan, devices, lang: str = "en") -> str:
    """Device name in ``lang`` without the vendor prefix ("A100 SXM4 80GB")."""
    dev = devices.get(plan.device)
    if dev is None:
        return plan.device
    name = dev.name_for(lang)
    for prefix in (dev.vendor + " ", "NVIDIA ", "AMD ", "Google "):
        if prefix.strip() and name.startswith(prefix):
            name = name[len(prefix):]
            break
    return name


def training_report_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                         code: str = "") -> tuple[list[str], list[list[str]], list[int]]:
    cols, rows, idx = training_rows(t, table, results, devices, code)
    c = {name: k for k, name in enumerate(cols)}

    def g(r, key):
        return r[c[t(key)]]

    out_cols = [t("plans.col.name"), t("plans.col.setup"), t("plans.col.mfu"),
                t("plans.col.published"), t("plans.col.days"), t("plans.col.gpu_hours"),
                t("plans.col.cost"), t("plans.col.memory"), t("plans.report.vs_baseline")]
    out = []
    for r, i in zip(rows, idx):
        plan = table.plans[i]
        setup = f"{setup_text(t, plan, devices)} · {g(r, 'plans.col.model')} · " \
                f"{g(r, 'plans.col.tokens')} {t('plans.report.tokens')}"
        days = g(r, "plans.col.days")
        rng = g(r, "plans.col.days_range")
        cost = g(r, "plans.col.cost")
        crng = g(r, "plans.col.cost_range")
        rel = [g(r, k) for k in ("plans.col.x_days", "plans.col.d_days", "plans.col.d_cost")]
        out.append([g(r, "plans.col.name"), setup, g(r, "plans.col.mfu"),
                    g(r, "plans.col.published"),
                    days + ("" if rng == "—" else f" ({rng})"), g(r, "plans.col.gpu_hours"),
                    cost + ("" if crng == "—" else f" ({crng})"), g(r, "plans.col.memory"),
                    " · ".join(x for x in rel if x != "—") or "—"])
    return out_cols, out, idx


def serving_report_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                        code: str = "") -> tuple[list[str], list[list[str]], list[int]]:
    cols, rows, idx = serving_rows(t, table, results, devices, code)
    c = {name: k for k, name in enumerate(cols)}

    def g(r, key):
        return r[c[t(key)]]

    out_cols = [t("plans.col.name"), t("plans.col.setup"), t("plans.col.shape"),
                t("plans.report.latency"), t("plans.col.per_user"), t("plans.col.total"),
                t("plans.report.efficiency"), t("plans.col.cost_per_m"), t("plans.col.fit"),
                t("plans.report.vs_baseline")]
    out = []
    for r, i in zip(rows, idx):
        plan = table.plans[i]
        setup = f"{setup_text(t, plan, devices)} · {g(r, 'plans.col.model')} · " \
                f"{g(r, 'plans.col.weights')}"
        rel = [g(r, k) for k in ("plans.col.x_user", "plans.col.d_cost_m")]
        out.append([g(r, "plans.col.name"), setup, g(r, "plans.col.shape"),
                    f"{g(r, 'plans.col.ttft')} / {g(r, 'plans.col.per_token')}",
                    g(r, "plans.col.per_user"),
                    f"{g(r, 'plans.col.total')} ({g(r, 'plans.col.per_gpu')} / GPU)",
                    f"{g(r, 'plans.col.efficiency')} ({g(r, 'plans.col.published_eff')})",
                    g(r, "plans.col.cost_per_m"), g(r, "plans.col.fit"),
                    " · ".join(x for x in rel if x != "—") or "—"])
    return out_cols, out, idx
