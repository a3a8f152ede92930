"""The reverse proxy in front of the workers: HAProxy's configuration, filled in from the
template kept in the repository (deploy/haproxy.cfg.template), and the htpasswd file of the
optional basic auth.

HAProxy rather than nginx: it checks the workers actively (`option httpchk GET
/_stcore/health` every second, so a dead worker leaves the rotation within ~2 s even with no
traffic) and keeps a browser on its worker with a cookie it inserts itself, websockets
included; open-source nginx only notices a dead worker when a request to it fails and has no
cookie stickiness (only ip_hash, which puts a whole office behind one NAT on one worker).
"""
from __future__ import annotations

import re
import shutil
import string
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "haproxy.cfg.template"

#: crypt(3) hash prefixes glibc's libxcrypt checks (HAProxy's userlist uses crypt(3)):
#: bcrypt (htpasswd -B), SHA-256 / SHA-512 crypt, yescrypt.
CRYPT_PREFIXES = ("$2y$", "$2b$", "$2a$", "$5$", "$6$", "$y$")
_USER = re.compile(r"^[A-Za-z0-9._@-]+$")


class HtpasswdError(ValueError):
    """A line of the htpasswd file HAProxy could not use (the message names file and line)."""


@dataclass(frozen=True)
class Worker:
    """One Streamlit worker as the proxy sees it: a name (w1..wN, also its cookie value)
    and its port on 127.0.0.1."""
    name: str
    port: int


def haproxy_path() -> str | None:
    """The HAProxy binary (Debian's package installs /usr/sbin/haproxy), or None."""
    return shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(p).exists()), None)


def read_htpasswd(path: Path) -> list[tuple[str, str]]:
    """(user, hash) for every line of an htpasswd file (`user:hash`; blank lines and `#`
    comments skipped). Only crypt(3) hashes can be checked by HAProxy: htpasswd's default
    MD5 (`$apr1$`), `{SHA}` and plain text are refused with the line and the fix."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise HtpasswdError(f"{path}: cannot read the htpasswd file ({exc})") from exc
    users: list[tuple[str, str]] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, sep, hashed = line.partition(":")
        where = f"{path}, line {no}"
        if not sep or not user or not hashed:
            raise HtpasswdError(f"{where}: expected 'user:hash', got {line[:40]!r}")
        if not _USER.match(user):
            raise HtpasswdError(f"{where}: user name {user!r} may only contain letters, digits and . _ @ -")
        if not hashed.startswith(CRYPT_PREFIXES) or any(c.isspace() for c in hashed):
            kind = "MD5 ($apr1$, htpasswd's default)" if hashed.startswith("$apr1$") else \
                "SHA-1 ({SHA})" if hashed.startswith("{SHA}") else "not a crypt(3) hash"
            raise HtpasswdError(
                f"{where}: user {user!r}: the password hash is {kind}, which HAProxy cannot check; "
                f"create it with bcrypt: htpasswd -B {path} {user}")
        users.append((user, hashed))
    if not users:
        raise HtpasswdError(f"{path}: no users (create one with: htpasswd -B -c {path} NAME)")
    return users


def _bind(address: str, port: int) -> str:
    return f"{address}:{port}" if ":" not in address else f"ipv6@{address}:{port}"


def render_config(workers: list[Worker], *, address: str = "127.0.0.1", port: int = 8501,
                  users: list[tuple[str, str]] | None = None, stats_port: int | None = None,
                  template: Path = TEMPLATE) -> str:
    """HAProxy's configuration: the template with the bind address, the workers, the
    optional userlist + auth rule and the optional stats page (127.0.0.1 only) filled in."""
    userlist = ""
    auth = ""
    if users:
        userlist = "\nuserlist team\n" + "".join(f"    user {u} password {h}\n" for u, h in users)
        auth = ('    # Basic auth: 401 and a login prompt without valid credentials.\n'
                '    http-request auth realm "Roofline Lab" unless { http_auth(team) }\n'
                '    # The credentials stop at the proxy.\n'
                '    http-request del-header Authorization')
    servers = "\n".join(f"    server {w.name} 127.0.0.1:{w.port} cookie {w.name}" for w in workers)
    stats = ""
    if stats_port:
        stats = ("\n# Worker states (UP / DOWN, sessions) for whoever runs the server; loopback only.\n"
                 f"frontend stats\n    bind 127.0.0.1:{stats_port}\n    stats enable\n"
                 "    stats uri /\n    stats refresh 5s\n")
    return string.Template(Path(template).read_text(encoding="utf-8")).substitute(
        bind=_bind(address, port), userlist=userlist, auth=auth, servers=servers, stats=stats)
