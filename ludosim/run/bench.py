"""Games per second of the compiled kernel and the reference engine, measured in one run.

`run_bench` times `simulate` (kernel) at each thread count and
`ludosim.reference.play_game` (reference) on the same rules and policy,
after a warm-up call so compilation is not timed, and reports ratios from
the same run: kernel over reference, N threads over 1 thread, the cost of a
game relative to the "plain app" rules (the yardstick: a hand-written C
program plays those at about 87,000 games/s on one core), and,
when policies other than `random` are timed, the cost of a game relative to
`random` on the same rules. Timings are wall-clock; on a shared machine they
vary with its load (`benchmarks/policy_speed.py` compares policies by CPU time).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pandas as pd

from ludosim.reference import play_game
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy
from ludosim.run.simulate import simulate

PLAIN_APP = "plain-app"

# What each column of `run_bench` means; `ludosim bench` prints these under its table.
# Ratios are measured on kernel rows only: reference rows leave them empty (NaN).
COLUMNS: dict[str, str] = {
    "rules": f"the preset timed; {PLAIN_APP} is the yardstick (app rules with every passing "
    "and landing restriction lifted, which a hand-written C program plays at about "
    "87,000 games/s on one core)",
    "engine": "kernel (compiled, ludosim.simulate) or reference (pure Python, one thread)",
    "games_per_s": "games played per second of wall-clock time (compilation not timed)",
    "mean_turns": "mean turns per game of the timed kernel run (kernel rows only)",
    "mean_rolls": "mean die rolls per game of the timed kernel run (kernel rows only)",
    "vs_reference": "kernel games/s over reference games/s, same rules and policy "
    "(kernel rows only)",
    "vs_one_thread": "kernel games/s over the same run's games/s on one thread (kernel rows only)",
    "cost_vs_plain_app": f"seconds per game over {PLAIN_APP}'s at the same threads and policy: "
    "how much dearer these rules are than the yardstick (kernel rows only)",
    "cost_vs_random": "seconds per game over the random policy's on the same rules and threads "
    "(kernel rows only)",
}


def plain_app_rules() -> Rules:
    """The speed yardstick: app rules with every passing and landing restriction lifted."""
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


def _warmup_games(games: int) -> int:
    return min(games, 200)


def _time_kernel(
    rules: Rules, games: int, threads: int, seed: int, policy: str
) -> tuple[float, pd.DataFrame]:
    # Warm-up: compiles (or loads) the kernel, which is not timed.
    simulate(rules, games=_warmup_games(games), seed=seed, policies=policy, threads=threads)
    start = time.perf_counter()
    df = simulate(rules, games=games, seed=seed, policies=policy, threads=threads)
    return time.perf_counter() - start, df


def _time_reference(rules: Rules, games: int, seed: int, policy: str) -> float:
    start = time.perf_counter()
    for game in range(games):
        play_game(rules, seed, game, policies=policy, record=False)
    return time.perf_counter() - start


def bench_policies(policies: list[str] | None) -> list[str]:
    """Canonical names of the policies to time; `random` first, the baseline of their cost.

    Raises `PolicyError` for a name that is not a policy.
    """
    names = [parse_policy(name).name for name in policies or ["random"]]
    return ["random", *dict.fromkeys(n for n in names if n != "random")]


def run_bench(
    presets: list[str],
    games: int = 100_000,
    threads: list[int] | None = None,
    reference_games: int = 100,
    seed: int = 1,
    include_plain_app: bool = True,
    policies: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """One row per (rules, policy, engine, threads): games/s and ratios measured in this run.

    `presets` are preset names (the plain-app yardstick is added first unless
    `include_plain_app=False`); `threads` defaults to 1 and every core;
    `policies` (every seat plays the same one) defaults to `random`, which is
    also timed first whenever others are given (`bench_policies`).
    Columns: rules, policy, engine, threads, games, seconds, games_per_s,
    mean_turns, mean_rolls, vs_reference (kernel games/s over reference
    games/s, same policy), vs_one_thread, cost_vs_plain_app (seconds per game
    over plain-app's at the same thread count and policy), and with policies
    other than random, cost_vs_random (seconds per game over random's on the
    same rules and thread count); `COLUMNS` describes each. Reference rows have
    NaN in the kernel-only columns; an `expert` policy has no reference row.
    `progress`, if given, is called as `progress(games_done, games_total)` after
    each timed run (warm-ups counted), never during one, so that it does not
    change the timings.
    """
    import numba

    from ludosim.rules import checks

    # Checked before anything is timed: a negative count would drop rows silently.
    games = checks.integer("games", games, 1, error=LudosimError)
    reference_games = checks.integer("reference_games", reference_games, 0, error=LudosimError)
    if threads is None:
        threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    names = ([PLAIN_APP] if include_plain_app and PLAIN_APP not in presets else []) + list(presets)
    timed = bench_policies(policies)
    per_pair = reference_games + len(threads) * (_warmup_games(games) + games)
    total = len(names) * len(timed) * per_pair
    done = 0

    def advance(games_played: int) -> None:
        nonlocal done
        done += games_played
        if progress is not None:
            progress(done, total)

    advance(0)
    rows = []
    for name in names:
        rules = _rules(name)
        for policy in timed:
            ref_rate = float("nan")
            # The expert plays in the kernel only (the reference engine replays its choices).
            if reference_games > 0 and not parse_policy(policy).is_expert:
                seconds = _time_reference(rules, reference_games, seed, policy)
                ref_rate = reference_games / seconds
                advance(reference_games)
                rows.append(
                    {
                        "rules": name,
                        "policy": policy,
                        "engine": "reference",
                        "threads": 1,
                        "games": reference_games,
                        "seconds": seconds,
                        "games_per_s": ref_rate,
                    }
                )
            for count in threads:
                seconds, df = _time_kernel(rules, games, count, seed, policy)
                advance(_warmup_games(games) + games)
                rows.append(
                    {
                        "rules": name,
                        "policy": policy,
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
    kernel = out[out["engine"] == "kernel"]
    rate = kernel.set_index(["rules", "policy", "threads"])["games_per_s"]

    def counterpart(**fixed: object) -> pd.Series:
        """Games/s of the kernel row that differs from each kernel row only in `fixed`."""
        keys = pd.MultiIndex.from_frame(kernel[["rules", "policy", "threads"]].assign(**fixed))
        return pd.Series(rate.reindex(keys).to_numpy(), index=kernel.index)

    out.loc[kernel.index, "vs_one_thread"] = kernel["games_per_s"] / counterpart(threads=1)
    if PLAIN_APP in names:
        cost = counterpart(rules=PLAIN_APP) / kernel["games_per_s"]
        out.loc[kernel.index, "cost_vs_plain_app"] = cost
    if len(timed) > 1:
        out.loc[kernel.index, "cost_vs_random"] = (
            counterpart(policy="random") / kernel["games_per_s"]
        )
    return out
