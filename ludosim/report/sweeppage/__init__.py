"""The sweep page: `ludosim report` of a results folder, one module per topic.

`make_report` (`makereport`) writes the page; `page_findings` (`sweepfindings`)
decides what it states. Each topic holds its findings and its section together:

- `gamelength`: how long games last;
- `firstplayer`: the first player against its fair share, win rates by position and seat;
- `pairs`: every pair of cells on one measure and the ends of their ranking;
- `toggleeffects`: one-toggle changes from a base, the seat whose policy changed;
- `factorial`: main effects and interactions of full 2^k designs;
- `policyranking`: a tournament's policies;
- `skipcost`: what skipping a forced capture costs;
- `pagenotes`: how to read the page.

Below them: `pagedesign` (what a page compares, from its cells), `pagestate` (a page
being decided and the words of a comparison), `readresults` and `sweepresults` (what
the page is drawn from), `cellstable` (its tables of cells). The kit every page shares
is `ludosim.report.finding` and `ludosim.report.htmlpage`; `ludosim.report.findings`
and `ludosim.report.page` keep the names they always offered.
"""
