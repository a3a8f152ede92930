"""The plan table: the single source of truth, kept across pages, in the share link.

The table (:class:`calc.plans.PlanTable`) lives in ``st.session_state`` under a NON-widget
key (:data:`TABLE_KEY`), so it survives page changes and the "Add this setup to the
plans" buttons of the Training and Decode pages can append to it.  On the Plans page the
URL name ``plans`` carries it (:func:`calc.plans.encode_plans`); a link that differs
from what the app last wrote replaces the table (a shared link, a fresh session); a
broken one is reported once and changes nothing.  The default table (the seed's
examples) is left out of the URL.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import streamlit as st

from calc.currency import CURRENCY_CODES, DEFAULT_CURRENCY, currency_label
from calc.models import ModelFileError, load_models
from calc.plans import (MAX_PLANS, Plan, PlanTable, decode_plans, default_plans,
                        display_name, encode_plans, is_examples, precision_differs)
from calc.published import Published, PublishedFileError, load_published
from calc.scenario import MAX_URL_TOKEN_CHARS, ScenarioError
from ui.plans.rows import currency_sign
from ui.state import kept, set_value, url_changed, write_url
from ui.widgets import bound_select

TABLE_KEY = "plans.table"
SELECTED_KEY = "plans.selected"           # index of the plan in the editor (non-widget)
LINK_ERROR_KEY = "plans.link_error"
URL_KEY = "plans"
TOO_LONG_KEY = "plans.too_long"
REPLACED_KEY = "plans.replaced_examples"  # one-shot: the user's first plan replaced the examples
CURRENCY_KEY = "currency"                # shared with the Training page (URL name `currency`)


def default_table() -> PlanTable:
    return PlanTable(tuple(default_plans()), 0)


def get_table() -> PlanTable:
    table = st.session_state.get(TABLE_KEY)
    if not isinstance(table, PlanTable):
        table = default_table()
        st.session_state[TABLE_KEY] = table
    return table


def set_table(table: PlanTable) -> None:
    st.session_state[TABLE_KEY] = table


def selected() -> int:
    n = len(get_table().plans)
    i = st.session_state.get(SELECTED_KEY, 0)
    return min(max(int(i), 0), max(n - 1, 0))


def select(i: int) -> None:
    st.session_state[SELECTED_KEY] = i


def add_plan(plan: Plan, currency: Optional[str] = None, *,
             replace_examples: bool = True) -> Optional[int]:
    """Append a plan (None when the table is full); the new row is selected.  A currency
    code (from a price typed as "$2" or "¥15") becomes the table's currency.

    The examples are examples: while the table holds exactly them (calc.plans.is_examples),
    the user's first plan replaces them and becomes the baseline (``replaced_examples()``
    then says so once); ``replace_examples=False`` (Duplicate: building on an example)
    appends instead."""
    table = get_table()
    if replace_examples and is_examples(table.plans):
        set_table(with_currency(dataclasses.replace(table, plans=(plan,), baseline=0), currency))
        st.session_state[REPLACED_KEY] = True
        select(0)
        return 0
    if len(table.plans) >= MAX_PLANS:
        return None
    plans = table.plans + (plan,)
    base = table.baseline if table.baseline is not None else 0
    set_table(with_currency(dataclasses.replace(table, plans=plans, baseline=base), currency))
    select(len(plans) - 1)
    return len(plans) - 1


def shown_name(plan: Plan, model_name: str = "") -> str:
    """The plan's name as the table shows it now (calc.plans.display_name, with the
    precision where the table's plans of its kind differ in it): call it once the plan is
    in the table, so a message names the plan as its row does."""
    return display_name(plan, model_name, precision_differs(get_table().plans, plan.kind))


def replaced_examples() -> bool:
    """True once after :func:`add_plan` replaced the examples (the page says so)."""
    return bool(st.session_state.pop(REPLACED_KEY, False))


def restore_examples() -> None:
    """Put the examples back after the user's plans (their baseline stays)."""
    table = get_table()
    plans = (table.plans + tuple(default_plans()))[:MAX_PLANS]
    set_table(dataclasses.replace(table, plans=plans))


