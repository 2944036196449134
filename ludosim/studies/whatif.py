"""From here, who wins? Many games played on from one position (docs/positions.md).

`whatif` parses the position (`ludosim.run.notation`), plays `games` games on
from it with the compiled kernel (`simulate(start=...)`, the seat to move
taking the first turn) and counts each seat's wins, with Wilson 95%
intervals, and the finishing orders (seats by place, `place_<s>`).
`WhatIf.answer` is what `ludosim whatif` prints: the win chances in percent,
rounded to what their intervals support. A run with fewer games than telling
each seat's win chance from a change of the win share's smallest effect of
interest needs (`games_needed`) is exploratory and says so
(`ludosim.report.exploratory`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.report.answers import Answer, estimate_rows
from ludosim.report.contrasts import POWER
from ludosim.report.exploratory import exploratory_text, games_needed, is_exploratory
from ludosim.report.finding import Finding
from ludosim.results.measures import WIN
from ludosim.results.stats import wilson_interval
from ludosim.rules.model import Rules
from ludosim.run.notation import GamePosition, format_position, parse_position
from ludosim.run.simulate import Progress, simulate


@dataclass(frozen=True)
class WhatIf:
    """The outcome of the games played on from one position."""

    position: str  # the position, in the notation (as `format_position` writes it)
    games: int
    wins: tuple[int, ...]  # games each seat won
    no_winner: int  # games cut off by max_turns before any seat finished
    order: tuple[int, ...]  # the most frequent finishing order: seats from 1st place on
    order_games: int  # games that ended in that order

    def win_chance(self, seat: int) -> tuple[float, float, float]:
        """(share of games `seat` won, Wilson 95% interval low, high)."""
        low, high = wilson_interval(self.wins[seat], self.games)
        return self.wins[seat] / self.games, low, high

    @property
    def order_share(self) -> float:
        """Share of the games that ended in the most frequent finishing order."""
        return self.order_games / self.games

    def games_needed(self) -> int | None:
        """About how many games tell every seat's win chance from a change of the win
        share's smallest effect of interest (`WIN.smallest` pp) with `POWER`, over the
        seats as one family; None when no seat's chance varies (the game is decided).

        The seat whose chance is nearest one half has the widest spread, so it sizes
        the run: the others are then told apart too.
        """
        spread = max(100 * math.sqrt(p * (1 - p)) for p in (w / self.games for w in self.wins))
        return games_needed(spread, WIN.smallest, len(self.wins))

    def exploratory_finding(self) -> Finding | None:
        """The note of a run too small for its win chances (None when it is not)."""
        needed = self.games_needed()
        if not is_exploratory(needed, self.games) or needed is None:
            return None
        seats = len(self.wins)
        what = (
            f"telling each seat's win chance from a change of {WIN.smallest:g} pp (the "
            f"smallest effect of interest in a win share) with {round(100 * POWER)}% power "
            f"over the {seats} seats"
        )
        text = exploratory_text(self.games, needed, what, read="the win chances")
        return Finding("about", text, True, needed, True, "note", games=self.games)

    def table(self) -> pd.DataFrame:
        """One row per seat: wins, win chance and its 95% interval."""
        rows = []
        for seat in range(len(self.wins)):
            chance, low, high = self.win_chance(seat)
            rows.append(
                {
                    "seat": seat,
                    "wins": self.wins[seat],
                    "win_chance": chance,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
        return pd.DataFrame(rows)

    def answer(self, label: str, to_move: int) -> Answer:
        """Each seat's win chance (%, Wilson 95% interval), then the most likely finishing
        order with its share of the games; `label` names the rules, `to_move` the seat
        that moves first from the position."""
        rows = []
        for seat in range(len(self.wins)):
            chance, low, high = self.win_chance(seat)
            rows.append({"measure": "win chance", "of": f"seat {seat}", "estimate": 100 * chance,
                         "ci_low": 100 * low, "ci_high": 100 * high, "unit": "%",
                         "games": self.games, "count": self.wins[seat]})  # fmt: skip
        low, high = wilson_interval(self.order_games, self.games)
        order = " > ".join(f"seat {s}" for s in self.order)
        rows.append({"measure": "most likely finishing order", "of": order,
                     "estimate": 100 * self.order_share, "ci_low": 100 * low,
                     "ci_high": 100 * high, "unit": "%", "games": self.games,
                     "count": self.order_games})  # fmt: skip
        title = f"{label}: {self.games:,} games from {self.position} (seat {to_move} to move)"
        notes = []
        if self.no_winner:
            notes.append(f"{self.no_winner:,} games reached max_turns with no winner")
        details = {"position": self.position, "to_move": to_move, "order": list(self.order)}
        note = self.exploratory_finding()
        found = [note] if note is not None else []
        return Answer("whatif", title, estimate_rows(rows), found, notes, details,
                      exploratory=note is not None)  # fmt: skip


def finishing_orders(df: pd.DataFrame, players: int) -> Counter[tuple[int, ...]]:
    """How many games ended in each finishing order (seats from 1st place on)."""
    places = df[[f"place_{s}" for s in range(players)]].to_numpy()
    # Seat in place k is the argsort of the places; places are 1..players, all distinct.
    orders = np.argsort(places, axis=1, kind="stable")
    return Counter(tuple(int(s) for s in row) for row in orders)


def whatif(
    rules: Rules,
    position: str | GamePosition,
    games: int,
    seed: int,
    policies: str | Sequence[str] = "random",
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> WhatIf:
    """Play `games` games on from `position` (notation text or a `GamePosition`) and count.

    Game `g` is game `g` of `simulate(rules, games, seed, policies, start=position)`,
    so the counts are those of that call's rows. The most frequent finishing
    order breaks ties by the order first seen in game order.
    """
    parsed = parse_position(position, rules) if isinstance(position, str) else position
    df = simulate(rules, games, seed, policies, start=parsed, threads=threads, progress=progress)
    winners = df["winner"].to_numpy()
    wins = tuple(int((winners == s).sum()) for s in range(rules.players))
    order, count = finishing_orders(df, rules.players).most_common(1)[0]
    return WhatIf(
        position=format_position(rules, parsed.progress, parsed.to_move),
        games=len(df),
        wins=wins,
        no_winner=int((winners < 0).sum()),
        order=order,
        order_games=count,
    )
