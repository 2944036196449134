"""HTML report of a results folder: one self-contained `index.html`, PNGs and CSVs.

The names this module always offered, where they live now: the sweep page
(`make_report`, `cell_labels`, `ReportError`) in `ludosim.report.sweeppage`, and the
page kit every study draws its page with (`PageSection`, `PageTable`, `PageFigure`,
`html_table`, `page_figure`, `render_page`, `write_study_page`, `GLOSSARY`,
`group_findings`, `write_findings`) in `ludosim.report.htmlpage`.
"""

from ludosim.report.htmlpage import (
    ANSWERS,
    FINDINGS_FILE,
    GLOSSARY,
    METHOD_TOPIC,
    OPEN_DETAILS,
    P_FLOOR,
    PageFigure,
    PageSection,
    PageTable,
    Topic,
    answer_findings,
    group_findings,
    html_table,
    page_figure,
    render_page,
    write_findings,
    write_study_page,
)
from ludosim.report.sweeppage.makereport import COMPARISONS_FILE, ReportError, make_report
from ludosim.report.sweeppage.readresults import NO_SWEEP_COMMAND, SPEC_FILE, cell_labels
from ludosim.report.sweeppage.sweepresults import CAPTION_CELLS, FEW_CELLS, MAX_PANELS

__all__ = [
    "ANSWERS",
    "CAPTION_CELLS",
    "COMPARISONS_FILE",
    "FEW_CELLS",
    "FINDINGS_FILE",
    "GLOSSARY",
    "MAX_PANELS",
    "METHOD_TOPIC",
    "NO_SWEEP_COMMAND",
    "OPEN_DETAILS",
    "P_FLOOR",
    "SPEC_FILE",
    "PageFigure",
    "PageSection",
    "PageTable",
    "ReportError",
    "Topic",
    "answer_findings",
    "cell_labels",
    "group_findings",
    "html_table",
    "make_report",
    "page_figure",
    "render_page",
    "write_findings",
    "write_study_page",
]