def replace_plan(i: int, plan: Plan) -> None:
    table = get_table()
    plans = list(table.plans)
    plans[i] = plan
    set_table(dataclasses.replace(table, plans=tuple(plans)))


def delete_plan(i: int) -> None:
    table = get_table()
    plans = list(table.plans)
    if not 0 <= i < len(plans):
        return
    del plans[i]
    base = table.baseline
    if base is not None:
        if base == i:
            base = 0 if plans else None
        elif base > i:
            base -= 1
    set_table(dataclasses.replace(table, plans=tuple(plans), baseline=base if plans else None))
    select(min(i, max(len(plans) - 1, 0)))


def set_baseline(i: int) -> None:
    set_table(dataclasses.replace(get_table(), baseline=i))


def with_currency(table: PlanTable, code: Optional[str]) -> PlanTable:
    """The table with currency ``code`` (ISO, e.g. "USD"); None keeps the current one.
    Every price in the table is read in this currency (one comparison, one currency)."""
    if not code or code == table.currency_code:
        return table
    return dataclasses.replace(table, currency_symbol=currency_sign(code), currency_code=code)


def set_currency(code: Optional[str]) -> None:
    """Make ``code`` the table's currency and the pages' currency choice."""
    if code in CURRENCY_CODES:
        set_value(CURRENCY_KEY, code)
        set_table(with_currency(get_table(), code))


def chosen_currency() -> str:
    """The currency chosen on the Training page or here (default USD)."""
    code = st.session_state.get(CURRENCY_KEY, kept(CURRENCY_KEY))
    return code if code in CURRENCY_CODES else DEFAULT_CURRENCY


def currency_select(t, container=None) -> str:
    """The currency selector (the Training page's choice, URL name ``currency``); every
    price of the table is read in it.  Returns the ISO code."""
    codes = list(CURRENCY_CODES)
    code = bound_select(t("training.currency"), codes, CURRENCY_KEY, container=container,
                        index=codes.index(DEFAULT_CURRENCY), format_func=currency_label,
                        help=t("plans.currency_help"))
    set_table(with_currency(get_table(), code))
    return code


def read_link(known_devices) -> None:
    """A new ``plans`` link (a shared link, a fresh session) replaces the table; a broken
    one is reported once (LINK_ERROR_KEY) and changes nothing.  Call before drawing."""
    token = url_changed(URL_KEY)
    if token is None:
        return
    try:
        table = decode_plans(token, known_devices)
    except ScenarioError as exc:
        st.session_state[LINK_ERROR_KEY] = str(exc)
        write_url(URL_KEY, None)
        return
    set_table(table)
    select(0)
    if table.currency_code in CURRENCY_CODES:
        set_value(CURRENCY_KEY, table.currency_code)            # the link's currency wins


def write_link() -> None:
    """Put the table in the URL (left out when it is the example table or too long for a
    link: TOO_LONG_KEY then holds the token's length)."""
    table = get_table()
    st.session_state.pop(TOO_LONG_KEY, None)
    if _same_plans(table, default_table()):
        write_url(URL_KEY, None)
        return
    text = encode_plans(table)
    if len(text) > MAX_URL_TOKEN_CHARS:
        st.session_state[TOO_LONG_KEY] = len(text)
        write_url(URL_KEY, None)
    else:
        write_url(URL_KEY, text)


def _same_plans(a: PlanTable, b: PlanTable) -> bool:
    return a.plans == b.plans and a.baseline == b.baseline


@st.cache_resource(show_spinner=False)
def _published_cached(path: Optional[str]) -> Published:
    return load_published(path)


def published() -> tuple[Optional[Published], Optional[str]]:
    """The cited table of published runs, or (None, message) when the file is broken."""
    try:
        return _published_cached(None), None
    except PublishedFileError as exc:
        return None, str(exc)


@st.cache_resource(show_spinner=False)
def _models_cached(path: Optional[str]):
    return load_models(path)


def models() -> tuple[dict, Optional[str]]:
    """The model catalog (models.toml), or ({}, message) when the file is broken."""
    try:
        return _models_cached(None), None
    except (ModelFileError, ValueError) as exc:
        return {}, str(exc)

