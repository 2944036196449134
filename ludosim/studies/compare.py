"""Does this rule change matter? Rule sets played on the same games until a difference
is known to a stated precision, then decided as a page decides it.

`compare(["app", "app+finish=bounce"], seed=1, precision="1round")` plays the rule
sets (rule-set text, `ludosim.rules.options.RuleSet`) on common random numbers: the
same seed for all, game g of each dealt from the same random stream, so each pair
of rule sets is compared game by game and their difference is measured far more
tightly than two independent runs would allow.

**Stopping rule** (fixed width, Chow and Robbins 1965). The precision target is the
half-width of the 95% interval of a *difference*: `1round` (game length, in rounds:
player turns / players) or `0.25pp` (the first player's win share, in percentage
points; rule sets of one player count). Games are played in growing batches; after
each, the half-width `1.96 se` of every pair's paired difference on that measure is
computed from all games so far (`ludosim.report.contrasts`, as pages compute it).
Play stops at the first look where every half-width is at most the target, or when
`max_games` games per rule set are played (the answer then says the target was not
met). The rule looks at the spread of the differences only, never at their size,
so it cannot stop on a lucky difference: the intervals keep their 95% coverage as
the games grow, and the tests their level.

**Batches.** The first has `first_batch` games per rule set; each next one brings
the total to what the variance so far asks for, `1.1 n (h / target)^2` for `n`
games and half-width `h`, but at least `first_batch` more and at most four times
the games so far (an early variance is noisy), and at most `max_games`.

**What it states.** The rule sets are the cells of one page (`page_findings`,
their cells table as a sweep would write it): each one's game length and first
player's edge against its fair share, and the comparisons between them (a
one-toggle change from a base, or every pair), decided in one family with Holm's
correction. A rule set that cannot change any game (a toggle that cannot act)
plays the same games as another and is merged, as on a page.

**Exploratory.** The target is the precision of one measure's differences; the
page states both measures, so each is judged by its own size: a run that has
fewer games than the first player's edge needs to detect its smallest effect of
interest (about 100,000 games per rule set with two players, about 300,000 with
four) is exploratory however well it met a target in rounds, and says so: its
findings are leads, not results (`ludosim.report.exploratory`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ludosim.report.answers import Answer, cells_of, estimate_rows, length_estimates
from ludosim.report.answers import position_estimates as first_estimates
from ludosim.report.contrasts import CellSamples, cell_rows
from ludosim.report.finding import PageFindings
from ludosim.report.sweeppage.sweepfindings import page_findings
from ludosim.results.measures import FIRST, LENGTH, first_wins, rounds
from ludosim.results.schema import GAMES_MAX
from ludosim.results.stats import Z95
from ludosim.rules.errors import LudosimError
from ludosim.rules.options import GRAMMAR, RuleSet
from ludosim.rules.policies import resolve_policies
from ludosim.run.simulate import simulate

DEFAULT_PRECISION = "1round"
DEFAULT_FIRST_BATCH = 2_000
DEFAULT_MAX_GAMES = 1_000_000
GROWTH = 4  # a batch at most brings the total to this many times the games so far
MARGIN = 1.1  # the projected size is padded: the variance is an estimate too
# The columns a page decides from (game length, turn order, players): all a batch keeps.
KEPT = ("game", "first", "winner", "turns", "truncated")
TARGET_FORMS = (
    "a positive number with a unit: 1round (half-width of the 95% interval of the "
    "difference in game length, rounds) or 0.25pp (of the difference in the first "
    "player's win share, percentage points)"
)
_TARGET = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(pp|rounds?)\s*")


class CompareError(LudosimError, ValueError):
    """Rule sets or a target `compare` cannot use; the message names the argument."""


@dataclass(frozen=True)
class DifferenceTarget:
    """The half-width `value` a difference's 95% interval must reach, in `unit`."""

    value: float
    unit: str  # "rounds" or "pp"

    @property
    def measure(self) -> str:
        return "game length" if self.unit == "rounds" else "first player's win share"

    def __str__(self) -> str:
        return f"{self.value:g}{'round' if self.unit == 'rounds' else 'pp'}"

    def words(self) -> str:
        """`±1 round`, `±0.25 pp`: the target in a sentence."""
        unit = "pp" if self.unit == "pp" else ("round" if self.value == 1 else "rounds")
        return f"±{self.value:g} {unit}"


def parse_difference_target(text: str) -> DifferenceTarget:
    """`"1round"`/`"2 rounds"` -> rounds of game length; `"0.25pp"` -> pp of first-player share."""
    match = _TARGET.fullmatch(text) if isinstance(text, str) else None
    value = float(match.group(1)) if match else math.nan
    if match is None or not math.isfinite(value) or value <= 0:
        raise CompareError(f"--precision {text!r} is not allowed; give {TARGET_FORMS}")
    return DifferenceTarget(value, "pp" if match.group(2) == "pp" else "rounds")


