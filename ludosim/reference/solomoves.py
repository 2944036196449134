"""One player alone on the board: the moves of its pieces under the rules, and the solo
states the exact solver's chain is built over.

Generated here, not by the engines, so that the solver is an independent check of
them: with no opponent every landing simply lands, and what remains is walking,
passing own pieces, the start square's capacity, star jumps, finishing and the
reversed flags of `bounce_on`.
"""

from __future__ import annotations

from collections import defaultdict

from ludosim.reference.moves import face_bonus
from ludosim.rules.model import GLOBE, STAR, Rules

YARD = -1

Piece = tuple[int, bool]  # (progress, reversed) during a turn
Pos = tuple[Piece, ...]  # sorted: pieces are interchangeable
State = tuple[int, ...]  # sorted progress values at the start of a turn


class _SoloGame:
    """The moves and turns of one player alone on the board.

    Mirrors `ludosim.reference.moves` for a single seat: with no opponent on
    the board every landing simply lands (no capture, no block, no lander sent
    home), so what remains is walking, passing own pieces, the start square's
    capacity, star jumps, finishing and the reversed flags of `bounce_on`.
    Squares are compared as absolute squares, not progress: under Killer's
    `entry = track_len` progress 0 and progress `track_len` are the same
    square (the own start square).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.track_len = rules.track_len
        self.entry = rules.entry
        self.goal = rules.goal
        self.home_from = rules.home_from
        self.win_need = rules.win_need
        self.arm_length = rules.arm_length
        self.start_offset = rules.start_offset
        self.globes = frozenset(rules.globe_offsets)
        self.stars = frozenset(rules.star_offsets)
        self.entering = frozenset(rules.entering_faces)
        self._moves: dict[tuple[Pos, int | str], list[tuple[Pos, bool, bool]]] = {}

    # --------------------------------------------------------------- squares
    def square(self, p: int) -> int:
        """Absolute square of own progress `p` (seat 0 sits on arm 0), -1 off the track."""
        return (self.start_offset + p) % self.track_len if 0 <= p <= self.entry else -1

    def arm_offset(self, p: int) -> int:
        """Offset inside its arm of the square at progress `p` (as `Board.arm_offset`)."""
        return (p + self.start_offset) % self.arm_length

    def is_star(self, p: int) -> bool:
        return 0 <= p <= self.entry and self.arm_offset(p) in self.stars

    def _step_back(self, p: int) -> int | None:
        if p - 1 >= 0:
            return p - 1
        wrapped = p - 1 + self.track_len  # behind the start square: end of the lap, if track
        return wrapped if wrapped <= self.entry else None

    def _walk_back(self, p: int, steps: int, walk: list[int]) -> None:
        for _ in range(steps):
            q = self._step_back(p)
            if q is None:  # the walk stops at the start square (boards with entry < track_len)
                return
            p = q
            walk.append(p)

    def _star_jump(self, p: int, backwards: bool) -> int | None:
        if backwards:
            q = p - 1
            while self.arm_offset(q) not in self.stars:
                q -= 1
            if q >= 0:
                return q
            # Behind the start square only where a backward walk could go too.
            if self._step_back(0) is None:
                return None
            wrapped = q + self.track_len
            return wrapped if wrapped <= self.entry else None
        q = p + 1
        while self.arm_offset(q) not in self.stars:
            q += 1
        if q <= self.entry:
            return q
        if self.rules.star_jump == "goal":
            return self.goal
        # next_lap: the first star of the next lap; none where that star lies behind
        # the own start square (a board whose entry lies before the lap's last star).
        q -= self.track_len
        return q if q >= 0 else None

    # ----------------------------------------------------------------- moves
    def _walk(self, pos: Pos, i: int, face: int | str) -> tuple[list[int], bool, bool] | None:
        """(walk, backwards, bounced) of piece `i` for `face` on the track/column, or None."""
        p, rev = pos[i]
        if face == GLOBE:
            if self.entry < p < self.goal:
                return list(range(p + 1, self.goal + 1)), False, False
            for q in range(p + 1, self.entry + 1):
                if self.arm_offset(q) in self.globes:
                    return list(range(p + 1, q + 1)), False, False
            return None
        if face == STAR:
            if not 0 <= p <= self.entry:
                return None
            for q in range(p + 1, self.entry + 1):
                if self.arm_offset(q) in self.stars:
                    return list(range(p + 1, q + 1)), False, False
                if self.arm_offset(q) in self.globes:
                    return None  # a star move may not pass a globe
            return None
        steps = int(face)
        if rev:
            walk: list[int] = []
            self._walk_back(p, steps, walk)
            return (walk, True, False) if walk else None
        if p + steps <= self.goal:
            return list(range(p + 1, p + steps + 1)), False, False
        if self.rules.finish == "exact":
            return None
        walk = list(range(p + 1, self.goal + 1))
        self._walk_back(self.goal, p + steps - self.goal, walk)
        return walk, True, True

    def moves(self, pos: Pos, face: int | str) -> list[tuple[Pos, bool, bool]]:
        """Every legal move of `face`, one per piece (by index): (new pos, entered, finished)."""
        key = (pos, face)
        found = self._moves.get(key)
        if found is None:
            found = self._legal(pos, face)
            self._moves[key] = found
        return found

    def _legal(self, pos: Pos, face: int | str) -> list[tuple[Pos, bool, bool]]:
        moves = self._each_piece(pos, face)
        if self.rules.must_enter:
            entering = [m for i, m in moves if m[1]]
            if entering:
                return entering
        if self.rules.clear_start and any(p == YARD for p, _ in pos):
            start = self.square(0)
            clearing = [m for i, m in moves if not m[1] and self.square(pos[i][0]) == start]
            if clearing:
                return clearing
        return [m for _, m in moves]

    def _lands_on_own(self, pos: Pos, i: int, target: int) -> bool:
        """Another own piece stands where `target` ends (as `reference.moves._lands_on_own`)."""
        if target == self.goal and self.home_from == self.goal:
            return False
        square = self.square(target)
        others = [q for j, (q, _) in enumerate(pos) if j != i]
        if square < 0:
            return target in others
        return any(self.square(q) == square for q in others)

    def _each_piece(self, pos: Pos, face: int | str) -> list[tuple[int, tuple[Pos, bool, bool]]]:
        """(piece, move) of every piece the board, passing and landing rules let move."""
        rules = self.rules
        out = []
        for i, (p, _rev) in enumerate(pos):
            if p == self.goal:
                continue
            if p == YARD:
                if face not in self.entering:
                    continue
                if rules.start_capacity:
                    # Counted by square: Killer's progress track_len is the start square too.
                    on_start = sum(
                        1 for j, (q, _) in enumerate(pos) if j != i and self.square(q) == 0
                    )
                    if on_start >= rules.start_capacity:
                        continue
                if not rules.land_on_own and self._lands_on_own(pos, i, 0):
                    continue
                out.append((i, (self._put(pos, i, 0, False), True, False)))
                continue
            found = self._walk(pos, i, face)
            if found is None:
                continue
            walk, backwards, bounced = found
            if not rules.pass_own and self._barred(pos, i, walk[:-1]):
                continue
            target = walk[-1]
            if not rules.land_on_own and self._lands_on_own(pos, i, target):
                continue
            if rules.star_jump != "none" and self.is_star(target):
                jumped = self._star_jump(target, backwards)
                if jumped is not None:
                    target = jumped
            rev = pos[i][1] or (bounced and rules.finish == "bounce_on")
            out.append((i, (self._put(pos, i, target, rev), False, target == self.goal)))
        return out

    def _barred(self, pos: Pos, i: int, path: list[int]) -> bool:
        """An own piece stands on a track square of the path (only when pass_own is false)."""
        others = {self.square(q) for j, (q, _) in enumerate(pos) if j != i}
        others.discard(-1)
        return any(self.square(q) in others for q in path)

    def _put(self, pos: Pos, i: int, p: int, rev: bool) -> Pos:
        if p in (YARD, self.goal):
            rev = False  # yard and goal clear the reversed flag, as Position.put does
        pieces = list(pos)
        pieces[i] = (p, rev)
        return tuple(sorted(pieces))

    # --------------------------------------------------------------- queries
    def in_play(self, pos: Pos) -> bool:
        return any(p != YARD and p != self.goal for p, _ in pos)

    def finished(self, pos: Pos) -> bool:
        return sum(p >= self.home_from for p, _ in pos) >= self.win_need

    def start_attempts(self, pos: Pos) -> int:
        """Start tries now (game.py `start_attempts`): alone on the board a piece never goes
        back to its yard, so a piece has entered exactly when one is out of the yard."""
        if self.rules.start_attempts_when == "game_start" and any(p != YARD for p, _ in pos):
            return 1
        return self.rules.start_attempts

    def face_bonus(self, face: int | str, entered: bool) -> int:
        return face_bonus(self.rules, face, entered)


def _state(pos: Pos) -> State:
    """The state at a turn boundary: reversed flags are cleared at the end of a turn."""
    return tuple(sorted(p for p, _ in pos))


def _pos(state: State) -> Pos:
    return tuple((p, False) for p in state)


def _faces(rules: Rules) -> list[tuple[int | str, float]]:
    """Distinct faces of the die with their probabilities (a face may repeat)."""
    counts: dict[int | str, int] = defaultdict(int)
    for f in rules.die_faces:
        counts[f] += 1
    return [(f, c / 6.0) for f, c in counts.items()]
