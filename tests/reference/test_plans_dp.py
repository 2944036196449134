"""The memoised plan counter (`PlanTree`) against the plain listing of every plan.

`all_plans` is the readable definition of docs/rules.md section 5; `PlanTree` is
what the game loop uses because listing is exponential in the number of
sixes. They must give the same legal plans in the same order.
"""

from __future__ import annotations

import random

import pytest
from scenario_helpers import random_position

from ludosim import Rules
from ludosim.reference import Position
from ludosim.reference.plans import PlanTree, all_plans, best_plans, forced


@pytest.mark.parametrize(
    "changes",
    [{}, {"forced_capture": False}, {"pass_opponents": "none"}, {"star_jump": "goal"}],
)
def test_plan_tree_lists_the_same_legal_plans_as_all_plans(changes: dict) -> None:
    rules = Rules.preset("killer").replace(**changes)
    rng = random.Random(20261129)
    compared = 0
    for _ in range(150):
        pos = random_position(rules, rng)
        rolls = [6] * rng.choice([0, 1, 2, 3]) + [rng.randrange(1, 6)]
        seat = rng.randrange(rules.players)
        legal = forced(rules, best_plans(all_plans(rules, pos, seat, rolls)))
        tree = PlanTree(rules, pos, seat, rolls)
        assert tree.count() == len(legal)
        assert [tree.plan(i) for i in range(len(legal))] == legal
        compared += len(legal)
    assert compared > 300  # the sample really exercised multi-plan positions


def test_plan_tree_counts_long_six_chains_without_listing() -> None:
    """Seven sixes and a 3 from an empty yard: counting stays cheap (memoised)."""
    rules = Rules.preset("killer")
    pos = Position.from_progress(
        rules, [[-1, -1, -1, -1], [10, 20, -1, -1], [5, -1, -1, -1], [30, -1, -1, -1]]
    )
    tree = PlanTree(rules, pos, 0, [6] * 7 + [3])
    assert tree.count() > 1000
    assert len(tree.memo) < 5000
    plan = tree.plan(tree.count() - 1)
    assert len(plan.steps) == 8
