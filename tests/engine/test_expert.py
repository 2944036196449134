"""The expert (`ludosim.engine.expert`): its games replayed by the reference engine,
determinism, a search that leaves the game alone, and its policy names. The fictive
player, the same search on the game's own stream, is replayed and checked here too
(tests/engine/test_fictive.py has the rest)."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from ludosim.cli.app import app
from ludosim.reference import play_game
from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError, expert_base, parse_policy
from ludosim.run.replay import ReplayError, replay
from ludosim.run.simulate import kernel_game, kernel_game_choices, simulate

SEED = 11
# Few rollouts: the replay checks the choices, whatever made them.
EXPERT = "expert:2"
# The searching seats the replay and determinism checks play: the expert, and the
# fictive player (one rollout per option on the game's own stream).
SEARCHERS = [EXPERT, "fictive"]


def field(
    rules: Rules, expert_seat: int = 0, other: str = "tuned-app", searcher: str = EXPERT
) -> list[str]:
    return [searcher if s == expert_seat else other for s in range(rules.players)]


@pytest.mark.parametrize(
    ("rules", "other"),
    [
        (Rules.preset("app"), "tuned-app"),
        (Rules.preset("italian"), "tuned-italian"),
        (Rules.preset("danish"), "tuned-danish"),
        (Rules.preset("danish-globe"), "tuned-danish-globe"),
        (Rules.preset("maedn"), "tuned-maedn"),
        (Rules.preset("king"), "tuned-king"),
        # Forced captures: only the capturing options are offered; skippers meet the puster.
        (Rules.preset("app").replace(forced_capture=True), "skipper:0.5"),
        # Plan turns: an option is a whole plan of the turn's rolls.
        (Rules.preset("killer"), "tuned-killer"),
        (Rules.preset("killer"), "skipper:0.5"),
    ],
    ids=[
        "app",
        "italian",
        "danish",
        "danish-globe",
        "maedn",
        "king",
        "app-forced",
        "killer",
        "killer-skippers",
    ],
)
@pytest.mark.parametrize("searcher", SEARCHERS)
def test_the_reference_engine_replays_the_experts_choices_into_the_same_game(
    rules: Rules, other: str, searcher: str
) -> None:
    searched = 0
    for game in range(2):
        policies = field(rules, expert_seat=game % rules.players, other=other, searcher=searcher)
        row, final, choices = kernel_game_choices(rules, SEED, game, policies)
        ref_row, ref_final = replay(rules, SEED, game, policies, choices)
        assert ref_row == {k: row[k] for k in ref_row}
        assert ref_final == final
        searched += len(choices)
    assert searched > 0, "the expert never had a choice to search"


@pytest.mark.parametrize("preset", ["app", "killer"])
def test_a_replay_that_leaves_the_recorded_choices_fails(preset: str) -> None:
    rules = Rules.preset(preset)
    policies = field(rules)
    _, _, choices = kernel_game_choices(rules, SEED, 0, policies)
    wrong = [(options, (choice + 1) % options) for options, choice in choices]
    with pytest.raises(ReplayError):
        replay(rules, SEED, 0, policies, wrong)


# The batch runners compile on their own (about 40 s from a cold cache): make verify.
@pytest.mark.slow
@pytest.mark.parametrize("preset", ["app", "killer"])
@pytest.mark.parametrize("searcher", SEARCHERS)
def test_same_seed_same_games_with_one_or_two_threads(preset: str, searcher: str) -> None:
    rules = Rules.preset(preset)
    policies = field(rules, expert_seat=1, searcher=searcher)
    one = simulate(rules, 6, SEED, policies, threads=1)
    two = simulate(rules, 6, SEED, policies, threads=min(2, numba.config.NUMBA_NUM_THREADS))
    again = simulate(rules, 6, SEED, policies, threads=1, chunk_size=1)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, again)
    summary = simulate(rules, 6, SEED, policies, threads=1, summary=True)
    assert summary.seats["wins"].tolist() == [
        int((one["winner"] == s).sum()) for s in range(rules.players)
    ]


def test_a_search_leaves_the_game_and_its_stream_as_they_were() -> None:
    """The rollouts draw from their own stream and play on a position they put back."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.expert import clearly_better, offer_options, policy_option, search
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.rng import new_stream
    from ludosim.engine.state import (
        DUMMY,
        MOVES,
        PROGRESS,
        SEATBUF,
        XOPT,
        XV,
        XVALUE,
        X,
        expert_at,
        value_at,
    )
    from ludosim.engine.turn import free_play, roll

    rules = Rules.preset("app")
    lay = compile_layout(rules)
    start = np.array([[0, 5, 12, -1], [3, -1, -1, -1], [20, 30, -1, -1], [-1, -1, -1, -1]])
    w = new_work(
        compile_policies([parse_policy("tuned-app")] * 4), start, 0, ((8, 0), (0, 0), (0, 0))
    )
    reset_state(lay, w, True)
    stream = new_stream(np.uint64(SEED), np.uint64(0))
    scratch = np.zeros(2, dtype=np.uint64)
    free = bool(free_play(lay))
    # The turn's first roll and its options, as the turn asks the search for them.
    face = roll(lay, w, stream)
    options, pending, sixes = offer_options(lay, w, 0, face), 0, int(face == 6)
    assert options >= 2  # three pieces on the track: every face moves several
    game = w.copy()
    drawn = stream.copy()
    chosen = search(lay, w, 0, stream, scratch, free, options, face, pending, sixes, 1)
    assert 0 <= chosen < options
    assert stream.tolist() == drawn.tolist()  # the game's stream: not one more draw
    assert scratch[1] > 0  # the rollouts drew from theirs
    assert w[PROGRESS:DUMMY].tolist() == game[PROGRESS:DUMMY].tolist()
    assert w[SEATBUF:MOVES].tolist() == game[SEATBUF:MOVES].tolist()
    assert w[XOPT:XVALUE].tolist() == game[XOPT:XVALUE].tolist()
    assert w[expert_at(X.DECISIONS)] == 1
    # The base policy's option, or one whose rollouts beat it clearly.
    preferred = policy_option(lay, w, 0, options)
    total = w[value_at(chosen, XV.SUM)]
    assert chosen == preferred or (
        total > 0 and clearly_better(total, w[value_at(chosen, XV.SQUARES)], 8)
    )


