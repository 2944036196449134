"""A stage played and measured (`play_stage`): its three sweeps (every seat random; the
optimal and the fictive player, each in one seat against random ones) and every design
measure of every rule set with its 95% interval (`measure_stage`, `stage_samples`,
`measures_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.contrasts import CellEstimates, CellSamples, cell_rows
from ludosim.results.measures import DESIGN_MEASURES, MEASURES, winning_sides
from ludosim.results.stats import Z95, imbalance, quantile_ci
from ludosim.rules.options import parse_sets
from ludosim.run.runstages import Stage as RunStage
from ludosim.run.runstages import begin, game_cost
from ludosim.studies.design.plan import Plan
from ludosim.studies.design.spec import WEAK, DesignError, Progress, player_seed

BOOTSTRAP = 400  # resamples behind an imbalance's standard error


@dataclass
class Stage:
    """Rule sets played together (same games): the screening, the holdout, a round."""

    name: str
    codes: np.ndarray  # rule sets x free toggles
    games: int  # random-seat games per rule set
    skill_games: int  # games of each skill player (optimal, fictive), over all its seats

    seed: int
    ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.ids:
            self.ids = [f"{self.name}-{i:03d}" for i in range(len(self.codes))]


def _variants(plan: Plan, stage: Stage) -> tuple[Any, ...]:
    from ludosim.sweep.spec import Variant

    fixed = parse_sets(plan.study.sets)
    return tuple(
        Variant(
            name=pid,
            preset=plan.study.preset,
            set={**fixed, **{k: _typed(v) for k, v in plan.levels(row).items()}},
        )
        for pid, row in zip(stage.ids, stage.codes, strict=True)
    )


def _typed(value: Any) -> Any:
    """A toggle value as a sweep file writes it (sets and faces as lists)."""
    return list(value) if isinstance(value, tuple) else value


def _seatings(player: str, players: int) -> list[list[str]]:
    """`player` in every position against random ones: `expert,random,random,random`
    rotated."""
    return [[player if s == k else WEAK for s in range(players)] for k in range(players)]


def stage_specs(plan: Plan, stage: Stage) -> dict[str, Any]:
    """The three sweeps of a stage: every seat random (with the game-flow columns); the
    optimal player and the fictive player each in every position against random ones,
    the fictive player on dice of its own (`player_seed`)."""
    from ludosim.sweep import SweepSpec

    study = plan.study
    players = study.base().players
    variants = _variants(plan, stage)
    specs = {
        "random": SweepSpec(
            variants=variants,
            policies=WEAK,
            games=stage.games,
            seed=stage.seed,
            flow=True,
            name=f"{stage.name}-random",
        )
    }
    for kind, player, seed in (
        ("optimal", study.optimal, stage.seed),
        ("fictive", study.fictive, player_seed(stage.seed)),
    ):
        specs[kind] = SweepSpec(
            variants=variants,
            vary={"policies": [tuple(s) for s in _seatings(player, players)]},
            games=max(1, stage.skill_games // players),
            seed=seed,
            name=f"{stage.name}-{kind}",
        )
    return specs


# A stage's name as a progress line says it.
STAGE_WORDS = {"screen": "screening", "holdout": "holdouts", "confirm": "confirmation"}


def sweep_name(stage: Stage, kind: str) -> str:
    """`screening, optimal player`: one of a stage's sweeps as the run's progress names it."""
    who = "every seat random" if kind == "random" else f"{kind} player"
    return f"{STAGE_WORDS.get(stage.name, stage.name)}, {who}"


def run_stages(plan: Plan, stage: Stage) -> list[RunStage]:
    """A stage's three sweeps as stages of the run: their names, games and cost per game."""
    from ludosim.sweep import expand

    stages = []
    for kind, spec in stage_specs(plan, stage).items():
        cells = expand(spec)
        games = sum(c.games for c in cells)
        work = sum(c.games * game_cost(c.policies) for c in cells)
        stages.append(RunStage(sweep_name(stage, kind), games, work / max(games, 1)))
    return stages


