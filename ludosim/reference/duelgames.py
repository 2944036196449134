"""Games walked on a duel's graph: the luck and cost of every move, and how much of
the result each explains.

`luck_games` plays a matchup (each role `random`, `optimal` or `best`) on the duel's
graph and measures every roll's luck and every move's cost in the values of best play
by both (`ludosim.reference.duelluck`). Per game, exactly,

    result = V(start) + luck + choices,    choices = cost_1 - cost_0,

so who wins is the sum of three terms: the turn order (V(start): who moves first), the
dice and the choices. `luck_shares` states, for each term, the share of the variance of
the result it explains alone: its squared correlation with the result (R squared of a
regression of the result on that term), with the 95% interval of Fisher's z. The terms
are correlated (a player with more pieces out has more choices to get wrong, and got
there with lucky rolls), so the shares need not add up to 1; each says how much of who
wins that term predicts. Getty, Li, Yano, Gao and Hosoi (2018) ask the same question
over seasons of results; here each game's own luck and choices are measured exactly.

`play_traced` walks one game and returns its rolls, for `ludosim exact --duel
--show-game`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.engine.rng import new_stream
from ludosim.reference.duel import Z95
from ludosim.reference.duelgraph import DuelGraph
from ludosim.reference.duelluck import (
    GREEDY,
    TRACE_COLUMNS,
    UNIFORM,
    mean_luck_per_node,
    walk_game,
    walk_games,
)
from ludosim.reference.duelvalues import DuelValues
from ludosim.rules.errors import RulesError

PLAYERS = ("random", "optimal", "best")
GAME_COLUMNS = ("first", "result", "start_value", "luck", "cost_0", "cost_1",
                "choices_0", "choices_1")  # fmt: skip
SHARES = ("turn order", "dice", "choices")


def _chooser(values: DuelValues, player: str, role: int) -> tuple[int, np.ndarray, np.ndarray]:
    """(policy code, x, y) of `player` in `role`: `random` chooses uniformly; `optimal`
    plays best against a random opponent; `best` plays best against best play."""
    if player not in PLAYERS:
        raise RulesError(f"player={player!r}: allowed values: {', '.join(PLAYERS)}")
    if player == "random":
        return UNIFORM, values.random[0], values.random[1]
    if player == "best":
        return GREEDY, values.minimax[0], values.minimax[1]
    ox, oy = values.optimal
    if role == 0:
        return GREEDY, ox, oy
    # Node keys are the mover's view, so role 1's best against a random role 0 mirrors
    # role 0's: in role 0's win probability, 1 - oy with role 0 to move, 1 - ox with 1.
    return GREEDY, 1.0 - oy, 1.0 - ox


def _policy_arrays(values: DuelValues, players: tuple[str, str]):
    chosen = [_chooser(values, p, role) for role, p in enumerate(players)]
    policies = np.array([c[0] for c in chosen], dtype=np.int64)
    px = np.stack([c[1] for c in chosen])
    py = np.stack([c[2] for c in chosen])
    return policies, px, py


def luck_games(
    graph: DuelGraph, values: DuelValues, players: tuple[str, str], games: int, seed: int
) -> pd.DataFrame:
    """`games` games of `players` (role 0, role 1) on the duel, each role moving first in
    every other game: one row per game (`GAME_COLUMNS`), luck and costs in win
    probability (luck role 0's, each cost its role's own)."""
    if games < 2:
        raise RulesError(f"games={games}: need at least 2")
    policies, px, py = _policy_arrays(values, players)
    mx, my = values.minimax
    out = walk_games(*graph.walk, mx, my, px, py, policies, games, seed)
    return pd.DataFrame(out, columns=list(GAME_COLUMNS))


def fixed_point_gap(graph: DuelGraph, values: DuelValues) -> float:
    """The largest mean luck over a roll's faces at any node (0 up to the sweeps'
    tolerance: luck has mean 0 everywhere)."""
    mx, my = values.minimax
    return float(mean_luck_per_node(*graph.walk[:4], mx, my))


def identity_gap(df: pd.DataFrame) -> float:
    """The largest |result - V(start) - luck + cost_0 - cost_1| over the games."""
    rest = df["result"] - df["start_value"] - df["luck"] + df["cost_0"] - df["cost_1"]
    return float(rest.abs().max())


@dataclass(frozen=True)
class Share:
    """One component's share of the variance of the result, with its 95% interval."""

    component: str
    share: float
    ci_low: float
    ci_high: float


def luck_shares(df: pd.DataFrame) -> list[Share]:
    """The share of `var(result)` each term explains alone (module docstring): its
    squared correlation with the result, with Fisher's z interval; NaN where the term
    or the result does not vary (no choice ever cost anything, say)."""
    r = df["result"].to_numpy(float)
    parts = {
        "turn order": df["start_value"].to_numpy(float),
        "dice": df["luck"].to_numpy(float),
        "choices": (df["cost_1"] - df["cost_0"]).to_numpy(float),
    }
    n = len(r)
    out = []
    for name in SHARES:
        x = parts[name]
        if n < 4 or not (np.std(r) > 0 and np.std(x) > 1e-12):
            out.append(Share(name, math.nan, math.nan, math.nan))
            continue
        rho = float(np.corrcoef(r, x)[0, 1])
        z, half = math.atanh(max(min(rho, 1 - 1e-15), -1 + 1e-15)), Z95 / math.sqrt(n - 3)
        ends = sorted((math.tanh(z - half), math.tanh(z + half)))
        squared = sorted(e * e for e in ends)
        low = 0.0 if ends[0] < 0 < ends[1] else squared[0]
        out.append(Share(name, rho * rho, low, squared[1]))
    return out


def cost_per_choice(df: pd.DataFrame, role: int) -> tuple[float, float, float]:
    """A role's mean cost per decision with a choice (win probability), with the 95%
    interval of a ratio of means over games; NaN where it never had a choice."""
    cost = df[f"cost_{role}"].to_numpy(float)
    k = df[f"choices_{role}"].to_numpy(float)
    if k.sum() == 0:
        return math.nan, math.nan, math.nan
    ratio = cost.sum() / k.sum()
    influence = (cost - ratio * k) / k.mean()
    half = Z95 * float(influence.std(ddof=1)) / math.sqrt(len(k))
    return float(ratio), float(ratio - half), float(ratio + half)


def play_traced(
    graph: DuelGraph,
    values: DuelValues,
    players: tuple[str, str],
    seed: int,
    game: int = 0,
    max_rolls: int = 10_000,
) -> pd.DataFrame:
    """Game `game` of `luck_games(..., seed)` roll by roll (`TRACE_COLUMNS`), with each
    side's pieces before the roll (`mover_side`, `other_side`: progress per piece)."""
    policies, px, py = _policy_arrays(values, players)
    mx, my = values.minimax
    trace = np.zeros((max_rolls, len(TRACE_COLUMNS)))
    stream = new_stream(np.uint64(seed), np.uint64(game))
    *_, rows = walk_game(*graph.walk, game % 2, mx, my, px, py, policies, stream, trace)
    df = pd.DataFrame(trace[:rows], columns=list(TRACE_COLUMNS))
    for c in ("mover", "node", "face", "options", "chosen"):
        df[c] = df[c].astype(np.int64)
    df["face"] = [graph.faces[f] for f in df["face"]]
    df["mover_side"] = [_pieces(graph, graph.keys[n][0]) for n in df["node"]]
    df["other_side"] = [_pieces(graph, graph.keys[n][1]) for n in df["node"]]
    return df


def _pieces(graph: DuelGraph, side: int) -> str:
    return ",".join(str(p) for p, _ in graph.sides[side])
