"""One invariant checker run over many seeded games of every preset (reference engine).

After every turn: pieces are conserved and in range, the occupancy map agrees
with the pieces, no piece is left reversed, pieces in the goal stay there, and
the other seats' pieces can only have been sent home. After every game: it
ended or was marked truncated, one winner, places a permutation of 1..n (a
full finishing order with `play_to_end`; under a move limit, places by points with
ties shared and points that match the final position), `turns <= end_turns <= max_turns`,
`rolls >= turns`, and the same seed plays the same game.

By default 100 games per preset (25 of Killer), split into chunks so pytest-xdist spreads
them, and 10 of each variant (5 of Killer on five or six arms); `LUDOSIM_VERIFY=1`
(`make verify`) plays 1000 per preset and 100 per variant.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import VERIFY

from ludosim.reference import Game, GameResult, play_game
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import Rules, presets

GAMES_PER_PRESET = 1000 if VERIFY else 100
CHUNK = 25
SEED = 20240601

# Rule sets off the presets' beaten track: other player counts, the 6-sided
# board, fewer pieces, a solo race, swept readings of docs/rules.md choices.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("app", {"players": 1}),
    ("app", {"players": 2, "pass_opponents": "singles"}),
    ("italian", {"players": 3, "pieces": 2}),
    ("danish", {"players": 2, "entry": 52}),
    ("danish", {"players": 5, "sides": 6, "safe": "globes"}),
    ("danish-globe", {"players": 6, "sides": 6, "first_player": "seat0"}),
    ("killer", {"players": 2}),
    ("killer", {"players": 5, "sides": 6}),
    ("killer", {"safe_landing": "coexist", "star_jump": "goal", "entry": 50}),
    # Points formats: a move limit (ties kept), points to the end of a race.
    ("king", {"players": 2, "start_out": 4, "scoring": "steps", "move_limit": 12}),
    ("app", {"scoring": "steps", "move_limit": 40, "home_bonus": 20, "win_pieces": 1}),
    ("danish", {"scoring": "steps", "play_to_end": True}),
    # Capture before home (lapping pieces), teams (a finished seat moves its partner's).
    ("king", {"home_unlock": "capture", "win_pieces": 2}),
    ("danish", {"home_unlock": "capture", "star_jump": "goal", "players": 2}),
    ("danish-globe", {"home_unlock": "capture", "star_jump": "next_lap"}),
    ("killer", {"home_unlock": "capture"}),
    ("king", {"home_unlock": "capture", "scoring": "steps", "players": 2, "move_limit": 60}),
    ("danish", {"teams": "0,1,0,1", "forced_capture": True}),
    ("app", {"teams": "0,1,1,0", "play_to_end": False, "win_pieces": 1}),
    # Teams with Killer turns, played to the end (three teams), under a move limit.
    ("killer", {"teams": "0,1,0,1", "win_pieces": 2}),
    ("danish", {"teams": "0,1,2,0,1,2", "players": 6, "sides": 6, "play_to_end": True}),
    ("king", {"teams": "0,1,0,1", "scoring": "steps", "move_limit": 30, "win_pieces": 2}),
]
VARIANT_GAMES = 100 if VERIFY else 10


class TurnChecker:
    """`after_turn` callback: checks the position after every turn of one game."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.turns = 0
        self.rolls = 0
        self.previous: list[list[int]] | None = None

    def __call__(self, game: Game, seat: int) -> None:
        rules, pos = self.rules, game.pos
        goal = rules.goal
        assert game.turns == self.turns + 1, "turns count one per turn"
        assert game.rolls >= self.rolls + 1, f"turn {game.turns} of seat {seat} rolled no die"
        assert seat not in game.finish_order, f"finished seat {seat} took a turn"
        assert len(pos.progress) == rules.players
        for s, row in enumerate(pos.progress):
            assert len(row) == rules.pieces, f"seat {s} has {len(row)} pieces"
            for i, p in enumerate(row):
                # Past the goal only a piece lapping under home_unlock (`Rules.tail`).
                last = goal + rules.tail
                assert p == YARD or 0 <= p <= last, f"seat {s} piece {i} at progress {p}"
        pos.check()
        assert not any(any(row) for row in pos.reversed), f"reversed piece after turn {game.turns}"
        if self.previous is not None:
            for s, (before, after) in enumerate(zip(self.previous, pos.progress, strict=True)):
                for i, (b, a) in enumerate(zip(before, after, strict=True)):
                    if b == goal:
                        assert a == goal, f"seat {s} piece {i} left the goal"
                    if s != seat:
                        assert a in (b, YARD), (
                            f"seat {s} piece {i} moved {b}->{a} in seat {seat}'s turn"
                        )
        self.previous = [row[:] for row in pos.progress]
        self.turns, self.rolls = game.turns, game.rolls


