"""How much each rule set rewards skill, and which way of playing is stable under it.

For each rule set (a preset plus `--set` toggles) and a ladder of players:

- the ladder's multi-player ratings (`ludosim.ratings`: openskill Plackett-Luce,
  bootstrap intervals), their spread (top minus bottom `mu`, and the standard
  deviation of `mu`, with intervals from the same bootstrap refits);
- the strongest player (the ladder's top `mu`, or one named) against a field
  of `random` and a field of `balanced` players, in every seat position
  (`ludosim.tournament`), win shares with Wilson 95% intervals;
- head-to-head matches of every pair of ladder players: A in half the seats
  and B in the other half (`A,A,B,B` rotated through the four seat positions
  with four players; `A,B` rotated with two; with an odd number of seats A
  holds the larger half in half of the games and B in the other half). A's
  share of the decided games is its head-to-head win probability;
- from those the games the strongest player needs to be ahead of `balanced`
  and of `random` with 95% probability (`ratings.games_to_be_ahead`);
- the strategy meta-game: the symmetric zero-sum game whose payoff is the
  head-to-head share minus one half, its symmetric equilibrium mix by linear
  programming, and how often each player is in the equilibrium's support when
  the head-to-head matrix is resampled (binomial resamples of each pair's
  decided games).

Parts of a rule set play distinct games: the ladder plays the study's seed (as
`ludosim ratings --seed S` does), the match against random `seed + 1`, against
balanced `seed + 2`, and every head-to-head pair `seed + 3` (common dice for
all pairs). Every rule set uses the same seeds. Everything, bootstrap and
resamples included, follows from the seed.

`skill_study` returns three tables (`SKILL_COLUMNS`, `LADDER_COLUMNS`,
`METAGAME_COLUMNS`) plus the head-to-head table (`PAIR_COLUMNS`);
`write_study` writes them as CSV and `ludosim.skill_report.skill_report`
turns the folder into a page.
"""

from __future__ import annotations

import functools
import math
import shlex
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim import ratings
from ludosim.errors import LudosimError
from ludosim.options import RuleSet
from ludosim.policies import TUNED_PREFIX, parse_policy, tuned_names
from ludosim.rng import MASK64
from ludosim.rules import Rules
from ludosim.stats import wilson_interval
from ludosim.tournament import tournament

Progress = Callable[[int, int], None]

OPPONENTS = ("random", "balanced")  # the fields the strongest player is measured against
CONFIDENCE = 0.95  # "ahead with 95% probability"
SUPPORT_WEIGHT = 1e-3  # an equilibrium weight above this puts the player in the support
SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE = (
    "skill.csv",
    "ladder.csv",
    "metagame.csv",
    "head_to_head.csv",
)
SKILL_COLUMNS = (
    "rule_set", "preset", "set", "measure", "player", "opponent",
    "estimate", "ci_low", "ci_high", "games", "fair", "resolved",
)  # fmt: skip
LADDER_COLUMNS = (
    "rule_set", "rank", "player", "mu", "sigma", "ordinal", "ci_low", "ci_high", "games",
)  # fmt: skip
METAGAME_COLUMNS = (
    "rule_set", "player", "weight", "weight_low", "weight_high", "support_share",
    "payoff_vs_mix", "resamples",
)  # fmt: skip
PAIR_COLUMNS = (
    "rule_set", "player", "opponent", "games", "wins", "opponent_wins", "share",
    "ci_low", "ci_high",
)  # fmt: skip
# Offsets of each part's seed from the study seed.
LADDER_SEED, RANDOM_SEED, BALANCED_SEED, PAIRS_SEED = 0, 1, 2, 3
FIRST_SEED, PACIFIST_SEED, SKIPPER_SEED = 4, 5, 6


class SkillError(LudosimError, ValueError):
    """A skill study that cannot be run: a bad study file, ladder or size."""


@dataclass(frozen=True)
class Study:
    """What to play: rule sets, the ladder and the sizes.

    games: ladder games per rule set (over all seatings); match_games: games of
    the strongest player against each field (over the seat rotations);
    pair_games: games of each head-to-head pair; bootstrap: rating refits for
    the intervals of ratings and spreads; headline_games: games of the
    first-player advantage with random and with skilled seats (`headline_rows`);
    resamples: head-to-head matrices
    resampled for the equilibrium's sensitivity.
    """

    rule_sets: tuple[RuleSet, ...]
    seed: int
    players: tuple[str, ...] | None = None
    strongest: str | None = None
    games: int = 14_000
    match_games: int = 20_000
    pair_games: int = 4_000
    bootstrap: int = 100
    resamples: int = 1_000
    headline_games: int = 40_000
    name: str = "skill"
    source: str = field(default="", compare=False)  # the study file, if read from one

    def __post_init__(self) -> None:
        if not self.rule_sets:
            raise SkillError("rule sets: name at least one preset")
        labels = [r.label for r in self.rule_sets]
        if len(set(labels)) != len(labels):
            raise SkillError(f"rule sets: each must appear once, got {', '.join(labels)}")
        for key in ("games", "match_games", "pair_games", "headline_games"):
            if getattr(self, key) < 1:
                raise SkillError(
                    f"{key}: must be a positive number of games, got {getattr(self, key)}"
                )
        for key in ("bootstrap", "resamples"):
            if getattr(self, key) < 0:
                raise SkillError(f"{key}: must be 0 or more, got {getattr(self, key)}")
        for rule_set in self.rule_sets:
            rule_set.rules()  # a bad preset or toggle fails here, before anything is played
        for name in [*(self.players or ()), *([self.strongest] if self.strongest else [])]:
            parse_policy(name)

    def command(self) -> str:
        """The command line that plays this study (`ludosim skill ...`)."""
        if self.source:
            return f"ludosim skill {shlex.quote(self.source)}"
        parts = ["ludosim skill"]
        for preset in dict.fromkeys(r.preset for r in self.rule_sets):
            parts.append(f"--preset {preset}")
        base = self.rule_sets[0]
        shared = set(base.sets)
        parts += [f"--set {shlex.quote(s)}" for s in base.sets]
        for r in self.rule_sets:
            extra = [s for s in r.sets if s not in shared]
            if extra:
                parts.append(f"--vary {shlex.quote(','.join(extra))}")
        if self.players:
            parts.append(f"--players {shlex.quote(','.join(self.players))}")
        if self.strongest:
            parts.append(f"--strongest {shlex.quote(self.strongest)}")
        parts.append(
            f"--games {self.games} --match-games {self.match_games} "
            f"--headline-games {self.headline_games} "
            f"--pair-games {self.pair_games} --bootstrap {self.bootstrap} "
            f"--resamples {self.resamples} --seed {self.seed}"
        )
        return " ".join(parts)


