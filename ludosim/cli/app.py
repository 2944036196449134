"""The `ludosim` command line: a thin typer adapter over the library.

Each command parses its options, calls the library and prints the result.
Library errors (`LudosimError`, and the `ValueError` of a bad seed) become one
line on stderr and exit code 2, never a traceback. The same words mean the same
in every command: `--preset NAME` and repeated `--set TOGGLE=VALUE`
(`ludosim.rules.options.rules_from_options`); a whole rule set as one argument in
`[NAME=]PRESET[+TOGGLE=VALUE...]` (`RuleSet.parse`: `compare`, `--rule-set`,
`--variant`); `--vary TOGGLE=V1,V2` a grid axis; `--policy A,B,...` the seats'
line-up (a comma-separated list, or the option repeated; older spellings are
still read, with a note naming this one).

Commands that print results take `--format table|json|csv`: a table for people,
every number rounded to what its interval supports, then the findings; or the
same answer for scripts (`ludosim.report.answers.Answer`). Long commands show
their progress on stderr (`ludosim.cli.progress`): a bar on a terminal, a line
every few seconds otherwise, nothing with `-q`. The simulation and benchmark
modules are imported inside their commands, so the light commands start fast.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import numbers
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from ludosim.cli.progress import GameProgress, mode
from ludosim.rules.errors import LudosimError, missing_extra
from ludosim.rules.model import PRESETS, TOGGLES, Rules
from ludosim.rules.options import GRAMMAR, RuleSet, rules_from_options, study_rule_sets
from ludosim.rules.policies import (
    DESCRIPTIONS,
    FEATURE_DESCRIPTIONS,
    FEATURES,
    NAMED,
    SCALE,
    parse_policy,
    split_policy_list,
    tuned_names,
    weights_of,
)

try:  # typer >= 0.20 vendors click; its usage errors derive from TyperException
    from typer import TyperException as _UsageError
except ImportError:  # pragma: no cover - older typer raises click's own exceptions
    from click import ClickException as _UsageError

if TYPE_CHECKING:
    import pandas as pd

    from ludosim.report.answers import Answer

EXIT_ERROR = 2


def _readable_help(params: list[Any]) -> list[Any]:
    """Show each parameter in --help as a reader types it.

    typer prints a type placeholder such as `<bool>` after every option, which
    makes a flag (`--toml`, `-q`, `--help`) look as if it took a value: an
    empty metavar prints none. An argument's metavar is already its name, so
    its `<str>` type column goes too. Help text is rich markup, in which
    `[[rule_set]]` would vanish as a style tag: it is escaped, once (typer
    asks for the parameters more than once per command line).
    """
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        if param.param_type_name == "argument" and param.metavar:
            param.display_type_rich = lambda ctx: None
        if param.help and not getattr(param, "_help_escaped", False):
            param.help = escape(param.help)
            param._help_escaped = True
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_help(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_help(super().get_params(ctx))


app = typer.Typer(
    name="ludosim",
    cls=_Group,
    help=(
        "Monte Carlo rules analysis for Ludo and its regional variants.\n\n"
        "Example: ludosim play --preset killer --seed 7"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

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


def _emit(answer: Answer, fmt: str, before: Sequence[str] = ()) -> None:
    """Print an answer: JSON or CSV alone on stdout for scripts; for people the lines
    `before` (a transcript), the title, the rounded table, the headline findings and
    the notes. An exploratory run's note comes first, on its own, and the findings
    under it are headed as leads, so that no difference on a small run reads as settled."""
    if fmt == "json":
        typer.echo(answer.to_json())
        return
    if fmt == "csv":
        typer.echo(answer.to_csv(), nl=False)
        return
    (rounded,) = _lazy("ludosim.report.answers", "rounded")
    for line in before:
        typer.echo(line)
    _show(_frame_table(rounded(answer.estimates, answer.rounded_like), title=answer.title))
    told = answer.told()  # in the terminal's words: no cell ids, sections or "this page"
    warning = answer.exploratory_note(told)
    headlines = [f for f in told if f.text != warning]
    if warning:
        typer.echo("")
        typer.echo(warning)
    if headlines:
        typer.echo("")
        lead = "exploratory, leads to confirm with a larger run; " if warning else ""
        typer.echo(f"Findings ({lead}decided as a report of these games decides them):")
        for finding in headlines:
            typer.echo(f"- {finding.text}")
    if answer.notes:
        typer.echo("")
        for note in answer.notes:
            typer.echo(note)


def _study_written(page: Path, count: int = 2) -> None:
    """A study's closing lines: its first `count` answers (the headline findings that are
    not notes on the method, as its page states them) and where the page is."""
    import json

    records = json.loads((Path(page).parent / "findings.json").read_text(encoding="utf-8"))
    answers = [r for r in records if r.get("headline") and r.get("kind") != "note"]
    if answers:
        typer.echo("Findings (the page states every one with its method):")
        for record in answers[:count]:
            typer.echo(f"- {record['text']}")
        typer.echo("")
    typer.echo(f"wrote {page} with its tables")


def _console() -> Console:
    # Created per call so it writes to the current sys.stdout (test runners swap it).
    return Console(highlight=False)


def _require_seed(seed: int | None) -> int:
    """The `--seed` of a command, which must be given (`SEED_MISSING` otherwise)."""
    if seed is None:
        raise LudosimError(SEED_MISSING)
    return seed


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_ERROR)


def _clean_errors(func: F) -> F:
    """Turn library errors into one line on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (LudosimError, ValueError) as exc:
            raise _fail(" ".join(str(exc).split()) or type(exc).__name__) from None

    return wrapper  # type: ignore[return-value]


def _lazy(module: str, *names: str) -> list[Any]:
    """Import `names` from `module` when a command needs them; a missing one is a clean error.

    Commands load the library this way so that `ludosim --help` and the quick
    commands start without importing pandas, pyarrow and the engines.
    """
    import importlib

    try:
        loaded = importlib.import_module(module)
        return [getattr(loaded, name) for name in names]
    except (ImportError, AttributeError) as exc:
        raise LudosimError(f"{module} is not available in this installation ({exc})") from None


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


