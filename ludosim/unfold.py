"""The game as it unfolds, per rule set: the win chance from a lead, and comebacks.

For each rule set of a study (`UnfoldStudy`, a TOML file in `analyses/` or
options of `ludosim unfold`) the kernel plays `games` games with the
game-flow counters and snapshots of the seats' totals every `every` turns
(`ludosim.simulate.play_snapshots`, in slices so memory stays flat), and
this module turns them into:

- the **lead table** (`ludosim.leads.LeadTable`): the leader's win chance by
  lead and phase, Wilson 95% intervals;
- the **comeback measures** of docs/flow.md, each with its 95% interval:
  the share of games won by a seat that was last at mid-game (the first
  boundary at which a seat had run half its race), the share decided before
  mid-game, the mean lead changes, the mean drama, the mean largest deficit
  overcome, and when the game was decided as a share of its turns; for every
  rule set after the first, the difference to the first with its interval
  and Holm's correction over the rule sets;
- the **distribution of lead changes**;
- where the study names two-seat one-piece rule sets (`race_check`), the
  check of the lead table against the exact solver (`ludosim.leads.RaceCheck`).

Every rule set plays the study's seed (game `g` of every rule set starts from
the same random stream); the race checks play `seed + 1`.
"""

from __future__ import annotations

import math
import shlex
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.errors import LudosimError
from ludosim.leads import (
    LeadTable,
    RaceCheck,
    agrees,
    has_home_column,
    lead_text,
    lead_width,
    race_length,
)
from ludosim.options import RuleSet
from ludosim.policies import parse_policy
from ludosim.rules import Rules
from ludosim.stats import (
    diff_means,
    diff_proportions,
    holm,
    interval_p,
    mean_ci,
    wilson_interval,
)

Progress = Callable[[int, int], None]

SLICE_GAMES = 20_000  # games per kernel call: about 40 MB of snapshots with four seats
LEADS_FILE = "leads.csv"
COMEBACKS_FILE = "comebacks.csv"
CHANGES_FILE = "lead_changes.csv"
RACE_FILE = "race_check.csv"
RUNS_FILE = "runs.csv"
RUN_COLUMNS = ("rule_set", "games", "decided", "every", "lead_width", "cut")
# The lead at which the page quotes each rule set's mid-game win chance, as a share of
# the race: 1/6 is 38 squares with four pieces on 57 steps (the 30-39 bin).
QUOTED_LEAD = 1 / 6
FAVOURITE = 0.75  # "a 3-to-1 favourite"
ALPHA = 0.05  # family-wise error rate of the changes from the first rule set (Holm)
LEAST_GAMES = 200  # a lead bin is drawn and quoted from this many games on

