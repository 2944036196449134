"""A spec dict (`SweepSpec.to_dict`, a manifest's `spec`) written back as a sweep file
or as the `ludosim sweep` command line that plays the same cells.

Kept apart from the spec itself: it reads plain dicts, so a results folder's manifest
can be shown as a command without rebuilding its spec.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ludosim.rules import tomlio
from ludosim.rules.options import RuleSet
from ludosim.sweep.precision import (
    DEFAULT_MAX_GAMES,
    DEFAULT_PILOT,
)
from ludosim.sweep.specvalues import DEFAULT_CHUNK_SIZE


def spec_toml(spec: Mapping[str, Any]) -> str:
    """A spec dict (`SweepSpec.to_dict`, a manifest's `spec`) as sweep-file text.

    Unset values and empty tables are left out; variants become `[variants.NAME]`
    tables. `ludosim sweep FILE` plays the same cells.
    """
    data: dict[str, Any] = {}
    for key, item in spec.items():
        if key == "variants":
            data[key] = {
                str(v["name"]): {
                    k: x for k, x in v.items() if k != "name" and x is not None and x != {}
                }
                for v in item or []
            }
        elif item is not None and item != {}:
            data[key] = item
    if data.get("precision") is not None:
        # A target replaces the fixed size: a sweep file may not give both.
        data.pop("games", None)
    if not data.get("variants"):
        data.pop("variants", None)
    return tomlio.dumps(data)


def spec_command(spec: Mapping[str, Any], out: str | Path | None) -> str | None:
    """The `ludosim sweep` command line of a spec dict, or None if options cannot say it.

    Variants with their own policies, and `flow`, exist only in sweep files
    (`spec_toml`); a variant's own changes are written in its rule-set text,
    `NAME=PRESET+T=V`. With `out=None` the line ends before `--out` (a manifest
    records it so: the folder is wherever the manifest lies).
    """
    if spec.get("flow"):
        return None
    words = ["ludosim", "sweep"]
    if spec.get("preset"):
        words += ["--preset", str(spec["preset"])]
    for variant in spec.get("variants") or []:
        if variant.get("policies"):
            return None
        start = RuleSet.of(
            variant.get("preset") or spec["preset"], variant.get("set") or {}, variant["name"]
        )
        # Always named: a variant named by its preset alone reads back with that name.
        words += [
            "--variant",
            f"{start.name}={start.preset}" + "".join(f"+{s}" for s in start.sets),
        ]
    for key, value in (spec.get("set") or {}).items():
        words += ["--set", f"{key}={_option_text(value)}"]
    for key, values in (spec.get("vary") or {}).items():
        words += ["--vary", f"{key}=" + ",".join(_vary_text(v) for v in values)]
    if spec.get("mode", "grid") != "grid":
        words += ["--mode", str(spec["mode"])]
    policies = spec.get("policies", "random")
    if policies != "random":
        words += ["--policy", _option_text(policies)]
    if spec.get("precision") is not None:
        words += ["--precision", str(spec["precision"])]
        if spec.get("pilot", DEFAULT_PILOT) != DEFAULT_PILOT:
            words += ["--pilot", str(spec["pilot"])]
        if spec.get("max_games", DEFAULT_MAX_GAMES) != DEFAULT_MAX_GAMES:
            words += ["--max-games", str(spec["max_games"])]
    else:
        words += ["--games", str(spec["games"])]
    words += ["--seed", str(spec["seed"])]
    if spec.get("chunk_size", DEFAULT_CHUNK_SIZE) != DEFAULT_CHUNK_SIZE:
        words += ["--chunk-size", str(spec["chunk_size"])]
    if spec.get("summary_only"):
        words.append("--summary-only")
    if out is not None:
        words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words)


def _option_text(value: Any) -> str:
    """A value as `--set`/`--policy` text: lists with commas, booleans lower case."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _vary_text(value: Any) -> str:
    # A value with commas of its own is bracketed, as `--vary` reads it.
    text = _option_text(value)
    return f"[{text}]" if isinstance(value, (list, tuple)) else text
