"""Where in a TOML file a ``tomllib`` error happened (private; calc.hardware and calc.models).

tomllib's messages name a line ("... (at line 12, column 3)") or a table declared twice
("Cannot declare ('devices', 'a100') twice"); the loaders turn that into an error naming
the file, the entry (device or model id) and the field.
"""
from __future__ import annotations

import re
from typing import Optional, Pattern

_DUP = re.compile(r"Cannot declare \(([^)]*)\) twice")
_AT = re.compile(r"at line (\d+)")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\.\"']+)\s*=")


def locate_toml_error(text: str, msg: str, table: str, header: Pattern[str]
                      ) -> tuple[Optional[str], Optional[str], Optional[str], str]:
    """(duplicate id, entry id, field, problem) for tomllib's message ``msg`` on ``text``.

    ``table`` is the top-level table of the entries ("devices", "models") and ``header``
    a regex whose group 1 is the entry id of a ``[table.<id>]`` header line. When an entry
    is declared twice, the first item is its id (the others None); otherwise the entry and
    the field on the error's line, where they can be found, and the problem in words.
    """
    m = _DUP.search(msg)
    if m:
        parts = [x.strip().strip("'\"") for x in m.group(1).split(",") if x.strip()]
        if len(parts) == 2 and parts[0] == table:
            return parts[1], None, None, "duplicate id"
    entry = fieldname = None
    at = _AT.search(msg)
    if at:
        lines = text.splitlines()
        n = int(at.group(1))
        for line in reversed(lines[:n]):
            h = header.match(line)
            if h:
                entry = h.group(1).strip("'\"")
                break
        if 0 < n <= len(lines):
            k = _KEY.match(lines[n - 1])
            if k:
                fieldname = k.group(1).strip("'\"")
    problem = "duplicate field" if "overwrite" in msg else "is not valid TOML"
    return None, entry, fieldname, problem
