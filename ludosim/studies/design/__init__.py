"""The house-rule designer: which house rules give the game a table wants, and at what cost.

A study names a preset, the toggles that may change (`free`, each at two values:
the preset's own and one alternative), what is wanted (`goals`: shorter, fairer,
more skill, more comebacks, more captures) and what must hold (`limits`, such as
`length<=90` rounds). It goes through the steps every study goes through:

- **plan** (`DesignStudy`, `load_study`, `study_from_options`, `plan_study`):
  the free toggles that can act and that the engines accept together (the others
  are dropped, with the reason counted), and a two-level fractional factorial of
  resolution V over them (`pydoe.fracfact_by_res`: every main effect and two-toggle
  interaction is estimable, none aliased with another);
- **play** (`play_study`): each stage is three sweeps (`ludosim.sweep`), so it is
  resumable and runs on one machine or a Dask cluster. Every rule set plays games
  with every seat `random` (with the game-flow columns), and games of the optimal
  and of the fictive player of the relative skill level (Dreef, Borm and van der
  Genugten 2004), each in one seat against `random` ones, rotated through the seats
  (`DEFAULT_OPTIMAL`, `DEFAULT_FICTIVE`). The stages:
  `screen` (the factorial), `holdout` (rule sets outside it, to check the model)
  and `confirm` (candidates that may be best, drawn far apart, replayed once at a
  size fixed in advance); each stage on games no other stage played (`stage_seed`);
- **tables** (`DesignTables`, `write_tables`, `read_tables`): the measures of every
  rule set played (`ludosim.results.measures.DESIGN_MEASURES`, each with its 95%
  interval), the screening effects, the model and its check, the candidates, the
  confirmed values; all CSV;
- **findings** (`study_findings`, `decide`): what to change and what it costs, decided in one
  family per page (Holm), like every page;
- **page** (`study_page`): findings first, the screening effects, the front between
  the goals, the recommended rule sets as `--set` lines, and an explorer: menus for
  the free toggles and every measure the model predicts for the chosen rule set.

The model is a meta-regression (statsmodels WLS) per measure on the screening rule
sets: main effects of every free toggle and the two-toggle interactions the screening
resolved, with a lack-of-fit variance component (DerSimonian-Laird moments) that no
number of games shrinks. Its 95% prediction interval for a rule set adds the
coefficients' uncertainty, the lack of fit, the screening's shared dice and the noise
of the games a measurement plays; the held-out rule sets check it, two-sided, per
measure. The search enumerates every combination of the free toggles' two values (at
most 2^16), keeps those the model predicts within the limits, and reads the front
between the goals over the prediction intervals (`interval_front`).

Its modules have the names every study's modules have (`ludosim.studies`), each
importing only from those before it: `spec` (what a design asks), `plan`, then the
design's own `stages` (a stage played and measured), `effects` (the screening),
`regression` (the model), `confirmation`, `search` and `decision` (the recommendation,
a decision with a default), then `tables` (written and read
back), `words` (the house rules in plain words), `findings` (what the page states),
`play` (every stage played into the tables) and `page` (the page, with effects.csv and
comparisons.csv rewritten with its decisions; a page redrawn from a folder;
`run_study`). This package holds their public names.
"""

from __future__ import annotations

from ludosim.studies.design.decision import (
    AS_IS,
    BETTER,
    EQUALLY_GOOD,
    NOT_APART,
    PRESET,
    RECOMMENDED,
    SMALL_BETTER,
    SMALL_WORSE,
    STANDINGS,
    WORSE,
    Recommendation,
    recommend,
    standing,
)
from ludosim.studies.design.effects import alias_table, terms
from ludosim.studies.design.findings import (
    coverage_by_measure,
    decide,
    decided,
    recommendation,
    study_findings,
    unmet_limits,
)
from ludosim.studies.design.page import (
    explorer_models,
    prediction_noise,
    report_study,
    run_study,
    study_page,
)
from ludosim.studies.design.plan import Plan, plan_study
from ludosim.studies.design.play import play_study
from ludosim.studies.design.regression import (
    Model,
    fit_model,
    misfit_from,
    with_held_out_misfit,
)
from ludosim.studies.design.search import all_codes, interval_front, same_games_as, search
from ludosim.studies.design.spec import (
    ALTERNATIVES,
    GOALS,
    HOUSE_RULES,
    DesignError,
    DesignStudy,
    Free,
    Limit,
    default_free,
    load_study,
    parse_free,
    parse_limit,
    player_seed,
    stage_seed,
    study_from_options,
)
from ludosim.studies.design.stages import Stage, measures_table, stage_samples
from ludosim.studies.design.tables import DesignTables, is_design, read_tables, write_tables
from ludosim.studies.design.words import menu_words, rule_words

__all__ = [
    "ALTERNATIVES",
    "AS_IS",
    "BETTER",
    "EQUALLY_GOOD",
    "GOALS",
    "HOUSE_RULES",
    "NOT_APART",
    "PRESET",
    "RECOMMENDED",
    "SMALL_BETTER",
    "SMALL_WORSE",
    "STANDINGS",
    "WORSE",
    "DesignError",
    "DesignStudy",
    "DesignTables",
    "Free",
    "Limit",
    "Model",
    "Plan",
    "Recommendation",
    "Stage",
    "alias_table",
    "all_codes",
    "coverage_by_measure",
    "decide",
    "decided",
    "default_free",
    "explorer_models",
    "fit_model",
    "interval_front",
    "is_design",
    "load_study",
    "measures_table",
    "menu_words",
    "misfit_from",
    "parse_free",
    "parse_limit",
    "plan_study",
    "play_study",
    "player_seed",
    "prediction_noise",
    "read_tables",
    "recommend",
    "recommendation",
    "report_study",
    "rule_words",
    "run_study",
    "same_games_as",
    "search",
    "stage_samples",
    "stage_seed",
    "standing",
    "study_findings",
    "study_from_options",
    "study_page",
    "terms",
    "unmet_limits",
    "with_held_out_misfit",
    "write_tables",
]
