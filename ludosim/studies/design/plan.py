"""The plan (`plan_study`): the free house rules that can act and that the engines accept
together, and a two-level fractional factorial of resolution V over them; the rule sets
held out of it to check the model (`holdout_codes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ludosim.rules.canonical import inert_toggles
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import TOGGLES, Rules
from ludosim.rules.policies import refuse_search_under_teams
from ludosim.studies.design.spec import MAX_FREE, WEAK, DesignError, DesignStudy, Free, _rules


@dataclass(frozen=True)
class Plan:
    """The screening design: the free toggles kept, the dropped ones and why, the codes."""

    study: DesignStudy
    free: tuple[Free, ...]
    codes: np.ndarray  # rule sets x free toggles, -1 (the preset's value) or +1
    dropped: tuple[tuple[str, str], ...]

    def levels(self, row: Sequence[float]) -> dict[str, Any]:
        return {f.toggle: f.values[1 if x > 0 else 0] for f, x in zip(self.free, row, strict=True)}

    def rules(self, row: Sequence[float]) -> Rules:
        return _rules(self.study.preset, self.study.sets, self.levels(row))

    def label(self, row: Sequence[float]) -> str:
        changed = [f.text(1) for f, x in zip(self.free, row, strict=True) if x > 0]
        return " ".join(changed) or "(the preset's own)"


def plan_study(study: DesignStudy) -> Plan:
    """Drop the free toggles that cannot be played or cannot act; build the factorial."""
    dropped: list[tuple[str, str]] = []
    kept: list[Free] = []
    base = study.base()
    for free in study.free:
        if getattr(base, free.toggle) != free.values[0] and not any(
            getattr(base, free.toggle) == v for v in free.values
        ):
            pass  # a study may screen two values neither of which is the preset's
        try:
            _rules(study.preset, study.sets, {free.toggle: free.values[1]})
            _rules(study.preset, study.sets, {free.toggle: free.values[0]})
        except LudosimError as exc:
            dropped.append((free.toggle, f"refused: {exc}"))
            continue
        clash = next((k for k in kept if _refused(study, (k, free))), None)
        if clash is not None:
            dropped.append((free.toggle, f"refused together with {clash.toggle}"))
            continue
        kept.append(free)
    while True:
        if len(kept) > MAX_FREE:
            raise DesignError(
                f"free: {len(kept)} toggles; a design screens at most {MAX_FREE} (name them "
                "with free = [...] / --free)"
            )
        if len(kept) < 2:
            raise DesignError(
                f"free: {len(kept)} toggle(s) left to screen (dropped: "
                f"{'; '.join(f'{t}: {w}' for t, w in dropped) or 'none'}); a design needs two"
            )
        codes = _factorial(len(kept))
        plan = Plan(study, tuple(kept), codes, tuple(dropped))
        inert = _inert_everywhere(plan)
        if not inert:
            _refuse_search_under_teams(plan)
            return plan
        kept = [f for f in kept if f.toggle not in inert]
        dropped += [
            (t, f"cannot act in any rule set of the design ({why})") for t, why in inert.items()
        ]


def _refuse_search_under_teams(plan: Plan) -> None:
    """The optimal and the fictive player, refused in any rule set of the design that has
    `teams` when they search (`refuse_search_under_teams`): before the screening's games,
    not when the skill stage comes."""
    study = plan.study
    rule_sets = [(study.base(), "(the preset's own)")]
    rule_sets += [(plan.rules(row), plan.label(row)) for row in plan.codes]
    for rules, label in rule_sets:
        for role, player in (("optimal", study.optimal), ("fictive", study.fictive)):
            try:
                refuse_search_under_teams([player], rules.teams)
            except LudosimError as exc:
                raise DesignError(
                    f"rule set {label}: the {role} player of the relative skill level "
                    f"(--{role}): {exc}"
                ) from None


def _refused(study: DesignStudy, frees: Sequence[Free]) -> bool:
    try:
        _rules(study.preset, study.sets, {f.toggle: f.values[1] for f in frees})
    except LudosimError:
        return True
    return False


def _factorial(k: int) -> np.ndarray:
    """A two-level design of resolution V (at least 16 rule sets), -1/+1 codes."""
    from pydoe import fracfact_by_res

    return np.asarray(fracfact_by_res(k, 5), dtype=float)


def _inert_everywhere(plan: Plan) -> dict[str, str]:
    """Free toggles that cannot act in any rule set of the design, with the reason.

    Whether a toggle can act depends only on the other toggles (`ludosim.rules.canonical`),
    so in each rule set it is asked at whichever of its two values is not the default
    (the canonical form reports only toggles away from their default).
    """
    reasons: dict[str, str] = {}
    acting: set[str] = set()
    policies = None
    for row in plan.codes:
        levels = plan.levels(row)
        for f in plan.free:
            other = f.values[1] if f.values[1] != TOGGLES[f.toggle].default else f.values[0]
            try:
                rules = _rules(plan.study.preset, plan.study.sets, {**levels, f.toggle: other})
            except LudosimError as exc:
                raise DesignError(f"the engines refuse rule set {plan.label(row)}: {exc}") from None
            policies = policies or [plan.study.optimal] + [WEAK] * (rules.players - 1)
            why = inert_toggles(rules, policies).get(f.toggle)
            if why is None:
                acting.add(f.toggle)
            else:
                reasons.setdefault(f.toggle, why)
    return {t: w for t, w in reasons.items() if t not in acting}


def holdout_codes(plan: Plan, count: int, seed: int) -> np.ndarray:
    """`count` rule sets of the space outside the screening design, drawn from `seed`."""
    if count <= 0:
        return np.zeros((0, len(plan.free)))
    inside = {tuple(row) for row in plan.codes}
    rng = np.random.default_rng(seed)
    picked: list[tuple[float, ...]] = []
    space = 2 ** len(plan.free)
    while len(picked) < min(count, space - len(inside)):
        row = tuple(float(x) for x in rng.choice((-1.0, 1.0), len(plan.free)))
        if row not in inside and row not in picked:
            picked.append(row)
    return np.array(picked)
