"""Position notation, both engines playing on from a parsed position, and `ludosim whatif`."""

from __future__ import annotations

import json
import random

import pytest
from scenario_helpers import random_position
from typer.testing import CliRunner

from ludosim import Rules, play, presets, simulate
from ludosim.cli.app import app
from ludosim.reference import Game
from ludosim.results.stats import diff_proportions, z_for
from ludosim.run.notation import GamePosition, PositionError, format_position, parse_position
from ludosim.run.simulate import kernel_game
from ludosim.studies.whatif import whatif

APP = Rules.preset("app")


def transcript_position(rules: Rules, seed: int, turn: int) -> str:
    """The position printed before turn `turn` of game 0 of `seed` (`play --positions`)."""
    lines = play(rules, seed, positions=True).transcript
    for i, line in enumerate(lines):
        if line.startswith(f"turn {turn}: "):
            return lines[i + 1].removeprefix("  position ")
    raise AssertionError(f"game 0 of seed {seed} has no turn {turn}")


# ------------------------------------------------------------------ the notation
def test_notation_of_a_hand_built_position() -> None:
    # app: track 0..50, home column 51..55 (H1..H5), goal 56.
    text = "2:12,Y,Y,Y/G,H3,40,Y/Y,Y,Y,Y/5,5,Y,H1"
    parsed = parse_position(text, APP)
    assert parsed == GamePosition(
        ((12, -1, -1, -1), (56, 53, 40, -1), (-1, -1, -1, -1), (5, 5, -1, 51)), 2
    )
    assert format_position(APP, parsed.progress, parsed.to_move) == text


def test_spaces_and_lower_case_are_read() -> None:
    assert parse_position(" 1: y,y,g,h2 / 0,Y,Y,Y / Y,Y,Y,Y / 7,Y,Y,Y ", APP) == parse_position(
        "1:Y,Y,G,H2/0,Y,Y,Y/Y,Y,Y,Y/7,Y,Y,Y", APP
    )