def test_a_plan_decision_offers_the_reference_options_and_keeps_the_best_scored() -> None:
    """Killer: the options counted in engine order, the candidates the base policy's
    best, and a search that leaves the game and its stream alone."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.expert import compare_rollouts, list_candidates
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.rng import new_stream
    from ludosim.engine.state import (
        CH,
        DUMMY,
        MEMO_SLOTS,
        PLAN_CANDIDATES,
        PROGRESS,
        XP,
        X,
        candidate_at,
        candidate_step_at,
        expert_at,
        roll_at,
    )
    from ludosim.reference.features import score
    from ludosim.reference.outside import legal_options
    from ludosim.reference.plans import play_plan
    from ludosim.reference.position import Position

    rules = Rules.preset("killer")
    base = parse_policy("tuned-killer")
    lay = compile_layout(rules)
    start = [[3, 10, 30, -1], [8, 20, -1, -1], [25, 40, 45, -1], [14, -1, -1, -1]]
    pos = Position.from_progress(rules, start)
    w = new_work(compile_policies([base] * 4), np.array(start), MEMO_SLOTS, ((8, 6),))
    reset_state(lay, w, True)
    for rolls in ([4], [6, 2], [6, 6, 3]):
        for j, face in enumerate(rolls):
            w[roll_at(j)] = face
        count = list_candidates(lay, w, 0, len(rolls))
        options = legal_options(rules, pos, 0, list(rolls))
        assert count == len(options)
        scores = []
        for option in options:
            after = pos.copy()
            for _, _result in play_plan(rules, after, 0, option):
                pass
            scores.append(score(base.weights, pos, after, 0, rules))
        # Best score first, the earlier option first on equal scores.
        ranked = sorted(range(len(options)), key=lambda k: (-scores[k], k))
        kept = min(count, PLAN_CANDIDATES)
        assert [w[candidate_at(c, XP.INDEX)] for c in range(kept)] == ranked[:kept]
        for c in range(kept):
            steps = [
                (w[candidate_step_at(c, k, CH.PIECE)], w[candidate_step_at(c, k, CH.FACE)])
                for k in range(w[candidate_at(c, XP.STEPS)])
            ]
            assert steps == list(options[ranked[c]].steps)
    assert count > PLAN_CANDIDATES  # the search below compares candidates, not every option
    stream = new_stream(np.uint64(SEED), np.uint64(0))
    scratch = np.zeros(2, dtype=np.uint64)
    game = w.copy()
    drawn = stream.copy()
    kept = min(count, PLAN_CANDIDATES)
    chosen = compare_rollouts(lay, w, 0, stream, scratch, False, True, kept, 0, 0, 0, 0, 1)
    assert 0 <= chosen < kept
    assert stream.tolist() == drawn.tolist()
    assert scratch[1] > 0
    assert w[PROGRESS:DUMMY].tolist() == game[PROGRESS:DUMMY].tolist()
    assert w[expert_at(X.DECISIONS)] == 1


def test_clearly_better_is_two_standard_errors_above_zero() -> None:
    from ludosim.engine.expert import clearly_better

    # Differences 1, 1, 1, 1: no spread, clearly above 0; 2, 0, 2, 0: mean 1, sd 1.15.
    assert clearly_better(4, 4, 4)
    assert not clearly_better(4, 8, 4)  # t = 1.73
    assert clearly_better(40, 80, 40)  # the same differences, ten times as many: t = 6.2
    assert not clearly_better(0, 0, 8) and not clearly_better(-4, 4, 4)
    assert not clearly_better(3, 9, 1)  # one rollout has no spread to judge


def test_decisions_with_one_option_are_not_searched() -> None:
    """With one piece a seat never has two options: no search, the base policy's game."""
    rules = Rules.preset("app").replace(pieces=1)
    row, final, choices = kernel_game_choices(rules, SEED, 3, field(rules))
    assert choices == []
    base = ["balanced", *field(rules)[1:]]  # the expert's base off the presets
    assert kernel_game(rules, SEED, 3, base) == (row, final)


