"""Running a sweep: cells -> chunks -> an executor -> atomic chunk files, resumably.

Two executors produce chunks; both feed the same writer, so the files do not
depend on the backend:

- local (default): chunks run one after another in this process, each using
  every core through the kernel's own threads, while a writer thread
  compresses and writes the previous chunk (so cores are not idle during I/O);
- Dask: `dask="local"` starts a `distributed.LocalCluster`, `dask="tcp://..."`
  connects to a running scheduler; each chunk is a task, at most a few per
  worker thread are in flight, and results come back to this process, which
  writes them (no shared file system is needed).

Because game g always draws from stream (seed, g), a chunk [a, b) is exactly
rows a..b-1 of the whole cell: same seed, same rows, whatever the backend,
worker count or chunk order.

With a precision target a sweep runs in two stages (Stein's two-stage
procedure, `ludosim.sweep.precision`): the pilot chunks of every cell, then,
from the pilot's variance, games pilot..n-1 of each cell. The plan follows
from the pilot chunk files alone, so a resumed sweep finds the same n.

Here: `run_sweep` and the run loop (which chunks are whole on disk, which to play,
the manifest), the local and Dask executors, and `compute_chunk`, the one place a
chunk reaches the kernel. The plain data of a run is in `ludosim.sweep.tasks`, the
dry-run table and a precision sweep's plan in `ludosim.sweep.planning`, and the Dask
plumbing that needs nothing of the sweep in `ludosim.sweep.daskcluster`. What stays
here stays together because tests and tools replace `_kernel`, `write_frame_atomic`,
`NO_WORKERS_NOTICE_S` and `CONNECT_TIMEOUT_S` on this module, and the functions that
read them look them up here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim._version import __version__
from ludosim.results.chunks import check_chunk, file_digest, stamp_metadata
from ludosim.results.failures import write_error
from ludosim.results.parquet import write_frame_atomic
from ludosim.results.summary import summary_to_frame
from ludosim.rules.errors import LudosimError
from ludosim.run.runstages import Stage, announce, begin
from ludosim.run.simulate import simulate
from ludosim.run.stopping import sigterm_raises
from ludosim.sweep import store
from ludosim.sweep.daskcluster import _distributed, _failed, _quiet_distributed, _scheduler_gone
from ludosim.sweep.partial import Partials, join_pieces, next_piece
from ludosim.sweep.planning import _planned, _record_precision, _tag_run
from ludosim.sweep.planning import plan as plan  # re-exported: `ludosim.sweep` imports it here
from ludosim.sweep.precision import CellPlan, plan_cell
from ludosim.sweep.spec import Cell, SweepError, SweepSpec, check_run_options, expand, spec_hash
from ludosim.sweep.tasks import ChunkTask, SweepResult, _Execution

if TYPE_CHECKING:
    import pandas as pd


_log = logging.getLogger("ludosim.sweep")

# Seconds between manifest rewrites while chunks stream in; the chunk files are
# the truth, so a manifest a moment behind loses nothing.
MANIFEST_INTERVAL_S = 1.0
# A Dask sweep whose cluster has had no live worker for this long says so.
NO_WORKERS_NOTICE_S = 30.0
# How long a sweep tries to reach a Dask scheduler (`tcp://...`) before it gives up.
CONNECT_TIMEOUT_S = 15
# How often a Dask sweep waiting for results checks that workers are alive.
WORKER_CHECK_S = 1.0
_POLL_S = 0.02


# A precision sweep's second stage, as its progress names it.
SECOND_STAGE = "the games the precision target needs"


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped the sweep; what it kept (set as it stops).

    `kept`: games this run played that are on disk (whole chunks, and the part of
    the chunk being played, in its partial file); `done` of `total`: the games of
    the sweep's stage on disk now, which a rerun does not play again.
    """

    kept: int = 0
    done: int = 0
    total: int = 0

    def kept_text(self) -> str:
        """`kept 16,816 games played (16,816 of 400,000 games are done)`."""
        return f"kept {self.kept:,} games played ({self.done:,} of {self.total:,} games are done)"