def _cell(value: Any) -> str:
    """Floats: whole numbers from 1000 up, else 4 significant digits; "-" for a missing one;
    counts with thousands separators."""
    if isinstance(value, float):
        if value != value:  # NaN: a measure that does not apply to this row
            return "-"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return f"{int(value):,}"
    return str(value)


@contextlib.contextmanager
def _compile_notice() -> Iterator[None]:
    """Say on stderr why the first run after install (or after a kernel change) is slow:
    the kind of game compiling and its measured compile time (`ludosim.run.warm`)."""
    compile_notice, notice_text = _lazy("ludosim.run.warm", "compile_notice", "notice_text")
    with compile_notice(lambda kind: typer.echo(notice_text(kind), err=True)):
        yield


@contextlib.contextmanager
def _playing(command: str, quiet: bool) -> Iterator[GameProgress]:
    """The compile notice and the progress bar around a command that plays games."""
    with _compile_notice(), GameProgress(command, mode(quiet)) as progress:
        yield progress


def _show(table: Table) -> None:
    """Print a table whole: wider than the terminal (or than 80 columns when the
    output is not a terminal) rather than with its cells cut to "…"."""
    console = _console()
    width = Console(width=10_000).measure(table).maximum
    if width > console.width:
        console = Console(highlight=False, width=width)
    console.print(table)


def _frame_table(df: pd.DataFrame, title: str | None = None) -> Table:
    """A rich table of a small DataFrame, at least as wide as its title (which never wraps)."""
    table = Table(title=title, min_width=len(title) if title else None)
    for column in df.columns:
        table.add_column(str(column), justify="right" if df[column].dtype.kind in "iuf" else "left")
    for row in df.itertuples(index=False):
        table.add_row(*(escape(_cell(v)) for v in row))
    return table


# --------------------------------------------------------------------------- commands
@app.command(cls=_Command)
@_clean_errors
def presets() -> None:
    """List the preset rule sets with the seed files they come from.

    Example: ludosim presets
    """
    table = Table(title="Presets")
    table.add_column("preset", style="bold")
    table.add_column("seed files")
    table.add_column("description")
    for preset in PRESETS.values():
        table.add_row(preset.name, "\n".join(preset.seeds), escape(preset.description))
    _console().print(table)


@app.command(cls=_Command)
@_clean_errors
def policies() -> None:
    """List the policies (strategies) a seat can play, with their parameters and weights.

    Every command that takes `--policy` accepts these names, one for every seat or one
    per seat in seat order, comma-separated.

    Example: ludosim policies
    """
    table = Table(title="Policies")
    table.add_column("policy", style="bold")
    table.add_column("weights (feature=w)")
    table.add_column("description")
    for name in NAMED:
        weights = ", ".join(f"{f}={w:g}" for f, w in weights_of(name).items()) or "none"
        table.add_row(name, weights, escape(DESCRIPTIONS[name]))
    table.add_row(
        "skipper:Q",
        "as balanced",
        escape(DESCRIPTIONS["skipper:Q"] + "; Q in 0..1, e.g. skipper:0.5"),
    )
    table.add_row(
        "weights:F=W,...",
        "F=W, ...",
        escape(
            "custom: the score of an option is the sum of W x feature F over the listed "
            "features (the others weigh 0), e.g. weights:capture=5,progress=1"
        ),
    )
    table.add_row(
        "tuned:PATH", "from the file", "the weights of a policy file written by `ludosim tune`"
    )
    table.add_row(
        "expert:R:H",
        "tuned-<preset> in its rollouts",
        escape(DESCRIPTIONS["expert:R:H"] + "; expert, expert:R or expert:R:H, e.g. expert:64:24"),
    )
    table.add_row(
        "fictive:H",
        "tuned-<preset> in its rollouts",
        escape(DESCRIPTIONS["fictive:H"] + "; fictive or fictive:H, e.g. fictive:24"),
    )
    for name in tuned_names():
        tuned = zip(FEATURES, parse_policy(name).weights, strict=True)
        weights = ", ".join(f"{f}={w / SCALE:g}" for f, w in tuned if w)
        preset = name.removeprefix("tuned-")
        table.add_row(name, weights, f"shipped: tuned by `ludosim tune` for the {preset} preset")
    _console().print(table)
    features = Table(title="Features (measured after an option, against before it)")
    features.add_column("feature", style="bold")
    features.add_column("meaning")
    for name, meaning in FEATURE_DESCRIPTIONS.items():
        features.add_row(name, escape(meaning))
    _show(features)
    typer.echo(
        "The option with the highest score is played; ties are drawn at random. "
        "One policy applies to every seat; a comma-separated list gives one per seat."
    )


@app.command(cls=_Command)
@_clean_errors
def rules(
    preset: PresetOpt,
    sets: SetOpt = None,
    toml: Annotated[bool, typer.Option("--toml", help="Print the rules as TOML instead.")] = False,
) -> None:
    """Show every toggle of a rule set with its value and description.

    Example: ludosim rules --preset killer --set pass_opponents=all
    """
    chosen = rules_from_options(preset, sets or ())
    if toml:
        typer.echo(chosen.to_toml(), nl=False)
        return
    table = Table(title=f"Rules: {preset} (hash {chosen.hash()})")
    table.add_column("toggle", style="bold", no_wrap=True)  # names are copied into --set
    table.add_column("value")
    table.add_column("allowed")
    table.add_column("description")
    for name, value, description in chosen.describe():
        table.add_row(name, escape(value), escape(TOGGLES[name].allowed()), escape(description))
    _console().print(table)


