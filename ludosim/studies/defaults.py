"""The studies' default sizes and players, written once: each study's spec (its frozen
dataclass) and the command line's options read them here.

This module imports nothing, so the command line can show the defaults in its help
without importing a study.
"""

from __future__ import annotations

# The relative skill level's players (`ludosim.studies.relative_skill`): the optimal
# player (its skill) and the fictive one (who knows the dice in advance).
OPTIMAL = "expert"
FICTIVE = "fictive"

SKILL = {
    "games": 14_000,  # ladder games per rule set
    "match_games": 20_000,  # the strongest player against each field
    "pair_games": 4_000,  # each head-to-head pair
    "bootstrap": 100,  # rating refits for intervals
    "resamples": 1_000,  # head-to-head matrices resampled for the meta-game
    "headline_games": 40_000,  # the first player's edge with random and with skilled seats
    "skill_games": 4_000,  # the optimal and the fictive player, each, for RS
}

UNFOLD = {
    "games": 100_000,  # per rule set
    "every": 0,  # snapshot interval in turns; 0: two rounds of the seats
    "race_games": 20_000,  # per race check
}

DUELS = {
    "sequences": 2_000,  # dice sequences the clairvoyant is solved on, per duel
    "luck_games": 20_000,  # games walked on a duel's graph per pair of players
    "player_games": 20_000,  # kernel games per player against random play
}

DESIGN = {
    "screen_games": 40_000,  # per rule set of the screening, every seat random
    # The model pools the relative skill level over the screening's rule sets, so each
    # needs far fewer games than a page about one rule set (docs/design.md, "Skill").
    "skill_games": 1_600,
    "holdout": 8,  # rule sets held out to check the model
    "candidates": 4,  # confirmed on games of their own
    "confirm_games": 100_000,  # per candidate, one look fixed in advance
    # The expert's 32 rollouts cut at 12 turns. Against three random players it wins as
    # much as the full expert (32 x 24) under danish and app (8,000 and 4,000 games:
    # docs/design.md, "Skill") at twice its speed, so the rule sets of a design can afford
    # it; lighter experts (fewer rollouts) win less.
    "optimal": "expert:32:12",
}