def play_stage(
    plan: Plan,
    stage: Stage,
    out: Path,
    *,
    progress: Progress | None = None,
    **run: Any,
) -> tuple[pd.DataFrame, StageSamples]:
    """Play (or resume) a stage's sweeps into `out/<stage>-random`, `-optimal` and
    `-fictive`; its measures and the samples they come from."""
    from ludosim.sweep import run_sweep

    specs = stage_specs(plan, stage)
    for kind, spec in specs.items():
        begin(progress, sweep_name(stage, kind))
        run_sweep(spec, out / f"{stage.name}-{kind}", progress=progress, **run)
    return measure_stage(plan, stage, out)


_RANDOM_COLUMNS = ("game", "first", "winner", "turns", "truncated", "lead_changes", "last_at_mid")


def measure_stage(plan: Plan, stage: Stage, out: Path) -> tuple[pd.DataFrame, StageSamples]:
    """Every design measure of every rule set of a played stage, with its 95% interval.

    Rule sets of a stage played the same games, so mean measures are `CellSamples`
    (paired); the 90th percentile, the imbalance and the relative skill level are
    `CellEstimates`.
    """

    study = plan.study
    players = study.base().players
    columns = [
        *_RANDOM_COLUMNS,
        *(f"captures_{s}" for s in range(players)),
        *(f"place_{s}" for s in range(players)),
    ]
    random = _by_point(out / f"{stage.name}-random", columns)
    seated = [
        _seat_wins(_by_point(out / f"{stage.name}-{kind}", ["game", "winner"]), player, players)
        for kind, player in (("optimal", study.optimal), ("fictive", study.fictive))
    ]
    samples = stage_samples(random.assign(cell=random["point"]), *seated)
    return measures_table(stage, samples), samples


def _by_point(folder: Path, columns: Sequence[str]) -> pd.DataFrame:
    """A sweep's rows with `point` (the variant, the rule set) and the cell's policies."""
    from ludosim import results

    cells = results.load_cells(folder)
    rows = results.load(folder, columns=list(columns))
    variant = dict(zip(cells["cell"].astype(str), cells["variant"].astype(str), strict=True))
    policies = dict(zip(cells["cell"].astype(str), cells["policies"].astype(str), strict=True))
    cell = rows["cell"].astype(str)
    return rows.assign(point=cell.map(variant), policies=cell.map(policies))


def _seat_wins(rows: pd.DataFrame, player: str, players: int) -> pd.DataFrame:
    """One table per rule set of a player's games in every seat position: `cell` (the
    rule set), `game` and `won` (1 when the player's seat won, 0 when another did, NaN
    without a finisher). The k-th seating's game g becomes game k * G + g."""
    from ludosim.rules.policies import format_policies

    seat_of = {format_policies(s): k for k, s in enumerate(_seatings(player, players))}
    seats = rows["policies"].astype(str).map(seat_of)
    if seats.isna().any():
        raise DesignError(
            f"a skill sweep holds seatings other than {player} against {WEAK} players; "
            "delete the stage's -optimal and -fictive folders and rerun"
        )
    per = int(rows.groupby(["point", "policies"], observed=True).size().max())
    seat = seats.to_numpy(np.int64)
    winner = rows["winner"].to_numpy(np.int64)
    won = (winner == seat).astype(float)
    won[winner < 0] = np.nan
    game = rows["game"].to_numpy(np.int64) + seat * per
    return pd.DataFrame({"cell": rows["point"].to_numpy(), "game": game, "won": won})


@dataclass
class StageSamples:
    """What a stage's measures are computed from."""

    means: dict[str, CellSamples | CellEstimates]


