"""`Summary`: the aggregates of a run, and its round trip through a one-row frame.

`simulate(..., summary=True)` folds a `Summary` from the kernel's rows block
by block; `summarize` computes the same from a per-game DataFrame. A `summary_only` sweep
keeps one row per chunk (`summary_to_frame`): every field is a count or a
sum, so the summary of a cell is the column-wise sum of its chunks' rows
(`summary_from_frame`). The columns come from `ludosim.results.schema`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results import schema
from ludosim.results.failures import ResultsError
from ludosim.rules.model import Rules

# Wins by position are the winning seat's: under `teams` not its team's (whose places the
# per-game rows hold, `measures.winning_sides`), so teams keep their rows.
NO_TEAM_SUMMARY = (
    "a summary counts wins by the winning seat's turn-order position, not by team; "
    "keep the per-game rows (no summary) to measure teams"
)


@dataclass
class Summary:
    """Aggregates of a run, accumulated in the kernel (memory flat in games).

    - `games`, `truncated`, `no_winner`: counts.
    - `sums` / `sums_sq`: totals and totals of squares of `turns`, `rolls`, `end_turns`.
    - `seats`: DataFrame indexed by seat with `wins`, `first` (games it started),
      and for each of captures, captured, returned, skipped, caught (and points
      under megajogos scoring) the columns `<name>_sum` and `<name>_sumsq`.
    - `wins_by_position`: wins by turn-order position `(winner - first) mod n`.
    - `places`: counts, rows seat, columns place 1..n.
    - `hist`: DataFrame with columns `turns`, `rolls`: games per value
      (index 0 .. HIST_BINS - 1; the last bin counts that value and above).
    - `attrs`: rules, seed, policies and versions, as `DataFrame.attrs` of `simulate`.
    """

    games: int
    truncated: int
    no_winner: int
    sums: dict[str, int]
    sums_sq: dict[str, int]
    seats: pd.DataFrame
    wins_by_position: pd.Series
    places: pd.DataFrame
    hist: pd.DataFrame
    attrs: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.seats)

    def mean(self, name: str) -> float:
        """Mean of `turns`, `rolls` or `end_turns`."""
        return self.sums[name] / self.games

    def std(self, name: str) -> float:
        """Sample standard deviation of `turns`, `rolls` or `end_turns`."""
        n = self.games
        if n < 2:
            return float("nan")
        var = (self.sums_sq[name] - self.sums[name] ** 2 / n) / (n - 1)
        return float(np.sqrt(max(var, 0.0)))

    def frames(self) -> dict[str, pd.DataFrame]:
        """The summary as a dict of small DataFrames (for reports and CSV)."""
        overall = pd.DataFrame(
            {
                "sum": [self.sums[k] for k in schema.MEASURES],
                "sum_sq": [self.sums_sq[k] for k in schema.MEASURES],
                "mean": [self.mean(k) for k in schema.MEASURES],
                "std": [self.std(k) for k in schema.MEASURES],
            },
            index=pd.Index(list(schema.MEASURES), name="column"),
        )
        counts = pd.Series(
            {"games": self.games, "truncated": self.truncated, "no_winner": self.no_winner}
        ).to_frame("count")
        return {
            "counts": counts,
            "overall": overall,
            "seats": self.seats,
            "wins_by_position": self.wins_by_position.to_frame("wins"),
            "places": self.places,
            "hist": self.hist,
        }


def build_summary(
    counts: dict[str, int],
    sums: dict[str, int],
    sums_sq: dict[str, int],
    seats: dict[str, np.ndarray],
    wins_by_position: np.ndarray,
    places: np.ndarray,
    hist: dict[str, np.ndarray],
) -> Summary:
    """A `Summary` of plain totals, with the index names and column order of the schema.

    `seats` maps each column of `schema.seat_columns` to one value per seat;
    `places` is [seat, place - 1]; `hist` maps turns and rolls to counts per value.
    """
    players = len(wins_by_position)
    seat_index = pd.Index(range(players), name="seat")
    points = "points_sum" in seats
    return Summary(
        games=int(counts["games"]),
        truncated=int(counts["truncated"]),
        no_winner=int(counts["no_winner"]),
        sums={k: int(sums[k]) for k in schema.MEASURES},
        sums_sq={k: int(sums_sq[k]) for k in schema.MEASURES},
        seats=pd.DataFrame(
            {c: np.asarray(seats[c], dtype=np.int64) for c in schema.seat_columns(points)},
            index=seat_index,
        ),
        wins_by_position=pd.Series(
            np.asarray(wins_by_position, dtype=np.int64),
            index=pd.Index(range(players), name="position"),
        ),
        places=pd.DataFrame(
            np.asarray(places, dtype=np.int64),
            index=seat_index,
            columns=pd.Index(range(1, players + 1), name="place"),
        ),
        hist=pd.DataFrame(
            {k: np.asarray(hist[k], dtype=np.int64) for k in schema.HIST_MEASURES}
        ).rename_axis("value"),
    )


def summarize(rules: Rules, df: pd.DataFrame, bins: int | None = None) -> Summary:
    """The `Summary` of a per-game DataFrame (what `summary=True` folds block by block).

    `bins` is the histogram length (default: the kernel's `HIST_BINS`).
    """
    if bins is None:
        # The kernel owns the histogram length; numba is imported only when it is needed.
        from ludosim.engine.batch import HIST_BINS

        bins = HIST_BINS
    n = rules.players
    points = schema.has_points(rules)
    values = {name: df[name].to_numpy(np.int64) for name in schema.MEASURES}
    first = df["first"].to_numpy(np.int64)
    winner = df["winner"].to_numpy(np.int64)
    won = winner >= 0
    seats: dict[str, np.ndarray] = {
        "wins": np.bincount(winner[won], minlength=n),
        "first": np.bincount(first, minlength=n),
    }
    for name in schema.SEAT_STATS:
        if name == "points" and not points:
            continue
        per_seat = [df[f"{name}_{s}"].to_numpy(np.int64) for s in range(n)]
        seats[f"{name}_sum"] = np.array([v.sum() for v in per_seat], dtype=np.int64)
        seats[f"{name}_sumsq"] = np.array([(v * v).sum() for v in per_seat], dtype=np.int64)
    places = np.stack(
        [np.bincount(df[f"place_{s}"].to_numpy(np.int64) - 1, minlength=n) for s in range(n)]
    )
    summary = build_summary(
        counts={
            "games": len(df),
            "truncated": int(df["truncated"].sum()),
            "no_winner": int((~won).sum()),
        },
        sums={k: int(v.sum()) for k, v in values.items()},
        sums_sq={k: int((v * v).sum()) for k, v in values.items()},
        seats=seats,
        wins_by_position=np.bincount((winner[won] - first[won]) % n, minlength=n),
        places=places,
        hist={
            k: np.bincount(np.minimum(values[k], bins - 1), minlength=bins)
            for k in schema.HIST_MEASURES
        },
    )
    summary.attrs = dict(df.attrs)
    return summary


def summary_to_frame(summary: Summary) -> pd.DataFrame:
    """One-row DataFrame of a `Summary`: `schema.summary_columns`, then list-valued histograms."""
    players = summary.players
    points = "points_sum" in summary.seats.columns
    values: list[int] = [summary.games, summary.truncated, summary.no_winner]
    for name in schema.MEASURES:
        values += [summary.sums[name], summary.sums_sq[name]]
    seat_columns = schema.seat_columns(points)
    seats = summary.seats[seat_columns].to_numpy(np.int64)
    values += seats.ravel().tolist()  # seat by seat, columns in schema order
    values += summary.wins_by_position.to_numpy(np.int64).tolist()
    values += summary.places.to_numpy(np.int64).ravel().tolist()
    names = schema.summary_columns(players, points)
    frame = pd.DataFrame([values], columns=names).astype("int64")
    for name, column in zip(schema.HIST_MEASURES, schema.hist_columns(), strict=True):
        frame[column] = [np.asarray(summary.hist[name], dtype=np.int64)]
    return frame


def summary_from_frame(rows: pd.DataFrame) -> Summary:
    """The `Summary` of the sum of `summary_to_frame` rows (the chunks of one cell).

    Columns that are null in every row (another cell's seats, read from a
    sweep mixing player counts) and the chunk columns are ignored; what is
    left must be the columns of one summary layout of the schema.
    """
    present = [c for c in rows.columns if rows[c].notna().all()]
    layout = schema.summary_layout(present)
    if layout is None:
        raise ResultsError(
            "these rows are not summary rows of ludosim (summary_to_frame): their columns "
            f"{', '.join(map(str, present[:6]))}, ... match no summary layout"
        )
    players, points = layout
    total = {c: int(rows[c].sum()) for c in schema.summary_columns(players, points)}
    seat_columns = schema.seat_columns(points)
    return build_summary(
        counts={k: total[k] for k in schema.COUNTS},
        sums={k: total[f"{k}_sum"] for k in schema.MEASURES},
        sums_sq={k: total[f"{k}_sumsq"] for k in schema.MEASURES},
        seats={c: [total[f"seat{s}_{c}"] for s in range(players)] for c in seat_columns},
        wins_by_position=np.array([total[f"position{p}_wins"] for p in range(players)]),
        places=np.array(
            [[total[f"seat{s}_place{q}"] for q in range(1, players + 1)] for s in range(players)]
        ),
        hist={
            name: np.sum(np.stack(rows[column].to_list()), axis=0)
            for name, column in zip(schema.HIST_MEASURES, schema.hist_columns(), strict=True)
        },
    )
