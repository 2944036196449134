"""The options the commands share, and the checks of their values.

The option types (`--preset`, `--set`, `--seed`, `--policy`, `--format`, `--threads`,
`-q`, and a study's repeated `--preset`, `--vary` and `--rule-set`), each with its help
text; the checks a command makes before it plays any game (`_require_seed`, `_format`,
`_policy_list`, `_require_extra`, `_old_spelling`). Commands import the library
inside their bodies, so that `ludosim --help` and the quick commands start without
loading pandas, pyarrow and the engines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from ludosim.rules.errors import LudosimError, missing_extra
from ludosim.rules.policies import parse_policy, split_policy_list

T = TypeVar("T")

PresetOpt = Annotated[
    str,
    typer.Option(
        "--preset",
        "-p",
        metavar="NAME",
        help="Preset rule set (see `ludosim presets`).",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="TOGGLE=VALUE",
        help="Change one toggle, TOGGLE=VALUE; repeat for more (see `ludosim rules`).",
        show_default=False,
    ),
]
# Every command that plays games needs a seed: results are reproducible, so none is
# made up. It is an optional option checked by `_require_seed`, in every command alike,
# because a study or sweep file may give it instead.
SEED_HELP = "Master seed, a non-negative integer; required"
SEED_MISSING = (
    "--seed is required (a non-negative integer, e.g. --seed 1): results must be "
    "reproducible, so there is no hidden default seed"
)
SeedOpt = Annotated[
    int | None, typer.Option("--seed", metavar="N", help=f"{SEED_HELP}.", show_default=False)
]
# The same, for the studies, whose study file gives the seed instead.
StudySeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed", metavar="N", help=f"{SEED_HELP} without a study file.", show_default=False
    ),
]
PolicyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--policy",
        metavar="A,B,...",
        help="Policy of every seat (default random), or one per seat in seat order, "
        "comma-separated (see `ludosim policies`).",
        show_default=False,
    ),
]
QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress on stderr (a bar on a terminal, else a line every "
        "LUDOSIM_PROGRESS_SECONDS seconds, default 10).",
    ),
]
FORMATS = ("table", "json", "csv")
FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="table|json|csv",
        help="How to print the results: table (for people: rounded to what the intervals "
        "support, then the findings), json (the estimates and the findings, with "
        "findings.json's fields) or csv (the estimates table).",
    ),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option("--threads", "-t", metavar="T", help="Worker threads (default: the library's)."),
]
# The rule sets of a study (`skill`, `unfold`): presets side by side, the grid of
# `--vary` on the first, and each `--rule-set` (`ludosim.rules.options.study_rule_sets`).
PresetsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--preset",
        "-p",
        metavar="NAME",
        help="Preset rule set; repeat to compare several (see `ludosim presets`); required "
        "without a study file, unless --rule-set names the rule sets.",
        show_default=False,
    ),
]
VaryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--vary",
        metavar="TOGGLE=V1,V2",
        help="A grid axis on the first preset (and --set): one more rule set per value "
        "(a value equal to the preset's own is the preset itself); repeat for a grid.",
        show_default=False,
    ),
]
RuleSetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule-set",
        metavar="[NAME=]PRESET+TOGGLE=VALUE",
        help="One more rule set, as written (e.g. app+finish=bounce+six_limit=0); repeat.",
        show_default=False,
    ),
]


def _old_spelling(old: str, new: str, given: Sequence[str] | str | None) -> None:
    """A renamed option still works; say once, on stderr, what it is called now."""
    if given:
        typer.echo(f"note: {old} is now {new} (the same values); {old} still works", err=True)


def _format(value: str) -> str:
    """The `--format`, checked before any game is played."""
    if value not in FORMATS:
        raise LudosimError(f"--format {value!r} is not allowed; allowed values: table, json, csv")
    return value


def _require_seed(seed: int | None) -> int:
    """The `--seed` of a command, which must be given (`SEED_MISSING` otherwise)."""
    if seed is None:
        raise LudosimError(SEED_MISSING)
    return seed


def _study_from(
    study_file: Path | None,
    options: Mapping[str, object],
    load: Callable[[Path], T],
    from_options: Callable[[], T],
    holds: str,
) -> T:
    """A study command's study: its study file's (`load`), or its options' (`from_options`),
    never both. `options` are the options a study file stands for, by their flags; one given
    beside a study file is refused, naming it and what the file holds (`holds`)."""
    if study_file is None:
        return from_options()
    given = [flag for flag, value in options.items() if value not in (None, (), [], "")]
    if given:
        raise LudosimError(
            f"STUDY: the study file holds {holds}; give it alone or use {given[0]} without it"
        )
    return load(study_file)


def _require_extra(what: str, extra: str, *modules: str) -> None:
    """Refuse a command whose optional packages are not installed before it plays any
    game (the library would say so only when it needs them, after the games)."""
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise LudosimError(missing_extra(what, module, extra))


def _policy_list(values: Sequence[str] | None) -> list[str]:
    """Every `--policy` value, comma-separated or repeated, as one validated list of names.

    An unknown name fails here, before any count check, with the allowed names.
    """
    names = [name for value in values or () for name in split_policy_list(value)]
    for name in names:
        if not name:
            raise LudosimError(f"--policy {','.join(values or ())!r} has an empty policy name")
        parse_policy(name)
    return names


def _policies(values: Sequence[str] | None) -> str | list[str]:
    """No `--policy`: random; one name: every seat; several: one per seat."""
    names = _policy_list(values)
    if not names:
        return "random"
    return names[0] if len(names) == 1 else names
