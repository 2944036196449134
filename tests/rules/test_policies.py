"""Scenario tests for the policies (`ludosim.rules.policies`), on the reference engine.

Hand-built positions and scripted draws show that each named policy picks
what its description says, that the skipper skips and the puster catches it,
and that every policy obeys the rules. The compiled kernel plays the same
choices (tests/engine/kernel/test_kernel_agreement.py holds it to the reference).
"""

from __future__ import annotations

import random

import pytest
from scenario_helpers import random_position

from ludosim.reference import Game, Position
from ludosim.reference.features import features, score
from ludosim.reference.plans import all_plans, best_plans, forced
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import Rules
from ludosim.rules.policies import (
    BASE_FEATURES,
    NAMED,
    PolicyError,
    parse_policy,
    resolve_policies,
)
from ludosim.rules.streams import ScriptedStream, Stream, faces_to_script

DANISH = Rules.preset("danish")
KILLER = Rules.preset("killer")


def progress_on(rules: Rules, seat: int, square: int) -> int:
    """Progress that puts a piece of `seat` on absolute track square `square`."""
    board = Board.from_rules(rules)
    return (square - 13 * board.arms[seat]) % board.track_len


def position(rules: Rules, placed: dict[int, list[int]]) -> Position:
    """Seat rows as given (by seat 0's absolute squares for other seats: see `progress_on`)."""
    rows = [[YARD] * rules.pieces for _ in range(rules.players)]
    for seat, row in placed.items():
        rows[seat] = list(row)
    return Position.from_progress(rules, rows)


def decide(rules: Rules, pos: Position, policy: str, rolls: list, draws=()) -> tuple:
    """Seat 0's choice under `policy` for `rolls`: (steps, captures, skips noted)."""
    game = Game(rules, 0, policies=[policy] + ["random"] * (rules.players - 1), start=pos)
    game.stream = ScriptedStream(list(draws))
    skips: list = []
    plan = game.decide(0, list(rolls), skips)
    assert game.stream.exhausted(), f"only {game.stream.draws} draws used"
    return plan.steps, plan.captures, skips


# --------------------------------------------------------- capture or not
def capture_position() -> Position:
    """Seat 0 at 10 and 30; a lone seat-1 piece on square 13, three ahead of piece 0."""
    return position(DANISH, {0: [10, 30, YARD, YARD], 1: [progress_on(DANISH, 1, 13)] + [YARD] * 3})


def test_aggressive_captures_when_it_can():
    steps, captures, _ = decide(DANISH, capture_position(), "aggressive", [3])
    assert steps == ((0, 3),) and captures == 1


def test_pacifist_avoids_a_capture_when_another_move_exists():
    steps, captures, _ = decide(DANISH, capture_position(), "pacifist", [3])
    assert steps == ((1, 3),) and captures == 0


def test_pacifist_captures_when_that_is_the_only_move():
    pos = position(DANISH, {0: [10, YARD, YARD, YARD], 1: [progress_on(DANISH, 1, 13), -1, -1, -1]})
    steps, captures, _ = decide(DANISH, pos, "pacifist", [3])
    assert steps == ((0, 3),) and captures == 1


def test_pacifist_obeys_forced_captures():
    """Killer: capturing is compulsory, so even the pacifist captures."""
    pos = position(KILLER, {0: [14, 40, YARD, YARD], 1: [progress_on(KILLER, 1, 15), -1, -1, -1]})
    steps, captures, skips = decide(KILLER, pos, "pacifist", [1])
    assert steps == ((0, 1),) and captures == 1 and not skips


def test_random_draws_among_all_moves():
    """Every option scores 0: `below(2)` picks the second move (piece 1)."""
    steps, _, _ = decide(DANISH, capture_position(), "random", [3], draws=[1])
    assert steps == ((1, 3),)


# --------------------------------------------------------- safety and the lead
def guard_position() -> Position:
    """Seat 0 at 10 and 14; an opponent (seat 2) on square 12, between them.

    A 4 can join the two pieces on 14 (a block: both protected) or run the
    leader on to 18, six squares ahead of the opponent (exposed).
    """
    return position(DANISH, {0: [10, 14, YARD, YARD], 2: [progress_on(DANISH, 2, 12)] + [YARD] * 3})


def test_defensive_prefers_the_block_over_exposure():
    pos = guard_position()
    steps, _, _ = decide(DANISH, pos, "defensive", [4])
    assert steps == ((0, 4),)
    after_block = pos.copy()
    after_block.put(0, 0, 14)
    after_run = pos.copy()
    after_run.put(0, 1, 18)
    named = dict(zip(BASE_FEATURES, features(pos, after_block, 0), strict=True))
    assert (named["safe"], named["exposed"]) == (2, 0)
    named = dict(zip(BASE_FEATURES, features(pos, after_run, 0), strict=True))
    assert (named["safe"], named["exposed"]) == (0, 1)


def test_runner_moves_its_leading_piece():
    steps, _, _ = decide(DANISH, guard_position(), "runner", [4])
    assert steps == ((1, 4),)


def test_weights_policy_scores_as_its_weights_say():
    """`weights:lead=1` behaves like the runner here; `weights:safe=1` like defensive."""
    assert decide(DANISH, guard_position(), "weights:lead=1", [4])[0] == ((1, 4),)
    assert decide(DANISH, guard_position(), "weights:safe=1", [4])[0] == ((0, 4),)


def test_scores_are_integer_thousandths():
    pos = guard_position()
    after = pos.copy()
    after.put(0, 0, 14)
    defensive = parse_policy("defensive")
    # progress +4 at 0.5, two protected pieces at 5: 2 + 10 = 12 units
    assert score(defensive.weights, pos, after, 0) == 12_000
    assert score(parse_policy("random").weights, pos, after, 0) == 0