class Terminated(Stopped):
    """SIGTERM arrived: the sweep stops like on Ctrl-C, keeping the games played."""


def _kernel() -> Callable[..., Any]:
    """The compiled engine's `simulate`: the one place a chunk reaches the kernel."""
    return simulate


def compute_chunk(
    task: ChunkTask,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Play one chunk; checks the kernel returned exactly games start..stop-1.

    With `progress` (`progress(games_done, task.games)`) the kernel plays the
    chunk in slices of about a second and reports after each; game g depends on
    (seed, g) alone, so the chunk's rows are the same either way.
    """
    kwargs: dict[str, Any] = {"summary": task.summary, "first_game": task.start}
    if task.flow:
        kwargs["flow"] = True
    if threads is not None:
        kwargs["threads"] = threads
    if progress is not None:
        kwargs["progress"] = progress
    policies: str | list[str] = list(task.policies)
    df = _kernel()(task.rules, task.games, task.seed, policies=policies, **kwargs)
    if task.summary:
        if df.games != task.games:
            raise SweepError(
                f"cell {task.cell}: the kernel summarised {df.games} games, expected {task.games}"
            )
        # One row of additive totals per chunk: a cell's summary is their sum.
        df = summary_to_frame(df)
        df.insert(0, "stop", task.stop)
        df.insert(0, "start", task.start)
    else:
        games = df["game"]
        if len(df) != task.games or games.iloc[0] != task.start or games.iloc[-1] != task.stop - 1:
            raise SweepError(
                f"cell {task.cell}: the kernel returned {len(df)} rows for games "
                f"{task.start}..{task.stop - 1}"
            )
    return df


def run_sweep(
    spec: SweepSpec,
    out: str | Path,
    *,
    new: bool = False,
    dask: str | Any | None = None,
    workers: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    dask_wait: float | None = None,
) -> SweepResult:
    """Play every cell of `spec` into the folder `out`, resuming what is already there.

    `dask=None` runs locally; `"local"` starts a LocalCluster of `workers` processes;
    `"tcp://host:port"` uses a running scheduler; a `distributed.Client` is used as it
    is (any cluster built in Python). `threads` is the kernel's thread count per chunk
    (default: all cores of the machine, split between the workers of a LocalCluster).
    `progress`, if given, is called as `progress(games_done, games_total)` (over all
    cells, finished chunks on disk included) at the start and after each chunk is
    written; run locally, also while a chunk plays (games played so far, about every
    second). Ctrl-C (`Stopped`, a KeyboardInterrupt) or SIGTERM (`Terminated`, when
    called from the main thread) keeps every game played: the chunk being written is
    finished, and the part of the chunk being played (pieces of about two seconds) is
    written as its partial file; running the same call again resumes from there without
    playing those games again, into the same chunks as a run never stopped. A Dask
    cluster without a live worker is reported after `NO_WORKERS_NOTICE_S` (a logged
    warning); with `dask_wait` the sweep stops (`SweepError`) once it has had none for
    that many seconds, else it waits for workers to come back. A write that fails (a
    full disk, a read-only folder) is a `SweepError` naming the file and the cause;
    finished chunks are kept and the folder resumes. With `spec.precision` the cells are
    played in two stages (pilot, then the games the target needs; `progress` counts each
    stage's games) and `SweepResult.precision` holds what each cell achieved.
    """
    check_run_options(dask, workers, threads, dask_wait)
    if out is None or not isinstance(out, (str, os.PathLike)) or not str(out).strip():
        raise SweepError(
            f"out must name the sweep's folder (a str or pathlib.Path), got {out!r}; "
            "e.g. run_sweep(spec, 'runs/my-grid')"
        )
    cells = expand(spec)
    spec_id = spec_hash(spec, cells)
    backend = "local" if dask is None else f"dask:{dask if isinstance(dask, str) else 'client'}"
    try:
        # A scheduler that cannot be reached fails here, before the folder is made.
        with _stop_on_sigterm(), _scheduler(dask) as scheduler:
            execution = _Execution(scheduler, workers, threads, progress, dask_wait, backend)
            folder = store.open_folder(out, spec, cells, spec_id, new=new, version=__version__)
            try:
                if spec.precision is None:
                    return _run(spec, cells, spec_id, folder, execution)
                return _run_to_precision(spec, cells, spec_id, folder, execution)
            finally:
                folder.close()
    except OSError as exc:
        raise SweepError(
            f"{write_error(exc, Path(out))}; finished chunks are kept in {out}, "
            "fix the cause and rerun to resume"
        ) from None


@contextlib.contextmanager
def _scheduler(dask: str | Any | None) -> Iterator[str | Any | None]:
    """A `distributed.Client` of a scheduler address (`tcp://...`), connected now and
    closed after the sweep; `None`, `"local"` and a caller's Client pass through (a
    LocalCluster starts only when there are chunks to compute)."""
    if not isinstance(dask, str) or dask == "local":
        yield dask
        return
    with _quiet_distributed():
        client = _connect(dask)
        try:
            yield client
        finally:
            client.close()


def _connect(address: str) -> Any:
    """A client of the scheduler at `address`; `SweepError` when it cannot be reached."""
    try:
        return _distributed().Client(address, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _stop_on_sigterm() -> contextlib.AbstractContextManager[None]:
    """SIGTERM raised as `Terminated` inside the block (`ludosim.run.stopping`)."""
    return sigterm_raises(Terminated)


def _run_to_precision(
    spec: SweepSpec,
    pilots: list[Cell],
    spec_id: str,
    folder: store.Folder,
    execution: _Execution,
) -> SweepResult:
    """Stein's two stages: the pilot chunks, then every cell up to its planned games."""
    target = spec.target()
    assert target is not None  # only called with a precision target
    runs = len(folder.manifest["runs"])
    pilot_games = sum(c.games for c in pilots)
    # The second stage's games are known only from the pilot: stated once it is done.
    announce(execution.progress, [Stage("pilot", pilot_games), Stage(SECOND_STAGE, 0)])
    begin(execution.progress, 1)
    try:
        first = _run(spec, pilots, spec_id, folder, execution)
    finally:
        _tag_run(folder, runs, "pilot")
    plans: dict[str, CellPlan] = {}
    for cell in pilots:
        moments = store.cell_moments(folder.root, spec.summary_only, spec_id, cell, spec.chunk_size)
        if moments is None:  # the pilot run completed, so its chunks are on disk
            raise SweepError(f"cell {cell.id}: the pilot chunks are missing after the pilot run")
        plans[cell.id] = plan_cell(moments, target, spec.max_games)
    cells = [_planned(c, plans[c.id]) for c in pilots]
    store.record_plan(folder, spec, cells, spec_id)
    _record_precision(spec, target, cells, plans, spec_id, folder)
    runs = len(folder.manifest["runs"])
    # The second stage counts the pilot's games as done: they are its first games.
    second_games = sum(c.games for c in cells) - pilot_games
    announce(execution.progress, [Stage("pilot", pilot_games), Stage(SECOND_STAGE, second_games)])
    begin(execution.progress, 2, at=pilot_games)
    try:
        second = _run(spec, cells, spec_id, folder, execution)
    finally:
        _tag_run(folder, runs, "second")
    _record_precision(spec, target, cells, plans, spec_id, folder)
    return SweepResult(
        out=folder.root,
        cells=cells,
        chunks_total=second.chunks_total,
        # The second stage sees the pilot's fresh chunks as done: count them once.
        chunks_skipped=second.chunks_skipped - first.chunks_computed,
        chunks_computed=first.chunks_computed + second.chunks_computed,
        repaired=first.repaired + second.repaired,
        adopted=first.adopted + second.adopted,
        rebuilt=first.rebuilt,
        games_computed=first.games_computed + second.games_computed,
        seconds=first.seconds + second.seconds,
        moved_aside=folder.moved_aside,
        precision=folder.manifest["precision"],
    )


def _run(
    spec: SweepSpec,
    cells: list[Cell],
    spec_id: str,
    folder: store.Folder,
    execution: _Execution,
) -> SweepResult:
    started = time.perf_counter()
    # Under the folder's lock: no running sweep owns these, and no run recorded
    # as running is alive.
    store.remove_stale_temporaries(folder.root)
    killed = _mark_killed_runs(folder)
    rebuilt = folder.manifest.get("rebuilt", {}).get("why") if not folder.manifest["runs"] else None
    result = SweepResult(
        out=folder.root,
        cells=cells,
        chunks_total=sum(c.chunk_count(spec.chunk_size) for c in cells),
        chunks_skipped=0,
        chunks_computed=0,
        moved_aside=folder.moved_aside,
        rebuilt=rebuilt,
    )
    todo: list[ChunkTask] = []
    partials = Partials(folder.root, spec.summary_only, spec_id)
    for cell in cells:
        for start, stop in cell.chunks(spec.chunk_size):
            state = folder.chunk_state(cell.id, start, stop)
            path = folder.chunk_path(cell.id, start)
            rows = 1 if spec.summary_only else stop - start
            recorded = state.get("sha256") if state.get("state") == "done" else None
            # A chunk without a recorded hash (finished just before a kill, or
            # found by a rebuilt manifest) is decoded whole instead.
            problem = check_chunk(
                path, spec_id, cell.id, start, stop, rows, sha256=recorded, deep=True
            )
            if problem is None:
                if state.get("state") != "done":
                    # Whole on disk but not in the manifest: adopted, not recomputed.
                    result.adopted += 1
                    state.update(state="done", rows=rows, computed=max(1, state.get("computed", 0)))
                if recorded is None:
                    state["sha256"] = file_digest(path)
                folder.record_chunk(cell.id, start, state)
                result.chunks_skipped += 1
                continue
            if problem != "missing":
                result.repaired.append(f"cell {cell.id} chunk {path} {problem}; recomputing")
                with contextlib.suppress(OSError):
                    path.unlink()
            if state.get("computed", 0):
                # Computed before but not whole now: recorded as damaged (or missing)
                # until recomputed. A chunk never computed stays implicit (pending).
                state["state"] = "missing" if problem == "missing" else "damaged"
                state.pop("sha256", None)
                folder.record_chunk(cell.id, start, state)
            task = ChunkTask(
                cell=cell.id,
                start=start,
                stop=stop,
                rules=cell.rules,
                policies=cell.policies,
                seed=cell.seed,
                summary=spec.summary_only,
                flow=spec.flow,
            )
            todo.append(dataclasses.replace(task, kept=partials.kept(task)))
    if killed is not None and result.adopted:
        # The chunks a killed run wrote after the manifest's last save are its work.
        killed["computed"] = killed.get("computed", 0) + result.adopted
    run_log: dict[str, Any] = {
        "started": store.now(),
        "pid": os.getpid(),
        "backend": execution.backend,
        "kept": result.chunks_skipped,
        "adopted": result.adopted,
        "repaired": list(result.repaired),
        "computed": 0,
        "status": "running",
    }
    folder.manifest["runs"].append(run_log)
    folder.save_manifest()

    total_games = sum(c.games for c in cells)
    done_games = [total_games - sum(t.games - t.kept for t in todo)]
    lock = threading.Lock()
    last_save = [time.monotonic()]
    progress = execution.progress
    # Run locally, the chunks report from inside (games played, written or not), so
    # a long chunk is not a silent one; from Dask, each chunk when it is written.
    playing: Callable[[int], None] | None = None
    if progress is not None and execution.dask is None:
        before = done_games[0]

        def playing(games: int) -> None:
            progress(before + games, total_games)

    def record(task: ChunkTask, df: pd.DataFrame, seconds: float) -> None:
        # Runs on the writer thread: the only place chunk states change during the loop.
        path = folder.chunk_path(task.cell, task.start)
        stamp = stamp_metadata(spec_id, task.cell, task.start, task.stop)
        digest = write_frame_atomic(df, path, stamp)
        if task.kept:
            partials.drop(task)
        with lock:
            state = folder.chunk_state(task.cell, task.start, task.stop)
            state.update(
                state="done",
                rows=len(df),
                computed=state.get("computed", 0) + 1,
                seconds=round(seconds, 3),
                finished=store.now(),
                sha256=digest,
            )
            folder.record_chunk(task.cell, task.start, state)
            result.chunks_computed += 1
            result.games_computed += task.games - task.kept
            run_log["computed"] = result.chunks_computed
            done_games[0] += task.games - task.kept
            if time.monotonic() - last_save[0] >= MANIFEST_INTERVAL_S:
                folder.save_manifest()
                last_save[0] = time.monotonic()
        if progress is not None and playing is None:
            progress(done_games[0], total_games)

    status = "failed"
    try:
        for message in result.repaired:
            # Logged, so a run without a terminal (a batch job) still leaves a trace.
            _log.warning(message)
        if progress is not None:
            progress(done_games[0], total_games)
        if todo:  # nothing to do: no cluster to start
            _write_all(_execute(todo, execution, partials, playing), record)
            if playing is not None:
                progress(done_games[0], total_games)
        status = "complete"
    except KeyboardInterrupt as exc:
        status = "terminated" if isinstance(exc, Terminated) else "interrupted"
        stopped = exc if isinstance(exc, Stopped) else Stopped()
        stopped.kept = result.games_computed + partials.saved
        stopped.done, stopped.total = done_games[0] + partials.saved, total_games
        run_log["kept_games"] = stopped.kept
        if stopped is exc:
            raise
        raise stopped from None
    except OSError as exc:
        run_log["error"] = write_error(exc, folder.root)
        raise
    except LudosimError as exc:
        run_log["error"] = str(exc)
        raise
    finally:
        result.seconds = time.perf_counter() - started
        run_log.update(status=status, finished=store.now(), seconds=round(result.seconds, 3))
        folder.manifest["complete"] = result.complete
        try:
            folder.save_manifest()
        except OSError:
            # After a failed write (a full disk) the manifest may not fit either; the
            # chunk files are the truth and the next run finds them. Only a run that
            # otherwise succeeded reports this failure.
            if status == "complete":
                raise
    return result


def _mark_killed_runs(folder: store.Folder) -> dict[str, Any] | None:
    """Runs still recorded as running ended without recording it: a signal, a crash.

    Called under the folder's lock, so none of them is alive. Returns the last
    such run, which wrote any chunk the manifest does not know yet.
    """
    last = None
    for run in folder.manifest["runs"]:
        if run.get("status") == "running":
            run["status"] = "killed"
            run["note"] = (
                "ended without recording its end (SIGKILL, a crash, a lost machine, or a "
                "disk too full for the manifest); marked by the next run"
            )
            last = run
    return last


def _write_all(
    chunks: Iterator[tuple[ChunkTask, pd.DataFrame, float]],
    record: Callable[[ChunkTask, pd.DataFrame, float], None],
) -> None:
    """Write each chunk on one writer thread while the executor computes the next one."""
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludosim-writer")
    pending: Future[None] | None = None
    try:
        with contextlib.closing(chunks):  # type: ignore[type-var]
            for task, df, seconds in chunks:
                if pending is not None:
                    pending.result()  # at most one chunk waits in memory for the disk
                pending = writer.submit(record, task, df, seconds)
        if pending is not None:
            pending.result()
    finally:
        # On Ctrl-C the chunk being written is finished (it is complete in memory);
        # only chunks still being computed are lost.
        writer.shutdown(wait=True)


def _execute(
    tasks: Sequence[ChunkTask],
    execution: _Execution,
    partials: Partials,
    playing: Callable[[int], None] | None = None,
) -> Iterator[tuple[ChunkTask, pd.DataFrame, float]]:
    if execution.dask is None:
        return _run_local(tasks, execution.threads, partials, playing)
    return _run_dask(
        tasks, execution.dask, execution.workers, execution.threads, execution.dask_wait, partials
    )


def _run_local(
    tasks: Iterable[ChunkTask],
    threads: int | None,
    partials: Partials,
    playing: Callable[[int], None] | None = None,
) -> Iterator[tuple[ChunkTask, pd.DataFrame, float]]:
    """Each chunk in turn, in pieces of a few seconds from where its partial file
    ends; `playing(games)`, if given, hears the games played so far. Stopped in
    the middle of a chunk, the pieces played are written as its partial file."""
    played = 0
    size = next_piece(0.0, 0)
    for task in tasks:
        t0 = time.perf_counter()
        frames = partials.frames(task)
        at = task.start + task.kept
        try:
            while at < task.stop:
                piece = dataclasses.replace(task, start=at, stop=min(task.stop, at + size), kept=0)
                inside = None
                if playing is not None:

                    def inside(done: int, _games: int, before: int = played) -> None:
                        playing(before + done)

                began = time.perf_counter()
                frames.append(compute_chunk(piece, threads, inside))
                size = next_piece(time.perf_counter() - began, piece.games)
                played += piece.games
                at = piece.stop
        except KeyboardInterrupt:
            if at > task.start + task.kept:
                partials.save(task, at, frames, write_frame_atomic)
            raise
        df = join_pieces(task, task.start, task.stop, frames)
        yield task, df, time.perf_counter() - t0


def _dask_chunk(task: ChunkTask, threads: int | None) -> tuple[pd.DataFrame, float]:
    """Worker side of one chunk; splits the machine's cores between the worker's slots."""
    if threads is None:
        from distributed import get_worker

        slots = max(1, get_worker().state.nthreads)
        threads = max(1, (os.cpu_count() or 1) // slots)
    t0 = time.perf_counter()
    df = compute_chunk(task, threads)
    return df, time.perf_counter() - t0


def _run_dask(
    tasks: Sequence[ChunkTask],
    address: str | Any,
    workers: int | None,
    threads: int | None,
    dask_wait: float | None,
    partials: Partials,
) -> Iterator[tuple[ChunkTask, pd.DataFrame, float]]:
    if not isinstance(address, str):
        # A connected Client (the caller's, or `_scheduler`'s): use it, leave it open.
        yield from _stream_dask(address, tasks, threads, dask_wait, partials)
        return
    distributed = _distributed()
    cluster = None
    client = None
    quiet = contextlib.ExitStack()
    try:
        quiet.enter_context(_quiet_distributed())
        if address == "local":
            n = workers or min(4, os.cpu_count() or 1)
            try:
                cluster = distributed.LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: never clash with another cluster
                    silence_logs=logging.ERROR,
                )
            except Exception as exc:
                raise SweepError(
                    f"could not start a Dask LocalCluster ({type(exc).__name__}: {exc}); from a "
                    "script, call run_sweep under `if __name__ == '__main__':`"
                ) from None
            if threads is None:
                # One kernel per worker process; together they fill the machine.
                threads = max(1, (os.cpu_count() or 1) // n)
            client = distributed.Client(cluster, set_as_default=False)
        elif "://" in address:
            client = _connect(address)
        else:
            raise SweepError(
                f"--dask {address!r} is not allowed; use local or a scheduler address "
                "such as tcp://host:8786"
            )
        yield from _stream_dask(client, tasks, threads, dask_wait, partials)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        quiet.close()


def _stream_dask(
    client: Any,
    tasks: Sequence[ChunkTask],
    threads: int | None,
    dask_wait: float | None,
    partials: Partials,
) -> Iterator[tuple[ChunkTask, pd.DataFrame, float]]:
    from distributed import as_completed

    # A bounded window of tasks in flight: results wait in worker memory until this
    # process writes them, so submitting everything at once could exhaust it.
    slots = sum(client.nthreads().values()) or 1
    window = 2 * slots
    queue = iter(tasks)
    in_flight: dict[Any, ChunkTask] = {}
    stream = as_completed(loop=client.loop)
    watch = _WorkerWatch(client, dask_wait)

    def submit_next() -> None:
        task = next(queue, None)
        if task is not None:
            # A chunk with a partial file: its workers play the rest of it only.
            rest = dataclasses.replace(task, start=task.start + task.kept, kept=0)
            future = client.submit(_dask_chunk, rest, threads, pure=False)
            in_flight[future] = task
            stream.add(future)

    try:
        for _ in range(window):
            submit_next()
        checked = time.monotonic()
        while in_flight:
            if not stream.has_ready():
                # Polled rather than blocking, so a cluster without workers is noticed;
                # the window keeps the workers busy meanwhile.
                time.sleep(_POLL_S)
                if time.monotonic() - checked >= WORKER_CHECK_S:
                    watch.check()
                    checked = time.monotonic()
                continue
            future = next(stream)
            task = in_flight[future]
            df, seconds = _chunk_result(client, future, task, watch)
            if task.kept:
                df = join_pieces(task, task.start, task.stop, [*partials.frames(task), df])
            del in_flight[future]
            future.release()
            submit_next()
            yield task, df, seconds
    finally:
        if in_flight and client.status == "running":
            with contextlib.suppress(Exception):  # a lost scheduler has forgotten them
                client.cancel(list(in_flight))


def _chunk_result(
    client: Any, future: Any, task: ChunkTask, watch: _WorkerWatch
) -> tuple[pd.DataFrame, float]:
    """The rows of a finished chunk, fetched from its worker.

    Fetched in waits of `WORKER_CHECK_S`, each followed by a check of the cluster: a
    result held by a worker that dies is computed again, and when no worker is left
    the wait would never end; the watch stops it after `dask_wait`.
    """
    while True:
        try:
            return future.result(timeout=WORKER_CHECK_S)
        except TimeoutError:
            if future.done():  # the chunk itself raised TimeoutError
                raise SweepError(_failed(task, future.exception())) from None
            watch.check()
        except LudosimError:
            raise
        except Exception as exc:
            if _scheduler_gone(client, exc):
                raise SweepError(watch.scheduler_lost()) from None
            raise SweepError(_failed(task, exc)) from None


class _WorkerWatch:
    """Notices a Dask cluster without live workers: says so, and stops after `dask_wait` s."""

    def __init__(self, client: Any, dask_wait: float | None) -> None:
        self.client = client
        self.dask_wait = dask_wait
        self.gone_since: float | None = None
        self.told = False

    def scheduler_lost(self) -> str:
        """The one line for a scheduler that went away while the sweep ran."""
        address = getattr(getattr(self.client, "scheduler", None), "address", None)
        where = f" at {address}" if isinstance(address, str) else ""
        return (
            f"lost the Dask scheduler{where}: the connection to it closed, so the chunks "
            "being computed are gone; finished chunks are kept, rerun to resume once the "
            "scheduler is back"
        )

    def check(self) -> None:
        if self.client.status not in ("running", "newly-created"):
            raise SweepError(self.scheduler_lost())
        try:
            alive = sum(self.client.nthreads(callback_timeout=WORKER_CHECK_S * 5).values())
        except (OSError, TimeoutError):
            alive = 0  # the scheduler itself is unreachable: no worker can deliver
        now = time.monotonic()
        if alive:
            if self.told:
                _log.warning("Dask workers are back (%d task slots); the sweep continues", alive)
            self.gone_since, self.told = None, False
            return
        if self.gone_since is None:
            self.gone_since = now
        idle = now - self.gone_since
        if self.dask_wait is not None and idle >= self.dask_wait:
            raise SweepError(
                f"the Dask cluster has had no live workers for {idle:.0f} s (--dask-wait "
                f"{self.dask_wait:g}); finished chunks are kept, rerun to resume"
            )
        if not self.told and idle >= NO_WORKERS_NOTICE_S:
            self.told = True
            until = (
                f"stopping after {self.dask_wait:g} s without workers"
                if self.dask_wait is not None
                else "waiting for workers (--dask-wait SECONDS stops instead)"
            )
            _log.warning("the Dask cluster has no live workers (none for %.0f s); %s", idle, until)