@pytest.mark.parametrize("preset", presets())
def test_random_positions_round_trip(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(5)
    for _ in range(200):
        rows = random_position(rules, rng).progress
        if any(all(p == rules.goal for p in row) for row in rows):
            continue  # a finished seat is no position to play on from
        mover = rng.randrange(rules.players)
        text = format_position(rules, rows, mover)
        parsed = parse_position(text, rules)
        assert parsed.rows() == rows and parsed.to_move == mover
        assert format_position(rules, parsed.progress, parsed.to_move) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "has no seat to move; write MOVER:SEAT0/SEAT1/"),
        ("0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "position has 3 seats; these rules have 4 players"),
        ("4:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "seat to move is '4'; allowed: a seat 0..3"),
        ("x:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "seat to move is 'X'; allowed: a seat 0..3"),
        ("0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y,Y/Y,Y,Y,Y", "seat 2 has 5 pieces; these rules have 4 per"),
        ("0:Y,Y,Y,51/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "seat 0 piece 3 is '51'; allowed: Y (yard), 0..50"),
        (
            "0:Y,H6,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y",
            "piece 1 is 'H6'; allowed: Y (yard), 0..50 (track), H1..H5",
        ),
        ("0:Y,-1,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "seat 0 piece 1 is '-1'; allowed"),
        ("0:Y,Y,Y,Y/G,G,G,G/Y,Y,Y,Y/Y,Y,Y,Y", "seat 1 has every piece in the goal"),
    ],
)
def test_bad_notation_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(PositionError) as info:
        parse_position(text, APP)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ both engines
# A mid-game position of each preset, taken from its `play --positions` transcript.
MID_GAME = {"app": 30, "italian": 30, "danish": 30, "danish-globe": 30, "killer": 12}


@pytest.mark.parametrize("preset", presets())
def test_engines_agree_from_a_parsed_position(preset: str) -> None:
    rules = Rules.preset(preset)
    position = parse_position(transcript_position(rules, 7, MID_GAME.get(preset, 30)), rules)
    assert any(p != -1 for row in position.progress for p in row), "a position with pieces out"
    games = 6 if preset == "killer" else 25
    df = simulate(rules, games=games, seed=11, start=position)
    assert (df["first"] == position.to_move).all()
    start = position.reference(rules)
    for game, kernel in enumerate(df.to_dict("records")):
        ref = Game(rules, 11, game, start=start, record=False, start_seat=position.to_move).play()
        assert ref.row() == kernel, game
        _, final = kernel_game(rules, 11, game, start=position)
        assert final == ref.final, game


def test_play_from_a_position_is_the_kernel_game() -> None:
    position = parse_position(transcript_position(APP, 7, 30), APP)
    result = play(APP, 3, game=4, start=position)
    assert (
        result.row()
        == simulate(APP, games=1, seed=3, first_game=4, start=position).iloc[0].to_dict()
    )
    assert result.first == position.to_move


# ------------------------------------------------------------------ whatif
def test_whatif_from_the_start_is_simulate_with_that_seat_first() -> None:
    # Seat 0 first and no roll-off: the same games, draw for draw, as every piece in the yard.
    rules = APP.replace(first_player="seat0")
    result = whatif(rules, "0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", games=3000, seed=4)
    df = simulate(rules, games=3000, seed=4)
    assert result.wins == tuple(int((df["winner"] == s).sum()) for s in range(4))


def test_whatif_from_the_start_reproduces_simulate_win_rates() -> None:
    # Independent runs (other seeds, and the roll-off rules with seat 0 put first):
    # each seat's difference in win rate must lie inside its Newcombe interval at
    # the 95% level with a Bonferroni correction for the four seats (z = 2.50).
    games = 20_000
    result = whatif(APP, "0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", games=games, seed=21)
    df = simulate(APP.replace(first_player="seat0"), games=games, seed=22)
    z = z_for(0.05 / 4)
    for seat in range(4):
        low, high = result.win_chance(seat)[1:]
        assert low < result.win_chance(seat)[0] < high
        _, d_low, d_high = diff_proportions(
            result.wins[seat], games, int((df["winner"] == seat).sum()), games, z
        )
        assert d_low < 0 < d_high, (seat, d_low, d_high)


def test_whatif_counts_are_the_simulate_rows() -> None:
    position = parse_position(transcript_position(APP, 7, 40), APP)
    result = whatif(APP, position, games=500, seed=9)
    df = simulate(APP, games=500, seed=9, start=position.rows(), start_seat=position.to_move)
    assert result.wins == tuple(int((df["winner"] == s).sum()) for s in range(4))
    orders = df[[f"place_{s}" for s in range(4)]].apply(
        lambda row: tuple(sorted(range(4), key=lambda s: row[f"place_{s}"])), axis=1
    )
    counts = orders.value_counts()
    assert result.order_games == counts.max()
    assert result.order in set(counts[counts == counts.max()].index)


def test_whatif_cli_on_a_position_copied_from_play() -> None:
    runner = CliRunner()
    played = runner.invoke(app, ["play", "--preset", "app", "--seed", "7", "--positions"])
    assert played.exit_code == 0
    lines = played.output.splitlines()
    heading = lines.index(next(line for line in lines if line.startswith("turn 40: ")))
    text = lines[heading + 1].split()[1]
    out = runner.invoke(
        app,
        ["whatif", text, "--preset", "app", "--games", "800", "--seed", "5", "-q",
         "--format", "json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    estimates = json.loads(out.stdout)["estimates"]
    counts = {e["of"]: e["count"] for e in estimates if e["measure"] == "win chance"}
    df = simulate(APP, games=800, seed=5, start=parse_position(text, APP))
    assert counts == {f"seat {s}": int((df["winner"] == s).sum()) for s in range(4)}
    (order,) = [e for e in estimates if e["measure"] == "most likely finishing order"]
    assert order["of"].startswith("seat ")


def test_whatif_cli_bad_notation_exits_2() -> None:
    out = CliRunner().invoke(
        app, ["whatif", "0:Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "--preset", "app", "--seed", "1"]
    )
    assert out.exit_code == 2
    assert out.stdout == ""
    assert out.stderr.splitlines() == [
        "error: position: seat 0 has 3 pieces; these rules have 4 per seat "
        "(pieces are separated by ,)"
    ]
