"""ludosim: Monte Carlo rules analysis for Ludo and its regional variants."""

from ludosim._version import __version__
from ludosim.errors import LudosimError, RulesError, ScenarioError
from ludosim.play import play
from ludosim.results import load
from ludosim.rules import Rules, presets
from ludosim.simulate import simulate

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
