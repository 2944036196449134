"""Every rule set of a study played into its tables (`play_study`: the ladder, the
matches, the head-to-head pairs, the meta-game, the relative skill level), and the
tables written and read back (`SkillTables`, `write_tables`, `read_tables`). What each
part plays, and on which seed, is said in the package's docstring (`ludosim.studies.skill`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.stats import wilson_interval
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import parse_policy
from ludosim.studies import ratings, relative_skill
from ludosim.studies.skill.equilibrium import resample_equilibria, symmetric_equilibrium
from ludosim.studies.skill.matches import _offset, _seed, field_share, headline_rows, play_pair
from ludosim.studies.skill.skillstudy import (
    BALANCED_SEED,
    CONFIDENCE,
    FIXED_FIELD,
    FIXED_MEASURE,
    FIXED_PLAYER,
    FIXED_SEED,
    LADDER_COLUMNS,
    LADDER_FILE,
    LADDER_SEED,
    METAGAME_COLUMNS,
    METAGAME_FILE,
    OPPONENTS,
    PAIR_COLUMNS,
    PAIRS_FILE,
    PAIRS_SEED,
    RANDOM_SEED,
    SKILL_COLUMNS,
    SKILL_FILE,
    SUPPORT_WEIGHT,
    Progress,
    SkillError,
    Study,
    default_players,
)


@dataclass
class SkillTables:
    """The study's tables: per rule set x measure, the ladders, the meta-game, the pairs,
    and the relative skill levels (`rs`; None for tables written without them)."""

    skill: pd.DataFrame
    ladder: pd.DataFrame
    metagame: pd.DataFrame
    pairs: pd.DataFrame
    study: Study
    rs: pd.DataFrame | None = None


def _sizes(study: Study, rules: Rules, players: int) -> tuple[int, int, int]:
    """Games actually played per rule set by the ladder, each match and each pair."""
    n = rules.players
    ladder = (study.games // len(ratings.seatings(players, n))) * len(ratings.seatings(players, n))
    match = (study.match_games // n) * n
    patterns = 1 if n % 2 == 0 else 2
    pair = ((study.pair_games // patterns) // n) * n * patterns
    return ladder, match, pair


def play_study(
    study: Study, *, threads: int | None = None, progress: Progress | None = None
) -> SkillTables:
    """Play and measure every rule set of `study`; see the module docstring."""
    plans = []
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        players = list(study.players or default_players(rule_set.preset))
        if study.strongest and study.strongest not in players:
            players.append(study.strongest)
        names = [parse_policy(p).name for p in players]
        if len(set(names)) != len(names):
            raise SkillError(f"players: each player must appear once, got {', '.join(names)}")
        if len(names) < max(rules.players, 2):
            raise SkillError(
                f"players: a ladder needs at least as many players as seats ({rules.players}), "
                f"got {len(names)}"
            )
        ladder, match, pair = _sizes(study, rules, len(names))
        if ladder < 1 or match < 1 or pair < 1:
            raise SkillError(
                f"games: too few for rule set {rule_set.label}: the ladder needs at least "
                f"{len(ratings.seatings(len(names), rules.players))} games, each match and pair "
                f"at least {2 * rules.players}"
            )
        pairs = len(names) * (len(names) - 1) // 2
        headline = 2 * study.headline_games + 2 * match
        skill = 2 * (study.skill_games // rules.players) * rules.players
        if skill < 1:
            raise SkillError(
                f"skill_games: too few for rule set {rule_set.label}: at least {rules.players}"
            )
        size = ladder + 3 * match + pairs * pair + headline + skill
        plans.append((rule_set, rules, names, size))
    total = sum(p[3] for p in plans)
    done = 0
    keys = ("skill", "ladder", "metagame", "pairs", "rs")
    parts: dict[str, list[pd.DataFrame]] = {k: [] for k in keys}
    for rule_set, rules, names, size in plans:
        tick = None if progress is None else functools.partial(_offset, progress, done, total)
        for key, frame in _rule_set_tables(study, rule_set, rules, names, threads, tick).items():
            parts[key].append(frame)
        done += size
    frames = {k: pd.concat(parts[k], ignore_index=True) for k in keys}
    return SkillTables(*(frames[k] for k in keys[:4]), study=study, rs=frames["rs"])


def _rule_set_tables(
    study: Study,
    rule_set: RuleSet,
    rules: Rules,
    names: list[str],
    threads: int | None,
    progress: Progress | None,
) -> dict[str, pd.DataFrame]:
    seed = study.seed

    def forward(before: int, d: int, _: int) -> None:
        if progress is not None:
            progress(before + d, 0)

    ladder_size, match_size, pair_size = _sizes(study, rules, len(names))
    results = ratings.play_ladder(
        rules, names, study.games, _seed(seed, LADDER_SEED), threads=threads,
        progress=None if progress is None else functools.partial(forward, 0),
    )  # fmt: skip
    # One set of refits for both the ratings' intervals and the spreads': `rate_games`
    # would draw the very same resamples again (same seed), at the same cost.
    table = ratings.rate_games(results, names, 0, _seed(seed, LADDER_SEED))
    mus = ratings.bootstrap_mu(results, names, study.bootstrap, _seed(seed, LADDER_SEED))
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
            _seed(seed, part),
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
        _seed(seed, FIXED_SEED),
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
                rules, names[i], names[j], study.pair_games, _seed(seed, PAIRS_SEED),
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
        resample_equilibria(wins, decided, study.resamples, _seed(seed, PAIRS_SEED))
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


def write_tables(tables: SkillTables, out: str | Path) -> Path:
    """Write skill.csv, ladder.csv, metagame.csv, head_to_head.csv and rs.csv into `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.skill.to_csv(folder / SKILL_FILE, index=False)
    tables.ladder.to_csv(folder / LADDER_FILE, index=False)
    tables.metagame.to_csv(folder / METAGAME_FILE, index=False)
    tables.pairs.to_csv(folder / PAIRS_FILE, index=False)
    if tables.rs is not None:
        tables.rs.to_csv(folder / relative_skill.RS_FILE, index=False)
    return folder


def read_tables(folder: str | Path, study: Study) -> SkillTables:
    """The tables `write_tables` wrote into `folder`."""
    path = Path(folder)
    frames = []
    for name in (SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE):
        try:
            frames.append(pd.read_csv(path / name, keep_default_na=False, na_values=[""]))
        except OSError as exc:
            raise SkillError(f"{path / name} cannot be read: {exc}") from None
    frames[0]["set"] = frames[0]["set"].fillna("")
    frames[0]["player"] = frames[0]["player"].fillna("")
    frames[0]["opponent"] = frames[0]["opponent"].fillna("")
    rs = None
    if (path / relative_skill.RS_FILE).exists():
        rs = pd.read_csv(path / relative_skill.RS_FILE, keep_default_na=False, na_values=[""])
        rs["set"] = rs["set"].fillna("")
    return SkillTables(*frames, study=study, rs=rs)