MEASURES = {
    # name: (kind, what a reader is told, unit)
    "won_from_last_at_mid": ("share", "games won by a seat that was last at mid-game", "%"),
    "decided_before_mid": ("share", "games decided before mid-game", "%"),
    "lead_changes": ("mean", "lead changes per game", ""),
    "drama": ("mean", "drama (the winner's mean deficit while trailing, squares)", ""),
    "max_deficit": ("mean", "largest deficit the winner overcame (squares)", ""),
    "decided_share": ("mean", "share of the game's turns before it was decided", "%"),
}
COMEBACK_COLUMNS = (
    "rule_set", "measure", "estimate", "ci_low", "ci_high", "games", "diff", "diff_low",
    "diff_high", "p_holm",
)  # fmt: skip
# Lead changes: counted per value up to this, the rest in one bin.
CHANGES_CAP = 60
TITLES = {
    "leads": "Win chance from a lead",
    "comebacks": "Comebacks",
    "exact": "Check against the exact solver",
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
        for name in self.policies.split(","):
            parse_policy(name.strip())
        seen: dict[str, str] = {}
        for rule_set in self.rule_sets:
            # A bad preset or toggle fails here, before anything is played.
            digest = rule_set.rules().hash()
            if digest in seen:
                raise UnfoldError(
                    f"rule sets: {rule_set.label!r} plays the same rules as {seen[digest]!r}; "
                    "drop one (a --set to a preset's own value changes nothing)"
                )
            seen[digest] = rule_set.label
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
        parts = ["ludosim unfold"]
        parts += [f"--preset {p}" for p in dict.fromkeys(r.preset for r in self.rule_sets)]
        base = self.rule_sets[0]
        parts += [f"--set {shlex.quote(s)}" for s in base.sets]
        for r in self.rule_sets:
            extra = [s for s in r.sets if s not in base.sets]
            if extra:
                parts.append(f"--vary {shlex.quote(','.join(extra))}")
        if self.every:
            parts.append(f"--every {self.every}")
        if self.policies != "random":
            parts.append(f"--policy {shlex.quote(self.policies)}")
        parts.append(f"--games {self.games} --seed {self.seed}")
        return " ".join(parts)


_STUDY_KEYS = {
    "name", "seed", "games", "every", "policies", "rule_set", "race_check", "race_games",
}  # fmt: skip


def _rule_sets(path: Path, items: Any, key: str) -> tuple[RuleSet, ...]:
    out = []
    for item in items:
        if not isinstance(item, dict) or "preset" not in item:
            raise UnfoldError(f"study file {path}: every [[{key}]] needs a preset")
        out.append(RuleSet(str(item["preset"]), tuple(item.get("set", ())), item.get("name", "")))
    return tuple(out)


def load_unfold(path: str | Path) -> UnfoldStudy:
    """A study from its TOML file: seed and sizes on top, `[[rule_set]]` and `[[race_check]]`."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UnfoldError(f"study file {str(path)!r} cannot be read: {exc}") from None
    unknown = set(data) - _STUDY_KEYS
    if unknown:
        raise UnfoldError(
            f"study file {path}: unknown keys {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(_STUDY_KEYS))}"
        )
    if "seed" not in data:
        raise UnfoldError(f"study file {path}: needs a seed (a non-negative integer)")
    sizes = {k: data[k] for k in ("games", "every", "race_games", "policies", "name") if k in data}
    return UnfoldStudy(
        _rule_sets(path, data.get("rule_set", []), "rule_set"),
        int(data["seed"]),
        race_check=_rule_sets(path, data.get("race_check", []), "race_check"),
        source=str(path),
        **sizes,
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
    from ludosim.simulate import play_snapshots

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
    width: int = 0,
    threads: int | None = None,
    progress: Progress | None = None,
) -> CellRun:
    """Play one rule set: its lead table (bins of `width` squares; 0: `lead_width` of its
    rules) and the flow columns of every game."""
    rules = rule_set.rules()
    leads = LeadTable(rules, width)
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
def comeback_values(games: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per measure, one value per game with a winner (shares as 0/1)."""
    won = games[games["winner"] >= 0]
    return {
        "won_from_last_at_mid": won["last_at_mid"].to_numpy(float),
        "decided_before_mid": (won["decided_at"] <= won["mid_at"]).to_numpy(float),
        "lead_changes": won["lead_changes"].to_numpy(float),
        "drama": won["drama"].to_numpy(float),
        "max_deficit": won["max_deficit"].to_numpy(float),
        "decided_share": (won["decided_at"] / won["turns"]).to_numpy(float),
    }


def _estimate(kind: str, values: np.ndarray) -> tuple[float, float, float]:
    if kind == "share":
        k, n = int(values.sum()), len(values)
        low, high = wilson_interval(k, n)
        return k / n, low, high
    return mean_ci(values)


def _diff(kind: str, a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """a minus b with its 95% interval."""
    if kind == "share":
        return diff_proportions(int(a.sum()), len(a), int(b.sum()), len(b))
    return diff_means(a, b)


def comeback_table(runs: list[CellRun]) -> pd.DataFrame:
    """`COMEBACK_COLUMNS`: every measure per rule set, and its change from the first rule set."""
    values = [comeback_values(run.games) for run in runs]
    rows = []
    for measure, (kind, _, _) in MEASURES.items():
        base = values[0][measure]
        diffs = [_diff(kind, v[measure], base) for v in values[1:]]
        p = holm([interval_p(*d) for d in diffs]) if diffs else []
        for i, run in enumerate(runs):
            est, low, high = _estimate(kind, values[i][measure])
            d = diffs[i - 1] if i else (math.nan, math.nan, math.nan)
            rows.append((run.rule_set.label, measure, est, low, high, len(values[i][measure]),
                         *d, p[i - 1] if i else math.nan))  # fmt: skip
    return pd.DataFrame(rows, columns=list(COMEBACK_COLUMNS))


def comeback_text(comebacks: pd.DataFrame) -> pd.DataFrame:
    """The comeback table as a reader sees it: estimate (CI), change (CI), Holm p, as text."""
    rows = []
    for r in comebacks.itertuples():
        change = (
            "" if math.isnan(r.diff) else _diff_text(r.measure, r.diff, r.diff_low, r.diff_high)
        )
        p = "" if math.isnan(r.p_holm) else ("< 0.001" if r.p_holm < 0.001 else f"{r.p_holm:.3f}")
        rows.append((MEASURES[r.measure][1], r.rule_set,
                     _measure_text(r.measure, r.estimate, r.ci_low, r.ci_high), f"{r.games:,}",
                     change, p))  # fmt: skip
    columns = ["measure", "rule set", "estimate (95% CI)", "games", "change (95% CI)", "Holm p"]
    return pd.DataFrame(rows, columns=columns)


def lead_change_table(runs: list[CellRun]) -> pd.DataFrame:
    """Per rule set and number of lead changes (the last value: that many or more): games, share."""
    rows = []
    for run in runs:
        changes = np.minimum(run.games["lead_changes"].to_numpy(), CHANGES_CAP)
        counts = np.bincount(changes, minlength=CHANGES_CAP + 1)
        for k, c in enumerate(counts):
            rows.append((run.rule_set.label, k, int(c), c / counts.sum()))
    return pd.DataFrame(rows, columns=["rule_set", "lead_changes", "games", "share"])


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
    games with a winner, snapshot interval, lead bin width, games cut at the snapshot cap."""

    study: UnfoldStudy
    leads: pd.DataFrame
    comebacks: pd.DataFrame
    changes: pd.DataFrame
    race: pd.DataFrame
    runs: pd.DataFrame

    def run(self, label: str) -> pd.Series:
        return self.runs.set_index("rule_set").loc[label]


def unfold_study(
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
    # One bin width for the study, the first rule set's, so its tables line up.
    width = lead_width(study.rule_sets[0].rules())
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        runs.append(play_cell(rule_set, study.games, study.seed, study.every_for(rules),
                              study.policies, width=width, threads=threads,
                              progress=part(done)))  # fmt: skip
        done += study.games
    race = pd.concat(checks, ignore_index=True) if checks else pd.DataFrame()
    return UnfoldTables(
        study,
        lead_tables(runs),
        comeback_table(runs),
        lead_change_table(runs),
        race,
        pd.DataFrame(
            [(r.rule_set.label, r.leads.played, r.leads.decided, r.every, r.leads.width,
              r.leads.cut) for r in runs],
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
def _pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f}%"


def _ci(low: float, high: float, digits: int = 0, scale: float = 100.0) -> str:
    return f"{scale * low:.{digits}f}-{scale * high:.{digits}f}"


def quoted_bin(table: pd.DataFrame, race: int) -> pd.Series | None:
    """The mid-game row of `table` (one rule set) whose lead bin holds `QUOTED_LEAD` of a race."""
    lead = round(QUOTED_LEAD * race)
    rows = table[(table["phase"] == "mid") & (table["lead_from"] <= lead)]
    rows = rows[(rows["lead_to"] > lead) | (rows["lead_to"] < 0)]
    return None if rows.empty else rows.iloc[0]


def favourite_lead(table: pd.DataFrame, phase: str = "mid") -> int | None:
    """The smallest lead from which the leader is a 3-to-1 favourite in `phase`.

    The first bin (of those with at least `LEAST_GAMES` games) from which every
    interval lies above `FAVOURITE`.
    """
    rows = table[(table["phase"] == phase) & (table["games"] >= LEAST_GAMES)]
    above = (rows["ci_low"] > FAVOURITE).to_numpy()
    if not above.any():
        return None
    # The first bin after the last one that is not above.
    last_not = np.nonzero(~above)[0]
    first = 0 if not len(last_not) else int(last_not[-1]) + 1
    return None if first >= len(rows) else int(rows["lead_from"].iloc[first])


def findings(tables: UnfoldTables) -> list[Any]:
    from ludosim.findings import Finding

    out: list[Finding] = []
    order = [r.label for r in tables.study.rule_sets]
    quoted = []
    for label, rule_set in zip(order, tables.study.rule_sets, strict=True):
        rules = rule_set.rules()
        table = tables.leads[tables.leads["rule_set"] == label]
        row = quoted_bin(table, race_length(rules))
        fav = favourite_lead(table)
        parts = []
        if row is not None:
            quoted.append((label, row))
            parts.append(
                f"Under {label}, a mid-game lead of {lead_text(row.lead_from, row.lead_to)} "
                f"squares wins {_pct(row.win_chance, 1)} of the time (95% CI "
                f"{_ci(row.ci_low, row.ci_high, 1)}%, {row.games:,} games)"
            )
        if fav is not None:
            parts.append(f"from a lead of {fav} squares at mid-game the leader is a 3-to-1 "
                         "favourite (the interval above 75%)")  # fmt: skip
        if parts:
            out.append(Finding("leads", "; ".join(parts) + ".", True))
    if len(quoted) > 1:
        best = max(quoted, key=lambda q: q[1].win_chance)
        worst = min(quoted, key=lambda q: q[1].win_chance)
        apart = best[1].ci_low > worst[1].ci_high
        text = (
            f"A mid-game lead of about a sixth of the race counts most under {best[0]} "
            f"({_pct(best[1].win_chance, 1)}, {_ci(best[1].ci_low, best[1].ci_high, 1)}%) and "
            f"least under {worst[0]} ({_pct(worst[1].win_chance, 1)}, "
            f"{_ci(worst[1].ci_low, worst[1].ci_high, 1)}%)"
        )
        text += "." if apart else "; the two intervals overlap, so the order is not resolved."
        out.insert(0, Finding("leads", text, apart, headline=True))
    out += _comeback_findings(tables.comebacks, order)
    out += _race_findings(tables.race)
    return out


def _measure_text(measure: str, est: float, low: float, high: float) -> str:
    _, _, unit = MEASURES[measure]
    if unit == "%":
        return f"{_pct(est, 1)} ({_ci(low, high, 1)}%)"
    return f"{est:.2f} ({low:.2f}-{high:.2f})"


def _diff_text(measure: str, d: float, low: float, high: float) -> str:
    _, _, unit = MEASURES[measure]
    if unit == "%":
        return f"{100 * d:+.1f} pp ({100 * low:+.1f} to {100 * high:+.1f})"
    return f"{d:+.2f} ({low:+.2f} to {high:+.2f})"


def _short(label: str, base: str) -> str:
    """A rule set's label without the base rule set's, where it only adds toggles to it."""
    return label.removeprefix(base + " ") if label.startswith(base + " ") else label


def _changes(rows: pd.DataFrame, measure: str, order: list[str]) -> tuple[str, list[str]]:
    """The rule sets that raise and that lower `measure` (Holm-resolved, largest change
    first) as text, and those whose change is not resolved."""
    base = order[0]
    resolved = [r for r in order[1:] if rows.at[r, "p_holm"] < ALPHA]
    open_ = [r for r in order[1:] if r not in resolved]
    texts = []
    for sign, word in ((1, "higher"), (-1, "lower")):
        moved = [r for r in resolved if sign * rows.at[r, "diff"] > 0]
        moved.sort(key=lambda r: -abs(rows.at[r, "diff"]))
        if moved:
            listed = ", ".join(
                f"{_short(r, base)} "
                f"({_diff_text(measure, *rows.loc[r, ['diff', 'diff_low', 'diff_high']])})"
                for r in moved
            )
            texts.append(f"{word} under {listed}")
    return "; ".join(texts), [_short(r, base) for r in open_]


def _comeback_findings(comebacks: pd.DataFrame, order: list[str]) -> list[Any]:
    from ludosim.findings import Finding

    out = []
    base = order[0]
    for measure in MEASURES:
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        _, what, _ = MEASURES[measure]
        b = rows.loc[base]
        text = (
            f"{what[0].upper()}{what[1:]}: "
            f"{_measure_text(measure, b.estimate, b.ci_low, b.ci_high)} under {base}"
        )
        if len(order) > 1:
            changed, open_ = _changes(rows, measure, order)
            if changed:
                text += f"; {changed}"
            if open_:
                text += f"; no change resolved under {', '.join(open_)}"
        headline = measure == "won_from_last_at_mid"
        if headline:
            text = text.replace(
                f"{what[0].upper()}{what[1:]}: ",
                "Comebacks from last place (games won by a seat that was last at mid-game): ",
            )
            text += f" ({int(b.games):,} games per rule set, Holm over the rule sets)"
        out.append(Finding("comebacks", text + ".", True, headline=headline))
    return out


def _race_findings(race: pd.DataFrame) -> list[Any]:
    from ludosim.findings import Finding

    out = []
    if race.empty:
        return out
    for label, rows in race.groupby("rule_set", sort=False):
        total = rows[rows["lead_to"] < 0].iloc[0]
        ok = agrees(rows)
        out.append(Finding("exact", (
            f"{label}: from the first position with a piece in its home column, the leader won "
            f"{int(total.leader_wins):,} of {int(total.games):,} games "
            f"({_pct(total.simulated, 2)}); "
            f"the exact solver expects {total.expected_wins:,.1f} ({_pct(total.exact, 2)}), "
            f"{total.z:+.2f} standard deviations away: "
            + ("they agree (within 1.96)." if ok else "they DISAGREE (beyond 1.96).")
        ), ok, headline=True))  # fmt: skip
    return out


# ------------------------------------------------------------------ the page
def unfold_page(tables: UnfoldTables, out: str | Path, title: str | None = None) -> Path:
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
    order = [r.label for r in study.rule_sets]
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

    curves = figures.win_chance_curves(tables.leads, order, least=LEAST_GAMES)
    lead_fig = page_figure(folder, curves, "win_chance.png",
        "The leader's win chance by lead and phase",
        "Share of games the leader went on to win, by its lead over the best other seat "
        "(squares of total progress, binned) in each phase (early: the leader has run less "
        "than a third of its race, mid: up to two thirds, late: more); bands: Wilson 95% CIs; "
        f"bins with at least {LEAST_GAMES} games. Each game counts once per bin (its first "
        f"snapshot there). {simulated}")  # fmt: skip
    shown = tables.leads.assign(lead=[lead_text(a, b) for a, b in
                                      zip(tables.leads["lead_from"], tables.leads["lead_to"],
                                          strict=True)])  # fmt: skip
    shown = shown[(shown["phase"] == "mid") & (shown["games"] >= LEAST_GAMES)]
    mid = shown.pivot_table(index="lead", columns="rule_set", values="win_chance", sort=False)
    mid = mid[[c for c in order if c in mid.columns]]
    mid = mid.map(lambda v: "" if pd.isna(v) else f"{100 * v:.0f}%")
    mid.columns.name = None
    mid.index.name = "lead (squares)"
    sections.append(PageSection(
        "Win chance from a lead", figures=[lead_fig],
        tables=[PageTable("Mid-game win chance by lead", LEADS_FILE,
                          html_table(mid.reset_index()),
                          "The leader's win chance at mid-game per lead bin (squares) and rule "
                          f"set, bins of at least {LEAST_GAMES} games; {LEADS_FILE} has every "
                          "phase and bin with its games and Wilson 95% interval.")],
    ))  # fmt: skip

    comebacks = tables.comebacks
    wide = pd.DataFrame(index=order)
    panels = []
    for measure in ("won_from_last_at_mid", "decided_before_mid", "lead_changes", "drama"):
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        scale = 100.0 if MEASURES[measure][2] == "%" else 1.0
        for col in ("estimate", "ci_low", "ci_high"):
            wide[f"{measure}_{col}"] = rows.loc[order, col].to_numpy(float) * scale
        ref = float(rows.loc[order[0], "estimate"]) * scale
        label = {"won_from_last_at_mid": "won from last at mid (%)",
                 "decided_before_mid": "decided before mid (%)",
                 "lead_changes": "lead changes per game",
                 "drama": "drama (squares)"}[measure]  # fmt: skip
        panels.append(Panel(f"{measure}_estimate", f"{measure}_ci_low", f"{measure}_ci_high",
                            label, reference=ref))  # fmt: skip
    forest = page_figure(folder, figures.forest(wide, order, panels), "comebacks.png",
        "Comebacks per rule set",
        f"Each measure with its 95% CI; dashed: the first rule set ({order[0]}). "
        "Won from last at mid: the winner had the least total when a seat first had run half "
        "its race. Decided before mid: the winner led for good from before that boundary. "
        f"{simulated}")  # fmt: skip
    changes = figures.share_lines(tables.changes, "rule_set", "lead_changes", "share", order,
                                  xlabel=f"lead changes in a game ({CHANGES_CAP}: that many "
                                  "or more)", ylabel="share of games")  # fmt: skip
    changes_fig = page_figure(folder, changes, "lead_changes.png",
        "How often the lead changes hands",
        f"Share of games with each number of lead changes. {simulated}")  # fmt: skip
    sections.append(PageSection(
        "Comebacks", figures=[forest, changes_fig],
        tables=[PageTable("Comeback measures", COMEBACKS_FILE, html_table(comeback_text(comebacks)),
                          "Per rule set and measure: estimate and 95% interval (Wilson for "
                          f"shares, normal for means), and the change from {order[0]} with its "
                          "interval and Holm-corrected p over the rule sets. Lead changes per "
                          f"game: {CHANGES_FILE}.")],
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
        + f". Definitions: docs/flow.md. Reproduce with: {command}"
    )
    page = folder / "index.html"
    html = render_page(title or f"ludosim: the game as it unfolds ({study.name})", intro, command,
                       group_findings(findings(tables), TITLES), sections)  # fmt: skip
    page.write_text(html, encoding="utf-8")
    return page


def run_unfold(
    study: UnfoldStudy,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study`, write its CSV tables and its page into `out`; the page."""
    tables = unfold_study(study, threads=threads, progress=progress)
    write_tables(tables, out)
    return unfold_page(tables, out)
