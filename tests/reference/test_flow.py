"""Game-flow counters (docs/flow.md): the hand-checked example, the tie rule, on and off."""

from __future__ import annotations

import pandas as pd
import pytest

from ludosim import Rules, play, presets, simulate
from ludosim.engine.state import SNAP_CAP
from ludosim.reference import play_game
from ludosim.reference.flow import SNAP_CAP as reference_cap
from ludosim.reference.flow import Flow, next_leader, seat_totals
from ludosim.results import schema
from ludosim.run.notation import parse_position
from ludosim.run.simulate import SimulationError, kernel_game, play_snapshots
from ludosim.studies.leads import race_length

# The example game of docs/flow.md: three seats of one piece each under app rules,
# played on from 0:38/44/41 with seed 4; seat 1 wins after 14 turns.
EXAMPLE_RULES = Rules.preset("app").replace(players=3, pieces=1)
EXAMPLE = parse_position("0:38/44/41", EXAMPLE_RULES)
EXAMPLE_FLOW = {
    "lead_changes": 3,
    "decided_at": 11,
    "max_deficit": 5,
    "turns_last": 2,
    "turns_behind": 7,
    "drama": 22 / 7,
    "mid_at": 0,  # seat 1's 45 is already more than half of 57 at the start
    "last_at_mid": 0,  # seat 0 (39) was last then, not the winner
}


def test_the_example_game_has_the_hand_checked_counters() -> None:
    ref = play_game(
        EXAMPLE_RULES, 4, 0, start=EXAMPLE.reference(EXAMPLE_RULES), start_seat=0, flow=True
    )
    assert (ref.winner, ref.turns) == (1, 14)
    assert ref.flow == EXAMPLE_FLOW
    row = simulate(EXAMPLE_RULES, games=1, seed=4, start=EXAMPLE, flow=True).iloc[0]
    assert {k: row[k] for k in EXAMPLE_FLOW} == EXAMPLE_FLOW


def test_the_example_transcript_is_the_one_in_the_docs() -> None:
    lines = play(EXAMPLE_RULES, 4, start=EXAMPLE, positions=True).transcript
    positions = [line.split()[1] for line in lines if line.startswith("  position ")]
    assert positions[:15] == [
        "0:38/44/41", "1:43/44/41", "2:43/47/41", "0:43/47/42", "1:H2/47/42",
        "2:H2/49/42", "0:H2/49/47", "1:H2/49/47", "2:H2/50/47", "0:H2/50/H3",
        "1:H2/50/H3", "2:H2/H5/H3", "0:H2/H5/H4", "1:H3/H5/H4", "2:H3/G/H4",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("totals", "before", "leader"),
    [
        ([3, 5, 4], -1, 1),  # one seat has the most
        ([0, 0, 0], -1, -1),  # nobody leads while nobody has led
        ([5, 5, 1], 1, 1),  # the leader keeps the lead on a tie
        ([5, 5, 1], 2, 0),  # else the first tied seat in seat order
        ([1, 5, 5], 0, 1),
    ],
)
def test_the_tie_rule(totals: list[int], before: int, leader: int) -> None:
    assert next_leader(totals, before) == leader


def test_counters_on_hand_built_boundaries() -> None:
    # Two seats of one piece, a race of 10 (goal 9); totals are progress + 1:
    # (1, 1), (4, 1), (4, 6), (4, 9); a snapshot every 2 boundaries, one kept at most.
    flow = Flow(2, full=10, every=2, cap=1)
    for progress in ([[0], [0]], [[3], [0]], [[3], [5]], [[3], [8]]):
        flow.boundary(progress)
    assert flow.columns(1) == {
        "lead_changes": 1,  # seat 0 takes the lead at boundary 1, seat 1 at 2
        "decided_at": 2,  # seat 1 leads from boundary 2 on
        "max_deficit": 3,  # 4 - 1 at boundary 1
        "turns_last": 1,  # boundary 1 (at 0 both are level)
        "turns_behind": 1,  # only boundary 1: at 0 nobody led
        "drama": 3.0,
        "mid_at": 2,  # the first boundary with a total of at least half the race (6 >= 5)
        "last_at_mid": 0,  # seat 0 was last there
    }
    assert flow.columns(0)["last_at_mid"] == 1
    assert flow.snapshots == [(4, 6)]  # boundary 2; boundary 4 would pass the cap
    assert flow.columns(-1)["decided_at"] == -1 and flow.columns(-1)["drama"] == -1.0
    assert flow.columns(-1)["mid_at"] == -1 and flow.columns(-1)["last_at_mid"] == -1