# --------------------------------------------------------- skipper and puster
def skip_position() -> Position:
    """Killer: pieces 0 and 2 block square 14, piece 1 on 40; a lone seat-1 piece on 15
    and a seat-2 piece on 12.

    A 1 captures with piece 0 or 2 but breaks the block, leaving both exposed to
    the piece on 12 (balanced: 1 + 20 - 16 = 5); moving piece 1 keeps the block
    (1 + 10 = 11), the best plan if captures were not compulsory.
    """
    return position(
        KILLER,
        {
            0: [14, 40, 14, YARD],
            1: [progress_on(KILLER, 1, 15)] + [YARD] * 3,
            2: [progress_on(KILLER, 2, 12)] + [YARD] * 3,
        },
    )


def test_honest_balanced_must_capture_and_draws_between_the_capturers():
    steps, captures, skips = decide(KILLER, skip_position(), "balanced", [1], draws=[1])
    assert steps == ((2, 1),) and captures == 1 and not skips


def test_skipper_with_q_1_skips_without_a_draw():
    steps, captures, skips = decide(KILLER, skip_position(), "skipper:1", [1])
    assert steps == ((1, 1),) and captures == 0 and len(skips) == 1


def test_skipper_draws_whether_to_skip():
    steps, _, skips = decide(KILLER, skip_position(), "skipper:0.5", [1], draws=[0.3])
    assert steps == ((1, 1),) and len(skips) == 1  # 0.3 < 0.5: skips
    steps, _, skips = decide(KILLER, skip_position(), "skipper:0.5", [1], draws=[0.7, 0])
    assert steps == ((0, 1),) and not skips  # honest: draws between the two capturers


def test_skipper_q_0_never_skips():
    steps, _, skips = decide(KILLER, skip_position(), "skipper:0", [1], draws=[0])
    assert steps == ((0, 1),) and not skips


@pytest.mark.parametrize(("detect_skip", "draws", "caught"), [(1.0, [], 1), (0.0, [], 0)])
def test_puster_catches_a_skipper(detect_skip: float, draws: list, caught: int):
    """detect_skip=1: caught; the piece that could capture goes home (the most advanced
    of the candidates 0 and 2, both on 14: the lower index)."""
    rules = KILLER.replace(detect_skip=detect_skip)
    game = Game(rules, 0, policies=["skipper:1"] + ["random"] * 3, start=skip_position())
    game.stream = ScriptedStream(faces_to_script(rules.die_faces, [1]) + draws)
    game.play_turn(0)
    assert game.stream.exhausted()
    assert game.stats["skipped"][0] == 1 and game.stats["caught"][0] == caught
    expected = [YARD, 41, 14, YARD] if caught else [14, 41, 14, YARD]
    assert game.pos.progress[0] == expected


# --------------------------------------------------------- every policy obeys the rules
ALL_POLICIES = [*NAMED, "skipper:0.5", "skipper:1", "weights:lead=2,exposed=-1,capture=-3"]


@pytest.mark.parametrize("policy", ALL_POLICIES)
@pytest.mark.parametrize("preset", ["danish", "killer"])
def test_every_policy_obeys_the_rules(policy: str, preset: str):
    """The chosen option is a legal one; only a skipper may skip a forced capture."""
    rules = Rules.preset(preset)
    rng = random.Random(f"{policy} {preset}")  # str seeds are stable across runs
    skipper = parse_policy(policy).skip > 0
    skipped = 0
    for trial in range(100):
        pos = random_position(rules, rng)
        rolls = [rng.randrange(1, 7)]
        if rules.roll_then_move:
            rolls = [6] * rng.choice([0, 0, 1, 2]) + [rng.randrange(1, 6)]
        game = Game(rules, 11, trial, policies=[policy] * rules.players, start=pos)
        game.stream = Stream(11, trial)
        skips: list = []
        plan = game.decide(0, rolls, skips)
        # Compared by steps: the random fast path does not try its move for captures.
        best = {p.steps: p for p in best_plans(all_plans(rules, pos, 0, rolls))}
        legal = {p.steps for p in forced(rules, list(best.values()))}
        if plan.steps in legal:
            assert not skips
        else:
            chosen = best[plan.steps]
            assert skipper and not chosen.captures and len(skips) == 1
            skipped += 1
    if policy == "skipper:1" and rules.forced_capture:
        assert skipped > 0  # the sample really offered captures to skip


def test_policy_names_are_canonical_and_validated():
    assert resolve_policies("skipper:0.50", 2) == ("skipper:0.5", "skipper:0.5")
    assert parse_policy("weights: lead = 2 , capture=1").name == "weights:capture=1,lead=2"
    with pytest.raises(PolicyError, match="bad item"):
        parse_policy("weights:speed=3")
    with pytest.raises(PolicyError, match="unknown policy"):
        parse_policy("cautious")


def test_a_skipper_over_another_base() -> None:
    policy = parse_policy("skipper:0.25:aggressive")
    assert policy.name == "skipper:0.25:aggressive" and policy.skip == 0.25
    assert policy.weights == parse_policy("aggressive").weights
    assert parse_policy("skipper:1:balanced").name == "skipper:1"
    for bad, message in [
        ("skipper:1:random", "random has no best plan"),
        ("skipper:1:skipper:1", "cannot be a skipper"),
        ("skipper:1:nope", "its base: unknown policy 'nope'"),
    ]:
        with pytest.raises(PolicyError, match=message):
            parse_policy(bad)