_STUDY_KEYS = {
    "name", "seed", "players", "strongest", "games", "match_games", "pair_games", "headline_games",
    "bootstrap", "resamples", "rule_set",
}  # fmt: skip


def load_study(path: str | Path) -> Study:
    """A study from its TOML file: sizes and seed on top, one `[[rule_set]]` per rule set.

    Each `[[rule_set]]` has `preset`, optional `set` (a list of `TOGGLE=VALUE`)
    and optional `name`. `players` is a list of policy names (default:
    `default_players` of each rule set's preset).
    """
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SkillError(f"study file {str(path)!r} cannot be read: {exc}") from None
    unknown = set(data) - _STUDY_KEYS
    if unknown:
        raise SkillError(
            f"study file {path}: unknown keys {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(_STUDY_KEYS))}"
        )
    if "seed" not in data:
        raise SkillError(f"study file {path}: needs a seed (a non-negative integer)")
    sets = []
    for item in data.get("rule_set", []):
        if not isinstance(item, dict) or "preset" not in item:
            raise SkillError(f"study file {path}: every [[rule_set]] needs a preset")
        sets.append(RuleSet(str(item["preset"]), tuple(item.get("set", ())), item.get("name", "")))
    sizes = {k: data[k] for k in ("games", "match_games", "pair_games", "headline_games",
                                  "bootstrap", "resamples")
             if k in data}  # fmt: skip
    players = tuple(data["players"]) if "players" in data else None
    return Study(
        tuple(sets), int(data["seed"]), players, data.get("strongest"),
        name=data.get("name", "skill"), source=str(path), **sizes,
    )  # fmt: skip


def default_players(preset: str) -> list[str]:
    """The default ladder: the named policies of `ratings.DEFAULT_PLAYERS`, and
    `tuned-<preset>` when one is shipped."""
    players = list(ratings.DEFAULT_PLAYERS)
    tuned = TUNED_PREFIX + preset
    if tuned in tuned_names():
        players.append(tuned)
    return players


# ------------------------------------------------------------------ the meta-game
def symmetric_equilibrium(share: np.ndarray) -> np.ndarray:
    """The symmetric equilibrium mix of the meta-game with head-to-head shares `share`.

    `share[a, b]` is the probability that way of playing `a` beats `b` head to
    head (`share + share.T == 1`, 0.5 on the diagonal). The payoff
    `share - 0.5` is antisymmetric, so the game is symmetric and zero-sum with
    value 0: the equilibrium is a mix `x` that breaks even against every pure
    way of playing (`x @ (share - 0.5) >= 0` in every column). It is found by
    the linear program max v s.t. `x @ (share - 0.5) >= v`, `sum(x) = 1`,
    `x >= 0` (scipy's HiGHS). Where several mixes are equilibria, one vertex of
    that set is returned, the same one for the same matrix.
    """
    from scipy.optimize import linprog

    payoff = np.asarray(share, dtype=float) - 0.5
    k = payoff.shape[0]
    if payoff.shape != (k, k) or k == 0:
        raise SkillError(f"share: must be a square matrix, got shape {payoff.shape}")
    # Variables (x_1..x_k, v); minimise -v subject to v - x @ payoff[:, b] <= 0.
    cost = np.zeros(k + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((k, 1))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    solved = linprog(
        cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0],
        bounds=[(0.0, 1.0)] * k + [(None, None)], method="highs",
    )  # fmt: skip
    if not solved.success:  # pragma: no cover - a bounded feasible LP always solves
        raise SkillError(f"the equilibrium linear program failed: {solved.message}")
    mix = np.clip(solved.x[:k], 0.0, None)
    return mix / mix.sum()


def resample_equilibria(
    wins: np.ndarray, decided: np.ndarray, resamples: int, seed: int
) -> np.ndarray:
    """Equilibrium mixes of `resamples` head-to-head matrices redrawn from the games.

    `wins[a, b]` is a's wins against b, `decided[a, b]` the decided games of
    the pair. Each resample draws every pair's wins (a < b) as
    Binomial(decided, observed share) from a generator seeded with `seed`, sets
    the share of b against a to its complement, and solves the meta-game.
    Row r is resample r.
    """
    rng = np.random.default_rng(seed)
    k = wins.shape[0]
    upper = np.triu_indices(k, 1)
    n = decided[upper].astype(np.int64)
    p = np.divide(wins[upper], n, out=np.full(n.shape, 0.5), where=n > 0)
    out = np.empty((resamples, k))
    for r in range(resamples):
        share = np.full((k, k), 0.5)
        drawn = rng.binomial(n, p)
        share[upper] = np.divide(drawn, n, out=np.full(n.shape, 0.5), where=n > 0)
        share.T[upper] = 1.0 - share[upper]
        out[r] = symmetric_equilibrium(share)
    return out


# ----------------------------------------------------------------------- playing
def _offset(progress: Progress, before: int, total: int, done: int, _: int) -> None:
    """One part's progress as progress of the whole study."""
    progress(before + done, total)


def _seed(seed: int, part: int) -> int:
    return (seed + part) & MASK64


def head_to_head_seatings(a: str, b: str, seats: int) -> list[list[str]]:
    """The seatings of a head-to-head pair before rotation: A in half the seats, B in the rest.

    One pattern with an even number of seats (`A,A,B,B`); with an odd number,
    two (A holding the larger half, then B), each played in half the games.
    """
    half = seats // 2
    if seats % 2 == 0:
        return [[a] * half + [b] * half]
    return [[a] * (half + 1) + [b] * half, [b] * (half + 1) + [a] * half]


