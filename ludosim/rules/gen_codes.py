"""Generate `ludosim/engine/codes.py`, the kernel's named choice codes, from the toggle table.

    python -m ludosim.rules.gen_codes            # print the module
    python -m ludosim.rules.gen_codes --write    # rewrite ludosim/engine/codes.py
    python -m ludosim.rules.gen_codes --check    # exit 1 if it is out of date

Every value of a `choice` toggle gets a plain module-level constant
`<TOGGLE>_<VALUE>` (`rules.toggles.choice_constant`) holding its kernel code, so
that the names can be found by grep and by editors, and numba freezes them
as constants. `tests/rules/test_toggles.py` runs the same check as `--check`.

The generator lives in the rules layer, outside `ludosim.engine`, on purpose: importing the
engine imports the generated module, so a kernel that already reads a new
value's constant could not be imported to generate it.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from ludosim.rules.toggles import TOGGLES, choice_constant

TARGET = Path(__file__).resolve().parent.parent / "engine" / "codes.py"

HEADER = '''"""Kernel codes of the choice toggles' values: `lay[R.<TOGGLE>]` holds one of these.

Generated from the toggle table (`ludosim.rules.toggles.TOGGLES`) by
`python -m ludosim.rules.gen_codes --write`; do not edit it by hand.
`tests/rules/test_toggles.py` fails when it is out of date.
"""
'''


def render() -> str:
    """The text of `ludosim/engine/codes.py` for the current toggle table."""
    blocks = [HEADER]
    for name, toggle in TOGGLES.items():
        if toggle.kind != "choice":
            continue
        comment = textwrap.wrap(f"{name}: {toggle.description}", width=98)
        lines = [f"# {line}" for line in comment]
        lines += [
            f"{choice_constant(name, value)} = {code}"
            for value, code in zip(toggle.choices, toggle.codes, strict=True)
        ]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite ludosim/engine/codes.py")
    mode.add_argument("--check", action="store_true", help="fail if it is out of date")
    args = parser.parse_args(argv)
    wanted = render()
    if args.write:
        TARGET.write_text(wanted)
    elif args.check:
        if not TARGET.exists() or TARGET.read_text() != wanted:
            print(
                "ludosim/engine/codes.py is out of date: run "
                "python -m ludosim.rules.gen_codes --write"
            )
            return 1
    else:
        print(wanted, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
