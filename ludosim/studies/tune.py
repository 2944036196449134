"""Tuned players: policy weights searched with CMA-ES to beat a field of opponents.

A candidate is a vector of feature weights (`ludosim.rules.policies.BASE_FEATURES`, in
units, and the look-ahead features the start weighs). Its fitness is its win
rate when it plays every seat position in turn against the field (the
tournament rotation of `[candidate, *field]`, as in `ludosim.studies.tournament`), over
`games` games per evaluation. The search is CMA-ES (the `cma` package) started
from the `start` policy's weights (default `balanced`):

- weights are rounded to thousandths (the engines' integer scale) before a
  candidate plays, so what is measured is exactly what the file will play;
- common random numbers: every candidate of generation `g` plays the same
  games (game indices `g * games ...` of the master seed), so candidates are
  compared on the same dice and only their play differs;
- the search's answer is the distribution mean after the last generation
  (less flattered by lucky games than the best single candidate); it replaces
  the start only if it wins more of `eval_games` selection games, and the
  choice is then scored on `eval_games` further games, with its Wilson 95%
  interval, `balanced` playing the same games as the baseline. No candidate
  plays a selection or evaluation game during the search;
- everything is a function of `seed`: the game streams, and CMA-ES's own
  sampling, which draws from a generator seeded from it (never the clock or
  numpy's global generator). Same arguments, same weights, same score.

The result is written as a policy file (`TunedPolicy.to_toml`) that every
command accepts as `tuned:PATH`; the shipped ones are `tuned-<preset>`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ludosim.results.failures import ResultsError, write_error
from ludosim.results.parquet import check_output_target, write_bytes_atomic
from ludosim.results.stats import wilson_interval
from ludosim.rules.errors import LudosimError, missing_extra
from ludosim.rules.model import Rules
from ludosim.rules.options import rules_from_options
from ludosim.rules.policies import BASE_FEATURES, FEATURES, SCALE, parse_policy
from ludosim.rules.streams import normalise_seed
from ludosim.rules.tomlio import dumps
from ludosim.run.runstages import Stage, announce, begin, game_cost
from ludosim.run.simulate import simulate
from ludosim.studies.tournament import rotations

Progress = Callable[[int, int], None]

START = "balanced"  # the default start of the search, and always the evaluation's baseline
SIGMA0 = 2.0  # initial step size in weight units; larger steps lose balanced's good region
DEFAULTS = {"generations": 20, "popsize": 10, "games": 2000, "eval_games": 20_000}


class TuneError(LudosimError, ValueError):
    """A bad tuning setting: field, budget or seed."""


@dataclass(frozen=True)
class Score:
    """A policy's pooled win rate over every seat, with its Wilson 95% interval."""

    wins: int
    games: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "win_rate": round(self.win_rate, 6),
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "wins": self.wins,
            "games": self.games,
        }


@dataclass(frozen=True)
class TunedPolicy:
    """The outcome of `tune`: weights (units, thousandths) and how they were made."""

    weights: dict[str, float]
    score: Score
    baseline: Score
    preset: str
    sets: tuple[str, ...]
    rules_hash: str
    field: tuple[str, ...]
    seed: int
    generations: int
    popsize: int
    games: int
    eval_games: int
    start: str = START  # the policy the search started from (canonical name)
    history: tuple[float, ...] = field(default=())  # best search win rate per generation
    selection: dict[str, Score] = field(default_factory=dict)  # search mean and start
    chosen: str = "search_mean"  # the one of `selection` that won, now `weights`

    @property
    def policy(self) -> str:
        """The weights as a `weights:` policy name."""
        return "weights:" + ",".join(f"{f}={w:g}" for f, w in self.weights.items() if w)

    def command(self, out: str | Path) -> str:
        """The `ludosim tune` command line that reproduces this file at `out`."""
        words = ["ludosim", "tune", "--preset", self.preset]
        for item in self.sets:
            words += ["--set", item]
        words += ["--policy", ",".join(self.field), "--seed", str(self.seed)]
        if self.start != START:
            words += ["--start", self.start]
        words += ["--generations", str(self.generations), "--popsize", str(self.popsize)]
        words += ["--games", str(self.games), "--eval-games", str(self.eval_games)]
        words += ["--out", str(out)]
        return shlex.join(words)

    def to_toml(self, out: str | Path) -> str:
        """The policy file's text (`out` is the path recorded in its `command`)."""
        fair = 1 / (len(self.field) + 1)
        return dumps(
            {
                "preset": self.preset,
                "set": list(self.sets),
                "rules_hash": self.rules_hash,
                "field": list(self.field),
                "start": self.start,
                "seed": self.seed,
                "generations": self.generations,
                "popsize": self.popsize,
                "games": self.games,
                "eval_games": self.eval_games,
                "command": self.command(out),
                "sigma0": SIGMA0,
                "search_best": [round(h, 6) for h in self.history],
                "weights": dict(self.weights),
                "score": {**self.score.to_dict(), "fair": round(fair, 6)},
                "baseline": {"policy": START, **self.baseline.to_dict()},
                "selection": {
                    "chosen": self.chosen,
                    "games": self.eval_games,
                    **{k: round(v.win_rate, 6) for k, v in self.selection.items()},
                },
            }
        )

    def write(self, out: str | Path) -> Path:
        """Write the policy file atomically; `TuneError` naming the file when it cannot be."""
        path = Path(out)
        try:
            write_bytes_atomic(path, self.to_toml(out).encode("utf-8"))
        except OSError as exc:
            raise TuneError(f"{write_error(exc, path)}; the policy file was not written") from None
        return path


