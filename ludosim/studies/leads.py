"""Win chance from a lead: how often the seat ahead goes on to win, by lead and phase.

Read from snapshots of the seats' totals every `every` turns
(`ludosim.run.simulate.play_snapshots`; a total is progress + 1 per piece, as in
docs/flow.md). At a snapshot:

- the **leader** is the one seat with the largest total; when several share
  it nobody leads and the snapshot is not counted;
- its **lead** is its total minus the largest total of the others, in squares;
- the **phase** is how much of its race the leader has run: *early* below a
  third of `race_length` (every piece in the goal, or under `win_pieces` that
  many), *mid* from a third to two
  thirds, *late* beyond.

Leads are grouped in 24ths of the race (`BINS_PER_RACE`): bin k holds the
leads from k/24 up to (k + 1)/24 of `race_length`, the last bin everything
from 23/24 on. A bin therefore means the same share of the race on every
board (9.5 squares with four pieces on a way of 57 steps, 7.3 on maedn's way
of 44), so the tables of rule sets on different boards line up. In each (phase, lead
bin) a game counts once, with its first snapshot there, so the games behind a
cell are independent and its win chance gets a plain Wilson interval. Games
without a winner are left out.

`RaceCheck` holds the table to the exact solver where it applies: in a
two-seat one-piece game, from the first snapshot at which one piece stands in
its home column the pieces can no longer meet, and `ludosim.reference.exact.RaceOdds`
gives the leader's exact win chance from there. The simulated wins must agree
with the sum of those chances over the same snapshots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ludosim.reference.exact import RaceOdds
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.board import Board
from ludosim.rules.model import Rules

PHASES = ("early", "mid", "late")
BINS_PER_RACE = 24

LEAD_COLUMNS = (
    "phase", "lead_from", "lead_to", "share_from", "share_to", "games", "leader_wins",
    "win_chance", "ci_low", "ci_high",
)  # fmt: skip
CHECK_COLUMNS = (
    "lead_from", "lead_to", "games", "leader_wins", "simulated", "exact", "expected_wins",
    "sd", "z",
)  # fmt: skip


def race_length(rules: Rules) -> int:
    """One seat's total when it has finished: win_need x (goal + 1) (every piece in the
    goal, or under `win_pieces` that many)."""
    return rules.win_need * (Board.from_rules(rules).goal + 1)


def has_home_column(rules: Rules) -> bool:
    """Whether a lone piece has squares of its own to stand on before it finishes: not so
    under `finish_in_home`, where its home column is its goal."""
    board = Board.from_rules(rules.replace(pieces=1))
    return board.home_from > board.entry + 1


def lead_width(rules: Rules) -> int:
    """Squares per lead bin of the exact-solver check: about 1/`BINS_PER_RACE` of a race,
    at least 1."""
    return max(1, (race_length(rules) + BINS_PER_RACE // 2) // BINS_PER_RACE)


def lead_bin(lead: np.ndarray, race: int) -> np.ndarray:
    """The 24th of the race each lead (squares) falls in: floor(24 lead / race), at most 23."""
    return np.minimum(np.asarray(lead, dtype=np.int64) * BINS_PER_RACE // race, BINS_PER_RACE - 1)


def bin_squares(k: int, race: int) -> tuple[int, int]:
    """The leads (squares) of bin `k`: from its first to one past its last; -1: the last bin,
    open (every lead from 23/24 of the race on)."""
    start = math.ceil(k * race / BINS_PER_RACE)
    return start, (-1 if k == BINS_PER_RACE - 1 else math.ceil((k + 1) * race / BINS_PER_RACE))


@dataclass(frozen=True)
class Leads:
    """Per snapshot (games x snapshots): the leader, its lead, its phase, whether it counts."""

    leader: np.ndarray
    lead: np.ndarray
    phase: np.ndarray
    counted: np.ndarray  # a snapshot taken, a sole leader, a game with a winner


def read_leads(rules: Rules, winners: np.ndarray, snaps: np.ndarray) -> Leads:
    """The leader, lead and phase of every snapshot of `snaps` (int16[games, k, players])."""
    totals = snaps.astype(np.int32)
    top = totals.max(axis=2)
    leader = totals.argmax(axis=2)
    second = np.partition(totals, -2, axis=2)[:, :, -2] if totals.shape[2] > 1 else top * 0
    lead = top - second
    full = race_length(rules)
    phase = (3 * top >= full).astype(np.int8) + (3 * top >= 2 * full)
    counted = (snaps[:, :, 0] >= 0) & (lead > 0) & (np.asarray(winners)[:, None] >= 0)
    return Leads(leader, lead, phase, counted)


@dataclass
class LeadTable:
    """Games and leader wins per (phase, lead bin), added up over slices of games (`add`).

    Bins are 24ths of the rules' race (`lead_bin`)."""

    rules: Rules
    games: np.ndarray = field(init=False)
    wins: np.ndarray = field(init=False)
    played: int = 0  # games added
    decided: int = 0  # of which with a winner
    cut: int = 0  # games whose snapshots stopped at the cap

    def __post_init__(self) -> None:
        self.race = race_length(self.rules)
        self.bins = BINS_PER_RACE
        self.games = np.zeros((len(PHASES), self.bins), dtype=np.int64)
        self.wins = np.zeros((len(PHASES), self.bins), dtype=np.int64)

    def add(self, winners: np.ndarray, snaps: np.ndarray) -> None:
        """Count one slice of games: `winners` (-1: none) and their snapshots."""
        winners = np.asarray(winners)
        leads = read_leads(self.rules, winners, snaps)
        game, k = np.nonzero(leads.counted)  # in game order, then time order
        cell = leads.phase[game, k] * self.bins + lead_bin(leads.lead[game, k], self.race)
        # A game counts once per cell: its first snapshot there.
        cells = len(PHASES) * self.bins
        _, first = np.unique(game.astype(np.int64) * cells + cell, return_index=True)
        won = leads.leader[game[first], k[first]] == winners[game[first]]
        np.add.at(self.games.reshape(-1), cell[first], 1)
        np.add.at(self.wins.reshape(-1), cell[first][won], 1)
        self.played += len(winners)
        self.decided += int((winners >= 0).sum())
        self.cut += int((snaps[:, -1, 0] >= 0).sum())

    def table(self, least: int = 1) -> pd.DataFrame:
        """One row per (phase, lead bin) with at least `least` games (`LEAD_COLUMNS`): the
        bin in squares (`bin_squares`) and as shares of the race (`share_to` -1: open)."""
        rows = []
        for p, name in enumerate(PHASES):
            for b in range(self.bins):
                n = int(self.games[p, b])
                if n < least:
                    continue
                w = int(self.wins[p, b])
                low, high = wilson_interval(w, n)
                start, stop = bin_squares(b, self.race)
                share_to = -1.0 if stop < 0 else (b + 1) / self.bins
                rows.append((name, start, stop, b / self.bins, share_to, n, w, w / n, low, high))
        return pd.DataFrame(rows, columns=list(LEAD_COLUMNS))