def test_the_base_policy_is_the_presets_tuned_one_else_balanced() -> None:
    assert expert_base(Rules.preset("app")).name == "tuned-app"
    assert expert_base(Rules.preset("maedn")).name == "tuned-maedn"
    assert expert_base(Rules.preset("app").replace(pieces=2)).name == "balanced"


@pytest.mark.parametrize(
    ("name", "canonical", "rollouts", "horizon"),
    [
        ("expert", "expert", 32, 24),
        ("expert:32", "expert", 32, 24),
        ("expert:32:24", "expert", 32, 24),
        (" expert:64 ", "expert:64:24", 64, 24),
        ("expert:8:0", "expert:8:0", 8, 0),
    ],
)
def test_expert_names(name: str, canonical: str, rollouts: int, horizon: int) -> None:
    policy = parse_policy(name)
    assert (policy.name, policy.rollouts, policy.horizon) == (canonical, rollouts, horizon)
    assert policy.is_expert and not parse_policy("tuned-app").is_expert


@pytest.mark.parametrize("name", ["expert:0", "expert:many", "expert:5000", "expert:4:-1"])
def test_a_bad_expert_spelling_is_one_clear_line(name: str) -> None:
    with pytest.raises(PolicyError, match=r"must be an integer in .*write expert, expert:R"):
        parse_policy(name)
    result = CliRunner().invoke(
        app, ["simulate", "--preset", "app", "--games", "4", "--seed", "1", "--policy", name]
    )
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "must be an integer in" in result.stderr


def test_the_expert_is_refused_where_it_cannot_play() -> None:
    with pytest.raises(PolicyError, match="compiled kernel only"):
        play_game(Rules.preset("app"), SEED, policies="expert")
