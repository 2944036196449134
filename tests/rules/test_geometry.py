"""The board as data: squares per arm, the start square's offset, and what follows from them.

docs/rules.md section 1: `arm_length` squares on each of `sides` arms, every
start square at offset `start_offset` of its arm, globes and stars as offsets
inside every arm. Scenario tests on hand-made positions check both engines;
the agreement tests play whole games on boards of 7, 10 and 17 squares per
arm, on 4 and 6 sides, in both engines.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import full_or
from scenario_helpers import make, move_of
from test_kernel_agreement import assert_same_games

from ludosim.engine import compile_layout, new_work
from ludosim.engine.moves import apply_move, legal_moves
from ludosim.engine.optionscore import MASK_TRACK
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state
from ludosim.engine.state import (
    DUMMY,
    PROGRESS,
    YES,
    M,
    move_at,
)
from ludosim.reference import play_move
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy
from ludosim.rules.toggles import MAX_ARM, MIN_ARM

# A board of ten squares per arm (40 track squares) without special squares.
TEN = Rules.preset("app").replace(arm_length=10)


# ----------------------------------------------------------- derived quantities
@pytest.mark.parametrize(("sides", "arm"), [(4, MIN_ARM), (4, 10), (6, 10), (6, MAX_ARM)])
def test_track_length_and_entry_follow_the_arms(sides: int, arm: int) -> None:
    """docs/rules.md section 1: the track has arm_length * sides squares; the default entry is
    two squares short of the lap, and a changed board keeps the preset's distance to the lap."""
    rules = Rules(sides=sides, players=2, arm_length=arm, globe_offsets=(0,), star_offsets=(3,))
    assert rules.track_len == sides * arm
    assert rules.entry == sides * arm - 2
    assert rules.goal == rules.entry + rules.home_len + 1
    killer = Rules.preset("killer").replace(
        arm_length=arm, sides=sides, globe_offsets=(0,), star_offsets=(3,)
    )
    assert killer.entry == killer.track_len  # Killer's full lap back onto the start square
    board = Board.from_rules(rules)
    assert board.safe_square.shape == board.start_owner.shape == (sides * arm,)


def test_start_squares_owners_and_safe_squares_follow_the_offsets() -> None:
    """docs/rules.md section 1: seat i's start square is arm_length * arm + start_offset; start
    squares, globes and stars repeat on every arm at their offsets."""
    rules = Rules.preset("italian").replace(
        arm_length=10, start_offset=2, star_offsets=(7,), globe_offsets=(4,), players=2
    )
    board = Board.from_rules(rules)
    assert board.arms == (0, 2)
    assert [board.start_square(s) for s in range(2)] == [2, 22]
    assert np.flatnonzero(board.start_owner >= 0).tolist() == [2, 22]
    # Italian: starts and stars are safe, globes are not.
    assert np.flatnonzero(board.safe_square).tolist() == [2, 7, 12, 17, 22, 27, 32, 37]
    # Track progress counts from the own start square: the star at offset 7 is progress 5.
    assert [p for p in range(rules.entry + 1) if board.is_star(p)] == [5, 15, 25, 35]
    assert [p for p in range(rules.entry + 1) if board.is_globe(p)] == [2, 12, 22, 32]
    assert board.square(1, 0) == 22 and board.square(1, 19) == 1  # seat 1 wraps past square 39


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"arm_length": 10, "star_offsets": (4, 11)}, "star_offsets/arm_length"),
        ({"arm_length": 8, "globe_offsets": (0, 8)}, "globe_offsets/arm_length"),
        ({"arm_length": 9, "start_offset": 9}, "start_offset/arm_length"),
        ({"arm_length": 10, "entry": 29}, "entry/sides"),
    ],
)
def test_offsets_outside_the_arm_are_refused_in_one_line(changes: dict, field: str) -> None:
    """docs/rules.md section 1: offsets lie inside an arm, 0 .. arm_length - 1; entry in the last
    arm of the lap. The error names both fields and the allowed values."""
    base = {"globe_offsets": (0,), "star_offsets": (3,)}
    with pytest.raises(RulesError) as err:
        Rules(**{**base, **changes})
    message = str(err.value)
    assert message.startswith(field + ":") and "\n" not in message
    assert "arm_length=" in message


@pytest.mark.parametrize("value", [MIN_ARM - 1, MAX_ARM + 1])
def test_arm_length_out_of_range_is_refused(value: int) -> None:
    message = f"arm_length={value} is out of range; allowed values: 7..17"
    with pytest.raises(RulesError, match=message):
        Rules(arm_length=value)


def test_default_geometry_changes_no_hash() -> None:
    """The geometry toggles at their defaults leave every rules hash as it was."""
    for name in ("danish", "killer"):
        rules = Rules.preset(name)
        assert rules.replace(arm_length=13, start_offset=0).hash() == rules.hash()
    assert "arm_length" not in Rules.preset("app").changes()


