"""The game as it unfolds, per rule set: the win chance from a lead, and comebacks.

For each rule set of a study (`UnfoldStudy`, a TOML file in `analyses/` or
options of `ludosim unfold`) the kernel plays `games` games with the
game-flow counters and snapshots of the seats' totals every `every` turns
(`ludosim.run.simulate.play_snapshots`, in slices so memory stays flat), and
this module turns them into:

- the **lead table** (`ludosim.studies.leads.LeadTable`): the leader's win chance by
  lead and phase, Wilson 95% intervals;
- the **comeback measures** of docs/flow.md, each with its 95% interval, on
  scales that compare boards and game lengths like with like: the share of
  games won by a seat that was last at mid-game (the first boundary at which a
  seat had run half its race), the share decided before mid-game, lead changes
  per round (a round: every seat taking one turn), the drama and the largest
  deficit overcome as shares of the race (`ludosim.studies.leads.race_length`), and
  when the game was decided as a share of its turns; for every rule set after
  the first with as many players, the change from the first with its interval;
- the **distribution of lead changes per round**;
- where the study names two-seat one-piece rule sets (`race_check`), the
  check of the lead table against the exact solver (`ludosim.studies.leads.RaceCheck`).

The page decides what it states as `ludosim.studies` says: every change from
the first rule set and every pair of rule sets behind the lead ranking in one
family of differences, every win chance against its reference (the fair share
1/players, or 3 to 1) in a family of values, both corrected by Holm. Where a
change stands against its measure's smallest change of interest (`FlowMeasure`)
is read from its interval, never from its estimate, and said as the sweep pages
say it (`ludosim.report.contrasts.practical_size`).

Every rule set plays the study's seed (game `g` of every rule set starts from
the same random stream); the race checks play `seed + 1`.
"""

from __future__ import annotations

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
    Ranking,
    Sample,
    described,
    first_sentence,
    names,
    needed,
    page_order,
    ranking_finding,
    ranking_text,
    sizing,
    stated,
    verdict,
)
from ludosim.report.contrasts import EQUIVALENT, OPEN, Test, practical_size
from ludosim.report.findings import DIFFERENCES, VALUES, Finding, size_words
from ludosim.report.wording import amount, estimate, games, num, of, p_text, pct
from ludosim.results.stats import Z95, diff_means, mean_ci, normal_cdf, wilson_interval
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet, study_options
from ludosim.rules.policies import parse_policy
from ludosim.studies import studyfile
from ludosim.studies.leads import (
    BINS_PER_RACE,
    LeadTable,
    RaceCheck,
    agrees,
    has_home_column,
    race_length,
    share_text,
)

Progress = Callable[[int, int], None]

SLICE_GAMES = 20_000  # games per kernel call: about 40 MB of snapshots with four seats
LEADS_FILE = "leads.csv"
COMEBACKS_FILE = "comebacks.csv"
CHANGES_FILE = "lead_changes.csv"
RACE_FILE = "race_check.csv"
RUNS_FILE = "runs.csv"
RUN_COLUMNS = ("rule_set", "games", "decided", "every", "players", "race", "cut")
# The lead at which the page quotes each rule set's mid-game win chance, as a share of
# the race: the bin from 4/24 to 5/24 (16.7-20.8%), the same share on every board.
QUOTED_LEAD = 1 / 6
FAVOURITE = 0.75  # "a 3-to-1 favourite"
LEAST_GAMES = 200  # a lead bin is drawn, quoted and tested from this many games on


@dataclass(frozen=True)
class FlowMeasure:
    """One comeback measure: how it is estimated and stated, and its smallest effect.

    kind: `share` (a 0/1 value per game: Wilson interval) or `mean` (normal
    interval). scale turns the per-game value into `unit`; a change is stated in
    `change_unit`; `smallest` is the smallest change of interest in that unit.
    """

    kind: str
    what: str
    unit: str
    change_unit: str
    smallest: float
    scale: float = 100.0


MEASURES = {
    "won_from_last_at_mid": FlowMeasure(
        "share", "games won by a seat that was last at mid-game", "%", "pp", 1.0
    ),
    "decided_before_mid": FlowMeasure("share", "games decided before mid-game", "%", "pp", 1.0),
    "lead_changes_per_round": FlowMeasure(
        "mean", "lead changes per round", "per round", "per round", 0.01, scale=1.0
    ),
    "drama_share": FlowMeasure(
        "mean",
        "drama (the winner's mean deficit while trailing)",
        "% of the race",
        "pp of the race",
        1.0,
    ),
    "max_deficit_share": FlowMeasure(
        "mean", "largest deficit the winner overcame", "% of the race", "pp of the race", 1.0
    ),
    "decided_share": FlowMeasure(
        "mean", "share of the game's turns before it was decided", "% of its turns", "pp", 1.0
    ),
}
COMEBACK_COLUMNS = (
    "rule_set", "measure", "estimate", "ci_low", "ci_high", "games", "diff", "diff_low",
    "diff_high", "p_value",
)  # fmt: skip
# Lead changes per round: counted in bins of this width, the last bin open.
PER_ROUND_BIN = 0.01
PER_ROUND_CAP = 0.4
TITLES = {
    "about": "How to read these findings",
    "leads": "Win chance from a lead",
    "comebacks": "Comebacks and when games are decided",
    "lead_changes": "Lead changes",
    "deficits": "Deficits overcome",
    "exact": "Check against the exact solver",
}
# Which topic states each comeback measure.
MEASURE_TOPICS = {
    "won_from_last_at_mid": "comebacks",
    "decided_before_mid": "comebacks",
    "decided_share": "comebacks",
    "lead_changes_per_round": "lead_changes",
    "drama_share": "deficits",
    "max_deficit_share": "deficits",
}


