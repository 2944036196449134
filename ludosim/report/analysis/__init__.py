"""Analyses of results tables: pandas over per-game rows only, no simulation inside.

Every function takes a DataFrame of per-game rows (docs/api.md columns, as returned by
`ludosim.simulate` or `ludosim.results.load(path, cells=True)`), optionally grouped by
one or more `by` columns (typically `cell`), and returns a tidy DataFrame: one row per
group and measure (or position, policy, toggle, effect), the group columns first.

All intervals are 95% (two-sided, `Z95`). Which interval each column holds, and why,
is stated at each function and in docs/analysis.md:

* proportions: Wilson score interval (`ludosim.results.stats.wilson_interval`);
* means: normal approximation, mean +- z * sd / sqrt(n) (`ludosim.results.stats.mean_ci`);
* medians: distribution-free order-statistic interval from Binomial(n, 1/2);
* differences between two cells: *paired by game index* when both hold the same games.
  A sweep plays game g of every cell from the same dice stream (common random numbers),
  so per-game differences cancel most of the dice noise; the pairing is what makes
  that visible in the interval. Otherwise the cells are treated as independent samples
  (Newcombe's hybrid score interval for proportions, Welch's normal interval for means).

One module per question, every name importable from here:

- `lengths`: how long games last;
- `turnorder`: win rates by turn-order position and by seat, the first player's advantage;
- `policywins`: policies pooled over their seats, and every pair of them;
- `skipping`: what skipping a forced capture costs;
- `ruleeffects`: one-toggle changes from a base, and 2-level factorial effects.

Below them: `pergame` (grouping, pairing by game, the difference with its interval,
`AnalysisError`), `basecells` (what a cells table says: toggles, the base of each
variant), `samegames` (cells that play the same games) and `summaries` (one game's
ranking, cell labels, values spelled as `--set` takes them).
"""

from ludosim.report.analysis.basecells import (
    BASE_RULES,
    CellTexts,
    baselines,
    changed_toggles,
    comparison_columns,
    find_baselines,
    toggle_columns,
)
from ludosim.report.analysis.lengths import QUANTILES, game_length, length_distribution, length_row
from ludosim.report.analysis.pergame import AnalysisError, By, players_of

# The sweep page's game-length section maps per-cell values onto rows with it.
from ludosim.report.analysis.pergame import _per_cell as _per_cell
from ludosim.report.analysis.policywins import (
    policy_differences,
    policy_wins,
    rotated_policies,
    seat_policies,
    win_table,
)
from ludosim.report.analysis.ruleeffects import (
    Stratum,
    factorial_effects,
    factorial_strata,
    toggle_effects,
)
from ludosim.report.analysis.samegames import (
    SameGames,
    cell_rules,
    merge_same_games,
    same_games,
    without_cells,
)
from ludosim.report.analysis.skipping import seat_effect, skip_cost, skipper_seats
from ludosim.report.analysis.summaries import (
    EMPTY_SET,
    cli_spelling,
    describe_cells,
    ranking,
    value_text,
)
from ludosim.report.analysis.turnorder import (
    first_player_advantage,
    first_player_tests,
    position_rows,
    seat_win_rates,
    side_rows,
)

__all__ = [
    "BASE_RULES",
    "EMPTY_SET",
    "QUANTILES",
    "AnalysisError",
    "By",
    "CellTexts",
    "SameGames",
    "Stratum",
    "baselines",
    "cell_rules",
    "changed_toggles",
    "cli_spelling",
    "comparison_columns",
    "describe_cells",
    "factorial_effects",
    "factorial_strata",
    "find_baselines",
    "first_player_advantage",
    "first_player_tests",
    "game_length",
    "length_distribution",
    "length_row",
    "merge_same_games",
    "players_of",
    "policy_differences",
    "policy_wins",
    "position_rows",
    "ranking",
    "rotated_policies",
    "same_games",
    "seat_effect",
    "seat_policies",
    "seat_win_rates",
    "side_rows",
    "skip_cost",
    "skipper_seats",
    "toggle_columns",
    "toggle_effects",
    "value_text",
    "win_table",
    "without_cells",
]