def stage_samples(
    random: pd.DataFrame, optimal: pd.DataFrame, fictive: pd.DataFrame
) -> StageSamples:
    """The samples of every design measure: `random` holds every rule set's games with
    every seat random (`cell`, the game columns); `optimal` and `fictive` each player's
    games in one seat against random ones (`cell`, `game`, `won`: `_seat_wins`)."""
    rows = cell_rows(random)
    out: dict[str, CellSamples | CellEstimates] = {}
    for name in DESIGN_MEASURES:
        m = MEASURES[name]
        if m.statistic == "mean":
            out[name] = CellSamples(rows, lambda r, n, m=m: m.scale * m.values(r, n))
        elif m.statistic == "p90":
            est, se, games = {}, {}, {}
            for cell, r in rows.items():
                value, low, high = quantile_ci(m.values(r, r.players), 0.9)
                est[cell], se[cell], games[cell] = value, (high - low) / (2 * Z95), len(r)
            out[name] = CellEstimates(est, se, games)
        elif m.statistic == "relative_skill":
            out[name] = relative_skill_estimates(optimal, fictive, rows)
        else:  # imbalance over the turn-order positions
            est, se, games = {}, {}, {}
            for i, (cell, r) in enumerate(rows.items()):
                position, sides = winning_sides(r, r.players)
                done = position >= 0
                wins = np.bincount(position[done], minlength=sides)
                est[cell], se[cell] = imbalance(wins, BOOTSTRAP, seed=i)
                games[cell] = int(done.sum())
            out[name] = CellEstimates(est, se, games)
    return StageSamples(out)


def relative_skill_estimates(
    optimal: pd.DataFrame, fictive: pd.DataFrame, rows: Mapping[str, Any]
) -> CellEstimates:
    """Each rule set's relative skill level with its delta-method standard error
    (`ludosim.studies.relative_skill.RelativeSkill`, the skill page's measure): from the
    optimal and the fictive player's decided games in one rotated seat against random
    players, on independent dice. `rows`: the rule sets' random-seat rows (their players).
    `games`: both players' decided games together."""
    from ludosim.studies.relative_skill import RelativeSkill

    def tally(frame: pd.DataFrame) -> dict[str, tuple[int, int]]:
        won = frame["won"].to_numpy(float)
        done = ~np.isnan(won)
        cells = frame["cell"].astype(str).to_numpy()
        wins = pd.Series(np.where(done, won, 0.0)).groupby(cells).sum()
        decided = pd.Series(done.astype(np.int64)).groupby(cells).sum()
        return {c: (int(wins[c]), int(decided[c])) for c in decided.index}

    o, f = tally(optimal), tally(fictive)
    est, se, games = {}, {}, {}
    for cell, r in rows.items():
        (wo, no), (wf, nf) = o.get(cell, (0, 0)), f.get(cell, (0, 0))
        rs = RelativeSkill(wo, no, wf, nf, r.players)
        if not (no and nf and rs.defined):
            raise DesignError(
                f"skill: under rule set {cell} the fictive player won {wf:,} of {nf:,} decided "
                f"games against random players, no more than a random player's share, so its "
                "relative skill level is undefined; name another fictive player"
            )
        est[cell], se[cell], games[cell] = rs.rs, rs.se, no + nf
    return CellEstimates(est, se, games)


MEASURE_COLUMNS = (
    "point",
    "stage",
    "measure",
    "unit",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "games",
)


def measures_table(stage: Stage, samples: StageSamples) -> pd.DataFrame:
    rows = []
    for name, sample in samples.means.items():
        unit = MEASURES[name].unit
        for point in stage.ids:
            c = sample.contrast({point: 1.0})
            low = c.ci_low
            if MEASURES[name].statistic == "imbalance":
                low = max(0.0, low)  # a distance from fair: its interval starts at 0
            rows.append(
                {
                    "point": point,
                    "stage": stage.name,
                    "measure": name,
                    "unit": unit,
                    "estimate": c.estimate,
                    "ci_low": low,
                    "ci_high": c.ci_high,
                    "se": c.se,
                    "games": c.games,
                }
            )
    return pd.DataFrame(rows, columns=list(MEASURE_COLUMNS))
