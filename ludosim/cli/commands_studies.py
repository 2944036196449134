"""The commands of the players and the studies: `tournament`, `ratings`, `skill`,
`unfold`, `tune` and `design`. A study (`skill`, `unfold`, `design`) reads its study
file or the options, plays, and writes its tables and page to `--out`; `skill` and
`unfold` keep each part as it is played, so a stopped one resumes when rerun.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated

import typer

from ludosim.cli.output import _emit, _playing, _study_written
from ludosim.cli.params import (
    FormatOpt,
    PolicyOpt,
    PresetOpt,
    PresetsOpt,
    QuietOpt,
    RuleSetOpt,
    SeedOpt,
    SetOpt,
    StudySeedOpt,
    ThreadsOpt,
    VaryOpt,
    _format,
    _old_spelling,
    _policy_list,
    _require_extra,
    _require_seed,
    _study_from,
)
from ludosim.cli.progress import GameProgress
from ludosim.rules.errors import LudosimError
from ludosim.rules.options import RuleSet, study_rule_sets
from ludosim.studies.defaults import DESIGN, DUELS, FICTIVE, OPTIMAL, SKILL, UNFOLD


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
    from ludosim.studies.tournament import tournament_answer

    with _playing("tournament", quiet) as progress:
        answer = tournament_answer(rule_set, names, games, seed, threads=threads, progress=progress)
    _emit(answer, fmt)


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
    from ludosim.studies.ratings import DEFAULT_PLAYERS, ratings_answer
    from ludosim.studies.ratings import ratings as rate

    names = _policy_list([*(policy or ()), *(old_players or ())]) or list(DEFAULT_PLAYERS)
    with _playing("ratings", quiet) as progress:
        table = rate(
            chosen, names, games, seed, bootstrap=bootstrap, threads=threads, progress=progress
        )
    _emit(ratings_answer(table, rule_set.label, bootstrap), fmt)


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
    ] = SKILL["games"],
    match_games: Annotated[
        int,
        typer.Option(
            "--match-games", metavar="M", help="Games of the strongest player against each field."
        ),
    ] = SKILL["match_games"],
    pair_games: Annotated[
        int, typer.Option("--pair-games", metavar="K", help="Games of each head-to-head pair.")
    ] = SKILL["pair_games"],
    headline_games: Annotated[
        int,
        typer.Option(
            "--headline-games",
            metavar="H",
            help="Games of the first-player advantage with random and with skilled seats.",
        ),
    ] = SKILL["headline_games"],
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", "-b", metavar="B", help="Rating refits for intervals.")
    ] = SKILL["bootstrap"],
    resamples: Annotated[
        int,
        typer.Option(
            "--resamples", metavar="R", help="Head-to-head matrices resampled for the meta-game."
        ),
    ] = SKILL["resamples"],
    skill_games: Annotated[
        int,
        typer.Option(
            "--skill-games",
            metavar="S",
            help="Games of the optimal and of the fictive player against three random "
            "players, each, for the relative skill level.",
        ),
    ] = SKILL["skill_games"],
    optimal: Annotated[
        str,
        typer.Option(
            "--optimal", metavar="NAME", help="The optimal player of the relative skill level."
        ),
    ] = OPTIMAL,
    fictive: Annotated[
        str,
        typer.Option(
            "--fictive",
            metavar="NAME",
            help="The fictive player (knows the dice in advance) of the relative skill level.",
        ),
    ] = FICTIVE,
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

    Example: ludosim skill --preset app --vary finish=exact,bounce --seed 1 --out runs/skill-app
    """
    _require_extra("ludosim skill", "skill", "openskill", "scipy")
    from ludosim.studies.skill import Study, load_study, run_study

    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out runs/skill")
    _old_spelling("--players", "--policy", old_players)
    players = [*(policy or ()), *(old_players or ())]

    def from_options() -> Study:
        chosen = _study_rule_sets(presets, sets, vary, rule_set, seed)
        names = _policy_list(players) or None
        return Study(
            tuple(chosen), seed, tuple(names) if names else None, strongest, games=games,
            match_games=match_games, pair_games=pair_games, headline_games=headline_games,
            bootstrap=bootstrap, resamples=resamples, skill_games=skill_games, optimal=optimal,
            fictive=fictive,
        )  # fmt: skip

    options = {"--preset": presets, "--set": sets, "--vary": vary, "--rule-set": rule_set,
               "--policy": players, "--strongest": strongest, "--seed": seed}  # fmt: skip
    study = _study_from(study_file, options, load_study, from_options,
                        "the rule sets, players, sizes and seed")  # fmt: skip
    with _resumable("skill", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)


