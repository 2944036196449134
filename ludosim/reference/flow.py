"""Game-flow counters: who led, when the game was decided, how far back the winner came.

Read at every turn boundary from the start of the game (after the roll-off)
to the turn the winner finished (docs/flow.md). A seat's *total* is its
progress plus one per piece (yard 0, goal `goal + 1`), as in the ranking.
The *leader* is the seat with the largest total; on a tie for the largest
the leader keeps the lead if it is among the tied, nobody leads while nobody
has led yet, and otherwise the first tied seat in seat order leads.
"""

from __future__ import annotations

from collections.abc import Sequence

SNAP_CAP = 256  # snapshots kept per game, as the kernel's `state.SNAP_CAP`


def seat_totals(progress: Sequence[Sequence[int]], need: int | None = None) -> list[int]:
    """Each seat's total: progress + 1 per piece (yard 0, goal goal + 1), over its `need`
    most advanced pieces (`win_pieces`: the others are no part of its race; None: all)."""
    return [sum(sorted((p + 1 for p in row), reverse=True)[:need]) for row in progress]


def next_leader(totals: Sequence[int], leader: int) -> int:
    """The leader at a boundary with these totals, `leader` the one before (-1: none yet)."""
    top = max(totals)
    tied = [s for s, t in enumerate(totals) if t == top]
    if len(tied) == 1:
        return tied[0]
    if leader in tied or leader < 0:
        return leader
    return tied[0]


class Flow:
    """The counters of one game, fed one boundary at a time (`boundary`), then `columns`.

    `full` is one seat's total when it has finished (`win_need` x (goal + 1)): mid-game is
    the first boundary at which a seat's total reaches half of it. `need` is how many of
    a seat's pieces its total counts, the most advanced (`win_need`; None: all).
    With `every` > 0 the totals of every `every`-th boundary after the start
    are kept in `snapshots` (the first `cap` of them).
    """

    def __init__(
        self, players: int, full: int, every: int = 0, cap: int = 0, need: int | None = None
    ) -> None:
        self.full = full
        self.need = need
        self.every = every
        self.cap = cap
        self.snapshots: list[tuple[int, ...]] = []
        self.mid_at = -1  # the mid-game boundary, -1 before
        self.last_at_mid = [0] * players  # 1 for the seats that were last then
        self.leader = -1
        self.lead_changes = 0
        self.boundaries = 0
        self.not_led = [-1] * players  # last boundary at which the seat did not lead
        self.deficit = [0] * players  # largest deficit, at least 0
        self.last = [0] * players  # boundaries with the least total while some seat had more
        self.behind = [0] * players  # boundaries at which another seat led
        self.behind_sum = [0] * players  # the deficits at those boundaries, summed

    def boundary(self, progress: Sequence[Sequence[int]]) -> None:
        """Count the boundary with the pieces at `progress` (boundary 0: the start)."""
        b = self.boundaries
        self.boundaries += 1
        totals = seat_totals(progress, self.need)
        leader = next_leader(totals, self.leader)
        if self.leader >= 0 and leader != self.leader:
            self.lead_changes += 1
        self.leader = leader
        if self.mid_at < 0 and 2 * max(totals) >= self.full:
            self.mid_at = b
            self.last_at_mid = [int(own == min(totals) < max(totals)) for own in totals]
        if self.every and b > 0 and b % self.every == 0 and len(self.snapshots) < self.cap:
            self.snapshots.append(tuple(totals))
        for s, own in enumerate(totals):
            others = [t for o, t in enumerate(totals) if o != s]
            deficit = max(others) - own if others else 0  # a solo race has no deficit
            self.deficit[s] = max(self.deficit[s], deficit)
            if own == min(totals) < max(totals):
                self.last[s] += 1
            if leader != s:
                self.not_led[s] = b
            if leader >= 0 and leader != s:
                self.behind[s] += 1
                self.behind_sum[s] += deficit

    def columns(self, winner: int) -> dict[str, int | float]:
        """The per-game flow columns for `winner` (-1 everywhere but lead_changes without one)."""
        if winner < 0:
            return {
                "lead_changes": self.lead_changes,
                "decided_at": -1,
                "max_deficit": -1,
                "turns_last": -1,
                "turns_behind": -1,
                "drama": -1.0,
                "mid_at": -1,
                "last_at_mid": -1,
            }
        behind = self.behind[winner]
        return {
            "lead_changes": self.lead_changes,
            "decided_at": self.not_led[winner] + 1,
            "max_deficit": self.deficit[winner],
            "turns_last": self.last[winner],
            "turns_behind": behind,
            "drama": self.behind_sum[winner] / behind if behind else 0.0,
            "mid_at": self.mid_at,
            "last_at_mid": self.last_at_mid[winner],
        }
