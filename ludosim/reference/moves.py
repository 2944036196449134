"""One move: which moves a face allows, and what playing one does (docs/rules.md sections 3-4).

A move is (piece, face). `legal_moves` lists them by piece index; `play_move`
applies one to a position and returns what happened. Both read the rules and
board only, so they are the scenario API's building blocks as well as the
turn loop's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludosim.reference.events import Captured, Event, Finished, Jumped, Moved, SentHome
from ludosim.reference.position import Piece, Position
from ludosim.rules.board import YARD
from ludosim.rules.model import GLOBE, STAR, Rules

# How a landing is resolved.
LAND = "land"  # the piece stays (alone, with own pieces, or sharing with opponents)
CAPTURE = "capture"  # the opponent pieces there go back to their yards
HOME = "home"  # the mover itself goes back to its yard
BARRED = "barred"  # the mover may not arrive there (a block under block_landing=forbidden)


@dataclass(frozen=True)
class Move:
    """Piece `piece` of `seat` plays face `face`; `walk` lists the progress values stepped on."""

    seat: int
    piece: int
    face: int | str
    walk: tuple[int, ...]
    backwards: bool = False  # the last step went backwards (a bounce or a reversed piece)
    bounced: bool = False  # the walk turned at the goal
    entering: bool = False  # the piece comes out of the yard

    @property
    def target(self) -> int:
        return self.walk[-1]


@dataclass
class MoveResult:
    """What one move did."""

    events: list[Event] = field(default_factory=list)
    captures: int = 0  # opponent pieces sent home
    finished: bool = False  # the mover reached the goal
    entered: bool = False
    sent_home: bool = False  # the mover went back to its yard


def is_entering_face(rules: Rules, face: int | str) -> bool:
    """The face brings a piece out of the yard (`enter_faces`, or the die's own)."""
    return face in rules.entering_faces


def is_six_like(face: int | str) -> bool:
    """Counts towards `six_limit` (a 6 or the globe)."""
    return face == 6 or face == GLOBE


def face_bonus(rules: Rules, face: int | str, entered: bool) -> int:
    """Bonus rolls a face earns by itself (docs/rules.md section 2, bonus rolls): the
    globe one, a 6 one under `bonus_on_six` (not after it brought a piece out under
    `unless_entered`)."""
    if face == GLOBE:
        return 1
    if face != 6:
        return 0
    rule = rules.bonus_on_six
    return int(rule == "always" or (rule == "unless_entered" and not entered))


# ------------------------------------------------------------------ walking
def _step_back(pos: Position, p: int) -> int | None:
    """One square backwards; below the start square per `Board.wrap_backwards`."""
    if p - 1 >= 0:
        return p - 1
    return pos.board.wrap_backwards(p - 1)


def _walk_backwards(pos: Position, p: int, steps: int, walk: list[int]) -> None:
    for _ in range(steps):
        q = _step_back(pos, p)
        if q is None:  # cannot go behind the start square on this board: the walk stops
            return
        p = q
        walk.append(p)


def locked(rules: Rules, pos: Position, seat: int) -> bool:
    """`seat`'s home column is still closed to it (`home_unlock = capture`, no capture yet)."""
    return rules.home_unlock == "capture" and not pos.unlocked[seat]


def goes_on(rules: Rules, pos: Position, seat: int, p: int) -> bool:
    """A piece of `seat` at progress `p` goes on past its entry (`home_unlock`): its seat is
    locked, or it is already lapping (a code after the goal)."""
    return rules.home_unlock == "capture" and (p > pos.goal or not pos.unlocked[seat])


def _lap_walk(pos: Position, p: int, steps: int) -> list[int]:
    """The squares a piece going on past its entry steps on, `steps` of them from `p`."""
    board = pos.board
    done = board.travelled(p)
    return [board.lap_code(t) for t in range(done + 1, done + steps + 1)]


def _number_walk(rules: Rules, pos: Position, seat: int, piece: int, steps: int):
    """Walk of a number face: (walk, backwards, bounced), or None when illegal."""
    p = pos.progress[seat][piece]
    goal = pos.goal
    walk: list[int] = []
    if pos.reversed[seat][piece]:
        _walk_backwards(pos, p, steps, walk)
        if not walk:
            return None
        return walk, True, False
    board = pos.board
    if p > goal or (p + steps > board.entry and locked(rules, pos, seat)):
        # Past its entry without turning in: a locked piece, or one already lapping
        # (which reaches its entry again only after the lap's start square).
        return _lap_walk(pos, p, steps), False, False
    if p + steps <= goal:
        return list(range(p + 1, p + steps + 1)), False, False
    if rules.finish == "exact":
        return None
    walk = list(range(p + 1, goal + 1))
    _walk_backwards(pos, goal, p + steps - goal, walk)
    return walk, True, True


def _path_barred(rules: Rules, pos: Position, seat: int, piece: int, path: list[int]) -> bool:
    """A square of the path (track squares only) bars the move under the passing rules."""
    if rules.pass_own and rules.pass_opponents == "all":
        return False
    team = rules.team_of(seat)
    for p in path:
        square = pos.board.square(seat, p)
        if square < 0:
            continue  # home column and goal never bar
        own = opponents = 0
        for s, i in pos.at(square):
            if s == seat:
                own += i != piece
            elif rules.team_of(s) != team:
                opponents += 1  # a partner's piece neither bars nor counts as own
        if own and not rules.pass_own:
            return True
        if opponents and rules.pass_opponents == "none":
            return True
        if opponents >= 2 and rules.pass_opponents == "singles":
            return True
    return False


# ------------------------------------------------------------------ landing
def resolve_landing(
    rules: Rules, pos: Position, seat: int, piece: int, p: int, entering: bool = False
) -> tuple[str, list[Piece]]:
    """How the mover's arrival at progress `p` resolves: (LAND | CAPTURE | HOME | BARRED, victims).

    BARRED (a block under `block_landing = forbidden`) makes the move illegal,
    so `play_move` never meets it.
    """
    board = pos.board
    square = board.square(seat, p)
    if square < 0:
        return LAND, []
    team = rules.team_of(seat)
    opponents = [o for o in pos.at(square) if rules.team_of(o[0]) != team]
    # Own pieces besides the mover, and partners' pieces (for `capture_rule = lone_piece`).
    own = sum(1 for s, i in pos.at(square) if rules.team_of(s) == team and (s, i) != (seat, piece))
    k = len(opponents)
    if k == 0:
        return LAND, []
    if entering and rules.start_capture and k == 1:
        # Killer: a piece on another player's start globe is safe except against
        # the piece that player brings out of its yard (seed 000).
        return CAPTURE, opponents
    if k >= 2:
        # A block: block_landing decides on every square, safe or not (docs/rules.md section 8.1).
        if rules.block_landing == "coexist":
            return LAND, []
        if rules.block_landing == "lander_home":
            return HOME, []
        if rules.block_landing == "forbidden":
            return BARRED, []
        return CAPTURE, opponents
    if board.is_safe(square):
        return (HOME, []) if rules.safe_landing == "lander_home" else (LAND, [])
    if rules.capture_rule == "lone_opponent" or own == 0:
        return CAPTURE, opponents
    return LAND, []  # lone_piece: an opponent sharing with own pieces is not captured


def _arrive(
    rules: Rules, pos: Position, seat: int, piece: int, p: int, entering: bool, result: MoveResult
) -> bool:
    """Put the mover on `p` and resolve the landing; False when the mover went home."""
    kind, victims = resolve_landing(rules, pos, seat, piece, p, entering)
    square = pos.board.square(seat, p)
    if kind == HOME:
        pos.put(seat, piece, YARD)
        result.sent_home = True
        result.events.append(SentHome(seat, piece, square))
        return False
    for vs, vp in victims:
        pos.put(vs, vp, YARD)
        result.captures += 1
        result.events.append(Captured(seat, piece, vs, vp, square))
    if victims:
        # The seat's home column opens at once: a capture on the first star of a jump
        # opens it before the jump is made (`home_unlock`).
        pos.unlocked[seat] = True
    pos.put(seat, piece, p)
    return True


def _star_jump_target(
    rules: Rules, pos: Position, p: int, backwards: bool, laps: bool = False
) -> int | None:
    """Where a star jump from star `p` goes, or None; `laps`: the piece goes on past its
    entry (`goes_on`), so it jumps to the next star ahead round the track, never home."""
    board = pos.board
    if laps and not backwards:
        return board.lap_star_jump(p)
    if backwards:
        q = board.star_before(p)
        if q >= 0:
            return q
        # Behind the start square only where a backward walk could go too.
        return board.wrap_backwards(q) if board.wrap_backwards(-1) is not None else None
    q = board.star_after(p)
    if q <= board.entry:
        return q
    if rules.star_jump == "goal":
        return pos.goal
    # next_lap: the next star, counted in the piece's next lap. Where `entry` lies
    # before the lap's last star that star is behind the own start square, which
    # a lap cannot hold: no jump [choice].
    q -= board.track_len
    return q if q >= 0 else None


# --------------------------------------------------------------- the moves
def _lands_on_own(pos: Position, seat: int, piece: int, p: int) -> bool:
    """Another piece of `seat` stands where progress `p` ends (the goal holds any number,
    except with `finish_in_home`, where it is the last home square)."""
    if p == pos.goal and pos.board.home_from == pos.goal:
        return False
    square = pos.board.square(seat, p)
    if square < 0:  # home column: squares of the owner alone, compared by progress
        return any(q == p for i, q in enumerate(pos.progress[seat]) if i != piece)
    return any(s == seat and i != piece for s, i in pos.at(square))


def _compulsory(rules: Rules, pos: Position, seat: int, moves: list[Move]) -> list[Move]:
    """The moves `must_enter` and `clear_start` leave: entering first, then clearing the start.

    With `must_enter` an entering move, when there is one, must be played. With
    `clear_start`, while a piece waits in the yard, a piece on its own start square
    that can move must be the one to move.
    """
    if rules.must_enter:
        entering = [m for m in moves if m.entering]
        if entering:
            return entering
    if rules.clear_start and YARD in pos.progress[seat]:
        start = pos.board.start_square(seat)
        square = pos.board.square
        clearing = [m for m in moves if square(seat, pos.progress[seat][m.piece]) == start]
        if clearing:
            return clearing
    return moves


def legal_moves(rules: Rules, pos: Position, seat: int, face: int | str) -> list[Move]:
    """Every legal move of `seat` for `face`, by piece index."""
    moves = _each_piece_moves(rules, pos, seat, face)
    if rules.must_enter or rules.clear_start:
        return _compulsory(rules, pos, seat, moves)
    return moves


def _each_piece_moves(rules: Rules, pos: Position, seat: int, face: int | str) -> list[Move]:
    """The move of each piece that the board, the passing and the landing rules allow."""
    board = pos.board
    moves = []
    start_square = board.start_square(seat)
    for piece, p in enumerate(pos.progress[seat]):
        if p == pos.goal:
            continue
        if p == YARD:
            if not is_entering_face(rules, face):
                continue
            if rules.start_capacity:
                own_on_start = sum(1 for s, _ in pos.at(start_square) if s == seat)
                if own_on_start >= rules.start_capacity:
                    continue
            if resolve_landing(rules, pos, seat, piece, 0, entering=True)[0] in (HOME, BARRED):
                continue  # entering straight back into the yard, or onto a forbidden block
            if not rules.land_on_own and _lands_on_own(pos, seat, piece, 0):
                continue
            moves.append(Move(seat, piece, face, (0,), entering=True))
            continue
        backwards = bounced = False
        if face in (GLOBE, STAR) and goes_on(rules, pos, seat, p):
            # A piece going on past its entry looks for its target round the track.
            steps = board.lap_globe_steps(p) if face == GLOBE else board.lap_star_steps(p)
            if steps is None:
                continue
            walk = _lap_walk(pos, p, steps)
        elif face == GLOBE:
            if board.in_home_column(p):
                walk = list(range(p + 1, pos.goal + 1))
            else:
                q = board.globe_after(p)
                if q is None:
                    continue
                walk = list(range(p + 1, q + 1))
        elif face == STAR:
            q = board.star_die_target(p) if board.on_track(p) else None
            if q is None:
                continue
            walk = list(range(p + 1, q + 1))
        else:
            found = _number_walk(rules, pos, seat, piece, int(face))
            if found is None:
                continue
            walk, backwards, bounced = found
        if _path_barred(rules, pos, seat, piece, walk[:-1]):
            continue
        if not rules.land_on_own and _lands_on_own(pos, seat, piece, walk[-1]):
            continue
        if rules.block_landing == "forbidden" and _arrives_on_block(
            rules, pos, seat, piece, walk[-1], backwards
        ):
            continue
        moves.append(Move(seat, piece, face, tuple(walk), backwards, bounced))
    return moves


def _arrives_on_block(
    rules: Rules, pos: Position, seat: int, piece: int, p: int, backwards: bool
) -> bool:
    """Under `block_landing = forbidden`: a move landing on `p` would arrive on a block.

    Its landing square counts, and so does the square its star jump goes on
    to, if the piece survives the landing (docs/rules.md section 3).
    """
    kind, _ = resolve_landing(rules, pos, seat, piece, p)
    if kind == BARRED:
        return True
    if kind == HOME or rules.star_jump == "none" or not pos.board.is_star(p):
        return False
    # A capture on the first star opens a locked seat's column before the jump.
    laps = rules.home_unlock == "capture" and (
        p > pos.goal or (kind != CAPTURE and not pos.unlocked[seat])
    )
    q = _star_jump_target(rules, pos, p, backwards, laps)
    return q is not None and resolve_landing(rules, pos, seat, piece, q)[0] == BARRED


def play_move(rules: Rules, pos: Position, move: Move) -> MoveResult:
    """Apply a legal move to `pos` (in place) and report what it did."""
    seat, piece = move.seat, move.piece
    result = MoveResult()
    start = pos.progress[seat][piece]
    entering = start == YARD
    result.entered = entering
    target = move.target
    result.events.append(Moved(seat, piece, move.face, start, target))
    alive = _arrive(rules, pos, seat, piece, target, entering, result)
    if alive and rules.star_jump != "none" and not entering and pos.board.is_star(target):
        laps = goes_on(rules, pos, seat, target)
        q = _star_jump_target(rules, pos, target, move.backwards, laps)
        if q is not None:
            result.events.append(Jumped(seat, piece, target, q))
            alive = _arrive(rules, pos, seat, piece, q, False, result)
    if alive and rules.home_unlock == "capture" and not move.backwards:
        board = pos.board
        if board.travelled(pos.progress[seat][piece]) < board.travelled(start) and not entering:
            pos.laps[seat][piece] += 1  # it went on past its start square: a new lap
    if alive and move.bounced and rules.finish == "bounce_on":
        pos.reversed[seat][piece] = True
    if alive and pos.progress[seat][piece] == pos.goal:
        result.finished = True
        result.events.append(Finished(seat, piece))
    return result


def try_move(rules: Rules, pos: Position, move: Move) -> tuple[Position, MoveResult]:
    """Play a move on a copy of `pos`; the original is left as it was."""
    child = pos.copy()
    return child, play_move(rules, child, move)
