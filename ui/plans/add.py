"""'Add this setup to the plans' for the Training and Decode pages: one call each, with
the page's own inputs; the plan lands in the plan table (ui.plans.state) and the page
says so, with a link to the Plans page."""
from __future__ import annotations

from typing import Optional

import streamlit as st

from calc.plans import MAX_PLANS, SERVING, TRAINING, Plan
from ui.frame import PAGES
from ui.plans import state
from ui.plans.rows import fmt_count

ADDED_KEY = "plans.added_from_page"
PLANS_PAGE = next(path for pid, path, _icon in PAGES if pid == "plans")


def _custom(ctx) -> dict:
    if ctx.device_id != "custom":
        return {}
    return {"peak_flops": ctx.peak_flops, "mem_bw": ctx.mem_bw}


def _add(t, plan: Plan, page: str) -> None:
    n = len(state.get_table().plans)
    if state.add_plan(plan) is None:
        st.session_state[ADDED_KEY] = (page, "warning", t("plans.too_many", n=MAX_PLANS))
    else:
        st.session_state[ADDED_KEY] = (page, "success", t("plans.added", name=plan.name, n=n + 1))


def _button(ctx, plan: Optional[Plan], page: str) -> None:
    t = ctx.t
    st.button(t("plans.add_from_page"), on_click=_add, args=(t, plan, page),
              disabled=plan is None, help=t("plans.add_from_page_help"),
              icon=":material/playlist_add:", key=f"pl_add_{page}")
    msg = st.session_state.get(ADDED_KEY)
    if msg is not None and msg[0] == page:
        st.session_state.pop(ADDED_KEY)
        getattr(st, msg[1])(msg[2])
        st.page_link(PLANS_PAGE, label=t("plans.open_plans"), icon=":material/compare:")


def training_setup_button(ctx, n_params, n_tokens, n_gpus, mfu, price) -> None:
    """The Training page's button: a training plan from its inputs (disabled while one is
    invalid)."""
    plan = None
    if ctx.ready and None not in (n_params, n_tokens, n_gpus, mfu):
        name = (f"{fmt_count(n_params)} · {int(n_gpus):,} × {ctx.device_label()} · "
                f"MFU {mfu * 100:.0f}%")
        plan = Plan(kind=TRAINING, name=name[:120], n_params=float(n_params),
                    n_tokens=float(n_tokens), device=ctx.device_id, precision=ctx.precision,
                    n_gpus=int(n_gpus), mfu=float(mfu), price=price, **_custom(ctx))
    _button(ctx, plan, "training")


def serving_setup_button(ctx, n_params, weights, n_gpus, batch, kv, n_layers, kv_heads,
                         head_dim, context, kv_dtype) -> None:
    """The Decode page's button: a serving plan from its inputs."""
    plan = None
    kv_ok = not kv or None not in (n_layers, kv_heads, head_dim, context)
    if ctx.ready and None not in (n_params, n_gpus, batch) and kv_ok:
        name = (f"{fmt_count(n_params)} {weights} · {int(n_gpus):,} × {ctx.device_label()} · "
                f"batch {int(batch)}")
        extra = {}
        if kv:
            extra = dict(n_layers=int(n_layers), kv_heads=int(kv_heads), head_dim=int(head_dim),
                         context=int(context), kv_dtype=kv_dtype)
        plan = Plan(kind=SERVING, name=name[:120], n_params=float(n_params),
                    device=ctx.device_id, precision=ctx.precision, n_gpus=int(n_gpus),
                    weights=weights, batch=int(batch), kv=bool(kv), **extra, **_custom(ctx))
    _button(ctx, plan, "decode")
