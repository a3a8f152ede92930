"""Starting and stopping Streamlit servers: the ONE way this repository does it (the team
server's workers, the browser tests' server, the benchmarks' servers).

A server is `python -m streamlit run SCRIPT` headless on ADDRESS:PORT (127.0.0.1 unless
told), without the file watcher, in its own process group (so Ctrl-C in a terminal reaches
the supervisor, which stops it in order, and `stop` ends it with whatever it started), and
on Linux with a parent-death signal (a supervisor killed outright takes its workers along).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port(address: str = "127.0.0.1") -> int:
    """A port nobody listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def port_in_use(port: int, address: str = "127.0.0.1") -> bool:
    """True when something listens on PORT (SO_REUSEADDR, as the servers bind: connections
    of a dead server still in TIME_WAIT do not count)."""
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((address, port))
        except OSError:
            return True
    return False


def streamlit_command(script: str, port: int, address: str = "127.0.0.1",
                      extra: list[str] | None = None) -> list[str]:
    """The command line of one headless Streamlit server (extra: more `--section.option
    value` flags, which win over the defaults here)."""
    return [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            "--server.runOnSave", "false", "--server.address", address,
            "--server.port", str(port)] + list(extra or [])


def _die_with_parent() -> None:          # runs in the child between fork and exec
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def spawn(cmd: list[str], *, env: dict | None = None, stdout=None, cwd: Path = ROOT,
          die_with_parent: bool = False) -> subprocess.Popen:
    """Start CMD in its own process group (stdout and stderr together to STDOUT: a file,
    subprocess.PIPE or DEVNULL by default)."""
    return subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL if stdout is None else stdout,
                            stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
                            start_new_session=True,
                            preexec_fn=_die_with_parent if die_with_parent and sys.platform == "linux" else None)


def healthy(base: str, timeout: float = 2.0) -> bool:
    """True when GET BASE/_stcore/health answers 200."""
    try:
        with urllib.request.urlopen(base + "/_stcore/health", timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def wait_healthy(proc: subprocess.Popen, base: str, timeout: float, what: str) -> None:
    """Wait until BASE is healthy; raise RuntimeError (and stop PROC) if it exits or times out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what}: exited with code {proc.returncode}")
        if healthy(base):
            return
        time.sleep(0.25)
    stop(proc)
    raise RuntimeError(f"{what}: not healthy within {timeout:.0f} s")


def start_streamlit(script: str = "app.py", port: int | None = None, *, address: str = "127.0.0.1",
                    env: dict | None = None, log_path: Path | None = None,
                    extra: list[str] | None = None, timeout: float = 90.0) -> tuple[subprocess.Popen, str]:
    """Start a Streamlit server for SCRIPT (relative to the repository root) on a free port
    (or PORT, which must be free: never measure or test someone else's server); return
    (process, base URL) once /_stcore/health answers."""
    port = port or free_port(address)
    if port_in_use(port, address):
        raise RuntimeError(f"port {port} is in use; choose another port (or none: a free port)")
    log = open(log_path, "wb") if log_path else None
    try:
        proc = spawn(streamlit_command(script, port, address, extra), env=env, stdout=log)
    finally:
        if log:
            log.close()                  # the child holds its own descriptor
    host = f"[{address}]" if ":" in address else address
    base = f"http://{host}:{port}"
    wait_healthy(proc, base, timeout, f"streamlit run {script} (port {port}; log: {log_path})")
    return proc, base


def stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Stop a process started by `spawn` and everything in its process group: SIGTERM,
    then SIGKILL after GRACE seconds."""
    stop_all([proc], grace)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def stop_all(procs: list[subprocess.Popen], grace: float = 10.0) -> None:
    """Stop processes started by `spawn`, each with its process group: SIGTERM to all at
    once, then SIGKILL to whatever is still running GRACE seconds later. One grace period
    for all of them, not one each: stopping them one after the other gave a team server
    of two workers and HAProxy up to 3 × GRACE to stop (a Streamlit worker can take its
    whole grace closing its connections)."""
    running = [p for p in procs if p.poll() is None]
    for p in running:
        _signal_group(p, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in running:
        try:
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for p in running:
        if p.poll() is None:
            _signal_group(p, signal.SIGKILL)
    for p in running:
        p.wait(timeout=grace)
