"""Exceptions raised by ludosim.

Every error says what was given, what is allowed and, where it helps, what to do
instead, so the CLI can print it as one line without a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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


def close_names(given: object, known: Iterable[str], most: int = 3) -> list[str]:
    """The known names a misspelt `given` is closest to (difflib's ratio at least 0.6),
    closest first; [] when none is close."""
    if not isinstance(given, str) or not given.strip():
        return []
    return difflib.get_close_matches(given.strip(), list(known), n=most, cutoff=0.6)


def did_you_mean(names: Iterable[str]) -> str:
    """`did you mean 'finish'?`, `did you mean 'safe_landing' or 'safe'?`."""
    quoted = [repr(n) for n in names]
    words = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"did you mean {words}?"


def unknown_name(
    what: str,
    given: object,
    known: Iterable[str],
    allowed: str = "allowed",
    listed: str | None = None,
    suggest: Iterable[str] | None = None,
) -> str:
    """One line for a name that is none of `known`: what was given, then the close
    names to try (`unknown toggle 'finsh'; did you mean 'finish'?`), or, when none is
    close, every name allowed (`...; known toggles: players, sides, ...`).

    `allowed` heads the list; `listed` writes it (by default the `known` names,
    comma-separated); `suggest`: the names a suggestion may be (by default `known`).
    """
    names = list(known)
    close = close_names(given, names if suggest is None else suggest)
    head = f"unknown {what} {given!r}"
    if close:
        return f"{head}; {did_you_mean(close)}"
    return f"{head}; {allowed}: {', '.join(names) if listed is None else listed}"