@app.command(cls=_Command)
@_clean_errors
def play(
    preset: PresetOpt,
    seed: SeedOpt = None,
    game: Annotated[
        int, typer.Option("--game", metavar="G", help="Game number within the seed.")
    ] = 0,
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    positions: Annotated[
        bool,
        typer.Option(
            "--positions",
            help="Print the position before every turn, in the notation `ludosim whatif` "
            "reads (docs/positions.md).",
        ),
    ] = False,
    fmt: FormatOpt = "table",
) -> None:
    """Play one game with the reference engine, turn by turn, then the final ranking.

    The ranking gives each seat's place in the turn order (seat order from the first
    mover): 0 moved first, 1 next, and so on. --positions is another thing: the board
    position before every turn.

    Example: ludosim play --preset killer --seed 7 --positions
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    (play_game,) = _lazy("ludosim.play", "play")
    (game_answer,) = _lazy("ludosim.report.answers", "game_answer")
    rule_set = RuleSet(preset, tuple(sets or ()))
    policies = _policies(policy)
    result = play_game(rule_set.rules(), seed, policies=policies, game=game, positions=positions)
    answer = game_answer(rule_set, result, policies)
    _emit(answer, fmt, before=[*result.transcript, ""])


@app.command(cls=_Command)
@_clean_errors
def simulate(
    preset: PresetOpt,
    seed: SeedOpt = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games.")
    ] = 10_000,
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Write the per-game rows to this Parquet file (default: print the estimates "
            "and findings).",
        ),
    ] = None,
    summary: Annotated[
        bool,
        typer.Option(
            "--summary",
            help="Accumulate in the kernel instead of keeping per-game rows (memory flat in "
            "--games); prints the same estimates, without a page's findings.",
        ),
    ] = False,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Simulate many games with the compiled engine: game length, turn order and findings.

    Prints the mean game length in rounds and player turns, the first player's edge
    against its fair share and every turn-order position's win share (position 0
    moves first), each with its 95% interval, then the findings a report of these
    games would state. `--out` writes the rows to Parquet instead.

    Example: ludosim simulate --preset app --set pass_opponents=all --games 10000 --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    if summary and out is not None:
        raise LudosimError("--summary keeps no per-game rows for --out to write; use one of them")
    rule_set = RuleSet(preset, tuple(sets or ()))
    chosen = rule_set.rules()
    (run_simulation,) = _lazy("ludosim.simulate", "simulate")
    check_output_file, write_parquet = _lazy(
        "ludosim.results", "check_output_file", "write_parquet"
    )
    games_answer, summary_answer = _lazy("ludosim.report.answers", "games_answer", "summary_answer")
    # A bad --out fails now, not after the games are played.
    path = None if out is None else check_output_file(out)
    policies = _policies(policy)
    kwargs: dict[str, Any] = {"policies": policies, "summary": summary}
    if threads is not None:
        kwargs["threads"] = threads
    with _playing("simulate", quiet) as progress:
        result = run_simulation(chosen, games, seed, progress=progress, **kwargs)
    if summary:
        _emit(summary_answer("simulate", result, rule_set.label), fmt)
        return
    if path is not None:
        write_parquet(result, path)
        _wrote(fmt, "simulate", path, f"wrote {len(result)} rows to {path}", rows=len(result))
        return
    _emit(games_answer("simulate", result, rule_set, policies, seed), fmt)


def _wrote(fmt: str, command: str, path: Path, line: str, **more: Any) -> None:
    """What a command that wrote a file prints: its line, or for scripts the path."""
    if fmt == "table":
        typer.echo(line)
    elif fmt == "json":
        typer.echo(json.dumps({"command": command, "wrote": str(path), **more}, indent=2))
    else:
        typer.echo("wrote\n" + str(path))


@app.command(cls=_Command)
@_clean_errors
def compare(
    rule_sets: Annotated[
        list[str],
        typer.Argument(
            metavar="RULESET",
            help=f"Two or more rule sets, each {GRAMMAR}.",
            show_default=False,
        ),
    ],
    seed: SeedOpt = None,
    precision: Annotated[
        str,
        typer.Option(
            "--precision",
            metavar="TARGET",
            help="Play until the 95% interval of every difference has this half-width: "
            "1round (game length, rounds) or 0.25pp (the first player's win share, "
            "percentage points).",
        ),
    ] = "1round",
    policy: PolicyOpt = None,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games", metavar="N", help="Most games per rule set, target met or not."
        ),
    ] = 1_000_000,
    first_batch: Annotated[
        int | None,
        typer.Option(
            "--first-batch",
            metavar="N",
            help="Games per rule set of the first batch, at most --max-games (default 2000, "
            "or --max-games when fewer).",
            show_default=False,
        ),
    ] = None,
    threads: ThreadsOpt = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Does this rule change matter? Paired games until the difference is known to --precision.

    The rule sets play the same games (one seed; game g of each from the same random
    stream) in growing batches; play stops when the 95% interval of every difference
    on the measure --precision names has at most that half-width (a fixed-width rule
    that looks at the spread, never at the size, of the differences), or at
    --max-games. Then the findings, decided as a report of the rule sets decides
    them: each one's game length and first player's edge, and the differences
    between them in one family (Holm).

    Example: ludosim compare app app+finish=bounce --precision 1round --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    (run_compare,) = _lazy("ludosim.studies.compare", "compare")
    kwargs: dict[str, Any] = {"precision": precision, "policies": _policies(policy)}
    with _playing("compare", quiet) as progress:
        result = run_compare(
            rule_sets, seed, max_games=max_games, first_batch=first_batch, threads=threads,
            progress=progress, **kwargs,
        )  # fmt: skip
    _emit(result.answer(), fmt)


@app.command(cls=_Command)
@_clean_errors
def whatif(
    position: Annotated[
        str,
        typer.Argument(
            metavar="POSITION",
            help="The position: MOVER:SEAT0/SEAT1/..., pieces Y, 0..entry, H1.., G "
            "(docs/positions.md; `ludosim play --positions` prints them).",
            show_default=False,
        ),
    ],
    preset: PresetOpt,
    seed: SeedOpt = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games.")
    ] = 10_000,
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    threads: ThreadsOpt = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """From a position, who wins? Each seat's win chance and the likeliest finishing order.

    Example: ludosim whatif 1:20,Y,Y,Y/5,Y,Y,Y/Y,Y,Y,Y/30,Y,Y,Y --preset app --games 2000 --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    rule_set = RuleSet(preset, tuple(sets or ()))
    chosen = rule_set.rules()
    parse_position, run_whatif = _lazy("ludosim.studies.whatif", "parse_position", "whatif")
    # Bad notation fails now, before the kernel is compiled.
    start = parse_position(position, chosen)
    kwargs: dict[str, Any] = {"policies": _policies(policy)}
    if threads is not None:
        kwargs["threads"] = threads
    with _playing("whatif", quiet) as progress:
        result = run_whatif(chosen, start, games, seed, progress=progress, **kwargs)
    _emit(result.answer(rule_set.label, start.to_move), fmt)


