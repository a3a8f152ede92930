"""The team server's pieces without starting it: HAProxy's configuration from the template,
the htpasswd file of the basic auth, the command line, the workers' Streamlit flags.
(The running server, through a real browser: tests/browser/test_browser_team_server.py.)"""
from __future__ import annotations

import os
import json
import re
import signal
import subprocess
import sys
import time

import pytest

from serve.__main__ import parse_args
from serve.proxy import HtpasswdError, TEMPLATE, Worker, haproxy_path, read_htpasswd, render_config
from serve.workers import ROOT, spawn, stop_all

# A bcrypt hash as `htpasswd -B` writes it ($2y$, cost 05, 22 characters of salt, 31 of hash).
BCRYPT = "$2y$05$k/srf2Ue6upnXLQf8vgh1OqSr7dRV2FGlvHCWUc/rkwyhp5Y.v8B6"
WORKERS = [Worker("w1", 8650), Worker("w2", 8651)]


def _lines(cfg: str) -> list[str]:
    return [ln.strip() for ln in cfg.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_config_binds_where_told_and_lists_every_worker_with_its_cookie():
    cfg = _lines(render_config(WORKERS, address="0.0.0.0", port=9000))
    assert "bind 0.0.0.0:9000" in cfg
    assert "server w1 127.0.0.1:8650 cookie w1" in cfg and "server w2 127.0.0.1:8651 cookie w2" in cfg
    # sticky sessions, active health checks on Streamlit's endpoint, new sessions by open connections
    assert "cookie ROOFLINE_WORKER insert indirect nocache httponly" in cfg
    assert "option httpchk GET /_stcore/health" in cfg
    assert "balance leastconn" in cfg
    # no auth and no stats page unless asked for
    assert not any(ln.startswith(("userlist", "http-request auth", "stats")) for ln in cfg)


def test_config_default_binds_loopback_only():
    opts, _ = parse_args([])
    assert opts.address == "127.0.0.1" and opts.port == 8501
    assert "bind 127.0.0.1:8501" in _lines(opts.config())


def test_config_with_users_asks_for_basic_auth_and_drops_the_credentials():
    cfg = _lines(render_config(WORKERS, users=[("alice", BCRYPT)], stats_port=8661))
    assert "userlist team" in cfg and f"user alice password {BCRYPT}" in cfg
    assert 'http-request auth realm "Roofline Lab" unless { http_auth(team) }' in cfg
    assert "http-request del-header Authorization" in cfg
    i = cfg.index("frontend stats")
    assert cfg[i + 1] == "bind 127.0.0.1:8661"        # the stats page is loopback-only


def test_template_fields_are_all_filled():
    assert "${" not in render_config(WORKERS, users=[("a", BCRYPT)], stats_port=1234)
    assert set(re.findall(r"\$\{(\w+)\}", TEMPLATE.read_text())) == {"bind", "userlist", "auth", "servers", "stats"}


@pytest.mark.skipif(haproxy_path() is None, reason="HAProxy not installed (apt-get install haproxy)")
@pytest.mark.parametrize("users", [None, [("alice", BCRYPT), ("bob", "$6$salt$" + "x" * 86)]])
def test_haproxy_accepts_the_generated_config(tmp_path, users):
    path = tmp_path / "haproxy.cfg"
    path.write_text(render_config(WORKERS, users=users, stats_port=8661))
    done = subprocess.run([haproxy_path(), "-c", "-f", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_htpasswd_reads_crypt_hashes_and_skips_comments(tmp_path):
    f = tmp_path / "team"
    f.write_text(f"# the team\nalice:{BCRYPT}\n\nbob:$6$saltsalt$abc\n")
    assert read_htpasswd(f) == [("alice", BCRYPT), ("bob", "$6$saltsalt$abc")]


@pytest.mark.parametrize("line, words", [
    ("alice:$apr1$Qw3rty12$abcdefghijklmnopqrstu/", ["line 2", "alice", "MD5", "htpasswd -B"]),
    ("alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", ["line 2", "SHA-1", "htpasswd -B"]),
    ("alice:plaintext", ["line 2", "not a crypt(3) hash"]),
    ("alice", ["line 2", "user:hash"]),
    ("al ice:" + BCRYPT, ["line 2", "user name"]),
])
def test_htpasswd_refuses_what_haproxy_cannot_check(tmp_path, line, words):
    f = tmp_path / "team"
    f.write_text(f"ok:{BCRYPT}\n{line}\n")
    with pytest.raises(HtpasswdError) as err:
        read_htpasswd(f)
    assert str(f) in str(err.value) and all(w in str(err.value) for w in words), str(err.value)


def test_htpasswd_without_users_or_missing(tmp_path):
    empty = tmp_path / "empty"
    empty.write_text("# nobody\n")
    with pytest.raises(HtpasswdError, match="no users"):
        read_htpasswd(empty)
    with pytest.raises(HtpasswdError, match="cannot read"):
        read_htpasswd(tmp_path / "missing")


def test_default_is_one_worker_per_core_on_consecutive_ports():
    opts, print_config = parse_args(["--port", "9000"])
    assert opts.workers == len(os.sched_getaffinity(0)) and not print_config
    assert [w.port for w in opts.worker_list()] == [9001 + i for i in range(opts.workers)]


def test_worker_ports_one_first_port_or_one_per_worker():
    opts, _ = parse_args(["--workers", "3", "--worker-ports", "8650"])
    assert opts.worker_list() == [Worker("w1", 8650), Worker("w2", 8651), Worker("w3", 8652)]
    opts, _ = parse_args(["--workers", "2", "--worker-ports", "9100,9200"])
    assert [w.port for w in opts.worker_list()] == [9100, 9200]
    with pytest.raises(SystemExit):
        parse_args(["--workers", "2", "--worker-ports", "9100,9200,9300"])
    with pytest.raises(SystemExit):
        parse_args(["--workers", "0"])


def test_worker_command_xsrf_on_upload_cap_loopback_and_extra_flags():
    opts, _ = parse_args(["--workers", "1", "--max-upload-mb", "200", "--address", "0.0.0.0",
                          "--", "--server.enableAgentApi", "true"])
    cmd = opts.worker_command(opts.worker_list()[0])
    flags = dict(zip(cmd, cmd[1:]))           # each flag -> the word after it
    assert flags["--server.enableXsrfProtection"] == "true"
    assert flags["--server.maxUploadSize"] == "200"
    assert flags["--server.address"] == "127.0.0.1"      # workers never on the network: only the proxy
    assert flags["--server.port"] == str(opts.worker_list()[0].port)
    assert flags["--server.enableAgentApi"] == "true"
    assert cmd[cmd.index("run") + 1] == "app.py"


def test_print_config_needs_no_haproxy(capsys):
    from serve.__main__ import main
    assert main(["--workers", "2", "--port", "9000", "--print-config"]) == 0
    out = capsys.readouterr().out
    assert "bind 127.0.0.1:9000" in out and "server w2 127.0.0.1:9002 cookie w2" in out


def test_bad_htpasswd_is_reported_before_anything_starts(tmp_path, capsys):
    from serve.__main__ import main
    f = tmp_path / "team"
    f.write_text("alice:$apr1$x$y\n")
    assert main(["--workers", "1", "--port", "9000", "--htpasswd", str(f)]) == 2
    assert "htpasswd -B" in capsys.readouterr().err


def test_stop_all_gives_one_grace_period_to_all_not_one_each():
    """Three processes that ignore SIGTERM: all are killed once the one grace period is
    over (1.5 s in all; one grace each, as the supervisor's shutdown used to give, takes
    at least 3 × 1.5 = 4.5 s), and one that exits on SIGTERM is not waited for."""
    stubborn = [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                "print('ready', flush=True); time.sleep(60)"]
    polite = [sys.executable, "-c", "print('ready', flush=True); import time; time.sleep(60)"]
    procs = [spawn(cmd, stdout=subprocess.PIPE) for cmd in (stubborn, stubborn, stubborn, polite)]
    for p in procs:                           # each has installed its handler
        assert p.stdout.readline().strip() == b"ready"
    start = time.monotonic()
    stop_all(procs, grace=1.5)
    elapsed = time.monotonic() - start
    assert all(p.poll() is not None for p in procs)
    assert [p.returncode for p in procs] == [-9, -9, -9, -15]
    assert 1.5 <= elapsed < 4.0, elapsed


def _ignoring(*sigs):
    """A child's start: SIGINT and SIGHUP as a terminal gives them (whatever this test run
    inherited, e.g. under nohup), then ``sigs`` ignored."""
    def pre():
        for s in (signal.SIGINT, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)
        for s in sigs:
            signal.signal(s, signal.SIG_IGN)
    return pre


@pytest.mark.parametrize("ignored,installed", [
    ((), [signal.SIGHUP, signal.SIGINT, signal.SIGTERM]),
    # started as `cmd &` from a script: SIGINT arrives ignored, and must stop the server anyway
    ((signal.SIGINT,), [signal.SIGHUP, signal.SIGINT, signal.SIGTERM]),
    # under nohup: a hangup stays ignored
    ((signal.SIGINT, signal.SIGHUP), [signal.SIGINT, signal.SIGTERM]),
])
def test_stop_signals_are_installed_whatever_the_server_inherits(ignored, installed):
    code = ("import json, signal; from serve.supervisor import install_stop_signals; "
            "print(json.dumps([install_stop_signals(lambda *a: None), "
            "signal.getsignal(signal.SIGHUP) is signal.SIG_IGN]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT, preexec_fn=_ignoring(*ignored)).stdout
    got, hup_ignored = json.loads(out)
    assert got == [int(s) for s in installed], out
    assert hup_ignored == (signal.SIGHUP not in installed), out
