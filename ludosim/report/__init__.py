"""From results to what they say: statistics, findings, figures and the page.

- `analysis`: pandas over per-game rows (length, first player, toggle, skip-cost and
  factorial effects, the cells that play the same games); what pages compare and
  their smallest effects of interest are `ludosim.results.measures`;
- `contrasts`: every comparison as a contrast of cell means, paired by game, and a
  page's family of tests;
- `finding`: the `Finding` every page states, its kinds and families, a verdict's words;
- `findings`: the names of the sweep page's findings, as they always were importable;
- `claims`: how the study pages (skill, unfold) decide theirs, in the same families;
- `wording`: how numbers are written;
- `answers`: what a command answers at the terminal (estimates with intervals and
  findings, as a table, JSON or CSV);
- `exploratory`: when a run is too small to quote, the rule and the note that say so;
- `figures`: every figure (matplotlib PNGs, interactive Bokeh forests);
- `htmlpage`: the single-file HTML page every page is drawn with (`render_page` from the
  template `templates/page.html.j2`, `write_study_page`, the glossary, `findings.json`);
- `sweeppage/`: the sweep page, `make_report` of a results folder, one module per topic
  (length, first player, pairs, toggle effects, factorial, policies, skip cost), each
  with its findings and its section;
- `page`: the names of the page, as they always were importable.

`from ludosim.report import make_report` keeps working: the package re-exports the
page's names.
"""

from ludosim.report.htmlpage import (
    FINDINGS_FILE,
    GLOSSARY,
    PageFigure,
    PageSection,
    PageTable,
    Topic,
    group_findings,
    html_table,
    page_figure,
    render_page,
    write_findings,
)
from ludosim.report.sweeppage.makereport import COMPARISONS_FILE, ReportError, make_report
from ludosim.report.sweeppage.readresults import cell_labels

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