class _Says(logging.Handler):
    """Prints what a study logs (`resuming: 3 of 9 parts already played`) as it is."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(" ".join(record.getMessage().split()), err=True)


@contextlib.contextmanager
def _resumable(command: str, quiet: bool) -> Iterator[GameProgress]:
    """`_playing` for a study that keeps its finished parts (`ludosim.studies.parts`): it
    says when it resumes; stopped by Ctrl-C or SIGTERM, it says in one line how many
    parts are kept and that rerunning resumes, and exits with 130 (143 after SIGTERM),
    as a sweep does."""
    from ludosim.studies.parts import StudyStopped

    logger = logging.getLogger("ludosim.studies")
    handler = _Says(logging.INFO)
    logger.addHandler(handler)
    try:
        with _playing(command, quiet) as progress:
            yield progress
    except StudyStopped as exc:
        typer.echo(exc.text(), err=True)
        raise typer.Exit(143 if exc.terminated else 130) from None
    finally:
        logger.removeHandler(handler)


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
    ] = UNFOLD["games"],
    every: Annotated[
        int,
        typer.Option(
            "--every", metavar="K", help="Snapshot every K turns (0: two rounds of the seats)."
        ),
    ] = UNFOLD["every"],
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

    Example: ludosim unfold --preset app --vary six_limit=0,3 --seed 1 --out runs/unfold-app
    """
    from ludosim.studies.unfold import UnfoldStudy, load_study, run_study

    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out runs/unfold")

    def from_options() -> UnfoldStudy:
        chosen = _study_rule_sets(presets, sets, vary, rule_set, seed)
        names = _policy_list(policy)
        return UnfoldStudy(
            tuple(chosen), seed, games=games, every=every,
            policies=",".join(names) if names else "random",
        )  # fmt: skip

    options = {"--preset": presets, "--set": sets, "--vary": vary, "--rule-set": rule_set,
               "--policy": policy, "--seed": seed}  # fmt: skip
    study = _study_from(study_file, options, load_study, from_options,
                        "the rule sets, players, sizes and seed")  # fmt: skip
    with _resumable("unfold", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)


