"""What the Measure page keeps for a session: the last measurement, the measured devices
(also added to the sidebar's device list through ui.frame.SESSION_DEVICES), the live
kernel results, and a short owner name for the server-wide measurement lock."""
from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import Optional

import streamlit as st

from calc.hardware import Accelerator, HardwareFileError, load_hardware
from ui.frame import SESSION_DEVICES

RESULT = "measure.result"        # measure.run.Measurement of the last run
TOML = "measure.toml"            # its hardware.toml text
LIVE = "measure.live"            # list[measure.kernels.LiveResult]
OWNER = "measure.owner"
CANCELLED = "measure.cancelled"
FLASH = "measure.flash"          # the "measured in N s" message shown after the rerun


def owner() -> str:
    """'session 3f9a1c': who holds the lock, as other users see it."""
    if OWNER not in st.session_state:
        st.session_state[OWNER] = f"session {secrets.token_hex(3)}"
    return st.session_state[OWNER]


def measurement():
    return st.session_state.get(RESULT)


def session_devices() -> dict[str, Accelerator]:
    return st.session_state.setdefault(SESSION_DEVICES, {})


def measured_devices() -> dict[str, Accelerator]:
    """The session's measured devices (runs and loaded files), newest last."""
    return {k: d for k, d in session_devices().items() if d.measured}


def load_toml_text(text: str, name: str) -> dict[str, Accelerator]:
    """Devices from hardware.toml-format text, through calc.hardware.load_hardware.

    Raises HardwareFileError whose message names `name` (not the temporary file).
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "measured.toml"
        path.write_text(text, encoding="utf-8")
        try:
            return load_hardware(path)
        except HardwareFileError as exc:
            raise HardwareFileError(str(exc).replace(str(path), name)) from None


def store_measurement(m, toml_text: str) -> list[str]:
    """Keep a finished run; add its devices to the session's device list. Returns their ids."""
    devices = load_toml_text(toml_text, "measured.toml")
    st.session_state[RESULT] = m
    st.session_state[TOML] = toml_text
    st.session_state.pop(LIVE, None)
    session_devices().update(devices)
    return list(devices)


def add_devices(devices: dict[str, Accelerator]) -> list[str]:
    """Add loaded measured devices to the session (datasheet devices in the file are skipped)."""
    measured = {k: d for k, d in devices.items() if d.measured}
    session_devices().update(measured)
    return list(measured)


def live_results() -> Optional[list]:
    return st.session_state.get(LIVE)
