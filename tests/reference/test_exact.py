"""The exact solo-race solver (`ludosim.reference.exact`): closed forms, the rules, the engines.

Three kinds of checks:

1. **Closed forms and hand chains** for rule sets simple enough to work out on
   paper (stated in each docstring).
2. **The solver's moves against the reference engine's**: every solo move the
   solver generates (and every Killer plan distribution) is compared with
   `ludosim.reference.moves` / `ludosim.reference.plans` on many positions,
   so the chain is built from the same rules the engine plays.
3. **Agreement with simulated games**: for every preset played solo, N seeded
   reference games; the simulated mean of `turns` must lie within 3 standard
   errors of the exact mean (SE = exact sd / sqrt(N), so about 0.3% of honest
   runs fail; the seeds are fixed), and the turns histogram must pass a
   chi-square goodness-of-fit test at level 0.001 (bins merged until every
   expected count is >= 5; p-value from `ludosim.results.stats.chi2_sf`, the exact
   regularised incomplete gamma function). `_check_agreement` is written to
   be reused for the compiled kernel (`ludosim.run.simulate.simulate`).
"""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import VERIFY, full_or

from ludosim.reference.exact import (
    YARD,
    ExactResult,
    _Plans,
    _pos,
    _SoloGame,
    _state,
    format_exact,
    solve,
    solve_preset,
)
from ludosim.reference.game import play_game
from ludosim.reference.moves import legal_moves, try_move
from ludosim.reference.plans import all_plans, best_plans
from ludosim.reference.position import Position
from ludosim.results.stats import chi2_sf
from ludosim.rules.errors import LudosimError, RulesError
from ludosim.rules.model import Rules

PRESETS = ("app", "italian", "danish", "danish-globe", "killer", "maedn", "maedn-2006", "king")

CHI2_LEVEL = 1e-3
Z_LIMIT = 3.0


# ======================================================================= helpers
def _bins(pmf: np.ndarray, n: int, min_expected: float = 5.0) -> list[tuple[int, int]]:
    """Half-open value ranges [lo, hi) whose expected counts are each >= min_expected.

    Values are merged left to right; the first bin starts at 0 and the last is
    open-ended (it takes the whole upper tail, beyond the pmf's cutoff too).
    """
    edges: list[tuple[int, int]] = []
    lo, acc = 0, 0.0
    for t, p in enumerate(pmf):
        acc += p * n
        if acc >= min_expected:
            edges.append((lo, t + 1))
            lo, acc = t + 1, 0.0
    if not edges:
        return [(0, 10**9)]
    # The remainder (expected < 5) joins the last bin, which becomes open-ended.
    edges[-1] = (edges[-1][0], 10**9)
    return edges