def duels(
    study_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="STUDY",
            help="A study file (TOML: seed, sizes, players, one [[duel]] per reduced game); "
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
            help="Folder for exact.csv, players.csv, luck.csv, index.html and its PNGs; required.",
            show_default=False,
        ),
    ] = "",
    presets: PresetsOpt = None,
    pieces: Annotated[
        int, typer.Option("--pieces", metavar="K", help="Pieces a side in every duel (1 or 2).")
    ] = 2,
    sets: SetOpt = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="LIST",
            help="The players measured against exact play (comma-separated); default: "
            "balanced,expert,fictive.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", metavar="N", help="Kernel games per player against random play."
        ),
    ] = DUELS["player_games"],
    luck_games: Annotated[
        int,
        typer.Option(
            "--luck-games", metavar="N", help="Games walked per pair of players for luck and cost."
        ),
    ] = DUELS["luck_games"],
    sequences: Annotated[
        int,
        typer.Option(
            "--sequences", metavar="N", help="Dice sequences the clairvoyant is solved on."
        ),
    ] = DUELS["sequences"],
    seed: StudySeedOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Exact play in reduced games, and the skill pages' players measured against it.

    Each duel (a preset reduced to two players with one or two pieces on a short board;
    --set applies after the reduction) is solved exactly: the optimal player, best play
    by both, the clairvoyant and the relative skill level RS; the luck of every roll and
    the cost of every move; and the kernel's players against random play in the same
    rules, each beside the exact number it stands for (docs/skill.md).

    Example: ludosim duels --preset maedn --pieces 1 --games 400 --seed 1 --out runs/duels
    """
    from ludosim.studies.duels import PLAYERS, Duel, DuelsStudy, load_study, run_study

    if not out.strip():
        raise LudosimError("--out is empty; name the study's folder, e.g. --out runs/duels")

    def from_options() -> DuelsStudy:
        if not presets:
            raise LudosimError("--preset: name at least one preset to reduce, or a STUDY file")
        names = _policy_list(policy)
        return DuelsStudy(
            tuple(Duel(p, pieces, tuple(sets or ())) for p in presets), _require_seed(seed),
            sequences=sequences, luck_games=luck_games, player_games=games,
            players=tuple(names) if names else PLAYERS,
        )  # fmt: skip

    options = {"--preset": presets, "--set": sets, "--policy": policy, "--seed": seed}
    study = _study_from(study_file, options, load_study, from_options,
                        "the duels, players, sizes and seed")  # fmt: skip
    with _playing("duels", quiet) as progress:
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

    Example: ludosim tune --preset app --policy balanced,runner,random --seed 1 --out runs/app.toml
    """
    seed = _require_seed(seed)
    _require_extra("ludosim tune", "skill", "cma")
    _old_spelling("--field", "--policy", old_field)
    from ludosim.studies.tune import tune as run_tune

    given = [*(policy or ()), *([old_field] if old_field is not None else [])]
    opponents = _policy_list(given) if given else None
    with _playing("tune", quiet) as progress:
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
            help="Games per rule set of the screening, every seat random "
            f"(default {DESIGN['screen_games']:,}).",
        ),
    ] = None,
    skill_games: Annotated[
        int | None,
        typer.Option(
            "--skill-games",
            metavar="N",
            help="Games per rule set of each skill player (the optimal and the fictive), in "
            f"one seat against random ones (default {DESIGN['skill_games']:,}).",
        ),
    ] = None,
    holdout: Annotated[
        int | None,
        typer.Option(
            "--holdout",
            metavar="N",
            help=f"Rule sets held out to check the model (default {DESIGN['holdout']}).",
        ),
    ] = None,
    candidates: Annotated[
        int | None,
        typer.Option(
            "--candidates",
            metavar="N",
            help=f"Candidates confirmed on fresh games (default {DESIGN['candidates']}).",
        ),
    ] = None,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            "--confirm-games",
            metavar="N",
            help="Games per candidate in the confirmation (one look, fixed in advance; "
            f"default {DESIGN['confirm_games']:,}).",
        ),
    ] = None,
    optimal: Annotated[
        str | None,
        typer.Option(
            "--optimal",
            metavar="POLICY",
            help=f"The relative skill level's optimal player (default {DESIGN['optimal']}).",
        ),
    ] = None,
    fictive: Annotated[
        str | None,
        typer.Option(
            "--fictive",
            metavar="POLICY",
            help="The relative skill level's fictive player, who knows the dice "
            f"(default {FICTIVE}).",
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
    from ludosim.studies.design import DesignStudy, load_study, run_study, study_from_options

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

    def from_options() -> DesignStudy:
        if not preset:
            raise LudosimError("--preset: name the preset the design starts from")
        _require_seed(seed)
        return study_from_options(
            preset, seed, sets=sets or (), free=free or (), goals=goals or ("short",),
            limits=limits or (), **{k: v for k, v in given.items() if v is not None},
        )  # fmt: skip

    options = {"--preset": preset, "--set": sets, "--free": free, "--goal": goals,
               "--limit": limits, "--seed": seed,
               **{"--" + k.replace("_", "-"): v for k, v in given.items()}}  # fmt: skip
    holds = "the preset, free rules, goals, limits, seed, sizes and players"
    study = _study_from(study_file, options, load_study, from_options, holds)
    with _playing("design", quiet) as progress:
        page = run_study(study, Path(out), threads=threads, progress=progress)
    _study_written(page)