class UnfoldError(LudosimError, ValueError):
    """A study that cannot be run: a bad study file, rule set or size."""


@dataclass(frozen=True)
class UnfoldStudy:
    """What to play: rule sets, size, seed, the snapshot interval and the race checks.

    `every` 0 means two rounds (2 x players turns) for each rule set;
    `race_check` rule sets must have two players of one piece each.
    """

    rule_sets: tuple[RuleSet, ...]
    seed: int
    games: int = 100_000
    every: int = 0
    policies: str = "random"
    race_check: tuple[RuleSet, ...] = ()
    race_games: int = 20_000
    name: str = "unfold"
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.rule_sets:
            raise UnfoldError("rule sets: name at least one preset")
        labels = [r.label for r in self.rule_sets]
        if len(set(labels)) != len(labels):
            raise UnfoldError(f"rule sets: each must appear once, got {', '.join(labels)}")
        for key in ("games", "race_games"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UnfoldError(f"{key}: must be a positive number of games, got {value!r}")
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 0:
            raise UnfoldError(
                f"every: must be a number of turns >= 1 (0: two rounds), got {self.every!r}"
            )
        if not isinstance(self.policies, str):
            raise UnfoldError(
                f"policies: must be a policy name or a comma-separated line-up, got "
                f"{self.policies!r}"
            )
        for name in self.policies.split(","):
            parse_policy(name.strip())
        seen: dict[str, str] = {}
        for rule_set in self.rule_sets:
            # A bad preset or toggle fails here, before anything is played.
            rules = rule_set.rules()
            digest = rules.hash()
            if digest in seen:
                raise UnfoldError(
                    f"rule sets: {rule_set.label!r} plays the same rules as {seen[digest]!r}; "
                    "drop one (a --set to a preset's own value changes nothing)"
                )
            seen[digest] = rule_set.label
            max_turns = rules.max_turns
            if self.every > max_turns:
                # No game lasts longer, so not one snapshot would be taken.
                raise UnfoldError(
                    f"every: a snapshot every {self.every} turns is never taken under "
                    f"{rule_set.label!r}, whose games stop at max_turns={max_turns}; "
                    f"allowed: 1..{max_turns}, or 0 for two rounds of the seats"
                )
        for rule_set in self.race_check:
            rules = rule_set.rules()
            if rules.players != 2 or rules.pieces != 1:
                raise UnfoldError(
                    f"race_check {rule_set.label!r}: needs players=2 and pieces=1 (the exact "
                    f"solver's two-seat race), got players={rules.players}, pieces={rules.pieces}"
                )
            if not has_home_column(rules):
                raise UnfoldError(
                    f"race_check {rule_set.label!r}: a lone piece finishes on entering its "
                    "goal squares (finish_in_home), so no position has the pieces apart for "
                    "good before the end; the exact check does not apply"
                )

    def every_for(self, rules: Rules) -> int:
        return self.every or 2 * rules.players

    def command(self) -> str:
        """The command line that plays this study (`ludosim unfold ...`)."""
        if self.source:
            return f"ludosim unfold {shlex.quote(self.source)}"
        parts = ["ludosim unfold", shlex.join(study_options(self.rule_sets))]
        if self.every:
            parts.append(f"--every {self.every}")
        if self.policies != "random":
            parts.append(f"--policy {shlex.quote(self.policies)}")
        parts.append(f"--games {self.games} --seed {self.seed}")
        return " ".join(parts)


_STUDY_KEYS = {
    "name", "seed", "games", "every", "policies", "rule_set", "race_check", "race_games",
}  # fmt: skip


def load_study(path: str | Path) -> UnfoldStudy:
    """A study from its TOML file: seed and sizes on top, `[[rule_set]]` and `[[race_check]]`."""
    data = studyfile.read(path, _STUDY_KEYS, UnfoldError)
    seed = studyfile.seed(path, data, UnfoldError)
    # Tables, or rule-set texts (`rule_set = ["app", "app+finish=bounce"]`).
    rule_sets = tuple(studyfile.rule_set_items(path, data, "rule_set", UnfoldError))
    race_check = tuple(studyfile.rule_set_items(path, data, "race_check", UnfoldError))
    sizes = {k: data[k] for k in ("games", "every", "race_games", "name") if k in data}
    if "policies" in data:
        sizes["policies"] = ",".join(studyfile.policy_names(path, data, "policies", UnfoldError))
    return studyfile.build(
        path,
        UnfoldError,
        lambda: UnfoldStudy(rule_sets, seed, race_check=race_check, source=str(path), **sizes),
    )


# ------------------------------------------------------------------ playing
def _slices(games: int) -> list[tuple[int, int]]:
    return [(s, min(games, s + SLICE_GAMES)) for s in range(0, games, SLICE_GAMES)]


def _play(
    rules: Rules,
    games: int,
    seed: int,
    every: int,
    policies: str,
    threads: int | None,
    progress: Progress | None,
    consume: Callable[[pd.DataFrame, np.ndarray], None],
) -> None:
    """Play `games` games in slices and hand each slice's rows and snapshots to `consume`."""
    from ludosim.run.simulate import play_snapshots

    kwargs: dict[str, Any] = {} if threads is None else {"threads": threads}
    names = [p.strip() for p in policies.split(",")]
    for start, stop in _slices(games):
        df, snaps = play_snapshots(
            rules, stop - start, seed, every, names if len(names) > 1 else names[0],
            first_game=start, **kwargs,
        )  # fmt: skip
        consume(df, snaps)
        if progress is not None:
            progress(stop, games)


_FLOW_KEEP = ("winner", "turns", "lead_changes", "decided_at", "mid_at", "last_at_mid",
              "drama", "max_deficit")  # fmt: skip


@dataclass
class CellRun:
    """One rule set's lead table and per-game flow columns."""

    rule_set: RuleSet
    rules: Rules
    every: int
    leads: LeadTable
    games: pd.DataFrame


def play_cell(
    rule_set: RuleSet,
    games: int,
    seed: int,
    every: int,
    policies: str = "random",
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> CellRun:
    """Play one rule set: its lead table (bins of 24ths of its race) and the flow columns of
    every game."""
    rules = rule_set.rules()
    leads = LeadTable(rules)
    parts: list[pd.DataFrame] = []

    def consume(df: pd.DataFrame, snaps: np.ndarray) -> None:
        leads.add(df["winner"].to_numpy(), snaps)
        parts.append(df[list(_FLOW_KEEP)].copy())

    _play(rules, games, seed, every, policies, threads, progress, consume)
    return CellRun(rule_set, rules, every, leads, pd.concat(parts, ignore_index=True))


def race_check(
    rule_set: RuleSet,
    games: int,
    seed: int,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """The exact-solver check of one two-seat one-piece rule set (snapshots every turn)."""
    rules = rule_set.rules()
    check = RaceCheck(rules, 1)

    def consume(df: pd.DataFrame, snaps: np.ndarray) -> None:
        check.add(df["first"].to_numpy(), df["winner"].to_numpy(), snaps)

    _play(rules, games, seed, 1, "random", threads, progress, consume)
    return check.table()


# ------------------------------------------------------------------ the measures
def comeback_values(games: pd.DataFrame, players: int, race: int) -> dict[str, np.ndarray]:
    """Per measure, one value per game with a winner, in the measure's raw scale.

    Shares are 0/1 per game; lead changes are per round (lead changes x players /
    turns); the drama and the largest deficit overcome are fractions of the race
    (`race` squares: `ludosim.studies.leads.race_length`); the turn the game was decided
    is a fraction of its turns.
    """
    won = games[games["winner"] >= 0]
    turns = won["turns"].to_numpy(float)
    return {
        "won_from_last_at_mid": won["last_at_mid"].to_numpy(float),
        "decided_before_mid": (won["decided_at"] <= won["mid_at"]).to_numpy(float),
        "lead_changes_per_round": won["lead_changes"].to_numpy(float) * players / turns,
        "drama_share": won["drama"].to_numpy(float) / race,
        "max_deficit_share": won["max_deficit"].to_numpy(float) / race,
        "decided_share": won["decided_at"].to_numpy(float) / turns,
    }


def _estimate(kind: str, values: np.ndarray) -> tuple[float, float, float]:
    if kind == "share":
        k, n = int(values.sum()), len(values)
        low, high = wilson_interval(k, n)
        return k / n, low, high
    return mean_ci(values)


def _change(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """a minus b of independent games (shares as 0/1 means): normal 95% interval and the
    two-sided p-value of no change."""
    d, low, high = diff_means(a, b)
    se = (high - low) / (2.0 * Z95)
    p = 2.0 * (1.0 - normal_cdf(abs(d) / se)) if se > 0 else float(d == 0)
    return d, low, high, p


def _runs_players(runs: list[CellRun]) -> list[int]:
    return [run.rules.players for run in runs]


def comeback_table(runs: list[CellRun]) -> pd.DataFrame:
    """`COMEBACK_COLUMNS`: every measure per rule set, and its change from the first rule set.

    A change is computed only for rule sets with as many players as the first:
    with another number of players the shares (last at mid-game, a fair share)
    mean something else. `p_value` is unadjusted; the page decides the changes
    together with its other comparisons.
    """
    values = [comeback_values(r.games, r.rules.players, race_length(r.rules)) for r in runs]
    players = _runs_players(runs)
    rows = []
    for measure, m in MEASURES.items():
        base = values[0][measure]
        for i, run in enumerate(runs):
            mine = values[i][measure]
            est, low, high = _estimate(m.kind, mine)
            compared = i > 0 and players[i] == players[0]
            d = _change(mine, base) if compared else (math.nan,) * 4
            rows.append((run.rule_set.label, measure, est, low, high, len(mine), *d))
    return pd.DataFrame(rows, columns=list(COMEBACK_COLUMNS))


def lead_change_table(runs: list[CellRun]) -> pd.DataFrame:
    """Per rule set and bin of lead changes per round (`PER_ROUND_BIN` wide, the last bin
    from `PER_ROUND_CAP` on): games with a winner, and their share."""
    rows = []
    bins = round(PER_ROUND_CAP / PER_ROUND_BIN)
    for run in runs:
        per_round = comeback_values(run.games, run.rules.players, race_length(run.rules))[
            "lead_changes_per_round"
        ]
        k = np.minimum(np.floor(per_round / PER_ROUND_BIN + 1e-9).astype(np.int64), bins)
        counts = np.bincount(k, minlength=bins + 1)
        for j, c in enumerate(counts):
            rows.append((run.rule_set.label, round(j * PER_ROUND_BIN, 6), int(c),
                         c / max(counts.sum(), 1)))  # fmt: skip
    return pd.DataFrame(rows, columns=["rule_set", "per_round", "games", "share"])


def lead_tables(runs: list[CellRun]) -> pd.DataFrame:
    """Every rule set's lead table, with its rule set."""
    parts = []
    for run in runs:
        table = run.leads.table()
        table.insert(0, "rule_set", run.rule_set.label)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


@dataclass
class UnfoldTables:
    """A study's tables; `runs` has one row per rule set (`RUN_COLUMNS`): games played,
    games with a winner, snapshot interval, players, the race in squares
    (`ludosim.studies.leads.race_length`), games cut at the snapshot cap."""

    study: UnfoldStudy
    leads: pd.DataFrame
    comebacks: pd.DataFrame
    changes: pd.DataFrame
    race: pd.DataFrame
    runs: pd.DataFrame

    def run(self, label: str) -> pd.Series:
        return self.runs.set_index("rule_set").loc[label]


def play_study(
    study: UnfoldStudy, *, threads: int | None = None, progress: Progress | None = None
) -> UnfoldTables:
    """Play every rule set and race check of `study`; its tables."""
    total = study.games * len(study.rule_sets) + study.race_games * len(study.race_check)
    done = 0

    def part(before: int) -> Progress | None:
        if progress is None:
            return None
        return lambda k, _: progress(before + k, total)

    # The race checks are quick: played first, a failing one costs no long run.
    checks = []
    for rule_set in study.race_check:
        table = race_check(rule_set, study.race_games, study.seed + 1, threads=threads,
                           progress=part(done))  # fmt: skip
        table.insert(0, "rule_set", rule_set.label)
        checks.append(table)
        done += study.race_games
    runs = []
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        runs.append(play_cell(rule_set, study.games, study.seed, study.every_for(rules),
                              study.policies, threads=threads, progress=part(done)))  # fmt: skip
        done += study.games
    race = pd.concat(checks, ignore_index=True) if checks else pd.DataFrame()
    return UnfoldTables(
        study,
        lead_tables(runs),
        comeback_table(runs),
        lead_change_table(runs),
        race,
        pd.DataFrame(
            [(r.rule_set.label, r.leads.played, r.leads.decided, r.every, r.rules.players,
              r.leads.race, r.leads.cut) for r in runs],
            columns=list(RUN_COLUMNS),
        ),
    )  # fmt: skip


def write_tables(tables: UnfoldTables, out: str | Path) -> Path:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.leads.to_csv(folder / LEADS_FILE, index=False)
    tables.comebacks.to_csv(folder / COMEBACKS_FILE, index=False)
    tables.changes.to_csv(folder / CHANGES_FILE, index=False)
    tables.runs.to_csv(folder / RUNS_FILE, index=False)
    if len(tables.race):
        tables.race.to_csv(folder / RACE_FILE, index=False)
    return folder


def read_tables(folder: str | Path, study: UnfoldStudy) -> UnfoldTables:
    """The tables `write_tables` wrote into `folder` for `study` (to redraw its page)."""
    folder = Path(folder)
    try:
        race = pd.read_csv(folder / RACE_FILE) if study.race_check else pd.DataFrame()
        return UnfoldTables(
            study,
            pd.read_csv(folder / LEADS_FILE),
            pd.read_csv(folder / COMEBACKS_FILE),
            pd.read_csv(folder / CHANGES_FILE),
            race,
            pd.read_csv(folder / RUNS_FILE),
        )
    except OSError as exc:
        raise UnfoldError(f"{folder}: the study's tables cannot be read: {exc}") from None


# ------------------------------------------------------------------ findings
QUOTED_BIN = int(QUOTED_LEAD * BINS_PER_RACE)  # the bin from 4/24 to 5/24 of the race
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("race", "every piece of a seat in its goal: pieces x (goal + 1) squares of total progress "
     "(228 with four pieces on a way of 57 steps, 176 on maedn's way of 44). Leads and "
     "deficits are stated as shares of it, so boards of 40 and 52 squares compare."),
    ("total", "a seat's progress plus one per piece (a piece in the yard counts 0)."),
    ("leader, lead", "the one seat with the largest total, and its total minus the largest "
     "total of the others; when several share the largest total nobody leads."),
    ("phase", "how much of its race the leader has run: early below a third, mid from a third "
     "to two thirds, late beyond."),
    ("lead bin", "leads grouped in 24ths of the race; each game counts once in a bin and phase, "
     "with its first snapshot there."),
    ("win chance from a lead", "the share of the games in a lead bin that the leader went on to "
     "win; stated beside the fair share 1/players, what a seat wins with no lead at all."),
    ("3-to-1 favourite", "a leader whose win chance is resolved above 75% in every lead bin "
     "from that lead on (each bin tested against 75%)."),
    ("mid-game", "the first turn boundary at which some seat had run half its race."),
    ("comeback from last place", "a game won by a seat that had the least total at mid-game."),
    ("decided", "the turn from which the winner led at every boundary to the end."),
    ("lead changes per round", "boundaries at which the lead passed from one seat to another, "
     "per round of the game (its turns divided by the players): games of different length "
     "compare."),
    ("drama", "the winner's mean deficit while it was not leading (Browne 2011), as a share of "
     "the race."),
    ("largest deficit overcome", "the winner's largest deficit to the best other seat, as a "
     "share of the race."),
    ("exact-solver check", "in a two-seat race of one piece each, once the pieces can no longer "
     "meet, the exact win chance of the leader (docs/flow.md); the simulated wins against it "
     "as a z score, one check per rule set, each with its own 5% tolerance."),
)  # fmt: skip


@dataclass
class UnfoldFindings:
    """What the page states, and the tests behind its table of changes."""

    findings: list[Finding]
    changes: dict[tuple[str, str], Test]  # (rule set, measure) -> its change from the first


def quoted_bin(table: pd.DataFrame) -> pd.Series | None:
    """The mid-game row of `table` (one rule set) of the lead bin from `QUOTED_LEAD` of the
    race, when it has at least `LEAST_GAMES` games."""
    rows = table[(table["phase"] == "mid") & (table["games"] >= LEAST_GAMES)]
    rows = rows[np.isclose(rows["share_from"], QUOTED_BIN / BINS_PER_RACE)]
    return None if rows.empty else rows.iloc[0]


def _bins(table: pd.DataFrame, phase: str = "mid") -> pd.DataFrame:
    return table[(table["phase"] == phase) & (table["games"] >= LEAST_GAMES)]


def favourite_lead(bins: pd.DataFrame, tests: list[Test]) -> int | None:
    """The position in `bins` (one phase, in lead order) from which the leader is a 3-to-1
    favourite: every bin from there resolved above `FAVOURITE` in its family."""
    above = np.array([t.resolved and t.estimate > 100 * FAVOURITE for t in tests], dtype=bool)
    if not above.any() or not above[-1]:
        return None
    below = np.nonzero(~above)[0]
    return 0 if not len(below) else int(below[-1]) + 1


def _runs_of(tables: UnfoldTables) -> dict[str, tuple[int, int]]:
    """Rule set -> (players, race in squares), from runs.csv."""
    runs = tables.runs.set_index("rule_set")
    return {str(k): (int(r["players"]), int(r["race"])) for k, r in runs.iterrows()}


def _value(m: FlowMeasure, est: float, low: float, high: float) -> str:
    return estimate(m.scale * est, m.scale * low, m.scale * high, m.unit, sign=False)


def _short(label: str, base: str) -> str:
    """A rule set's label without the base rule set's, where it only adds toggles to it."""
    return label.removeprefix(base + " ") if label.startswith(base + " ") else label


def decide(tables: UnfoldTables) -> UnfoldFindings:
    """Every finding of the page, decided in the page's two families (`ludosim.studies`)."""
    claims = Claims()
    order = [r.label for r in tables.study.rule_sets]
    runs = _runs_of(tables)
    players = {label: runs[label][0] for label in order}
    alike = [r for r in order if players[r] == players[order[0]]]
    # Leads: every quoted bin against its fair share; every mid bin against 3 to 1.
    quoted: dict[str, tuple[pd.Series, Test]] = {}
    favourites: dict[str, tuple[pd.DataFrame, list[Test]]] = {}
    for label in order:
        table = tables.leads[tables.leads["rule_set"] == label]
        row = quoted_bin(table)
        fair = 1.0 / players[label]
        if row is not None:
            test = claims.share(f"lead:{label}", int(row.leader_wins), int(row.games), fair)
            quoted[label] = (row, test)
        bins = _bins(table)
        favourites[label] = (bins, [
            claims.share(f"favourite:{label}:{b.share_from:.4f}", int(b.leader_wins),
                         int(b.games), FAVOURITE)
            for b in bins.itertuples()
        ])  # fmt: skip
    ranked = {r: Sample.share(int(quoted[r][0].leader_wins), int(quoted[r][0].games))
              for r in alike if r in quoted}  # fmt: skip
    ranking = Ranking(claims, ranked, "leads") if len(ranked) > 1 else None
    # Comebacks: every change from the first rule set (rule sets with as many players).
    changes: dict[tuple[str, str], Test] = {}
    for r in tables.comebacks.itertuples():
        if math.isnan(r.diff):
            continue
        m = MEASURES[r.measure]
        sample = Sample.of_interval(r.diff, r.diff_low, r.diff_high, int(r.games))
        changes[(r.rule_set, r.measure)] = claims.difference(
            f"change:{r.measure}:{r.rule_set}", sample, "independent", m.scale
        )
    claims.adjust()

    out = [claims.about(
        "every rule set's change from the first on each comeback measure, and every pair of "
        "rule sets behind the ranking of the win chance from a lead",
        "each rule set's win chance from a lead against its fair share, and each mid-game lead "
        "bin against 3 to 1",
    ), _scales_note(order, runs, alike)]  # fmt: skip
    out += _lead_findings(claims, order, runs, quoted, favourites, ranking)
    out += _comeback_findings(claims, tables.comebacks, order, alike, changes)
    out += _race_findings(tables.race)
    return UnfoldFindings(page_order(out, TITLES), changes)


def study_findings(tables: UnfoldTables) -> list[Finding]:
    """What the study's tables say, as `ludosim.report.findings.Finding`s (topics `TITLES`)."""
    return decide(tables).findings


def _scales_note(order: list[str], runs: dict[str, tuple[int, int]], alike: list[str]) -> Finding:
    races = {}
    for label in order:
        races.setdefault(runs[label][1], []).append(label)
    race_text = "; ".join(f"{race} squares under {names(labels)}" for race, labels in races.items())
    fair = {runs[r][0] for r in order}
    text = (
        "Scales: leads, the drama and the largest deficit overcome are stated as shares of the "
        f"race (every piece in the goal: {race_text}), so boards of different sizes compare; "
        "lead changes per round (every seat taking one turn), so games of different length "
        "compare; a win chance beside the fair share 1/players "
        f"({', '.join(pct(1 / n, 0) for n in sorted(fair))})."
    )
    others = [r for r in order if r not in alike]
    if others:
        text += (
            f" {names(others)} seat{'s' if len(others) == 1 else ''} another number of players "
            f"than {order[0]}: {'it is' if len(others) == 1 else 'they are'} not compared with "
            "the others (a share of games, a fair share and being last mean something else)."
        )
    return Finding("about", text, True, headline=True, kind="note")


def _lead_findings(
    claims: Claims,
    order: list[str],
    runs: dict[str, tuple[int, int]],
    quoted: dict[str, tuple[pd.Series, Test]],
    favourites: dict[str, tuple[pd.DataFrame, list[Test]]],
    ranking: Ranking | None,
) -> list[Finding]:
    out: list[Finding] = []
    share = share_text(QUOTED_BIN / BINS_PER_RACE, (QUOTED_BIN + 1) / BINS_PER_RACE)
    lead = f"a mid-game lead of {share} of the race"

    def chance(label: str) -> str:
        t = quoted[label][1]
        return (
            f"the leader wins {estimate(t.estimate, t.ci_low, t.ci_high, '%', sign=False)} "
            f"against a fair share of {pct(1 / runs[label][0], 0)}"
        )

    if ranking is not None:
        size = needed(ranking.tests(), 1.0, claims.differences)
        have = min(s.games for s in ranking.items.values())
        ends = ((True, ("counts most", "most")), (False, ("counts least", "least")))
        for top, words in ends[: 1 if len(ranking.items) == 2 else 2]:
            end = ranking.end(top)
            if end is None:
                continue
            text = ranking_text(end, f"{first_sentence(lead)} {words[0]}",
                                f"Where {lead} counts {words[1]}", "pp", chance, 1.0)  # fmt: skip
            if not end.resolved and not end.same_within(1.0):
                text += " " + sizing("a difference of 1 pp in that win chance", size, have)
                text = text.replace("games per rule set", "games in that bin per rule set")
            out.append(ranking_finding("leads", end, text, "pp", size))
    for label in order:
        if label in quoted:
            row, t = quoted[label]
            race = runs[label][1]
            text = (
                f"Under {label}, {lead} ({int(row.lead_from)}-{int(row.lead_to) - 1} of {race} "
                f"squares): {chance(label)}, {games(int(row.games))} with such a lead; "
                f"{verdict(t)}."
            )
            out.append(stated("leads", text, t, "value", "%", VALUES))
        bins, tests = favourites[label]
        at = favourite_lead(bins, tests)
        if at is None:
            continue
        row, t = bins.iloc[at], tests[at]
        worst = max(x.p_adjusted for x in tests[at:])
        text = (
            f"Under {label}, from a mid-game lead of {pct(row.share_from, 1)} of the race "
            f"({int(row.lead_from)} of {runs[label][1]} squares) on, the leader is a 3-to-1 "
            f"favourite: every lead bin from there with {LEAST_GAMES} games or more is resolved "
            f"above 75% (there: {estimate(t.estimate, t.ci_low, t.ci_high, '%', sign=False)}; "
            f"largest Holm-adjusted {p_text(worst)})."
        )
        out.append(Finding("leads", text, True, None, False, "value", t.estimate, t.ci_low,
                           t.ci_high, "%", VALUES, worst, t.games))  # fmt: skip
    return out


def _comeback_findings(
    claims: Claims,
    comebacks: pd.DataFrame,
    order: list[str],
    alike: list[str],
    changes: dict[tuple[str, str], Test],
) -> list[Finding]:
    out: list[Finding] = []
    base = order[0]
    for measure, m in MEASURES.items():
        topic = MEASURE_TOPICS[measure]
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        b = rows.loc[base]
        value = _value(m, b.estimate, b.ci_low, b.ci_high)
        head = f"{first_sentence(m.what)}: {value} under {base}"
        mine = [(r, changes[(r, measure)]) for r in alike[1:] if (r, measure) in changes]
        moved = sorted([x for x in mine if x[1].resolved], key=lambda x: -abs(x[1].estimate))
        # Where each change stands against the smallest change of interest, from its
        # interval: a resolved change below it says so, as on the sweep pages.
        sizes = {r: practical_size(t.resolved, t.ci_low, t.ci_high, m.smallest) for r, t in mine}
        smallest = amount(m.smallest, m.change_unit)
        for sign, word in ((1, "higher"), (-1, "lower")):
            listed = [
                f"{_short(r, base)} ({estimate(t.estimate, t.ci_low, t.ci_high, m.change_unit)}"
                + (f"; {note}" if (note := size_words(sizes[r], m.smallest, m.change_unit,
                                                      short=True)) else "")
                + ")"
                for r, t in moved if sign * t.estimate > 0
            ]  # fmt: skip
            if listed:
                head += f"; {word} under {', '.join(listed)}"
        same = [_short(r, base) for r, _ in mine if sizes[r] == EQUIVALENT]
        still = [_short(r, base) for r, _ in mine if sizes[r] == OPEN]
        if same:
            head += (
                f"; no change that matters, each interval within ±{smallest}, under "
                f"{', '.join(same)}"
            )
        if still:
            head += (
                f"; not resolved at this size, a change of {smallest} not ruled out, under "
                f"{', '.join(still)}"
            )
        if mine:
            head += f" (each change from {base}, in the page's family)"
        head += "."
        if still:  # a change ruled out by its interval leaves no size to ask for
            size = needed([t for _, t in mine], m.smallest, claims.differences)
            head += " " + sizing(f"a change of {smallest}", size, int(b.games))
        out.append(Finding(topic, head, True, headline=True, kind="note"))
        out.append(described(
            topic, f"Under {base}, {m.what}: {_value(m, b.estimate, b.ci_low, b.ci_high)}, "
            f"{games(int(b.games))} with a winner.",
            (m.scale * b.estimate, m.scale * b.ci_low, m.scale * b.ci_high), m.unit, int(b.games),
        ))  # fmt: skip
        for r, t in mine:
            row = rows.loc[r]
            text = (
                f"Under {r}, {m.what}: {_value(m, row.estimate, row.ci_low, row.ci_high)}; "
                f"{estimate(t.estimate, t.ci_low, t.ci_high, m.change_unit)} from {base} "
                f"(independent games, {int(row.games):,} and {int(b.games):,} with a winner); "
                f"{verdict(t, m.smallest, m.change_unit)}."
            )
            out.append(stated(topic, text, t, "difference", m.change_unit, DIFFERENCES))
    return out


def _race_findings(race: pd.DataFrame) -> list[Finding]:
    out: list[Finding] = []
    if race.empty:
        return out
    totals = race[race["lead_to"] < 0]
    checks = len(totals)
    ok = [agrees(rows) for _, rows in race.groupby("rule_set", sort=False)]
    chance = 1.0 - (1.0 - 0.05) ** checks
    text = (
        f"The lead table is checked against the exact solver under {checks} two-seat one-piece "
        f"rule set{'s' if checks != 1 else ''}: each check is a z test of the leader's simulated "
        f"wins against the exact expectation, passed within |z| <= 1.96, a tolerance of 5% per "
        f"check, not corrected over the checks"
        + (f" (with {checks} checks that all hold, {pct(chance, 0)} of runs would show at least "
           "one beyond 1.96 by chance alone)" if checks > 1 else "")
        + (f". {of(sum(ok), checks).capitalize()} pass." if checks > 1
           else (". It passes." if all(ok) else ". It fails."))
    )  # fmt: skip
    out.append(Finding("exact", text, all(ok), headline=True, kind="note"))
    for (label, rows), passed in zip(race.groupby("rule_set", sort=False), ok, strict=True):
        total = rows[rows["lead_to"] < 0].iloc[0]
        n = int(total.games)
        gap = 100 * (float(total.simulated) - float(total.exact))
        half = 100 * Z95 * float(total.sd) / n
        text = (
            f"{label}: from the first position with a piece in its home column, the leader won "
            f"{int(total.leader_wins):,} of {n:,} games ({pct(total.simulated, 2)}); the exact "
            f"solver expects {total.expected_wins:,.1f} ({pct(total.exact, 2)}): z = "
            f"{num(total.z, 2, sign=True)}, "
            + ("within the per-check tolerance of 1.96." if passed
               else "beyond the per-check tolerance of 1.96: the check FAILS.")
        )  # fmt: skip
        out.append(Finding("exact", text, passed, None, False, "value", gap, gap - half,
                           gap + half, "pp", None, None, n))  # fmt: skip
    return out


# ------------------------------------------------------------------ the page
def comeback_text(
    comebacks: pd.DataFrame, changes: dict[tuple[str, str], Test] | None = None
) -> pd.DataFrame:
    """The comeback table as a reader sees it: estimate (CI), change from the first rule set
    (CI) and its Holm-adjusted p in the page's family (`decide(...).changes`), as text."""
    rows = []
    for r in comebacks.itertuples():
        m = MEASURES[r.measure]
        test = (changes or {}).get((r.rule_set, r.measure))
        change = "" if test is None else estimate(test.estimate, test.ci_low, test.ci_high,
                                                   m.change_unit, with_ci=False)  # fmt: skip
        p = "" if test is None else p_text(test.p_adjusted).removeprefix("p ").lstrip("= ")
        rows.append((m.what, r.rule_set, _value(m, r.estimate, r.ci_low, r.ci_high).replace(
            "95% CI ", ""), f"{r.games:,}", change, p))  # fmt: skip
    columns = ["measure", "rule set", "estimate (95% CI)", "games", "change (95% CI)",
               "Holm-adjusted p"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def study_page(tables: UnfoldTables, out: str | Path, title: str | None = None) -> Path:
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
    order = [r.label for r in study.rule_sets]
    decided = decide(tables)
    command = study.command() + f" --out {shlex.quote(str(folder))}"
    every = sorted({int(e) for e in tables.runs["every"]})
    simulated = (
        f"Simulated: {len(order)} rule sets, {study.games:,} games each with {study.policies} "
        f"players, seed {study.seed}; snapshots every {', '.join(map(str, every))} turns."
    )
    cut = {r.rule_set: r.cut for r in tables.runs.itertuples() if r.cut}
    if cut:
        simulated += (
            " Games longer than 256 snapshots keep their first 256: "
            + ", ".join(f"{k} {v:,}" for k, v in cut.items())
            + "."
        )
    sections = []

    # Leads in percent of each rule set's race: the bins line up across boards.
    in_shares = tables.leads.assign(
        lead_from=100 * tables.leads["share_from"],
        lead_to=np.where(tables.leads["share_to"] < 0, -1.0, 100 * tables.leads["share_to"]),
    )
    fair = sorted({1 / int(n) for n in tables.runs["players"]})
    curves = figures.win_chance_curves(
        in_shares, order, least=LEAST_GAMES, xlabel="lead (% of the race)",
        fair=fair[0] if len(fair) == 1 else None,
    )  # fmt: skip
    lead_fig = page_figure(folder, curves, "win_chance.png",
        "The leader's win chance by lead and phase",
        "Share of games the leader went on to win, by its lead over the best other seat as a "
        "share of its race (24ths of every piece in the goal), in each phase (early: the leader "
        "has run less than a third of its race, mid: up to two thirds, late: more); bands: "
        f"Wilson 95% CIs; bins with at least {LEAST_GAMES} games. Each game counts once per bin "
        f"(its first snapshot there). {'Dashed: the fair share' if len(fair) == 1 else 'Fair'}"
        f" {', '.join(pct(f, 0) for f in fair)}: what a seat wins with no lead at all. "
        f"{simulated}")  # fmt: skip
    shown = tables.leads[(tables.leads["phase"] == "mid") & (tables.leads["games"] >= LEAST_GAMES)]
    bins = zip(shown["share_from"], shown["share_to"], strict=True)
    shown = shown.assign(lead=[share_text(a, b) for a, b in bins])
    mid = shown.pivot_table(index="lead", columns="rule_set", values="win_chance", sort=False)
    mid = mid[[c for c in order if c in mid.columns]]
    mid = mid.map(lambda v: "" if pd.isna(v) else f"{100 * v:.0f}%")
    mid.columns.name = None
    mid.index.name = "lead (share of the race)"
    sections.append(PageSection(
        "Win chance from a lead", figures=[lead_fig],
        tables=[PageTable("Mid-game win chance by lead", LEADS_FILE,
                          html_table(mid.reset_index()),
                          "The leader's win chance at mid-game per lead bin (a 24th of the race) "
                          f"and rule set, bins of at least {LEAST_GAMES} games; {LEADS_FILE} has "
                          "every phase and bin, in squares and in shares of the race, with its "
                          "games and Wilson 95% interval.")],
    ))  # fmt: skip

    comebacks = tables.comebacks
    wide = pd.DataFrame(index=order)
    panels = []
    labels = {"won_from_last_at_mid": "won from last at mid (%)",
              "decided_before_mid": "decided before mid (%)",
              "lead_changes_per_round": "lead changes per round",
              "drama_share": "drama (% of the race)"}  # fmt: skip
    for measure, label in labels.items():
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        scale = MEASURES[measure].scale
        for col in ("estimate", "ci_low", "ci_high"):
            wide[f"{measure}_{col}"] = rows.loc[order, col].to_numpy(float) * scale
        ref = float(rows.loc[order[0], "estimate"]) * scale
        panels.append(Panel(f"{measure}_estimate", f"{measure}_ci_low", f"{measure}_ci_high",
                            label, reference=ref))  # fmt: skip
    forest = page_figure(folder, figures.forest(wide, order, panels), "comebacks.png",
        "Comebacks per rule set",
        f"Each measure with its 95% CI; dashed: the first rule set ({order[0]}). "
        "Won from last at mid: the winner had the least total when a seat first had run half "
        "its race. Decided before mid: the winner led for good from before that boundary. "
        "Lead changes per round of the game; drama: the winner's mean deficit while trailing, "
        f"as a share of the race. {simulated}")  # fmt: skip
    changes = figures.share_lines(tables.changes, "rule_set", "per_round", "share", order,
                                  xlabel=f"lead changes per round ({PER_ROUND_BIN:g} wide bins; "
                                  f"{PER_ROUND_CAP:g}: that many or more)",
                                  ylabel="share of games")  # fmt: skip
    changes_fig = page_figure(folder, changes, "lead_changes.png",
        "How often the lead changes hands",
        "Share of the games with a winner by lead changes per round (the game's lead changes "
        "divided by its rounds, so that games of different length compare). "
        f"{simulated}")  # fmt: skip
    sections.append(PageSection(
        "Comebacks", figures=[forest, changes_fig],
        tables=[PageTable("Comeback measures", COMEBACKS_FILE,
                          html_table(comeback_text(comebacks, decided.changes)),
                          "Per rule set and measure: estimate and 95% interval (Wilson for "
                          f"shares, normal for means), and the change from {order[0]} with its "
                          "interval and its Holm-adjusted p in the page's family of comparisons "
                          f"(findings above). Lead changes per round: {CHANGES_FILE}.")],
    ))  # fmt: skip

    if len(tables.race):
        race_fig = page_figure(folder, figures.race_check(tables.race), "race_check.png",
            "Simulated against exact win chances",
            "Two seats of one piece: per lead bin, the leader's simulated win share (dots, "
            "Wilson 95% CIs) and the exact solver's mean chance over the same positions "
            f"(line), from the first position with a piece in its home column; "
            f"{study.race_games:,} games per rule set, seed {study.seed + 1}.")  # fmt: skip
        sections.append(PageSection(
            "Check against the exact solver", figures=[race_fig],
            tables=[PageTable("Race check", RACE_FILE, html_table(tables.race),
                              "Per lead bin (the last row of each rule set: all bins): games, "
                              "leader wins, simulated and exact win chance, the exact expected "
                              "wins, their standard deviation and z.")],
        ))  # fmt: skip
    for section in sections:
        for item in section.figures:
            item.command = command
    intro = (
        f"How games unfold under {len(order)} rule sets: how much a lead is worth, how "
        f"often the lead changes and how often the last seat comes back. {simulated} Tables: "
        f"{LEADS_FILE}, {COMEBACKS_FILE}, {CHANGES_FILE}, {RUNS_FILE}"
        + (f", {RACE_FILE}" if len(tables.race) else "")
        + ". Definitions: docs/flow.md."
    )
    return write_study_page(folder, title or f"ludosim: the game as it unfolds ({study.name})",
                            intro, command, decided.findings, TITLES, sections,
                            GLOSSARY_TERMS)  # fmt: skip


def run_study(
    study: UnfoldStudy,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study`, write its CSV tables and its page into `out`; the page.

    `out` is checked before any game is played, and the tables before anything is
    written; a study that fails on the way leaves no files behind.
    """
    from ludosim.results import check_output_folder, output_folder

    folder = check_output_folder(out)
    tables = play_study(study, threads=threads, progress=progress)
    found = set(tables.leads["rule_set"])
    for rule_set, every in zip(tables.runs["rule_set"], tables.runs["every"], strict=True):
        if rule_set not in found:
            raise UnfoldError(
                f"every: no snapshot of {rule_set!r} found a leader: a game's first snapshot "
                f"is at turn {every}, and its games ended before; choose a smaller --every "
                "(0: two rounds of the seats); nothing was written"
            )
    with output_folder(folder):
        write_tables(tables, folder)
        return study_page(tables, folder)
