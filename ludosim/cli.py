"""The `ludosim` command line: a thin typer adapter over the library.

Each command parses its options, calls one library function and prints the
result. Library errors (`LudosimError`, and the `ValueError` of a bad seed)
become one line on stderr and exit code 2, never a traceback. `--preset NAME`
and repeated `--set TOGGLE=VALUE` mean the same in every command
(`ludosim.options.rules_from_options`), and so does `--policy A,B,...` (a
comma-separated list, or the option repeated). Long commands draw a progress
bar on stderr (`ludosim.progress`) unless given `-q`. The simulation and
benchmark modules are imported inside their commands, so the light commands
start fast.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from ludosim.errors import LudosimError
from ludosim.options import RuleSet, rules_from_options
from ludosim.policies import (
    DESCRIPTIONS,
    FEATURE_DESCRIPTIONS,
    FEATURES,
    NAMED,
    SCALE,
    parse_policy,
    resolve_policies,
    tuned_names,
    weights_of,
)
from ludosim.progress import GameProgress, wanted
from ludosim.rules import PRESETS, TOGGLES, Rules

try:  # typer >= 0.20 vendors click; its usage errors derive from TyperException
    from typer import TyperException as _UsageError
except ImportError:  # pragma: no cover - older typer raises click's own exceptions
    from click import ClickException as _UsageError

if TYPE_CHECKING:
    import pandas as pd

EXIT_ERROR = 2


def _flags_without_placeholder(params: list[Any]) -> list[Any]:
    """Show on/off options (`--toml`, `-q`, `--help`) as bare flags in --help.

    typer prints a type placeholder such as `<bool>` after every option, which
    makes a flag look as if it took a value; an empty metavar prints none.
    """
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_placeholder(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_without_placeholder(super().get_params(ctx))


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
SeedOpt = Annotated[
    int, typer.Option("--seed", metavar="N", help="Master seed (a non-negative integer).")
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
    bool, typer.Option("--quiet", "-q", help="No progress bar (it is drawn only on a terminal).")
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option("--threads", "-t", metavar="T", help="Worker threads (default: the library's)."),
]
# The rule sets of a study (`skill`, `unfold`): presets side by side, and the first with
# more toggles (`_study_rule_sets`).
PresetsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--preset",
        "-p",
        metavar="NAME",
        help="Preset rule set; repeat to compare several (see `ludosim presets`).",
        show_default=False,
    ),
]
VaryOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--vary",
        metavar="TOGGLE=VALUE,...",
        help="One more rule set: the first preset (and --set) with these toggles; repeat.",
        show_default=False,
    ),
]


def _console() -> Console:
    # Created per call so it writes to the current sys.stdout (test runners swap it).
    return Console(highlight=False)


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


def _split_policies(text: str) -> list[str]:
    """`a,b,c` -> policies; the `f=w` items after a `weights:` name stay with it."""
    items: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if items and items[-1].startswith("weights:") and "=" in token and ":" not in token:
            items[-1] += "," + token
        else:
            items.append(token)
    return items


def _policy_list(values: Sequence[str] | None) -> list[str]:
    """Every `--policy` value, comma-separated or repeated, as one validated list of names.

    An unknown name fails here, before any count check, with the allowed names.
    """
    names = [name for value in values or () for name in _split_policies(value)]
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
    """Floats: whole numbers from 1000 up, else 4 significant digits; "-" for a missing one."""
    if isinstance(value, float):
        if value != value:  # NaN: a measure that does not apply to this row
            return "-"
        return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


@contextlib.contextmanager
def _compile_notice() -> Iterator[None]:
    """Say on stderr why the first run after install (or after a kernel change) is slow."""
    (on_slow_compile,) = _lazy("ludosim.engine", "on_slow_compile")
    message = (
        "compiling the kernel for these rules and policies (only on first use after "
        "install or a kernel change; 15-30 s) ..."
    )
    with on_slow_compile(lambda: typer.echo(message, err=True)):
        yield


@contextlib.contextmanager
def _playing(command: str, quiet: bool) -> Iterator[GameProgress]:
    """The compile notice and the progress bar around a command that plays games."""
    with _compile_notice(), GameProgress(command, wanted(quiet)) as progress:
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
    seed: SeedOpt,
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
) -> None:
    """Play one game with the reference engine, turn by turn, then the final ranking.

    Example: ludosim play --preset killer --seed 7 --positions
    """
    (play_game,) = _lazy("ludosim.play", "play")

    chosen = rules_from_options(preset, sets or ())
    policies = _policies(policy)
    result = play_game(chosen, seed, policies=policies, game=game, positions=positions)
    for line in result.transcript:
        typer.echo(line)
    names = resolve_policies(policies, chosen.players)
    (ranking,) = _lazy("ludosim.analysis", "ranking")
    table = ranking(chosen, result, names if len(set(names)) > 1 else None)
    typer.echo("")
    typer.echo(_game_headline(result))
    _console().print(_frame_table(table))


def _game_headline(result: Any) -> str:
    """Who won one reference game, and when it ended."""
    ending = "truncated at max_turns" if result.truncated else "ended"
    winner = f"seat {result.winner} won" if result.winner >= 0 else "nobody finished"
    return (
        f"{winner} after {result.turns} turns ({result.rolls} rolls); "
        f"the game {ending} after {result.end_turns} turns"
    )


@app.command(cls=_Command)
@_clean_errors
def simulate(
    preset: PresetOpt,
    seed: SeedOpt,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games.")
    ] = 10_000,
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", metavar="FILE", help="Write the per-game rows to this Parquet file."
        ),
    ] = None,
    summary: Annotated[
        bool,
        typer.Option(
            "--summary",
            help="Accumulate in the kernel instead of keeping per-game rows (memory flat in "
            "--games); prints wins by turn order and the mean game length.",
        ),
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Simulate many games with the compiled engine; print a summary or write Parquet.

    Example: ludosim simulate --preset app --set pass_opponents=all --games 10000 --seed 1
    """
    if summary and out is not None:
        raise LudosimError("--summary keeps no per-game rows for --out to write; use one of them")
    chosen = rules_from_options(preset, sets or ())
    (run_simulation,) = _lazy("ludosim.simulate", "simulate")
    check_output_file, write_parquet = _lazy(
        "ludosim.results", "check_output_file", "write_parquet"
    )
    # A bad --out fails now, not after the games are played.
    path = None if out is None else check_output_file(out)
    kwargs: dict[str, Any] = {"policies": _policies(policy), "summary": summary}
    if threads is not None:
        kwargs["threads"] = threads
    with _playing("simulate", quiet) as progress:
        result = run_simulation(chosen, games, seed, progress=progress, **kwargs)
    if summary:
        headline = _headline(preset, result.games, result.mean("turns"), result.truncated)
        (summarise_wins,) = _lazy("ludosim.analysis", "summarise_wins")
        _show(_frame_table(summarise_wins(result.wins_by_position, result.games), title=headline))
        return
    if path is not None:
        write_parquet(result, path)
        typer.echo(f"wrote {len(result)} rows to {path}")
        return
    truncated = int(result["truncated"].sum()) if "truncated" in result.columns else 0
    headline = _headline(preset, len(result), result["turns"].mean(), truncated)
    (summarise,) = _lazy("ludosim.analysis", "summarise")
    _show(_frame_table(summarise(result, chosen.players), title=headline))


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
    seed: SeedOpt,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games.")
    ] = 10_000,
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """From a position, who wins? Each seat's win chance and the likeliest finishing order.

    Example: ludosim whatif 1:20,Y,Y,Y/5,Y,Y,Y/Y,Y,Y,Y/30,Y,Y,Y --preset app --games 2000 --seed 1
    """
    chosen = rules_from_options(preset, sets or ())
    parse_position, run_whatif = _lazy("ludosim.whatif", "parse_position", "whatif")
    # Bad notation fails now, before the kernel is compiled.
    start = parse_position(position, chosen)
    kwargs: dict[str, Any] = {"policies": _policies(policy)}
    if threads is not None:
        kwargs["threads"] = threads
    with _playing("whatif", quiet) as progress:
        result = run_whatif(chosen, start, games, seed, progress=progress, **kwargs)
    title = f"{preset}: {result.games} games from {result.position} (seat {start.to_move} to move)"
    _show(_frame_table(result.table(), title=title))
    order = " > ".join(f"seat {s}" for s in result.order)
    typer.echo(
        f"most likely finishing order: {order} "
        f"({result.order_share:.1%} of games, {result.order_games} of {result.games})"
    )
    if result.no_winner:
        typer.echo(f"{result.no_winner} games reached max_turns with no winner")