def _check(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise TuneError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def _field(rules: Rules, field_policies: str | Sequence[str] | None) -> tuple[str, ...]:
    if field_policies is None:
        field_policies = [START] * (rules.players - 1)
    names = field_policies.split(",") if isinstance(field_policies, str) else list(field_policies)
    names = [n.strip() for n in names]
    for name in names:
        parse_policy(name)  # an unknown name fails with the allowed ones
    if len(names) != rules.players - 1:
        raise TuneError(
            f"field lists {len(names)} policies; {rules.players} players need "
            f"{rules.players - 1} opponents, e.g. {','.join([START] * (rules.players - 1))}"
        )
    return tuple(parse_policy(n).name for n in names)


def _start(name: str) -> tuple[str, tuple[str, ...], np.ndarray]:
    """The start's canonical name, the searched features and their start values (units).

    The base features are always searched; a look-ahead feature only when the
    start weighs it, since it multiplies a game's cost (docs/tuning.md).
    """
    policy = parse_policy(name)
    if policy.skip:
        raise TuneError(f"start {name!r} skips forced captures; start from a weights policy")
    weights = dict(zip(FEATURES, policy.weights, strict=True))
    searched = (*BASE_FEATURES, *(f for f in FEATURES[len(BASE_FEATURES) :] if weights[f]))
    return policy.name, searched, np.array([weights[f] for f in searched], dtype=float) / SCALE


def _rounded(features: tuple[str, ...], x: np.ndarray) -> dict[str, float]:
    """A candidate vector (units) rounded to thousandths, by feature."""
    return {f: round(v * SCALE) / SCALE for f, v in zip(features, x, strict=True)}


def _to_policy(features: tuple[str, ...], x: np.ndarray) -> str:
    """A candidate vector (units) as a `weights:` name, rounded to thousandths."""
    return "weights:" + ",".join(f"{f}={w:g}" for f, w in _rounded(features, x).items())


def _wins(
    rules: Rules,
    policy: str,
    field_names: tuple[str, ...],
    games: int,
    seed: int,
    first_game: int,
    threads: int | None,
) -> int:
    """Wins of `policy` playing each seat in turn against the field (`games` over all seats)."""
    n = rules.players
    per = games // n
    wins = 0
    for r, seating in enumerate(rotations([policy, *field_names])):
        summary = simulate(
            rules, per, seed, policies=list(seating), summary=True,
            first_game=first_game + r * per, threads=threads,
        )  # fmt: skip
        # Rotation r seats list entry (s + r) % n at seat s: the candidate (entry 0) at -r.
        wins += int(summary.seats["wins"].iloc[(n - r) % n])
    return wins


def tune(
    preset: str,
    sets: Sequence[str] = (),
    field_policies: str | Sequence[str] | None = None,
    *,
    seed: int,
    start: str = START,
    generations: int = DEFAULTS["generations"],
    popsize: int = DEFAULTS["popsize"],
    games: int = DEFAULTS["games"],
    eval_games: int = DEFAULTS["eval_games"],
    threads: int | None = None,
    out: str | Path | None = None,
    progress: Progress | None = None,
) -> TunedPolicy:
    """Search weights that maximise the win rate against `field_policies`; optionally write them.

    `field_policies` names the `players - 1` opponents (comma-separated or a
    list; default `balanced` for each). `games` per candidate and `eval_games`
    are totals over all seat positions, rounded down to a multiple of the
    number of players. `start` is the policy the search starts from (any
    weights policy; the look-ahead features it weighs are searched too). With
    `out`, the policy file is written there (its `command` reproduces it).
    `progress(done, total)` is called with games played so far.

    Raises `TuneError` (or `PolicyError`, `RulesError`) naming a bad argument.
    """
    try:
        import cma
    except ImportError:
        raise TuneError(missing_extra("tuning", "cma", "skill")) from None

    if out is not None:
        try:
            out = check_output_target(out)  # before any game, not after the whole search
        except ResultsError as exc:
            raise TuneError(str(exc)) from None
    rules = rules_from_options(preset, sets)
    field_names = _field(rules, field_policies)
    start, features, x0 = _start(start)
    try:
        seed = normalise_seed(seed)
    except ValueError as exc:
        raise TuneError(str(exc)) from None
    generations = _check("generations", generations, 1)
    popsize = _check("popsize", popsize, 2)
    n = rules.players
    games = _check("games", games, n) // n * n
    eval_games = _check("eval_games", eval_games, n) // n * n
    total = generations * popsize * games + 4 * eval_games
    done = 0
    # Each generation a stage, then the selection and the evaluation games (the field's
    # players set what a game costs).
    cost = game_cost([START, *field_names], n)
    announce(progress, [*(Stage(f"generation {g + 1} of {generations}", popsize * games, cost)
                          for g in range(generations)),
                        Stage("selection games", 2 * eval_games, cost),
                        Stage("evaluation games", 2 * eval_games, cost)])  # fmt: skip

    def tick(played: int) -> None:
        nonlocal done
        done += played
        if progress is not None:
            progress(done, total)

    tick(0)

    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x7E5E]))

    def randn(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    es = cma.CMAEvolutionStrategy(
        x0,
        SIGMA0,
        {
            "popsize": popsize,
            "randn": randn,
            "seed": np.nan,  # leave numpy's global generator alone
            "verbose": -9,
            "verb_disp": 0,
            "verb_log": 0,
            "maxiter": generations,
            "tolfun": 0,
            "tolx": 0,
            "tolflatfitness": generations + 1,
            "tolstagnation": generations + 1,
        },
    )
    history: list[float] = []
    for g in range(generations):
        begin(progress, g + 1, at=done)
        xs = es.ask()
        cache: dict[str, int] = {}
        fitness = []
        for x in xs:
            name = _to_policy(features, x)
            if name not in cache:  # equal rounded weights play equal games (common numbers)
                cache[name] = _wins(rules, name, field_names, games, seed, g * games, threads)
            fitness.append(-cache[name] / games)
            tick(games)
        es.tell(xs, fitness)
        history.append(-min(fitness))

    # Two sets of games no candidate played follow the search's: selection games decide
    # between the search mean and the start (so a mean that only drifted on noise is not
    # shipped), then evaluation games score the choice and the baseline.
    first_select = generations * games
    first_eval = first_select + eval_games
    options = {"search_mean": np.asarray(es.mean), "start": x0}
    selection = {}
    begin(progress, generations + 1, at=done)
    for label, x in options.items():
        wins = _wins(
            rules, _to_policy(features, x), field_names, eval_games, seed, first_select, threads
        )
        selection[label] = Score(wins, eval_games)
        tick(eval_games)
    chosen = "search_mean" if selection["search_mean"].wins > selection["start"].wins else "start"
    tuned = _to_policy(features, options[chosen])
    begin(progress, generations + 2, at=done)
    score = Score(
        _wins(rules, tuned, field_names, eval_games, seed, first_eval, threads), eval_games
    )
    tick(eval_games)
    base = Score(
        _wins(rules, START, field_names, eval_games, seed, first_eval, threads), eval_games
    )
    tick(eval_games)
    result = TunedPolicy(
        weights=_rounded(features, options[chosen]),
        score=score,
        baseline=base,
        preset=preset,
        sets=tuple(sets),
        rules_hash=rules.hash(),
        field=field_names,
        seed=seed,
        generations=generations,
        popsize=popsize,
        games=games,
        eval_games=eval_games,
        start=start,
        history=tuple(history),
        selection=selection,
        chosen=chosen,
    )
    if out is not None:
        result.write(out)
    return result
