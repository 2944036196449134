"""A skill ladder: multi-player ratings of policies and outside players.

Every table of the ladder is a set of as many distinct players as the rules
have seats (all combinations of the players), and every table is played in each
rotation of its seats, the same number of games each, so every player meets
every other from every seat. Each game is one multi-player result: its
finishing places (`place_<s>`, 1 = winner) rank the players at the table.

The ratings are the Plackett-Luce model of `openskill` (the optional
`skill` extra: README.md, Install) without drift between games (`TAU` = 0: a
policy's skill does not change): every player starts at the model's default
rating, and each game updates the ratings of its players, the games taken
with the tables interleaved (game k of every seating, then game k + 1, ...).
One-pass updates depend a little on that order; the order is fixed, so the
table is reproducible.
`ordinal` is the model's conservative rating ``mu - 3 sigma``. The 95%
interval of `mu` is a bootstrap over games: resample the games with
replacement, refit from scratch in the same order, take the 2.5th and 97.5th percentiles of
`mu` (resamples from a seeded generator, so the table is deterministic).

Built-in policies (and every `weights:`-style name `ludosim.rules.policies`
accepts) are played by the compiled kernel; a ladder with an outside player
(a callable, `ludosim.reference.outside`) is played by the reference engine,
game for game the same as the kernel for the built-in seats.

`games_to_be_ahead` turns a head-to-head win probability into a number of
games: how long a match must be before the better player is ahead.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.reference.game import play_game
from ludosim.reference.outside import OutsidePlayer
from ludosim.report.answers import Answer, estimate_rows
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError, missing_extra
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy, refuse_search_under_teams
from ludosim.run.simulate import simulate

DEFAULT_PLAYERS = ("random", "runner", "aggressive", "defensive", "pacifist", "balanced")
TAU = 0.0  # no rating drift between games: a policy's skill does not change
COLUMNS = ("player", "mu", "sigma", "ordinal", "ci_low", "ci_high", "games")


class RatingsError(LudosimError, ValueError):
    """A ladder that cannot be played or rated (too few players or games, bad numbers)."""


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:  # pragma: no cover - depends on the installation
        raise RatingsError(missing_extra("rating players", "openskill", "skill")) from None
    return PlackettLuce(tau=TAU)


def player_name(player: str | OutsidePlayer) -> str:
    """The ladder name of a player: the canonical policy name, or a callable's `name`/`__name__`."""
    if callable(player):
        return str(
            getattr(player, "name", None) or getattr(player, "__name__", type(player).__name__)
        )
    return parse_policy(player).name


def seatings(players: int, seats: int) -> list[tuple[int, ...]]:
    """Player indices per seat: every combination of `seats` players, in each rotation."""
    out = []
    for table in itertools.combinations(range(players), seats):
        out.extend(tuple(table[(s + r) % seats] for s in range(seats)) for r in range(seats))
    return out


