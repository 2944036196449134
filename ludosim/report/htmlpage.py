"""The single-file HTML page every page is drawn with: sections, tables, figures.

A page is a title, the answer box, its findings grouped by topic (`group_findings`),
its `PageSection`s (each with `PageFigure`s and `PageTable`s) and the glossary of the
words its findings use (`GLOSSARY`). `render_page` draws it from the jinja2 template
`templates/page.html.j2` of the package; `write_study_page` writes a study's page and
its `findings.json` (`write_findings`); `page_figure` writes a figure's PNG beside the
page and `html_table` a table. The sweep page (`ludosim.report.sweeppage`) and every
study's page are drawn by these.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ludosim.report import figures, interactive
from ludosim.report.finding import Finding, finding_records

if TYPE_CHECKING:
    from markupsafe import Markup
    from matplotlib.figure import Figure


# A topic's per-cell statements (and the precision table) are listed open up to this
# many; more are folded under their headline, which answers the question for all.
OPEN_DETAILS = 6
# The answer box on a page's first screen holds at most this many statements.
ANSWERS = 6
# The topic of a page's method notes (families, sizes, seating): not an answer.
METHOD_TOPIC = "about"
# Below this a p-value is written `< 1e-16`: doubles cannot resolve it (it reads as 0).
P_FLOOR = 1e-16
# Beside every page: its findings as data, and every comparison its family decided.
FINDINGS_FILE = "findings.json"


@dataclass
class PageFigure:
    file: str
    title: str
    caption: str
    src: str = ""  # the PNG as a data URI; empty for an interactive-only figure (no PNG)
    interactive: Any = None  # a Bokeh model drawn on the page above the PNG
    div: str = ""  # its HTML once embedded
    command: str = ""  # reproduces the results the figure shows


@dataclass
class PageTable:
    title: str
    csv: str
    html: str
    caption: str
    command: str = ""


@dataclass
class PageSection:
    title: str
    text: str = ""
    figures: list[PageFigure] = field(default_factory=list)
    tables: list[PageTable] = field(default_factory=list)


@dataclass
class Topic:
    """A findings topic on the page: its heading, headline sentences and details."""

    title: str
    headlines: list[Finding]
    details: list[Finding]

    @property
    def folded(self) -> bool:
        return len(self.details) > OPEN_DETAILS


@dataclass
class _Precision:
    """Whether the sweep's precision target was met: one sentence and a per-cell table."""

    sentence: str
    html: str
    rows: int
    met: bool = False  # in every cell

    @property
    def folded(self) -> bool:
        return self.rows > OPEN_DETAILS


# ------------------------------------------------------------------- sections
def write_findings(path: Path, found: Sequence[Finding]) -> None:
    """`findings.json`: the page's findings as data, in the order the page states them."""
    path.write_text(json.dumps(finding_records(found), indent=1) + "\n", encoding="utf-8")


def group_findings(found: Sequence[Finding], titles: Mapping[str, str]) -> list[Topic]:
    """Findings grouped under a heading per topic (`titles[topic]`), headlines first."""
    topics: dict[str, Topic] = {}
    for f in found:
        topic = topics.setdefault(f.topic, Topic(titles.get(f.topic, f.topic), [], []))
        (topic.headlines if f.headline else topic.details).append(f)
    return list(topics.values())


def answer_findings(topics: Sequence[Topic], lead: str | None = None) -> list[Finding]:
    """What a page answers, for the box on its first screen: an exploratory warning
    first, then the first headline of every topic but the page's method notes
    (`about`), the topic `lead` (what the page is about) before the others; at most
    `ANSWERS` statements, so the box fits one screen."""
    headlines = [t.headlines for t in topics if t.headlines]
    warning = [f for h in headlines for f in h if f.text.startswith("Exploratory:")]
    firsts = [h[0] for h in headlines if h[0].topic != METHOD_TOPIC]
    firsts.sort(key=lambda f: f.topic != lead)  # stable: the others keep the page's order
    return [*warning, *firsts][:ANSWERS]


