"""`run_bench`: one row per (rules, policy, engine, threads), ratios from the same run."""

from __future__ import annotations

import pytest

from ludosim.rules.errors import LudosimError
from ludosim.run.bench import bench_policies, run_bench


def test_bench_policies_put_random_first_once() -> None:
    assert bench_policies(None) == ["random"]
    assert bench_policies(["balanced", "random", " balanced"]) == ["random", "balanced"]
    with pytest.raises(LudosimError, match="unknown policy"):
        bench_policies(["lucky"])


def test_run_bench_rows_and_ratios() -> None:
    df = run_bench(["italian"], games=60, threads=[1], reference_games=1, policies=["balanced"])
    keys = list(zip(df["rules"], df["policy"], df["engine"], strict=True))
    assert keys == [
        (rules, policy, engine)
        for rules in ("plain-app", "italian")
        for policy in ("random", "balanced")
        for engine in ("reference", "kernel")
    ]
    kernel = df[df["engine"] == "kernel"].set_index(["rules", "policy"])
    rate = kernel["games_per_s"]
    for rules in ("plain-app", "italian"):
        for policy in ("random", "balanced"):
            row = kernel.loc[(rules, policy)]
            assert row["cost_vs_random"] == pytest.approx(
                rate[(rules, "random")] / rate[(rules, policy)]
            )
            assert row["cost_vs_plain_app"] == pytest.approx(
                rate[("plain-app", policy)] / rate[(rules, policy)]
            )
            assert row["vs_one_thread"] == 1
            assert row["mean_rolls"] > row["mean_turns"] > 0
    assert df.loc[df["engine"] == "reference", "games_per_s"].gt(0).all()