def _chi_square(pmf: np.ndarray, values: np.ndarray) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of `values` against `pmf`."""
    n = len(values)
    stat = 0.0
    bins = _bins(pmf, n)
    for lo, hi in bins:
        expected = n * float(pmf[lo:hi].sum())
        if hi >= len(pmf):  # open-ended last bin: everything from lo on
            expected = n * (1.0 - float(pmf[:lo].sum()))
        observed = int(((values >= lo) & (values < hi)).sum())
        stat += (observed - expected) ** 2 / expected
    dof = len(bins) - 1
    return stat, dof, chi2_sf(stat, dof) if dof > 0 else 1.0


def _check_agreement(
    exact: ExactResult, turns: np.ndarray, rolls: np.ndarray | None = None
) -> dict[str, float]:
    """Assert simulated `turns` (and `rolls`) agree with the exact result.

    Means within Z_LIMIT standard errors (SE from the exact variance) and the
    turns histogram passing a chi-square test at CHI2_LEVEL. Returns the
    numbers for reporting. Works for any engine's output arrays.
    """
    turns = np.asarray(turns, dtype=np.int64)
    n = len(turns)
    se = math.sqrt(exact.var_turns / n)
    z = (float(turns.mean()) - exact.mean_turns) / se
    assert abs(z) < Z_LIMIT, f"mean turns {turns.mean():.4f} vs exact {exact.mean_turns:.4f}"
    stat, dof, p = _chi_square(exact.turns_pmf, turns)
    assert p > CHI2_LEVEL, f"chi-square {stat:.1f} on {dof} dof, p = {p:.2e}"
    out = {"z_turns": z, "chi2": stat, "dof": dof, "p": p}
    if rolls is not None:
        rolls = np.asarray(rolls, dtype=np.int64)
        se_r = math.sqrt(exact.var_rolls / n)
        z_r = (float(rolls.mean()) - exact.mean_rolls) / se_r
        assert abs(z_r) < Z_LIMIT, f"mean rolls {rolls.mean():.4f} vs exact {exact.mean_rolls:.4f}"
        stat_r, dof_r, p_r = _chi_square(exact.rolls_pmf, rolls)
        assert p_r > CHI2_LEVEL, f"rolls chi-square {stat_r:.1f} on {dof_r} dof, p = {p_r:.2e}"
        out.update(z_rolls=z_r, p_rolls=p_r)
    return out


def _solo(name: str, **changes: object) -> Rules:
    return Rules.preset(name).replace(players=1, **changes)


# ==================================================================== the API
def test_refuses_more_than_one_player_and_too_many_pieces() -> None:
    with pytest.raises(RulesError, match="players"):
        solve(Rules.preset("danish"))
    with pytest.raises(RulesError, match=r"pieces.*1\.\.2"):
        solve(_solo("danish"), pieces=3)
    with pytest.raises(RulesError, match="pieces"):
        solve(_solo("danish", pieces=4))
    with pytest.raises(LudosimError):
        solve_preset("no-such-preset")


@pytest.mark.parametrize("name", PRESETS)
def test_pmfs_are_consistent_with_the_exact_moments(name: str) -> None:
    """The pmfs hold all but `tail_mass`, and their moments match the linear solves."""
    res = solve_preset(name, pieces=1)
    assert res.tail_mass < 1e-11
    assert abs(res.turns_pmf.sum() - 1.0) < 1e-11
    assert abs(res.rolls_pmf.sum() - 1.0) < 1e-11
    t = np.arange(len(res.turns_pmf))
    r = np.arange(len(res.rolls_pmf))
    assert (t * res.turns_pmf).sum() == pytest.approx(res.mean_turns, rel=1e-9)
    assert (r * res.rolls_pmf).sum() == pytest.approx(res.mean_rolls, rel=1e-9)
    var_t = (t * t * res.turns_pmf).sum() - res.mean_turns**2
    assert var_t == pytest.approx(res.var_turns, rel=1e-7)
    assert res.turns_pmf[0] == 0.0 and res.rolls_pmf[0] == 0.0
    # Every turn rolls at least once.
    assert res.mean_rolls >= res.mean_turns
    text = format_exact(res)
    assert name in text and "turns" in text and "rolls" in text


# ============================================================= closed forms
def _plain(start_attempts: int, **changes: object) -> Rules:
    """One piece, d6, no bonus rolls at all, exact finish: one roll per turn once entered."""
    return _solo(
        "app",
        pieces=1,
        start_attempts=start_attempts,
        bonus_on_six="never",
        six_limit=0,
        start_capacity=0,
        **changes,
    )


def test_entering_closed_forms_one_try_versus_three() -> None:
    """Turns and rolls spent entering, by hand.

    With no bonus rolls, once the piece is out the rest of the race is the
    same whatever `start_attempts` is, so differences isolate entering:

    - one try per turn: entering takes T1 ~ Geometric(p1 = 1/6) turns,
      E[T1] = 6, Var[T1] = (1 - p1) / p1^2 = 30, and exactly T1 rolls;
    - three tries: a turn enters with p3 = 1 - (5/6)^3 = 91/216, so
      E[T3] = 216/91, Var[T3] = (1 - p3) / p3^2. Rolls: each roll is a 6
      with probability 1/6 and the tries stop exactly at the first 6, so the
      rolls to enter are Geometric(1/6) again: E = 6 in both cases.

    Hence E[turns | 1] - E[turns | 3] = 6 - 216/91, the variances differ by
    30 - (1 - p3)/p3^2, and the roll distributions are identical.
    """
    one, three = solve(_plain(1)), solve(_plain(3))
    p3 = 1 - (5 / 6) ** 3
    assert one.mean_turns - three.mean_turns == pytest.approx(6 - 1 / p3, abs=1e-9)
    assert one.var_turns - three.var_turns == pytest.approx(30 - (1 - p3) / p3**2, abs=1e-7)
    assert one.mean_rolls == pytest.approx(three.mean_rolls, abs=1e-9)
    n = min(len(one.rolls_pmf), len(three.rolls_pmf))
    assert np.allclose(one.rolls_pmf[:n], three.rolls_pmf[:n], atol=1e-13)
    # One roll per turn with a single try and no bonus: rolls and turns coincide.
    assert np.allclose(one.rolls_pmf[: len(one.turns_pmf)], one.turns_pmf, atol=1e-13)
    # The whole turn pmfs: turns = T + W with W independent of the entering
    # time T, so pmf1 * G3 = pmf3 * G1 (convolutions), G the geometric pmfs.
    g1 = np.array([0.0] + [(5 / 6) ** (k - 1) / 6 for k in range(1, 400)])
    g3 = np.array([0.0] + [(1 - p3) ** (k - 1) * p3 for k in range(1, 400)])
    m = 300
    left = np.convolve(one.turns_pmf[:m], g3[:m])[:m]
    right = np.convolve(three.turns_pmf[:m], g1[:m])[:m]
    assert np.allclose(left, right, atol=1e-12)


def test_exact_finish_walk_matches_the_hand_recursion() -> None:
    """One piece, one roll per turn, exact finish: a chain solved by hand.

    With d squares to go (d = goal - progress) a roll k <= d moves the piece,
    a larger one is no move and the turn ends. So E[0] = 0 and, with
    m = min(6, d), E[d] = 1 + (1/6) sum_{k=1..m} E[d-k] + ((6-m)/6) E[d],
    i.e. E[d] = (6 + sum_{k=1..m} E[d-k]) / m. The race is entering
    (Geometric(1/6), mean 6) followed by the walk from progress 0, d = goal.
    The same for the second moment S[d] = E[T_d^2], from T_d = 1 + T_next:
    S[d] = 1 + (1/6) sum_k (2 E[d-k] + S[d-k]) + ((6-m)/6) (2 E[d] + S[d]),
    i.e. S[d] = (6 + sum_k (2 E[d-k] + S[d-k]) + 2 (6-m) E[d]) / m. Entering
    adds the independent Geometric(1/6) variance 30.
    """
    for home_len in (1, 5):
        rules = _plain(1, home_len=home_len)
        e = [0.0]
        s2 = [0.0]
        for d in range(1, rules.goal + 1):
            m = min(6, d)
            e.append((6 + sum(e[d - k] for k in range(1, m + 1))) / m)
            back = sum(2 * e[d - k] + s2[d - k] for k in range(1, m + 1))
            s2.append((6 + back + 2 * (6 - m) * e[d]) / m)
        walk_mean = e[rules.goal]
        walk_var = s2[rules.goal] - walk_mean**2
        res = solve(rules)
        assert res.mean_turns == pytest.approx(6 + walk_mean, rel=1e-12)
        assert res.var_turns == pytest.approx(30 + walk_var, rel=1e-9)


def test_three_sixes_forfeit_closed_form() -> None:
    """Rolls per turn with a bonus on every 6 and the third 6 forfeited.

    A piece far from the goal on the d6 (Italian-like, exact finish far
    away): a turn rolls once, again after a 6, and a third time after two;
    the third roll ends the turn whatever it shows. So a turn has 1 roll
    with probability 5/6, 2 with 5/36 and 3 with 1/36: expected 1 + 1/6 +
    1/36 = 43/36 rolls. Checked on the solver's turn kernel from progress 0.
    """
    from ludosim.reference.exact import _single_roll_turn

    rules = _solo("italian", pieces=1)
    out = _single_roll_turn(_SoloGame(rules), (0,))
    by_rolls: dict[int, float] = {}
    for (_, n), p in out.items():
        by_rolls[n] = by_rolls.get(n, 0.0) + p
    assert by_rolls == pytest.approx({1: 5 / 6, 2: 5 / 36, 3: 1 / 36}, abs=1e-15)
    # Where the third roll lands is irrelevant: a forfeited 6-6-6 turn moves 12.
    ends = {end: p for (end, n), p in out.items() if n == 3}
    assert ends[(12,)] == pytest.approx(1 / 216, abs=1e-15)


# ============================================= the solver's moves vs the engine
def _reference_moves(rules: Rules, pos: tuple, face: int | str) -> list:
    """(sorted end pos, entered, finished) of every legal reference move, by piece."""
    position = Position.from_progress(rules, [[p for p, _ in pos]])
    position.reversed[0] = [r for _, r in pos]
    out = []
    for move in legal_moves(rules, position, 0, face):
        child, result = try_move(rules, position, move)
        end = tuple(sorted(zip(child.progress[0], child.reversed[0], strict=True)))
        out.append((end, result.entered, result.finished))
    return out


MOVE_RULES = [
    ("app", {}),
    ("italian", {}),
    ("danish", {}),
    ("danish-globe", {}),
    ("killer", {}),
    ("killer", {"pass_own": False, "start_capacity": 1}),
    ("killer", {"star_jump": "goal", "roll_then_move": False}),
    ("danish", {"finish": "bounce_on", "star_jump": "next_lap"}),
    ("danish-globe", {"pass_own": True, "star_jump": "goal", "finish": "bounce_on"}),
    ("app", {"start_capacity": 1, "pass_own": False}),
    # other boards: 10 squares per arm with the start square at offset 2, and 7 per arm
    ("killer", {"arm_length": 10, "globe_offsets": (0, 6), "star_offsets": (3, 8),
                "start_offset": 2}),
    ("danish-globe", {"arm_length": 7, "globe_offsets": (0, 4), "star_offsets": (2, 6),
                      "start_offset": 3, "star_jump": "next_lap"}),
    # the rules of Mensch ärgere Dich nicht, alone and together
    ("app", {"land_on_own": False, "must_enter": True, "clear_start": True}),
    ("danish", {"land_on_own": False, "pass_own": True, "finish": "bounce_on"}),
    ("danish-globe", {"must_enter": True, "start_capacity": 2}),
    ("italian", {"clear_start": True}),
    ("app", {"land_on_own": False, "must_enter": True, "clear_start": True,
             "finish_in_home": True}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "changes"), MOVE_RULES)
def test_solo_moves_match_the_reference_engine(name: str, changes: dict) -> None:
    """Every face from every one-piece position, and sampled two-piece positions."""
    rng = random.Random(7)
    for pieces in (1, 2):
        rules = _solo(name, pieces=pieces, **changes)
        game = _SoloGame(rules)
        values = list(range(YARD, rules.goal + 1))
        if pieces == 1:
            positions = [((p, r),) for p in values for r in (False, True)]
        else:
            positions = [
                tuple(sorted((rng.choice(values), rng.random() < 0.3) for _ in range(2)))
                for _ in range(400)
            ]
        for pos in positions:
            pos = tuple((p, r and 0 <= p < rules.goal) for p, r in pos)
            for face in set(rules.die_faces):
                mine = sorted(game.moves(pos, face))
                assert mine == sorted(_reference_moves(rules, pos, face)), (pos, face)


@pytest.mark.parametrize("changes", [{}, {"pass_own": False}, {"star_jump": "goal"}])
def test_killer_plan_outcomes_match_the_plan_listing(changes: dict) -> None:
    """Uniform choice among the best plans (`all_plans` + `best_plans`) gives the same ends
    (progress and reversed flags)."""
    rules = _solo("killer", pieces=2, **changes)
    plans = _Plans(_SoloGame(rules))
    rng = random.Random(11)
    values = list(range(YARD, rules.goal + 1))
    for _ in range(150):
        state = tuple(sorted(rng.choice(values + [YARD] * 10) for _ in range(2)))
        rolls = [6] * rng.choice([0, 1, 2, 3]) + [rng.randrange(1, 6)]
        position = Position.from_progress(rules, [list(state)])
        legal = best_plans(all_plans(rules, position, 0, rolls))
        expected: dict[tuple, float] = {}
        for plan in legal:
            child = position.copy()
            for piece, face in plan.steps:
                move = next(m for m in legal_moves(rules, child, 0, face) if m.piece == piece)
                child, _ = try_move(rules, child, move)
            end = tuple(sorted(zip(child.progress[0], child.reversed[0], strict=True)))
            expected[end] = expected.get(end, 0.0) + 1.0 / len(legal)
        mine = dict(plans.outcome(_pos(state), tuple(rolls)))
        assert mine == pytest.approx(expected, abs=1e-12), (state, rolls)
        assert _state(_pos(state)) == state


# ====================================================== agreement with the engine
# Two maedn pieces exercise must_enter, clear_start and land_on_own at the turn level.
# Reference games per case: make verify's 2,000 (1,000 of two pieces), a quarter in the
# everyday suite; the limits (3 SE, chi-square bins) follow from the games played.
AGREEMENT = [(name, 1, full_or(2000, 500)) for name in PRESETS] + [
    ("app", 2, full_or(1000, 250)),
    ("italian", 2, full_or(1000, 250)),
    ("maedn", 2, full_or(1000, 250)),
]


@pytest.mark.parametrize(("name", "pieces", "games"), AGREEMENT)
def test_reference_engine_agrees_with_the_exact_distribution(
    name: str, pieces: int, games: int
) -> None:
    """Seeded reference games: mean turns and rolls within 3 SE, turns chi-square p > 0.001."""
    rules = _solo(name, pieces=pieces)
    exact = solve(rules)
    results = [play_game(rules, seed=2026, game=g, record=False) for g in range(games)]
    turns = np.array([r.turns for r in results])
    rolls = np.array([r.rolls for r in results])
    _check_agreement(exact, turns, rolls)


def test_reference_engine_agrees_with_the_exact_failed_start_try() -> None:
    """docs/rules.md section 8.2 on the star-globe die with one start attempt: a 6 with no piece in
    play
    earns no bonus roll. Reading it the other way moves the exact mean by one turn,
    about 7 standard errors of these 2,000 games."""
    rules = _solo("danish-globe", pieces=1, start_attempts=1)
    exact = solve(rules)
    results = [play_game(rules, seed=2027, game=g, record=False) for g in range(2000)]
    turns = np.array([r.turns for r in results])
    rolls = np.array([r.rolls for r in results])
    _check_agreement(exact, turns, rolls)


def _reference_turns(rules: Rules, games: int, seed: int) -> np.ndarray:
    """Turns of `games` solo games of the reference engine."""
    return np.array(
        [play_game(rules, seed=seed, game=g, record=False).turns for g in range(games)],
        dtype=np.int64,
    )


def _agreement_script():
    """`benchmarks/exact_agreement.py` (the agreement table of `make verify`) as a module."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "exact_agreement.py"
    spec = importlib.util.spec_from_file_location("exact_agreement", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agreement_table_rows() -> None:
    agreement_table = _agreement_script().agreement_table
    rows = agreement_table(200, 5, _reference_turns, cases=[("danish", 1)])
    (row,) = rows
    assert row["preset"] == "danish" and row["pieces"] == 1 and row["games"] == 200
    assert abs(row["z"]) < Z_LIMIT
    assert row["se"] == pytest.approx(math.sqrt(solve_preset("danish").var_turns / 200))


def test_chi_square_detects_a_wrong_distribution() -> None:
    """The goodness-of-fit helper has power: Danish games against the App distribution."""
    danish = _solo("danish", pieces=1)
    turns = _reference_turns(danish, 1000, 3)
    _, _, p = _chi_square(solve_preset("app").turns_pmf, turns)
    assert p < 1e-6


# ------------------------------------------------------------ against the kernel
# Two-piece chains of danish and killer take about a minute to solve: `make verify` only.
KERNEL_CASES = [(name, 1) for name in PRESETS] + [("app", 2), ("italian", 2), ("maedn", 2)]
if VERIFY:
    KERNEL_CASES += [("danish", 2), ("danish-globe", 2), ("killer", 2)]


@pytest.mark.parametrize(("name", "pieces"), KERNEL_CASES)
def test_kernel_agrees_with_exact_solution(name: str, pieces: int) -> None:
    """The compiled kernel's solo races against the exact chain.

    50,000 games (seed 2026): the mean within 3 standard errors (SE from the
    exact variance, so |z| < 3 fails a correct engine 0.27% of the time) and
    chi-square goodness of fit of turns and rolls at level 0.001.
    """
    from ludosim.run.simulate import simulate

    rules = _solo(name, pieces=pieces)
    df = simulate(rules, games=50_000, seed=2026)
    _check_agreement(solve(rules), df["turns"].to_numpy(), df["rolls"].to_numpy())


def test_kernel_agrees_with_exact_solution_when_pieces_finish_in_their_home_squares() -> None:
    """`finish_in_home` (docs/rules.md section 3): two pieces, as the test above."""
    from ludosim.run.simulate import simulate

    rules = _solo("maedn", pieces=2, finish_in_home=True)
    df = simulate(rules, games=50_000, seed=2026)
    _check_agreement(solve(rules), df["turns"].to_numpy(), df["rolls"].to_numpy())


# Toggles of other Ludo apps that change a solo race. `game_start` moves the
# two-piece App mean by 0.47 turns (13 standard errors of 50,000 games) and
# six_limit=2 by 5.5 turns; bonuses that do not stack move the Italian mean by
# only 0.04 turns (one standard error): there the solver is checked for
# reading the toggle, and the games for agreeing with its distribution.
FAMILY_CASES = [
    ("app", {"start_attempts": 3, "start_attempts_when": "game_start"}),
    ("app", {"six_limit": 2}),
    ("italian", {"bonus_stacking": "one"}),
    # The rules most people play: pieces out at the start, and the first piece home wins.
    ("app", {"start_out": 1}),
    ("maedn", {"start_out": 1, "start_attempts": 1}),
    ("italian", {"win_pieces": 1}),
    ("app", {"enter_faces": (1, 6)}),
    ("italian", {"enter_faces": (5,)}),
]


@pytest.mark.parametrize(("name", "changes"), FAMILY_CASES)
def test_kernel_agrees_with_exact_solution_on_family_toggles(name: str, changes: dict) -> None:
    """Two-piece solo races: 50,000 kernel games (seed 2026), checked as in
    `test_kernel_agrees_with_exact_solution`."""
    from ludosim.run.simulate import simulate

    rules = _solo(name, pieces=2, **changes)
    exact = solve(rules)
    base = solve(
        _solo(name, pieces=2, **{k: v for k, v in changes.items() if k == "start_attempts"})
    )
    assert abs(exact.mean_turns - base.mean_turns) > 0.01  # the toggle changes the race
    df = simulate(rules, games=50_000, seed=2026)
    _check_agreement(exact, df["turns"].to_numpy(), df["rolls"].to_numpy())


def test_kernel_agrees_with_exact_solution_on_killer_entering_with_one_or_six() -> None:
    """Roll then move with `enter_faces = 1,6`: a start try on a 1 ends the rolling at
    once, one on a 6 rolls on (docs/rules.md section 2). One piece, 50,000 kernel games."""
    from ludosim.run.simulate import simulate

    rules = _solo("killer", pieces=1, enter_faces=(1, 6))
    exact = solve(rules)
    assert abs(exact.mean_turns - solve(_solo("killer", pieces=1)).mean_turns) > 0.01
    df = simulate(rules, games=50_000, seed=2026)
    _check_agreement(exact, df["turns"].to_numpy(), df["rolls"].to_numpy())


def test_reference_engine_agrees_with_the_exact_start_tries_at_game_start() -> None:
    """2,000 reference games of the two-piece App race with three tries until a piece entered."""
    rules = _solo("app", pieces=2, start_attempts=3, start_attempts_when="game_start")
    results = [play_game(rules, seed=2028, game=g, record=False) for g in range(2000)]
    turns = np.array([r.turns for r in results])
    rolls = np.array([r.rolls for r in results])
    _check_agreement(solve(rules), turns, rolls)
