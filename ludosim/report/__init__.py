"""From results to what they say: statistics, findings, figures and the page.

- `analysis`: pandas over per-game rows (length, first player, toggle, skip-cost and
  factorial effects, the cells that play the same games); what pages compare and
  their smallest effects of interest are `ludosim.results.measures`;
- `contrasts`: every comparison as a contrast of cell means, paired by game, and a
  page's family of tests;
- `findings`: what a results table says, decided page-wide, as sentences and data;
- `claims`: how the study pages (skill, unfold) decide theirs, in the same families;
- `wording`: how numbers are written;
- `answers`: what a command answers at the terminal (estimates with intervals and
  findings, as a table, JSON or CSV);
- `exploratory`: when a run is too small to quote, the rule and the note that say so;
- `figures`: every figure (matplotlib PNGs, interactive Bokeh forests);
- `page`: the single-file HTML page (`make_report` for sweep folders, `render_page`
  for every study's page, the glossary, `findings.json`).

`from ludosim.report import make_report` keeps working: the package re-exports the
page's names.
"""

from ludosim.report.page import (
    COMPARISONS_FILE,
    FINDINGS_FILE,
    GLOSSARY,
    PageFigure,
    PageSection,
    PageTable,
    ReportError,
    Topic,
    cell_labels,
    group_findings,
    html_table,
    make_report,
    page_figure,
    render_page,
    write_findings,
)

__all__ = [
    "COMPARISONS_FILE",
    "FINDINGS_FILE",
    "GLOSSARY",
    "PageFigure",
    "PageSection",
    "PageTable",
    "ReportError",
    "Topic",
    "cell_labels",
    "group_findings",
    "html_table",
    "make_report",
    "page_figure",
    "render_page",
    "write_findings",
]
