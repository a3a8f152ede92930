"""The Training layout page's inputs.

URL names (README, "Share links"): ``gpus`` (the cluster, as on the Training time page),
``seq``, ``gbatch`` and ``gbatch_unit`` (seq / tokens), ``recompute`` (none / selective /
full), ``zero`` (0-3), ``schedule`` (1f1b / zb1p / dualpipe) and ``interleave`` (model chunks per
GPU; 1F1B with interleave ≥ 2 is the interleaved schedule), ``sp`` (sequence parallelism,
true / false), ``flash`` (FlashAttention, true / false) — the names and meanings of the Training time page's memory section —
and ``dropout`` (attention dropout as a kernel of its own, true / false; asked only when
FlashAttention is off).
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from calc.parallel import global_batch_sequences
from calc.training_memory import RECOMPUTE_MODES, SCHEDULES
from ui.widgets import COUNT, bound_checkbox, bound_select, format_quantity, quantity_input

ZERO_OPTIONS = ["0", "1", "2", "3"]
UNITS = ["seq", "tokens"]


@dataclass(frozen=True)
class LayoutInputs:
    gpus: int
    seq_len: int
    global_batch: int
    recompute: str
    zero_stage: int
    schedule: str
    interleave: int
    sequence_parallel: bool
    flash_attention: bool = True
    attention_dropout: bool = False

    def search_kwargs(self) -> dict:
        """training_step's fixed arguments."""
        return {"recompute": self.recompute, "zero_stage": self.zero_stage,
                "schedule": self.schedule, "interleave": self.interleave,
                "sequence_parallel": self.sequence_parallel,
                "flash_attention": self.flash_attention,
                "attention_dropout": self.attention_dropout}


def render_inputs(t) -> LayoutInputs | None:
    """Draw the inputs (in the current container); None after showing why they cannot be used."""
    gpus = quantity_input(t, t("training_layout.gpus"), "gpus", "64", kind="count", bounds=COUNT,
                          help=t("training_layout.gpus_help"))
    seq = quantity_input(t, t("training_layout.seq"), "seq", "4096", kind="count", bounds=COUNT,
                         help=t("training_layout.seq_help"), slider=(128, 1e6))
    c1, c2 = st.columns([3, 2])
    with c1:
        gbatch = quantity_input(t, t("training_layout.gbatch"), "gbatch", "1024", kind="count",
                                bounds=COUNT, help=t("training_layout.gbatch_help"))
    with c2:
        unit = bound_select(t("training_layout.gbatch_unit"), UNITS, "gbatch_unit", index=0,
                            format_func=lambda u: t(f"training_layout.unit.{u}"),
                            help=t("training_layout.gbatch_unit_help"))
    recompute = bound_select(t("training_layout.recompute"), list(RECOMPUTE_MODES), "recompute",
                             index=list(RECOMPUTE_MODES).index("selective"),
                             format_func=lambda m: t(f"training_layout.recompute.{m}"),
                             help=t("training_layout.recompute_help"))
    zero = bound_select(t("training_layout.zero"), ZERO_OPTIONS, "zero", index=1,
                        format_func=lambda z: t(f"training_layout.zero.{z}"),
                        help=t("training_layout.zero_help"))
    schedule = bound_select(t("training_layout.schedule"), list(SCHEDULES), "schedule", index=0,
                            format_func=lambda s: t(f"training_layout.schedule.{s}"),
                            help=t("training_layout.schedule_help"))
    interleave = 1.0
    if schedule == "1f1b":
        interleave = quantity_input(t, t("training_layout.interleave"), "interleave", "1",
                                    kind="count", bounds=COUNT, help=t("training_layout.interleave_help"))
    sp = bound_checkbox(t("training_layout.sp"), "sp", value=True, help=t("training_layout.sp_help"))
    flash = bound_checkbox(t("training_layout.flash"), "flash", value=True,
                           help=t("training_layout.flash_help"))
    dropout = False
    if not flash:
        dropout = bound_checkbox(t("training_layout.dropout"), "dropout", value=False,
                                 help=t("training_layout.dropout_help"))
    if gpus is None or seq is None or gbatch is None or interleave is None:
        return None
    if schedule == "1f1b" and interleave > 1:
        schedule = "interleaved"               # calc.parallel's name for 1F1B with v ≥ 2
    seqs = global_batch_sequences(gbatch, unit, int(seq))
    if unit == "tokens":
        if seqs < 1:
            st.error(t("training_layout.gbatch_too_small", seq=format_quantity(seq)),
                     icon=":material/warning:")
            return None
        st.caption(t("training_layout.gbatch_tokens_note", tokens=format_quantity(gbatch),
                     seqs=f"{seqs:,}", seq=format_quantity(seq)))
    return LayoutInputs(int(gpus), int(seq), seqs, recompute, int(zero), schedule, int(interleave),
                        bool(sp), bool(flash), bool(dropout))
