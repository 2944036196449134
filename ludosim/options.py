"""`--preset NAME` plus repeated `--set TOGGLE=VALUE`: one meaning everywhere.

The command line, sweep files and scripts all turn a preset name and a list of
`TOGGLE=VALUE` items into `Rules` through `rules_from_options`, so a toggle
set on the command line behaves exactly as one set in Python with
`Rules.preset(name).replace(...)`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from ludosim.errors import RulesError
from ludosim.rules import Rules


def parse_sets(sets: Iterable[str]) -> dict[str, str]:
    """`["a=1", "b=x,y"]` -> `{"a": "1", "b": "x,y"}`; values stay text for `Rules` to parse.

    Raises `RulesError` naming the item when it has no `=` or no name, or when
    a toggle is set twice.
    """
    changes: dict[str, str] = {}
    for item in sets:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RulesError(
                f"--set {item!r} is not TOGGLE=VALUE; write e.g. --set pass_opponents=all "
                "(`ludosim rules --preset NAME` lists the toggles)"
            )
        if name in changes:
            raise RulesError(
                f"--set {name} is given twice ({name}={changes[name]} and {item}); give it once"
            )
        changes[name] = value.strip()
    return changes


def rules_from_options(preset: str, sets: Iterable[str] = ()) -> Rules:
    """The rules of `preset` with every `TOGGLE=VALUE` of `sets` applied in one `replace` call.

    Applying them together means combinations are validated once, as a whole
    (`--set players=5 --set sides=6` works in either order), and `die`/`sides`
    move `die_faces`/`entry` along unless those are set too.
    """
    rules = Rules.preset(preset)
    changes = parse_sets(sets)
    return rules.replace(**changes) if changes else rules


@dataclass(frozen=True)
class RuleSet:
    """A preset with `--set` changes, named for tables and pages (`app finish=bounce`)."""

    preset: str
    sets: tuple[str, ...] = ()
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or " ".join([self.preset, *self.sets])

    def rules(self) -> Rules:
        return rules_from_options(self.preset, self.sets)

    def options(self) -> str:
        """The rules as command-line options."""
        return " ".join(["--preset", self.preset, *(f"--set {shlex.quote(s)}" for s in self.sets)])
