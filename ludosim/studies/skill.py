"""How much each rule set rewards skill, and which way of playing is stable under it.

For each rule set (a preset plus `--set` toggles) and a ladder of players:

- the relative skill level RS = LE / (LE + RE) of Dreef, Borm and van der Genugten
  (2004) from the optimal and the fictive player against three `random` players
  (`ludosim.studies.relative_skill`), which the page ranks rule sets by;
- the ladder's multi-player ratings (`ludosim.studies.ratings`: openskill Plackett-Luce,
  bootstrap intervals), their spread (top minus bottom `mu`, and the standard
  deviation of `mu`, the rating spread of Duersch, Lambrecht and Oechssler 2020,
  with intervals from the same bootstrap refits);
- the strongest player (the ladder's top `mu`, or one named) against a field
  of `random` and a field of `balanced` players, in every seat position
  (`ludosim.studies.tournament`), win shares with Wilson 95% intervals;
- the fixed pair `balanced` against three `random` players, the same players
  under every rule set: one heuristic against random play, stated per rule set;
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
balanced `seed + 2`, every head-to-head pair `seed + 3` (common dice for all
pairs), the first-player runs `seed + 4` (random and skilled seats on the same
dice), the pacifist `seed + 5`, the skipper `seed + 6`, the fixed pair
`seed + 7`, and for RS the optimal player `seed + 8` and the fictive player
`seed + 9` (`relative_skill.OPTIMAL_SEED`, `FICTIVE_SEED`). Every rule set uses the
same seeds. Everything, bootstrap and
resamples included, follows from the seed.

What the page states, and how it decides it (the families, the fixed pair,
tuned players off their rules), is `study_findings`; docs/skill.md says it in
words.

`play_study` returns three tables (`SKILL_COLUMNS`, `LADDER_COLUMNS`,
`METAGAME_COLUMNS`) plus the head-to-head table (`PAIR_COLUMNS`) and the relative
skill levels (`relative_skill.RS_COLUMNS`);
`write_tables` writes them as CSV and `ludosim.skill_report.skill_report`
turns the folder into a page.
"""

from __future__ import annotations

import functools
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.claims import (
    Claims,
    Sample,
    decided_games,
    described,
    first_sentence,
    names,
    needed,
    page_order,
    sizing,
    stated,
    told,
    verdict,
    wins_of,
)
from ludosim.report.contrasts import Test
from ludosim.report.exploratory import exploratory_text, is_exploratory
from ludosim.report.findings import DIFFERENCES, VALUES, Finding
from ludosim.report.wording import each, estimate, games, num, of, pct
from ludosim.results.stats import wilson_interval
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet, study_options
from ludosim.rules.policies import (
    TUNED_PREFIX,
    PolicyError,
    parse_policy,
    policy_file,
    read_policy_file,
    tuned_names,
)
from ludosim.rules.streams import MASK64
from ludosim.studies import ratings, relative_skill, studyfile
from ludosim.studies.tournament import tournament

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
FIRST_SEED, PACIFIST_SEED, SKIPPER_SEED, FIXED_SEED = 4, 5, 6, 7
# The pair compared between rule sets: the same players under every rule set.
FIXED_PLAYER, FIXED_FIELD = "balanced", "random"
FIXED_MEASURE = "balanced_share_vs_random"


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
    resampled for the equilibrium's sensitivity; skill_games: games of the optimal and
    of the fictive player against three random players, each, for the relative skill
    level (`ludosim.studies.relative_skill`); optimal: the optimal player, one name for
    every rule set or (rule set label, name) pairs, `expert` for a rule set not named;
    fictive: the fictive player.
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
    skill_games: int = 4_000
    optimal: str | tuple[tuple[str, str], ...] = relative_skill.DEFAULT_OPTIMAL
    fictive: str = relative_skill.DEFAULT_FICTIVE
    name: str = "skill"
    source: str = field(default="", compare=False)  # the study file, if read from one

    def __post_init__(self) -> None:
        if not self.rule_sets:
            raise SkillError("rule sets: name at least one preset")
        labels = [r.label for r in self.rule_sets]
        if len(set(labels)) != len(labels):
            raise SkillError(f"rule sets: each must appear once, got {', '.join(labels)}")
        for key in ("games", "match_games", "pair_games", "headline_games", "skill_games"):
            value = getattr(self, key)
            if not _whole(value) or value < 1:
                raise SkillError(f"{key}: must be a positive number of games, got {value!r}")
        for key in ("bootstrap", "resamples"):
            value = getattr(self, key)
            if not _whole(value) or value < 0:
                raise SkillError(f"{key}: must be a whole number, 0 or more, got {value!r}")
        for rule_set in self.rule_sets:
            rule_set.rules()  # a bad preset or toggle fails here, before anything is played
        for name in [*(self.players or ()), *([self.strongest] if self.strongest else [])]:
            parse_policy(name)
        for key in ("optimal", "fictive"):
            for name in _optimal_names(getattr(self, key), key, labels):
                try:
                    parse_policy(name)
                except PolicyError as exc:
                    raise SkillError(f"{key}: {exc}") from None

    def command(self) -> str:
        """The command line that plays this study (`ludosim skill ...`)."""
        if self.source:
            return f"ludosim skill {shlex.quote(self.source)}"
        parts = ["ludosim skill", shlex.join(study_options(self.rule_sets))]
        if self.players:
            parts.append(f"--policy {shlex.quote(','.join(self.players))}")
        if self.strongest:
            parts.append(f"--strongest {shlex.quote(self.strongest)}")
        parts.append(
            f"--games {self.games} --match-games {self.match_games} "
            f"--headline-games {self.headline_games} "
            f"--pair-games {self.pair_games} --bootstrap {self.bootstrap} "
            f"--resamples {self.resamples} --skill-games {self.skill_games} --seed {self.seed}"
        )
        if isinstance(self.optimal, str) and self.optimal != relative_skill.DEFAULT_OPTIMAL:
            parts.append(f"--optimal {shlex.quote(self.optimal)}")
        if self.fictive != relative_skill.DEFAULT_FICTIVE:
            parts.append(f"--fictive {shlex.quote(self.fictive)}")
        return " ".join(parts)

    def optimal_player(self, rule_set: str) -> str:
        """The optimal player of the rule set labelled `rule_set` (its RS's W(optimal))."""
        chosen = self.optimal if isinstance(self.optimal, str) else dict(self.optimal)
        return relative_skill.optimal_for(chosen, rule_set)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optimal_names(value: object, key: str, labels: list[str]) -> list[str]:
    """The player names of `optimal` or `fictive`: one name, or (label, name) pairs
    whose labels are rule sets of the study."""
    if isinstance(value, str) and value.strip():
        return [value]
    if key == "optimal" and isinstance(value, tuple) and value:
        for pair in value:
            if not (isinstance(pair, tuple) and len(pair) == 2
                    and all(isinstance(x, str) for x in pair)):  # fmt: skip
                raise SkillError(f"optimal: a table of rule set = player, got {value!r}")
            if pair[0] not in labels:
                raise SkillError(
                    f"optimal: no rule set is named {pair[0]!r}; the rule sets are "
                    f"{', '.join(labels)}"
                )
        return [name for _, name in value]
    form = "a player name, or a table of rule set = player" if key == "optimal" else (
        "a player name")  # fmt: skip
    raise SkillError(f"{key}: must be {form}, got {value!r}")


