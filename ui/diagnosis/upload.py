"""The Trace doctor's upload section: the file uploader (limit stated), a progress bar,
the small-kernel threshold and, for multi-GPU traces, the GPU to diagnose. Returns the
diagnosis to show (the session's last good trace when a new file fails to read)."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from calc.diagnosis import TraceDiagnosis
from calc.units import format_si
from ui import trace_session as S
from ui.state import bound
from ui.widgets import Bounds, quantity_input, uploader_note

UPLOAD_KEY = "diag_upload"
UPLOAD_TYPES = ["json", "gz"]
SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"
"""PyTorch Kineto's ResNet-50 sample (4x V100 DGX Station, num_workers=0): samples/README.md."""


def _open_sample() -> None:
    """Button callback: read the sample trace as if it had been uploaded (source "sample")."""
    S.load_upload(st.session_state, SAMPLE_TRACE.read_bytes(), SAMPLE_TRACE.name, source="sample")


def render_sample_button(t) -> None:
    """Under the empty page: open the shipped sample trace (absent if the file is)."""
    if SAMPLE_TRACE.is_file():
        st.button(t("diagnosis.sample"), on_click=_open_sample, help=t("diagnosis.sample_help"),
                  icon=":material/science:", key="diag_sample")


def upload_limit_mb() -> int:
    """Streamlit's per-file upload limit (server.maxUploadSize, MB)."""
    try:
        return int(st.get_option("server.maxUploadSize"))
    except Exception:  # noqa: BLE001
        return 200


def render_upload(ctx) -> TraceDiagnosis | None:
    t = ctx.t
    limit = upload_limit_mb()
    upload = st.file_uploader(t("diagnosis.uploader"), type=UPLOAD_TYPES, key=UPLOAD_KEY,
                              help=t("diagnosis.uploader_help", limit=limit))
    uploader_note(t, UPLOAD_TYPES)
    st.caption(t("diagnosis.limit", limit=limit))
    session = st.session_state
    if upload is None:
        S.forget_upload(session)
    else:
        data = upload.getvalue()
        sig = S.file_signature(data, upload.name)
        if session.get(S.SIG_KEY) != sig:
            bar = st.progress(0.0, text=t("diagnosis.progress", file=upload.name))

            def progress(fraction: float) -> None:
                bar.progress(min(1.0, max(0.0, float(fraction))),
                             text=t("diagnosis.progress", file=upload.name))

            S.load_upload(session, data, upload.name, progress=progress, signature=sig)
            bar.empty()
    err = S.last_error(session)
    loaded = S.current(session)
    if err is not None:
        framing = t("diagnosis.error_internal" if err.kind == "internal" else "diagnosis.error",
                    file=err.filename)
        st.error(f"{framing}\n\n{err.message}", icon=":material/error:")
        if loaded is not None:
            st.info(t("diagnosis.still_showing", file=loaded.filename), icon=":material/history:")
    if loaded is None:
        return None
    c1, c2 = st.columns(2)
    with c1:
        threshold = quantity_input(t, t("diagnosis.threshold"), "small", "10 µs", unit="s",
                                   kind="time", bounds=Bounds(hi=1.0),
                                   help=t("diagnosis.threshold_help"))
    device = None
    devices = list(loaded.trace.devices)
    with c2:
        if len(devices) > 1:
            device = bound(st.selectbox, t("diagnosis.device"), devices, key="trace_gpu",
                           index=0, help=t("diagnosis.device_help"),
                           format_func=lambda dv: t("diagnosis.device_option", device=dv),
                           is_valid=lambda v: v in devices)
    if threshold is None:
        return None
    try:
        d = S.diagnosis(session, loaded, threshold, device)
    except ValueError as exc:
        st.error(str(exc), icon=":material/error:")
        return None
    # where the trace came from, unless the reader just uploaded it ("roofline" | "sample")
    src = "" if loaded.source == "upload" else t(f"diagnosis.source.{loaded.source}")
    st.caption(t("diagnosis.read_caption", file=loaded.filename,
                 size=format_si(loaded.size_bytes, "B"), events=f"{d.events_read:,}",
                 seconds=f"{loaded.read_seconds:.2f}",
                 schema=t(f"diagnosis.schema.{d.schema or 'kineto'}"),
                 platform=d.platform.upper() or "CUDA",
                 device=d.device_name or t("diagnosis.device_option", device=d.device))
               + (" " + src if src else ""))
    return d
