"""The plan table as rows of display text (no Streamlit): the page's tables and the
report's use the same rows, so they always agree.

:func:`training_rows` / :func:`serving_rows` return ``(columns, rows)``: the translated
column labels and one list of cell texts per plan of that kind, with the baseline's
relative columns; errors come back separately as ``(name, message)``.
"""
from __future__ import annotations

from typing import Optional, Sequence

from calc.plans import SERVING, TRAINING, PlanTable, ServingResult, TrainingResult, relative
from calc.units import format_si
from ui.i18n import Translator


def fmt_days(d: float) -> str:
    """Days as the Training page writes them: one decimal below 100."""
    return f"{d:,.1f}" if d < 100 else f"{d:,.0f}"


def fmt_money(x: Optional[float], symbol: str = "") -> str:
    if x is None:
        return "—"
    sign = "−" if x < 0 else ""
    x = abs(x)
    body = f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"
    return f"{sign}{symbol}{body}"


def fmt_signed_money(x: Optional[float], symbol: str = "") -> str:
    if x is None:
        return "—"
    return ("+" if x > 0 else "") + fmt_money(x, symbol)


def fmt_pct(x: Optional[float]) -> str:
    return "—" if x is None else f"{x * 100:.0f}%"


def fmt_pct1(x: float) -> str:
    return f"{x * 100:.1f}".rstrip("0").rstrip(".") + "%"


def fmt_tps(x: Optional[float]) -> str:
    return "—" if x is None else format_si(x, "tok/s")


def fmt_count(x: float) -> str:
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}"
    return f"{x:.3g}"


def device_name(plan, devices) -> str:
    dev = devices.get(plan.device)
    return dev.name if dev is not None else plan.device


def setup_text(t: Translator, plan, devices) -> str:
    return t("plans.setup", gpus=f"{plan.n_gpus:,}", device=device_name(plan, devices),
             precision=t(f"common.prec.{plan.precision}") if plan.precision else "")


def plan_label(t: Translator, table: PlanTable, i: int) -> str:
    name = table.plans[i].name or t("plans.default_name", n=i + 1)
    return f"{name}  {t('plans.baseline_mark')}" if i == table.baseline else name


def _range(t, lo, hi, fmt) -> str:
    if lo is None or hi is None:
        return "—"
    a, b = fmt(lo), fmt(hi)
    return a if a == b else t("plans.range", lo=a, hi=b)


def published_note(t: Translator, rng) -> str:
    if rng is None:
        return t("plans.not_known")
    text = _range(t, rng.lo, rng.hi, fmt_pct) + " · " + t("plans.runs", n=len(rng.runs))
    if not rng.same_family:
        text += t("plans.other_family")
    elif rng.widened:
        text += t("plans.wider")
    return text


def _fit(t, fit: Optional[str]) -> str:
    return t(f"plans.fit.{fit}") if fit else t("plans.fit.unknown")


def _base_result(table: PlanTable, results: Sequence, kind_cls):
    if table.baseline is None or table.baseline >= len(results):
        return None
    base = results[table.baseline]
    return base if isinstance(base, kind_cls) else None


def training_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                  symbol: str = "") -> tuple[list[str], list[list[str]], list[int]]:
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
        mfu = fmt_pct(plan.mfu) + (f" · {t('plans.hfu', hfu=fmt_pct(res.hfu))}" if res.hfu else "")
        rows.append([
            plan_label(t, table, i), setup_text(t, plan, devices),
            plan.model or fmt_count(plan.n_params), fmt_count(plan.n_tokens), mfu,
            published_note(t, res.published), fmt_days(res.days),
            _range(t, res.days_at_hi, res.days_at_lo, fmt_days), f"{res.gpu_hours:,.0f}",
            fmt_money(res.cost, symbol),
            _range(t, res.cost_at_hi, res.cost_at_lo, lambda x: fmt_money(x, symbol)),
            (f"{format_si(res.memory_per_gpu, 'B')} · {_fit(t, res.fits)}"
             if res.memory_per_gpu is not None else "—"),
            f"×{rel.ratio:.2f}" if rel else "—",
            (("+" if rel.delta > 0 else "") + fmt_days(rel.delta)) if rel else "—",
            fmt_signed_money(rel.cost_delta, symbol) if rel else "—",
        ])
        idx.append(i)
    return cols, rows, idx


def serving_rows(t: Translator, table: PlanTable, results: Sequence, devices,
                 symbol: str = "") -> tuple[list[str], list[list[str]], list[int]]:
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
            _range(t, pub.lo, pub.hi, fmt_pct) + " · " + t("plans.runs", n=len(pub.runs)))
        ctx = f"{plan.context:,}" if plan.kv else "—"
        rows.append([
            plan_label(t, table, i), setup_text(t, plan, devices),
            plan.model or fmt_count(plan.n_params),
            f"{plan.weights.upper()} / {plan.kv_dtype.upper() if plan.kv else '—'}",
            f"{plan.batch:,} · {plan.prompt_len:,} → {plan.output_len:,} · {ctx}",
            format_si(res.ttft, "s"), format_si(res.step_seconds, "s"),
            t("plans.arrow", a=fmt_tps(res.per_user), b=fmt_tps(res.per_user_at_eff)),
            t("plans.arrow", a=fmt_tps(res.total), b=fmt_tps(res.total_at_eff)),
            fmt_tps(res.per_gpu), fmt_pct(plan.efficiency), pub_text,
            t("plans.arrow", a=fmt_money(res.cost_per_m, symbol),
              b=fmt_money(res.cost_per_m_at_eff, symbol)) if res.cost_per_m is not None else "—",
            _fit(t, res.fits) + (f" ({format_si(res.weight_bytes + res.kv_bytes, 'B')} / "
                                 f"{format_si(res.memory, 'B')})" if res.memory else ""),
            f"×{rel.ratio:.2f}" if rel else "—",
            fmt_signed_money(rel.cost_delta, symbol) if rel else "—",
        ])
        idx.append(i)
    return cols, rows, idx


def errors(t: Translator, table: PlanTable, results: Sequence) -> list[tuple[str, str]]:
    return [(p.name or t("plans.default_name", n=i + 1), r)
            for i, (p, r) in enumerate(zip(table.plans, results)) if isinstance(r, str)]
