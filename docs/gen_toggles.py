"""Generate the preset and toggle tables of docs/rules.md from the toggle table.

    python docs/gen_toggles.py            # print both tables
    python docs/gen_toggles.py --write    # rewrite them in docs/rules.md between their markers
    python docs/gen_toggles.py --check    # exit 1 if docs/rules.md is out of date

`tests/project/test_docs.py` runs the same check.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (ROOT / "docs" / "rules.md",)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def presets_table() -> str:
    """Markdown table: preset, seed files, description."""
    lines = ["| preset | seed files | description |", "|---|---|---|"]
    for preset in PRESETS.values():
        seeds = ", ".join(f"`{s}`" for s in preset.seeds)
        lines.append(f"| `{preset.name}` | {seeds} | {_cell(preset.description)} |")
    return "\n".join(lines)


def toggles_table() -> str:
    """Markdown table: toggle, allowed values, value in each preset, seeds, description.

    Seeds are the numbers of the seed files the toggle's values come from.
    """
    rules = {name: Rules.preset(name) for name in PRESETS}
    header = ["toggle", "values", *(f"`{name}`" for name in PRESETS), "seeds", "description"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, toggle in TOGGLES.items():
        values = [_cell(format_value(getattr(r, name))) or "-" for r in rules.values()]
        seeds = ", ".join(sorted(seed.split("_")[0] for seed in toggle.seeds)) or "-"
        cells = [f"`{name}`", _cell(toggle.allowed()), *values, seeds, _cell(toggle.description)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


SECTIONS = {"presets": presets_table, "toggles": toggles_table}


def _markers(section: str) -> tuple[str, str]:
    return (
        f"<!-- BEGIN generated {section}: python docs/gen_toggles.py --write -->",
        f"<!-- END generated {section} -->",
    )


def render(text: str) -> str:
    """`text` (a document) with every generated section replaced by its current table."""
    for section, make in SECTIONS.items():
        begin, end = _markers(section)
        pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.DOTALL)
        if not pattern.search(text):
            raise SystemExit(f"a document lacks the markers of the {section} table: {begin}")
        text = pattern.sub(lambda _m, b=begin, e=end, m=make: f"{b}\n{m()}\n{e}", text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the tables in place")
    mode.add_argument("--check", action="store_true", help="fail if a document is out of date")
    args = parser.parse_args(argv)
    if not (args.write or args.check):
        print(presets_table() + "\n\n" + toggles_table())
        return 0
    stale = []
    for path in DOCUMENTS:
        current = path.read_text()
        wanted = render(current)
        if args.write:
            path.write_text(wanted)
        elif wanted != current:
            stale.append(path.relative_to(ROOT).as_posix())
    if stale:
        print(f"tables out of date in {', '.join(stale)}: run python docs/gen_toggles.py --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
