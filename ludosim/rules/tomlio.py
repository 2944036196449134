"""The project's one TOML writer (reading is `tomllib`): rules, sweep files.

    dumps({"name": "grid", "games": 100, "vary": {"six_limit": [0, 3]}})
    # name = "grid"
    # games = 100
    #
    # [vary]
    # six_limit = [0, 3]

Keys holding a value come first, then one `[table]` per nested mapping (depth first,
dotted names), so the text reads back with `tomllib.loads` to the same data. `None`
values are left out (TOML has no null); a table that holds only tables gets no header
of its own, as TOML allows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def value(item: Any) -> str:
    """One TOML value: booleans lower case, strings quoted, lists and tuples as arrays."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, (int, float)):
        return repr(item)
    if isinstance(item, str):
        # A JSON string is a valid TOML basic string (same escapes, \\uXXXX included).
        return json.dumps(item)
    if isinstance(item, (list, tuple)):
        return "[" + ", ".join(value(v) for v in item) + "]"
    raise TypeError(f"no TOML value for {type(item).__name__}: {item!r}")


def key(name: str) -> str:
    """A bare key when TOML allows one, else a quoted key."""
    bare = name.replace("-", "").replace("_", "")
    return name if bare.isascii() and bare.isalnum() else json.dumps(name)


def dumps(data: Mapping[str, Any]) -> str:
    """TOML text of a mapping of values and nested mappings (tables)."""
    lines = _body(data, ())
    return "\n".join(lines).strip("\n") + "\n" if lines else ""


def _body(data: Mapping[str, Any], path: tuple[str, ...]) -> list[str]:
    lines = [
        f"{key(k)} = {value(v)}"
        for k, v in data.items()
        if v is not None and not isinstance(v, Mapping)
    ]
    for k, table in data.items():
        if isinstance(table, Mapping):
            inner = (*path, key(k))
            body = _body(table, inner)
            # A body opening with a blank line opens with a subtable: no own header needed.
            if not body or body[0] != "":
                body = ["", f"[{'.'.join(inner)}]", *body]
            lines += body
    return lines
