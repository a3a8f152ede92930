"""The Decode page's one call into calc: the page's inputs and the sidebar's device turned
into :func:`calc.inference.decode_report` (every number the sections show).  Tests call
:func:`decode_answer` to get exactly what the page shows (the one-answer grid)."""
from __future__ import annotations

from calc.inference import DecodeReport, decode_report, link_bw_one_way
from ui.decode.inputs import DecodeInputs
from ui.figures.decode import curve_batches


def device_numbers(ctx, inputs: DecodeInputs) -> dict:
    """decode_step's device keywords for the sidebar's device: one GPU's peak, bandwidth,
    memory (None for a custom device without one) and, with the all-reduce switched on,
    its one-way link bandwidth."""
    dev = ctx.device
    link = link_bw_one_way(dev.interconnect_bytes_per_s) if dev is not None and inputs.tp_comm \
        else None
    return dict(peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw,
                memory_bytes=dev.memory_bytes if dev is not None else None, tp=inputs.tp,
                bytes_per_param=inputs.bytes_per_param,
                kv_bytes_per_elem=inputs.kv_bytes_per_elem, link_bw=link)


def decode_answer(ctx, inputs: DecodeInputs) -> DecodeReport:
    """Everything the page shows, from calc.inference (inputs.ok must be True)."""
    return decode_report(inputs.arch, float(inputs.batch), inputs.context,
                         curve_batches=curve_batches(), prompt_len=inputs.prompt,
                         **device_numbers(ctx, inputs))