@dataclass
class Comparison:
    """What `compare` played and decided.

    `games`: per rule set; `looks`: (games, widest half-width) after each batch;
    `met`: every half-width reached the target; `rows` and `cells`: the page's
    per-game rows (with `cell`) and cells table; `page`: its findings.
    """

    rule_sets: tuple[RuleSet, ...]
    target: DifferenceTarget
    seed: int
    policies: str | tuple[str, ...]
    games: int
    met: bool
    looks: list[tuple[int, float]]
    rows: pd.DataFrame = field(repr=False)
    cells: pd.DataFrame = field(repr=False)
    page: PageFindings = field(repr=False)
    differences: pd.DataFrame = field(repr=False)

    def answer(self) -> Answer:
        """Each rule set's estimates, the differences, and the page's findings."""
        estimates = []
        for i, rule_set in enumerate(self.rule_sets):
            rows = self.rows[self.rows["cell"] == f"c{i}"]
            estimates += length_estimates(rows, rule_set.label)[:1]
            estimates += first_estimates(rows, rule_set.label)[:1]
        estimates += self.differences.to_dict(orient="records")
        widest = self.looks[-1][1]
        status = "met" if self.met else f"not met within --max-games {self.games:,}"
        batches = f"{len(self.looks)} batch{'es' if len(self.looks) != 1 else ''}"
        notes = [
            f"Paired games (the same seed, game g of each rule set from the same random "
            f"stream), played in batches until the 95% interval of every difference in "
            f"{self.target.measure} was at most {self.target.words()} wide each side, checked "
            f"after every batch: {status} after {batches} (±{widest:.3g} with "
            f"{self.games:,} games per rule set). Play stops on the spread of the "
            "differences, never on their size."
        ]
        if self.page.exploratory:
            # Say why a met target does not lift the page's Exploratory note.
            notes.append(
                f"The target bounds the width of the differences in {self.target.measure} "
                "only; whether a finding can be quoted is judged by the games each measure's "
                "smallest effect of interest needs (the Exploratory note names the measure "
                "that is short), so a met target does not lift it."
            )
        names = " vs ".join(r.label for r in self.rule_sets)
        title = f"{names}: {self.games:,} paired games each, seed {self.seed}"
        details = {
            "rule_sets": [r.text for r in self.rule_sets],
            "precision": str(self.target),
            "met": self.met,
            "games": self.games,
            "seed": self.seed,
            "policies": list(self.policies) if isinstance(self.policies, tuple) else self.policies,
            "looks": [{"games": n, "half_width": h} for n, h in self.looks],
        }
        return Answer("compare", title, estimate_rows(estimates), self.page.findings, notes,
                      details, self.page)  # fmt: skip


def _widest(samples: CellSamples, ids: Sequence[str], scale: float) -> tuple[float, list]:
    """The widest half-width of the pairs' differences (and each pair's contrast)."""
    pairs = []
    for a, b in itertools.combinations(ids, 2):
        c = samples.difference(b, a).scaled(scale)
        pairs.append((a, b, c))
    half = max((Z95 * c.se for *_, c in pairs), default=0.0)
    return (half if math.isfinite(half) else math.inf), pairs


def _next_total(games: int, half: float, target: float, first_batch: int, most: int) -> int:
    """The games per rule set after the next batch (see the module docstring)."""
    wanted = math.ceil(MARGIN * games * (half / target) ** 2) if math.isfinite(half) else most
    return min(most, max(games + first_batch, min(wanted, GROWTH * games)))


def _checked(rule_sets: Sequence[RuleSet | str]) -> tuple[RuleSet, ...]:
    if isinstance(rule_sets, str) or not isinstance(rule_sets, Sequence):
        raise CompareError(
            "rule_sets must be a list of two or more rule sets (RuleSet, or text such as "
            f"'app+finish=bounce'), got {rule_sets!r}"
        )
    if len(rule_sets) < 2:
        raise CompareError(f"RULESET: give at least two rule sets to compare ({GRAMMAR})")
    parsed = tuple(r if isinstance(r, RuleSet) else RuleSet.parse(r, "RULESET") for r in rule_sets)
    seen: dict[str, RuleSet] = {}
    named: dict[str, RuleSet] = {}
    for rule_set in parsed:
        other = named.setdefault(rule_set.label, rule_set)
        if other is not rule_set:
            raise CompareError(
                f"RULESET: {other.text} and {rule_set.text} are both named {rule_set.label!r}; "
                "give each rule set its own name (NAME=PRESET+...)"
            )
        twin = seen.setdefault(rule_set.rules().hash(), rule_set)
        if twin is not rule_set:
            raise CompareError(
                f"RULESET: {twin.text} and {rule_set.text} are the same rules; "
                "compare rule sets that differ"
            )
    return parsed