def _badge(f: Finding) -> Markup:
    """The badge after a statement the page's correction did not resolve: `no change that
    matters` where its interval shows that (`Finding.equivalent`; `each resolved or no
    change that matters` for a note summing several up), else `not resolved` for one claim
    and `not all resolved` for a note (some of whose claims may be resolved)."""
    from markupsafe import Markup

    if f.resolved and f.exploratory and f.kind != "note":
        return Markup(' <span class="badge">a lead to confirm</span>')
    if f.resolved:
        return Markup("")
    if f.kind == "decision":  # the default kept: nothing was claimed to be resolved
        return Markup(f' <span class="badge same">{f.basis}</span>') if f.basis else Markup("")
    if f.equivalent:
        words = (
            "each resolved or no change that matters"
            if f.kind == "note"
            else ("no change that matters")
        )
        return Markup(f' <span class="badge same">{words}</span>')
    words = "not all resolved" if f.kind == "note" else "not resolved"
    return Markup(f' <span class="badge">{words}</span>')


# ----------------------------------------------------------------- figures
def page_figure(out: Path, fig: Figure, file: str, title: str, caption: str) -> PageFigure:
    """Write the figure as PNG beside the page and keep it for embedding."""
    png = figures.png_bytes(fig)
    (out / file).write_bytes(png)
    return PageFigure(file, title, caption, src=figures.data_uri(png))


def html_table(df: pd.DataFrame) -> str:
    shown = df.copy()
    for column in [c for c in shown.columns if str(c).startswith("p_")]:
        shown[column] = shown[column].map(_p_cell)
    return shown.to_html(
        index=False, border=0, classes="data", na_rep="", float_format=lambda v: f"{v:.4g}"
    )


def _p_cell(p: Any) -> str:
    """A p-value for a table cell: four significant figures, `< 1e-16` below the floor."""
    try:
        value = float(p)
    except (TypeError, ValueError):
        return "" if p is None else str(p)
    if not math.isfinite(value):
        return ""
    return f"< {P_FLOOR:g}" if value < P_FLOOR else f"{value:.4g}"


# The page's template: a file of the package (templates/page.html.j2), one for every page.
_TEMPLATE = (
    resources.files("ludosim.report")
    .joinpath("templates", "page.html.j2")
    .read_text(encoding="utf-8")
)