def play_checked(rules: Rules, seed: int, game: int) -> GameResult:
    """Play one game with the turn checker, then check its result."""
    engine = Game(rules, seed, game, record=False)
    result = engine.play(after_turn=TurnChecker(rules))
    check_result(rules, result, engine.finish_order)
    return result


def check_teams(rules: Rules, result: GameResult, finish_order: list[int]) -> None:
    """Places by team: partners share one, the teams take 1, 2, ...; the winner's finish
    completed its team, the first team to finish, and ended the game."""
    n = rules.players
    team_place = {}
    for s in range(n):
        assert team_place.setdefault(rules.team_of(s), result.places[s]) == result.places[s]
    assert sorted(team_place.values()) == list(range(1, len(team_place) + 1))
    if result.winner < 0:
        assert result.truncated
        return
    team = rules.team_of(result.winner)
    assert result.places[result.winner] == 1
    assert all(s in finish_order for s in range(n) if rules.team_of(s) == team)
    if not rules.play_to_end:
        assert finish_order[-1] == result.winner, "the winner's finish ended the game"
        assert result.turns == result.end_turns
        return
    # Played to the end: the teams that finished hold the first places in the order
    # they did, and unless truncated every team but one has finished.
    completed = {}  # team -> the index of the finish that completed it
    for k, s in enumerate(finish_order):
        if all(
            t in finish_order[: k + 1] for t in range(n) if rules.team_of(t) == rules.team_of(s)
        ):
            completed[rules.team_of(s)] = k
    done = sorted(completed, key=completed.get)
    assert [team_place[t] for t in done] == list(range(1, len(done) + 1))
    if not result.truncated:
        assert len(done) == len(team_place) - 1


def check_result(rules: Rules, result: GameResult, finish_order: list[int]) -> None:
    if rules.scoring == "steps":
        check_points(rules, result, finish_order)
    if rules.move_limit:
        return  # placed by points, ties shared: `check_points` holds the rest
    n = rules.players
    assert 0 <= result.first < n
    assert result.turns <= result.end_turns <= rules.max_turns
    assert result.rolls >= result.turns
    goal = rules.goal
    finished = [
        s
        for s in range(n)
        if sum(rules.home_from <= p <= goal for p in result.final[s]) >= rules.win_need
    ]
    assert sorted(finished) == sorted(finish_order)
    if rules.teams:
        check_teams(rules, result, finish_order)
        return
    assert sorted(result.places) == list(range(1, n + 1)), f"places {result.places}"
    if result.truncated:
        assert result.end_turns == rules.max_turns
        assert result.winner == (finish_order[0] if finish_order else -1)
    else:
        assert result.winner >= 0, "a game that was not truncated has a winner"
        expected = n - 1 if rules.play_to_end and n > 1 else 1
        assert len(finish_order) == expected, f"{len(finish_order)} finished, expected {expected}"
        if not rules.play_to_end:
            assert result.turns == result.end_turns
    if result.winner >= 0:
        assert result.winner == finish_order[0]
        assert result.places[result.winner] == 1
        assert result.places.count(1) == 1
    for place, s in enumerate(finish_order, start=1):
        assert result.places[s] == place, "finishers are placed in finishing order"
    if rules.scoring == "megajogos":
        assert len(result.points) == n
        if result.winner >= 0:
            assert result.points[result.winner] == 1000
        others = [s for s in range(n) if s != result.winner]
        assert all(0 <= result.points[s] < 1000 for s in others)
    elif rules.scoring == "none":
        assert result.points == []
    stats = result.stats
    assert sum(stats["captures"]) == sum(stats["captured"]), "every capture has a victim"
    for s in range(n):
        assert all(stats[name][s] >= 0 for name in stats)
        assert stats["caught"][s] <= stats["skipped"][s]


