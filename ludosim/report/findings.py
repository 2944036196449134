"""Findings: what a results table says, in sentences a reader can quote.

The names this module always offered, where they live now: the `Finding` and the
words of a verdict in `ludosim.report.finding` (the kit every page shares), the sweep
page's decisions (`page_findings`, `findings`, `TOPICS`, `TITLES`) in
`ludosim.report.sweeppage.sweepfindings` and its design (`page_design`,
`PageDesign`) in `ludosim.report.sweeppage.pagedesign`.
"""

from ludosim.report.finding import (
    DIFFERENCES,
    KINDS,
    VALUES,
    Finding,
    PageFindings,
    finding_records,
    not_told_apart,
    size_words,
    sized,
    verdict,
)
from ludosim.report.sweeppage.pagedesign import PageDesign, page_design
from ludosim.report.sweeppage.pagenotes import JUDGED_BY
from ludosim.report.sweeppage.pairs import NAMED_PAIRS
from ludosim.report.sweeppage.sweepfindings import (
    COMPARISON_COLUMNS,
    TITLES,
    TOPICS,
    findings,
    page_findings,
)

__all__ = [
    "COMPARISON_COLUMNS",
    "DIFFERENCES",
    "JUDGED_BY",
    "KINDS",
    "NAMED_PAIRS",
    "TITLES",
    "TOPICS",
    "VALUES",
    "Finding",
    "PageDesign",
    "PageFindings",
    "finding_records",
    "findings",
    "not_told_apart",
    "page_design",
    "page_findings",
    "size_words",
    "sized",
    "verdict",
]
