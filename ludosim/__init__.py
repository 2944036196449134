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

The fixed public names are importable from here. Modules that lived at the top
level before the layers (`ludosim.analysis`, `ludosim.simulate` as a module,
`ludosim.report`, ...) still import under their old names: `MOVED` maps each to
its home, and a finder on `sys.meta_path` hands out the same module object.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

from ludosim._version import __version__
from ludosim.results import load
from ludosim.rules.errors import LudosimError, RulesError, ScenarioError
from ludosim.rules.model import Rules, presets
from ludosim.run.play import play
from ludosim.run.simulate import simulate

# Old module path below `ludosim.` -> its module (docs/api.md, "Where modules live").
MOVED = {
    "toggles": "ludosim.rules.toggles",
    "board": "ludosim.rules.board",
    "options": "ludosim.rules.options",
    "policies": "ludosim.rules.policies",
    "canonical": "ludosim.rules.canonical",
    "rng": "ludosim.rules.streams",
    "tomlio": "ludosim.rules.tomlio",
    "errors": "ludosim.rules.errors",
    "exact": "ludosim.reference.exact",
    "simulate": "ludosim.run.simulate",
    "play": "ludosim.run.play",
    "position": "ludosim.run.notation",
    "expert": "ludosim.run.replay",
    "bench": "ludosim.run.bench",
    "analysis": "ludosim.report.analysis",
    "stats": "ludosim.results.stats",
    "measures": "ludosim.results.measures",
    "report.measures": "ludosim.results.measures",
    "contrasts": "ludosim.report.contrasts",
    "findings": "ludosim.report.findings",
    "wording": "ludosim.report.wording",
    "figures": "ludosim.report.figures",
    "whatif": "ludosim.studies.whatif",
    "tournament": "ludosim.studies.tournament",
    "ratings": "ludosim.studies.ratings",
    "tune": "ludosim.studies.tune",
    "skill": "ludosim.studies.skill",
    "unfold": "ludosim.studies.unfold",
    "leads": "ludosim.studies.leads",
    "progress": "ludosim.cli.progress",
    "env": "ludosim.adapters.gymnasium_env",
    "aec": "ludosim.adapters.pettingzoo_env",
    # renamed so that no two modules share a name (engine/layout.py, rules/errors.py)
    "results.layout": "ludosim.results.paths",
    "results.errors": "ludosim.results.failures",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports `ludosim.<old>` as the module it moved to (the same object, not a copy)."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = f"{__name__}."
        if not fullname.startswith(prefix) or fullname[len(prefix) :] not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # a placeholder, replaced in sys.modules by exec_module

    def exec_module(self, module: ModuleType) -> None:
        # The import system returns whatever sys.modules holds once this returns.
        name = module.__name__[len(__name__) + 1 :]
        sys.modules[module.__name__] = importlib.import_module(MOVED[name])


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())
# `ludosim.simulate` and `ludosim.play` are the functions: importing their old modules
# must not rebind them (an import binds a new submodule on its package), so those two
# modules are registered under their old names now, when they are already loaded.
for _name in ("simulate", "play"):
    sys.modules.setdefault(f"{__name__}.{_name}", sys.modules[MOVED[_name]])

__all__ = [
    "MOVED",
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
