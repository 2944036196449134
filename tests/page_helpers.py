"""Checks shared by the study pages' tests: findings.json beside a page, and its glossary."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path

from ludosim.report.findings import KINDS, Finding

FIELDS = (
    "topic", "text", "resolved", "games_needed", "headline", "kind", "estimate", "ci_low",
    "ci_high", "unit", "family", "p_adjusted", "games", "equivalent", "basis", "exploratory",
)  # fmt: skip
_STATED = re.compile(
    r'class="finding [^"]*"[^>]*>(.*?)(?: <span class="badge[^"]*">|</p>|</li>)', re.S
)


def stated_texts(page: str) -> list[str]:
    """The findings' texts in the order the page shows them."""
    return [html.unescape(t) for t in _STATED.findall(page)]


def check_findings_file(folder: Path, found: Sequence[Finding]) -> list[dict]:
    """findings.json beside the page holds exactly `found`, in the page's order, every object
    with every field and a decision that matches its kind and family."""
    records = json.loads((folder / "findings.json").read_text())
    assert records == json.loads(json.dumps([f.to_dict() for f in found]))
    assert [r["text"] for r in records] == stated_texts((folder / "index.html").read_text())
    for r in records:
        assert tuple(r) == FIELDS and r["kind"] in KINDS, r
        if r["family"] is not None:
            assert r["kind"] in ("value", "difference", "ranking"), r
            assert r["p_adjusted"] is not None and r["estimate"] is not None, r
            assert r["resolved"] == (r["p_adjusted"] < 0.05), r
        if r["kind"] in ("difference", "ranking"):
            assert r["family"] == "differences", r
        if r["kind"] == "note":
            assert r["estimate"] is None and r["family"] is None, r
        if r["family"] is not None and r["ci_low"] is not None:
            # (A bootstrap percentile interval, stated without a family, may miss its estimate.)
            assert r["ci_low"] <= r["estimate"] <= r["ci_high"] and r["unit"], r
    return records


def glossary_terms(page: str) -> list[str]:
    section = page[page.index('<section id="glossary">') :]
    return [html.unescape(t) for t in re.findall(r"<dt>(.*?)</dt>", section)]
