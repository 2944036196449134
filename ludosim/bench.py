"""Games per second of the compiled kernel and the reference engine, measured in one run.

`run_bench` times `simulate` (kernel) at each thread count and
`ludosim.reference.play_game` (reference) on the same rules, after a warm-up
call so compilation is not timed, and reports ratios from the same run:
kernel over reference, N threads over 1 thread, and the cost of a game
relative to the "plain app" rules of the kernel issue (the yardstick a
hand-written C program plays at about 87,000 games/s on one core).
Timings are wall-clock; on a shared machine they vary with its load.
"""

from __future__ import annotations

import time

import pandas as pd

from ludosim.reference import play_game
from ludosim.rules import Rules

PLAIN_APP = "plain-app"


def plain_app_rules() -> Rules:
    """The issue's yardstick: app rules with every passing and landing restriction lifted."""
    return Rules.preset("app").replace(
        pass_opponents="all",
        block_landing="coexist",
        first_player="seat0",
        play_to_end=False,
        bonus_on_six="always",
        start_capacity=0,
        no_move_ends_turn=False,
    )


def _rules(name: str) -> Rules:
    return plain_app_rules() if name == PLAIN_APP else Rules.preset(name)


def _time_kernel(rules: Rules, games: int, threads: int, seed: int) -> tuple[float, pd.DataFrame]:
    from ludosim.simulate import simulate

    simulate(rules, games=min(games, 200), seed=seed, threads=threads)  # warm-up, compile
    start = time.perf_counter()
    df = simulate(rules, games=games, seed=seed, threads=threads)
    return time.perf_counter() - start, df


def _time_reference(rules: Rules, games: int, seed: int) -> float:
    start = time.perf_counter()
    for game in range(games):
        play_game(rules, seed, game, record=False)
    return time.perf_counter() - start


def run_bench(
    presets: list[str],
    games: int = 100_000,
    threads: list[int] | None = None,
    reference_games: int = 100,
    seed: int = 1,
    include_plain_app: bool = True,
) -> pd.DataFrame:
    """One row per (rules, engine, threads): games/s and ratios measured in this run.

    `presets` are preset names (the plain-app yardstick is added first unless
    `include_plain_app=False`); `threads` defaults to 1 and every core.
    Columns: rules, engine, threads, games, seconds, games_per_s, mean_turns,
    mean_rolls, vs_reference (kernel games/s over reference games/s),
    vs_one_thread, cost_vs_plain_app (seconds per game over plain-app's at the
    same thread count).
    """
    import numba

    if threads is None:
        threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    names = ([PLAIN_APP] if include_plain_app and PLAIN_APP not in presets else []) + list(presets)
    rows = []
    for name in names:
        rules = _rules(name)
        ref_rate = float("nan")
        if reference_games > 0:
            seconds = _time_reference(rules, reference_games, seed)
            ref_rate = reference_games / seconds
            rows.append(
                {
                    "rules": name,
                    "engine": "reference",
                    "threads": 1,
                    "games": reference_games,
                    "seconds": seconds,
                    "games_per_s": ref_rate,
                }
            )
        for count in threads:
            seconds, df = _time_kernel(rules, games, count, seed)
            rows.append(
                {
                    "rules": name,
                    "engine": "kernel",
                    "threads": count,
                    "games": games,
                    "seconds": seconds,
                    "games_per_s": games / seconds,
                    "mean_turns": float(df["turns"].mean()),
                    "mean_rolls": float(df["rolls"].mean()),
                    "vs_reference": games / seconds / ref_rate,
                }
            )
    out = pd.DataFrame(rows)
    kernel = out["engine"] == "kernel"
    one = out[kernel & (out["threads"] == 1)].set_index("rules")["games_per_s"]
    out.loc[kernel, "vs_one_thread"] = out.loc[kernel, "games_per_s"] / out.loc[
        kernel, "rules"
    ].map(one)
    if PLAIN_APP in names:
        plain = out[kernel & (out["rules"] == PLAIN_APP)].set_index("threads")["games_per_s"]
        out.loc[kernel, "cost_vs_plain_app"] = (
            out.loc[kernel, "threads"].map(plain) / out.loc[kernel, "games_per_s"]
        )
    return out