_STUDY_KEYS = {
    "name", "seed", "players", "strongest", "games", "match_games", "pair_games", "headline_games",
    "bootstrap", "resamples", "rule_set", "skill_games", "optimal", "fictive",
}  # fmt: skip


def load_study(path: str | Path) -> Study:
    """A study from its TOML file: sizes and seed on top, one `[[rule_set]]` per rule set.

    Each `[[rule_set]]` has `preset`, optional `set` (a list of `TOGGLE=VALUE`)
    and optional `name`. `players` is a list of policy names (default:
    `default_players` of each rule set's preset).
    """
    data = studyfile.read(path, _STUDY_KEYS, SkillError)
    seed = studyfile.seed(path, data, SkillError)
    # Tables, or rule-set texts (`rule_set = ["app", "app+finish=bounce"]`).
    sets = studyfile.rule_set_items(path, data, "rule_set", SkillError)
    sizes = {k: data[k] for k in ("games", "match_games", "pair_games", "headline_games",
                                  "bootstrap", "resamples", "skill_games")
             if k in data}  # fmt: skip
    players = (
        tuple(studyfile.policy_names(path, data, "players", SkillError))
        if "players" in data
        else None
    )
    chosen: dict[str, Any] = {}
    if "optimal" in data:
        optimal = data["optimal"]
        # A table names the optimal player per rule set label: kept as pairs, so the
        # study stays hashable and compares by value.
        chosen["optimal"] = tuple(optimal.items()) if isinstance(optimal, dict) else optimal
    if "fictive" in data:
        chosen["fictive"] = data["fictive"]

    def study() -> Study:
        return Study(
            tuple(sets), seed, players, data.get("strongest"),
            name=data.get("name", "skill"), source=str(path), **sizes, **chosen,
        )  # fmt: skip

    return studyfile.build(path, SkillError, study)


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
    games in every rotation (`ludosim.studies.tournament`). A side wins when one of its
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
      the same dice), and `first_player_advantage_change`, the second minus the
      first paired by game (`first_player_rows`);
    - where captures are optional, `pacifist_share_vs_balanced` /
      `_vs_strongest`: `pacifist` (never captures) in every seat position
      against three `balanced` / three of the strongest;
    - under forced captures, `skipper_share_vs_balanced` / `_vs_strongest`:
      `skipper:1` (skips a forced capture whenever its best plan does) against
      three `balanced`, and `skipper:1:<strongest>` against three of the strongest.
    Shares are against the fair share `1 / players` (`fair`).
    """
    from ludosim.run.simulate import simulate

    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    kwargs: dict[str, Any] = {} if threads is None else {"threads": threads}
    done = 0
    played = []
    for policy in ("random", strongest):
        played.append(
            simulate(rules, study.headline_games, _seed(study.seed, FIRST_SEED), policy, **kwargs)
        )
        done += study.headline_games
        if progress is not None:
            progress(done, 0)
    rows = [{**base, **row} for row in first_player_rows(played[0], played[1], strongest)]
    if rules.forced_capture:
        kind, seed_part = "skipper", SKIPPER_SEED
        players = {"balanced": "skipper:1", "strongest": f"skipper:1:{strongest}"}
    else:
        kind, seed_part = "pacifist", PACIFIST_SEED
        players = {"balanced": "pacifist", "strongest": "pacifist"}
    measured: set[tuple[str, str]] = set()
    for who, opponent in (("balanced", "balanced"), ("strongest", strongest)):
        player = parse_policy(players[who]).name
        if player == opponent:
            continue  # the strongest is the pacifist itself: nothing to measure
        if (player, opponent) in measured:
            # The strongest is balanced (Killer): `skipper:1:balanced` is `skipper:1`, the
            # same games on the same seed, so the match is played and counted once (the
            # progress still moves past it, as planned).
            done += study.match_games
            if progress is not None:
                progress(done, 0)
            continue
        measured.add((player, opponent))
        row = field_share(rules, player, opponent, study.match_games,
                          _seed(study.seed, seed_part), threads)  # fmt: skip
        rows.append({**base, "measure": f"{kind}_share_vs_{who}", **row})
        done += study.match_games
        if progress is not None:
            progress(done, 0)
    return rows


def field_share(
    rules: Rules,
    player: str,
    opponent: str,
    games: int,
    seed: int,
    threads: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """`player` in every seat position against `opponent` in every other seat
    (`ludosim.studies.tournament`): its win share per seat it held, Wilson 95% interval, the fair
    share and whether the interval excludes it, as the columns of a `skill.csv` row."""
    field_ = [player] + [opponent] * (rules.players - 1)
    won = tournament(rules, field_, games, seed, threads=threads, progress=progress)
    row = won.set_index("policy").loc[player]
    rate, low, high = (float(row[c]) for c in ("win_rate", "ci_low", "ci_high"))
    fair = 1.0 / rules.players
    return {"player": player, "opponent": opponent, "estimate": rate, "ci_low": low,
            "ci_high": high, "games": int(row["games"]), "fair": fair,
            "resolved": not low <= fair <= high}  # fmt: skip


def first_player_rows(
    random_games: pd.DataFrame, skilled_games: pd.DataFrame, strongest: str
) -> list[dict[str, Any]]:
    """The first player's edge with random and with skilled seats, and its change.

    `random_games` and `skilled_games` are per-game rows (`game`, `first`,
    `winner`, `place_<s>`) of the same games of one seed, every seat `random`
    and every seat `strongest`. The edges are each run's first-player win share
    over the decided games minus the fair share (Wilson intervals,
    `analysis.first_player_advantage`); `first_player_advantage_change` is the
    skilled edge minus the random one, paired by game (the games decided in
    both runs: `contrasts.CellSamples`), with its normal interval.
    """
    from ludosim.report import analysis
    from ludosim.report.contrasts import CellSamples, cell_rows
    from ludosim.results.measures import first_wins

    rows = []
    for who, policy, df in (("random", "random", random_games),
                            ("strongest", strongest, skilled_games)):  # fmt: skip
        # Turn-order position 0 of the report's first-player analysis.
        first = analysis.first_player_advantage(df).iloc[0]
        rate, low, high = (float(first[c]) for c in ("win_rate", "ci_low", "ci_high"))
        fair = float(first["fair"])
        rows.append({"measure": f"first_player_advantage_{who}", "player": policy,
                     "opponent": policy, "estimate": rate - fair, "ci_low": low - fair,
                     "ci_high": high - fair, "games": int(first["games"]), "fair": 0.0,
                     "resolved": not low <= fair <= high})  # fmt: skip
    both = pd.concat([random_games.assign(cell="random"), skilled_games.assign(cell="skilled")])
    change = CellSamples(cell_rows(both, ("game", "first", "winner")), first_wins).difference(
        "skilled", "random"
    )
    rows.append({"measure": "first_player_advantage_change", "player": strongest,
                 "opponent": "random", "estimate": change.estimate, "ci_low": change.ci_low,
                 "ci_high": change.ci_high, "games": change.games, "fair": 0.0,
                 "resolved": not change.ci_low <= 0.0 <= change.ci_high})  # fmt: skip
    return rows


@dataclass
class SkillTables:
    """The study's tables: per rule set x measure, the ladders, the meta-game, the pairs,
    and the relative skill levels (`rs`; None for tables written without them)."""

    skill: pd.DataFrame
    ladder: pd.DataFrame
    metagame: pd.DataFrame
    pairs: pd.DataFrame
    study: Study
    rs: pd.DataFrame | None = None


def _sizes(study: Study, rules: Rules, players: int) -> tuple[int, int, int]:
    """Games actually played per rule set by the ladder, each match and each pair."""
    n = rules.players
    ladder = (study.games // len(ratings.seatings(players, n))) * len(ratings.seatings(players, n))
    match = (study.match_games // n) * n
    patterns = 1 if n % 2 == 0 else 2
    pair = ((study.pair_games // patterns) // n) * n * patterns
    return ladder, match, pair


def play_study(
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
        skill = 2 * (study.skill_games // rules.players) * rules.players
        if skill < 1:
            raise SkillError(
                f"skill_games: too few for rule set {rule_set.label}: at least {rules.players}"
            )
        size = ladder + 3 * match + pairs * pair + headline + skill
        plans.append((rule_set, rules, names, size))
    total = sum(p[3] for p in plans)
    done = 0
    keys = ("skill", "ladder", "metagame", "pairs", "rs")
    parts: dict[str, list[pd.DataFrame]] = {k: [] for k in keys}
    for rule_set, rules, names, size in plans:
        tick = None if progress is None else functools.partial(_offset, progress, done, total)
        for key, frame in _rule_set_tables(study, rule_set, rules, names, threads, tick).items():
            parts[key].append(frame)
        done += size
    frames = {k: pd.concat(parts[k], ignore_index=True) for k in keys}
    return SkillTables(*(frames[k] for k in keys[:4]), study=study, rs=frames["rs"])


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
    # One set of refits for both the ratings' intervals and the spreads': `rate_games`
    # would draw the very same resamples again (same seed), at the same cost.
    table = ratings.rate_games(results, names, 0, _seed(seed, LADDER_SEED))
    mus = ratings.bootstrap_mu(results, names, study.bootstrap, _seed(seed, LADDER_SEED))
    if study.bootstrap:
        low, high = np.percentile(mus, [2.5, 97.5], axis=0)
        at = {name: i for i, name in enumerate(names)}
        order = [at[p] for p in table["player"]]
        table = table.assign(ci_low=low[order], ci_high=high[order])
    done = ladder_size
    strongest = parse_policy(study.strongest).name if study.strongest else str(table["player"][0])

    rows: list[dict[str, Any]] = []
    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    for opponent, part in (("random", RANDOM_SEED), ("balanced", BALANCED_SEED)):
        # Per seat it held (the strongest against its own kind holds every seat).
        row = field_share(
            rules,
            strongest,
            opponent,
            study.match_games,
            _seed(seed, part),
            threads,
            None if progress is None else functools.partial(forward, done),
        )
        rows.append({**base, "measure": f"win_share_vs_{opponent}", **row})  # fmt: skip
        done += match_size
    # The fixed pair: balanced in every seat position against three random players.
    row = field_share(
        rules,
        FIXED_PLAYER,
        FIXED_FIELD,
        study.match_games,
        _seed(seed, FIXED_SEED),
        threads,
        None if progress is None else functools.partial(forward, done),
    )
    rows.append({**base, "measure": FIXED_MEASURE, **row})  # fmt: skip
    done += match_size

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
    rs = relative_skill.rs_row(
        rule_set, rules, study.optimal_player(rule_set.label), study.fictive, study.skill_games,
        seed, threads, None if progress is None else functools.partial(forward, done),
    )  # fmt: skip
    return {
        "rs": relative_skill.rs_frame([rs]),
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


def write_tables(tables: SkillTables, out: str | Path) -> Path:
    """Write skill.csv, ladder.csv, metagame.csv, head_to_head.csv and rs.csv into `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.skill.to_csv(folder / SKILL_FILE, index=False)
    tables.ladder.to_csv(folder / LADDER_FILE, index=False)
    tables.metagame.to_csv(folder / METAGAME_FILE, index=False)
    tables.pairs.to_csv(folder / PAIRS_FILE, index=False)
    if tables.rs is not None:
        tables.rs.to_csv(folder / relative_skill.RS_FILE, index=False)
    return folder


def read_tables(folder: str | Path, study: Study) -> SkillTables:
    """The tables `write_tables` wrote into `folder`."""
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
    rs = None
    if (path / relative_skill.RS_FILE).exists():
        rs = pd.read_csv(path / relative_skill.RS_FILE, keep_default_na=False, na_values=[""])
        rs["set"] = rs["set"].fillna("")
    return SkillTables(*frames, study=study, rs=rs)


# ---------------------------------------------------------------------- findings
# The relative skill level answers the page's question, so it comes first; the rating
# spread, the literature's other measure, beside it.
TITLES = {
    relative_skill.TOPIC: relative_skill.TITLE,
    "spread": "Rating spread of the ladder (Duersch, Lambrecht and Oechssler 2020)",
    "about": "How to read these findings",
    "skill": "balanced's edge over random players: one heuristic against random play",
    "strongest": "The strongest player of each ladder",
    "metagame": "The strategy meta-game",
    "skilled": "The headline answers with skilled players",
}
TUNED_COLUMN = "tuned-<preset>"  # the shipped tuned player of each rule set, in one column
# The smallest effect of interest the page sizes the first-player runs from: 1% of a
# fair share of first-player edge (0.25 pp with four). RS's is `relative_skill.SMALLEST_RS`.
SMALLEST_EDGE = 0.01
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("ladder", "the players a rule set rates: every table of as many distinct players as "
     "seats, in every rotation of its seats."),
    ("rating mu", "a player's Plackett-Luce rating on openskill's scale, where every player "
     "starts at 25; its interval comes from refitting the ratings on resampled games."),
    ("rating range", "the top minus the bottom mu of a ladder: how far apart its players are."),
    ("strongest player", "the top of a rule set's ladder (or the player named by --strongest)."),
    ("fixed pair", "balanced in every seat position against three random players, the same "
     "players under every rule set: its win share says how well one heuristic does against "
     "random play under each rule set, not how much a rule set rewards skill."),
    ("off its rules", "a tuned player (tuned-<preset>, tuned:FILE) on rules other than those it "
     "was tuned for (another rules hash): its numbers there say what it does, not what tuned "
     "play would gain, and it enters no comparison between rule sets."),
    ("head to head", "two players, each in half of the seats, in every seat rotation; a "
     "player's share is the share of the decided games one of its seats won."),
    ("games to be ahead", "head-to-head games after which the stronger player has more wins "
     "with 95% probability, and keeps it in any longer match."),
    ("equilibrium", "the mix of ways of playing that breaks even against every pure way in the "
     "head-to-head meta-game; pure when one way of playing is beaten by no other."),
    ("support share", "the share of resampled head-to-head matrices in whose equilibrium a "
     "player has weight; the equilibrium is resolved when its players are in at least 95% "
     "of them and every other player in at most 5%."),
    ("first-player edge change", "the first player's edge with the strongest player in every "
     "seat minus with random players in every seat, paired game by game on the same dice."),
    *relative_skill.GLOSSARY_TERMS,
)  # fmt: skip


def _measure(skill: pd.DataFrame, rule_set: str, measure: str) -> pd.Series | None:
    rows = skill[(skill["rule_set"] == rule_set) & (skill["measure"] == measure)]
    return None if rows.empty else rows.iloc[0]


def _half(rows: pd.DataFrame) -> float:
    return float(((rows["ci_high"] - rows["ci_low"]) / 2).max())


def off_its_rules(player: str, rules: Rules) -> str | None:
    """For a tuned player on rules it was not tuned for, the rules it was tuned for (`app`,
    `app finish=bounce`); None for a player on its own rules or not tuned to any rules.

    A player is tuned when it plays a policy file (`tuned-<preset>`, `tuned:FILE`, a
    skipper on one: `ludosim.rules.policies.policy_file`); it is on its rules where the
    file's `rules_hash` is the rule set's. A file that cannot be read counts as off.
    """
    path = policy_file(player)
    if path is None:
        return None
    try:
        data = read_policy_file(path)
    except PolicyError:
        return "other rules"
    if str(data.get("rules_hash", "")) == rules.hash():
        return None
    tuned = " ".join([str(data.get("preset", "")), *map(str, data.get("set", []))]).strip()
    return tuned or "other rules"


class _Names:
    """How the page names a rule set's players: a tuned player off its rules says so."""

    def __init__(self, tables: SkillTables) -> None:
        self.rules = {r.label: r.rules() for r in tables.study.rule_sets}

    def off(self, player: str, rule_set: str) -> str | None:
        rules = self.rules.get(rule_set)
        return None if rules is None else off_its_rules(player, rules)

    def __call__(self, player: str, rule_set: str) -> str:
        tuned = self.off(player, rule_set)
        return player if tuned is None else f"{player} (tuned for {tuned}, off its rules here)"

    def players(self, rule_set: str) -> int:
        rules = self.rules.get(rule_set)
        return 4 if rules is None else rules.players


def study_findings(tables: SkillTables) -> list[Finding]:
    """What the study's tables say, as `ludosim.report.findings.Finding`s (topics `TITLES`), in the
    order the page states them.

    Two families (`ludosim.studies`): the differences (every pair of rule sets
    on the relative skill level RS, every rule set's change of the first-player
    edge from random to skilled seats) and the values (win shares against the
    fair share, head-to-head shares against one half, first-player edges against
    zero), each Holm-corrected. Rule sets are ranked by RS only
    (`relative_skill.RelativeSkillPlan`); the fixed pair's win share is stated per
    rule set as what it is, one heuristic against random play. A tuned player off
    its rules (`off_its_rules`) is named as such and enters no comparison between
    rule sets.
    """
    skill, meta = tables.skill, tables.metagame
    order = list(dict.fromkeys(skill["rule_set"]))
    who = _Names(tables)
    claims = Claims()
    relative = relative_skill.RelativeSkillPlan(tables.rs, order, claims)
    plan = _Plan(skill, order, who, claims)
    claims.adjust()
    ranked = "every pair of rule sets on the relative skill level RS, and " if (
        relative.ranking is not None) else ""  # fmt: skip
    out = [
        *relative.findings(),
        claims.about(
            f"{ranked}every rule set's change of the first player's edge from random to "
            "skilled seats",
            "win shares against the fair share, head-to-head shares against one half, "
            "first-player edges against zero",
        ),
        *_about(skill, order, who),
        *plan.fixed_pair(),
        *plan.strongest_players(),
        *_spread_findings(skill[skill["measure"] == "rating_sd"], tables.ladder, order),
        *_metagame_findings(meta, order, who),
        *plan.skilled_answers(),
    ]
    return page_order(out, TITLES)


def _about(skill: pd.DataFrame, order: list[str], who: _Names) -> list[Finding]:
    out = []
    off = {}
    for r in order:
        row = _measure(skill, r, "win_share_vs_random")
        if row is not None and (tuned := who.off(str(row["player"]), r)) is not None:
            off.setdefault((str(row["player"]), tuned), []).append(r)
    for (player, tuned), rule_sets in off.items():
        out.append(Finding("about", (
            f"A tuned player is judged only on the rules it was tuned for. Under "
            f"{names(rule_sets)} the strongest player, {player}, was tuned for {tuned} and "
            "plays off its rules: its numbers there say what it does under those rules, not "
            "how much play tuned for them would gain, and it enters no comparison between rule "
            "sets (those use balanced against three random players, the same pair under every "
            "rule set)."
        ), True, headline=True, kind="note"))  # fmt: skip
    share = skill[skill["measure"].str.startswith("win_share")]
    pairs = skill[skill["measure"].str.startswith("head_to_head")]
    spread = skill[skill["measure"] == "rating_range"]
    if len(share) and len(pairs) and len(spread):
        out.append(Finding("about", (
            f"Every rule set: the ladder played {int(spread['games'].max()):,} games, each match "
            f"against a field {int(share['games'].max()):,} games, each head-to-head pair "
            f"{int(pairs['games'].max()):,} decided games. Win shares are known to within "
            f"±{num(100 * _half(share), 1)} pp (largest half-width of their 95% intervals), "
            f"head-to-head shares to within ±{num(100 * _half(pairs), 1)} pp."
        ), True, headline=True, kind="note"))  # fmt: skip
    return out


class _Plan:
    """The tests of the skill page, registered before any is decided, and their sentences."""

    def __init__(self, skill: pd.DataFrame, order: list[str], who: _Names, claims: Claims):
        self.skill, self.order, self.who, self.claims = skill, order, who, claims
        self.fixed: dict[str, tuple[pd.Series, Test]] = {}
        self.shares: dict[tuple[str, str], tuple[pd.Series, Test]] = {}
        self.changes: dict[str, tuple[pd.Series, Test]] = {}
        self.edges: dict[tuple[str, str], tuple[pd.Series, Test]] = {}
        fair = {r: 1.0 / who.players(r) for r in order}
        for r in order:
            row = _measure(skill, r, FIXED_MEASURE)
            if row is not None:
                self.fixed[r] = (row, self._share(f"fixed:{r}", row, fair[r]))
        for r in order:
            for measure in ("win_share_vs_random", "win_share_vs_balanced",
                            "pacifist_share_vs_balanced", "pacifist_share_vs_strongest",
                            "skipper_share_vs_balanced", "skipper_share_vs_strongest"):  # fmt: skip
                row = _measure(skill, r, measure)
                if row is not None and row["player"] != row["opponent"]:
                    if measure.endswith("_vs_strongest") and self._same_match(r, measure, row):
                        continue
                    self.shares[(r, measure)] = (row, self._share(f"{measure}:{r}", row, fair[r]))
            for opponent in OPPONENTS:
                row = _measure(skill, r, f"head_to_head_vs_{opponent}")
                if row is not None and row["player"] != opponent and row["games"] > 0:
                    key = f"head_to_head_vs_{opponent}"
                    self.shares[(r, key)] = (row, self._share(f"{key}:{r}", row, 0.5))
            for kind in ("random", "strongest"):
                row = _measure(skill, r, f"first_player_advantage_{kind}")
                if row is not None:
                    wins = wins_of(float(row["estimate"]) + fair[r], int(row["games"]))
                    test = claims.share(f"first_{kind}:{r}", wins, int(row["games"]), fair[r])
                    self.edges[(r, kind)] = (row, test)
            row = _measure(skill, r, "first_player_advantage_change")
            if row is not None:
                sample = Sample.of_interval(row["estimate"], row["ci_low"], row["ci_high"],
                                            int(row["games"]))  # fmt: skip
                self.changes[r] = (row, claims.difference(f"first_change:{r}", sample, "paired"))

    def _same_match(self, r: str, measure: str, row: pd.Series) -> bool:
        """Whether a `_vs_strongest` capture row is the `_vs_balanced` match again (the
        strongest is balanced: `skipper:1:balanced` is `skipper:1`), which the page tests
        once. Tables written before the study played it once still hold both rows."""
        twin = _measure(self.skill, r, measure.replace("_vs_strongest", "_vs_balanced"))
        return twin is not None and (
            (str(twin["player"]), str(twin["opponent"])) == (str(row["player"]),
                                                            str(row["opponent"])))  # fmt: skip

    def _share(self, key: str, row: pd.Series, reference: float) -> Test:
        n = int(row["games"])
        return self.claims.share(key, wins_of(row["estimate"], n), n, reference)

    # ------------------------------------------------------------ the fixed pair
    def fixed_pair(self) -> list[Finding]:
        """balanced's win share against three random players, per rule set: one heuristic
        against random play. It is not ranked between rule sets: how well balanced suits a
        rule set is not how much the rule set rewards skill (the relative skill level is)."""
        out: list[Finding] = []
        if self.fixed:
            ordered = sorted(self.fixed, key=lambda r: -self.fixed[r][1].estimate)
            listed = "; ".join(f"{r} {told(self.fixed[r][1], '%', sign=False)}" for r in ordered)
            out.append(Finding("skill", (
                f"{FIXED_PLAYER}'s edge over random players, one heuristic against random "
                f"play: its win share in every seat position against three {FIXED_FIELD} "
                f"players, highest first: {listed}. It says how well this one heuristic suits "
                "each rule set, not how much a rule set rewards skill (the relative skill level "
                "above does), so the page does not rank rule sets by it; each share is tested "
                "against the fair share in the page's family of values."
            ), True, headline=True, kind="note"))  # fmt: skip
        for r, (row, t) in self.fixed.items():
            text = (
                f"Under {r}, {FIXED_PLAYER} wins {told(t, '%', sign=False)} of {games(t.games)} "
                f"against three {FIXED_FIELD} players, against a fair share of "
                f"{pct(float(row['fair']), 0)}: {verdict(t)}."
            )
            out.append(stated("skill", text, t, "value", "%", VALUES))
        return out

    # ------------------------------------------------------------ the strongest players
    def strongest_players(self) -> list[Finding]:
        off = [r for r in self.order if (row := _measure(self.skill, r, "win_share_vs_random"))
               is not None and self.who.off(str(row["player"]), r)]  # fmt: skip
        text = (
            "Each ladder's strongest player (its top rating) is measured under its own rule set "
            "only: the strongest players differ between rule sets, so these statements are not "
            "compared across them."
        )
        if off:
            text += f" Under {names(off)} the strongest player plays off its rules."
        out = [Finding("strongest", text, True, headline=True, kind="note")]
        for r in self.order:
            for opponent in OPPONENTS:
                item = self.shares.get((r, f"win_share_vs_{opponent}"))
                if item is None:
                    continue
                row, t = item
                out.append(stated("strongest", (
                    f"Under {r}, the strongest player, {self.who(str(row['player']), r)}, wins "
                    f"{told(t, '%', sign=False)} of {games(t.games)} against three "
                    f"{opponent} players, against a fair share of {pct(float(row['fair']), 0)}: "
                    f"{verdict(t)}."
                ), t, "value", "%", VALUES))  # fmt: skip
            for opponent in OPPONENTS:
                item = self.shares.get((r, f"head_to_head_vs_{opponent}"))
                if item is not None:
                    out.append(self._head_to_head(r, opponent, *item))
            row = _measure(self.skill, r, "win_share_vs_balanced")
            if row is not None and row["player"] == "balanced":
                out.append(Finding("strongest", (
                    f"Under {r} the strongest player is balanced itself: there is no edge over "
                    "balanced to measure."
                ), True, kind="note"))  # fmt: skip
        return out

    def _head_to_head(self, r: str, opponent: str, row: pd.Series, t: Test) -> Finding:
        player = self.who(str(row["player"]), r)
        text = (
            f"Under {r}, head to head against {opponent} (two seats each), {player} wins "
            f"{told(t, '%', sign=False)} of {decided_games(t.games)} against one half: "
            f"{verdict(t)}"
        )
        ahead = _measure(self.skill, r, f"games_to_be_ahead_of_{opponent}")
        known = ahead is not None and math.isfinite(ahead["estimate"])
        if t.resolved and t.estimate > 50 and known:
            text += (
                f"; it is ahead of {opponent} with 95% probability after about "
                f"{_count(ahead['estimate'])} games (95% CI {_count(ahead['ci_low'])} to "
                f"{_count(ahead['ci_high'])})"
            )
        elif not t.resolved:
            text += "; no match length puts it surely ahead at this size"
        return stated("strongest", text + ".", t, "value", "%", VALUES)

    # ------------------------------------------------------------ skilled headline answers
    def skilled_answers(self) -> list[Finding]:
        out: list[Finding] = []
        if not self.changes:
            return out
        moved = [r for r, (_, t) in self.changes.items() if t.resolved]
        still = [r for r in self.changes if r not in moved]
        games_each = each([t.games for _, t in self.changes.values()])
        listed = "; ".join(
            f"{r}, {estimate(t.estimate, t.ci_low, t.ci_high, 'pp')}"
            for r, (_, t) in self.changes.items() if t.resolved
        )  # fmt: skip
        text = (
            "With each rule set's strongest player in every seat instead of random players (the "
            "same dice, paired by game, the games decided in both: "
            f"{games_each}), the first player's edge changes "
        )
        if moved:
            text += f"beyond chance under {listed}"
            text += f"; the change is not resolved under {names(still)}" if still else ""
        else:
            text += f"by an amount not resolved under any of the {len(still)} rule sets"
        text += " (each change in the page's family of comparisons)."
        # Sized by the measure the headline states, the change, from every rule set's test
        # (resolved or not): a run too small for its smallest effect is exploratory.
        tests = [t for _, t in self.changes.values()]
        have = int(min(t.games for t in tests))
        smallest = 100 * SMALLEST_EDGE / self.who.players(self.order[0])
        size = needed(tests, smallest, self.claims.differences)
        if is_exploratory(size, have):
            out.append(Finding("skilled", exploratory_text(
                have, int(size or 0), f"detecting a change of {num(smallest, 2)} pp (1% of a "
                "fair share) in the first player's edge with 80% power after the correction",
                "per rule set", "the first player's edges and their changes under every rule set",
            ), False, size, headline=True, kind="note"))  # fmt: skip
            text += " This run is exploratory for this measure (above): read it as a lead."
        elif still:
            text += " " + sizing(f"a change of {num(smallest, 2)} pp (1% of a fair share)",
                                 size, have)  # fmt: skip
        out.append(Finding("skilled", text, True, headline=True, kind="note"))
        out += self._capture_headlines()
        for r in self.order:
            out += self._skilled_rule_set(r)
        return out

    def _capture_headlines(self) -> list[Finding]:
        out = []
        for kind, verb in CAPTURE_KINDS:
            for opponent in ("balanced", "strongest"):
                measure = f"{kind}_share_vs_{opponent}"
                found = [(r, *self.shares[(r, measure)]) for r in self.order
                         if (r, measure) in self.shares]  # fmt: skip
                if not found:
                    continue
                below = [r for r, _, t in found if t.resolved and t.estimate < 100 * _fair(self, r)]
                above = [r for r, _, t in found if t.resolved and t.estimate > 100 * _fair(self, r)]
                rest = [r for r, _, _ in found if r not in below and r not in above]
                shares = [t.estimate for _, _, t in found]
                against = "three balanced players" if opponent == "balanced" else (
                    "three of each rule set's strongest player")  # fmt: skip
                parts = []
                if below:
                    parts.append(f"below the fair share under {of(len(below), len(found))}")
                if above:
                    parts.append(f"above it under {of(len(above), len(found))}")
                if rest:
                    parts.append(f"not resolved under {names(rest)}")
                n = len(found)
                out.append(Finding("skilled", (
                    f"{first_sentence(verb)}, against {against} (measured under {n} rule "
                    f"set{'s' if n != 1 else ''}): a seat's win share is {'; '.join(parts)} ("
                    + (f"from {num(min(shares), 1)}% to {num(max(shares), 1)}%; " if n > 1 else "")
                    + "each against its fair share, in the page's family of values)."
                ), True, headline=True, kind="note"))  # fmt: skip
        return out

    def _skilled_rule_set(self, r: str) -> list[Finding]:
        out = []
        fair = _fair(self, r)
        for kind in ("random", "strongest"):
            item = self.edges.get((r, kind))
            if item is None:
                continue
            row, t = item
            seats = "random players" if kind == "random" else self.who(str(row["player"]), r)
            edge = (t.estimate - 100 * fair, t.ci_low - 100 * fair, t.ci_high - 100 * fair)
            text = (
                f"Under {r}, with {seats} in every seat, the first player wins "
                f"{pct(t.estimate / 100, 2)} of {decided_games(t.games)}: an edge of "
                f"{estimate(*edge, 'pp')} over the fair share of {pct(fair, 0)}; {verdict(t)}."
            )
            out.append(stated("skilled", text, t, "value", "pp", VALUES, value=edge))
        item = self.changes.get(r)
        if item is not None:
            row, t = item
            text = (
                f"Under {r}, the first player's edge with {self.who(str(row['player']), r)} in "
                f"every seat minus with random players: {told(t, 'pp')}, paired by game over "
                f"{t.games:,} games decided in both; {verdict(t)}."
            )
            out.append(stated("skilled", text, t, "difference", "pp", DIFFERENCES))
        for kind, verb in CAPTURE_KINDS:
            for opponent in ("balanced", "strongest"):
                item = self.shares.get((r, f"{kind}_share_vs_{opponent}"))
                if item is None:
                    continue
                row, t = item
                text = (
                    f"Under {r}, {verb}: {self.who(str(row['player']), r)} wins "
                    f"{told(t, '%', sign=False)} of {games(t.games)} against "
                    f"three {self.who(str(row['opponent']), r)}, against a fair share of "
                    f"{pct(fair, 0)}: {verdict(t)}."
                )
                out.append(stated("skilled", text, t, "value", "%", VALUES))
        return out


CAPTURE_KINDS = (("pacifist", "never capturing"), ("skipper", "skipping forced captures"))


def _fair(plan: _Plan, rule_set: str) -> float:
    return 1.0 / plan.who.players(rule_set)


def _count(x: float) -> str:
    return "unbounded" if not math.isfinite(x) else f"{int(x):,}"


def _spread_findings(spread: pd.DataFrame, ladder: pd.DataFrame, order: list[str]) -> list[Finding]:
    """The rating spread (the standard deviation of the ladder's `mu`), named for the
    literature's measure of Duersch, Lambrecht and Oechssler (2020), per rule set."""
    rows = spread.set_index("rule_set").reindex(order).dropna(subset=["estimate"])
    if rows.empty:
        return []
    tuned = sorted({str(p) for p in ladder["player"] if policy_file(str(p))})
    why = (
        f"each ladder holds its own tuned player ({names(tuned)}; off its rules where the rule "
        "set is not the one it was tuned for), so the ladders differ"
        if tuned
        else "the page has no test of the difference between two bootstrap spreads"
    )
    text = (
        "Beside the relative skill level, an outcome-dispersion measure: the rating spread of "
        'Duersch, Lambrecht and Oechssler (2020, "Measuring skill and chance in games", '
        "European Economic Review), the standard deviation of the players' ratings (they use "
        "Elo ratings of a game's players; here the Plackett-Luce mu of the ladder); the more "
        "outcomes follow skill, the wider the ratings spread. Spreads are stated per rule set, "
        "each with its bootstrap interval, and not ranked across rule sets: a spread depends on "
        f"the whole ladder, and {why}."
    )
    out = [Finding("spread", text, True, headline=True, kind="note")]
    for rule_set, r in rows.iterrows():
        value = (float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"]))
        text = (
            f"Under {rule_set} the rating spread (standard deviation of the ladder's "
            f"Plackett-Luce mu) is {num(value[0], 2)} (95% bootstrap CI {num(value[1], 2)} to "
            f"{num(value[2], 2)}, {games(int(r['games']))}); mu is on openskill's scale, where "
            "every player starts at 25."
        )
        out.append(described("spread", text, value, "mu", int(r["games"])))
    return out


def _mix_text(rows: pd.DataFrame, rule_set: str, who: _Names) -> str:
    support = rows[rows["weight"] > SUPPORT_WEIGHT]
    if len(support) == 1:
        return f"pure {who(str(support['player'].iloc[0]), rule_set)}"
    return "a mix of " + ", ".join(
        f"{who(str(r.player), rule_set)} {num(100 * r.weight, 0)}%" for r in support.itertuples()
    )


def _metagame_findings(meta: pd.DataFrame, order: list[str], who: _Names) -> list[Finding]:
    out = []
    stable = []
    for rule_set in order:
        rows = meta[meta["rule_set"] == rule_set].sort_values("weight", ascending=False)
        if rows.empty:
            continue
        mix = _mix_text(rows, rule_set, who)
        inside = rows["weight"] > SUPPORT_WEIGHT
        resamples = int(rows["resamples"].iloc[0])
        least = float(rows.loc[inside, "support_share"].min()) if resamples else math.nan
        if resamples:
            sure = bool((rows.loc[inside, "support_share"] >= 0.95).all()
                        and (rows.loc[~inside, "support_share"] <= 0.05).all())  # fmt: skip
            others = rows[~inside & (rows["support_share"] > 0.05)]
            kept = ", ".join(
                f"{r.player} in {num(100 * r.support_share, 0)}%" for r in rows[inside].itertuples()
            )
            text = (
                f"Under {rule_set} the equilibrium is {mix}. Its support over "
                f"{resamples:,} resampled head-to-head matrices: {kept}"
            )
            if len(others):
                text += "; also " + ", ".join(
                    f"{r.player} in {num(100 * r.support_share, 0)}%" for r in others.itertuples()
                )
            text += (
                "." if sure else "; which way of playing is stable is not resolved at this size."
            )
        else:
            sure = False
            text = f"Under {rule_set} the equilibrium is {mix} (no resamples: not resolved)."
        stable.append((rule_set, mix, sure))
        out.append(Finding("metagame", text, sure, None, False, "value", 100 * least, None, None,
                           "% of resamples", None, None, int(resamples)))  # fmt: skip
    sure_ones = [f"{mix} under {r}" for r, mix, sure in stable if sure]
    unsure = [r for r, _, sure in stable if not sure]
    text = "Stable under resampling: " + ("; ".join(sure_ones) if sure_ones else "none")
    if unsure:
        text += f". Not resolved at this size under {names(unsure)}"
    out.insert(0, Finding("metagame", text + ".", not unsure, headline=True, kind="note"))
    return out


# -------------------------------------------------------------------------- page
def _column(player: str) -> str:
    """A player's column in the cross-rule-set figures: `tuned-<preset>` for the tuned one."""
    return TUNED_COLUMN if player.startswith(TUNED_PREFIX) else player


def _skill_rows(skill: pd.DataFrame, measure: str, order: list[str]) -> pd.DataFrame:
    rows = skill[skill["measure"] == measure].set_index("rule_set")
    return rows.reindex(order)


def study_page(tables: SkillTables, out: str | Path, title: str | None = None) -> Path:
    """Write `index.html` with its PNG figures and `findings.json` beside the study's CSV
    tables in `out`; the page."""
    from ludosim.report import figures
    from ludosim.report.figures import Panel
    from ludosim.report.page import (
        PageSection,
        PageTable,
        html_table,
        page_figure,
        write_study_page,
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
        f"games each; relative skill {study.skill_games:,} games per player."
    )
    sections = []
    has_rs = tables.rs is not None and not tables.rs.empty
    if has_rs:
        sections.append(relative_skill.rs_section(folder, tables.rs, order, simulated))

    # Win shares: the fixed pair (one heuristic against random play), then the strongest
    # player; rule sets in the order of their relative skill level where there is one.
    who = _Names(tables)
    fixed = _skill_rows(skill, FIXED_MEASURE, order)
    rnd = _skill_rows(skill, "win_share_vs_random", order)
    bal = _skill_rows(skill, "win_share_vs_balanced", order)
    ranked = relative_skill.rs_order(tables.rs, order) or fixed.sort_values(
        "estimate", ascending=False, kind="stable").index.tolist()  # fmt: skip
    both = pd.DataFrame(index=ranked)
    for key, rows in (("fixed", fixed), ("random", rnd), ("balanced", bal)):
        for col, name in (("estimate", key), ("ci_low", f"{key}_low"), ("ci_high", f"{key}_high")):
            both[name] = rows.loc[ranked, col].to_numpy(float)
    labels = []
    for r in ranked:
        player = str(rnd.at[r, "player"])
        labels.append(f"{r} ({player}{', off its rules' if who.off(player, r) else ''})")
    fair = float(rnd["fair"].iloc[0])
    panels = [
        Panel("fixed", "fixed_low", "fixed_high", f"{FIXED_PLAYER} vs 3 {FIXED_FIELD}",
              reference=fair, fmt="{:.3f}"),
        Panel("random", "random_low", "random_high", "strongest vs 3 random",
              reference=fair, fmt="{:.3f}"),
        Panel("balanced", "balanced_low", "balanced_high", "strongest vs 3 balanced",
              reference=fair, fmt="{:.3f}"),
    ]  # fmt: skip
    shares = page_figure(folder, figures.forest(both, labels, panels), "win_shares.png",
        "Win shares against a field: the fixed pair and the strongest player",
        f"Left: {FIXED_PLAYER} against three {FIXED_FIELD} players, the same pair under every "
        "rule set: one heuristic against random play, which the findings do not rank (rule "
        f"sets sorted by {'their relative skill level' if has_rs else 'it'}). Middle and "
        "right: each rule set's strongest player (in brackets; a tuned player on rules it was "
        "not tuned for is marked off its rules) against three random and three balanced "
        "players. Win share over every seat position, Wilson 95% CIs; dashed: the fair share. "
        f"{simulated}",
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
        "Win shares against a field", figures=[shares, games_fig],
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
    off = sorted({r for r, p in zip(tables.ladder["rule_set"], tables.ladder["player"],
                                    strict=True) if who.off(str(p), str(r))})  # fmt: skip
    off_text = f" The {TUNED_COLUMN} column plays off its rules under {names(off)}." if off else ""
    ladder_fig = page_figure(folder, heat, "ladder.png", "The ladder under each rule set",
        "Plackett-Luce rating mu of each player minus the mean of its ladder; the bootstrap "
        f"95% CIs of mu are in ladder.csv. {TUNED_COLUMN}: each rule set's shipped tuned "
        f"player.{off_text} {simulated}")  # fmt: skip
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
        "Top minus bottom mu and the standard deviation of mu (the rating spread of Duersch, "
        "Lambrecht and Oechssler 2020), bootstrap 95% CIs from "
        f"{study.bootstrap} refits; rule sets in the order of the win-share figure. {simulated}",
    )  # fmt: skip
    shown = tables.ladder.copy()
    sections.append(PageSection(
        TITLES["spread"], figures=[ladder_fig, spread_fig],
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
    found = study_findings(tables)
    intro = (
        f"How much each of {len(order)} rule sets rewards skill, and which way of playing is "
        f"stable under it. {simulated} Tables: {relative_skill.RS_FILE + ', ' if has_rs else ''}"
        f"{SKILL_FILE}, {LADDER_FILE}, {METAGAME_FILE}, {PAIRS_FILE}."
    )
    return write_study_page(folder, title or f"ludosim skill study: {study.name}", intro,
                            command, found, TITLES, sections, GLOSSARY_TERMS)  # fmt: skip


def _skilled_section(
    folder: Path, skill: pd.DataFrame, order: list[str], simulated: str, study: Study
) -> Any:
    """The headline answers with skilled players: a forest of four panels, in pp."""
    from ludosim.report import figures
    from ludosim.report.figures import Panel
    from ludosim.report.page import PageSection, page_figure

    wide = pd.DataFrame(index=order)
    panels = []
    columns = [
        ("first_player_advantage_random", "1st player, random", False),
        ("first_player_advantage_strongest", "1st, strongest", False),
        ("first_player_advantage_change", "change", False),
        ("vs_balanced", "vs 3 balanced", True),
        ("vs_strongest", "vs 3 strongest", True),
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
        "All in percentage points. First two panels: the first player's share of the decided "
        "games minus the fair share, with every seat random and with every seat the strongest "
        f"player ({study.headline_games:,} games each, the same dice); third: the second minus "
        "the first, paired by game. Last two: never capturing (pacifist, where "
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
        "(measures first_player_advantage_random, _strongest and _change, pacifist_share_*, "
        "skipper_share_*).",
        figures=[fig],
    )


def run_study(
    study: Study,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study` (`play_study`), write its CSV tables and its page into `out`; the page.

    `out` is checked before any game is played; a study that fails while writing
    leaves no files behind.
    """
    from ludosim.results import check_output_folder, output_folder

    folder = check_output_folder(out)
    tables = play_study(study, threads=threads, progress=progress)
    with output_folder(folder):
        write_tables(tables, folder)
        return study_page(tables, folder)
