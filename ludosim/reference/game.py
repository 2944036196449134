"""The readable game loop: roll-off, turns, end of game, results (docs/rules.md section 2).

Written to be read next to docs/rules.md and `docs/semantics.md`; the compiled
kernel plays the same games from the same seeds, and the differential tests
hold the two to that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludosim.reference.events import Captured, Event, PlayerDone, Puster, Rolled, Skipped
from ludosim.reference.flow import SNAP_CAP, Flow
from ludosim.reference.moves import (
    MoveResult,
    face_bonus,
    is_entering_face,
    is_six_like,
    legal_moves,
)
from ludosim.reference.outside import OutsidePlayer, ask, split_policies
from ludosim.reference.plans import (
    Plan,
    PlanTree,
    all_plans,
    best_plans,
    pieces_at_risk,
    play_plan,
)
from ludosim.reference.position import Position
from ludosim.rules import checks
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError, parse_policy, resolve_policies
from ludosim.rules.streams import Stream, normalise_seed

STAT_COLUMNS = ("captures", "captured", "returned", "skipped", "caught")


@dataclass
class GameResult:
    """One game: the per-game columns of docs/api.md, the final position and the transcript."""

    game: int
    first: int
    winner: int
    turns: int
    rolls: int
    end_turns: int
    truncated: bool
    places: list[int]
    points: list[int]
    stats: dict[str, list[int]]
    final: list[list[int]]
    transcript: list[str] = field(default_factory=list)
    flow: dict[str, int | float] | None = None  # the game-flow columns, when counted
    snapshots: list[tuple[int, ...]] | None = None  # seat totals every `every` turns, when asked

    def row(self) -> dict[str, Any]:
        """The per-game columns, as one flat dict."""
        out: dict[str, Any] = {
            "game": self.game,
            "first": self.first,
            "winner": self.winner,
            "turns": self.turns,
            "rolls": self.rolls,
            "end_turns": self.end_turns,
            "truncated": self.truncated,
        }
        for s, place in enumerate(self.places):
            out[f"place_{s}"] = place
        for name in STAT_COLUMNS:
            for s, value in enumerate(self.stats[name]):
                out[f"{name}_{s}"] = value
        for s, value in enumerate(self.points):
            out[f"points_{s}"] = value
        if self.flow is not None:
            out.update(self.flow)
        if self.snapshots is not None:
            out["snapshots"] = self.snapshots
        return out


class Game:
    """One game in progress: rules, position, random stream and counters."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        game: int = 0,
        policies: str | OutsidePlayer | Sequence[str | OutsidePlayer] = "random",
        start: Position | None = None,
        record: bool = True,
        start_seat: int | None = None,
        flow: bool = False,
        every: int = 0,
    ) -> None:
        self.rules = checks.rules("rules", rules, error=RulesError)
        self.board = Board.from_rules(rules)
        self.pos = start.copy() if start is not None else Position.start(rules, self.board)
        self.stream = Stream(normalise_seed(seed), game)
        self.game = game
        names, self.outside = split_policies(policies, rules.players)
        self.policies = [parse_policy(p) for p in resolve_policies(names, rules.players)]
        searching = [p.name for p in self.policies if p.is_expert]
        if searching:
            raise PolicyError(
                f"policy {searching[0]!r} plays in the compiled kernel only; the reference "
                "engine replays its recorded choices (ludosim.run.replay.replay)"
            )
        self.record = record
        self.transcript: list[str] = []
        n = rules.players
        self.stats = {name: [0] * n for name in STAT_COLUMNS}
        self.turns = 0
        self.rolls = 0
        self.finish_order: list[int] = []
        self.team_order: list[int] = []  # the teams (every seat its own) as they finished
        self.win_turns = self.win_rolls = -1
        self.winner = -1  # the seat whose finish decided the game
        # Games played on from a given position start with a given seat: no roll-off.
        self.start_seat = start_seat
        # Whether a piece of each seat has left its yard (`start_attempts_when`);
        # a start position's pieces outside the yard have.
        self.entered = [any(p != YARD for p in row) for row in self.pos.progress]
        # Game-flow counters (docs/flow.md), read at every turn boundary until the winner finishes.
        # With `every`, also the seats' totals every `every` turns (needs `flow`).
        full = rules.win_need * (self.pos.goal + 1)
        need = rules.win_need
        self.flow = Flow(n, full, every, SNAP_CAP, need) if flow or every else None

    # ------------------------------------------------------------ utilities
    def log(self, event: Event | str) -> None:
        if self.record:
            self.transcript.append(f"  {event if isinstance(event, str) else event.text()}")

    def roll(self, seat: int, note: str = "") -> int | str:
        self.rolls += 1
        face = self.rules.die_faces[self.stream.below(6)]
        self.log(Rolled(seat, face, note))
        return face

    def decide(self, seat: int, rolls: list[int | str], skips: list) -> Plan:
        """The seat's policy picks one option for `rolls` (one roll, or a Killer sequence).

        Draws, in order: `uniform()` when a skipper with 0 < Q < 1 faces a forced
        capture; then `below(t)` when `t > 1` options tie for the best score (all
        options tie under `random`). A skipped forced capture is noted in `skips`.
        An outside player (`ludosim.reference.outside`) chooses without any draw.
        """
        rules, pos, policy = self.rules, self.pos, self.policies[seat]
        if seat in self.outside:
            return ask(self.outside[seat], rules, pos, seat, rolls)
        if policy.is_random and not rules.forced_capture and len(rolls) == 1:
            # Fast path, same choice as the tree: every legal move ties at score 0.
            moves = legal_moves(rules, pos, seat, rolls[0])
            if not moves:
                return Plan((), 0, ())
            move = moves[self.stream.below(len(moves))] if len(moves) > 1 else moves[0]
            return Plan(((move.piece, rolls[0]),), 0, ())
        tree = PlanTree(rules, pos, seat, rolls, policy.weights)
        skipping = False
        if policy.skip > 0.0 and rules.forced_capture and tree.any_capture():
            skipping = policy.skip >= 1.0 or self.stream.uniform() < policy.skip
        capturing_only = tree.pool(may_skip=skipping)
        final, count = tree.top(capturing_only)
        plan = tree.plan(self.stream.below(count) if count > 1 else 0, capturing_only, final)
        if rules.forced_capture and not plan.captures and tree.any_capture():
            # The puster needs every best plan; only a skipping policy gets here.
            skips.append(best_plans(all_plans(rules, pos, seat, rolls)))
        return plan

    # ----------------------------------------------------------- the game
    def roll_off(self) -> int:
        """Who takes the first turn."""
        rule, n = self.rules.first_player, self.rules.players
        if rule == "seat0" or n == 1:
            return 0
        if rule == "random":
            return self.stream.below(n)
        contenders = list(range(n))
        while len(contenders) > 1:
            throws = [self.stream.below(6) + 1 for _ in contenders]
            self.log(
                "roll-off: "
                + ", ".join(f"seat {s} {t}" for s, t in zip(contenders, throws, strict=False))
            )
            best = max(throws)
            contenders = [s for s, t in zip(contenders, throws, strict=False) if t == best]
        return contenders[0]

    def play(
        self,
        after_turn: Callable[[Game, int], None] | None = None,
        before_turn: Callable[[Game, int], None] | None = None,
    ) -> GameResult:
        """Play the game to its end (or to `max_turns`) and return its result.

        `after_turn(game, seat)` is called after every turn (invariant checks),
        `before_turn(game, seat)` before it, once its heading is in the transcript.
        """
        rules, n = self.rules, self.rules.players
        first = self.roll_off() if self.start_seat is None else self.start_seat
        self.log(f"seat {first} starts")
        if self.flow is not None:
            self.flow.boundary(self.travelled())
        seat = first
        truncated = False
        while True:
            if self.turns >= rules.move_limit * n > 0:
                break  # every seat has played its turns: the game ends by points
            if self.turns >= rules.max_turns:
                truncated = True
                break
            self.turns += 1
            if self.record:
                self.transcript.append(f"turn {self.turns}: seat {seat}")
            mover = self.owner(seat)
            if mover != seat:
                self.log(f"seat {seat} has finished and plays seat {mover}'s pieces")
            if before_turn is not None:
                before_turn(self, mover)
            self.play_turn(mover)
            if after_turn is not None:
                after_turn(self, mover)
            if self.flow is not None and self.winner < 0:
                self.flow.boundary(self.travelled())
            if self.pos.finished(mover) and mover not in self.finish_order:
                self.finish_order.append(mover)
                self.log(PlayerDone(mover, len(self.finish_order)))
                if rules.teams or (rules.play_to_end and not rules.move_limit):
                    # The game goes on without the seat's race (with teams: always,
                    # its partner plays on), so its track pieces leave the board.
                    self.leave_board(mover)
                if self.team_done(mover):
                    self.team_order.append(rules.team_of(mover))
                    if self.winner < 0:
                        self.winner = mover  # the first finish (with teams: team) decides
                        self.win_turns, self.win_rolls = self.turns, self.rolls
            if self.winner >= 0 and (not rules.play_to_end or rules.move_limit):
                break  # under a move limit the first finish (team) ends the game too
            if self.sides_left() <= (1 if n > 1 else 0):
                break  # the places are settled: one side is left (none in a solo race)
            seat = self.next_seat(seat)
        return self.result(first, truncated)

    def leave_board(self, seat: int) -> None:
        """A seat that finished with pieces still on the track (`win_pieces` below
        `pieces`) takes them off the board for good, so the seats playing on meet
        them no more; pieces in its home column stay (docs/rules.md, quick wins)."""
        for piece, p in enumerate(self.pos.progress[seat]):
            if self.board.on_track(p):
                self.pos.put(seat, piece, YARD)

    def sides_left(self) -> int:
        """Seats (with `teams`: teams) that have not finished."""
        n = self.rules.players
        return len({self.rules.team_of(s) for s in range(n) if s not in self.finish_order})

    def owner(self, seat: int) -> int:
        """Whose pieces `seat` moves this turn: its own, or once it has finished (`teams`)
        those of the first partner after it in turn order that has not."""
        if seat not in self.finish_order:
            return seat
        n, team = self.rules.players, self.rules.team_of(seat)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.rules.team_of(s) == team and s not in self.finish_order:
                return s
        return seat

    def team_done(self, seat: int) -> bool:
        """Every seat of `seat`'s team has finished (without `teams`: the seat has)."""
        team = self.rules.team_of(seat)
        n = self.rules.players
        return all(s in self.finish_order for s in range(n) if self.rules.team_of(s) == team)

    def next_seat(self, seat: int) -> int:
        """The next seat in play order (`seating`) that has not finished; with `teams`
        the next seat whose team has not, since a finished seat plays on for its partner."""
        n = self.rules.players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.team_done(s) if self.rules.teams else s in self.finish_order:
                continue
            return s
        return seat

    # ----------------------------------------------------------- the turns
    def play_turn(self, seat: int) -> None:
        """One whole turn of `seat`, bonus rolls and puster included."""
        if self.rules.roll_then_move:
            self.plan_turn(seat)
        else:
            self.single_roll_turn(seat)

    def start_attempts(self, seat: int) -> int:
        """Start tries the seat has now: one once a piece has entered under
        `start_attempts_when = game_start` (docs/rules.md section 2)."""
        if self.rules.start_attempts_when == "game_start" and self.entered[seat]:
            return 1
        return self.rules.start_attempts

    def start_tries(self, seat: int) -> tuple[int | str | None, int]:
        """Start tries with no piece in play: (the entering face or None when all failed, tries).

        Up to `start_attempts` rolls; a try succeeds when its face can enter a
        piece now. A face that cannot (not the entering face, or the start
        square barred) is a failed try and earns nothing (docs/rules.md section 8.2).
        """
        attempts = self.start_attempts(seat)
        for attempt in range(1, attempts + 1):
            face = self.roll(seat, f"start try {attempt}")
            if is_entering_face(self.rules, face) and legal_moves(self.rules, self.pos, seat, face):
                return face, attempt
        return None, attempts

    def single_roll_turn(self, seat: int) -> None:
        rules, pos = self.rules, self.pos
        pending, sixes = 1, 0
        # Bonus rolls one move earns: every source counts, or one at most.
        most = 1 if rules.bonus_stacking == "one" else 3
        skips: list[list[Plan]] = []
        while pending > 0:
            pending -= 1
            if not pos.in_play(seat):
                face, tries = self.start_tries(seat)
                if face is None:
                    break  # the tries failed: the turn ends, pending bonus rolls are lost
                if tries > 1:
                    sixes = 0  # a failed try earns nothing and resets the six count
            else:
                face = self.roll(seat)
            sixes = sixes + 1 if is_six_like(face) else 0
            if rules.six_limit and sixes >= rules.six_limit:
                self.log(f"seat {seat} forfeits the turn: {sixes} sixes in a row")
                break
            plan = self.decide(seat, [face], skips)
            if not plan.steps:
                self.log(f"seat {seat} has no move")
                if rules.no_move_ends_turn:
                    break
                pending += self.face_bonus(face, entered=False)
                continue
            entered = captured = finished = False
            for _move, result in play_plan(rules, pos, seat, plan):
                self.account(seat, result)
                entered, captured, finished = result.entered, result.captures > 0, result.finished
            earned = self.face_bonus(face, entered)
            earned += int(rules.bonus_on_capture and captured)
            earned += int(rules.bonus_on_finish and finished)
            pending += min(earned, most)
            # The turn in which a seat finishes ends there: a move that got a piece home
            # (with finish_in_home, any move) may have finished it. A seat that had
            # finished before the turn (a start position can hold one) plays it out.
            if (finished or rules.finish_in_home) and pos.finished(seat):
                break
        self.end_turn(seat, skips)

    def plan_turn(self, seat: int) -> None:
        """Killer: roll until a non-6, then play all the rolls as one plan.

        Each capturing move and each move into the goal of the plan earns a
        new roll sequence with `bonus_on_capture` / `bonus_on_finish`, rolled
        and planned afresh (docs/rules.md section 8.8).
        """
        rules, pos = self.rules, self.pos
        pending = 1
        skips: list[list[Plan]] = []
        while pending > 0:
            pending -= 1
            if not pos.in_play(seat):
                face, _ = self.start_tries(seat)
                if face is None:
                    break  # the tries failed: the turn ends, pending sequences are lost
            else:
                face = self.roll(seat)
            rolls = [face]
            while face == 6:
                face = self.roll(seat)
                rolls.append(face)
            plan = self.decide(seat, rolls, skips)
            if not plan.steps:
                self.log(f"seat {seat} has no move")
            for _, result in play_plan(rules, pos, seat, plan):
                self.account(seat, result)
                pending += int(rules.bonus_on_capture and result.captures > 0)
                pending += int(rules.bonus_on_finish and result.finished)
            if pos.finished(seat):
                break
        self.end_turn(seat, skips)

    def face_bonus(self, face: int | str, entered: bool) -> int:
        """Bonus rolls a face earns by itself (docs/rules.md section 2, bonus rolls)."""
        return face_bonus(self.rules, face, entered)

    def account(self, seat: int, result: MoveResult) -> None:
        if result.entered:
            self.entered[seat] = True
        for event in result.events:
            self.log(event)
            if isinstance(event, Captured):
                self.stats["captures"][seat] += 1
                self.stats["captured"][event.victim_seat] += 1
        if result.sent_home:
            self.stats["returned"][seat] += 1

    def end_turn(self, seat: int, skips: list[list[Plan]]) -> None:
        """Puster for each skipped capture, then reversed pieces face forwards again."""
        p = self.rules.detect_skip
        for options in skips:
            self.stats["skipped"][seat] += 1
            at_risk = pieces_at_risk(options, self.pos, seat)
            self.log(Skipped(seat, at_risk))
            caught = p >= 1.0 or (p > 0.0 and self.stream.uniform() < p)
            if caught:
                self.stats["caught"][seat] += 1
                for piece in at_risk:
                    if self.pos.progress[seat][piece] not in (YARD, self.pos.goal):
                        self.pos.put(seat, piece, YARD)
            self.log(Puster(seat, at_risk, caught))
        self.pos.reversed[seat] = [False] * len(self.pos.reversed[seat])

    # ----------------------------------------------------------- the end
    def result(self, first: int, truncated: bool) -> GameResult:
        rules, pos, n = self.rules, self.pos, self.rules.players
        if rules.move_limit:
            return self.points_result(first)
        winner = self.winner
        points = [self.points(s, winner) for s in range(n)]
        if rules.teams:
            places = self.team_places(winner if winner >= 0 else first, points)
            turns = self.win_turns if winner >= 0 else self.turns
            rolls = self.win_rolls if winner >= 0 else self.rolls
            return self.closed(first, winner, turns, rolls, truncated, places, points)
        places = [0] * n
        for place, s in enumerate(self.finish_order, start=1):
            places[s] = place
        ref = winner if winner >= 0 else first
        rest = [s for s in range(n) if s not in self.finish_order]
        if rules.scoring != "none":
            rest.sort(key=lambda s: (-points[s], (s - ref) % n))
        else:
            rest.sort(key=lambda s: (-pos.pieces_home(s), -self.progress_sum(s), (s - ref) % n))
        for place, s in enumerate(rest, start=len(self.finish_order) + 1):
            places[s] = place
        turns = self.win_turns if winner >= 0 else self.turns
        rolls = self.win_rolls if winner >= 0 else self.rolls
        return self.closed(first, winner, turns, rolls, truncated, places, points)

    def seat_score(self, seat: int, points: list[int]) -> tuple[int, ...]:
        """How a seat that did not finish ranks: its points, else pieces home then progress."""
        if self.rules.scoring != "none":
            return (points[seat],)
        return (self.pos.pieces_home(seat), self.progress_sum(seat))

    def team_places(self, ref: int, points: list[int]) -> list[int]:
        """Places by team (`teams`): the teams that finished in the order they did (the
        winner's first), the others after them by their seats' scores summed, ties by
        the turn order after `ref` of each team's first seat."""
        rules, n = self.rules, self.rules.players
        done = self.team_order
        teams: dict[int, list[int]] = {}
        for k in range(n):  # seats in turn order from ref: a team's first seat comes first
            teams.setdefault(rules.team_of((ref + k) % n), []).append((ref + k) % n)
        order = sorted(
            teams,
            key=lambda t: (
                done.index(t) if t in done else len(done),
                [
                    -sum(v)
                    for v in zip(*(self.seat_score(s, points) for s in teams[t]), strict=True)
                ],
                (teams[t][0] - ref) % n,
            ),
        )
        return [order.index(rules.team_of(s)) + 1 for s in range(n)]

    def points_result(self, first: int) -> GameResult:
        """The end of a game under `move_limit`: every seat ranked by points, equal points
        sharing a place (docs/rules.md, points formats); the winner is the one seat in
        first place, or -1 when seats tie for it. With `teams` the teams are ranked by
        their seats' points summed, partners sharing their team's place; the winner is
        the top team's seat with the most points, or -1 when teams tie for first. Not
        truncated: the limit is the rule."""
        rules, n = self.rules, self.rules.players
        points = [self.points(s, -1) for s in range(n)]
        # A side is a seat, or with `teams` a team scoring its seats' points summed.
        side = [sum(points[t] for t in range(n) if rules.team_of(t) == rules.team_of(s))
                for s in range(n)]  # fmt: skip
        places = [1 + len({rules.team_of(t) for t in range(n) if side[t] > side[s]})
                  for s in range(n)]  # fmt: skip
        top = {rules.team_of(s) for s in range(n) if places[s] == 1}
        winner = -1
        if len(top) == 1:
            # The seat of the one side in first place with the most points (partners
            # equal: the first in turn order from the first player).
            seats = [(first + k) % n for k in range(n)]
            tops = [s for s in seats if places[s] == 1]
            winner = max(tops, key=lambda s: points[s])  # max keeps the first of equals
        return self.closed(first, winner, self.turns, self.rolls, False, places, points)

    def closed(
        self,
        first: int,
        winner: int,
        turns: int,
        rolls: int,
        truncated: bool,
        places: list[int],
        points: list[int],
    ) -> GameResult:
        """The game's result from its end: who won, when, the places and the points."""
        rules, pos = self.rules, self.pos
        return GameResult(
            game=self.game,
            first=first,
            winner=winner,
            turns=turns,
            rolls=rolls,
            end_turns=self.turns,
            truncated=truncated,
            places=places,
            points=points if rules.scoring != "none" else [],
            stats=self.stats,
            final=[row[:] for row in pos.progress],
            transcript=self.transcript,
            flow=None if self.flow is None else self.flow.columns(winner),
            snapshots=self.flow.snapshots if self.flow is not None and self.flow.every else None,
        )

    def travelled(self) -> list[list[int]]:
        """Every piece's squares from its start square (`Board.travelled`): its progress,
        or for a piece lapping past its entry (`home_unlock`) entry + the squares beyond."""
        return [[self.board.travelled(p) for p in row] for row in self.pos.progress]

    def progress_sum(self, seat: int) -> int:
        """Total progress for ranking: progress + 1 per piece (yard 0, goal goal+1)."""
        return sum(self.board.travelled(p) + 1 for p in self.pos.progress[seat])

    def points(self, seat: int, winner: int) -> int:
        """Points at the end (docs/rules.md, points formats). Megajogos: the winner 1000,
        250 per piece in the goal, progress + 1 for the others. Steps: the squares each
        piece has advanced from its start square (0 in the yard, so a captured piece has
        lost its squares), and `home_bonus` more for each piece in the goal."""
        goal = self.pos.goal
        if self.rules.scoring == "steps":
            # A piece lapping under `home_unlock` has advanced its squares since its
            # start square, and a whole lap for every new lap it began.
            bonus = self.rules.home_bonus
            lap = self.board.track_len
            travelled = self.board.travelled
            rows = zip(self.pos.progress[seat], self.pos.laps[seat], strict=True)
            return sum(
                0 if p == YARD else travelled(p) + lap * laps + (bonus if p == goal else 0)
                for p, laps in rows
            )
        if seat == winner:
            return 1000
        travelled = self.board.travelled
        return sum(250 if p == goal else travelled(p) + 1 for p in self.pos.progress[seat])


def play_game(
    rules: Rules,
    seed: int,
    game: int = 0,
    policies: str | OutsidePlayer | Sequence[str | OutsidePlayer] = "random",
    start: Position | None = None,
    record: bool = True,
    start_seat: int | None = None,
    flow: bool = False,
    every: int = 0,
) -> GameResult:
    """Play game number `game` of seed `seed` with the reference engine.

    `policies` holds a policy name or an outside player (a callable, see
    `ludosim.reference.outside`) for every seat, or one per seat.

    With `start_seat` the game begins with that seat's turn and no roll-off
    (for games played on from a position, `start`). With `flow` the result
    carries the game-flow columns (docs/flow.md); with `every` > 0 also the
    seats' totals every `every` turns (`GameResult.snapshots`, counted with the flow).
    """
    return Game(rules, seed, game, policies, start, record, start_seat, flow, every).play()