# The words a page's findings use, each once, as every page ends on them.
# The term a page uses instead of "with a finisher" where games end by points.
WITH_A_WINNER = (
    "with a winner",
    "games that one seat won: by finishing first or, where a move limit ends the game, "
    "with the most points. A game that ends level on points, or is stopped at max_turns "
    "with no finisher, has no winner and is left out of win shares.",
)
GLOSSARY: tuple[tuple[str, str], ...] = (
    (
        "resolved",
        "decided by the page's correction: a difference whose Holm-adjusted p-value "
        "is below 0.05 (its sign is then known), a value told from its reference, or the first "
        "of a ranking told from the second. A resolved difference whose 95% interval does not "
        "clear the smallest effect of interest says so: smaller than the smallest effect that "
        "matters (the whole interval inside it), or possibly below it (the interval reaching "
        "inside it).",
    ),
    (
        "not resolved",
        "not decided at this size: the data are compatible with no difference "
        "(or a tie). It is not evidence that there is none, unless the whole 95% interval lies "
        "inside the smallest effect of interest (an equivalence test), which the sentence then "
        "says: no change that matters. Otherwise a change of that size is not ruled out.",
    ),
    (
        "family and Holm's correction",
        "every comparison a page makes between cells, policies "
        "or rule changes is one test of one family, and Holm's step-down method adjusts their "
        "p-values together, so that the chance of any false claim of a difference on the page "
        "is at most 5%. Each cell against a fixed reference (its fair share, equal shares for "
        "every position) is a second family, corrected the same way.",
    ),
    (
        "policy",
        "how a seat chooses among its legal moves: random, or a named weighting of what "
        "a move does (balanced, aggressive, pacifist and others, which the command "
        "ludosim policies lists), or a skipper that sometimes ignores a forced capture.",
    ),
    (
        "fair share",
        "1 / players: the share of games a seat would win if turn order did not matter.",
    ),
    (
        "edge, relative edge",
        "the first player's win share minus its fair share, in "
        "percentage points (pp); relative to the fair share, in percent (25.67% against 25% is "
        "+0.67 pp, +2.7%). Cells of different player counts compare only relative edges.",
    ),
    (
        "round",
        "every player taking one turn: player turns divided by the players. Lengths "
        "are compared in rounds, so that games of different player counts compare.",
    ),
    (
        "with a finisher",
        "games in which a seat finished; a game stopped at max_turns without "
        "one has no winner and is left out of win shares.",
    ),
    (
        "paired by game",
        "both cells played game g from the same dice (the common random "
        "numbers of a sweep), so a difference is taken game by game, which removes the noise the "
        "two share. Cells of different seats or games are independent samples.",
    ),
    (
        "smallest effect of interest",
        "the smallest difference worth a family's attention, "
        "stated before the games are played (defaults: 1 round of length, 1% of a fair share "
        'of first-player edge, 1 pp of win share). Sizes such as "needs about N games per '
        "cell\" come from it and the family's level, never from an observed estimate.",
    ),
    (
        "exploratory",
        "a run smaller than its smallest effects of interest need, without a "
        "precision target it met: its findings are leads to confirm, not results to quote.",
    ),
    (
        "the same games",
        "cells whose rules differ only in a toggle that cannot act (such as "
        "detect_skip when no seat skips) play the same games; they are counted once.",
    ),
    (
        "95% CI",
        "the 95% confidence interval: the range of true values compatible with the "
        "games played. Every interval on a page is 95%.",
    ),
)


def write_study_page(
    folder: Path,
    title: str,
    intro: str,
    command: str,
    found: Sequence[Finding],
    titles: Mapping[str, str],
    sections: Sequence[PageSection],
    glossary: Sequence[tuple[str, str]] = (),
) -> Path:
    """A study's page into `folder`: `index.html` (findings grouped under `titles`,
    then the sections, then the shared glossary and the study's own `glossary`
    terms) and `findings.json` beside it. Returns the page's path.

    A study's term named like a shared one replaces it in place: a study that states a
    measure in its own unit explains that unit, not the shared pages' other one."""
    own = dict(glossary)
    shared = [(term, own.pop(term, text)) for term, text in GLOSSARY]
    html = render_page(title, intro, command, group_findings(found, titles), sections,
                       glossary=(*shared, *own.items()))  # fmt: skip
    page = folder / "index.html"
    page.write_text(html, encoding="utf-8")
    write_findings(folder / FINDINGS_FILE, found)
    return page


def render_page(
    title: str,
    intro: str,
    command: str,
    topics: Sequence[Topic],
    sections: Sequence[PageSection],
    precision: _Precision | None = None,
    glossary: Sequence[tuple[str, str]] = GLOSSARY,
    lead: str | None = None,
) -> str:
    """The single-file HTML page: title, the answer box (`answer_findings`; `lead`, the
    topic the page is about, first), intro, the command that wrote it, findings,
    sections and the glossary of the words its findings use.

    `topics` are the findings grouped by `group_findings`; figures with an
    interactive Bokeh model get it drawn above their PNG.
    """
    import jinja2

    shown = [f for s in sections for f in s.figures if f.interactive is not None]
    resources, script, divs = interactive.bokeh_page([f.interactive for f in shown])
    for item, div in zip(shown, divs, strict=True):
        item.div = div
    # autoescape: captions hold toggle values and file names, not trusted HTML.
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    topics = list(topics)
    return env.from_string(_TEMPLATE).render(
        title=title,
        intro=intro,
        command=command,
        answers=answer_findings(topics, lead),
        badge=_badge,
        topics=topics,
        precision=precision,
        sections=sections,
        glossary=list(glossary),
        resources=resources,
        script=script,
    )