def test_flow_columns_change_no_game() -> None:
    rules = Rules.preset("italian")
    off = simulate(rules, games=200, seed=2)
    on = simulate(rules, games=200, seed=2, flow=True)
    assert list(on.columns) == list(off.columns) + list(schema.FLOW_COLUMNS)
    pd.testing.assert_frame_equal(on[off.columns], off)
    assert (on["decided_at"] <= on["turns"]).all()
    assert (on["turns_behind"] <= on["turns"] + 1).all()


# A few games of every preset with snapshots every 3 turns: the kernel's single-game
# path and the reference agree on every column and snapshot, and the batch path
# (`play_snapshots`) on the rows of `simulate(flow=True)` and the same snapshots.
SNAPSHOT_GAMES = {name: 3 if name == "killer" else 20 for name in presets()}


@pytest.mark.parametrize("preset", presets())
def test_snapshots_agree_in_both_engines(preset: str) -> None:
    rules = Rules.preset(preset)
    games = SNAPSHOT_GAMES[preset]
    # Random players: the flow kernel the per-preset agreement check compiles anyway.
    rows, snaps = play_snapshots(rules, games, 9, 3)
    pd.testing.assert_frame_equal(rows, simulate(rules, games, 9, flow=True))
    for g in range(games):
        kernel, _ = kernel_game(rules, 9, g, flow=True, every=3)
        ref = play_game(rules, 9, g, record=False, flow=True, every=3)
        assert kernel == ref.row(), f"{preset} game {g}"
        taken = [tuple(int(t) for t in snap) for snap in snaps[g] if snap[0] >= 0]
        assert taken == kernel["snapshots"], f"{preset} game {g}"
        assert len(taken) == min(SNAP_CAP, ref.turns // 3)


def test_snapshot_caps_match() -> None:
    assert SNAP_CAP == reference_cap


def test_snapshots_need_a_positive_interval() -> None:
    for bad in (0, -2, 1.5, True):
        with pytest.raises(SimulationError, match="every must be a whole number of turns"):
            play_snapshots(EXAMPLE_RULES, 10, 1, bad)


def test_flow_needs_per_game_rows() -> None:
    with pytest.raises(SimulationError, match="flow=True counts game-flow columns"):
        simulate(EXAMPLE_RULES, games=10, seed=1, flow=True, summary=True)
    with pytest.raises(SimulationError, match="flow must be True or False"):
        simulate(EXAMPLE_RULES, games=10, seed=1, flow="yes")


def test_quick_wins_count_the_pieces_a_seat_needs() -> None:
    """Under `win_pieces = 2` a seat's total is its two most advanced pieces: a third piece
    far along is no part of a race of two pieces, and half that race is mid-game."""
    progress = [[40, 30, 20, -1], [35, 35, -1, -1]]
    assert seat_totals(progress) == [93, 72]
    assert seat_totals(progress, 2) == [72, 72]
    quick = Rules.preset("king").replace(win_pieces=2)
    assert race_length(quick) == 2 * 57 == race_length(quick.replace(win_pieces=0)) // 2
    for g in range(12):
        kernel, _ = kernel_game(quick, 5, g, flow=True, every=4)
        ref = play_game(quick, 5, g, record=False, flow=True, every=4)
        assert kernel == ref.row(), f"game {g}"
        # The mid-game boundary is the first at which a seat's two best pieces ran 57.
        snaps = kernel["snapshots"]
        before = [s for k, s in enumerate(snaps) if 4 * (k + 1) < kernel["mid_at"]]
        assert all(2 * max(s) < race_length(quick) for s in before), f"game {g}"
