"""What the commands print: results on stdout, notices and progress on stderr.

`_emit` prints an answer (`ludosim.report.answers.Answer`): a rounded table and the
findings for people, JSON or CSV alone for scripts. `_show` and `_frame_table` print
rich tables whole; `_wrote` and `_study_written` are the closing lines of a command
that wrote files; `_playing` wraps a command that plays games in the compile notice
and its progress (`ludosim.cli.progress`).
"""

from __future__ import annotations

import contextlib
import json
import numbers
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludosim.cli.progress import GameProgress, mode

if TYPE_CHECKING:
    import pandas as pd

    from ludosim.report.answers import Answer


def _console() -> Console:
    # Created per call so it writes to the current sys.stdout (test runners swap it).
    return Console(highlight=False)


def _show(table: Table) -> None:
    """Print a table whole: wider than the terminal (or than 80 columns when the
    output is not a terminal) rather than with its cells cut to "…"."""
    console = _console()
    width = Console(width=10_000).measure(table).maximum
    if width > console.width:
        console = Console(highlight=False, width=width)
    console.print(table)


def _cell(value: Any) -> str:
    """Floats: whole numbers from 1000 up, else 4 significant digits; "-" for a missing one;
    counts with thousands separators."""
    if isinstance(value, float):
        if value != value:  # NaN: a measure that does not apply to this row
            return "-"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return f"{int(value):,}"
    return str(value)


def _frame_table(df: pd.DataFrame, title: str | None = None) -> Table:
    """A rich table of a small DataFrame, at least as wide as its title (which never wraps)."""
    table = Table(title=title, min_width=len(title) if title else None)
    for column in df.columns:
        table.add_column(str(column), justify="right" if df[column].dtype.kind in "iuf" else "left")
    for row in df.itertuples(index=False):
        table.add_row(*(escape(_cell(v)) for v in row))
    return table


def _emit(answer: Answer, fmt: str, before: Sequence[str] = ()) -> None:
    """Print an answer: JSON or CSV alone on stdout for scripts; for people the lines
    `before` (a transcript), the title, the rounded table, the headline findings and
    the notes. An exploratory run's note comes first, on its own, and the findings
    under it are headed as leads, so that no difference on a small run reads as settled."""
    if fmt == "json":
        typer.echo(answer.to_json())
        return
    if fmt == "csv":
        typer.echo(answer.to_csv(), nl=False)
        return
    from ludosim.report.answers import rounded

    for line in before:
        typer.echo(line)
    _show(_frame_table(rounded(answer.estimates, answer.rounded_like), title=answer.title))
    told = answer.told()  # in the terminal's words: no cell ids, sections or "this page"
    warning = answer.exploratory_note(told)
    headlines = [f for f in told if f.text != warning]
    if warning:
        typer.echo("")
        typer.echo(warning)
    if headlines:
        typer.echo("")
        lead = "exploratory, leads to confirm with a larger run; " if warning else ""
        typer.echo(f"Findings ({lead}decided as a report of these games decides them):")
        for finding in headlines:
            typer.echo(f"- {finding.text}")
    if answer.notes:
        typer.echo("")
        for note in answer.notes:
            typer.echo(note)


def _wrote(fmt: str, command: str, path: Path, line: str, **more: Any) -> None:
    """What a command that wrote a file prints: its line, or for scripts the path."""
    if fmt == "table":
        typer.echo(line)
    elif fmt == "json":
        typer.echo(json.dumps({"command": command, "wrote": str(path), **more}, indent=2))
    else:
        typer.echo("wrote\n" + str(path))


def _study_written(page: Path, count: int = 2) -> None:
    """A study's closing lines: its first `count` answers (the headline findings that are
    not notes on the method, as its page states them) and where the page is."""
    records = json.loads((Path(page).parent / "findings.json").read_text(encoding="utf-8"))
    answers = [r for r in records if r.get("headline") and r.get("kind") != "note"]
    if answers:
        typer.echo("Findings (the page states every one with its method):")
        for record in answers[:count]:
            typer.echo(f"- {record['text']}")
        typer.echo("")
    typer.echo(f"wrote {page} with its tables")


@contextlib.contextmanager
def _compile_notice() -> Iterator[None]:
    """Say on stderr why the first run after install (or after a kernel change) is slow:
    the kind of game compiling and its measured compile time (`ludosim.run.warm`)."""
    from ludosim.run.warm import compile_notice, notice_text

    with compile_notice(lambda kind: typer.echo(notice_text(kind), err=True)):
        yield


@contextlib.contextmanager
def _playing(command: str, quiet: bool) -> Iterator[GameProgress]:
    """The compile notice and the progress bar around a command that plays games."""
    with _compile_notice(), GameProgress(command, mode(quiet)) as progress:
        yield progress
