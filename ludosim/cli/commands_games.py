"""The commands that play games of one rule set or a few: `play` (one game, turn by
turn), `simulate` (many), `compare` (paired games until a difference is known),
`whatif` (from a position) and `exact` (a solo race solved exactly).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ludosim.cli.output import _emit, _playing, _wrote
from ludosim.cli.params import (
    FormatOpt,
    PolicyOpt,
    PresetOpt,
    QuietOpt,
    SeedOpt,
    SetOpt,
    ThreadsOpt,
    _format,
    _policies,
    _require_seed,
)
from ludosim.rules.errors import LudosimError
from ludosim.rules.options import GRAMMAR, RuleSet, rules_from_options


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
    from ludosim.report.answers import game_answer
    from ludosim.run.play import play as play_game

    rule_set = RuleSet(preset, tuple(sets or ()))
    policies = _policies(policy)
    result = play_game(rule_set.rules(), seed, policies=policies, game=game, positions=positions)
    answer = game_answer(rule_set, result, policies)
    _emit(answer, fmt, before=[*result.transcript, ""])


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
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace the --out file when it exists already."),
    ] = False,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Simulate many games with the compiled engine: game length, turn order and findings.

    Prints the mean game length in rounds and player turns, the first player's edge
    against its fair share and every turn-order position's win share (position 0
    moves first), each with its 95% interval, then the findings a report of these
    games would state. `--out` writes the rows to Parquet instead; a file already there
    is refused before any game, or replaced with `--force`.

    Example: ludosim simulate --preset app --set pass_opponents=all --games 10000 --seed 1
    """
    seed = _require_seed(seed)
    fmt = _format(fmt)
    if summary and out is not None:
        raise LudosimError("--summary keeps no per-game rows for --out to write; use one of them")
    rule_set = RuleSet(preset, tuple(sets or ()))
    chosen = rule_set.rules()
    from ludosim.report.answers import games_answer, summary_answer
    from ludosim.results import check_output_file, write_parquet
    from ludosim.run.simulate import simulate as run_simulation

    # A bad --out fails now, not after the games are played.
    path = None if out is None else check_output_file(out, overwrite=force)
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
        write_parquet(result, path, overwrite=force)
        _wrote(fmt, "simulate", path, f"wrote {len(result)} rows to {path}", rows=len(result))
        return
    _emit(games_answer("simulate", result, rule_set, policies, seed), fmt)


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
    from ludosim.studies.compare import compare as run_compare

    kwargs: dict[str, Any] = {"precision": precision, "policies": _policies(policy)}
    with _playing("compare", quiet) as progress:
        result = run_compare(
            rule_sets, seed, max_games=max_games, first_batch=first_batch, threads=threads,
            progress=progress, **kwargs,
        )  # fmt: skip
    _emit(result.answer(), fmt)


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
    from ludosim.studies.whatif import parse_position
    from ludosim.studies.whatif import whatif as run_whatif

    # Bad notation fails now, before the kernel is compiled.
    start = parse_position(position, chosen)
    kwargs: dict[str, Any] = {"policies": _policies(policy)}
    if threads is not None:
        kwargs["threads"] = threads
    with _playing("whatif", quiet) as progress:
        result = run_whatif(chosen, start, games, seed, progress=progress, **kwargs)
    _emit(result.answer(rule_set.label, start.to_move), fmt)


def exact(
    preset: PresetOpt,
    pieces: Annotated[
        int,
        typer.Option(
            "--pieces", metavar="K", help="Pieces of the solo player, or of each duellist (1 or 2)."
        ),
    ] = 1,
    sets: SetOpt = None,
    duel: Annotated[
        bool,
        typer.Option(
            "--duel",
            help="Solve the preset reduced to two players on the shortest board (arm_length=7, "
            "home_len=2; --set applies after the reduction): random, optimal, best-play and "
            "clairvoyant values and the relative skill RS (docs/exact.md, Duels).",
        ),
    ] = False,
    sequences: Annotated[
        int,
        typer.Option(
            "--sequences", metavar="N", help="--duel: dice sequences the clairvoyant is solved on."
        ),
    ] = 2000,
    show_game: Annotated[
        int | None,
        typer.Option(
            "--show-game",
            metavar="G",
            help="--duel: also show game G (from --seed) of the optimal player against a "
            "random one, roll by roll, with each roll's luck and each move's cost; default: "
            "no game shown.",
            show_default=False,
        ),
    ] = None,
    seed: SeedOpt = None,
    fmt: FormatOpt = "table",
) -> None:
    """Exact distribution of turns and rolls of a solo race (players=1), by Markov chain;
    with --duel, a two-player reduced game solved by value iteration.

    Example: ludosim exact --preset danish --pieces 1
    """
    fmt = _format(fmt)
    if show_game is not None and not duel:
        raise LudosimError("--show-game: shows a duel's game; add --duel")
    if show_game is not None and show_game < 0:
        raise LudosimError(f"--show-game: a game number 0 or more, got {show_game}")
    if duel:
        # The clairvoyant's dice sequences are drawn: a duel needs its seed like any draw.
        _exact_duel(preset, pieces, sets or [], sequences, _require_seed(seed), fmt, show_game)
        return
    from ludosim.reference.exact import format_exact, solve

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
    from ludosim.report.answers import exact_answer

    _emit(exact_answer(result), fmt)


def _exact_duel(
    preset: str,
    pieces: int,
    sets: list[str],
    sequences: int,
    seed: int,
    fmt: str,
    show_game: int | None = None,
) -> None:
    """`exact --duel`: the preset reduced to a duel, then `--set`, solved (`solve_graph`);
    with `show_game`, that game of the optimal player against random, roll by roll."""
    from ludosim.reference.duel import solve_graph
    from ludosim.reference.duelgraph import build_graph, check_duel, duel_rules
    from ludosim.report.answers import duel_answer
    from ludosim.rules.model import Rules
    from ludosim.rules.options import parse_sets

    for item in sets:
        key = item.split("=", 1)[0].strip()
        if key in ("players", "pieces"):
            raise LudosimError(
                f"--set {item}: a duel has two players (pieces from --pieces); leave {key} "
                "out of --set"
            )
    chosen = duel_rules(Rules.preset(preset), pieces, **parse_sets(sets))
    label = " ".join([preset, *sets])
    if sequences < 2:
        raise LudosimError(f"--sequences: need at least 2, got {sequences}")
    check_duel(chosen)
    graph = build_graph(chosen)
    result, values, _ = solve_graph(graph, label=label, sequences=sequences, seed=seed)
    answer = duel_answer(result)
    if show_game is None:
        _emit(answer, fmt)
        return
    from ludosim.reference.duelgames import play_traced
    from ludosim.report.answers import traced_answer

    trace = play_traced(graph, values, ("optimal", "random"), seed, show_game)
    shown = traced_answer(trace, show_game, seed)
    if fmt == "json":
        answer.details["game"] = {"game": show_game, "notes": shown.notes,
                                  "rolls": shown.estimates.to_dict("records")}  # fmt: skip
        _emit(answer, fmt)
    elif fmt == "csv":
        _emit(shown, fmt)  # the game asked for; the duel's values are its JSON and table
    else:
        _emit(answer, fmt)
        _emit(shown, fmt)
