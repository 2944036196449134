"""Rule sets as text: `--preset NAME` plus `--set TOGGLE=VALUE`, and `PRESET+TOGGLE=VALUE`.

The command line, sweep files, study files and scripts all turn a preset name and
a list of `TOGGLE=VALUE` items into `Rules` through `rules_from_options`, so a
toggle set on the command line behaves exactly as one set in Python with
`Rules.preset(name).replace(...)`.

A `RuleSet` is such a preset with its changes and a name. Where one argument
names a whole rule set (`ludosim compare`, `--rule-set`, `--variant`, a sweep
file's `variants`, a study file's `rule_set`), it is written in one grammar,
read by `RuleSet.parse` alone:

    [NAME=]PRESET[+TOGGLE=VALUE...]      app, app+finish=bounce, bounce=app+finish=bounce

Toggle values never hold `+`, so the items split on it; a value may hold commas
(`app+safe=starts,stars`).

A grid axis is one toggle and its values, `TOGGLE=V1,V2,...` (`--vary`, in a sweep
and in a study alike; `parse_vary`); a value holding commas itself goes in
brackets: `safe=[],[starts,stars]`. `study_rule_sets` turns a study's options into
its rule sets: each preset, the grid of `--vary` on the first, then each
`--rule-set` as written.
"""

from __future__ import annotations

import itertools
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ludosim.rules.errors import RulesError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value
from ludosim.rules.policies import join_weight_items

POLICIES_AXIS = "policies"  # a sweep may vary the seats' policies like a toggle

GRAMMAR = "[NAME=]PRESET[+TOGGLE=VALUE...], e.g. app+finish=bounce"

# Toggles that follow others in `Rules.replace` unless given in the same call.
_FOLLOWERS = {"die_faces": ("die",), "entry": ("sides", "arm_length")}


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


def set_text(name: str, value: Any) -> str:
    """One change as `--set` text, `TOGGLE=VALUE`, from a value of any source (TOML, Python)."""
    if isinstance(value, list):
        value = tuple(value)  # TOML arrays: the comma-separated text of a tuple
    return f"{name}={format_value(value)}"


