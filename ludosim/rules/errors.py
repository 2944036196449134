"""Exceptions raised by ludosim.

Every error says what was given, what is allowed and, where it helps, what to do
instead, so the CLI can print it as one line without a traceback.
"""

from __future__ import annotations


class LudosimError(Exception):
    """Base class of every error ludosim raises on purpose."""


class RulesError(LudosimError, ValueError):
    """A toggle has a bad value, or toggles combine into a game the engines cannot play."""


class ScenarioError(LudosimError, ValueError):
    """A hand-built position or move is not valid under the rules."""


def install_hint(extra: str) -> str:
    """The command that installs an optional extra, as README.md's Install section writes it."""
    return f"pip install -e '.[{extra}]'"


def missing_extra(what: str, package: str, extra: str) -> str:
    """One line: `what` needs the optional `package`, and how to install it."""
    return (
        f"{what} needs the optional package {package}; install the {extra!r} extra: "
        f"{install_hint(extra)} (README.md, Install)"
    )
