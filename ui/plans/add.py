"""'Add this setup to the plans' for the Training and Decode pages: one call each, with
the page's own inputs; the plan lands in the plan table (ui.plans.state) and the page
says so, with a link to the Plans page."""
from __future__ import annotations

from typing import Optional

import streamlit as st

from calc.arch import param_counts
from calc.plans import MAX_PLANS, SERVING, TRAINING, Plan
from calc.units import QuantityError, parse_price, parse_quantity
from ui.pages import page_file
from ui.plans import state
from ui.plans.editor import published_mfu_text
from ui.state import kept

ADDED_KEY = "plans.added_from_page"
PLANS_PAGE = page_file("plans")


def _custom(ctx) -> dict:
    if ctx.device_id != "custom":
        return {}
    return {"peak_flops": ctx.peak_flops, "mem_bw": ctx.mem_bw}


def _price_currency() -> Optional[str]:
    """The Training page's currency: typed with the price ("$2" -> "USD") or chosen."""
    try:
        typed = parse_price(st.session_state.get("price", "") or "")[1]
    except (QuantityError, ValueError):
        typed = None
    return typed or state.chosen_currency()


def _add(t, plan: Plan, page: str, model_name: str = "") -> None:
    n = len(state.get_table().plans)
    code = _price_currency() if plan.price is not None else None
    if state.add_plan(plan, code) is None:
        st.session_state[ADDED_KEY] = (page, "warning", t("plans.too_many", n=MAX_PLANS))
    else:
        name = state.shown_name(plan, model_name)
        if code:
            state.set_currency(code)
        text = (t("plans.added_replaced", name=name) if state.replaced_examples()
                else t("plans.added", name=name, n=n + 1))
        st.session_state[ADDED_KEY] = (page, "success", text)


def _catalog_model(ctx) -> Optional[str]:
    """The sidebar's catalog model id, "" for parameters only, None for a pasted config
    (a plan names catalog models only)."""
    if ctx.model is None:
        return ""
    return ctx.model_id if ctx.model_id not in ("custom", "config") else None


def _button(ctx, plan: Optional[Plan], page: str) -> None:
    t = ctx.t
    pasted = _catalog_model(ctx) is None
    st.button(t("plans.add_from_page"), on_click=_add,
              args=(t, plan, page, ctx.model.name if ctx.model is not None else ""),
              disabled=plan is None or pasted,
              help=t("plans.add_from_page_pasted") if pasted else t("plans.add_from_page_help"),
              icon=":material/playlist_add:", key=f"pl_add_{page}")
    msg = st.session_state.get(ADDED_KEY)
    if msg is not None and msg[0] == page:
        st.session_state.pop(ADDED_KEY)
        getattr(st, msg[1])(msg[2])
        st.page_link(PLANS_PAGE, label=t("plans.open_plans"), icon=":material/compare:")


def training_setup_button(ctx, n_params, n_tokens, n_gpus, mfu, price, *, recompute="none",
                          seq=None, causal=True) -> None:
    """The Training page's button: a training plan from its inputs (disabled while one is
    invalid).  The memory options (sharding, micro-batch, TP/PP, optimizer, FlashAttention)
    are read from the page's kept values."""
    plan = None
    model = _catalog_model(ctx)
    if ctx.ready and model is not None and None not in (n_params, n_tokens, n_gpus, mfu) \
            and (not model or seq is not None):
        extra = {}
        if model:
            extra = dict(seq_len=int(seq), causal=bool(causal),
                         zero_stage=int(kept("zero", "3")), micro_batch=int(_num(kept("mbs", "1"))),
                         tp=int(_num(kept("tp", "1"))), pp=int(_num(kept("pp", "1"))),
                         optimizer=kept("optim", "adam-mixed"),
                         flash_attention=bool(kept("flash", True)),
                         cp=int(_num(kept("cp", "1"))), ep=int(_num(kept("ep", "1"))),
                         sequence_parallel=bool(kept("sp", True)),
                         schedule=kept("schedule", "1f1b"),
                         interleave=int(_num(kept("interleave", "1"))))
        # name "": automatic (calc.plans.auto_name), it follows the plan's setup
        plan = Plan(kind=TRAINING, model=model, n_params=float(n_params),
                    n_tokens=float(n_tokens), device=ctx.device_id, precision=ctx.precision,
                    n_gpus=int(n_gpus), mfu=float(mfu), price=price, recompute=recompute,
                    **extra, **_custom(ctx))
    _button(ctx, plan, "training")


def _num(text) -> float:
    try:
        x = parse_quantity(str(text), kind="count")
    except ValueError:
        return 1.0
    return x if x >= 1 and x == int(x) else 1.0


def serving_setup_button(ctx, n_params, weights, n_gpus, batch, kv, n_layers, kv_heads,
                         head_dim, context, kv_dtype, *, prompt=None, tp_comm=False) -> None:
    """The Decode page's button: a serving plan from its inputs."""
    plan = None
    model = _catalog_model(ctx)
    kv_ok = not kv or None not in (n_layers, kv_heads, head_dim, context)
    if ctx.ready and model is not None and None not in (n_params, n_gpus, batch) and kv_ok:
        extra = {"tp_comm": bool(tp_comm)}
        if prompt is not None:
            extra["prompt_len"] = int(prompt)
        if kv:
            extra.update(n_layers=int(n_layers), kv_heads=int(kv_heads), head_dim=int(head_dim),
                         context=int(context), kv_dtype=kv_dtype)
        plan = Plan(kind=SERVING, model=model, n_params=float(n_params),
                    device=ctx.device_id, precision=ctx.precision, n_gpus=int(n_gpus),
                    weights=weights, batch=int(batch), kv=bool(kv), **extra, **_custom(ctx))
    _button(ctx, plan, "decode")


def published_mfu_caption(ctx, n_params, n_gpus) -> None:
    """Under the Training page's MFU input: the MFU published runs reached at this scale
    (parameters N, the sidebar's device, the GPU count), from published_mfu.toml."""
    if n_params is None or n_gpus is None:
        return
    published, _ = state.published()
    st.caption(published_mfu_text(ctx.t, n_params, n_gpus, ctx.device_id, published))


def serving_plan_button(ctx, plan: Optional[Plan]) -> None:
    """The Serving page's button: its best aggregated layout as a serving plan (built by
    calc.serving.serving_plan; None disables the button)."""
    _button(ctx, plan, "serving")

def training_layout_button(ctx, step, label: str) -> None:
    """The Training layout page's button: a training plan with the layout's predicted MFU
    (and its tp / pp / micro-batch), the run's tokens kept from the Training time page."""
    plan = None
    model = _catalog_model(ctx)
    if ctx.ready and model:
        n_tokens = _num(kept("tokens", "1T"))
        n_tokens = n_tokens if n_tokens > 1 else 1e12
        name = (f"{ctx.model.name} · {step.gpus:,} × {ctx.device_label()} · {label} · "
                + ctx.t("plans.predicted_mfu_name", mfu=f"{step.mfu:.1%}"))
        plan = Plan(kind=TRAINING, name=name[:120], model=model,
                    n_params=float(param_counts(ctx.model).active),
                    n_tokens=float(n_tokens), device=ctx.device_id, precision=ctx.precision,
                    n_gpus=int(step.gpus), mfu=float(step.mfu), recompute=step.recompute,
                    seq_len=int(step.seq_len), zero_stage=int(step.zero_stage),
                    micro_batch=int(step.micro_batch), tp=int(step.tp), pp=int(step.pp),
                    **_custom(ctx))
    _button(ctx, plan, "training_layout")