def lead_text(lead_from: int, lead_to: int) -> str:
    """A lead bin as a reader says it: `40-49` squares, `120+` for the last."""
    return f"{lead_from}+" if lead_to < 0 else f"{lead_from}-{lead_to - 1}"


def share_text(share_from: float, share_to: float) -> str:
    """A lead bin as shares of the race: `16.7-20.8%`, `95.8%+` for the last."""
    if share_to < 0:
        return f"{100 * share_from:.1f}%+"
    return f"{100 * share_from:.1f}-{100 * share_to:.1f}%"


@dataclass
class RaceCheck:
    """Simulated against exact win chances of the leader in a two-seat one-piece race.

    Per game, the first counted snapshot at which one piece stands in its home
    column and neither has finished: the leader's exact chance from there
    (`RaceOdds`), summed per lead bin, against the leader's simulated wins.
    The seat about to move at boundary `b` is `(first + b) % 2`.
    """

    rules: Rules
    every: int
    width: int = 0
    odds: RaceOdds = field(init=False)
    rows: list[tuple[int, int, float]] = field(default_factory=list)  # lead, won, exact

    def __post_init__(self) -> None:
        if self.rules.players != 2 or self.rules.pieces != 1:
            raise ValueError(
                f"the race check needs players=2 and pieces=1, got players={self.rules.players}, "
                f"pieces={self.rules.pieces}"
            )
        if not has_home_column(self.rules):
            raise ValueError("the race check needs a home column before the goal")
        self.width = self.width or lead_width(self.rules)
        self.odds = RaceOdds(self.rules)
        board = Board.from_rules(self.rules)
        # Progress in the home column, short of finishing (`home_from`: the goal, or the
        # first goal square under finish_in_home).
        self._home = (board.entry + 1, board.home_from - 1)
        self._finished = board.home_from

    def add(self, firsts: np.ndarray, winners: np.ndarray, snaps: np.ndarray) -> None:
        """Count one slice of games: who moved first, the winners, the snapshots."""
        leads = read_leads(self.rules, winners, snaps)
        progress = snaps.astype(np.int32) - 1
        home = ((progress >= self._home[0]) & (progress <= self._home[1])).any(axis=2)
        running = (progress < self._finished).all(axis=2)  # the last boundary has a finisher
        game, k = np.nonzero(leads.counted & home & running)
        _, first = np.unique(game, return_index=True)
        for g, s in zip(game[first], k[first], strict=True):
            boundary = (s + 1) * self.every
            mover = (int(firsts[g]) + boundary) % 2
            p = self.odds.win_chance(int(progress[g, s, mover]), int(progress[g, s, 1 - mover]))
            leader = int(leads.leader[g, s])
            exact = p if leader == mover else 1.0 - p
            self.rows.append((int(leads.lead[g, s]), int(leader == winners[g]), exact))

    def table(self) -> pd.DataFrame:
        """Per lead bin and in total: games, simulated and exact win chance, z (`CHECK_COLUMNS`)."""
        if not self.rows:
            raise ValueError("the race check has no position yet: add games first")
        data = pd.DataFrame(self.rows, columns=["lead", "won", "exact"])
        data["bin"] = data["lead"] // self.width
        out = []
        groups = [(b, g) for b, g in data.groupby("bin")] + [(-1, data)]
        for b, g in groups:
            n = len(g)
            expected = float(g["exact"].sum())
            sd = float(np.sqrt((g["exact"] * (1 - g["exact"])).sum()))
            wins = int(g["won"].sum())
            z = (wins - expected) / sd if sd > 0 else 0.0
            lo, hi = (0, -1) if b < 0 else (b * self.width, (b + 1) * self.width)
            out.append((lo, hi, n, wins, wins / n, expected / n, expected, sd, z))
        return pd.DataFrame(out, columns=list(CHECK_COLUMNS))


def agrees(check: pd.DataFrame, z: float = Z95) -> bool:
    """Whether the total row's simulated wins lie within `z` sd of the exact expectation."""
    return bool(abs(float(check["z"].iloc[-1])) <= z)