def _headline(preset: str, games: int, mean_turns: float, truncated: int) -> str:
    return f"{preset}: {games} games, mean {mean_turns:.1f} turns" + (
        f", {truncated} truncated" if truncated else ""
    )


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
        typer.Option("--threads", "-t", metavar="T", help="Thread count to time; repeat for more."),
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
    quiet: QuietOpt = False,
) -> None:
    """Time the compiled engine (and the reference engine) in games per second.

    Prints one row per rules, policy, engine and thread count, then what each column
    means; "-" marks a measure that does not apply to the row (a reference-engine row
    has no kernel ratios).

    Example: ludosim bench --preset app --games 100000 --threads 1 --policy balanced
    """
    names = list(preset) if preset else list(PRESETS)
    for name in names:
        Rules.preset(name)  # an unknown name fails before any timing starts
    timed = _policy_list(policy)  # so does an unknown policy
    run_bench, columns = _lazy("ludosim.bench", "run_bench", "COLUMNS")
    kwargs: dict[str, Any] = {"presets": names, "games": games, "reference_games": reference_games}
    if threads:
        kwargs["threads"] = list(threads)
    if timed:
        kwargs["policies"] = timed
    with _playing("bench", quiet) as progress:
        df = run_bench(progress=progress, **kwargs)
    _show(_frame_table(df, title="Benchmark (games/s)"))
    for column in df.columns:
        if column in columns:
            typer.echo(f"{column}: {columns[column]}")


