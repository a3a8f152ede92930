"""ui.timing: one log line per script run (page, kind, duration), only when
ROOFLINE_LAB_TIMING=1. A "script thread" here is a plain thread that runs two "runs"."""
import logging
import threading
import time

from ui import timing


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _script_thread(runs):
    def body():
        for page, sleep_s in runs:
            timing.start_run(page)
            time.sleep(sleep_s)
    th = threading.Thread(target=body)
    th.start()
    th.join()


def _capture(monkeypatch, value, runs):
    monkeypatch.setenv(timing.ENV, value)
    h = _Lines()
    timing.LOGGER.addHandler(h)
    old = timing.LOGGER.level
    timing.LOGGER.setLevel(logging.INFO)
    try:
        _script_thread(runs)
        deadline = time.monotonic() + 5
        while len(h.lines) < len(runs) and value == "1" and time.monotonic() < deadline:
            time.sleep(0.01)      # the watcher logs the last run once the thread has ended
    finally:
        timing.LOGGER.removeHandler(h)
        timing.LOGGER.setLevel(old)
    return h.lines


def test_each_run_is_logged_with_its_page_and_duration(monkeypatch):
    lines = _capture(monkeypatch, "1", [("mfu", 0.05), ("decode", 0.02)])
    assert len(lines) == 2, lines
    first, second = (dict(kv.split("=", 1) for kv in ln.split()[2:]) for ln in lines)
    assert lines[0].startswith(timing.PREFIX)
    assert (first["page"], first["run"], second["page"]) == ("mfu", "full", "decode")
    # the first run ends when the second starts (50 ms of sleep), the second at thread end
    assert 45 <= float(first["ms"]) < 1000 and 15 <= float(second["ms"]) < 1000


def test_off_by_default(monkeypatch):
    assert _capture(monkeypatch, "", [("mfu", 0.0)]) == []