@dataclass(frozen=True)
class RuleSet:
    """A preset with `--set` changes, named for tables and pages (`app finish=bounce`).

    `RuleSet.parse` reads the one text form, `[NAME=]PRESET[+TOGGLE=VALUE...]`, and
    `text` writes it back.
    """

    preset: str
    sets: tuple[str, ...] = ()
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or " ".join([self.preset, *self.sets])

    @property
    def text(self) -> str:
        """The rule set in the grammar `RuleSet.parse` reads: `[NAME=]PRESET[+T=V...]`."""
        plain = "+".join([self.preset, *self.sets])
        if self.name in ("", plain):  # a rule set named by its own text says it once
            return plain
        return "+".join([f"{self.name}={self.preset}", *self.sets])

    def rules(self) -> Rules:
        return rules_from_options(self.preset, self.sets)

    def changes(self) -> dict[str, str]:
        """The toggles it changes from its preset, as text (`parse_sets`)."""
        return parse_sets(self.sets)

    def options(self) -> str:
        """The rules as command-line options."""
        return " ".join(["--preset", self.preset, *(f"--set {shlex.quote(s)}" for s in self.sets)])

    def with_sets(self, sets: Iterable[str]) -> RuleSet:
        """The same rule set with more changes (a later change of a toggle wins)."""
        changes = {**self.changes(), **parse_sets(sets)}
        return RuleSet(self.preset, tuple(f"{k}={v}" for k, v in changes.items()), self.name)

    def unnamed(self) -> RuleSet:
        """The same rules, labelled by their preset and changes."""
        return RuleSet(self.preset, self.sets)

    @classmethod
    def of(cls, preset: str, changes: Mapping[str, Any] | None = None, name: str = "") -> RuleSet:
        """A rule set from changes given as values (a TOML table, a Python dict)."""
        return cls(preset, tuple(set_text(k, v) for k, v in (changes or {}).items()), name)

    @classmethod
    def parse(cls, text: str, where: str = "rule set") -> RuleSet:
        """`[NAME=]PRESET[+TOGGLE=VALUE...]` -> RuleSet; its rules are checked too.

        Raises `RulesError` naming `where`, the text and the grammar when the text
        is malformed, names an unknown preset or toggle, or gives a value the
        rules refuse.
        """
        if not isinstance(text, str) or not text.strip():
            raise RulesError(f"{where} {text!r} is empty; write {GRAMMAR}")
        head, *items = (part.strip() for part in text.strip().split("+"))
        name, sep, preset = head.partition("=")
        if not sep:
            name, preset = "", head
        name, preset = name.strip(), preset.strip()
        if sep and not name:
            raise RulesError(f"{where} {text!r} has an empty NAME before '='; write {GRAMMAR}")
        if not preset:
            raise RulesError(f"{where} {text!r} names no preset; write {GRAMMAR}")
        for item in items:
            toggle, equals, _ = item.partition("=")
            if not equals or not toggle.strip():
                raise RulesError(f"{where} {text!r}: {item!r} is not TOGGLE=VALUE; write {GRAMMAR}")
        rule_set = cls(preset, tuple(items), name)
        try:
            rule_set.rules()
        except RulesError as exc:
            raise RulesError(f"{where} {text!r}: {exc}") from None
        return rule_set

    @classmethod
    def from_item(cls, item: Any, where: str = "rule set") -> RuleSet:
        """A rule set of a sweep or study file: its text, or a table with `preset` and the
        optional `set` (a list of `TOGGLE=VALUE`, or a table of TOGGLE = value) and `name`."""
        if isinstance(item, str):
            return cls.parse(item, where)
        if not isinstance(item, Mapping) or not isinstance(item.get("preset"), str):
            raise RulesError(
                f"{where} must be rule-set text ({GRAMMAR}) or a table with a preset, got {item!r}"
            )
        sets = item.get("set", ())
        if isinstance(sets, Mapping):
            sets = [set_text(k, v) for k, v in sets.items()]
        elif isinstance(sets, str) or not all(isinstance(s, str) for s in sets):
            raise RulesError(f"{where}.set must be a list of TOGGLE=VALUE, got {sets!r}")
        rule_set = cls(item["preset"], tuple(sets), str(item.get("name", "")))
        try:
            rule_set.rules()
        except RulesError as exc:
            raise RulesError(f"{where} ({rule_set.text}): {exc}") from None
        return rule_set


def split_values(text: str, policies: bool = False) -> list[str]:
    """`0,3` -> ["0", "3"]; `[],[starts,stars]` -> ["[]", "[starts,stars]"].

    Values of `policies` keep the `f=w` items after `weights:` with it, as every
    policy list does (`split_policy_list`): `weights:lead=2,capture=1.5,random` is
    two values.
    """
    items, depth, current = [], 0, ""
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += char
    items.append(current.strip())
    if depth != 0 or any(item == "" for item in items):
        raise RulesError(f"--vary values {text!r} are malformed; write e.g. 0,3 or [],[starts]")
    return join_weight_items(items) if policies else items


