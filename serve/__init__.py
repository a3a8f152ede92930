"""Roofline Lab for a team: N Streamlit workers behind HAProxy on one port.

    python -m serve --workers 2 --port 8501 [--address 127.0.0.1] [--htpasswd FILE]

`serve.workers` is the one way this repository starts a Streamlit server (the team
server's workers, the browser tests and the benchmarks use it); `serve.proxy` fills in
HAProxy's configuration from deploy/haproxy.cfg.template; `serve.supervisor` runs the
workers and the proxy, restarts a dead worker and stops everything on Ctrl-C.
"""
