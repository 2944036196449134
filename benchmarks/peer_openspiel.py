"""ludosim's `maedn` against OpenSpiel's `maedn`, in distribution, under random play.

    .venv/bin/python benchmarks/peer_openspiel.py --games 20000 --seed 1

OpenSpiel (package `open-spiel`, module `pyspiel`) ships Mensch ärgere Dich
nicht as a standard game. Its documented rule choices, and the ludosim
toggles that match them (`OPENSPIEL_RULES`):

- seat 0 always moves first (`first_player = seat0`);
- one roll per turn, also with nothing in play; a 6 rolls again, even when it
  cannot be used (`start_attempts = 1`, `bonus_on_six = always`, no six limit);
- a 6 must bring a piece in while the start square is free of own pieces,
  and the start square must be cleared while pieces wait (`must_enter`,
  `clear_start`); no piece lands on an own piece (`land_on_own = false`);
- pieces jump over anything, and a landing captures (the `maedn` preset);
- four goal squares, one piece each, pieces move on inside them, and a player
  has finished when all four are filled (`finish_in_home`).

Both sides play uniformly random legal moves (OpenSpiel's one "bring in"
action stands for every yard piece, but whenever it is legal it is the only
legal action, so the choice is the same). The comparison: die rolls until the
first player finishes (OpenSpiel: chance outcomes, one per player action),
captures per game, and the share of games seat 0 wins. OpenSpiel declares games
of at most 1,000 moves; both sides are cut at `MAX_ROLLS` rolls and a cut game
counts as censored, so the length comparison is of the censored lengths
(about 2 games in 1,000 are cut; on ludosim's side a cut game's captures are
counted to its end, a difference far below the sampling error).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.rules.model import Rules
from ludosim.run.simulate import simulate

OPENSPIEL_RULES = Rules.preset("maedn").replace(
    first_player="seat0", start_attempts=1, finish_in_home=True
)
MAX_ROLLS = 1000
# OpenSpiel's observation tensor: 4 values per field (56 fields), then the
# pieces off the board of each player, seen from the observer.
_OUT_AT = 4 * 56


def openspiel_games(games: int, seed: int, players: int = 4) -> pd.DataFrame:
    """`games` uniformly random OpenSpiel `maedn` games: rolls, captures, winner, cut."""
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": players})
    rng = random.Random(seed)
    rows = []
    for _ in range(games):
        state = game.new_initial_state()
        rolls = captures = 0
        while not state.is_terminal() and rolls < MAX_ROLLS:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                rolls += 1
                continue
            before = state.observation_tensor(0)[_OUT_AT : _OUT_AT + players]
            mover = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            after = state.observation_tensor(0)[_OUT_AT : _OUT_AT + players]
            # A capture puts another player's piece back off the board.
            captures += any(
                a > b for i, (a, b) in enumerate(zip(after, before, strict=True)) if i != mover
            )
        returns = state.returns()
        done = state.is_terminal()
        rows.append(
            {
                "rolls": rolls,
                "captures": captures,
                "winner": returns.index(max(returns)) if done else -1,
                "truncated": not done,
            }
        )
    return pd.DataFrame(rows)


def ludosim_games(games: int, seed: int) -> pd.DataFrame:
    """The same measures from ludosim's kernel under `OPENSPIEL_RULES`, cut at `MAX_ROLLS`."""
    df = simulate(OPENSPIEL_RULES, games=games, seed=seed)
    captures = df.filter(regex=r"^captures_\d$").sum(axis=1)
    cut = df["rolls"] > MAX_ROLLS
    return pd.DataFrame(
        {
            "rolls": np.minimum(df["rolls"], MAX_ROLLS),
            "captures": captures,
            "winner": np.where(cut | df["truncated"], -1, df["winner"]),
            "truncated": cut | df["truncated"],
        }
    )


@dataclass(frozen=True)
class Comparison:
    """One measure on both sides: means, their difference with a 95% interval, a p-value."""

    measure: str
    ludosim: float
    openspiel: float
    difference: float
    ci_low: float
    ci_high: float
    p: float


def _two_sample(measure: str, a: np.ndarray, b: np.ndarray) -> Comparison:
    """Welch's z for the difference of two means (large samples)."""
    d = float(a.mean() - b.mean())
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    z = d / se if se > 0 else 0.0
    p = math.erfc(abs(z) / math.sqrt(2))
    return Comparison(measure, float(a.mean()), float(b.mean()), d, d - 1.96 * se, d + 1.96 * se, p)


def compare(ours: pd.DataFrame, peer: pd.DataFrame) -> list[Comparison]:
    """Mean rolls, mean captures and seat 0's win share, ludosim minus OpenSpiel."""
    return [
        _two_sample("rolls per game", ours["rolls"].to_numpy(float), peer["rolls"].to_numpy(float)),
        _two_sample(
            "captures per game", ours["captures"].to_numpy(float), peer["captures"].to_numpy(float)
        ),
        _two_sample(
            "seat 0 wins",
            (ours["winner"] == 0).to_numpy(float),
            (peer["winner"] == 0).to_numpy(float),
        ),
    ]


def ks_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sample Kolmogorov-Smirnov p-value of the roll counts (asymptotic; ties make it
    conservative)."""
    from scipy.stats import ks_2samp

    return float(ks_2samp(a, b).pvalue)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games on each side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    peer = openspiel_games(args.games, args.seed)
    peer_s = time.perf_counter() - start
    start = time.perf_counter()
    ours = ludosim_games(args.games, args.seed)
    ours_s = time.perf_counter() - start
    print(f"{args.games:,} games each, seed {args.seed}; ludosim minus OpenSpiel, 95% CI")
    print("| measure | ludosim | OpenSpiel | difference (95% CI) | p |")
    print("|---|---|---|---|---|")
    for c in compare(ours, peer):
        print(
            f"| {c.measure} | {c.ludosim:.3f} | {c.openspiel:.3f} | "
            f"{c.difference:+.3f} ({c.ci_low:+.3f} to {c.ci_high:+.3f}) | {c.p:.2f} |"
        )
    p = ks_p(ours["rolls"].to_numpy(), peer["rolls"].to_numpy())
    print(f"| rolls, distribution (KS) | | | | {p:.2f} |")
    print(
        f"cut at {MAX_ROLLS} rolls: ludosim {int(ours['truncated'].sum())}, "
        f"OpenSpiel {int(peer['truncated'].sum())}; time: OpenSpiel {peer_s:.1f} s, "
        f"ludosim {ours_s:.1f} s (compile included)"
    )


if __name__ == "__main__":
    main()