def play_pair(
    rules: Rules,
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> tuple[int, int, int]:
    """(games, wins of a's side, wins of b's side) of a head-to-head pair.

    Each seating of `head_to_head_seatings` plays `games // len(seatings)`
    games in every rotation (`ludosim.tournament`). A side wins when one of its
    seats wins; a truncated game without a winner is counted for neither.
    """
    patterns = head_to_head_seatings(a, b, rules.players)
    per = games // len(patterns)
    played = wins_a = wins_b = 0
    for i, pattern in enumerate(patterns):
        part = None if progress is None else functools.partial(_offset, progress, i * per, games)
        table = tournament(rules, pattern, per, seed, threads=threads, progress=part)
        by = table.set_index("policy")
        names = [parse_policy(x).name for x in (a, b)]
        played += int(table["games"].iloc[0])
        wins_a += int(by.at[names[0], "wins"])
        wins_b += int(by.at[names[1], "wins"])
    return played, wins_a, wins_b


def headline_rows(
    study: Study,
    rule_set: RuleSet,
    rules: Rules,
    strongest: str,
    threads: int | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """The headline questions answered with skilled players beside random play.

    - `first_player_advantage_random` / `_strongest`: the share of decided games
      won by the seat that moved first, minus the fair share, with every seat
      `random` / every seat the strongest player (`headline_games` games each,
      the same dice);
    - where captures are optional, `pacifist_share_vs_balanced` /
      `_vs_strongest`: `pacifist` (never captures) in every seat position
      against three `balanced` / three of the strongest;
    - under forced captures, `skipper_share_vs_balanced` / `_vs_strongest`:
      `skipper:1` (skips a forced capture whenever its best plan does) against
      three `balanced`, and `skipper:1:<strongest>` against three of the strongest.
    Shares are against the fair share `1 / players` (`fair`).
    """
    from ludosim import analysis
    from ludosim.simulate import simulate

    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    fair = 1.0 / rules.players
    kwargs: dict[str, Any] = {} if threads is None else {"threads": threads}
    rows: list[dict[str, Any]] = []
    done = 0
    for who, policy in (("random", "random"), ("strongest", strongest)):
        df = simulate(rules, study.headline_games, _seed(study.seed, FIRST_SEED), policy, **kwargs)
        # Turn-order position 0 of the report's first-player analysis.
        first = analysis.first_player_advantage(df).iloc[0]
        rate, low, high = (float(first[c]) for c in ("win_rate", "ci_low", "ci_high"))
        rows.append({**base, "measure": f"first_player_advantage_{who}", "player": policy,
                     "opponent": policy, "estimate": rate - fair, "ci_low": low - fair,
                     "ci_high": high - fair, "games": int(first["games"]), "fair": 0.0,
                     "resolved": not low <= fair <= high})  # fmt: skip
        done += study.headline_games
        if progress is not None:
            progress(done, 0)
    if rules.forced_capture:
        kind, seed_part = "skipper", SKIPPER_SEED
        players = {"balanced": "skipper:1", "strongest": f"skipper:1:{strongest}"}
    else:
        kind, seed_part = "pacifist", PACIFIST_SEED
        players = {"balanced": "pacifist", "strongest": "pacifist"}
    for who, opponent in (("balanced", "balanced"), ("strongest", strongest)):
        player = parse_policy(players[who]).name
        if player == opponent:
            continue  # the strongest is the pacifist itself: nothing to measure
        field_ = [player] + [opponent] * (rules.players - 1)
        won = tournament(
            rules, field_, study.match_games, _seed(study.seed, seed_part), threads=threads
        ).set_index("policy")
        rate, low, high = (float(won.at[player, c]) for c in ("win_rate", "ci_low", "ci_high"))
        rows.append({**base, "measure": f"{kind}_share_vs_{who}", "player": player,
                     "opponent": opponent, "estimate": rate, "ci_low": low, "ci_high": high,
                     "games": int(won.at[player, "games"]), "fair": fair,
                     "resolved": not low <= fair <= high})  # fmt: skip
        done += study.match_games
        if progress is not None:
            progress(done, 0)
    return rows


@dataclass
class SkillTables:
    """The study's tables: per rule set x measure, the ladders, the meta-game, the pairs."""

    skill: pd.DataFrame
    ladder: pd.DataFrame
    metagame: pd.DataFrame
    pairs: pd.DataFrame
    study: Study


def _sizes(study: Study, rules: Rules, players: int) -> tuple[int, int, int]:
    """Games actually played per rule set by the ladder, each match and each pair."""
    n = rules.players
    ladder = (study.games // len(ratings.seatings(players, n))) * len(ratings.seatings(players, n))
    match = (study.match_games // n) * n
    patterns = 1 if n % 2 == 0 else 2
    pair = ((study.pair_games // patterns) // n) * n * patterns
    return ladder, match, pair


def skill_study(
    study: Study, *, threads: int | None = None, progress: Progress | None = None
) -> SkillTables:
    """Play and measure every rule set of `study`; see the module docstring."""
    plans = []
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        players = list(study.players or default_players(rule_set.preset))
        if study.strongest and study.strongest not in players:
            players.append(study.strongest)
        names = [parse_policy(p).name for p in players]
        if len(set(names)) != len(names):
            raise SkillError(f"players: each player must appear once, got {', '.join(names)}")
        if len(names) < max(rules.players, 2):
            raise SkillError(
                f"players: a ladder needs at least as many players as seats ({rules.players}), "
                f"got {len(names)}"
            )
        ladder, match, pair = _sizes(study, rules, len(names))
        if ladder < 1 or match < 1 or pair < 1:
            raise SkillError(
                f"games: too few for rule set {rule_set.label}: the ladder needs at least "
                f"{len(ratings.seatings(len(names), rules.players))} games, each match and pair "
                f"at least {2 * rules.players}"
            )
        pairs = len(names) * (len(names) - 1) // 2
        headline = 2 * study.headline_games + 2 * match
        plans.append((rule_set, rules, names, ladder + 2 * match + pairs * pair + headline))
    total = sum(p[3] for p in plans)
    done = 0
    parts: dict[str, list[pd.DataFrame]] = {"skill": [], "ladder": [], "metagame": [], "pairs": []}
    for rule_set, rules, names, size in plans:
        tick = None if progress is None else functools.partial(_offset, progress, done, total)
        for key, frame in _rule_set_tables(study, rule_set, rules, names, threads, tick).items():
            parts[key].append(frame)
        done += size
    return SkillTables(
        *(pd.concat(parts[k], ignore_index=True) for k in ("skill", "ladder", "metagame", "pairs")),
        study=study,
    )


def _rule_set_tables(
    study: Study,
    rule_set: RuleSet,
    rules: Rules,
    names: list[str],
    threads: int | None,
    progress: Progress | None,
) -> dict[str, pd.DataFrame]:
    seed = study.seed

    def forward(before: int, d: int, _: int) -> None:
        if progress is not None:
            progress(before + d, 0)

    ladder_size, match_size, pair_size = _sizes(study, rules, len(names))
    results = ratings.play_ladder(
        rules, names, study.games, _seed(seed, LADDER_SEED), threads=threads,
        progress=None if progress is None else functools.partial(forward, 0),
    )  # fmt: skip
    table = ratings.rate_games(results, names, study.bootstrap, _seed(seed, LADDER_SEED))
    mus = ratings.bootstrap_mu(results, names, study.bootstrap, _seed(seed, LADDER_SEED))
    done = ladder_size
    strongest = parse_policy(study.strongest).name if study.strongest else str(table["player"][0])

    rows: list[dict[str, Any]] = []
    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    fair = 1.0 / rules.players
    for opponent, part in (("random", RANDOM_SEED), ("balanced", BALANCED_SEED)):
        field_ = [strongest] + [opponent] * (rules.players - 1)
        won = tournament(
            rules, field_, study.match_games, _seed(seed, part), threads=threads,
            progress=None if progress is None else functools.partial(forward, done),
        ).set_index("policy")  # fmt: skip
        done += match_size
        # Per seat it held (the strongest against its own kind holds every seat).
        rate, low, high = (float(won.at[strongest, c]) for c in ("win_rate", "ci_low", "ci_high"))
        rows.append({**base, "measure": f"win_share_vs_{opponent}", "player": strongest,
                     "opponent": opponent, "estimate": rate, "ci_low": low, "ci_high": high,
                     "games": int(won.at[strongest, "games"]), "fair": fair,
                     "resolved": not low <= fair <= high})  # fmt: skip

    rows += headline_rows(
        study, rule_set, rules, strongest, threads,
        None if progress is None else functools.partial(forward, done),
    )  # fmt: skip
    done += 2 * study.headline_games + 2 * match_size

    mu = table.set_index("player").loc[names, "mu"].to_numpy(float)
    spreads = {
        "rating_range": (np.ptp(mu), np.ptp(mus, axis=1) if len(mus) else np.array([])),
        "rating_sd": (np.std(mu), np.std(mus, axis=1) if len(mus) else np.array([])),
    }
    for measure, (value, boot) in spreads.items():
        low, high = np.percentile(boot, [2.5, 97.5]) if boot.size else (math.nan, math.nan)
        rows.append({**base, "measure": measure, "player": "", "opponent": "",
                     "estimate": float(value), "ci_low": float(low), "ci_high": float(high),
                     "games": len(results), "fair": 0.0,
                     "resolved": bool(boot.size) and low > 0})  # fmt: skip

    k = len(names)
    wins = np.zeros((k, k))
    decided = np.zeros((k, k))
    pair_rows = []
    for i in range(k):
        for j in range(i + 1, k):
            played, wa, wb = play_pair(
                rules, names[i], names[j], study.pair_games, _seed(seed, PAIRS_SEED),
                threads=threads,
                progress=None if progress is None else functools.partial(forward, done),
            )  # fmt: skip
            done += pair_size
            wins[i, j], wins[j, i] = wa, wb
            decided[i, j] = decided[j, i] = wa + wb
            for x, y, w, lose in ((i, j, wa, wb), (j, i, wb, wa)):
                low, high = wilson_interval(w, w + lose)
                pair_rows.append({"rule_set": rule_set.label, "player": names[x],
                                  "opponent": names[y], "games": played, "wins": w,
                                  "opponent_wins": lose, "share": w / max(w + lose, 1),
                                  "ci_low": low, "ci_high": high})  # fmt: skip
    pairs = pd.DataFrame(pair_rows, columns=list(PAIR_COLUMNS))

    top = names.index(strongest)
    for opponent in OPPONENTS:
        if opponent not in names:
            continue
        j = names.index(opponent)
        w, n = int(wins[top, j]), int(decided[top, j])
        # Against its own kind there is no pair: no head-to-head edge to measure.
        low, high = wilson_interval(w, n) if top != j else (math.nan, math.nan)
        p = w / n if n and top != j else math.nan
        rows.append({**base, "measure": f"head_to_head_vs_{opponent}", "player": strongest,
                     "opponent": opponent, "estimate": p, "ci_low": low, "ci_high": high,
                     "games": n, "fair": 0.5,
                     "resolved": bool(low > 0.5 or high < 0.5)})  # fmt: skip
        rows.append({**base, "measure": f"games_to_be_ahead_of_{opponent}", "player": strongest,
                     "opponent": opponent, "estimate": _games_ahead(p),
                     "ci_low": _games_ahead(high), "ci_high": _games_ahead(low), "games": n,
                     "fair": math.nan, "resolved": bool(low > 0.5)})  # fmt: skip

    share = np.full((k, k), 0.5)
    np.divide(wins, decided, out=share, where=decided > 0)
    np.fill_diagonal(share, 0.5)
    mix = symmetric_equilibrium(share)
    boot = (
        resample_equilibria(wins, decided, study.resamples, _seed(seed, PAIRS_SEED))
        if study.resamples
        else np.empty((0, k))
    )
    meta = pd.DataFrame(
        {
            "rule_set": rule_set.label,
            "player": names,
            "weight": mix,
            "weight_low": np.percentile(boot, 2.5, axis=0) if len(boot) else math.nan,
            "weight_high": np.percentile(boot, 97.5, axis=0) if len(boot) else math.nan,
            "support_share": (boot > SUPPORT_WEIGHT).mean(axis=0) if len(boot) else math.nan,
            # Each way of playing against the equilibrium mix: 0 in the support, <= 0 outside.
            # Rounded where the solver's float noise ends, so a support player reads 0.
            "payoff_vs_mix": np.round((share - 0.5) @ mix, 12) + 0.0,
            "resamples": len(boot),
        }
    )
    ladder = table.assign(rule_set=rule_set.label, rank=np.arange(1, len(table) + 1))
    return {
        "skill": pd.DataFrame(rows, columns=list(SKILL_COLUMNS)),
        "ladder": ladder[list(LADDER_COLUMNS)],
        "metagame": meta.sort_values("weight", ascending=False, kind="stable")[
            list(METAGAME_COLUMNS)
        ],
        "pairs": pairs,
    }


def _games_ahead(p: float) -> float:
    """`ratings.games_to_be_ahead` at 95%, NaN where the player is not better (p <= 1/2)."""
    if not 0.5 < p <= 1.0:  # NaN fails this too
        return math.nan
    try:
        return float(ratings.games_to_be_ahead(p, CONFIDENCE))
    except ratings.RatingsError:  # too close to 1/2 for any match this side of millions
        return math.nan


def write_study(tables: SkillTables, out: str | Path) -> Path:
    """Write skill.csv, ladder.csv, metagame.csv and head_to_head.csv into `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.skill.to_csv(folder / SKILL_FILE, index=False)
    tables.ladder.to_csv(folder / LADDER_FILE, index=False)
    tables.metagame.to_csv(folder / METAGAME_FILE, index=False)
    tables.pairs.to_csv(folder / PAIRS_FILE, index=False)
    return folder


def read_study_tables(folder: str | Path, study: Study) -> SkillTables:
    """The tables `write_study` wrote into `folder`."""
    path = Path(folder)
    frames = []
    for name in (SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE):
        try:
            frames.append(pd.read_csv(path / name, keep_default_na=False, na_values=[""]))
        except OSError as exc:
            raise SkillError(f"{path / name} cannot be read: {exc}") from None
    frames[0]["set"] = frames[0]["set"].fillna("")
    frames[0]["player"] = frames[0]["player"].fillna("")
    frames[0]["opponent"] = frames[0]["opponent"].fillna("")
    return SkillTables(*frames, study=study)


# ---------------------------------------------------------------------- findings
TITLES = {
    "sizes": "Sizes and interval widths",
    "skill": "How much each rule set rewards skill",
    "spread": "Spread of the ladder",
    "metagame": "The strategy meta-game",
    "skilled": "The headline answers with skilled players",
}
TUNED_COLUMN = "tuned-<preset>"  # the shipped tuned player of each rule set, in one column


def _pct(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{100 * x:.1f}%"


def _ci_pct(low: float, high: float) -> str:
    return f"95% CI {_pct(low)} to {_pct(high)}"


def _count(x: float) -> str:
    return "unbounded" if not math.isfinite(x) else f"{int(x):,}"


def _measure(skill: pd.DataFrame, rule_set: str, measure: str) -> pd.Series | None:
    rows = skill[(skill["rule_set"] == rule_set) & (skill["measure"] == measure)]
    return None if rows.empty else rows.iloc[0]


def _half(rows: pd.DataFrame) -> float:
    return float(((rows["ci_high"] - rows["ci_low"]) / 2).max())


def skill_findings(tables: SkillTables) -> list[Any]:
    """What the study's tables say, as `ludosim.findings.Finding`s (topics `TITLES`)."""
    from ludosim.findings import Finding

    skill, meta = tables.skill, tables.metagame
    order = list(dict.fromkeys(skill["rule_set"]))
    out: list[Finding] = []

    share = skill[skill["measure"].str.startswith("win_share")]
    pairs = skill[skill["measure"].str.startswith("head_to_head")]
    spread = skill[skill["measure"] == "rating_range"]
    out.append(Finding("sizes", (
        f"Every rule set: the ladder played {int(spread['games'].max()):,} games, each match of "
        f"the strongest player against a field {int(share['games'].max()):,} games, each "
        f"head-to-head pair {int(pairs['games'].max()):,} decided games. Win shares are known to "
        f"within ±{100 * _half(share):.1f} pp (largest half-width of their 95% intervals), "
        f"head-to-head shares to within ±{100 * _half(pairs):.1f} pp."
    ), True, headline=True))  # fmt: skip

    out += _skill_findings(skill, order)
    out += _spread_findings(spread, order)
    out += _metagame_findings(meta, order)
    out += _skilled_findings(skill, order)
    return out


def _skill_findings(skill: pd.DataFrame, order: list[str]) -> list[Any]:
    from ludosim.findings import Finding

    out = []
    vs_random = skill[skill["measure"] == "win_share_vs_random"].set_index("rule_set").loc[order]
    best, worst = vs_random["estimate"].idxmax(), vs_random["estimate"].idxmin()
    if best != worst:
        b, w = vs_random.loc[best], vs_random.loc[worst]
        diff = b["estimate"] - w["estimate"]
        half = math.hypot(
            (b["ci_high"] - b["ci_low"]) / 2, (w["ci_high"] - w["ci_low"]) / 2
        )  # independent games: the half-widths add in quadrature
        resolved = diff - half > 0
        verdict = "" if resolved else "; the difference is not resolved at this size"
        out.append(Finding("skill", (
            f"Measured against random players, skill pays most under {best}: its strongest "
            f"player, {b['player']}, beats three "
            f"random players {_pct(b['estimate'])} of the time "
            f"({_ci_pct(b['ci_low'], b['ci_high'])}), and least under {worst}, where "
            f"{w['player']} does so {_pct(w['estimate'])} "
            f"({_ci_pct(w['ci_low'], w['ci_high'])}): {100 * diff:.1f} pp apart (95% CI "
            f"{100 * (diff - half):.1f} to {100 * (diff + half):.1f} pp){verdict}."
        ), bool(resolved), headline=True))  # fmt: skip
    out.append(_ahead_headline(skill, order))
    for rule_set in order:
        out.append(_rule_set_sentence(skill, rule_set))
    return out


def _ahead_headline(skill: pd.DataFrame, order: list[str]) -> Any:
    """Where the strongest player is soonest ahead of balanced, and where it is not known."""
    from ludosim.findings import Finding

    ahead = skill[skill["measure"] == "games_to_be_ahead_of_balanced"].set_index("rule_set")
    ahead = ahead.reindex(order)
    known = ahead[ahead["resolved"].astype(bool)].sort_values("estimate", kind="stable")
    parts = []
    resolved = True
    if len(known):
        best = known.iloc[0]
        listed = ", ".join(
            f"{_count(r['estimate'])} under {name} ({_count(r['ci_low'])} to "
            f"{_count(r['ci_high'])})"
            for name, r in known.iloc[1:].iterrows()
        )
        parts.append(
            f"Against balanced, the strongest player needs the fewest games to be ahead "
            f"under {known.index[0]}: about {_count(best['estimate'])} (95% CI "
            f"{_count(best['ci_low'])} to {_count(best['ci_high'])})"
            + (f", then {listed}" if listed else "")
        )
        if len(known) > 1 and known["ci_low"].iloc[1] <= best["ci_high"]:
            resolved = False
            parts.append("where the intervals overlap, the order is not resolved at this size")
    itself = [r for r in order if r not in known.index and ahead.at[r, "player"] == "balanced"]
    unknown = [r for r in order if r not in known.index and r not in itself]
    if unknown:
        resolved = False
        parts.append(f"under {', '.join(unknown)} its edge over balanced is not resolved at "
                     "this size")  # fmt: skip
    if itself:
        parts.append(f"under {', '.join(itself)} the strongest player is balanced itself")
    return Finding("skill", "; ".join(parts) + ".", resolved, headline=True)


def _rule_set_sentence(skill: pd.DataFrame, rule_set: str) -> Any:
    from ludosim.findings import Finding

    rnd = _measure(skill, rule_set, "win_share_vs_random")
    bal = _measure(skill, rule_set, "win_share_vs_balanced")
    assert rnd is not None and bal is not None
    who = rnd["player"]
    text = (
        f"Under {rule_set} rules, {who} beats three random players {_pct(rnd['estimate'])} of "
        f"the time ({_ci_pct(rnd['ci_low'], rnd['ci_high'])}, {int(rnd['games']):,} games) and "
        f"three balanced players {_pct(bal['estimate'])} ({_ci_pct(bal['ci_low'], bal['ci_high'])}"
        f"; fair share {_pct(bal['fair'])})"
    )
    resolved = bool(rnd["resolved"])
    parts = []
    for opponent in OPPONENTS:
        ahead = _measure(skill, rule_set, f"games_to_be_ahead_of_{opponent}")
        h2h = _measure(skill, rule_set, f"head_to_head_vs_{opponent}")
        if ahead is None or h2h is None:
            continue
        if who == opponent:
            parts.append(f"it is {opponent} itself, so there is no edge over {opponent} to measure")
        elif bool(ahead["resolved"]):
            parts.append(
                f"it needs about {_count(ahead['estimate'])} games (95% CI "
                f"{_count(ahead['ci_low'])} to {_count(ahead['ci_high'])}) to be ahead of "
                f"{opponent} with 95% probability (head to head it wins "
                f"{_pct(h2h['estimate'])}, {_ci_pct(h2h['ci_low'], h2h['ci_high'])})"
            )
        else:
            resolved = False
            parts.append(
                f"whether it is better than {opponent} head to head at all is not resolved "
                f"at this size ({_pct(h2h['estimate'])}, {_ci_pct(h2h['ci_low'], h2h['ci_high'])}"
                f", {int(h2h['games']):,} decided games)"
            )
    return Finding("skill", text + "; " + "; ".join(parts) + ".", resolved)


def _spread_findings(spread: pd.DataFrame, order: list[str]) -> list[Any]:
    from ludosim.findings import Finding

    rows = spread.set_index("rule_set").loc[order]
    out = []
    if rows["ci_low"].notna().all() and len(rows) > 1:
        widest, narrowest = rows["estimate"].idxmax(), rows["estimate"].idxmin()
        w, n = rows.loc[widest], rows.loc[narrowest]
        apart = w["ci_low"] > n["ci_high"]
        out.append(Finding("spread", (
            f"The ladder's ratings spread widest under {widest} ({w['estimate']:.1f} mu from top "
            f"to bottom, 95% CI {w['ci_low']:.1f} to {w['ci_high']:.1f}) and narrowest under "
            f"{narrowest} ({n['estimate']:.1f}, 95% CI {n['ci_low']:.1f} to {n['ci_high']:.1f})"
            + ("." if apart else "; the intervals overlap, so the order is not resolved at "
               "this size.")
        ), bool(apart), headline=True))  # fmt: skip
    for rule_set, r in rows.iterrows():
        out.append(Finding("spread", (
            f"Under {rule_set} rules the ladder's Plackett-Luce ratings span {r['estimate']:.1f} "
            f"mu (95% bootstrap CI {r['ci_low']:.1f} to {r['ci_high']:.1f}); a rating of mu "
            "points is on openskill's scale, where every player starts at 25."
        ), bool(r["resolved"])))  # fmt: skip
    return out


def _mix_text(rows: pd.DataFrame) -> str:
    support = rows[rows["weight"] > SUPPORT_WEIGHT]
    if len(support) == 1:
        return f"pure {support['player'].iloc[0]}"
    return "a mix of " + ", ".join(
        f"{r.player} {100 * r.weight:.0f}%" for r in support.itertuples()
    )


def _pp(row: pd.Series, minus: float = 0.0) -> str:
    """An estimate and its interval in percentage points, `minus` taken off first."""
    return (
        f"{100 * (row.estimate - minus):+.1f} pp (95% CI {100 * (row.ci_low - minus):+.1f} to "
        f"{100 * (row.ci_high - minus):+.1f})"
    )


def _skilled_findings(skill: pd.DataFrame, order: list[str]) -> list[Any]:
    """First-player advantage, pacifist and skipper shares with random, balanced and the
    strongest players, per rule set, and one headline across them."""
    from ludosim.findings import Finding

    out: list[Finding] = []
    fpa = {w: skill[skill["measure"] == f"first_player_advantage_{w}"].set_index("rule_set")
           for w in ("random", "strongest")}  # fmt: skip
    if fpa["random"].empty:
        return out
    for r in order:
        rnd, top = fpa["random"].loc[r], fpa["strongest"].loc[r]
        text = (
            f"Under {r}, the first player's share is {_pp(rnd)} from the fair share with random "
            f"seats and {_pp(top)} with {top.player} in every seat"
        )
        for kind, verb in (
            ("pacifist", "never capturing"),
            ("skipper", "skipping forced captures"),
        ):
            rows = skill[(skill["rule_set"] == r) & skill["measure"].str.startswith(kind)]
            parts = [
                f"{_pct(row.estimate)} ({_ci_pct(row.ci_low, row.ci_high)}) as {row.player} "
                f"against three {row.opponent}"
                for row in rows.itertuples()
            ]
            if parts:
                text += f"; {verb}, a seat wins " + " and ".join(parts)
        out.append(Finding("skilled", text + f" (fair {_pct(float(1 / _seats(skill, r)))}).",
                           True))  # fmt: skip
    resolved = {w: [r for r in order if fpa[w].at[r, "resolved"]] for w in fpa}
    low = fpa["strongest"].loc[order, "estimate"]
    head = (
        f"With skilled players in every seat the first player's advantage runs from "
        f"{100 * low.min():+.1f} pp ({low.idxmin()}) to {100 * low.max():+.1f} pp "
        f"({low.idxmax()}); its interval excludes zero under {len(resolved['strongest'])} of "
        f"{len(order)} rule sets ({', '.join(resolved['strongest']) or 'none'}), against "
        f"{len(resolved['random'])} with random players."
    )
    pac = skill[skill["measure"] == "pacifist_share_vs_strongest"]
    if not pac.empty:
        below = pac[pac["ci_high"] < pac["fair"]]
        head += (
            f" A pacifist stays below the fair share against the strongest player under "
            f"{len(below)} of the {len(pac)} rule sets where captures are optional."
        )
    out.insert(0, Finding("skilled", head, True, headline=True))
    return out


def _seats(skill: pd.DataFrame, rule_set: str) -> int:
    fair = skill[(skill["rule_set"] == rule_set) & skill["measure"].str.startswith("win_share")]
    return round(1 / float(fair["fair"].iloc[0]))


def _metagame_findings(meta: pd.DataFrame, order: list[str]) -> list[Any]:
    from ludosim.findings import Finding

    out = []
    stable = []
    for rule_set in order:
        rows = meta[meta["rule_set"] == rule_set].sort_values("weight", ascending=False)
        mix = _mix_text(rows)
        inside = rows["weight"] > SUPPORT_WEIGHT
        resamples = int(rows["resamples"].iloc[0])
        if resamples:
            sure = bool((rows.loc[inside, "support_share"] >= 0.95).all()
                        and (rows.loc[~inside, "support_share"] <= 0.05).all())  # fmt: skip
            others = rows[~inside & (rows["support_share"] > 0.05)]
            kept = ", ".join(
                f"{r.player} in {100 * r.support_share:.0f}%" for r in rows[inside].itertuples()
            )
            text = (
                f"Under {rule_set} rules the equilibrium is {mix}. Its support over "
                f"{resamples:,} resampled head-to-head matrices: {kept}"
            )
            if len(others):
                text += "; also " + ", ".join(
                    f"{r.player} in {100 * r.support_share:.0f}%" for r in others.itertuples()
                )
            text += (
                "." if sure else "; which way of playing is stable is not resolved at this size."
            )
        else:
            sure = False
            text = f"Under {rule_set} rules the equilibrium is {mix} (no resamples: not resolved)."
        stable.append((rule_set, mix, sure))
        out.append(Finding("metagame", text, sure))
    sure_ones = [f"{mix} under {r}" for r, mix, sure in stable if sure]
    unsure = [r for r, _, sure in stable if not sure]
    text = "Stable under resampling: " + ("; ".join(sure_ones) if sure_ones else "none")
    if unsure:
        text += f". Not resolved at this size under {', '.join(unsure)}"
    out.insert(0, Finding("metagame", text + ".", not unsure, headline=True))
    return out


# -------------------------------------------------------------------------- page
def _column(player: str) -> str:
    """A player's column in the cross-rule-set figures: `tuned-<preset>` for the tuned one."""
    return TUNED_COLUMN if player.startswith(TUNED_PREFIX) else player


def _skill_rows(skill: pd.DataFrame, measure: str, order: list[str]) -> pd.DataFrame:
    rows = skill[skill["measure"] == measure].set_index("rule_set")
    return rows.reindex(order)


def skill_page(tables: SkillTables, out: str | Path, title: str | None = None) -> Path:
    """Write `index.html` with its PNG figures beside the study's CSV tables in `out`."""
    from ludosim import figures
    from ludosim.figures import Panel
    from ludosim.report import (
        PageSection,
        PageTable,
        group_findings,
        html_table,
        page_figure,
        render_page,
    )

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    study = tables.study
    skill = tables.skill
    order = list(dict.fromkeys(skill["rule_set"]))
    command = study.command() + f" --out {shlex.quote(str(folder))}"
    simulated = (
        f"Simulated: {len(order)} rule sets ({'; '.join(order)}), seed {study.seed}; "
        f"ladder {study.games:,} games, matches {study.match_games:,}, pairs "
        f"{study.pair_games:,} games each, {study.bootstrap} rating refits, "
        f"{study.resamples:,} resampled matrices; headline answers {study.headline_games:,} "
        "games each."
    )
    sections = []

    # Win shares of the strongest player, best first.
    rnd = _skill_rows(skill, "win_share_vs_random", order)
    bal = _skill_rows(skill, "win_share_vs_balanced", order)
    ranked = rnd.sort_values("estimate", ascending=False, kind="stable").index.tolist()
    both = pd.DataFrame({
        "random": rnd.loc[ranked, "estimate"], "random_low": rnd.loc[ranked, "ci_low"],
        "random_high": rnd.loc[ranked, "ci_high"], "balanced": bal.loc[ranked, "estimate"],
        "balanced_low": bal.loc[ranked, "ci_low"], "balanced_high": bal.loc[ranked, "ci_high"],
    })  # fmt: skip
    labels = [f"{r} ({rnd.at[r, 'player']})" for r in ranked]
    fair = float(rnd["fair"].iloc[0])
    panels = [
        Panel("random", "random_low", "random_high", "win share vs three random",
              reference=fair, fmt="{:.3f}"),
        Panel("balanced", "balanced_low", "balanced_high", "win share vs three balanced",
              reference=fair, fmt="{:.3f}"),
    ]  # fmt: skip
    shares = page_figure(folder, figures.forest(both, labels, panels), "win_shares.png",
        "The strongest player against three random and three balanced players",
        "Win share of each rule set's strongest player (in brackets) over every seat "
        f"position, Wilson 95% CIs; dashed: the fair share. {simulated}",
    )  # fmt: skip

    # Games to be ahead, on a log axis (they span decades); an unbounded end is drawn
    # at the axis edge.
    ahead = pd.DataFrame(index=ranked)
    for opponent in OPPONENTS:
        rows = _skill_rows(skill, f"games_to_be_ahead_of_{opponent}", ranked)
        ahead[opponent] = rows["estimate"].astype(float)
        ahead[f"{opponent}_low"] = rows["ci_low"].astype(float)
        ahead[f"{opponent}_high"] = rows["ci_high"].astype(float)
    finite = ahead.to_numpy(float)[np.isfinite(ahead.to_numpy(float))]
    edge = 10 ** math.ceil(math.log10(max(float(finite.max()) if finite.size else 10.0, 10.0)))
    for opponent in OPPONENTS:
        unbounded = ahead[f"{opponent}_high"].isna() & ahead[opponent].notna()
        ahead.loc[unbounded, f"{opponent}_high"] = edge
    ahead_panels = [
        Panel(o, f"{o}_low", f"{o}_high", f"games to be ahead of {o} (95%)", reference=None,
              fmt="{:.0f}", log=True)
        for o in ("balanced", "random")
    ]  # fmt: skip
    games_fig = page_figure(folder, figures.forest(ahead, labels, ahead_panels),
        "games_to_be_ahead.png", "Games needed to be ahead",
        "Head-to-head games after which the strongest player (two seats) has more wins than "
        "the opponent (two seats) with 95% probability, and stays so; log scale; the interval "
        "comes from the head-to-head share's 95% CI, and one reaching the right edge is "
        "unbounded (the edge over that opponent is not resolved). No dot: the strongest player "
        f"is that opponent. {simulated}",
    )  # fmt: skip
    table = skill.drop(columns=["preset", "set"])
    sections.append(PageSection(
        "How much each rule set rewards skill", figures=[shares, games_fig],
        tables=[PageTable("Skill table", SKILL_FILE, html_table(table),
                          "One row per rule set and measure, with its 95% interval "
                          "(bootstrap for the rating spread, Wilson otherwise); the CSV adds "
                          "each rule set's preset and --set toggles.")],
    ))  # fmt: skip

    # The ladder: ratings minus each ladder's mean, and the spread.
    ladder = tables.ladder.copy()
    ladder["column"] = [_column(p) for p in ladder["player"]]
    ladder["centred"] = ladder["mu"] - ladder.groupby("rule_set")["mu"].transform("mean")
    columns = list(dict.fromkeys(
        ladder.groupby("column")["centred"].mean().sort_values(ascending=False).index
    ))  # fmt: skip
    grid = ladder.assign(**{"rule set": ladder["rule_set"].astype(str), "player": ladder["column"]})
    heat = figures.heatmap_grid(
        grid, "rule set", "player", (), {"rule set": order, "player": columns}, "centred",
        label="mu minus the ladder's mean", diverging=True, fmt="{:+.1f}",
    )  # fmt: skip
    ladder_fig = page_figure(folder, heat, "ladder.png", "The ladder under each rule set",
        "Plackett-Luce rating mu of each player minus the mean of its ladder; the bootstrap "
        f"95% CIs of mu are in ladder.csv. {simulated}")  # fmt: skip
    spread = pd.DataFrame(index=ranked)
    for measure in ("rating_range", "rating_sd"):
        rows = _skill_rows(skill, measure, ranked)
        spread[measure] = rows["estimate"]
        spread[f"{measure}_low"] = rows["ci_low"]
        spread[f"{measure}_high"] = rows["ci_high"]
    spread_panels = [
        Panel("rating_range", "rating_range_low", "rating_range_high", "top minus bottom mu",
              reference=None),
        Panel("rating_sd", "rating_sd_low", "rating_sd_high", "standard deviation of mu",
              reference=None),
    ]  # fmt: skip
    spread_fig = page_figure(folder, figures.forest(spread, ranked, spread_panels), "spread.png",
        "Spread of the ladder's ratings",
        f"Top minus bottom mu and the standard deviation of mu, bootstrap 95% CIs. {simulated}",
    )  # fmt: skip
    shown = tables.ladder.copy()
    sections.append(PageSection(
        "Spread of the ladder", figures=[ladder_fig, spread_fig],
        tables=[PageTable("Ladders", LADDER_FILE, html_table(shown),
                          "Ratings per rule set, best mu first; ci_low/ci_high: bootstrap 95% "
                          "interval of mu.")],
    ))  # fmt: skip

    # The meta-game: weights and support shares, and the head-to-head matrices.
    meta = tables.metagame.copy()
    meta["column"] = [_column(p) for p in meta["player"]]
    long = pd.concat([
        meta.assign(what="equilibrium weight", value=meta["weight"]),
        meta.assign(what="share of resamples in the support", value=meta["support_share"]),
    ])  # fmt: skip
    long = long.assign(**{"rule set": long["rule_set"].astype(str), "player": long["column"]})
    levels = {"rule set": order, "player": columns,
              "what": ["equilibrium weight", "share of resamples in the support"]}  # fmt: skip
    meta_fig = page_figure(folder, figures.heatmap_grid(
        long, "rule set", "player", ("what",), levels, "value", label="weight or share",
        diverging=False, fmt="{:.2f}"),
        "metagame.png", "The strategy meta-game",
        "Left: the symmetric equilibrium mix of the head-to-head game (weights sum to 1 per "
        "rule set). Right: in how many of the resampled head-to-head matrices each player "
        f"has weight above {SUPPORT_WEIGHT:g} in the equilibrium. {simulated}",
    )  # fmt: skip
    pairs = tables.pairs.copy()
    pairs["edge"] = 100 * (pairs["share"] - 0.5)
    pairs = pairs.assign(**{
        "rule set": pairs["rule_set"].astype(str),
        "player": [_column(p) for p in pairs["player"]],
        "opponent": [_column(p) for p in pairs["opponent"]],
    })  # fmt: skip
    h2h = figures.heatmap_grid(
        pairs, "player", "opponent", ("rule set",),
        {"player": columns, "opponent": columns, "rule set": order}, "edge",
        label="head-to-head share − 50% (pp)", diverging=True, fmt="{:+.0f}",
    )  # fmt: skip
    h2h_fig = page_figure(folder, h2h, "head_to_head.png", "Head-to-head shares",
        "Share of the decided games won by the row's way of playing (two seats) against the "
        "column's (two seats), minus 50%, in pp; Wilson 95% CIs in head_to_head.csv. "
        f"{simulated}")  # fmt: skip
    sections.append(PageSection(
        "The strategy meta-game",
        text=(
            "Each pair of ladder players plays head to head: A in half the seats, B in the "
            "others, every seat position in turn. The symmetric zero-sum game whose payoff is "
            "A's share of the decided games minus one half has value 0; its equilibrium mix "
            "breaks even against every pure way of playing. Head-to-head tables: "
            f"{PAIRS_FILE}."
        ),
        figures=[meta_fig, h2h_fig],
        tables=[PageTable("Meta-game", METAGAME_FILE, html_table(tables.metagame),
                          "Equilibrium weight per player with the 2.5th and 97.5th "
                          "percentiles over the resamples, the share of resamples with the "
                          "player in the support, and its payoff against the mix (0 in the "
                          "support).")],
    ))  # fmt: skip
    skilled = _skilled_section(folder, skill, order, simulated, study)
    if skilled is not None:
        sections.append(skilled)
    for section in sections:
        for item in section.figures:
            item.command = command
    found = skill_findings(tables)
    intro = (
        f"How much each of {len(order)} rule sets rewards skill, and which way of playing is "
        f"stable under it. {simulated} Tables: {SKILL_FILE}, {LADDER_FILE}, {METAGAME_FILE}, "
        f"{PAIRS_FILE}. Reproduce with: {command}"
    )
    page = folder / "index.html"
    html = render_page(title or f"ludosim skill study: {study.name}", intro, command,
                       group_findings(found, TITLES), sections)  # fmt: skip
    page.write_text(html, encoding="utf-8")
    return page


def _skilled_section(
    folder: Path, skill: pd.DataFrame, order: list[str], simulated: str, study: Study
) -> Any:
    """The headline answers with skilled players: a forest of four panels, in pp."""
    from ludosim import figures
    from ludosim.figures import Panel
    from ludosim.report import PageSection, page_figure

    wide = pd.DataFrame(index=order)
    panels = []
    columns = [
        ("first_player_advantage_random", "first player: random (pp)", False),
        ("first_player_advantage_strongest", "first player: strongest (pp)", False),
        ("vs_balanced", "vs 3 balanced (pp)", True),
        ("vs_strongest", "vs 3 strongest (pp)", True),
    ]
    for key, label, share in columns:
        if share:
            rows = skill[skill["measure"].str.match(rf"(pacifist|skipper)_share_{key}$")]
        else:
            rows = skill[skill["measure"] == key]
        if rows.empty and not share:
            return None
        rows = rows.set_index("rule_set").reindex(order)
        fair = rows["fair"].fillna(0.0) if share else 0.0
        for col in ("estimate", "ci_low", "ci_high"):
            wide[f"{key}_{col}"] = 100 * (rows[col] - fair)
        panels.append(Panel(f"{key}_estimate", f"{key}_ci_low", f"{key}_ci_high", label))
    fig = page_figure(folder, figures.forest(wide, order, panels), "skilled_answers.png",
        "The headline answers with skilled players",
        "First two panels: the first player's share of the decided games minus the fair share, "
        "with every seat random and with every seat the strongest player "
        f"({study.headline_games:,} games each). Last two: never capturing (pacifist, where "
        "captures are optional) or "
        "skipping every forced capture its best plan skips (skipper:1 over balanced or over the "
        "strongest, under forced captures), in every seat position against three balanced or "
        "three of the strongest: its win share minus the fair share. 95% CIs; dashed: no "
        f"effect. {simulated}")  # fmt: skip
    return PageSection(
        "The headline answers with skilled players",
        text="The first-player advantage, the cost of never capturing and the cost of skipping "
        "forced captures, measured with skilled players beside random ones: does the answer "
        "people quote from random play hold when everyone plays well? Numbers: skill.csv "
        "(measures first_player_advantage_*, pacifist_share_*, skipper_share_*).",
        figures=[fig],
    )


def run_study(
    study: Study,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study` (`skill_study`), write its CSV tables and its page into `out`; the page."""
    tables = skill_study(study, threads=threads, progress=progress)
    write_study(tables, out)
    return skill_page(tables, out)
