"""The team server's supervisor: N Streamlit workers on 127.0.0.1, HAProxy in front of them,
a dead worker restarted, everything stopped on Ctrl-C / SIGTERM.

Output: one `serve: ...` line per event (worker started / ready / exited / restarted, the
proxy's address), each worker's own output prefixed `[w1] `, HAProxy's `[haproxy] ` (its
log says when a worker goes DOWN or UP).
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from serve.proxy import Worker, haproxy_path, read_htpasswd, render_config
from serve.workers import healthy, port_in_use, spawn, stop_all, streamlit_command

#: A worker that dies within this many seconds of its start is restarted after a growing
#: pause (1, 2, 4 ... 30 s), so a worker that cannot start does not spin.
QUICK_DEATH_S = 30.0
MAX_BACKOFF_S = 30.0


def install_stop_signals(handler) -> list[int]:
    """Make SIGTERM and SIGINT (Ctrl-C) call ``handler``, and SIGHUP too unless it was
    ignored when the server started (``nohup``: a hangup must not stop it). SIGINT is
    installed explicitly: a process started in the background of a script (``cmd &``)
    inherits SIGINT ignored, and Python then installs no KeyboardInterrupt for it, so a
    SIGINT would do nothing. Returns the signals installed, as numbers, sorted."""
    sigs = [signal.SIGTERM, signal.SIGINT]
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        sigs.append(signal.SIGHUP)
    for sig in sigs:
        signal.signal(sig, handler)
    return sorted(int(sig) for sig in sigs)


@dataclass
class _Running:
    worker: Worker
    proc: subprocess.Popen | None = None
    started: float = 0.0
    ready: bool = False
    restarts: int = 0
    quick_deaths: int = 0
    restart_at: float | None = None
    readers: list = field(default_factory=list)


@dataclass(frozen=True)
class ServeOptions:
    """What `python -m serve` was asked for (see serve.__main__ for each flag's meaning)."""
    workers: int
    port: int = 8501
    address: str = "127.0.0.1"
    worker_ports: tuple[int, ...] = ()
    htpasswd: Path | None = None
    max_upload_mb: int = 25
    stats_port: int | None = None
    streamlit_args: tuple[str, ...] = ()
    script: str = "app.py"

    def worker_list(self) -> list[Worker]:
        ports = list(self.worker_ports)
        if len(ports) == 1 and self.workers > 1:
            ports = [ports[0] + i for i in range(self.workers)]
        if not ports:
            ports = [self.port + 1 + i for i in range(self.workers)]
        if len(ports) != self.workers:
            raise ValueError(f"--worker-ports: {len(ports)} ports for {self.workers} workers")
        return [Worker(f"w{i + 1}", p) for i, p in enumerate(ports)]

    def config(self) -> str:
        users = read_htpasswd(self.htpasswd) if self.htpasswd else None
        return render_config(self.worker_list(), address=self.address, port=self.port,
                             users=users, stats_port=self.stats_port)

    def worker_command(self, worker: Worker) -> list[str]:
        flags = ["--server.enableXsrfProtection", "true",
                 "--server.maxUploadSize", str(self.max_upload_mb)]
        return streamlit_command(self.script, worker.port, "127.0.0.1", flags + list(self.streamlit_args))


class Supervisor:
    def __init__(self, options: ServeOptions, out=None):
        self.options = options
        self.out = out or sys.stdout
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.workers = [_Running(w) for w in options.worker_list()]
        self.proxy: subprocess.Popen | None = None
        # One cookie secret for all workers (Streamlit signs its cookies with it).
        self._env = {"STREAMLIT_SERVER_COOKIE_SECRET":
                     os.environ.get("STREAMLIT_SERVER_COOKIE_SECRET") or secrets.token_hex(32)}
        self._config_dir: str | None = None

    # ------------------------------------------------------------------ output
    def say(self, msg: str) -> None:
        with self._lock:
            self.out.write(f"serve: {msg}\n")
            self.out.flush()

    def _pump(self, prefix: str, stream) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self._lock:
                self.out.write(f"[{prefix}] {line}\n")
                self.out.flush()
        stream.close()

    def _spawn(self, prefix: str, cmd: list[str]) -> subprocess.Popen:
        proc = spawn(cmd, env=self._env, stdout=subprocess.PIPE, die_with_parent=True)
        threading.Thread(target=self._pump, args=(prefix, proc.stdout), daemon=True).start()
        return proc

    # ------------------------------------------------------------------ workers
    def _start_worker(self, r: _Running) -> None:
        r.proc = self._spawn(r.worker.name, self.options.worker_command(r.worker))
        r.started, r.ready, r.restart_at = time.monotonic(), False, None
        self.say(f"worker {r.worker.name} (pid {r.proc.pid}) starting on 127.0.0.1:{r.worker.port}")

    def _check_workers(self) -> None:
        now = time.monotonic()
        for r in self.workers:
            if r.proc is not None and r.proc.poll() is not None and r.restart_at is None:
                quick = now - r.started < QUICK_DEATH_S
                r.quick_deaths = r.quick_deaths + 1 if quick else 0
                pause = min(MAX_BACKOFF_S, 2.0 ** (r.quick_deaths - 1)) if quick else 0.0
                self.say(f"worker {r.worker.name} (pid {r.proc.pid}) exited with code {r.proc.returncode}; "
                         f"restarting in {pause:.0f} s (the proxy sends its sessions to the other workers)")
                r.restart_at, r.ready = now + pause, False
            if r.restart_at is not None and now >= r.restart_at:
                if port_in_use(r.worker.port):
                    r.restart_at = now + 1.0
                    continue
                r.restarts += 1
                self._start_worker(r)
            elif r.proc is not None and r.proc.poll() is None and not r.ready \
                    and healthy(f"http://127.0.0.1:{r.worker.port}", timeout=1.0):
                r.ready = True
                self.say(f"worker {r.worker.name} (pid {r.proc.pid}) ready")

    # ------------------------------------------------------------------ run
    def start(self, timeout: float = 180.0) -> None:
        """Start the workers, wait until all answer /_stcore/health, then start HAProxy."""
        o = self.options
        binary = haproxy_path()
        if binary is None:
            raise RuntimeError("HAProxy not found (Debian: apt-get install haproxy)")
        config = o.config()                        # errors in --htpasswd before anything starts
        busy = [p for p in [o.port] + [w.port for w in o.worker_list()] if port_in_use(p, "127.0.0.1")]
        if busy:
            raise RuntimeError(f"port(s) in use: {', '.join(map(str, busy))} (choose others)")
        self._config_dir = tempfile.mkdtemp(prefix="roofline-lab-haproxy-")
        cfg = Path(self._config_dir) / "haproxy.cfg"
        cfg.write_text(config, encoding="utf-8")
        check = subprocess.run([binary, "-c", "-q", "-f", str(cfg)], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"HAProxy rejects the configuration {cfg}:\n{check.stdout}{check.stderr}")
        for r in self.workers:
            self._start_worker(r)
        deadline = time.monotonic() + timeout
        while not all(r.ready for r in self.workers):
            if self._stopping.is_set():
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers not healthy within {timeout:.0f} s: "
                                   + ", ".join(r.worker.name for r in self.workers if not r.ready))
            self._check_workers()
            time.sleep(0.25)
        self.proxy = self._spawn("haproxy", [binary, "-db", "-f", str(cfg)])
        host = f"[{o.address}]" if ":" in o.address else o.address
        auth = f", basic auth from {o.htpasswd}" if o.htpasswd else ""
        self.say(f"proxy HAProxy (pid {self.proxy.pid}) on http://{host}:{o.port} in front of "
                 f"{len(self.workers)} worker(s){auth}; Ctrl-C stops all")

    def watch(self) -> int:
        """Restart dead workers until asked to stop; 1 if HAProxy itself exits."""
        while not self._stopping.wait(0.5):
            if self.proxy is not None and self.proxy.poll() is not None:
                self.say(f"HAProxy exited with code {self.proxy.returncode}; stopping")
                return 1
            self._check_workers()
        return 0

    def request_stop(self, *_args) -> None:
        self._stopping.set()

    def shutdown(self) -> None:
        self._stopping.set()
        procs = ([self.proxy] if self.proxy else []) + [r.proc for r in self.workers if r.proc]
        stop_all(procs)                            # all at once, within one grace period
        if self._config_dir:
            for f in Path(self._config_dir).iterdir():
                f.unlink()
            os.rmdir(self._config_dir)
            self._config_dir = None
        self.say("stopped")

    def run(self) -> int:
        """start + watch + shutdown, with SIGTERM / SIGHUP / Ctrl-C stopping everything."""
        install_stop_signals(self.request_stop)
        try:
            self.start()
            return self.watch()
        except KeyboardInterrupt:
            return 0
        finally:
            self.shutdown()
