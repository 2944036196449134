"""What a command answers at the terminal: its estimates with intervals and its findings.

An `Answer` is what `simulate`, `tournament`, `whatif`, `ratings`, `compare`,
`bench` and `sweep` print: a title, an estimates table (one row per estimate,
with its 95% interval where it has one), the findings a page of the same rows
would state (`ludosim.report.findings.page_findings`, decided the same way) and
notes. The command line writes it in one of `FORMATS`:

- `table`: for people. Every number is rounded to what its interval supports
  (`ludosim.report.wording`), the headline findings follow the table.
- `json`: `Answer.to_dict()`; its `findings` are the objects of `findings.json`
  (`finding_records`), its `estimates` the table's rows, unrounded.
- `csv`: the estimates table, unrounded.

A run too small for the measure the answer is about is *exploratory*
(`ludosim.report.exploratory`): `Answer.exploratory` is set (from the page that
decided it, or by the study), its findings hold a note that starts with
`Exploratory:` and says how many games the measure would need, and the table
prints that note before the findings, which it heads as leads. The JSON has
`exploratory` (true or false) wherever the answer was judged.

Estimates tables share their column names: `measure` (what is estimated), `of`
(which position, seat, policy or rule set), `estimate`, `ci_low`, `ci_high`
(the 95% interval, empty where none applies), `unit` and `games`. Shares are in
percent, edges and differences of shares in percentage points, lengths in
rounds (player turns / players, the scale pages compare).

Turn order is numbered one way everywhere: position 0 is the seat that moved
first, `(seat - first) mod n`.

This module builds the answers of the commands whose results are rows of
games (`simulate`, `sweep`) or timings (`bench`); the studies build theirs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report import analysis
from ludosim.report.exploratory import exploratory_note
from ludosim.report.finding import Finding, PageFindings, finding_records
from ludosim.report.sweeppage.sweepfindings import page_findings
from ludosim.report.wording import digits_for, num
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import resolve_policies

FORMATS = ("table", "json", "csv")
ESTIMATE_COLUMNS = ("measure", "of", "estimate", "ci_low", "ci_high", "unit", "games")
POSITIONS_NOTE = "Turn order: position 0 is the seat that moved first, (seat - first) mod n."
TEAM_POSITIONS_NOTE = (
    "Turn order under teams: position 0 is the team of the seat that moved first, the "
    "others the teams in the turn order of their first seat after it."
)
# `play` prints board positions too (`--positions`): its ranking says "turn order" alone.
TURN_ORDER_NOTE = (
    "Turn order: 0 is the seat that moved first, 1 the next to move, and so on "
    "((seat - first) mod n)."
)


@dataclass
class Answer:
    """A command's answer: title, estimates, findings, notes (see the module docstring).

    `details` holds more JSON fields (the report command of a sweep, a
    comparison's stopping rule); `page` the full `PageFindings` when the answer
    was decided as a page; `rounded_like` the columns `rounded` writes with the
    digits of their row's estimate. `exploratory`: the run is too small for the
    measure the answer is about (`ludosim.report.exploratory`); None where the
    answer is not judged (a timing, an exact value, one game), and taken from
    `page` when not given.
    """

    command: str
    title: str
    estimates: pd.DataFrame
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    page: PageFindings | None = None
    # Columns written with the digits of their row's estimate (a rating's sigma, a fair share).
    rounded_like: tuple[str, ...] = ()
    exploratory: bool | None = None

    def __post_init__(self) -> None:
        # A page with no findings (an incomplete sweep, a summary-only one) judged nothing.
        if self.exploratory is None and self.page is not None and self.page.findings:
            self.exploratory = self.page.exploratory

    def headlines(self) -> list[Finding]:
        """The findings a reader sees first: each topic's headline, the page's notes too."""
        return [f for f in self.findings if f.headline]

    def told(self) -> list[Finding]:
        """The headlines as the table format prints them: in the terminal's words
        (`PageFindings.terminal`) where a page decided them."""
        found = self.headlines()
        return self.page.for_terminal(found) if self.page is not None else found

    def exploratory_note(self, found: Sequence[Finding] | None = None) -> str:
        """The note that says why the run is exploratory ("" when it is not), from
        `found` (by default the answer's findings)."""
        if not self.exploratory:
            return ""
        return exploratory_note(f.text for f in (self.findings if found is None else found))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: command, title, estimates (records), findings (`findings.json`'s
        objects), notes, `exploratory` where the answer was judged, and the details;
        NaN written as null."""
        records = self.estimates.astype(object).where(self.estimates.notna(), None)
        judged = {} if self.exploratory is None else {"exploratory": bool(self.exploratory)}
        return _jsonable(
            {
                "command": self.command,
                "title": self.title,
                "estimates": records.to_dict(orient="records"),
                "findings": finding_records(self.findings),
                "notes": list(self.notes),
                **judged,
                **self.details,
            }
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def to_csv(self) -> str:
        return self.estimates.to_csv(index=False)


def estimate_rows(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """An estimates table with the shared columns first, in their order."""
    table = pd.DataFrame(list(rows))
    first = [c for c in ESTIMATE_COLUMNS if c in table.columns]
    return table[first + [c for c in table.columns if c not in first]]


def rounded(table: pd.DataFrame, like: Sequence[str] = ()) -> pd.DataFrame:
    """The estimates table for people: `estimate` and `95% CI` as text, each rounded to
    what its own interval supports; signs on differences (pp); the raw bounds dropped.
    The columns `like` are written with the digits of their row's estimate."""
    if not {"estimate", "ci_low", "ci_high"} <= set(table.columns):
        return table
    values, intervals = [], []
    companions: dict[str, list[str]] = {c: [] for c in like if c in table.columns}
    for row in table.itertuples(index=False):
        x, low, high = row.estimate, row.ci_low, row.ci_high
        unit = str(getattr(row, "unit", "") or "")
        # Differences carry their sign, as do edges against a fair share (pp).
        sign = unit == "pp" or str(getattr(row, "measure", "")).startswith("difference")
        known = _finite(low) and _finite(high)
        d = digits_for(low, high) if known else _digits_alone(x)
        space = "" if unit in ("", "%") else " "
        values.append(f"{num(x, d, sign)}{space}{unit}" if _finite(x) else "-")
        intervals.append(f"{num(low, d, sign)} to {num(high, d, sign)}" if known else "-")
        for column, texts in companions.items():
            texts.append(num(getattr(row, column), d))
    out = table.drop(columns=["estimate", "ci_low", "ci_high", "unit"], errors="ignore")
    for column, texts in companions.items():
        out[column] = texts
    at = list(out.columns).index("of") + 1 if "of" in out.columns else 0
    out.insert(at, "estimate", values)
    out.insert(at + 1, "95% CI", intervals)
    return out


def _finite(x: Any) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def _digits_alone(x: Any) -> int:
    """Decimals of a number without an interval (a count, an exact value): as written."""
    if not _finite(x) or float(x) == int(float(x)):
        return 0
    return 4 if abs(float(x)) < 1 else 2


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        return float(value) if math.isfinite(float(value)) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Path):
        return str(value)
    return value


# ----------------------------------------------------------------- one cell of rows
def cells_of(
    entries: Sequence[tuple[RuleSet, str | Sequence[str]]], games: int, seed: int
) -> pd.DataFrame:
    """The cells table a sweep of these (rule set, policies) would write (`cells_frame`,
    every toggle a column), cells `c0`, `c1`, ... named by the rule sets' labels: a
    page tells its design (one cell, one-toggle changes, pairs, a tournament's
    seatings) from it alone."""
    from ludosim.results.schema import cell_row

    rows = []
    for i, (rule_set, policies) in enumerate(entries):
        rules = rule_set.rules()
        seated = resolve_policies(policies, rules.players)
        rows.append(cell_row(f"c{i}", rule_set.label, rule_set.preset, rules, seated, games, seed))
    return pd.DataFrame(rows)


def position_estimates(df: pd.DataFrame, of: str = "") -> list[dict[str, Any]]:
    """The first player's edge and every position's win share, with their intervals.

    Over games with a finisher, as pages count them (`analysis.position_rows`):
    the edge in percentage points against the fair share, Wilson intervals.
    """
    table = analysis.side_rows(df, analysis.players_of(df))
    return position_rows_estimates(table, of)


def position_rows_estimates(table: Sequence[Mapping[str, Any]], of: str = "") -> list[dict]:
    """`position_estimates` of `analysis.position_rows` (a kernel summary's too)."""
    if not table:
        return []
    first = table[0]
    rows = [
        {
            "measure": "first player's edge",
            "of": of or "position 0",
            "estimate": first["advantage_pp"],
            "ci_low": first["advantage_ci_low"],
            "ci_high": first["advantage_ci_high"],
            "unit": "pp",
            "games": first["games"],
        }
    ]
    for row in table:
        rows.append(
            {
                "measure": "win share",
                "of": f"{of + ' ' if of else ''}position {row['position']}",
                "estimate": 100 * row["win_rate"],
                "ci_low": 100 * row["ci_low"],
                "ci_high": 100 * row["ci_high"],
                "unit": "%",
                "games": row["games"],
            }
        )
    return rows


def length_estimates(df: pd.DataFrame, of: str = "") -> list[dict[str, Any]]:
    """Mean game length in rounds and in player turns, with normal 95% intervals."""
    table = analysis.game_length(df)
    out = []
    for measure, what in (("rounds", "game length"), ("turns", "player turns")):
        found = table[table["measure"] == measure]
        if found.empty:
            continue
        row = found.iloc[0]
        out.append(
            {
                "measure": what,
                "of": of,
                "estimate": float(row["mean"]),
                "ci_low": float(row["mean_ci_low"]),
                "ci_high": float(row["mean_ci_high"]),
                "unit": "rounds" if measure == "rounds" else "turns",
                "games": int(row["games"]),
            }
        )
    return out


def games_answer(
    command: str, df: pd.DataFrame, rule_set: RuleSet, policies: str | Sequence[str], seed: int
) -> Answer:
    """`simulate`'s answer: one cell's length and turn order, and its one-cell page.

    The findings are those of a report of these rows (`page_findings` on one
    cell): the game length in rounds, the first player's edge against its fair
    share, decided with the page's statistics and worded as the page words them.
    """
    name = rule_set.label
    page = page_findings(df.assign(cell="c0"), cells_of([(rule_set, policies)], len(df), seed))
    truncated = int(df["truncated"].sum()) if "truncated" in df.columns else 0
    title = f"{name}: {len(df):,} games" + (
        f", {truncated:,} stopped at max_turns" if truncated else ""
    )
    estimates = estimate_rows([*length_estimates(df), *position_estimates(df)])
    note = TEAM_POSITIONS_NOTE if rule_set.rules().teams else POSITIONS_NOTE
    return Answer(command, title, estimates, page.findings, [note], page=page)


def summary_answer(command: str, summary: Any, name: str) -> Answer:
    """`simulate --summary`'s answer, from the kernel's totals (a `Summary`).

    The same estimates as from rows (the mean length's interval from the sums of
    squares); no findings, which a page decides from per-game rows.
    """
    n, players = summary.games, summary.players
    rows = []
    for measure, what, unit, scale in (
        ("turns", "game length", "rounds", 1.0 / max(players, 1)),
        ("turns", "player turns", "turns", 1.0),
    ):
        mean, sd = summary.mean(measure) * scale, summary.std(measure) * scale
        half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
        rows.append({"measure": what, "of": "", "estimate": mean, "ci_low": mean - half,
                     "ci_high": mean + half, "unit": unit, "games": n})  # fmt: skip
    wins = [int(v) for v in summary.wins_by_position]
    finished = sum(wins)
    table = []
    for position, won in enumerate(wins):
        low, high = wilson_interval(won, finished)
        rate = won / finished if finished else math.nan
        fair = 1.0 / players
        table.append({"position": position, "games": finished, "win_rate": rate,
                      "ci_low": low, "ci_high": high, "advantage_pp": 100 * (rate - fair),
                      "advantage_ci_low": 100 * (low - fair),
                      "advantage_ci_high": 100 * (high - fair)})  # fmt: skip
    rows += position_rows_estimates(table)
    truncated = f", {summary.truncated:,} stopped at max_turns" if summary.truncated else ""
    notes = [
        POSITIONS_NOTE,
        "--summary keeps totals, not per-game rows: the estimates are exact, but a page's "
        "findings (its tests and their correction) need the rows (simulate without --summary, "
        "or --out and ludosim report).",
    ]
    return Answer(command, f"{name}: {n:,} games{truncated}", estimate_rows(rows), [], notes)


# ------------------------------------------------------------------------ sweeps
def folder_findings(path: str | Path) -> PageFindings:
    """The findings of a sweep folder, decided as `ludosim report` decides them: its
    rows and cells, the sweep's smallest effects, its precision target if it met it."""
    from ludosim.report.sweeppage.pagedesign import page_design
    from ludosim.results import load, load_cells, load_manifest, precision_status

    manifest = load_manifest(path)
    df = load(path, cells=True)
    if df.empty or "winner" not in df.columns:
        return PageFindings([])  # a summary-only sweep keeps no per-game rows
    cells = load_cells(path)
    present = {str(c) for c in df["cell"].unique()}
    cells = cells[cells["cell"].astype(str).isin(present)].reset_index(drop=True)
    design = page_design(cells)
    status = precision_status(path) if manifest.get("precision") else None
    met = status is not None and len(status) > 0 and bool(status["met"].astype(bool).all())
    return page_findings(
        analysis.without_cells(df, design.merged),
        design=design,
        smallest=(manifest.get("spec") or {}).get("smallest_effects"),
        target_met=met,
    )


def sweep_answer(result: Any, report_command: str) -> Answer:
    """`sweep`'s closing summary: cells, games, the page's headline findings, the report.

    `result` is the `SweepResult` of the run; the findings are those of the whole
    folder (`folder_findings`), as the report will state them.
    """
    cells = [
        {
            "cell": c.id,
            "name": c.name,
            "policies": ",".join(dict.fromkeys(c.policies)),
            "games": c.games,
        }
        for c in result.cells
    ]
    found = folder_findings(result.out) if result.complete else PageFindings([])
    games = sum(c["games"] for c in cells)
    notes = [result.describe()]
    if not result.complete:
        notes.append("the sweep is incomplete: rerun the same command to finish it")
    details = {"folder": str(result.out), "cells": len(cells), "games": games,
               "complete": result.complete, "report": report_command}  # fmt: skip
    title = f"sweep {result.out}: {len(cells)} cells, {games:,} games"
    return Answer("sweep", title, pd.DataFrame(cells), found.findings, notes, details, found)


def game_answer(rule_set: RuleSet, result: Any, policies: str | Sequence[str]) -> Answer:
    """`play`'s answer: the final ranking of one reference game (`analysis.ranking`),
    titled by who won and when; the transcript travels in `details`. Each seat's place in
    the turn order is its `turn order` column: `play --positions` prints board positions,
    so the ranking does not call turn order a position."""
    rules = rule_set.rules()
    names = resolve_policies(policies, rules.players)
    table = analysis.ranking(rules, result, names if len(set(names)) > 1 else None)
    table = table.rename(columns={"position": "turn order"})
    ending = "stopped at max_turns" if result.truncated else "ended"
    winner = f"seat {result.winner} won" if result.winner >= 0 else "nobody finished"
    title = (
        f"{winner} after {result.turns} turns ({result.rolls} rolls); "
        f"the game {ending} after {result.end_turns} turns"
    )
    details = {"transcript": list(result.transcript), "first": int(result.first)}
    return Answer("play", title, table, [], [TURN_ORDER_NOTE], details)


def exact_answer(result: Any, quantiles: Sequence[float] = (0.05, 0.5, 0.95, 0.99)) -> Answer:
    """`exact`'s answer for scripts: the solo race's exact moments and quantiles of turns
    and rolls (an `ExactResult`), and its turn distribution up to the cutoff."""
    rows = []
    for measure, mean, sd, quantile in (
        ("turns", result.mean_turns, result.sd_turns, result.quantile_turns),
        ("rolls", result.mean_rolls, result.sd_rolls, result.quantile_rolls),
    ):
        row = {"measure": measure, "of": f"{result.pieces} pieces", "estimate": mean,
               "ci_low": math.nan, "ci_high": math.nan, "unit": measure, "sd": sd}  # fmt: skip
        row.update({f"p{round(100 * q)}": int(quantile(q)) for q in quantiles})
        rows.append(row)
    title = f"Exact solo race: {result.label}" if result.label else "Exact solo race"
    details = {"turns_pmf": [float(x) for x in result.turns_pmf], "tail_mass": result.tail_mass}
    return Answer("exact", title, estimate_rows(rows), [], [], details)


def duel_answer(result: Any) -> Answer:
    """`exact --duel`'s answer: a duel's exact win probabilities (a `DuelResult`), the
    clairvoyant's Monte Carlo mean with its 95% interval, and the relative skill RS."""
    r = result
    nan = math.nan
    rows = [
        ("random vs random", "first mover", r.random_first, nan, nan),
        ("random vs random", "second mover", r.random_second, nan, nan),
        ("optimal vs random", "first mover", r.optimal_first, nan, nan),
        ("optimal vs random", "second mover", r.optimal_second, nan, nan),
        ("optimal vs random", "both positions", r.w_optimal, nan, nan),
        ("optimal vs optimal", "first mover", r.minimax_first, nan, nan),
        ("clairvoyant vs random", "first mover", r.clairvoyant_first, nan, nan),
        ("clairvoyant vs random", "second mover", r.clairvoyant_second, nan, nan),
        ("clairvoyant vs random", "both positions", r.w_clairvoyant, r.w_clairvoyant_low,
         r.w_clairvoyant_high),
        ("relative skill RS", "optimal over clairvoyant", r.rs, r.rs_low, r.rs_high),
    ]  # fmt: skip
    table = pd.DataFrame(
        [
            {"measure": m, "of": of, "estimate": e, "ci_low": lo, "ci_high": hi,
             "unit": "ratio" if m.startswith("relative") else "win probability",
             "games": r.sequences if m.startswith(("clair", "relative")) else 0}
            for m, of, e, lo, hi in rows
        ]
    )  # fmt: skip
    notes = [
        f"{r.pieces} piece(s) a side, {r.nodes:,} roll nodes, {r.choices:,} decisions with a "
        f"choice; value iteration to 1e-13 (last sweep {r.residual:.1e}).",
        f"Clairvoyant: {r.sequences:,} dice sequences of {r.horizon} rolls (seed {r.seed}), "
        "each solved exactly; games: the sequences behind a Monte Carlo number, 0 for exact "
        "ones. RS = (W(optimal) - 1/2) / (W(clairvoyant) - 1/2), W over both positions.",
    ]
    title = f"Exact duel: {r.label}" if r.label else "Exact duel"
    details = {"seconds": r.seconds, "sweeps": r.sweeps, "minimax_edge": r.minimax_edge}
    return Answer("exact", title, table, [], notes, details)


def traced_answer(trace: pd.DataFrame, game: int, seed: int) -> Answer:
    """`exact --duel --show-game`'s answer: one game of the optimal player (role 0) against
    a random one, roll by roll (`ludosim.reference.duelgames.play_traced`), with each
    roll's luck and each move's cost for the player who rolled, in points of its win
    probability under best play by both."""
    mover = np.where(trace["mover"] == 0, "optimal", "random")
    sign = np.where(trace["mover"] == 0, 1.0, -1.0)  # luck is stored as role 0's
    table = pd.DataFrame({
        "roll": np.arange(1, len(trace) + 1), "mover": mover,
        "pieces": trace["mover_side"], "other": trace["other_side"], "face": trace["face"],
        "options": trace["options"], "chose": trace["chosen"] + 1,
        "win_before_pct": 100 * np.where(sign > 0, trace["before"], 1 - trace["before"]),
        "luck_pp": 100 * sign * trace["luck"], "cost_pp": 100 * trace["cost"],
    })  # fmt: skip
    notes = [
        f"Game {game} of seed {seed}: role 0 plays the optimal policy, role 1 random; role "
        f"{game % 2} moves first. Pieces: progress per piece (-1 in the yard). Values are "
        "win probabilities under best play by both; luck_pp: the roller's value once the "
        "die shows minus before; cost_pp: its best option's value minus its chosen one's.",
        "Over the game, exactly: result - start value = the optimal player's luck - its "
        "cost + the random player's cost.",
    ]
    return Answer("exact", f"Duel game {game}, roll by roll", table, [], notes)


def plan_answer(table: pd.DataFrame, title: str, notes: Sequence[str] = ()) -> Answer:
    """`sweep --dry-run`'s answer: the cells it would play."""
    return Answer("sweep", title, table.reset_index(drop=True), [], list(notes))


def bench_answer(table: pd.DataFrame, columns: Mapping[str, str]) -> Answer:
    """`bench`'s answer: one row per timing, and what each column means."""
    notes = [f"{c}: {columns[c]}" for c in table.columns if c in columns]
    return Answer("bench", "Benchmark (games/s)", table.reset_index(drop=True), [], notes)


__all__ = [
    "ESTIMATE_COLUMNS",
    "FORMATS",
    "POSITIONS_NOTE",
    "TURN_ORDER_NOTE",
    "Answer",
    "bench_answer",
    "cells_of",
    "duel_answer",
    "estimate_rows",
    "exact_answer",
    "folder_findings",
    "game_answer",
    "games_answer",
    "length_estimates",
    "plan_answer",
    "position_estimates",
    "rounded",
    "summary_answer",
    "sweep_answer",
]
