"""Every duel of a study solved, walked and played into its tables (`play_study`).

Per duel, in order: its graph and exact values (`ludosim.reference.duel.solve_graph`,
the clairvoyant on `sequences` dice sequences), the luck and cost of three matchups
walked on its graph (`ludosim.reference.duelgames`: random against random, the optimal
player against random, best play by both), then the kernel's games of random against
random and of each named player against random (`ludosim.simulate`, the rules reduced
as the solver reduced them), each duel playing the study's seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

import ludosim
from ludosim.reference.duel import solve_graph
from ludosim.reference.duelgames import (
    cost_per_choice,
    fixed_point_gap,
    identity_gap,
    luck_games,
    luck_shares,
)
from ludosim.reference.duelgraph import build_graph
from ludosim.run.runstages import announce, begin
from ludosim.studies.duels.plan import plan_study
from ludosim.studies.duels.spec import Duel, DuelsStudy
from ludosim.studies.duels.tables import (
    EXACT_COLUMNS,
    LUCK_COLUMNS,
    PLAYER_COLUMNS,
    DuelsTables,
)

Progress = Callable[[int, int], None]
# The matchups walked on a duel's graph (role 0, role 1), each role first in half.
MATCHUPS = (("random", "random"), ("optimal", "random"), ("best", "best"))


def _exact_row(duel: Duel, result: Any) -> dict[str, Any]:
    r = result
    return {
        "duel": duel.label, "rules": duel.rule_set().text, "pieces": r.pieces,
        "nodes": r.nodes, "choices": r.choices, "random_first": r.random_first,
        "optimal_first": r.optimal_first, "optimal_second": r.optimal_second,
        "w_optimal": r.w_optimal, "minimax_first": r.minimax_first,
        "w_clairvoyant": r.w_clairvoyant, "w_clairvoyant_low": r.w_clairvoyant_low,
        "w_clairvoyant_high": r.w_clairvoyant_high, "rs": r.rs, "rs_low": r.rs_low,
        "rs_high": r.rs_high, "sequences": r.sequences, "horizon": r.horizon,
        "residual": r.residual, "seconds": r.seconds,
    }  # fmt: skip


def _luck_row(duel: Duel, matchup: tuple[str, str], games: pd.DataFrame, gap: float) -> dict:
    shares = {s.component: s for s in luck_shares(games)}
    row: dict[str, Any] = {
        "duel": duel.label,
        "matchup": " vs ".join(matchup),
        "games": len(games),
        "result_mean": float(games["result"].mean()),
    }
    for key, name in (("turn", "turn order"), ("dice", "dice"), ("choices", "choices")):
        s = shares[name]
        row.update({f"share_{key}": s.share, f"share_{key}_low": s.ci_low,
                    f"share_{key}_high": s.ci_high})  # fmt: skip
    for role in (0, 1):
        row[f"choices_{role}"] = int(games[f"choices_{role}"].sum())
        mean, low, high = cost_per_choice(games, role)
        row.update({f"cost_{role}": mean, f"cost_{role}_low": low, f"cost_{role}_high": high})
    row["identity_gap"] = identity_gap(games)
    row["fixed_point_gap"] = gap
    return row


def _player_row(duel: Duel, player: str, df: pd.DataFrame) -> dict[str, Any]:
    return {
        "duel": duel.label, "player": player, "games": len(df),
        "wins": int((df["winner"] == 0).sum()),
        "first_wins": int((df["winner"] == df["first"]).sum()),
        "truncated": int(df["truncated"].sum()),
    }  # fmt: skip


def play_study(
    study: DuelsStudy, *, threads: int | None = None, progress: Progress | None = None
) -> DuelsTables:
    """Solve, walk and play every duel of `study` (`plan_study`); its tables."""
    parts = plan_study(study)
    total = sum(p.stage.games for p in parts)
    announce(progress, [p.stage for p in parts])
    done = 0
    exact, players, luck = [], [], []
    for number, part in enumerate(parts, 1):
        begin(progress, number, at=done)
        tick = None if progress is None else (lambda k, _, at=done: progress(at + k, total))
        duel, rules = part.duel, part.duel.rules()
        if not part.lineup:
            graph = build_graph(rules)
            result, values, _ = solve_graph(graph, label=duel.label,
                                            sequences=study.sequences, seed=study.seed)  # fmt: skip
            exact.append(_exact_row(duel, result))
            gap = fixed_point_gap(graph, values)
            for matchup in MATCHUPS:
                walked = luck_games(graph, values, matchup, study.luck_games, study.seed)
                luck.append(_luck_row(duel, matchup, walked, gap))
        else:
            lineup = list(part.lineup)
            df = ludosim.simulate(rules, games=study.player_games, seed=study.seed,
                                  policies=lineup, threads=threads, progress=tick)  # fmt: skip
            players.append(_player_row(duel, part.lineup[0], df))
        done += part.stage.games
        if tick is not None:
            tick(part.stage.games, total)
    return DuelsTables(
        study,
        pd.DataFrame(exact, columns=list(EXACT_COLUMNS)),
        pd.DataFrame(players, columns=list(PLAYER_COLUMNS)),
        pd.DataFrame(luck, columns=list(LUCK_COLUMNS)),
    )
