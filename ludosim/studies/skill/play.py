"""Every rule set of a study played into its tables (`play_study`: the ladder, the
matches, the head-to-head pairs, the meta-game, the relative skill level). What each
part plays, and on which seed, is said in the package's docstring (`ludosim.studies.skill`).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.stats import wilson_interval
from ludosim.rules.policies import parse_policy
from ludosim.run.runstages import Stage, announce, begin, game_cost
from ludosim.studies import ratings, relative_skill
from ludosim.studies.parts import Parts
from ludosim.studies.skill.equilibrium import resample_equilibria, symmetric_equilibrium
from ludosim.studies.skill.matches import _offset, field_share, headline_rows, play_pair
from ludosim.studies.skill.plan import (
    BALANCED_SEED,
    FIXED_SEED,
    LADDER_SEED,
    PAIRS_SEED,
    RANDOM_SEED,
    RuleSetPlan,
    part_seed,
    plan_study,
)
from ludosim.studies.skill.spec import (
    CONFIDENCE,
    FIXED_FIELD,
    FIXED_MEASURE,
    FIXED_PLAYER,
    OPPONENTS,
    SUPPORT_WEIGHT,
    Progress,
    Study,
)
from ludosim.studies.skill.tables import (
    LADDER_COLUMNS,
    METAGAME_COLUMNS,
    PAIR_COLUMNS,
    SKILL_COLUMNS,
    SkillTables,
)


def play_study(
    study: Study,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
    parts: Parts | None = None,
) -> SkillTables:
    """Play and measure every rule set of `study` (`plan_study`); see the package docstring.

    With `parts` each rule set's tables are saved as soon as they are played, and those
    an earlier run of the same study saved are taken instead of played again: the
    tables are the same either way (`ludosim.studies.parts`)."""
    plans = plan_study(study)
    parts = parts or Parts(None)
    names = [f"{number}: rule set {p.rule_set.label}" for number, p in enumerate(plans, 1)]
    saved, left = parts.pending(names, plans)
    total = sum(plan.games for _, plan in left)
    done = 0
    # Each rule set left a stage of the run; its games cost what its ladder's players do.
    announce(progress, [Stage(f"rule set {p.rule_set.label}", p.games, game_cost(p.players))
                        for _, p in left])  # fmt: skip
    for number, (name, plan) in enumerate(left, 1):
        begin(progress, number, at=done)
        tick = None if progress is None else functools.partial(_offset, progress, done, total)
        saved[name] = _rule_set_tables(study, plan, threads, tick)
        parts.save(name, saved[name])
        done += plan.games
    keys = ("skill", "ladder", "metagame", "pairs", "rs")
    frames = {k: pd.concat([saved[name][k] for name in names], ignore_index=True) for k in keys}
    return SkillTables(*(frames[k] for k in keys[:4]), study=study, rs=frames["rs"])


def _rule_set_tables(
    study: Study, plan: RuleSetPlan, threads: int | None, progress: Progress | None
) -> dict[str, pd.DataFrame]:
    seed = study.seed
    rule_set, rules, names = plan.rule_set, plan.rules, list(plan.players)

    def forward(before: int, d: int, _: int) -> None:
        if progress is not None:
            progress(before + d, 0)

    ladder_size, match_size, pair_size = plan.ladder_games, plan.match_games, plan.pair_games
    results = ratings.play_ladder(
        rules, names, study.games, part_seed(seed, LADDER_SEED), threads=threads,
        progress=None if progress is None else functools.partial(forward, 0),
    )  # fmt: skip
    # One set of refits for both the ratings' intervals and the spreads': `rate_games`
    # would draw the very same resamples again (same seed), at the same cost.
    table = ratings.rate_games(results, names, 0, part_seed(seed, LADDER_SEED))
    mus = ratings.bootstrap_mu(results, names, study.bootstrap, part_seed(seed, LADDER_SEED))
    if study.bootstrap:
        low, high = np.percentile(mus, [2.5, 97.5], axis=0)
        at = {name: i for i, name in enumerate(names)}
        order = [at[p] for p in table["player"]]
        table = table.assign(ci_low=low[order], ci_high=high[order])
    done = ladder_size
    strongest = parse_policy(study.strongest).name if study.strongest else str(table["player"][0])

    rows: list[dict[str, Any]] = []
    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    for opponent, part in (("random", RANDOM_SEED), ("balanced", BALANCED_SEED)):
        # Per seat it held (the strongest against its own kind holds every seat).
        row = field_share(
            rules,
            strongest,
            opponent,
            study.match_games,
            part_seed(seed, part),
            threads,
            None if progress is None else functools.partial(forward, done),
        )
        rows.append({**base, "measure": f"win_share_vs_{opponent}", **row})  # fmt: skip
        done += match_size
    # The fixed pair: balanced in every seat position against three random players.
    row = field_share(
        rules,
        FIXED_PLAYER,
        FIXED_FIELD,
        study.match_games,
        part_seed(seed, FIXED_SEED),
        threads,
        None if progress is None else functools.partial(forward, done),
    )
    rows.append({**base, "measure": FIXED_MEASURE, **row})  # fmt: skip
    done += match_size

    rows += headline_rows(
        study, rule_set, rules, strongest, threads,
        None if progress is None else functools.partial(forward, done),
    )  # fmt: skip
    done += 2 * study.headline_games + 2 * match_size

    mu = table.set_index("player").loc[names, "mu"].to_numpy(float)
    spreads = {
        "rating_range": (np.ptp(mu), np.ptp(mus, axis=1) if len(mus) else np.array([])),
        "rating_sd": (np.std(mu), np.std(mus, axis=1) if len(mus) else np.array([])),
    }
    for measure, (value, boot) in spreads.items():
        low, high = np.percentile(boot, [2.5, 97.5]) if boot.size else (math.nan, math.nan)
        rows.append({**base, "measure": measure, "player": "", "opponent": "",
                     "estimate": float(value), "ci_low": float(low), "ci_high": float(high),
                     "games": len(results), "fair": 0.0,
                     "resolved": bool(boot.size) and low > 0})  # fmt: skip

    k = len(names)
    wins = np.zeros((k, k))
    decided = np.zeros((k, k))
    pair_rows = []
    for i in range(k):
        for j in range(i + 1, k):
            played, wa, wb = play_pair(
                rules, names[i], names[j], study.pair_games, part_seed(seed, PAIRS_SEED),
                threads=threads,
                progress=None if progress is None else functools.partial(forward, done),
            )  # fmt: skip
            done += pair_size
            wins[i, j], wins[j, i] = wa, wb
            decided[i, j] = decided[j, i] = wa + wb
            for x, y, w, lose in ((i, j, wa, wb), (j, i, wb, wa)):
                low, high = wilson_interval(w, w + lose)
                pair_rows.append({"rule_set": rule_set.label, "player": names[x],
                                  "opponent": names[y], "games": played, "wins": w,
                                  "opponent_wins": lose, "share": w / max(w + lose, 1),
                                  "ci_low": low, "ci_high": high})  # fmt: skip
    pairs = pd.DataFrame(pair_rows, columns=list(PAIR_COLUMNS))

    top = names.index(strongest)
    for opponent in OPPONENTS:
        if opponent not in names:
            continue
        j = names.index(opponent)
        w, n = int(wins[top, j]), int(decided[top, j])
        # Against its own kind there is no pair: no head-to-head edge to measure.
        low, high = wilson_interval(w, n) if top != j else (math.nan, math.nan)
        p = w / n if n and top != j else math.nan
        rows.append({**base, "measure": f"head_to_head_vs_{opponent}", "player": strongest,
                     "opponent": opponent, "estimate": p, "ci_low": low, "ci_high": high,
                     "games": n, "fair": 0.5,
                     "resolved": bool(low > 0.5 or high < 0.5)})  # fmt: skip
        rows.append({**base, "measure": f"games_to_be_ahead_of_{opponent}", "player": strongest,
                     "opponent": opponent, "estimate": _games_ahead(p),
                     "ci_low": _games_ahead(high), "ci_high": _games_ahead(low), "games": n,
                     "fair": math.nan, "resolved": bool(low > 0.5)})  # fmt: skip

    share = np.full((k, k), 0.5)
    np.divide(wins, decided, out=share, where=decided > 0)
    np.fill_diagonal(share, 0.5)
    mix = symmetric_equilibrium(share)
    boot = (
        resample_equilibria(wins, decided, study.resamples, part_seed(seed, PAIRS_SEED))
        if study.resamples
        else np.empty((0, k))
    )
    meta = pd.DataFrame(
        {
            "rule_set": rule_set.label,
            "player": names,
            "weight": mix,
            "weight_low": np.percentile(boot, 2.5, axis=0) if len(boot) else math.nan,
            "weight_high": np.percentile(boot, 97.5, axis=0) if len(boot) else math.nan,
            "support_share": (boot > SUPPORT_WEIGHT).mean(axis=0) if len(boot) else math.nan,
            # Each way of playing against the equilibrium mix: 0 in the support, <= 0 outside.
            # Rounded where the solver's float noise ends, so a support player reads 0.
            "payoff_vs_mix": np.round((share - 0.5) @ mix, 12) + 0.0,
            "resamples": len(boot),
        }
    )
    ladder = table.assign(rule_set=rule_set.label, rank=np.arange(1, len(table) + 1))
    rs = relative_skill.rs_row(
        rule_set, rules, study.optimal_player(rule_set.label), study.fictive, study.skill_games,
        seed, threads, None if progress is None else functools.partial(forward, done),
    )  # fmt: skip
    return {
        "rs": relative_skill.rs_frame([rs]),
        "skill": pd.DataFrame(rows, columns=list(SKILL_COLUMNS)),
        "ladder": ladder[list(LADDER_COLUMNS)],
        "metagame": meta.sort_values("weight", ascending=False, kind="stable")[
            list(METAGAME_COLUMNS)
        ],
        "pairs": pairs,
    }


def _games_ahead(p: float) -> float:
    """`ratings.games_to_be_ahead` at 95%, NaN where the player is not better (p <= 1/2)."""
    if not 0.5 < p <= 1.0:  # NaN fails this too
        return math.nan
    try:
        return float(ratings.games_to_be_ahead(p, CONFIDENCE))
    except ratings.RatingsError:  # too close to 1/2 for any match this side of millions
        return math.nan
