"""Which rule sets play the same games: toggles that cannot act, normalised away.

Some toggles only matter together with others. A sweep that varies one of them
where it cannot act plays the same games in several cells (the same dice give
the same moves), and a report that compared those cells would count one game
as several and rank copies of it. `same_game_key` gives every (rules, policies)
pair a key that is equal exactly when the normalisations below make the two
equal; the report merges cells with equal keys before it tests anything, and
says which cells were merged and why (`inert_toggles`).

A toggle is normalised only where both engines provably never read it, and
each case is pinned by a test that plays both values on the same seed and
finds the same games (`tests/rules/test_canonical.py`):

- `detect_skip` is read only when a seat skips a forced capture: it cannot act
  without `forced_capture`, or when no seat plays a skipper;
- `start_capacity` of at least `pieces` never refuses an entry: it is
  unlimited (0);
- `start_attempts_when` only says when `start_attempts` apply: with one
  attempt there is nothing to apply;
- `safe_landing` is read only when a piece lands on a lone opponent on a
  safe square: with no safe squares it cannot act;
- `bonus_stacking` caps the bonus rolls of a move that earns several: with
  neither `bonus_on_capture` nor `bonus_on_finish`, a move earns at most one
  (a six or a globe, never both);
- `safe` lists kinds of squares; a kind whose squares the others already mark
  (the Danish start squares are globes) is dropped, so `starts,globes` and
  `globes` are one rule set there;
- `capture_rule` only decides for a lone opponent on an unsafe square that
  the mover's own pieces share; pieces of two colours share an unsafe square
  only after a piece lands on a block and stays (`block_landing=coexist`), so
  under any other `block_landing` both values give every landing the same outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ludosim.rules.model import TOGGLES, Rules
from ludosim.rules.policies import parse_policy, resolve_policies


def _skips(policies: Sequence[str]) -> bool:
    return any(parse_policy(p).skip > 0 for p in policies)


def inert_toggles(rules: Rules, policies: str | Sequence[str] = "random") -> dict[str, str]:
    """Toggles of `rules` that cannot act with these policies, each with the reason.

    Only toggles whose value differs from the default are listed: a default
    needs no normalising.
    """
    seated = resolve_policies(policies, rules.players)
    reasons: dict[str, str] = {}
    if not rules.forced_capture:
        reasons["detect_skip"] = "no capture is forced (forced_capture=false)"
    elif not _skips(seated):
        reasons["detect_skip"] = "no seat skips a forced capture (no skipper policy)"
    if rules.start_capacity >= rules.pieces:
        reasons["start_capacity"] = f"a capacity of {rules.start_capacity} never refuses an entry"
    if rules.start_attempts == 1:
        reasons["start_attempts_when"] = "there is one start attempt (start_attempts=1)"
    if not rules.safe:
        reasons["safe_landing"] = "no square is safe (safe={})"
    if rules.block_landing != "coexist":
        # An opponent shares an unsafe square with the mover's own pieces only after
        # landing on a block and staying there; on a safe square the safe rules decide.
        reasons["capture_rule"] = (
            "no unsafe square holds two colours (block_landing is not coexist)"
        )
    if not rules.bonus_on_capture and not rules.bonus_on_finish:
        reasons["bonus_stacking"] = "a move earns at most one bonus roll (a six or a globe)"
    defaults = {t.name: t.default for t in TOGGLES.values()}
    return {name: why for name, why in reasons.items() if getattr(rules, name) != defaults[name]}


def minimal_safe(rules: Rules) -> tuple[str, ...]:
    """The kinds of `rules.safe` without those that add no safe square on its board.

    On the Danish board the start squares are globes, so `safe = starts,globes` marks
    the same squares as `safe = globes`: both play the same games.
    """
    from ludosim.rules.board import Board

    squares = Board.from_rules(rules).safe_square
    kinds = list(rules.safe)
    for kind in list(kinds):
        fewer = tuple(k for k in kinds if k != kind)
        if np.array_equal(Board.from_rules(rules.replace(safe=fewer)).safe_square, squares):
            kinds.remove(kind)
    return tuple(kinds)


def safe_note(rules: Rules) -> str | None:
    """Why `rules.safe` marks no more squares than a shorter list, or None."""
    kept = minimal_safe(rules)
    if kept == tuple(rules.safe):
        return None
    extra = [k for k in rules.safe if k not in kept]
    return (
        f"{','.join(extra)} add{'s' * (len(extra) == 1)} no safe square to "
        f"{','.join(kept) or 'none'} on this board"
    )


def canonical_rules(rules: Rules, policies: str | Sequence[str] = "random") -> Rules:
    """`rules` with every toggle that cannot act set to its default, and `safe` without
    the kinds that add no safe square (`minimal_safe`)."""
    changes: dict[str, object] = {
        name: TOGGLES[name].default for name in inert_toggles(rules, policies)
    }
    if rules.safe and "safe" not in changes:
        changes["safe"] = minimal_safe(rules)
    if not changes:
        return rules
    return rules.replace(**changes)


def same_game_key(rules: Rules, policies: str | Sequence[str] = "random") -> str:
    """A key equal for two (rules, policies) exactly when they play the same games.

    The canonical rules' hash and the policy of every seat.
    """
    seated = resolve_policies(policies, rules.players)
    return f"{canonical_rules(rules, seated).hash()}|{','.join(seated)}"


__all__ = ["canonical_rules", "inert_toggles", "minimal_safe", "safe_note", "same_game_key"]
