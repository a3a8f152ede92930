"""Run a measurement from the page: GPU status, quick / GPU options, Start, a progress bar
per benchmark, Cancel; the server-wide lock (one measurement at a time); load a saved file.

Cancel: the benchmark runs inside this script run and updates its progress bars between
samples; a click on Cancel makes Streamlit stop the run at the next update (its
RerunException passes through measure/, whose lock is released in a `finally`), and the
button's callback leaves a flag that the next run shows.
"""
from __future__ import annotations

import streamlit as st

from calc.hardware import HardwareFileError
from measure import gpu, lock
from measure.device import to_toml
from measure.run import plan, run
from ui.frame import PageContext
from ui.measure import state
from ui.state import bound
from ui.widgets import uploader_note


def _bench_label(t, bench: str) -> str:
    return t(f"measure.bench.{bench}")


def render_gpu_status(t) -> gpu.GpuStatus:
    status = gpu.gpu_status()
    if status.available:
        st.success(t("measure.gpu.available", backend=status.backend.upper(),
                     torch=status.torch_version), icon=":material/memory:")
    elif status.reason == "no_torch":
        st.info(t("measure.gpu.no_torch"), icon=":material/info:")
    else:
        st.info(t("measure.gpu.no_device", torch=status.torch_version), icon=":material/info:")
    return status


def busy_message(t, holder: lock.Holder) -> str:
    elapsed = holder.elapsed_s()
    left = max(0.0, holder.expected_s - elapsed)  # not a formula: the wall clock's countdown
    return t("measure.busy", what=t(f"measure.what.{holder.what}"), owner=holder.owner,
             elapsed=f"{elapsed:.0f}", left=f"{left:.0f}")


def _cancel() -> None:
    st.session_state[state.CANCELLED] = True


def render_run_panel(ctx: PageContext) -> None:
    """The run controls; stores a finished measurement in the session (ui.measure.state)."""
    t = ctx.t
    st.subheader(t("measure.run_heading"))
    status = render_gpu_status(t)
    c1, c2 = st.columns(2)
    quick = bool(bound(c1.checkbox, t("measure.quick"), key="m_quick", value=True,
                       help=t("measure.quick_help")))
    use_gpu = status.available and bool(bound(c2.checkbox, t("measure.use_gpu"), key="m_gpu",
                                              value=True, help=t("measure.use_gpu_help")))
    benches = plan(quick, use_gpu)
    expected = sum(b.budget_s for b in benches)
    st.caption(t("measure.plan", n=len(benches), seconds=f"{expected:.0f}",
                 limit="10" if quick else "30"))

    holder = lock.holder()
    flash = st.session_state.pop(state.FLASH, None)
    if flash:
        st.success(flash, icon=":material/check_circle:")
    if st.session_state.pop(state.CANCELLED, False):
        st.warning(t("measure.cancelled"), icon=":material/cancel:")
    if holder is not None and holder.owner != state.owner():
        st.warning(busy_message(t, holder), icon=":material/hourglass_top:")
        st.button(t("measure.check_again"), key="measure_recheck", help=t("measure.check_again_help"))
        return
    start = st.button(t("measure.start"), key="measure_start", type="primary",
                      help=t("measure.start_help"), icon=":material/play_arrow:")
    if start:
        _run(t, quick, use_gpu, status, benches, expected)
    _render_load(t)


def _run(t, quick, use_gpu, status, benches, expected) -> None:
    st.button(t("measure.cancel"), key="measure_cancel", on_click=_cancel,
              help=t("measure.cancel_help"), icon=":material/stop:")
    bars = {b.id: st.progress(0.0, text=f"{_bench_label(t, b.id)}: {t('measure.waiting')}")
            for b in benches}

    def progress(bench: str, frac: float, text: str) -> None:
        bar = bars.get(bench)
        if bar is not None:
            bar.progress(min(1.0, max(0.0, frac)), text=f"{_bench_label(t, bench)}: {text}")

    try:
        # Other users are told the bound (10 s / 30 s), not the budget: warm-up comes on top.
        with lock.exclusive(state.owner(), "benchmark", 10.0 if quick else 30.0):
            m = run(quick, use_gpu=use_gpu, progress=progress, status=status)
    except lock.Busy as busy:
        st.warning(busy_message(t, busy.holder) if busy.holder else t("measure.busy_short"),
                   icon=":material/hourglass_top:")
        return
    for bench, bar in bars.items():
        bar.progress(1.0, text=f"{_bench_label(t, bench)}: {t('measure.done')}")
    ids = state.store_measurement(m, to_toml(m))
    names = ", ".join(state.session_devices()[i].name for i in ids)
    # Rerun so that the sidebar (drawn before this run measured) lists the new device.
    st.session_state[state.FLASH] = t("measure.finished", seconds=f"{m.seconds:.1f}", devices=names)
    st.rerun()


def _render_load(t) -> None:
    with st.expander(t("measure.load_heading")):
        up = st.file_uploader(t("measure.load"), type=["toml"], key="measure_upload",
                              help=t("measure.load_help"))
        uploader_note(t, ["toml"])
        if up is None:
            return
        try:
            text = up.getvalue().decode("utf-8")
            devices = state.load_toml_text(text, up.name)
        except UnicodeDecodeError:
            st.error(t("measure.load_not_utf8", name=up.name), icon=":material/error:")
            return
        except HardwareFileError as exc:
            st.error(t("measure.load_error", message=str(exc)), icon=":material/error:")
            return
        ids = state.add_devices(devices)
        if not ids:
            st.warning(t("measure.load_none", name=up.name), icon=":material/warning:")
        else:
            st.success(t("measure.load_ok", n=len(ids), name=up.name), icon=":material/check_circle:")