@app.command(cls=_Command)
@_clean_errors
def bench(
    preset: Annotated[
        list[str] | None,
        typer.Option(
            "--preset", "-p", metavar="NAME", help="Preset to time; repeat for more (default: all)."
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games per run.")
    ] = 100_000,
    threads: Annotated[
        list[int] | None,
        typer.Option(
            "--threads",
            "-t",
            metavar="T",
            help="Thread count to time; repeat for more (default: 1 and every core).",
        ),
    ] = None,
    reference_games: Annotated[
        int,
        typer.Option(
            "--reference-games", metavar="N", help="Games timed with the reference engine."
        ),
    ] = 100,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Policies to time, comma-separated, each played by every seat (random is "
            "timed too, as the baseline of cost_vs_random). Default: random.",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Time the compiled engine (and the reference engine) in games per second.

    Prints one row per rules, policy, engine and thread count, then what each column
    means; "-" marks a measure that does not apply to the row (a reference-engine row
    has no kernel ratios).

    Example: ludosim bench --preset app --games 100000 --threads 1 --policy balanced
    """
    fmt = _format(fmt)
    names = list(preset) if preset else list(PRESETS)
    for name in names:
        Rules.preset(name)  # an unknown name fails before any timing starts
    timed = _policy_list(policy)  # so does an unknown policy
    if reference_games < 0:
        raise LudosimError(
            f"--reference-games must be 0 (no reference rows) or more, got {reference_games}"
        )
    run_bench, columns = _lazy("ludosim.run.bench", "run_bench", "COLUMNS")
    (bench_answer,) = _lazy("ludosim.report.answers", "bench_answer")
    kwargs: dict[str, Any] = {"presets": names, "games": games, "reference_games": reference_games}
    if threads:
        kwargs["threads"] = list(threads)
    if timed:
        kwargs["policies"] = timed
    with _playing("bench", quiet) as progress:
        df = run_bench(progress=progress, **kwargs)
    _emit(bench_answer(df, columns), fmt)


@app.command(cls=_Command)
@_clean_errors
def tournament(
    preset: PresetOpt,
    seed: SeedOpt = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="One policy per seat, comma-separated (see `ludosim policies`), rotated "
            "through every seat; required.",
            show_default=False,
        ),
    ] = None,
    old_policies: Annotated[
        list[str] | None,
        typer.Option("--policies", metavar="A,B,...", hidden=True, help="Now --policy."),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games over all rotations.")
    ] = 10_000,
    sets: SetOpt = None,
    threads: ThreadsOpt = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Every policy in every seat: win shares with 95% intervals, and the policy ranking.

    The rotations of the line-up are the cells of a tournament page: every pair of
    policies is compared game by game, in one family (Holm), and the ranking says
    which policy is ahead and by how much at a table.

    Example: ludosim tournament --preset killer --policy balanced,runner,random,random --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    _old_spelling("--policies", "--policy", old_policies)
    names = _policy_list([*(policy or ()), *(old_policies or ())])
    if not names:
        raise LudosimError("name one policy per seat with --policy A,B,...")
    rule_set = RuleSet(preset, tuple(sets or ()))
    rule_set.rules()  # bad rules fail before the study module loads
    (tournament_answer,) = _lazy("ludosim.studies.tournament", "tournament_answer")
    with _playing("tournament", quiet) as progress:
        answer = tournament_answer(rule_set, names, games, seed, threads=threads, progress=progress)
    _emit(answer, fmt)


@app.command(cls=_Command)
@_clean_errors
def ratings(
    preset: PresetOpt,
    seed: SeedOpt = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Players of the ladder, comma-separated (see `ludosim policies`); at least "
            "one per seat. Default: random, runner, aggressive, defensive, pacifist, balanced.",
            show_default=False,
        ),
    ] = None,
    old_players: Annotated[
        list[str] | None,
        typer.Option("--players", metavar="A,B,...", hidden=True, help="Now --policy."),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games over all seatings.")
    ] = 6000,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap", "-b", metavar="B", help="Bootstrap resamples for the 95% intervals."
        ),
    ] = 100,
    sets: SetOpt = None,
    threads: ThreadsOpt = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Multi-player ratings (openskill Plackett-Luce) of a ladder of policies.

    Example: ludosim ratings --preset app --policy random,runner,balanced,aggressive --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    _require_extra("ludosim ratings", "skill", "openskill")
    _old_spelling("--players", "--policy", old_players)
    rule_set = RuleSet(preset, tuple(sets or ()))
    chosen = rule_set.rules()
    rate, default, ratings_answer = _lazy(
        "ludosim.studies.ratings", "ratings", "DEFAULT_PLAYERS", "ratings_answer"
    )
    names = _policy_list([*(policy or ()), *(old_players or ())]) or list(default)
    with _playing("ratings", quiet) as progress:
        table = rate(
            chosen, names, games, seed, bootstrap=bootstrap, threads=threads, progress=progress
        )
    _emit(ratings_answer(table, rule_set.label, bootstrap), fmt)


@app.command(cls=_Command)
@_clean_errors
def skill(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="STUDY",
            help="A study file (TOML: seed, sizes, [[rule_set]] tables); instead of the options.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder for skill.csv, ladder.csv, metagame.csv, head_to_head.csv, "
            "index.html and its PNGs; required.",
            show_default=False,
        ),
    ] = "",
    presets: PresetsOpt = None,
    sets: SetOpt = None,
    vary: VaryOpt = None,
    rule_set: RuleSetOpt = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="The ladder, comma-separated (default: random, runner, aggressive, defensive, "
            "pacifist, balanced and tuned-<preset> when shipped).",
            show_default=False,
        ),
    ] = None,
    old_players: Annotated[
        list[str] | None,
        typer.Option("--players", metavar="A,B,...", hidden=True, help="Now --policy."),
    ] = None,
    strongest: Annotated[
        str | None,
        typer.Option(
            "--strongest",
            metavar="NAME",
            help="The player measured against the fields (default: the ladder's top rating).",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Ladder games per rule set.")
    ] = 14_000,
    match_games: Annotated[
        int,
        typer.Option(
            "--match-games", metavar="M", help="Games of the strongest player against each field."
        ),
    ] = 20_000,
    pair_games: Annotated[
        int, typer.Option("--pair-games", metavar="K", help="Games of each head-to-head pair.")
    ] = 4_000,
    headline_games: Annotated[
        int,
        typer.Option(
            "--headline-games",
            metavar="H",
            help="Games of the first-player advantage with random and with skilled seats.",
        ),
    ] = 40_000,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", "-b", metavar="B", help="Rating refits for intervals.")
    ] = 100,
    resamples: Annotated[
        int,
        typer.Option(
            "--resamples", metavar="R", help="Head-to-head matrices resampled for the meta-game."
        ),
    ] = 1_000,
    skill_games: Annotated[
        int,
        typer.Option(
            "--skill-games",
            metavar="S",
            help="Games of the optimal and of the fictive player against three random "
            "players, each, for the relative skill level.",
        ),
    ] = 4_000,
    optimal: Annotated[
        str,
        typer.Option(
            "--optimal", metavar="NAME", help="The optimal player of the relative skill level."
        ),
    ] = "expert",
    fictive: Annotated[
        str,
        typer.Option(
            "--fictive",
            metavar="NAME",
            help="The fictive player (knows the dice in advance) of the relative skill level.",
        ),
    ] = "fictive",
    seed: StudySeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """How much each rule set rewards skill, and the strategy meta-game: CSV tables and a page.

    Each rule set: the relative skill level RS = LE / (LE + RE) from the optimal and the
    fictive player against three random players; a ladder of players rated with Plackett-Luce;
    its strongest player
    against three random and three balanced players; every pair head to head, and the
    equilibrium mix of that game with its support over resampled games.

    The rule sets: each --preset (with --set), one more per value of each --vary on
    the first preset (a grid), and each --rule-set.

    Example: ludosim skill --preset app --vary finish=exact,bounce --seed 1 --out skill-app
    """
    _require_extra("ludosim skill", "skill", "openskill", "scipy")
    load_study, study_type, run_study = _lazy(
        "ludosim.studies.skill", "load_study", "Study", "run_study"
    )
    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out reports/skill")
    _old_spelling("--players", "--policy", old_players)
    players = [*(policy or ()), *(old_players or ())]
    if study_file is not None:
        if presets or sets or vary or rule_set or players or strongest or seed is not None:
            raise LudosimError(
                "STUDY: the study file holds the rule sets, players, sizes and seed; give it "
                "alone or use --preset/--set/--vary/--rule-set/--policy/--seed without it"
            )
        study = load_study(study_file)
    else:
        chosen = _study_rule_sets(presets, sets, vary, rule_set, seed)
        names = _policy_list(players) or None
        study = study_type(
            tuple(chosen), seed, tuple(names) if names else None, strongest, games=games,
            match_games=match_games, pair_games=pair_games, headline_games=headline_games,
            bootstrap=bootstrap, resamples=resamples, skill_games=skill_games, optimal=optimal,
            fictive=fictive,
        )  # fmt: skip
    with _playing("skill", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)


@app.command(cls=_Command)
@_clean_errors
def unfold(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="STUDY",
            help="A study file (TOML: seed, games, [[rule_set]], [[race_check]]); instead of "
            "the options.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder for leads.csv, comebacks.csv, lead_changes.csv, runs.csv, index.html "
            "and its PNGs; required.",
            show_default=False,
        ),
    ] = "",
    presets: PresetsOpt = None,
    sets: SetOpt = None,
    vary: VaryOpt = None,
    rule_set: RuleSetOpt = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games per rule set.")
    ] = 100_000,
    every: Annotated[
        int,
        typer.Option(
            "--every", metavar="K", help="Snapshot every K turns (0: two rounds of the seats)."
        ),
    ] = 0,
    policy: PolicyOpt = None,
    seed: StudySeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """How games unfold: the leader's win chance by lead and phase, and comebacks.

    Each rule set: games with the game-flow counters and snapshots of the seats' totals;
    the win chance of the seat ahead by its lead at each phase of the game, the share of
    games won from last place at mid-game, when games are decided, and how often the
    lead changes, each with its 95% interval and its change from the first rule set.
    The rule sets: each --preset (with --set), one more per value of each --vary on
    the first preset (a grid), and each --rule-set.

    Example: ludosim unfold --preset app --vary six_limit=0,3 --games 20000 --seed 1 --out unfold
    """
    load_study, study_type, run_study = _lazy(
        "ludosim.studies.unfold", "load_study", "UnfoldStudy", "run_study"
    )
    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out reports/leads")
    if study_file is not None:
        if presets or sets or vary or rule_set or policy or seed is not None:
            raise LudosimError(
                "STUDY: the study file holds the rule sets, players, sizes and seed; give it "
                "alone or use --preset/--set/--vary/--rule-set/--policy/--seed without it"
            )
        study = load_study(study_file)
    else:
        chosen = _study_rule_sets(presets, sets, vary, rule_set, seed)
        names = _policy_list(policy)
        study = study_type(
            tuple(chosen), seed, games=games, every=every,
            policies=",".join(names) if names else "random",
        )  # fmt: skip
    with _playing("unfold", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)


def _study_rule_sets(
    presets: Sequence[str] | None,
    sets: Sequence[str] | None,
    vary: Sequence[str] | None,
    rule_sets: Sequence[str] | None,
    seed: int | None,
) -> list[RuleSet]:
    """A study's rule sets from the options (`study_rule_sets`); without a study file
    the seed is required too."""
    chosen = study_rule_sets(presets or (), sets or (), vary or (), rule_sets or ())
    _require_seed(seed)
    return chosen


class _NoteHandler(logging.Handler):
    """Prints what a sweep logs (damaged chunks, Dask workers gone) as `note:` lines."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"note: {' '.join(record.getMessage().split())}", err=True)


@contextlib.contextmanager
def _sweep_notes() -> Iterator[None]:
    """Show the sweep's notes while it runs, once each (not also through logging's fallback)."""
    logger = logging.getLogger("ludosim.sweep")
    handler = _NoteHandler(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


@app.command(cls=_Command)
@_clean_errors
def sweep(
    spec_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE",
            help="Sweep file (TOML, see docs/sweep.md); or use the options below.",
            show_default=False,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            "-p",
            metavar="NAME",
            help="Base preset of the grid (see `ludosim presets`); required without a sweep "
            "file, unless every --variant names its preset.",
        ),
    ] = None,
    sets: SetOpt = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            "-v",
            metavar="TOGGLE=V1,V2",
            help="A toggle (or policies) and its values; repeat for a grid. Values holding "
            "commas go in brackets: safe=[],[starts,stars] (docs/sweep.md).",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            metavar="[NAME=]PRESET[+T=V]",
            help="A starting point, a rule set as written (app, bounce=app+finish=bounce); "
            "repeat (default: the base preset).",
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            metavar="MODE",
            help="grid (full factorial, the default) or one-at-a-time.",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            help="Games per cell (default 10000; replaces a sweep file's games or precision).",
        ),
    ] = None,
    precision: Annotated[
        str | None,
        typer.Option(
            "--precision",
            metavar="TARGET",
            help="Play each cell until the 95% interval has this half-width: 0.25pp "
            "(first-player advantage) or 1turn (mean game length); instead of --games "
            "(default: none, a fixed number of games).",
        ),
    ] = None,
    pilot: Annotated[
        int | None,
        typer.Option(
            "--pilot", metavar="N", help="Pilot games per cell of --precision (default 20000)."
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            metavar="N",
            help="Most games per cell of --precision (default 10000000).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="N",
            help=f"{SEED_HELP} without a sweep file; with one, replaces its seed.",
            show_default=False,
        ),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Policy of every seat (default random), or one per seat, comma-separated "
            "(see `ludosim policies`).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Output folder (default with a file: its out, else runs/<file name>).",
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", metavar="N", help="Games per chunk file (default 250000)."),
    ] = None,
    summary_only: Annotated[
        bool,
        typer.Option("--summary-only", help="Keep per-chunk summaries instead of every game."),
    ] = False,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Run on Dask: local (a LocalCluster) or tcp://HOST:PORT (default: on this "
            "machine, without Dask).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            help="Worker processes of --dask local (default: 4, or fewer cores).",
        ),
    ] = None,
    dask_wait: Annotated[
        float | None,
        typer.Option(
            "--dask-wait",
            metavar="SECONDS",
            help="Stop when the Dask cluster has had no live worker this long "
            "(default: say so after 30 s and keep waiting).",
        ),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            "-t",
            metavar="T",
            help="Kernel threads per chunk (default: every core, shared by the workers "
            "of --dask local).",
        ),
    ] = None,
    new: Annotated[
        bool,
        typer.Option("--new", help="Move a folder of another sweep aside and start afresh."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list the cells; play nothing.")
    ] = False,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Play grids of rule variants into a resumable Parquet folder; rerun to resume.

    Ends with a summary: the cells and their games, the headline findings of the
    folder's page (decided as `ludosim report` decides them) and the command that
    writes the report.

    Example: ludosim sweep --preset app --vary six_limit=0,3 --seed 1 --out runs/six
    """
    check_run_options, plan, run_sweep, spec_from_command = _lazy(
        "ludosim.sweep", "check_run_options", "plan", "run_sweep", "spec_from_command"
    )
    (Terminated,) = _lazy("ludosim.sweep.execute", "Terminated")
    plan_answer, sweep_answer = _lazy("ludosim.report.answers", "plan_answer", "sweep_answer")
    fmt = _format(fmt)

    if out is not None and not out.strip():
        raise LudosimError("--out is empty; name the sweep's folder, e.g. --out runs/my-grid")
    # Executor options are checked before any folder is made.
    check_run_options(dask, workers, threads, dask_wait)
    policies = _policies(policy) if policy else None
    if spec_file is None:
        _require_seed(seed)
    spec, folder = spec_from_command(
        spec_file,
        preset=preset,
        sets=sets or (),
        vary=vary or (),
        variants=variant or (),
        mode=mode,
        policies=policies,
        games=games,
        seed=seed,
        chunk_size=chunk_size,
        summary_only=summary_only or None,
        out=None if out is None else Path(out),
        precision=precision,
        pilot=pilot,
        max_games=max_games,
    )
    if dry_run:
        table = plan(spec, folder)
        extra = ["pilot", "planned", "plan"] if spec.precision else []
        cells = table[["cell", "name", "policies", "games", "chunks", *extra]]
        size = f"precision {spec.precision}" if spec.precision else f"{spec.games:,} games"
        title = f"{len(cells)} cell{'s' * (len(cells) != 1)} x {size}, seed {spec.seed} -> {folder}"
        notes = []
        if extra and (table["plan"] == "pilot first").any():
            notes.append(
                "pilot first: the sweep plays each cell's pilot, then the games its "
                "variance asks for; rerun --dry-run after the pilots to see them"
            )
        _emit(plan_answer(cells, title, notes), fmt)
        return
    try:
        with _sweep_notes(), _playing("sweep", quiet) as progress:
            result = run_sweep(
                spec, folder, new=new, dask=dask, workers=workers, threads=threads,
                progress=progress, dask_wait=dask_wait,
            )  # fmt: skip
    except Terminated:
        typer.echo(
            f"terminated (SIGTERM): finished chunks are kept in {folder}; rerun to resume",
            err=True,
        )
        raise typer.Exit(143) from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished chunks are kept in {folder}; rerun to resume", err=True)
        raise typer.Exit(130) from None
    report_command = shlex.join(["ludosim", "report", str(folder), "--out", str(folder / "report")])
    _emit(sweep_answer(result, report_command), fmt)
    if fmt == "table" and result.complete:
        typer.echo(f"to write its page: {report_command}")


@app.command(cls=_Command)
@_clean_errors
def report(
    results: Annotated[
        Path,
        typer.Argument(
            metavar="RESULTS",
            help="A sweep folder, a part of one, or a Parquet file written by `simulate --out`.",
            show_default=False,
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder for index.html, its PNG figures and CSV tables (created if needed).",
            show_default=False,
        ),
    ],
    title: Annotated[
        str | None,
        typer.Option("--title", metavar="TEXT", help="Page title (default: the sweep's name)."),
    ] = None,
) -> None:
    """Write an HTML report (PNG figures, CSV tables) of simulation results, or redraw a
    design's page (its tables and page) from its folder.

    Example: ludosim report runs/app-grid --out runs/app-grid/report
    """
    # Checked here, before the report module creates the output folder.
    if not out.strip():
        raise LudosimError("--out is empty; name the report's folder, e.g. --out reports/app-grid")
    if not results.exists():
        raise LudosimError(
            f"RESULTS: no such sweep folder or Parquet file: {results} "
            "(write one with `ludosim sweep ... --out DIR` or `ludosim simulate ... --out FILE`)"
        )
    if results.is_dir() and not any(results.rglob("*.parquet")):
        raise LudosimError(f"RESULTS: {results} holds no .parquet results")
    (is_design,) = _lazy("ludosim.studies.design", "is_design")
    if is_design(results):
        # A design's folder: its page is redrawn from its tables (docs/design.md).
        (report_study,) = _lazy("ludosim.studies.design", "report_study")
        page = report_study(results, Path(out), title=title)
    else:
        (make_report,) = _lazy("ludosim.report.page", "make_report")
        page = make_report(results, Path(out), title=title)
    typer.echo(f"wrote {page}")


@app.command(cls=_Command)
@_clean_errors
def exact(
    preset: PresetOpt,
    pieces: Annotated[
        int, typer.Option("--pieces", metavar="K", help="Pieces of the solo player (1 or 2).")
    ] = 1,
    sets: SetOpt = None,
    fmt: FormatOpt = "table",
) -> None:
    """Exact distribution of turns and rolls of a solo race (players=1), by Markov chain.

    Example: ludosim exact --preset danish --pieces 1
    """
    fmt = _format(fmt)
    solve, format_exact = _lazy("ludosim.reference.exact", "solve", "format_exact")
    for item in sets or ():
        key = item.split("=", 1)[0].strip()
        if key in ("players", "pieces"):
            hint = "the solver plays one seat" if key == "players" else "use --pieces"
            raise LudosimError(
                f"--set {item}: exact solves a solo race (players=1, pieces from --pieces); "
                f"{hint}, leave {key} out of --set"
            )
    chosen = rules_from_options(preset, [*(sets or ()), "players=1", f"pieces={pieces}"])
    result = solve(chosen, label=preset)
    if fmt == "table":
        typer.echo(format_exact(result))  # exact numbers: no intervals to round them by
        return
    (exact_answer,) = _lazy("ludosim.report.answers", "exact_answer")
    _emit(exact_answer(result), fmt)


@app.command(cls=_Command)
@_clean_errors
def tune(
    preset: PresetOpt,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", metavar="FILE", help="Write the tuned policy file (TOML)."),
    ],
    seed: SeedOpt = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="The opponents, one policy per other seat, comma-separated (default: "
            "balanced in every other seat).",
            show_default=False,
        ),
    ] = None,
    old_field: Annotated[
        str | None,
        typer.Option("--field", metavar="A,B,...", hidden=True, help="Now --policy."),
    ] = None,
    sets: SetOpt = None,
    start: Annotated[
        str,
        typer.Option(
            "--start",
            metavar="POLICY",
            help="The weights the search starts from; the look-ahead features it weighs "
            "(danger, chance) are searched too.",
        ),
    ] = "balanced",
    generations: Annotated[
        int, typer.Option("--generations", "-g", metavar="G", help="CMA-ES generations.")
    ] = 20,
    popsize: Annotated[
        int, typer.Option("--popsize", "-k", metavar="K", help="Candidates per generation.")
    ] = 10,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", metavar="N", help="Games per candidate, over all seat positions."
        ),
    ] = 2000,
    eval_games: Annotated[
        int,
        typer.Option(
            "--eval-games",
            metavar="M",
            help="Games of the selection (search mean or start) and again of the final "
            "evaluation; none of them is played in the search.",
        ),
    ] = 20_000,
    quiet: QuietOpt = False,
) -> None:
    """Search policy weights (CMA-ES) that win most often against a field; write a policy file.

    The tuned player takes every seat position in turn. The file is usable as
    `--policy tuned:FILE` and records the command that reproduces it.

    Example: ludosim tune --preset app --policy balanced,balanced,balanced --seed 1 --out app.toml
    """
    seed = _require_seed(seed)
    _require_extra("ludosim tune", "skill", "cma")
    _old_spelling("--field", "--policy", old_field)
    (run_tune,) = _lazy("ludosim.studies.tune", "tune")
    given = [*(policy or ()), *([old_field] if old_field is not None else [])]
    opponents = _policy_list(given) if given else None
    with _compile_notice(), GameProgress("tune", mode(quiet)) as progress:
        result = run_tune(
            preset, sets or (), opponents, seed=seed, start=start, generations=generations,
            popsize=popsize, games=games, eval_games=eval_games, out=out, progress=progress,
        )  # fmt: skip
    rates = ", ".join(f"{k} {v.win_rate:.4f}" for k, v in result.selection.items())
    typer.echo(f"selection over {result.eval_games} games: {rates}; kept {result.chosen}")
    weights = ", ".join(f"{f}={w:g}" for f, w in result.weights.items())
    typer.echo(f"weights: {weights}")
    for label, score in (("tuned", result.score), ("balanced", result.baseline)):
        low, high = score.interval
        typer.echo(
            f"{label}: win rate {score.win_rate:.4f} (95% CI {low:.4f}-{high:.4f}) "
            f"over {score.games} evaluation games; fair {1 / (len(result.field) + 1):.4f}"
        )
    typer.echo(f"wrote {out} (use it as --policy tuned:{out})")


@app.command(cls=_Command)
@_clean_errors
def design(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="STUDY",
            help="A design file (TOML: preset, seed, set, free, goals, limits, the sizes); "
            "instead of the options.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder for the stages' sweeps, the tables and index.html; required.",
            show_default=False,
        ),
    ] = "",
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            "-p",
            metavar="NAME",
            help="The rules the design starts from (see `ludosim presets`); required "
            "without a STUDY file.",
            show_default=False,
        ),
    ] = None,
    sets: SetOpt = None,
    free: Annotated[
        list[str] | None,
        typer.Option(
            "--free",
            metavar="TOGGLE[=A,B]",
            help="A house rule the design may change, at its own value and its usual "
            "alternative, or at A and B; repeat for more (default: every house rule "
            "of the preset's family).",
            show_default=False,
        ),
    ] = None,
    goals: Annotated[
        list[str] | None,
        typer.Option(
            "--goal",
            metavar="GOAL",
            help="What is wanted: short, fairness, skill, drama, action; repeat for "
            "more (the first ranks; default short).",
            show_default=False,
        ),
    ] = None,
    limits: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="MEASURE<=X",
            help='What must hold, e.g. "length<=90 rounds" or "skill>=0.4 RS"; repeat for more '
            "(default: no limits).",
            show_default=False,
        ),
    ] = None,
    screen_games: Annotated[
        int | None,
        typer.Option(
            "--screen-games",
            metavar="N",
            help="Games per rule set of the screening, every seat random (default 40,000).",
        ),
    ] = None,
    skill_games: Annotated[
        int | None,
        typer.Option(
            "--skill-games",
            metavar="N",
            help="Games per rule set of each skill player (the optimal and the fictive), in "
            "one seat against random ones (default 1,600).",
        ),
    ] = None,
    holdout: Annotated[
        int | None,
        typer.Option(
            "--holdout", metavar="N", help="Rule sets held out to check the model (default 8)."
        ),
    ] = None,
    candidates: Annotated[
        int | None,
        typer.Option(
            "--candidates", metavar="N", help="Candidates confirmed on fresh games (default 4)."
        ),
    ] = None,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            "--confirm-games",
            metavar="N",
            help="Games per candidate in the confirmation (one look, fixed in advance; "
            "default 100,000).",
        ),
    ] = None,
    optimal: Annotated[
        str | None,
        typer.Option(
            "--optimal",
            metavar="POLICY",
            help="The relative skill level's optimal player (default expert:32:12).",
        ),
    ] = None,
    fictive: Annotated[
        str | None,
        typer.Option(
            "--fictive",
            metavar="POLICY",
            help="The relative skill level's fictive player, who knows the dice (default fictive).",
        ),
    ] = None,
    seed: StudySeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Which house rules give the game you want: screen, model, search, confirm.

    Screens the free house rules in a fractional factorial, models every measure of a
    rule set (length, fairness, skill, comebacks, captures), searches the rule sets that
    meet the limits for the goals, and confirms the best on fresh games; writes the
    tables, findings.json and a page with an explorer (docs/design.md).

    Example: ludosim design -p app --free finish --free pass_opponents --seed 1 --out runs/design
    """
    load_study, study_from_options, run_study = _lazy(
        "ludosim.studies.design", "load_study", "study_from_options", "run_study"
    )
    _require_extra("ludosim design", "design", "pydoe", "statsmodels", "scipy")
    if not out.strip():
        raise LudosimError("--out is empty; name the design's folder, e.g. --out runs/design")
    # Only the options given: the study's own defaults (`DesignStudy`) stand for the rest.
    given = {
        "screen_games": screen_games,
        "skill_games": skill_games,
        "holdout": holdout,
        "candidates": candidates,
        "confirm_games": confirm_games,
        "optimal": optimal,
        "fictive": fictive,
    }
    if study_file is not None:
        if (
            preset
            or sets
            or free
            or goals
            or limits
            or seed is not None
            or any(v is not None for v in given.values())
        ):
            raise LudosimError(
                "STUDY: the design file holds the preset, free rules, goals, limits, seed, sizes "
                "and players; "
                "give it alone or use the options without it"
            )
        study = load_study(study_file)
    else:
        if not preset:
            raise LudosimError("--preset: name the preset the design starts from")
        _require_seed(seed)
        study = study_from_options(
            preset, seed, sets=sets or (), free=free or (), goals=goals or ("short",),
            limits=limits or (), **{k: v for k, v in given.items() if v is not None},
        )  # fmt: skip
    with _playing("design", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)


def command_names() -> list[str]:
    """Names of every registered command, for docs and tests."""
    return [c.name or c.callback.__name__ for c in app.registered_commands if c.callback]


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (`ludosim = ludosim.cli.app:main`).

    Usage errors (a missing or malformed option) are printed like library
    errors: one line on stderr, exit code 2.
    """
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        code = app(args=args, prog_name="ludosim", standalone_mode=False)
    except _UsageError as exc:
        ctx = getattr(exc, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        typer.echo(f"error: {exc.format_message()}{hint}", err=True)
        sys.exit(getattr(exc, "exit_code", EXIT_ERROR) or EXIT_ERROR)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