# ------------------------------------------------------- moves on a 10-square arm
def _kernel(rules: Rules, rows: list[list[int]], seat: int, face: int) -> tuple:
    """(targets by piece, the progress rows after playing the first piece's move) in the kernel."""
    lay = compile_layout(rules)
    w = new_work(compile_policies([parse_policy("random")] * rules.players), np.array(rows))
    reset_state(lay, w, True)
    k = legal_moves(lay, w, seat, face)
    targets = {int(w[move_at(j, M.PIECE)]): int(w[move_at(j, M.TARGET)]) for j in range(k)}
    piece, target, flags = (w[move_at(0, f)] for f in (M.PIECE, M.TARGET, M.FLAGS))
    apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
    after = w[PROGRESS : PROGRESS + 4 * rules.players].reshape(rules.players, 4)
    return targets, after[:, : rules.pieces].tolist()


def test_a_move_around_a_ten_square_arm_board_lands_where_the_rules_say() -> None:
    """docs/rules.md section 1, on 40 squares: seat 1 starts on square 10; its piece at progress
    27 stands on square 37 and a 5 takes it past square 39 onto square 2, where it captures
    seat 0's lone piece at progress 2. Both engines agree on the target and the result."""
    rows = [[2, YARD, YARD, YARD], [27, YARD, YARD, YARD], [YARD] * 4, [YARD] * 4]
    pos = make(TEN, dict(enumerate(rows)))
    board = pos.board
    assert board.start_square(1) == 10 and board.square(1, 27) == 37
    move = move_of(TEN, pos, 1, 5, 0)
    assert move is not None and move.target == 32
    assert board.square(1, 32) == 2 == board.square(0, 2)
    targets, after = _kernel(TEN, rows, 1, 5)
    assert targets == {0: 32}
    result = play_move(TEN, pos, move)
    assert result.captures == 1
    assert pos.progress[:2] == after[:2] == [[YARD] * 4, [32, YARD, YARD, YARD]]


def test_a_move_past_the_entry_of_a_ten_square_arm_board_enters_the_home_column() -> None:
    """docs/rules.md section 1: on 40 squares the app board's entry is 38, so a 4 from progress
    36 ends on the second home-column square (progress 40), and a 4 from progress 41
    overshoots the goal (44) under the exact finish: no move."""
    rows = [[36, 41, YARD, YARD]] + [[YARD] * 4] * 3
    pos = make(TEN, dict(enumerate(rows)))
    assert (TEN.entry, TEN.goal) == (38, 44)
    move = move_of(TEN, pos, 0, 4, 0)
    assert move is not None and move.target == 40 and pos.board.in_home_column(40)
    assert move_of(TEN, pos, 0, 4, 1) is None
    targets, after = _kernel(TEN, rows, 0, 4)
    assert targets == {0: 40} and after[0][:2] == [40, 41]


# --------------------------------------------------------- whole games, both engines
# Boards of 7, 10 and 17 squares per arm on 4 and 6 sides, with the special squares
# moved inside the shorter arms and the start square off offset 0 on some.
GEOMETRIES = {
    "danish-7": ("danish", {"arm_length": 7, "globe_offsets": (0, 4), "star_offsets": (2, 6)}),
    "killer-10-offset": (
        "killer",
        {"arm_length": 10, "globe_offsets": (0, 6), "star_offsets": (3, 8), "start_offset": 2},
    ),
    "app-17": ("app", {"arm_length": 17}),
    "italian-6x17": ("italian", {"sides": 6, "players": 6, "arm_length": 17,
                                 "star_offsets": (8, 14)}),
    "danish-globe-6x10": (
        "danish-globe",
        {"sides": 6, "players": 5, "arm_length": 10, "globe_offsets": (0, 7),
         "star_offsets": (3, 9), "start_offset": 1},
    ),
    "killer-6x7": ("killer", {"sides": 6, "players": 3, "arm_length": 7,
                              "globe_offsets": (0, 4), "star_offsets": (2, 5)}),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_kernel_agrees_with_reference_on_other_geometries(name: str) -> None:
    preset, changes = GEOMETRIES[name]
    rules = Rules.preset(preset).replace(**changes)
    # make verify plays 250 Killer games and 1,000 of the others; the everyday suite 12 and 50.
    games = full_or(250, 12) if preset == "killer" else full_or(1000, 50)
    assert_same_games(rules, range(games), name)


@pytest.mark.parametrize("preset", ["danish", "killer"])
def test_scoring_policies_agree_on_six_arms_of_seventeen_squares(preset: str) -> None:
    """A 102-square track: occupancy masks cover squares 0-63 only, so scoring seats try
    every option instead of predicting it; both engines still play the same games."""
    rules = Rules.preset(preset).replace(sides=6, players=6, arm_length=17)
    assert rules.track_len > MASK_TRACK
    policies = ["balanced", "defensive", "runner", "aggressive", "balanced", "random"]
    games = full_or(80, 4) if preset == "killer" else full_or(250, 12)
    assert_same_games(rules, range(games), f"{preset} on six arms of 17", policies)