@app.command(cls=_Command)
@_clean_errors
def tournament(
    preset: PresetOpt,
    seed: SeedOpt,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            "--policies",
            metavar="A,B,...",
            help="One policy per seat, comma-separated (see `ludosim policies`), rotated "
            "through every seat.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games over all rotations.")
    ] = 10_000,
    sets: SetOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Every policy in every seat: win rates with 95% confidence intervals.

    Example: ludosim tournament --preset killer --policy balanced,runner,random,random --seed 1
    """
    names = _policy_list(policy)
    if not names:
        raise LudosimError("name one policy per seat with --policy A,B,...")
    chosen = rules_from_options(preset, sets or ())
    (run_tournament,) = _lazy("ludosim.tournament", "tournament")
    with _playing("tournament", quiet) as progress:
        table = run_tournament(chosen, names, games, seed, threads=threads, progress=progress)
    title = (
        f"{preset}: {int(table['games'].iloc[0])} games, "
        f"{chosen.players} rotations (95% Wilson intervals)"
    )
    _show(_frame_table(table, title=title))


@app.command(cls=_Command)
@_clean_errors
def ratings(
    preset: PresetOpt,
    seed: SeedOpt,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            metavar="A,B,...",
            help="Players of the ladder, comma-separated (see `ludosim policies`); at least "
            "one per seat. Default: random, runner, aggressive, defensive, pacifist, balanced.",
            show_default=False,
        ),
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
    quiet: QuietOpt = False,
) -> None:
    """Multi-player ratings (openskill Plackett-Luce) of a ladder of policies.

    Example: ludosim ratings --preset app --players random,runner,balanced,aggressive --seed 1
    """
    chosen = rules_from_options(preset, sets or ())
    rate, default = _lazy("ludosim.ratings", "ratings", "DEFAULT_PLAYERS")
    names = _policy_list(players) or list(default)
    with _playing("ratings", quiet) as progress:
        table = rate(
            chosen, names, games, seed, bootstrap=bootstrap, threads=threads, progress=progress
        )
    title = (
        f"{preset}: {table.attrs['games']} games, Plackett-Luce ratings "
        f"(ordinal = mu - 3 sigma; 95% bootstrap interval of mu over {bootstrap} resamples)"
    )
    _show(_frame_table(table, title=title))


@app.command(cls=_Command)
@_clean_errors
def skill(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[STUDY]",
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
            "index.html and its PNGs.",
            show_default=False,
        ),
    ] = "",
    presets: PresetsOpt = None,
    sets: SetOpt = None,
    vary: VaryOpt = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            metavar="A,B,...",
            help="The ladder, comma-separated (default: random, runner, aggressive, defensive, "
            "pacifist, balanced and tuned-<preset> when shipped).",
            show_default=False,
        ),
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
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Master seed (a non-negative integer)."),
    ] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """How much each rule set rewards skill, and the strategy meta-game: CSV tables and a page.

    Each rule set: a ladder of players rated with Plackett-Luce; its strongest player
    against three random and three balanced players; every pair head to head, and the
    equilibrium mix of that game with its support over resampled games.

    Example: ludosim skill --preset app --vary finish=bounce --seed 1 --out skill-app
    """
    load_study, study_type, run_study = _lazy("ludosim.skill", "load_study", "Study", "run_study")
    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out reports/skill")
    if study_file is not None:
        if presets or sets or vary or players or strongest or seed is not None:
            raise LudosimError(
                "STUDY: the study file holds the rule sets, players, sizes and seed; give it "
                "alone or use --preset/--set/--vary/--players/--seed without it"
            )
        study = load_study(study_file)
    else:
        chosen = _study_rule_sets(presets, sets, vary, seed)
        names = _policy_list(players) or None
        study = study_type(
            tuple(chosen), seed, tuple(names) if names else None, strongest, games=games,
            match_games=match_games, pair_games=pair_games, headline_games=headline_games,
            bootstrap=bootstrap,
            resamples=resamples,
        )  # fmt: skip
    with _playing("skill", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    typer.echo(f"wrote {page} with its tables")


@app.command(cls=_Command)
@_clean_errors
def unfold(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="[STUDY]",
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
            "and its PNGs.",
            show_default=False,
        ),
    ] = "",
    presets: PresetsOpt = None,
    sets: SetOpt = None,
    vary: VaryOpt = None,
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
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Master seed (a non-negative integer)."),
    ] = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """How games unfold: the leader's win chance by lead and phase, and comebacks.

    Each rule set: games with the game-flow counters and snapshots of the seats' totals;
    the win chance of the seat ahead by its lead at each phase of the game, the share of
    games won from last place at mid-game, when games are decided, and how often the
    lead changes, each with its 95% interval and its change from the first rule set.

    Example: ludosim unfold --preset app --vary finish=bounce --games 20000 --seed 1 --out unfold
    """
    load_unfold, study_type, run_unfold = _lazy(
        "ludosim.unfold", "load_unfold", "UnfoldStudy", "run_unfold"
    )
    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out reports/leads")
    if study_file is not None:
        if presets or sets or vary or policy or seed is not None:
            raise LudosimError(
                "STUDY: the study file holds the rule sets, players, sizes and seed; give it "
                "alone or use --preset/--set/--vary/--policy/--seed without it"
            )
        study = load_unfold(study_file)
    else:
        chosen = _study_rule_sets(presets, sets, vary, seed)
        names = _policy_list(policy)
        study = study_type(
            tuple(chosen), seed, games=games, every=every,
            policies=",".join(names) if names else "random",
        )  # fmt: skip
    with _playing("unfold", quiet) as progress:
        page = run_unfold(study, Path(out), threads=threads, progress=progress)
    typer.echo(f"wrote {page} with its tables")


def _study_rule_sets(
    presets: Sequence[str] | None,
    sets: Sequence[str] | None,
    vary: Sequence[str] | None,
    seed: int | None,
) -> list[RuleSet]:
    """A study's rule sets from the options: each preset with `--set`, then the first
    preset with each `--vary`; a study without a study file needs a preset and a seed."""
    if not presets:
        raise LudosimError("--preset: name at least one preset (see `ludosim presets`)")
    if seed is None:
        raise LudosimError("--seed: give a master seed (a non-negative integer)")
    base = tuple(sets or ())
    chosen = [RuleSet(p, base) for p in presets]
    chosen += [RuleSet(presets[0], base + tuple(_split_sets(v))) for v in vary or ()]
    return chosen


def _split_sets(text: str) -> list[str]:
    """`a=1,b=2` -> ["a=1", "b=2"]; a value holding commas (`safe=starts,stars`) stays whole."""
    items: list[str] = []
    for token in text.split(","):
        if "=" in token or not items:
            items.append(token.strip())
        else:
            items[-1] += "," + token.strip()
    return items


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
        typer.Argument(help="Sweep file (TOML, see docs/sweep.md); or use the options below."),
    ] = None,
    preset: Annotated[
        str | None, typer.Option("--preset", "-p", help="Base preset of the grid.")
    ] = None,
    sets: SetOpt = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            "-v",
            help="A toggle (or policies) and its values, TOGGLE=V1,V2; repeat for a grid. "
            "Values holding commas go in brackets (docs/sweep.md).",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="A starting point PRESET or NAME=PRESET; repeat."),
    ] = None,
    mode: Annotated[
        str | None, typer.Option("--mode", help="grid (full factorial) or one-at-a-time.")
    ] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="Games per cell.")] = None,
    precision: Annotated[
        str | None,
        typer.Option(
            "--precision",
            help="Play each cell until the 95% interval has this half-width: 0.25pp "
            "(first-player advantage) or 1turn (mean game length); instead of --games.",
        ),
    ] = None,
    pilot: Annotated[
        int | None,
        typer.Option("--pilot", help="Pilot games per cell of --precision (default 20000)."),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option("--max-games", help="Most games per cell of --precision (default 10000000)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Master seed of every cell.")] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Policy of every seat, or one per seat, comma-separated (see `ludosim policies`).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", help="Output folder (default with a file: runs/<file>)."),
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option("--chunk-size", help="Games per chunk file (default 250000).")
    ] = None,
    summary_only: Annotated[
        bool,
        typer.Option("--summary-only", help="Keep per-chunk summaries instead of every game."),
    ] = False,
    dask: Annotated[
        str | None,
        typer.Option("--dask", help="Run on Dask: local (a LocalCluster) or tcp://HOST:PORT."),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes of --dask local.")
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
        int | None, typer.Option("--threads", "-t", help="Kernel threads per chunk.")
    ] = None,
    new: Annotated[
        bool,
        typer.Option("--new", help="Move a folder of another sweep aside and start afresh."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list the cells; play nothing.")
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Play grids of rule variants into a resumable Parquet folder; rerun to resume.

    Example: ludosim sweep --preset app --vary six_limit=0,3 --seed 1 --out runs/six
    """
    check_run_options, plan, run_sweep, spec_from_command = _lazy(
        "ludosim.sweep", "check_run_options", "plan", "run_sweep", "spec_from_command"
    )
    (Terminated,) = _lazy("ludosim.sweep.execute", "Terminated")

    if dask_wait is not None and dask_wait <= 0:
        raise LudosimError(f"--dask-wait must be a positive number of seconds, got {dask_wait:g}")

    if out is not None and not out.strip():
        raise LudosimError("--out is empty; name the sweep's folder, e.g. --out runs/my-grid")
    # Executor options are checked before any folder is made.
    check_run_options(dask, workers, threads)
    spec, folder = spec_from_command(
        spec_file,
        preset=preset,
        sets=sets or (),
        vary=vary or (),
        variants=variant or (),
        mode=mode,
        policies=_policies(policy) if policy else None,
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
        title = f"{len(cells)} cells x {size}, seed {spec.seed} -> {folder}"
        _show(_frame_table(cells, title=title))
        if extra and (table["plan"] == "pilot first").any():
            typer.echo(
                "pilot first: the sweep plays each cell's pilot, then the games its "
                "variance asks for; rerun --dry-run after the pilots to see them"
            )
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
    typer.echo(result.describe())


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
    """Write an HTML report (PNG figures, CSV tables) of simulation results.

    Example: ludosim report runs/app-grid --out reports/app-grid
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
    (make_report,) = _lazy("ludosim.report", "make_report")
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
) -> None:
    """Exact distribution of turns and rolls of a solo race (players=1), by Markov chain.

    Example: ludosim exact --preset danish --pieces 1
    """
    solve, format_exact = _lazy("ludosim.exact", "solve", "format_exact")
    chosen = rules_from_options(preset, [*(sets or ()), "players=1", f"pieces={pieces}"])
    typer.echo(format_exact(solve(chosen, label=preset)))


@app.command(cls=_Command)
@_clean_errors
def tune(
    preset: PresetOpt,
    seed: SeedOpt,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", metavar="FILE", help="Write the tuned policy file (TOML)."),
    ],
    field: Annotated[
        str | None,
        typer.Option(
            "--field",
            metavar="A,B,...",
            help="The opponents, one policy per other seat, comma-separated (default: "
            "balanced in every other seat).",
            show_default=False,
        ),
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

    Example: ludosim tune --preset app --field balanced,balanced,balanced --seed 1 --out app.toml
    """
    (run_tune,) = _lazy("ludosim.tune", "tune")
    opponents = _policy_list([field]) if field is not None else None
    with _compile_notice(), GameProgress("tune", wanted(quiet)) as progress:
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


def command_names() -> list[str]:
    """Names of every registered command, for docs and tests."""
    return [c.name or c.callback.__name__ for c in app.registered_commands if c.callback]


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (`ludosim = ludosim.cli:main`).

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
