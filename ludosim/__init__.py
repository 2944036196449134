"""ludosim: Monte Carlo rules analysis for Ludo and its regional variants.

The package is laid out by layer, each importing only from those before it:

    rules/      the game as data: toggles, Rules and presets, board, policies
    engine/     the compiled numba kernel
    reference/  the readable pure-Python engine, the oracle; the exact solo-race solver
    results/    what results hold: schema, Summary, Parquet files, `load`
    run/        playing games: simulate, play, the position notation, replays, bench
    sweep/      grids of cells run resumably into a results folder
    report/     statistics, findings, figures and the HTML page
    studies/    tournaments, ratings, tuning, skill, leads and comebacks, what-if
    adapters/   Gymnasium and PettingZoo environments
    cli/        the `ludosim` command line

The fixed public names are importable from here.
"""

from __future__ import annotations

from ludosim._version import __version__
from ludosim.results import load
from ludosim.rules.errors import LudosimError, RulesError, ScenarioError
from ludosim.rules.model import Rules, presets
from ludosim.run.play import play
from ludosim.run.simulate import simulate

__all__ = [
    "LudosimError",
    "Rules",
    "RulesError",
    "ScenarioError",
    "__version__",
    "load",
    "play",
    "presets",
    "simulate",
]
