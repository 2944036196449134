"""What commands print beside the analyses: one game's final ranking, the cells'
short labels, and toggle values spelled the way `--set` takes them back.

One spelling for every table and label, so a value read off a page can be pasted
into a command line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.rules.errors import LudosimError
from ludosim.rules.model import TOGGLES, Rules, format_value, parse_value

EMPTY_SET = "{}"  # how tables and labels write an empty set; `--set safe={}` reads it back


def value_text(value: Any, name: str | None = None) -> str:
    """A toggle value, as a cells table holds it, spelled the way `--set` takes it back.

    Booleans are `true`/`false`, lists comma separated, an empty set `{}`. With `name`
    a toggle, the value is first read as that toggle's value, so recorded strings such
    as `"True"` or `""` are spelled the same as the Python values.
    """
    value = value.item() if isinstance(value, np.generic) else value
    if name in TOGGLES:
        try:
            value = parse_value(name, value)
        except (LudosimError, TypeError, ValueError):
            pass  # a value the rules no longer accept is shown as recorded
    if isinstance(value, str):
        text = {"True": "true", "False": "false"}.get(value, value)
    elif isinstance(value, float) and math.isnan(value):
        text = ""
    else:
        text = format_value(tuple(value) if isinstance(value, list) else value)
    return text if text not in ("", "()") else EMPTY_SET


def ranking(rules: Rules, result: Any, policies: Sequence[str] | None = None) -> pd.DataFrame:
    """Final ranking of one reference game (a `GameResult`), best place first.

    Columns: place, seat, position (its turn-order position `(seat - first) mod n`,
    0 = moved first), pieces home (pieces at the goal), points (megajogos scoring
    only), policy (when `policies` is given).
    """
    n = rules.players
    rows = []
    for seat in sorted(range(n), key=lambda s: result.places[s]):
        row = {
            "place": int(result.places[seat]),
            "seat": seat,
            "position": (seat - result.first) % n,
            "pieces home": sum(p == rules.goal for p in result.final[seat]),
        }
        if result.points:
            row["points"] = int(result.points[seat])
        if policies:
            row["policy"] = policies[seat]
        rows.append(row)
    return pd.DataFrame(rows)


def describe_cells(cells: pd.DataFrame) -> dict[Hashable, str]:
    """cell id -> a short label: its name, or the id when the table has no names.

    Values in names are spelled as the command line takes them (`cli_spelling`).
    """
    names = cells["name"] if "name" in cells.columns else cells["cell"]
    return {
        cell: cli_spelling(name)
        for cell, name in zip(cells["cell"].astype(str), names.astype(str), strict=True)
    }


def cli_spelling(text: str) -> str:
    """`name=value` pairs of a label with values as `--set` takes them: `true`, `{}`."""
    text = re.sub(r"=(True|False)\b", lambda m: "=" + m.group(1).lower(), text)
    return re.sub(r"=(?=\s|$)", "=" + EMPTY_SET, text)