def parse_vary(items: Iterable[str], policies: bool = True) -> dict[str, tuple[str, ...]]:
    """`["six_limit=0,3", "finish=exact,bounce"]` -> one grid axis per toggle, values as text.

    `policies`: whether `policies=...` may be an axis (a sweep's; a study's rule sets
    are rules only). Raises `RulesError` naming the item when it is not
    `TOGGLE=V1,V2,...`, names a toggle twice, or lists a value that is another
    toggle's change (several changes make one rule set: `--rule-set`).
    """
    axes: dict[str, tuple[str, ...]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise RulesError(
                f"--vary {item!r} is not TOGGLE=V1,V2,...; write e.g. --vary six_limit=0,3"
            )
        if name in axes:
            raise RulesError(f"--vary {name} is given twice; list all its values once")
        if name == POLICIES_AXIS and not policies:
            raise RulesError(
                f"--vary {item!r}: a study's rule sets vary toggles; give the players with --policy"
            )
        split = split_values(values, policies=name == POLICIES_AXIS)
        if name != POLICIES_AXIS and any("=" in v for v in split):
            raise RulesError(
                f"--vary {item!r}: a grid axis is one toggle and its values; for one rule set "
                f"with several changes write --rule-set PRESET+{name}=V+OTHER=W"
            )
        axes[name] = tuple(split)
    return axes


def grid(base: RuleSet, axes: Mapping[str, Sequence[str]]) -> list[RuleSet]:
    """Every point of the grid on `base`, the first axis slowest: one rule set each."""
    if not axes:
        return []
    names = list(axes)
    return [
        base.with_sets(f"{n}={v}" for n, v in zip(names, values, strict=True)).unnamed()
        for values in itertools.product(*(axes[n] for n in names))
    ]


def study_rule_sets(
    presets: Sequence[str],
    sets: Sequence[str] = (),
    vary: Sequence[str] = (),
    rule_sets: Sequence[str] = (),
) -> list[RuleSet]:
    """A study's rule sets from its options, in this order: each preset with `sets`;
    every point of the `vary` grid on the first of them, but the point that is that
    preset's own rules (it is already first); each `rule_sets` text as written.

    Nothing is dropped beyond that: a rule set given twice is the study's to refuse.
    """
    if not presets and not rule_sets:
        raise RulesError("--preset: name at least one preset (see `ludosim presets`)")
    chosen = [RuleSet(p, tuple(sets)) for p in presets]
    if vary:
        if not chosen:
            raise RulesError("--vary applies to the first --preset; name one")
        base = chosen[0]
        own = base.rules().hash()
        for point in grid(base, parse_vary(vary, policies=False)):
            try:
                same = point.rules().hash() == own
            except RulesError as exc:
                raise RulesError(f"--vary: {point.label}: {exc}") from None
            if not same:
                chosen.append(point)
    chosen += [RuleSet.parse(text, "--rule-set") for text in rule_sets]
    return chosen


def study_options(rule_sets: Sequence[RuleSet]) -> list[str]:
    """Options that `study_rule_sets` reads back as exactly these rule sets, in order:
    `--preset` for the leading unnamed rule sets that share the first one's changes
    (with `--set` for those), `--rule-set` as written for every other."""
    if not rule_sets:
        return []
    first = rule_sets[0]
    lead = 0
    if not first.name:
        while (
            lead < len(rule_sets)
            and not rule_sets[lead].name
            and rule_sets[lead].sets == first.sets
        ):
            lead += 1
    words = [w for r in rule_sets[:lead] for w in ("--preset", r.preset)]
    if lead:
        words += [w for s in first.sets for w in ("--set", s)]
    words += [w for r in rule_sets[lead:] for w in ("--rule-set", r.text)]
    return words


def options_of(rules: Rules) -> RuleSet:
    """The preset nearest `rules` and the `--set` items that make `rules` from it.

    Nearest: fewest toggles that differ (the first preset of `presets()` on a tie).
    The items are in toggle table order, values as `--set` reads them back (an
    empty set as `{}`), so `options_of(rules).rules() == rules`: a preset and its
    changes say exactly these rules, whichever preset they were first built from.
    """

    def changed(preset: str) -> list[str]:
        base = Rules.preset(preset)
        return [name for name in TOGGLES if getattr(rules, name) != getattr(base, name)]

    preset = min(PRESETS, key=lambda name: len(changed(name)))
    names = changed(preset)
    for follower, leaders in _FOLLOWERS.items():
        if follower not in names and any(n in names for n in leaders):
            names.append(follower)  # else `replace` would move it along with its leader
    names = [n for n in TOGGLES if n in names]
    sets = tuple(f"{n}={format_value(getattr(rules, n)) or '{}'}" for n in names)
    return RuleSet(preset, sets)


def toggle_row(rules: Rules) -> dict[str, Any]:
    """Every toggle of `rules` as one flat table row: tuple values as their `--set` text."""
    return {
        name: format_value(value) if isinstance(value, tuple) else value
        for name in TOGGLES
        for value in (getattr(rules, name),)
    }


__all__ = [
    "GRAMMAR",
    "RuleSet",
    "grid",
    "options_of",
    "parse_sets",
    "parse_vary",
    "rules_from_options",
    "set_text",
    "split_values",
    "study_options",
    "study_rule_sets",
    "toggle_row",
]
