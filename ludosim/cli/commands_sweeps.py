"""The commands of many rule sets and timings: `bench` (games per second), `sweep`
(grids of rule variants into a resumable Parquet folder) and `report` (the page of a
sweep, a Parquet file or a design's folder).
"""

from __future__ import annotations

import contextlib
import logging
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from ludosim.cli.output import _emit, _playing
from ludosim.cli.params import (
    SEED_HELP,
    FormatOpt,
    QuietOpt,
    SetOpt,
    _format,
    _policies,
    _policy_list,
    _require_seed,
)
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, Rules


def bench(
    preset: Annotated[
        list[str] | None,
        typer.Option(
            "--preset", "-p", metavar="NAME", help="Preset to time; repeat for more (default: all)."
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games per run.")
    ] = 100_000,
    threads: Annotated[
        list[int] | None,
        typer.Option(
            "--threads",
            "-t",
            metavar="T",
            help="Thread count to time; repeat for more (default: 1 and every core).",
        ),
    ] = None,
    reference_games: Annotated[
        int,
        typer.Option(
            "--reference-games", metavar="N", help="Games timed with the reference engine."
        ),
    ] = 100,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Policies to time, comma-separated, each played by every seat (random is "
            "timed too, as the baseline of cost_vs_random). Default: random.",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Time the compiled engine (and the reference engine) in games per second.

    Prints one row per rules, policy, engine and thread count, then what each column
    means; "-" marks a measure that does not apply to the row (a reference-engine row
    has no kernel ratios).

    Example: ludosim bench --preset app --games 100000 --threads 1 --policy balanced
    """
    fmt = _format(fmt)
    names = list(preset) if preset else list(PRESETS)
    for name in names:
        Rules.preset(name)  # an unknown name fails before any timing starts
    timed = _policy_list(policy)  # so does an unknown policy
    if reference_games < 0:
        raise LudosimError(
            f"--reference-games must be 0 (no reference rows) or more, got {reference_games}"
        )
    from ludosim.report.answers import bench_answer
    from ludosim.run.bench import COLUMNS, run_bench

    kwargs: dict[str, Any] = {"presets": names, "games": games, "reference_games": reference_games}
    if threads:
        kwargs["threads"] = list(threads)
    if timed:
        kwargs["policies"] = timed
    with _playing("bench", quiet) as progress:
        df = run_bench(progress=progress, **kwargs)
    _emit(bench_answer(df, COLUMNS), fmt)


class _NoteHandler(logging.Handler):
    """Prints what a sweep logs (damaged chunks, Dask workers gone) as `note:` lines."""

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"note: {' '.join(record.getMessage().split())}", err=True)


@contextlib.contextmanager
def _sweep_notes() -> Iterator[None]:
    """Show the sweep's notes while it runs, once each (not also through logging's fallback)."""
    logger = logging.getLogger("ludosim.sweep")
    handler = _NoteHandler(logging.WARNING)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def sweep(
    spec_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE",
            help="Sweep file (TOML, see docs/sweep.md); or use the options below.",
            show_default=False,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            "-p",
            metavar="NAME",
            help="Base preset of the grid (see `ludosim presets`); required without a sweep "
            "file, unless every --variant names its preset.",
        ),
    ] = None,
    sets: SetOpt = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            "-v",
            metavar="TOGGLE=V1,V2",
            help="A toggle (or policies) and its values; repeat for a grid. Values holding "
            "commas go in brackets: safe=[],[starts,stars] (docs/sweep.md).",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            metavar="[NAME=]PRESET[+T=V]",
            help="A starting point, a rule set as written (app, bounce=app+finish=bounce); "
            "repeat (default: the base preset).",
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            metavar="MODE",
            help="grid (full factorial, the default) or one-at-a-time.",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            help="Games per cell (default 10000; replaces a sweep file's games or precision).",
        ),
    ] = None,
    precision: Annotated[
        str | None,
        typer.Option(
            "--precision",
            metavar="TARGET",
            help="Play each cell until the 95% interval has this half-width: 0.25pp "
            "(first-player advantage) or 1turn (mean game length); instead of --games "
            "(default: none, a fixed number of games).",
        ),
    ] = None,
    pilot: Annotated[
        int | None,
        typer.Option(
            "--pilot", metavar="N", help="Pilot games per cell of --precision (default 20000)."
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            metavar="N",
            help="Most games per cell of --precision (default 10000000).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="N",
            help=f"{SEED_HELP} without a sweep file; with one, replaces its seed.",
            show_default=False,
        ),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="A,B,...",
            help="Policy of every seat (default random), or one per seat, comma-separated "
            "(see `ludosim policies`).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Output folder (default with a file: its out, else runs/<file name>).",
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option("--chunk-size", metavar="N", help="Games per chunk file (default 250000)."),
    ] = None,
    summary_only: Annotated[
        bool,
        typer.Option("--summary-only", help="Keep per-chunk summaries instead of every game."),
    ] = False,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Run on Dask: local (a LocalCluster) or tcp://HOST:PORT (default: on this "
            "machine, without Dask).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            help="Worker processes of --dask local (default: 4, or fewer cores).",
        ),
    ] = None,
    dask_wait: Annotated[
        float | None,
        typer.Option(
            "--dask-wait",
            metavar="SECONDS",
            help="Stop when the Dask cluster has had no live worker this long "
            "(default: say so after 30 s and keep waiting).",
        ),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option(
            "--threads",
            "-t",
            metavar="T",
            help="Kernel threads per chunk (default: every core, shared by the workers "
            "of --dask local).",
        ),
    ] = None,
    new: Annotated[
        bool,
        typer.Option("--new", help="Move a folder of another sweep aside and start afresh."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list the cells; play nothing.")
    ] = False,
    fmt: FormatOpt = "table",
    quiet: QuietOpt = False,
) -> None:
    """Play grids of rule variants into a resumable Parquet folder; rerun to resume.

    Ends with a summary: the cells and their games, the headline findings of the
    folder's page (decided as `ludosim report` decides them) and the command that
    writes the report.

    Example: ludosim sweep --preset app --vary six_limit=0,3 --seed 1 --out runs/six
    """
    from ludosim.report.answers import plan_answer, sweep_answer
    from ludosim.sweep import check_run_options, plan, run_sweep, spec_from_command
    from ludosim.sweep.execute import Stopped, Terminated

    fmt = _format(fmt)

    if out is not None and not out.strip():
        raise LudosimError("--out is empty; name the sweep's folder, e.g. --out runs/my-grid")
    # Executor options are checked before any folder is made.
    check_run_options(dask, workers, threads, dask_wait)
    policies = _policies(policy) if policy else None
    if spec_file is None:
        _require_seed(seed)
    spec, folder = spec_from_command(
        spec_file,
        preset=preset,
        sets=sets or (),
        vary=vary or (),
        variants=variant or (),
        mode=mode,
        policies=policies,
        games=games,
        seed=seed,
        chunk_size=chunk_size,
        summary_only=summary_only or None,
        out=None if out is None else Path(out),
        precision=precision,
        pilot=pilot,
        max_games=max_games,
    )
    if dry_run:
        table = plan(spec, folder)
        extra = ["pilot", "planned", "plan"] if spec.precision else []
        cells = table[["cell", "name", "policies", "games", "chunks", *extra]]
        size = f"precision {spec.precision}" if spec.precision else f"{spec.games:,} games"
        title = f"{len(cells)} cell{'s' * (len(cells) != 1)} x {size}, seed {spec.seed} -> {folder}"
        notes = []
        if extra and (table["plan"] == "pilot first").any():
            notes.append(
                "pilot first: the sweep plays each cell's pilot, then the games its "
                "variance asks for; rerun --dry-run after the pilots to see them"
            )
        _emit(plan_answer(cells, title, notes), fmt)
        return
    try:
        with _sweep_notes(), _playing("sweep", quiet) as progress:
            result = run_sweep(
                spec, folder, new=new, dask=dask, workers=workers, threads=threads,
                progress=progress, dask_wait=dask_wait,
            )  # fmt: skip
    except KeyboardInterrupt as exc:
        head = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"
        kept = exc.kept_text() if isinstance(exc, Stopped) else "finished chunks are kept"
        typer.echo(f"{head}: {kept} in {folder}; rerun to resume", err=True)
        raise typer.Exit(143 if isinstance(exc, Terminated) else 130) from None
    report_command = shlex.join(["ludosim", "report", str(folder), "--out", str(folder / "report")])
    _emit(sweep_answer(result, report_command), fmt)
    if fmt == "table" and result.complete:
        typer.echo(f"to write its page: {report_command}")


def report(
    results: Annotated[
        Path,
        typer.Argument(
            metavar="RESULTS",
            help="A sweep folder, a part of one, or a Parquet file written by `simulate --out`.",
            show_default=False,
        ),
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder for index.html, its PNG figures and CSV tables (created if needed).",
            show_default=False,
        ),
    ],
    title: Annotated[
        str | None,
        typer.Option("--title", metavar="TEXT", help="Page title (default: the sweep's name)."),
    ] = None,
) -> None:
    """Write an HTML report (PNG figures, CSV tables) of simulation results, or redraw a
    design's page (its tables and page) from its folder.

    Example: ludosim report runs/app-grid --out runs/app-grid/report
    """
    # Checked here, before the report module creates the output folder.
    if not out.strip():
        raise LudosimError(
            "--out is empty; name the report's folder, e.g. --out runs/app-grid/report"
        )
    if not results.exists():
        raise LudosimError(
            f"RESULTS: no such sweep folder or Parquet file: {results} "
            "(write one with `ludosim sweep ... --out DIR` or `ludosim simulate ... --out FILE`)"
        )
    from ludosim.studies.design import is_design

    # A design's page is redrawn from its tables alone; a sweep's from its games.
    if not is_design(results) and results.is_dir() and not any(results.rglob("*.parquet")):
        raise LudosimError(f"RESULTS: {results} holds no .parquet results")
    from ludosim.cli.progress import GameProgress, mode
    from ludosim.run.runstages import Stage, announce, begin

    # No games, but a line every interval all the same, naming what it does.
    with GameProgress("report", mode(False)) as progress:
        announce(progress, [Stage("reading the results and writing the page", 0)])
        begin(progress, 1)
        if is_design(results):
            # A design's folder: its page is redrawn from its tables (docs/design.md).
            from ludosim.studies.design import report_study

            page = report_study(results, Path(out), title=title)
        else:
            from ludosim.report.page import make_report

            page = make_report(results, Path(out), title=title)
    typer.echo(f"wrote {page}")
