"""Board geometry, computed once from the rules (docs/rules.md section 1).

Positions are kept as *progress* relative to the piece's owner:

    YARD (-1)                     in the yard
    0 .. entry                    on the shared track, 0 = own start square
    entry+1 .. entry+home_len     own home column
    GOAL = entry+home_len+1       finished
    GOAL+1 .. GOAL+tail           `home_unlock`: a locked piece lapping on, on the
                                  track squares between its entry and its start square

A piece of a seat whose home column is still locked (`home_unlock = capture`)
goes on past its entry: its *travelled* progress runs entry+1, entry+2, ...,
and from `track_len` on it is a new lap, progress 0 again. The squares of the
first kind (only where `entry` stops short of the lap's last square) have the
codes after the goal, so every square a piece can stand on has one code.

The board is data: `arm_length` squares per arm on `sides` arms, each seat's
start square at offset `start_offset` of its arm, special squares as offsets
inside every arm. Because every seat starts at the same offset of its own arm,
whether track progress `p` is a star or globe does not depend on the seat: it
is `(p + start_offset) % arm_length in offsets` (`arm_offset`). Only the
absolute square (needed to find who else stands there) depends on the seat:
`(arm_length * arm + start_offset + p) % track_len`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ludosim.rules.model import Rules

YARD = -1


def default_seating(players: int, sides: int) -> tuple[int, ...]:
    """Arms of the seats: player i of n sits on arm floor(i * sides / n)."""
    return tuple((i * sides) // players for i in range(players))


@dataclass(frozen=True)
class Board:
    """Geometry of one rule set: seating, track, special squares, home columns."""

    sides: int
    players: int
    arms: tuple[int, ...]
    track_len: int
    entry: int
    home_len: int
    goal: int
    home_from: int  # least progress of a piece that counts as home (`Rules.home_from`)
    win_need: int  # pieces at home_from or beyond that finish a seat (`Rules.win_need`)
    arm_length: int
    start_offset: int
    globe_offsets: tuple[int, ...]
    star_offsets: tuple[int, ...]
    safe_square: np.ndarray  # bool[track_len]: a lone piece here cannot be captured
    start_owner: np.ndarray  # int[track_len]: seat whose start square this is, else -1
    squares: tuple[tuple[int, ...], ...]  # [seat][progress + 1]: absolute square or -1
    tail: int = 0  # lap squares after `entry` a locked piece stands on (`home_unlock`)

    @classmethod
    def from_rules(cls, rules: Rules) -> Board:
        """Compute the board of `rules`."""
        arms = rules.seating or default_seating(rules.players, rules.sides)
        track_len = rules.track_len
        arm_len = rules.arm_length
        offsets = np.arange(track_len) % arm_len  # of every absolute square inside its arm
        safe = np.zeros(track_len, dtype=bool)
        if "starts" in rules.safe:
            safe |= offsets == rules.start_offset
        if "globes" in rules.safe:
            safe |= np.isin(offsets, rules.globe_offsets)
        if "stars" in rules.safe:
            safe |= np.isin(offsets, rules.star_offsets)
        owner = np.full(track_len, -1, dtype=np.int64)
        for seat, arm in enumerate(arms):
            owner[arm_len * arm + rules.start_offset] = seat
        goal = rules.goal
        tail = rules.tail

        def travelled(p: int) -> int:
            return p if p <= goal else rules.entry + p - goal

        squares = tuple(
            tuple(
                (arm_len * arm + rules.start_offset + travelled(p)) % track_len
                if 0 <= p <= rules.entry or p > goal
                else -1
                for p in range(-1, goal + tail + 1)
            )
            for arm in arms
        )
        safe.setflags(write=False)
        owner.setflags(write=False)
        return cls(
            sides=rules.sides,
            players=rules.players,
            arms=tuple(arms),
            track_len=track_len,
            entry=rules.entry,
            home_len=rules.home_len,
            goal=rules.goal,
            home_from=rules.home_from,
            win_need=rules.win_need,
            arm_length=arm_len,
            start_offset=rules.start_offset,
            globe_offsets=rules.globe_offsets,
            star_offsets=rules.star_offsets,
            safe_square=safe,
            start_owner=owner,
            squares=squares,
            tail=tail,
        )

    # ------------------------------------------------------------ where is it
    def on_track(self, progress: int) -> bool:
        """True when progress is a shared-track square (not yard, home column or goal)."""
        return 0 <= progress <= self.entry or self.goal < progress <= self.goal + self.tail

    def travelled(self, progress: int) -> int:
        """Squares from the start square to a piece on the board (a lapping piece's
        code after the goal counts from its start square, as entry + 1, ...)."""
        return progress if progress <= self.goal else self.entry + progress - self.goal

    def lap_code(self, travelled: int) -> int:
        """The progress code of the square `travelled` squares from the start square for
        a piece that does not turn into its home column: past the entry the lap goes on
        (codes after the goal), from `track_len` on a new lap begins at the start square."""
        if travelled <= self.entry:
            return travelled
        if travelled < self.track_len:
            return self.goal + travelled - self.entry
        return travelled - self.track_len

    def in_home_column(self, progress: int) -> bool:
        """True for the owner's home column squares (goal excluded)."""
        return self.entry < progress < self.goal

    def square(self, seat: int, progress: int) -> int:
        """Absolute track square of a piece, or -1 when it is not on the shared track."""
        return self.squares[seat][progress + 1]

    def start_square(self, seat: int) -> int:
        """Absolute square where `seat` enters its pieces."""
        return self.arm_length * self.arms[seat] + self.start_offset

    def arm_offset(self, progress: int) -> int:
        """Offset inside its arm of the square at track progress `progress` (any seat)."""
        return (progress + self.start_offset) % self.arm_length

    # ---------------------------------------------------------- special squares
    def is_star(self, progress: int) -> bool:
        """Track progress `progress` is a star square."""
        return (
            self.on_track(progress)
            and self.arm_offset(self.travelled(progress)) in self.star_offsets
        )

    def is_globe(self, progress: int) -> bool:
        """Track progress `progress` is a globe square."""
        return (
            self.on_track(progress)
            and self.arm_offset(self.travelled(progress)) in self.globe_offsets
        )

    def is_safe(self, square: int) -> bool:
        """A lone piece on absolute square `square` cannot be captured."""
        return bool(self.safe_square[square])

    def star_after(self, progress: int) -> int:
        """Progress of the first star strictly ahead (may lie beyond `entry`)."""
        q = progress + 1
        while self.arm_offset(q) not in self.star_offsets:
            q += 1
        return q

    def star_before(self, progress: int) -> int:
        """Progress of the first star strictly behind (may be negative)."""
        q = progress - 1
        while self.arm_offset(q) not in self.star_offsets:
            q -= 1
        return q

    def globe_after(self, progress: int) -> int | None:
        """Progress of the next globe ahead on the track; None if none before the home column."""
        for q in range(progress + 1, self.entry + 1):
            if self.arm_offset(q) in self.globe_offsets:
                return q
        return None

    def star_die_target(self, progress: int) -> int | None:
        """Where a star roll takes a track piece: the nearest star ahead with no globe between.

        None when that star lies beyond `entry` or a globe lies strictly between
        ("Du må ikke passere et globusfelt i den flytning", seed 002).
        """
        for q in range(progress + 1, self.entry + 1):
            if self.arm_offset(q) in self.star_offsets:
                return q
            if self.arm_offset(q) in self.globe_offsets:
                return None
        return None

    # ------------------------------------------- a piece that does not turn in
    # Under `home_unlock` a locked or lapping piece goes on round the track past
    # its entry: its special moves look for their targets in lap terms (squares
    # travelled from its start square), whatever lies beyond the entry.
    def lap_globe_steps(self, progress: int) -> int | None:
        """Squares to the next globe ahead of a piece going on past its entry, or None
        on a board without globes."""
        done = self.travelled(progress)
        for d in range(1, self.track_len + 1):
            if self.arm_offset(done + d) in self.globe_offsets:
                return d
        return None

    def lap_star_steps(self, progress: int) -> int | None:
        """Squares to the nearest star ahead of a piece going on past its entry, or None
        when a globe lies strictly between (as `star_die_target`) or there are no stars."""
        done = self.travelled(progress)
        for d in range(1, self.track_len + 1):
            if self.arm_offset(done + d) in self.star_offsets:
                return d
            if self.arm_offset(done + d) in self.globe_offsets:
                return None
        return None

    def lap_star_jump(self, progress: int) -> int:
        """Where a star jump forwards takes a piece going on past its entry: the next star
        ahead in lap terms (past the entry, and into a new lap past the start square)."""
        return self.lap_code(self.star_after(self.travelled(progress)))

    def wrap_backwards(self, progress: int) -> int | None:
        """Track progress of a square reached by walking backwards below the own start square.

        Behind progress 0 lie the last squares of the lap (progress + track_len),
        which exist as track progress only when `entry` reaches them (Killer's
        entry = track_len). On boards whose last squares are never visited the
        backward walk cannot go behind the start square: None.
        """
        wrapped = progress + self.track_len
        return wrapped if wrapped <= self.entry else None
