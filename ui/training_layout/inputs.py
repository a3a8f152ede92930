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

from calc.parallel import Network, global_batch_sequences
from calc.training_memory import RECOMPUTE_MODES, SCHEDULES
from ui import live
from ui.training_layout import network
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


@dataclass(frozen=True)
class LayoutSetup:
    """The page's record (ui.live): the run (None while a field is unreadable or the global
    batch is under one sequence), the network (None: the typed one is incomplete), and what
    the batch field's note says (``batch_note``: "tokens", "too_small" or None) with the
    numbers it names."""
    run: LayoutInputs | None
    net: Network | None
    batch_note: str | None = None
    seq: float | None = None
    gbatch: float | None = None
    seqs: int | None = None


def layout_setup(*, net: Network | None, gpus, seq, gbatch, gbatch_unit: str, recompute: str,
                 zero: str, schedule: str, interleave, sp: bool, flash: bool,
                 dropout: bool) -> LayoutSetup:
    """The record from the page's fields (ui.live.record: a full run and a live press build
    it here). A global batch in tokens is whole sequences of ``seq`` (calc.parallel
    .global_batch_sequences); 1F1B with interleave ≥ 2 is calc.parallel's "interleaved"."""
    if None in (gpus, seq, gbatch, interleave):
        return LayoutSetup(None, net)
    seqs = global_batch_sequences(gbatch, gbatch_unit, int(seq))
    note = "tokens" if gbatch_unit == "tokens" else None
    if note and seqs < 1:
        return LayoutSetup(None, net, "too_small", seq, gbatch, seqs)
    if schedule == "1f1b" and interleave > 1:
        schedule = "interleaved"
    run = LayoutInputs(int(gpus), int(seq), seqs, recompute, int(zero), schedule, int(interleave),
                       bool(sp), bool(flash), bool(dropout))
    return LayoutSetup(run, net, note, seq, gbatch, seqs)


def render_batch_note(t, setup: LayoutSetup) -> None:
    """Under the inputs: a batch in tokens as the sequences it makes, or why it makes none."""
    if setup.batch_note == "too_small":
        st.error(t("training_layout.gbatch_too_small", seq=format_quantity(setup.seq)),
                 icon=":material/warning:")
    elif setup.batch_note == "tokens":
        st.caption(t("training_layout.gbatch_tokens_note", tokens=format_quantity(setup.gbatch),
                     seqs=f"{setup.seqs:,}", seq=format_quantity(setup.seq)))


# The sequence slider is a live field (ui.live): moving it reruns it and the results only
# (the batch note is a result part); it returns layout_setup's ``seq``.
@live.field("training_layout", "seq")
def _seq_field(t) -> float | None:
    return quantity_input(t, t("training_layout.seq"), "seq", "4096", kind="count", bounds=COUNT,
                          help=t("training_layout.seq_help"), slider=(128, 1e6))


def render_inputs(t, device):
    """Draw the inputs and the network (in the current container) and build the page's
    record (ui.live.record, read by the result parts); returns the empty container under the
    inputs where the page puts the batch note (a result part: it follows the sequence)."""
    gpus = quantity_input(t, t("training_layout.gpus"), "gpus", "64", kind="count", bounds=COUNT,
                          help=t("training_layout.gpus_help"))
    seq = _seq_field(t)
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
    note_box = st.container()
    net = network.render_network(t, device)
    live.record("training_layout", layout_setup, dict(
        net=net, gpus=gpus, seq=seq, gbatch=gbatch, gbatch_unit=unit, recompute=recompute,
        zero=zero, schedule=schedule, interleave=interleave, sp=sp, flash=flash, dropout=dropout))
    return note_box