def compare(
    rule_sets: Sequence[RuleSet | str],
    seed: int,
    *,
    precision: str = DEFAULT_PRECISION,
    policies: str | Sequence[str] = "random",
    max_games: int = DEFAULT_MAX_GAMES,
    first_batch: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Play the rule sets on common random numbers until the target is met (module doc).

    `first_batch` (default `DEFAULT_FIRST_BATCH`, or `max_games` when that is fewer)
    is part of the `max_games` and cannot exceed them. `progress(done, total)` counts
    games over all rule sets; its total is the plan so far and grows with the batches.
    """
    chosen = _checked(rule_sets)
    target = parse_difference_target(precision)
    given = (("--max-games", max_games, 1), ("--first-batch", first_batch, 100))
    for name, value, low in given:
        if value is None and name == "--first-batch":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= GAMES_MAX:
            raise CompareError(f"{name} {value!r} is out of range; allowed: {low}..{GAMES_MAX}")
    if first_batch is None:
        first_batch = min(DEFAULT_FIRST_BATCH, max_games)
    elif first_batch > max_games:
        raise CompareError(
            f"--first-batch {first_batch} is more than --max-games {max_games}: the first "
            f"batch is part of the games; give --first-batch at most {max_games}, or more "
            "--max-games"
        )
    rules = [r.rules() for r in chosen]
    players = {r.players for r in rules}
    if target.unit == "pp" and len(players) > 1:
        raise CompareError(
            f"--precision {precision}: percentage points of the first player's share compare "
            "rule sets of one player count; these have "
            f"{', '.join(str(n) for n in sorted(players))} players (use a target in rounds)"
        )
    seated = tuple(resolve_policies(policies, r.players, teams=r.teams) for r in rules)
    ids = [f"c{i}" for i in range(len(chosen))]
    parts: list[pd.DataFrame] = []
    games, looks, total = 0, [], first_batch
    values, scale = (rounds, 1.0) if target.unit == "rounds" else (first_wins, 100.0)
    while True:
        for i, r in enumerate(rules):
            kwargs: dict[str, Any] = {"first_game": games, "threads": threads}
            if progress is not None:
                done = games * len(rules) + i * (total - games)

                def report(d: int, _: int, before: int = done, planned: int = total) -> None:
                    progress(before + d, planned * len(rules))

                kwargs["progress"] = report
            df = simulate(r, total - games, seed, list(seated[i]), **kwargs)
            keep = [c for c in df.columns if c in KEPT or c.startswith("place_")]
            parts.append(df[keep].assign(cell=ids[i]))
        games = total
        rows = pd.concat(parts, ignore_index=True)
        half, _ = _widest(CellSamples(cell_rows(rows, KEPT), values), ids, scale)
        looks.append((games, half))
        if half <= target.value or games >= max_games:
            break
        total = _next_total(games, half, target.value, first_batch, max_games)
    cells = cells_of(list(zip(chosen, seated, strict=True)), games, seed)
    # A met target holds only the measure it was set on (its interval at most the target
    # wide): that one is waived, the other measure the page states is still judged by
    # the games its smallest effect needs.
    held = {LENGTH.name if target.unit == "rounds" else FIRST.name}
    page = page_findings(rows, cells, target_met=held if half <= target.value else False)
    differences = _differences(rows, ids, chosen)
    given = policies if isinstance(policies, str) else tuple(policies)
    return Comparison(
        chosen, target, seed, given, games, half <= target.value, looks, rows, cells, page,
        differences,
    )  # fmt: skip


def _differences(rows: pd.DataFrame, ids: Sequence[str], chosen: Sequence[RuleSet]) -> pd.DataFrame:
    """Every pair's paired difference in game length (rounds) and first player's win share
    (pp, one player count), later rule set minus earlier, with its 95% interval."""
    labels = dict(zip(ids, (r.label for r in chosen), strict=True))
    by_cell = cell_rows(rows, KEPT)
    same_players = len({by_cell[c].players for c in ids}) == 1
    out = []
    measures = [("game length", rounds, 1.0, "rounds")]
    if same_players:
        measures.append(("first player's win share", first_wins, 100.0, "pp"))
    for what, values, scale, unit in measures:
        _, pairs = _widest(CellSamples(by_cell, values), ids, scale)
        for a, b, c in pairs:
            out.append({"measure": f"difference in {what}", "of": f"{labels[b]} - {labels[a]}",
                        "estimate": c.estimate, "ci_low": c.ci_low, "ci_high": c.ci_high,
                        "unit": unit, "games": c.games})  # fmt: skip
    return pd.DataFrame(out)
