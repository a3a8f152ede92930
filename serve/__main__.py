"""python -m serve: Roofline Lab for a team, N Streamlit workers behind HAProxy.

    python -m serve [--workers N] [--port 8501] [--address 127.0.0.1] [--htpasswd FILE]
                    [--max-upload-mb 25] [--worker-ports P[,P...]] [--stats-port P]
                    [--print-config] [-- more streamlit flags for every worker]

The workers listen on 127.0.0.1 only (ports --port+1 ... unless --worker-ports), with
Streamlit's XSRF protection on and the upload cap given; HAProxy listens on
--address:--port, keeps each browser on its worker (cookie ROOFLINE_WORKER), checks
/_stcore/health every second and sends new sessions to live workers. A worker that dies is
restarted. Ctrl-C (or SIGTERM) stops all of it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from serve.proxy import HtpasswdError
from serve.supervisor import ServeOptions, Supervisor


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _ports(text: str) -> tuple[int, ...]:
    try:
        ports = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"ports are numbers separated by commas, got {text!r}")
    if not ports or any(not 1 <= p <= 65535 for p in ports):
        raise argparse.ArgumentTypeError(f"ports are 1-65535, got {text!r}")
    return ports


def parse_args(argv: list[str] | None = None) -> tuple[ServeOptions, bool]:
    """(options, --print-config) from the command line."""
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog="python -m serve", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=_cores(),
                    help="Streamlit processes (default: one per core, here %(default)s)")
    ap.add_argument("--port", type=int, default=8501, help="the proxy's port (default %(default)s)")
    ap.add_argument("--address", default="127.0.0.1",
                    help="where the proxy listens (default %(default)s: this machine only; 0.0.0.0 for the network)")
    ap.add_argument("--htpasswd", type=Path, default=None,
                    help="HTTP basic auth at the proxy: an htpasswd file with bcrypt hashes (htpasswd -B -c FILE NAME)")
    ap.add_argument("--max-upload-mb", type=int, default=25,
                    help="largest upload in MB (kernel CSVs, profiler traces; default %(default)s)")
    ap.add_argument("--worker-ports", type=_ports, default=(),
                    help="the workers' ports on 127.0.0.1: one (the first of N consecutive) or N, comma-separated "
                         "(default: --port+1 ...)")
    ap.add_argument("--stats-port", type=int, default=None,
                    help="HAProxy's stats page (worker UP / DOWN) on 127.0.0.1:PORT (default: none)")
    ap.add_argument("--print-config", action="store_true",
                    help="print the HAProxy configuration that would run, and exit")
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error("--workers: at least 1")
    if args.max_upload_mb < 1:
        ap.error("--max-upload-mb: at least 1")
    opts = ServeOptions(workers=args.workers, port=args.port, address=args.address,
                        worker_ports=args.worker_ports, htpasswd=args.htpasswd,
                        max_upload_mb=args.max_upload_mb, stats_port=args.stats_port,
                        streamlit_args=tuple(extra))
    try:
        opts.worker_list()
    except ValueError as exc:
        ap.error(str(exc))
    return opts, args.print_config


def main(argv: list[str] | None = None) -> int:
    opts, print_config = parse_args(argv)
    try:
        if print_config:
            sys.stdout.write(opts.config())
            return 0
        return Supervisor(opts).run()
    except (HtpasswdError, RuntimeError) as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