def check_points(rules: Rules, result: GameResult, finish_order: list[int]) -> None:
    """Points are the squares advanced (and the bonus home) of the final position; under
    a move limit the game ends at the limit or at the first finish, never truncated,
    every seat placed by points with ties shared, the winner the one seat in first."""
    n, goal = rules.players, rules.goal
    expected = [
        sum(0 if p == YARD else p + (rules.home_bonus if p == goal else 0) for p in row)
        for row in result.final
    ]
    if rules.home_unlock == "capture":
        # Lapping pieces: their squares travelled, and a whole lap per new lap begun.
        board = Board.from_rules(rules)
        for s, row in enumerate(result.final):
            expected[s] -= sum(p - board.travelled(p) for p in row if p != YARD)
            laps, rest = divmod(result.points[s] - expected[s], rules.track_len)
            assert laps >= 0 and rest == 0, (result.points, result.final)
    else:
        assert result.points == expected, (result.points, result.final)
    if not rules.move_limit:
        return
    points = result.points
    assert not result.truncated
    assert result.turns == result.end_turns <= rules.move_limit * n
    # A side is a seat, or with teams a team scoring its seats' points summed.
    side = [sum(points[t] for t in range(n) if rules.team_of(t) == rules.team_of(s))
            for s in range(n)]  # fmt: skip
    done = [t for t in set(map(rules.team_of, finish_order))
            if all(s in finish_order for s in range(n) if rules.team_of(s) == t)]  # fmt: skip
    if result.end_turns < rules.move_limit * n:
        assert len(done) == 1, "a game under a move limit ends early only at a finish"
    assert len(done) <= 1
    ahead = [{rules.team_of(t) for t in range(n) if side[t] > side[s]} for s in range(n)]
    assert result.places == [1 + len(a) for a in ahead]
    top = {rules.team_of(s) for s in range(n) if side[s] == max(side)}
    if len(top) > 1:
        assert result.winner == -1
    else:
        best = max(points[s] for s in range(n) if rules.team_of(s) in top)
        assert rules.team_of(result.winner) in top and points[result.winner] == best
    stats = result.stats
    assert sum(stats["captures"]) == sum(stats["captured"]), "every capture has a victim"


def check_replay(rules: Rules, seed: int, game: int, result: GameResult) -> None:
    """Same seed, same game: the transcript repeats and recording changes nothing."""
    first = play_game(rules, seed, game, record=True)
    again = play_game(rules, seed, game, record=True)
    assert first.transcript == again.transcript
    assert first.transcript, "a recorded game has a transcript"
    assert first.row() == again.row() == result.row()
    assert first.final == result.final


# Killer's reference games are the dearest (its plan search runs in Python): a quarter
# as many in the everyday suite (one chunk), as many as every preset's in make verify.
def games_of(preset: str) -> int:
    return GAMES_PER_PRESET // 4 if preset == "killer" and not VERIFY else GAMES_PER_PRESET


CHUNKS = [(preset, start) for preset in presets() for start in range(0, games_of(preset), CHUNK)]


@pytest.mark.parametrize(("preset", "start"), CHUNKS, ids=[f"{p}-{s}" for p, s in CHUNKS])
def test_invariants_preset(preset: str, start: int) -> None:
    rules = Rules.preset(preset)
    for game in range(start, min(start + CHUNK, games_of(preset))):
        result = play_checked(rules, SEED, game)
        if game == start:
            check_replay(rules, SEED, game, result)


@pytest.mark.parametrize(
    ("preset", "changes"),
    VARIANTS,
    ids=[f"{p}-{'-'.join(map(str, c.values()))}" for p, c in VARIANTS],
)
def test_invariants_variant(preset: str, changes: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**changes)
    # Killer on five or six arms is the dearest: half as many in the everyday suite.
    big_killer = preset == "killer" and rules.players > 4 and not VERIFY
    for game in range(VARIANT_GAMES // 2 if big_killer else VARIANT_GAMES):
        result = play_checked(rules, SEED, game)
        if game == 0:
            check_replay(rules, SEED, game, result)


@pytest.mark.parametrize("preset", presets())
def test_truncated_games_are_marked(preset: str) -> None:
    """With `max_turns` far below a game's length, games stop at it and say so."""
    rules = Rules.preset(preset).replace(max_turns=100, move_limit=0)
    for game in range(10):
        result = play_checked(rules, SEED, game)
        assert result.truncated
        assert result.end_turns == 100
        if result.winner < 0:
            assert result.turns == 100


def test_different_games_differ() -> None:
    """Game numbers index distinct streams: the first few games are not copies."""
    rules = Rules.preset("danish")
    rows = [play_game(rules, SEED, g, record=False).row() for g in range(5)]
    assert len({(r["turns"], r["rolls"], r["winner"]) for r in rows}) > 1