def play_ladder(
    rules: Rules,
    players: Sequence[str | OutsidePlayer],
    games: int,
    seed: int,
    *,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Play the ladder's games: one row per game with `who_<s>` (player name) and `place_<s>`.

    `games` is the total, rounded down to a multiple of the number of seatings
    (`seatings`); seating `i` plays games ``i*G .. (i+1)*G - 1`` of the seed.
    Rows come in fit order: game k of every seating, then game k + 1.
    """
    n = rules.players
    names = [player_name(p) for p in players]
    if len(set(names)) != len(names):
        raise RatingsError(f"players: each player must appear once, got {', '.join(names)}")
    # A seating with an expert under teams would be refused after the seatings before it.
    refuse_search_under_teams([p for p in players if not callable(p)], rules.teams)
    if len(names) < n:
        raise RatingsError(
            f"players: a ladder needs at least as many players as seats ({n}), got {len(names)}"
        )
    plan = seatings(len(names), n)
    per = checks.integer("games", games, 0, error=RatingsError) // len(plan)
    if per < 1:
        raise RatingsError(
            f"games: {games} is too few for {len(plan)} seatings of {len(names)} players; "
            f"use at least {len(plan)}"
        )
    total = per * len(plan)
    outside = any(callable(p) for p in players)
    frames = []
    for i, seating in enumerate(plan):
        seated = [players[j] for j in seating]
        first = i * per
        if outside:
            rows = [
                play_game(rules, seed, g, policies=seated, record=False).places
                for g in range(first, first + per)
            ]
            places = np.asarray(rows, dtype=np.int64).reshape(per, n)
        else:
            df = simulate(
                rules, per, seed, policies=list(seated), first_game=first, threads=threads
            )
            places = df[[f"place_{s}" for s in range(n)]].to_numpy(dtype=np.int64)
        frame = pd.DataFrame({"game": np.arange(first, first + per), "k": np.arange(per)})
        for s in range(n):
            frame[f"who_{s}"] = names[seating[s]]
            frame[f"place_{s}"] = places[:, s]
        frame["seating"] = i
        frames.append(frame)
        if progress is not None:
            progress(first + per, total)
    out = pd.concat(frames, ignore_index=True).sort_values(["k", "seating"], kind="stable")
    return out.drop(columns=["k", "seating"]).reset_index(drop=True)


def _fit(
    model: Any, who: np.ndarray, place: np.ndarray, count: int, order: np.ndarray
) -> np.ndarray:
    """(mu, sigma) per player after rating the games `order` in turn."""
    ratings = [model.rating() for _ in range(count)]
    for g in order:
        table = who[g]
        new = model.rate([[ratings[i]] for i in table], ranks=place[g].tolist())
        for i, team in zip(table, new, strict=True):
            ratings[i] = team[0]
    return np.array([(r.mu, r.sigma) for r in ratings])


def _encode(results: pd.DataFrame, players: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(who, place): per game, the index in `players` and the place of each seat."""
    index = {name: i for i, name in enumerate(players)}
    n = sum(1 for c in results.columns if c.startswith("who_"))
    who = np.array([[index[w] for w in results[f"who_{s}"]] for s in range(n)]).T.reshape(-1, n)
    place = results[[f"place_{s}" for s in range(n)]].to_numpy(dtype=np.int64)
    return who, place


def _check_bootstrap(bootstrap: Any) -> int:
    """The number of bootstrap resamples: 0 (no intervals) or more."""
    return checks.integer("bootstrap", bootstrap, 0, error=RatingsError)


def bootstrap_mu(
    results: pd.DataFrame, players: Sequence[str], bootstrap: int, seed: int = 0
) -> np.ndarray:
    """`mu` of every player (columns, in `players` order) refitted on `bootstrap` resamples.

    Each resample draws the games of `results` (rows of `play_ladder`) with
    replacement from a generator seeded with `seed` and rates them from scratch in
    game order; row b is resample b. `rate_games` takes its intervals from these.
    """
    bootstrap = _check_bootstrap(bootstrap)
    model = _model()
    who, place = _encode(results, players)
    rng = np.random.default_rng(seed)
    size = len(results)
    mus = [
        # Sorted, so each resample is rated in the same order as the games.
        _fit(model, who, place, len(players), np.sort(rng.integers(0, size, size)))[:, 0]
        for _ in range(bootstrap)
    ]
    return np.array(mus).reshape(bootstrap, len(players))


def rate_games(
    results: pd.DataFrame, players: Sequence[str], bootstrap: int = 100, seed: int = 0
) -> pd.DataFrame:
    """Ratings table from the rows of `play_ladder` (columns `COLUMNS`, best `mu` first).

    With `bootstrap` B > 0, `ci_low`/`ci_high` are the 2.5th and 97.5th
    percentiles of `mu` over B refits on games resampled with replacement
    (`bootstrap_mu`, generator seeded with `seed`); with B = 0 they are NaN.
    """
    bootstrap = _check_bootstrap(bootstrap)
    who, place = _encode(results, players)
    fit = _fit(_model(), who, place, len(players), np.arange(len(results)))
    low = high = np.full(len(players), np.nan)
    if bootstrap:
        low, high = np.percentile(
            bootstrap_mu(results, players, bootstrap, seed), [2.5, 97.5], axis=0
        )
    table = pd.DataFrame(
        {
            "player": list(players),
            "mu": fit[:, 0],
            "sigma": fit[:, 1],
            "ordinal": fit[:, 0] - 3.0 * fit[:, 1],
            "ci_low": low,
            "ci_high": high,
            "games": np.bincount(who.ravel(), minlength=len(players)),
        }
    )
    return table.sort_values("mu", ascending=False, kind="stable").reset_index(drop=True)


def ratings(
    rules: Rules,
    players: Sequence[str | OutsidePlayer] = DEFAULT_PLAYERS,
    games: int = 6000,
    seed: int = 0,
    *,
    bootstrap: int = 100,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Play a ladder (`play_ladder`) and rate its players (`rate_games`).

    Returns one row per player: player, mu, sigma, ordinal (mu - 3 sigma),
    ci_low, ci_high (bootstrap 95% interval of mu) and games played; the
    table's ``attrs`` record the rules name, seed and games played.
    """
    # Checked before the games: a bad number of resamples would be found only after them.
    bootstrap = _check_bootstrap(bootstrap)
    results = play_ladder(rules, players, games, seed, threads=threads, progress=progress)
    table = rate_games(results, [player_name(p) for p in players], bootstrap, seed)
    table.attrs.update(games=len(results), seed=seed, players=rules.players)
    return table


def ratings_answer(table: pd.DataFrame, label: str, bootstrap: int) -> Answer:
    """What `ludosim ratings` prints of a `ratings` table: each player's mu with its
    bootstrap 95% interval, sigma and ordinal written to the digits that interval
    supports, best first."""
    rows = [
        {
            "measure": "rating mu",
            "of": row.player,
            "estimate": row.mu,
            "ci_low": row.ci_low,
            "ci_high": row.ci_high,
            "unit": "",
            "games": int(row.games),
            "sigma": row.sigma,
            "ordinal": row.ordinal,
        }
        for row in table.itertuples(index=False)
    ]
    title = (
        f"{label}: {table.attrs.get('games', 0):,} games, Plackett-Luce ratings (ordinal = "
        f"mu - 3 sigma; 95% bootstrap interval of mu over {bootstrap} resamples)"
    )
    return Answer(
        "ratings", title, estimate_rows(rows), details={"seed": table.attrs.get("seed")},
        rounded_like=("sigma", "ordinal"),
    )  # fmt: skip


def win_probability(table: pd.DataFrame, a: str, b: str) -> float:
    """Probability that `a` finishes ahead of `b`, from their ratings in `table`."""
    model = _model()
    rows = table.set_index("player")
    for name in (a, b):
        if name not in rows.index:
            raise RatingsError(f"player {name!r} is not in the table; allowed: {list(rows.index)}")
    ra = model.rating(mu=float(rows.at[a, "mu"]), sigma=float(rows.at[a, "sigma"]))
    rb = model.rating(mu=float(rows.at[b, "mu"]), sigma=float(rows.at[b, "sigma"]))
    return float(model.predict_win([[ra], [rb]])[0])


def _tail(n: int, m: int, p: float) -> float:
    """P(X >= m) for X ~ Binomial(n, p), summed exactly term by term (log space)."""
    if m <= 0:
        return 1.0
    if m > n:
        return 0.0
    if p >= 1.0:
        return 1.0
    lp, lq = math.log(p), math.log1p(-p)
    logs = [
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq
        for k in range(m, n + 1)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(x - top) for x in logs))


def ahead_probability(n: int, p: float) -> float:
    """Probability that the player winning each game with probability `p` has more wins after `n`.

    Games are independent; "ahead" means strictly more wins than the other
    player (a tie is not ahead).
    """
    return _tail(n, n // 2 + 1, p)


def games_to_be_ahead(p: float, confidence: float = 0.95) -> int:
    """Games the better player needs to be ahead with probability `confidence`, and stay so.

    `p` is the probability that the better player wins one head-to-head game
    (0.5 < p <= 1). The answer is the smallest n such that after n games, and
    after any larger number of games, the better player has strictly more wins
    with probability at least `confidence` (exact binomial, `ahead_probability`).
    The probability is not monotone in n (an even n allows a tie), so this can
    be larger than the first n that reaches `confidence`: for p = 0.9 and 95%,
    3 games give 0.972 but 4 give 0.948; the answer is 5. For p > 1/2 the
    probabilities at even n increase with n, so the answer is 2k - 1 for the
    smallest k with ``ahead_probability(2k, p) >= confidence``.
    """
    if not 0.5 < p <= 1.0:
        raise RatingsError(f"p: the better player's win probability must be in (0.5, 1], got {p}")
    if not 0.0 < confidence < 1.0:
        raise RatingsError(f"confidence: must be in (0, 1), got {confidence}")
    limit = 10**6
    high = 1
    while ahead_probability(2 * high, p) < confidence:
        high *= 2
        if high > limit:
            raise RatingsError(f"p: {p} is too close to 0.5 for fewer than {2 * limit} games")
    low = high // 2 + 1 if high > 1 else 1
    while low < high:
        mid = (low + high) // 2
        if ahead_probability(2 * mid, p) >= confidence:
            high = mid
        else:
            low = mid + 1
    return 2 * high - 1
