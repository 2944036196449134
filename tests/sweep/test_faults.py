"""Faults a results folder meets in practice, injected one by one.

Each case breaks something an operator can break (a second sweep with `--new`
on a busy folder, bytes flipped inside a chunk, a lost manifest, a full disk,
a read-only or forbidden folder, SIGTERM and SIGKILL) and checks what the user
sees (one line, exit code 2, no traceback), that nothing half-written is left,
and that the folder then resumes to exactly the rows of an undisturbed run.
The sweeps use the stand-in kernel of tests/sweep/test_sweep.py, so each case takes
seconds; `LUDOSIM_VERIFY=1` (`make verify`) repeats the races and signals with
the compiled kernel.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas.testing as pdt
import pytest

from ludosim import results
from ludosim.cli.app import main
from ludosim.report.page import ReportError, make_report
from ludosim.results.chunks import check_chunk
from ludosim.results.folders import LOCK, locked
from ludosim.sweep import SweepError, expand, run_sweep, spec_hash, store
from ludosim.sweep import execute as sweep_execute

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_sweep  # the stand-in kernel and the small grid live there

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent  # beside test_sweep.py: on the child processes' path
small_spec = test_sweep.small_spec
# `ludosim sweep` options equal to small_spec() (the child processes use the CLI).
CLI_SPEC = [
    "--preset", "app", "--vary", "six_limit=0,3", "--vary", "finish=exact,bounce",
    "--games", "200", "--seed", "5", "--chunk-size", "64", "-q",
]  # fmt: skip


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The sweep plays with the stand-in kernel; (first_game, games) of each chunk."""
    seen: list[tuple[int, int]] = []

    def counting(rules, games, seed, **kwargs):
        seen.append((kwargs.get("first_game", 0), games))
        return test_sweep._fake_simulate(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    return seen


@pytest.fixture
def clean(tmp_path: Path, kernel: list) -> object:
    """The rows of an undisturbed run of small_spec()."""
    run_sweep(small_spec(), tmp_path / "clean")
    rows = results.load(tmp_path / "clean")
    kernel.clear()
    return rows


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run `ludosim ARGS` in this process; (exit code, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(args)
    return int(info.value.code or 0), capsys.readouterr().err


def _one_line(err: str) -> str:
    """The one error line on stderr; a first run's compile notice (an empty kernel cache,
    as on a fresh machine) may precede it and is not an error."""
    lines = [
        line
        for line in err.splitlines()
        if line.strip() and not line.startswith("compiling the kernel")
    ]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*") if p.name != LOCK]


# ------------------------------------------------------ child sweeps
_CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
import test_sweep
from ludosim.sweep import execute
from ludosim.cli.app import main
kernel = test_sweep._fake_simulate if {fake!r} else test_sweep._real_or_fake()
def slow(*args, **kwargs):
    time.sleep({delay!r})  # slow enough for the parent to act between chunks
    return kernel(*args, **kwargs)
execute._kernel = lambda: slow
main(["sweep", *{args!r}])
"""


def _child(args: list[str], *, delay: float = 0.3, fake: bool = True) -> subprocess.Popen:
    script = _CHILD.format(tests=str(HERE), args=args, delay=delay, fake=fake)
    return subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stderr=subprocess.PIPE, text=True
    )


def _wait_for_chunks(child: subprocess.Popen, out: Path, n: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(list(out.rglob("chunk-*.parquet"))) < n:
        assert child.poll() is None, f"the sweep ended early: {child.stderr.read()}"
        assert time.monotonic() < deadline, f"fewer than {n} chunks within {timeout} s"
        time.sleep(0.02)


# ---------------------------------------------------------- --new race
def _new_while_running(
    tmp_path: Path, clean: object, capsys: pytest.CaptureFixture[str], fake: bool
) -> None:
    out = tmp_path / "busy"
    child = _child([*CLI_SPEC, "--out", str(out)], fake=fake)
    try:
        _wait_for_chunks(child, out, 3)
        code, err = _cli(["sweep", *CLI_SPEC, "--seed", "6", "--out", str(out), "--new"], capsys)
        assert code == 2
        assert "is being written by another running sweep" in _one_line(err)
        assert not list(tmp_path.glob("busy.replaced-*")), "the busy folder was moved"
        assert child.wait(timeout=120) == 0, child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
    # The first sweep finished undisturbed, in its own folder, without duplicates.
    df = results.load(out)
    assert not df.duplicated(["cell", "game"]).any() and len(df) == 800
    if fake:
        pdt.assert_frame_equal(df, clean)
    assert results.load_manifest(out)["runs"][-1]["status"] == "complete"
    # Once it is done, --new moves it aside whole.
    moved = run_sweep(small_spec(seed=6), out, new=True).moved_aside
    assert moved is not None and len(results.load(moved)) == 800
    assert results.load_manifest(out)["spec"]["seed"] == 6


def test_new_on_a_folder_being_written_is_refused(
    tmp_path: Path, clean: object, capsys: pytest.CaptureFixture[str]
) -> None:
    _new_while_running(tmp_path, clean, capsys, fake=True)


@pytest.mark.slow
def test_new_race_with_the_compiled_kernel(
    tmp_path: Path, clean: object, capsys: pytest.CaptureFixture[str]
) -> None:
    for attempt in range(3):
        _new_while_running(tmp_path / str(attempt), clean, capsys, fake=False)


def test_stale_temporaries_are_removed_only_under_the_lock(tmp_path: Path, kernel: list) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    tmp = out / "rows" / "cell=c000" / ".chunk-000000000000.parquet.1.tmp"
    tmp.write_bytes(b"partial")
    (out / ".manifest.json.1.tmp").write_text("{")
    cells = expand(small_spec())
    folder = store.open_folder(out, small_spec(), cells, spec_hash(small_spec(), cells))
    try:
        with pytest.raises(SweepError, match="being written by another running sweep"):
            run_sweep(small_spec(), out)  # refused before it touches anything
        assert tmp.exists()
    finally:
        folder.close()
    run_sweep(small_spec(), out)
    assert _leftovers(out) == []


# ------------------------------------------------------------ damage
def _flip(path: Path, where: float = 0.25, count: int = 64) -> None:
    data = bytearray(path.read_bytes())
    at = int(len(data) * where)
    data[at : at + count] = bytes(b ^ 0xFF for b in data[at : at + count])
    path.write_bytes(bytes(data))


@pytest.mark.usefixtures("whole_chunks")
def test_bytes_flipped_inside_a_chunk_are_found_and_recomputed(
    tmp_path: Path, kernel: list, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = small_spec(games=4000, chunk_size=1000)  # chunks large enough for data pages
    run_sweep(spec, tmp_path / "clean")
    out = tmp_path / "out"
    run_sweep(spec, out)
    damaged = out / "rows" / "cell=c001" / store.chunk_name(2000)
    _flip(damaged)  # in the data pages: the footer (about half of so small a file) is intact
    spec_id = results.load_manifest(out)["spec_hash"]
    assert check_chunk(damaged, spec_id, "c001", 2000, 3000, 1000) is None
    with pytest.raises(results.ResultsError) as info:
        results.load(out)
    message = str(info.value)
    assert str(damaged) in message and "is damaged" in message and "\n" not in message
    kernel.clear()

    args = ["sweep", *CLI_SPEC, "--games", "4000", "--chunk-size", "1000", "--out", str(out)]
    code, err = _cli(args, capsys)
    assert code == 0
    note = _one_line(err)  # said once, as it happens
    assert note.startswith("note: cell c001 chunk") and str(damaged) in note and "damaged" in note
    assert kernel == [(2000, 1000)]
    pdt.assert_frame_equal(results.load(out), results.load(tmp_path / "clean"))
    run = results.load_manifest(out)["runs"][-1]
    assert (run["computed"], run["kept"], len(run["repaired"])) == (1, 15, 1)


@pytest.mark.usefixtures("whole_chunks")
def test_a_damaged_chunk_unknown_to_the_manifest_is_decoded_whole(
    tmp_path: Path, kernel: list
) -> None:
    """A chunk finished just before a kill has no recorded hash: its pages are verified."""
    spec = small_spec(games=4000, chunk_size=1000)
    out = tmp_path / "out"
    run_sweep(spec, out)
    manifest = json.loads((out / store.MANIFEST).read_text())
    del manifest["chunks"]["c002"]["1000"]["sha256"]
    (out / store.MANIFEST).write_text(json.dumps(manifest))
    _flip(out / "rows" / "cell=c002" / store.chunk_name(1000))
    kernel.clear()
    again = run_sweep(spec, out)
    assert kernel == [(1000, 1000)] and len(again.repaired) == 1


# ---------------------------------------------------------- manifest
@pytest.mark.parametrize("damage", ["deleted", "garbage", "empty"])
def test_a_lost_manifest_is_rebuilt_from_the_chunk_stamps(
    tmp_path: Path, clean: object, kernel: list, damage: str
) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    lost = next(out.rglob("chunk-*.parquet"))
    lost.unlink()  # and one chunk never made it
    manifest = out / store.MANIFEST
    if damage == "deleted":
        manifest.unlink()
    else:
        manifest.write_text("{ not json" if damage == "garbage" else "")
    kernel.clear()

    resumed = run_sweep(small_spec(), out)
    assert (resumed.chunks_computed, resumed.chunks_skipped) == (1, 15)
    assert len(kernel) == 1
    assert resumed.rebuilt is not None and "rebuilt from the stamps of 15 chunk" in resumed.rebuilt
    assert "rebuilt" in resumed.describe()
    pdt.assert_frame_equal(results.load(out), clean)
    if damage != "deleted":
        assert len(list(out.glob(f"{store.MANIFEST}.damaged-*"))) == 1


def test_a_damaged_cells_file_is_written_again(tmp_path: Path, kernel: list) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    want = results.load_cells(out)
    _flip(out / store.CELLS, where=0.9)  # in the footer
    with pytest.raises(results.ResultsError, match="cannot read"):
        results.load_cells(out)
    assert run_sweep(small_spec(), out).chunks_computed == 0
    pdt.assert_frame_equal(results.load_cells(out), want)


def test_a_folder_of_another_sweep_without_manifest_is_still_refused(
    tmp_path: Path, kernel: list
) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(seed=6), out)
    (out / store.MANIFEST).unlink()
    with pytest.raises(SweepError, match="not a sweep folder"):
        run_sweep(small_spec(), out)
    assert run_sweep(small_spec(seed=6), out).chunks_computed == 0


# ------------------------------------------------------- file systems
@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A small tmpfs at `where`; skips the test where mounting is not allowed."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small file system needs root and mount(8)")
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.mark.usefixtures("whole_chunks")
def test_a_full_disk_is_one_line_and_the_folder_resumes(
    tmp_path: Path, kernel: list, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "20000", "--chunk-size", "2000"]
    spec = small_spec(games=20000, chunk_size=2000)
    run_sweep(spec, tmp_path / "clean")
    with _tmpfs(tmp_path / "small", "256k") as disk:
        out = disk / "out"
        code, err = _cli(["sweep", *CLI_SPEC, *args, "--out", str(out)], capsys)
        assert code == 2
        line = _one_line(err)
        assert "the disk is full" in line and str(out) in line and "rerun to resume" in line
        assert _leftovers(out) == []  # no temporary file, no half chunk
        kept = sorted(out.rglob("chunk-*.parquet"))
        assert 0 < len(kept) < 40
        manifest = results.load_manifest(out)
        # "failed", or still "running" when not even the manifest fitted any more.
        assert manifest["runs"][-1]["status"] in ("failed", "running")

        subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        kernel.clear()
        resumed = run_sweep(spec, out)
        assert resumed.chunks_skipped >= len(kept) and resumed.complete
        assert len(kernel) == 40 - resumed.chunks_skipped
        pdt.assert_frame_equal(results.load(out), results.load(tmp_path / "clean"))
        statuses = [r["status"] for r in results.load_manifest(out)["runs"]]
        assert statuses[0] in ("failed", "killed") and statuses[1] == "complete"


def test_a_full_disk_under_report_leaves_no_partial_files(tmp_path: Path, kernel: list) -> None:
    from ludosim.results.parquet import write_parquet
    from ludosim.rules.model import Rules
    from ludosim.run.simulate import simulate

    rows = write_parquet(simulate(Rules.preset("app"), 300, 1), tmp_path / "one.parquet")
    with _tmpfs(tmp_path / "small", "64k") as disk:
        out = disk / "report"
        with pytest.raises(ReportError) as info:
            make_report(rows, out)
        message = str(info.value)
        assert "the disk is full" in message and "\n" not in message
        assert not out.exists()  # the folder this call created is gone again
    page = make_report(rows, tmp_path / "report")
    assert page.name == "index.html" and page.exists()
    assert not list((tmp_path / "report").glob(".report-*"))


@contextlib.contextmanager
def _chmod_read_only(folder: Path) -> Iterator[None]:
    """`folder` without write permission, for a user who is not root (root ignores it)."""
    folder.chmod(0o555)
    try:
        yield
    finally:
        folder.chmod(0o755)


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """`folder` read-only: a read-only bind mount as root, else chmod."""
    if os.geteuid() != 0:
        with _chmod_read_only(folder):
            yield
        return
    done = subprocess.run(
        ["mount", "--bind", "-o", "ro", str(folder), str(folder)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount read-only here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@contextlib.contextmanager
def _forbidden(folder: Path) -> Iterator[None]:
    """Creating files in `folder` is denied: chattr +i as root (chmod binds nobody), else chmod."""
    if os.geteuid() != 0:
        with _chmod_read_only(folder):
            yield
        return
    if shutil.which("chattr") is None:
        pytest.skip("chattr(1) is not available")
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("this file system does not support chattr +i")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=False)


@pytest.mark.parametrize("fault", ["read-only", "forbidden"])
def test_an_unwritable_folder_is_one_line_before_any_game(
    tmp_path: Path,
    clean: object,
    kernel: list,
    capsys: pytest.CaptureFixture[str],
    fault: str,
) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    next(out.rglob("chunk-*.parquet")).unlink()
    kernel.clear()
    guard = _read_only(out) if fault == "read-only" else _forbidden(out)
    with guard:
        code, err = _cli(["sweep", *CLI_SPEC, "--out", str(out)], capsys)
    assert code == 2
    line = _one_line(err)
    assert str(out) in line and "not writable" in line
    assert kernel == []
    assert run_sweep(small_spec(), out).chunks_computed == 1
    pdt.assert_frame_equal(results.load(out), clean)


def test_a_folder_in_place_of_a_chunk_file_is_one_line(
    tmp_path: Path, kernel: list, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    chunk = out / "rows" / "cell=c001" / store.chunk_name(64)
    chunk.unlink()
    (chunk / "something").mkdir(parents=True)
    code, err = _cli(["sweep", *CLI_SPEC, "--out", str(out)], capsys)
    assert code == 2 and "Traceback" not in err
    note, line = err.splitlines()  # the note that it is unreadable, then why it stays so
    assert note.startswith(f"note: cell c001 chunk {chunk} unreadable")
    assert line.startswith(f"error: cannot write {chunk}: it is a directory")
    assert _leftovers(out) == []
    assert results.load_manifest(out)["runs"][-1]["status"] == "failed"


def test_dask_wait_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _cli(["sweep", *CLI_SPEC, "--dask", "local", "--dask-wait", "0"], capsys)
    assert code == 2
    assert _one_line(err) == (
        "error: dask_wait (--dask-wait) must be a positive number of seconds, got 0"
    )


def test_report_into_a_file_or_a_busy_folder_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ReportError, match="cannot create the report folder"):
        make_report(tmp_path, blocker)
    busy = tmp_path / "busy"
    busy.mkdir()
    with locked(busy, "report"), pytest.raises(results.ResultsError, match="another report"):
        make_report(tmp_path, busy)


# ------------------------------------------------------------ signals
def _signal_then_resume(
    tmp_path: Path, clean: object, kernel: list, sig: int, fake: bool = True
) -> None:
    out = tmp_path / "out"
    child = _child([*CLI_SPEC, "--out", str(out)], fake=fake)
    try:
        _wait_for_chunks(child, out, 4)
        os.kill(child.pid, sig)
        code = child.wait(timeout=60)
        err = child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    survivors = {p: p.stat().st_mtime_ns for p in out.rglob("chunk-*.parquet")}
    assert 4 <= len(survivors) < 16
    runs = results.load_manifest(out)["runs"]
    if sig == signal.SIGTERM:
        assert code == 143, err
        assert "terminated (SIGTERM): kept " in _one_line(err)
        assert " games played (" in _one_line(err)
        assert runs[-1]["status"] == "terminated"
        assert runs[-1]["computed"] == len(survivors)  # recorded on the way out
    else:
        assert code == -signal.SIGKILL
        assert runs[-1]["status"] == "running"  # it had no chance to say otherwise
    kernel.clear()

    resumed = run_sweep(small_spec(), out)
    assert resumed.chunks_skipped == len(survivors)
    assert resumed.chunks_computed == 16 - len(survivors) == len(kernel)
    assert {p: p.stat().st_mtime_ns for p in survivors} == survivors
    pdt.assert_frame_equal(results.load(out), clean)
    runs = results.load_manifest(out)["runs"]
    assert [r["status"] for r in runs] == [
        "terminated" if sig == signal.SIGTERM else "killed",
        "complete",
    ]
    # Honest counts: every chunk on disk was computed by exactly one of the runs,
    # and the second run kept what the first left.
    assert sum(r["computed"] for r in runs) == 16
    assert runs[1]["kept"] == len(survivors)
    chunks = results.load_manifest(out)["chunks"]
    assert all(s["computed"] == 1 and s["sha256"] for c in chunks.values() for s in c.values())


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_signal_stops_the_sweep_and_resume_gives_identical_rows(
    tmp_path: Path, clean: object, kernel: list, sig: int
) -> None:
    _signal_then_resume(tmp_path, clean, kernel, sig)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_signals_with_the_compiled_kernel(
    tmp_path: Path, kernel: list, monkeypatch: pytest.MonkeyPatch, sig: int
) -> None:
    compiled = test_sweep._real_or_fake()

    def counting(rules, games, seed, **kwargs):
        kernel.append((kwargs.get("first_game", 0), games))
        return compiled(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    run_sweep(small_spec(), tmp_path / "clean")
    expected = results.load(tmp_path / "clean")
    kernel.clear()
    _signal_then_resume(tmp_path, expected, kernel, sig, fake=False)


# --------------------------------------------------------------- Dask
@pytest.fixture
def empty_cluster() -> Iterator[tuple[object, object]]:
    """An in-process Dask scheduler without workers, and a client of it."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=0, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield cluster, client


def test_dask_without_workers_stops_after_dask_wait(
    tmp_path: Path, kernel: list, empty_cluster: tuple
) -> None:
    _, client = empty_cluster
    started = time.monotonic()
    with pytest.raises(SweepError, match=r"no live workers for \d+ s \(--dask-wait 1\.5\)"):
        run_sweep(small_spec(), tmp_path / "out", dask=client, dask_wait=1.5)
    assert time.monotonic() - started < 20
    run = results.load_manifest(tmp_path / "out")["runs"][-1]
    assert run["status"] == "failed" and "no live workers" in run["error"]


def test_dask_without_workers_says_so_and_waits_for_them(
    tmp_path: Path,
    clean: object,
    kernel: list,
    empty_cluster: tuple,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    cluster, client = empty_cluster
    monkeypatch.setattr(sweep_execute, "NO_WORKERS_NOTICE_S", 0.5)
    outcome: list[object] = []

    def sweep() -> None:
        try:
            outcome.append(run_sweep(small_spec(), tmp_path / "out", dask=client, threads=1))
        except Exception as exc:  # reported to the test thread below
            outcome.append(exc)

    caplog.set_level(logging.WARNING, logger="ludosim.sweep")
    worker = threading.Thread(target=sweep)
    worker.start()
    deadline = time.monotonic() + 30
    while "no live workers" not in caplog.text:
        assert time.monotonic() < deadline, "no notice within 30 s"
        time.sleep(0.1)
    assert worker.is_alive() and not outcome  # still waiting
    cluster.scale(1)
    worker.join(timeout=60)
    assert not worker.is_alive()
    result = outcome[0]
    assert not isinstance(result, Exception), result
    assert result.chunks_computed == 16
    pdt.assert_frame_equal(results.load(tmp_path / "out"), clean)


# ------------------------------------------------- bad input: one line, nothing behind
def _listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("weight", ["inf", "1e300", "nan"])
def test_a_weight_no_integer_holds_is_one_line_naming_the_policy(
    weight: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"weights:progress={weight}"
    code, err = _cli(["play", "-p", "app", "--seed", "1", "--policy", spec], capsys)
    assert code == 2
    line = _one_line(err)
    assert f"policy {spec!r}" in line and "weight progress=" in line
    assert "a finite number in -1000000..1000000" in line


def test_a_policy_file_with_an_infinite_weight_is_refused(tmp_path: Path) -> None:
    from ludosim.rules.policies import PolicyError, parse_policy

    path = tmp_path / "tuned.toml"
    path.write_text("[weights]\nprogress = 1.0\ncapture = inf\n")
    with pytest.raises(PolicyError, match=r"tuned\.toml'.*weight capture=inf is not allowed"):
        parse_policy(f"tuned:{path}")


@pytest.mark.parametrize("command", ["unfold", "skill"])
def test_a_study_into_a_file_is_refused_before_any_game(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import ludosim.studies.skill.page
    import ludosim.studies.unfold.page

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before --out was checked")

    # Where each study's run_study looks play_study up.
    monkeypatch.setattr(ludosim.studies.unfold.page, "play_study", boom)
    monkeypatch.setattr(ludosim.studies.skill.page, "play_study", boom)
    blocker = tmp_path / "FILE"
    blocker.write_text("kept")
    args = [command, "--preset", "app", "--games", "10", "--seed", "1", "--out", str(blocker)]
    code, err = _cli([*args, "-q"], capsys)
    assert code == 2
    assert (
        _one_line(err) == f"error: --out {blocker} is a file; name a folder for the study's files"
    )
    assert blocker.read_text() == "kept" and _listing(tmp_path) == ["FILE"]


@pytest.mark.parametrize("given", ["option", "study file"])
def test_a_snapshot_interval_no_game_reaches_is_refused_up_front(
    given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "U"
    if given == "option":
        args = ["--preset", "app", "--every", "100000000", "--games", "10", "--seed", "1"]
    else:
        study = tmp_path / "study.toml"
        study.write_text('seed = 1\ngames = 10\nevery = 100000000\n[[rule_set]]\npreset = "app"\n')
        args = [str(study)]
    code, err = _cli(["unfold", *args, "--out", str(out), "-q"], capsys)
    assert code == 2
    where = "" if given == "option" else f"study file {study}: "
    assert _one_line(err) == (
        f"error: {where}every: a snapshot every 100000000 turns is never taken under 'app', whose "
        "games stop at max_turns=20000; allowed: 1..20000, or 0 for two rounds of the seats"
    )
    assert not out.exists()


def test_snapshots_that_find_no_leader_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Within max_turns but past the end of every game played: found after the games,
    before any file is written (the page could not be drawn from empty tables)."""
    out = tmp_path / "U"
    args = ["--preset", "app", "--every", "15000", "--games", "10", "--seed", "1"]
    code, err = _cli(["unfold", *args, "--out", str(out), "-q"], capsys)
    assert code == 2
    line = _one_line(err)
    assert line.startswith("error: every: no snapshot of 'app' found a leader")
    assert "choose a smaller --every" in line and "nothing was written" in line
    assert not out.exists()


def _unreadable_results(tmp_path: Path, kind: str) -> Path:
    """Results `ludosim report` cannot read, as a user may hand it."""
    tmp_path.mkdir()
    if kind == "text":
        path = tmp_path / "notes.txt"
        path.write_text("not results\n")
        return path
    if kind == "truncated":
        from ludosim.rules.model import Rules

        path = results.write_parquet(
            test_sweep._fake_simulate(Rules.preset("app"), 500, 1), tmp_path / "run.parquet"
        )
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        return path
    spec = small_spec(games=4000, chunk_size=1000)
    run_sweep(spec, tmp_path / "sweep")
    if kind == "manifest":
        return tmp_path / "sweep" / store.MANIFEST
    _flip(tmp_path / "sweep" / "rows" / "cell=c001" / store.chunk_name(2000))
    return tmp_path / "sweep"


@pytest.mark.parametrize("kind", ["text", "truncated", "manifest", "damaged chunk"])
def test_a_report_of_unreadable_results_leaves_nothing_behind(
    kind: str, tmp_path: Path, kernel: list, capsys: pytest.CaptureFixture[str]
) -> None:
    given = _unreadable_results(tmp_path / "in", kind)
    fresh = tmp_path / "reports" / "new"
    code, err = _cli(["report", str(given), "--out", str(fresh)], capsys)
    assert code == 2
    assert str(given) in _one_line(err)
    assert not (tmp_path / "reports").exists()  # neither the folder nor its parent
    # A folder that was there keeps exactly what it held, and gets no lock file.
    kept = tmp_path / "kept"
    (kept / "old").mkdir(parents=True)
    (kept / "old" / "index.html").write_text("an earlier report")
    code, err = _cli(["report", str(given), "--out", str(kept)], capsys)
    assert code == 2 and str(given) in _one_line(err)
    assert _listing(kept) == ["old", "old/index.html"]
    assert (kept / "old" / "index.html").read_text() == "an earlier report"


def test_an_unreachable_dask_scheduler_makes_no_folder(
    tmp_path: Path,
    kernel: list,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(sweep_execute, "CONNECT_TIMEOUT_S", 1)
    dask = ["--dask", "tcp://127.0.0.1:1", "--dask-wait", "5"]
    out = tmp_path / "S"
    code, err = _cli(["sweep", *CLI_SPEC, *dask, "--out", str(out)], capsys)
    assert code == 2
    assert _one_line(err).startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert not out.exists()
    # A sweep folder that was there is left as it was: no run recorded, no chunk touched.
    run_sweep(small_spec(), out)
    before = (out / store.MANIFEST).read_text()
    kernel.clear()
    code, err = _cli(["sweep", *CLI_SPEC, *dask, "--out", str(out)], capsys)
    assert code == 2 and "cannot reach the Dask scheduler" in _one_line(err)
    assert (out / store.MANIFEST).read_text() == before
    assert kernel == []


def _api_calls(tmp_path: Path) -> dict[str, tuple[object, str]]:
    """Library calls with a bad argument: (call, what the error must say)."""
    import pandas as pd

    import ludosim
    from ludosim.rules.model import Rules
    from ludosim.sweep import SweepSpec, plan

    app = Rules.preset("app")
    out = tmp_path / "out"
    return {
        "dask_wait=0": (lambda: run_sweep(small_spec(), out, dask_wait=0), "dask_wait"),
        "dask_wait=-1": (lambda: run_sweep(small_spec(), out, dask_wait=-1), "dask_wait"),
        "no seed": (lambda: run_sweep(SweepSpec(preset="app"), out), "seed is required"),
        "vary=None": (lambda: SweepSpec(preset="app", seed=1, vary=None).validate(), "vary=None"),
        "a dict for the spec": (lambda: run_sweep({"preset": "app"}, out), "spec must be a"),
        "out=None": (lambda: run_sweep(small_spec(), None), "out must name"),
        "rules='nope'": (lambda: _env().LudoEnv(rules="nope"), "rules must be a ludosim.Rules"),
        "step before reset": (lambda: _aec().LudoAEC().step(0), "call reset() first"),
        "a DataFrame to report": (
            lambda: make_report(pd.DataFrame({"game": [0]}), out),
            "results_path must be a path",
        ),
        "a number for the report's title": (
            lambda: make_report(tmp_path, out, title=5),
            "title must be a str or None, got 5",
        ),
        "from_dict(None)": (lambda: Rules.from_dict(None), "data must be a dict"),
        "policies=5": (lambda: ludosim.simulate(app, 10, 1, policies=5), "policies must be"),
        "games='10'": (lambda: plan(SweepSpec(preset="app", games="10")), "games='10'"),
        "a scalar to vary": (
            lambda: plan(SweepSpec(preset="app", seed=1, vary={"six_limit": 3})),
            "vary.six_limit must be a list of values, got 3",
        ),
        "from_toml(None)": (lambda: Rules.from_toml(None), "text must be the TOML text"),
        "from_toml(bytes)": (lambda: Rules.from_toml(b"\x00"), "got bytes"),
        "play(policies=7)": (lambda: ludosim.play(app, 1, policies=7), "policies must be"),
        "play('nope')": (lambda: ludosim.play("nope", 1), "rules must be a ludosim.Rules"),
        "play(None)": (lambda: ludosim.play(None, 1), "rules must be a ludosim.Rules"),
        "summary='no'": (lambda: ludosim.simulate(app, 10, 1, summary="no"), "summary must be"),
        "SweepSpec.from_dict(None)": (lambda: SweepSpec.from_dict(None), "data must be a dict"),
        "SweepSpec.from_toml(None)": (lambda: SweepSpec.from_toml(None), "path must name"),
        "compare(None)": (lambda: _study("compare").compare(None, 1), "rule_sets must be"),
        "compare('app')": (lambda: _study("compare").compare("app", 1), "got 'app'"),
        "tournament(policies=5)": (
            lambda: _study("tournament").tournament(app, 5, 100, 1),
            "policies must be a list of policy names",
        ),
        "design: bogus size": (
            lambda: _study("design").study_from_options("app", 1, bogus_games=5),
            "unknown size 'bogus_games'",
        ),
        "design: free as a text": (
            lambda: _study("design").study_from_options("app", 1, free="finish"),
            "free must be a list of texts",
        ),
        "load_study(None)": (lambda: _study("design").load_study(None), "path must be"),
        "run_study(None)": (lambda: _study("design").run_study(None, out), "must be a DesignStudy"),
        "run_study(out=5)": (
            lambda: _study("design").run_study(_study("design").study_from_options("app", 1), 5),
            "out must be a folder",
        ),
        "LudoEnv(seat='0')": (lambda: _env().LudoEnv(seat="0"), "seat must be an integer"),
        "LudoEnv(seat=1.5)": (lambda: _env().LudoEnv(seat=1.5), "seat must be an integer"),
        "LudoEnv(max_options='4')": (lambda: _env().LudoEnv(max_options="4"), "max_options"),
        "LudoEnv(illegal_reward='x')": (
            lambda: _env().LudoEnv(illegal_reward="x"),
            "illegal_reward must be a finite number",
        ),
        "LudoEnv(opponents=5)": (lambda: _env().LudoEnv(opponents=5), "opponents must be"),
        "env.step('a')": (lambda: _reset(_env().LudoEnv()).step("a"), "action must be"),
        "env.step(None)": (lambda: _reset(_env().LudoEnv()).step(None), "action must be"),
        "env.reset(seed=-1)": (lambda: _env().LudoEnv().reset(seed=-1), "seed must be"),
        "AEC.observe('nope')": (
            lambda: _reset(_aec().LudoAEC()).observe("nope"),
            "agent must be one of",
        ),
        "AEC.step('a')": (lambda: _reset(_aec().LudoAEC()).step("a"), "action must be"),
    }


def _study(name: str) -> Any:
    import importlib

    return importlib.import_module(f"ludosim.studies.{name}")


def _reset(env: Any) -> Any:
    env.reset(seed=1)
    return env


def _env() -> object:
    return pytest.importorskip("ludosim.adapters.gymnasium_env", exc_type=ImportError)


def _aec() -> object:
    return pytest.importorskip("ludosim.adapters.pettingzoo_env", exc_type=ImportError)


API_CALLS = list(_api_calls(Path(".")))


@pytest.mark.parametrize("case", API_CALLS)
def test_a_bad_argument_is_a_ludosim_error_naming_it(
    case: str, tmp_path: Path, kernel: list
) -> None:
    from ludosim.rules.errors import LudosimError

    call, says = _api_calls(tmp_path)[case]
    with pytest.raises(LudosimError) as info:
        call()
    assert says in str(info.value) and "\n" not in str(info.value)
    assert not (tmp_path / "out").exists() and kernel == []


@pytest.mark.parametrize("edit", ["rows swapped", "a toggle swapped"])
def test_a_hand_edited_cells_file_is_refused_on_load_and_on_resume(
    edit: str, tmp_path: Path, kernel: list, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd

    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    labels = results.load(out, cells=True).groupby("cell", observed=True)["name"].first()
    cells = pd.read_parquet(out / store.CELLS)
    if edit == "rows swapped":
        # Rows 0 and 1 trade everything but their cell id: each would wear the other's labels.
        other = [c for c in cells.columns if c != "cell"]
        cells.loc[[0, 1], other] = cells.loc[[1, 0], other].to_numpy()
    else:
        # c000 (six_limit=0 finish=exact) and c002 (six_limit=3 finish=exact) trade six_limit.
        cells.loc[[0, 2], "six_limit"] = cells.loc[[2, 0], "six_limit"].to_numpy()
    cells.to_parquet(out / store.CELLS)
    edited = (out / store.CELLS).read_bytes()
    chunks = {p: p.stat().st_mtime_ns for p in out.rglob("chunk-*.parquet")}
    manifest = (out / store.MANIFEST).read_text()
    kernel.clear()

    with pytest.raises(results.ResultsError) as info:
        results.load(out, cells=True)
    message = str(info.value)
    assert message.startswith(f"{out / store.CELLS} disagrees with manifest.json: row 0")
    assert "delete it and rerun the sweep's command" in message and "\n" not in message
    code, err = _cli(["sweep", *CLI_SPEC, "--out", str(out)], capsys)
    line = _one_line(err)
    assert code == 2 and line.startswith(f"error: {message.split(' (rules')[0]}")
    assert line.endswith("delete it and rerun the sweep's command to write it again")
    with pytest.raises(results.ResultsError, match=r"disagrees with manifest\.json"):
        make_report(out, tmp_path / "report")
    # Refused, not rewritten: the edit is still there to look at, and nothing else moved.
    assert (out / store.CELLS).read_bytes() == edited
    assert {p: p.stat().st_mtime_ns for p in chunks} == chunks
    assert (out / store.MANIFEST).read_text() == manifest and kernel == []
    assert not (tmp_path / "report").exists()

    (out / store.CELLS).unlink()  # as the message says: written again from the spec
    assert run_sweep(small_spec(), out).chunks_computed == 0
    again = results.load(out, cells=True).groupby("cell", observed=True)["name"].first()
    pdt.assert_series_equal(again, labels)


def test_cells_whose_games_alone_differ_are_written_again_on_resume(
    tmp_path: Path, kernel: list
) -> None:
    """A precision run records its planned games in cells.parquet, then in the manifest:
    stopped in between, the two differ in games only, and the resume writes the cells
    file again from the manifest's truth instead of refusing the folder."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    want = results.load_cells(out)
    table = pq.read_table(out / store.CELLS)  # its metadata (the sweep's stamp) is kept
    games = pa.array([999] * table.num_rows, type=table.schema.field("games").type)
    table = table.set_column(table.schema.get_field_index("games"), "games", games)
    pq.write_table(table, out / store.CELLS)
    with pytest.raises(results.ResultsError, match="999 games"):
        results.load_cells(out)
    assert run_sweep(small_spec(), out).chunks_computed == 0
    pdt.assert_frame_equal(results.load_cells(out), want)


@pytest.fixture
def one_worker() -> Iterator[tuple[object, object]]:
    """An in-process Dask cluster of one single-threaded worker, and a client of it; both
    give up on a lost scheduler after 2 s (their default is 30 s)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    )
    try:
        with distributed.Client(cluster, timeout="2s") as client:
            yield cluster, client
    finally:
        with contextlib.suppress(TimeoutError):
            cluster.close(timeout=2)


def test_dask_whose_only_worker_dies_holding_results_stops_after_dask_wait(
    tmp_path: Path,
    clean: object,
    kernel: list,
    one_worker: tuple,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker goes while chunks it finished wait for this process to fetch them: their
    results are lost with it, and no worker is left to compute them again. The sweep stops
    after --dask-wait instead of waiting for them for ever, keeping the chunks it wrote."""
    cluster, client = one_worker
    written = sweep_execute.write_frame_atomic

    def slow_first_write(df, path, stamp):
        # Held up by the disk: meanwhile the worker finishes the next chunks, then goes.
        if not any(path.parent.parent.rglob("chunk-*.parquet")):
            time.sleep(0.5)
            (worker,) = cluster.workers.values()
            cluster.sync(worker.close)
        return written(df, path, stamp)

    monkeypatch.setattr(sweep_execute, "write_frame_atomic", slow_first_write)
    started = time.monotonic()
    with pytest.raises(SweepError, match=r"no live workers for \d+ s \(--dask-wait 1\.5\)"):
        run_sweep(small_spec(), tmp_path / "out", dask=client, dask_wait=1.5)
    assert time.monotonic() - started < 20
    kept = sorted((tmp_path / "out").rglob("chunk-*.parquet"))
    assert kept  # the chunks written before the worker went
    monkeypatch.setattr(sweep_execute, "write_frame_atomic", written)
    kernel.clear()
    again = run_sweep(small_spec(), tmp_path / "out")
    assert again.chunks_computed == 16 - len(kept)
    pdt.assert_frame_equal(results.load(tmp_path / "out"), clean)


def test_a_lost_dask_scheduler_is_one_line_and_the_folder_resumes(
    tmp_path: Path, clean: object, kernel: list, one_worker: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scheduler goes mid-sweep: the sweep says so (not a worker's failure), in one line,
    and keeps the chunks it wrote."""
    cluster, client = one_worker
    written = sweep_execute.write_frame_atomic

    def write_then_lose_the_scheduler(df, path, stamp):
        digest = written(df, path, stamp)
        if len(list(path.parent.parent.rglob("chunk-*.parquet"))) == 2:
            cluster.sync(cluster.scheduler.close)
        return digest

    monkeypatch.setattr(sweep_execute, "write_frame_atomic", write_then_lose_the_scheduler)
    started = time.monotonic()
    with pytest.raises(SweepError) as info:
        run_sweep(small_spec(), tmp_path / "out", dask=client, dask_wait=5)
    assert time.monotonic() - started < 20
    message = str(info.value)
    assert message.startswith("lost the Dask scheduler") and "\n" not in message
    assert "worker" not in message and "finished chunks are kept" in message
    monkeypatch.setattr(sweep_execute, "write_frame_atomic", written)
    kept = len(list((tmp_path / "out").rglob("chunk-*.parquet")))
    assert kept >= 2
    kernel.clear()
    assert run_sweep(small_spec(), tmp_path / "out").chunks_computed == 16 - kept
    pdt.assert_frame_equal(results.load(tmp_path / "out"), clean)


def test_a_lost_dask_scheduler_is_one_line_on_the_command_line(
    tmp_path: Path, kernel: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ludosim sweep --dask tcp://...` whose scheduler goes: one line on stderr, none of
    `distributed`'s tracebacks, exit code 2. The scheduler and its worker run in this
    process; the worker plays slowly, so the sweep is under way when the scheduler goes."""
    distributed = pytest.importorskip("distributed")
    counting = sweep_execute._kernel()

    def slow(*args, **kwargs):
        time.sleep(0.3)
        return counting(*args, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: slow)
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
        host="127.0.0.1", dashboard_address=None,
    )  # fmt: skip
    try:
        out = tmp_path / "S"
        args = [*CLI_SPEC, "--dask", cluster.scheduler_address, "--dask-wait", "5"]
        script = (
            f"from ludosim.cli.app import main; main(['sweep', *{args!r}, '--out', {str(out)!r}])"
        )
        child = subprocess.Popen(
            [sys.executable, "-c", script], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        _wait_for_chunks(child, out, 2, timeout=60)
        cluster.sync(cluster.scheduler.close)
        _, err = child.communicate(timeout=60)
    finally:
        with contextlib.suppress(TimeoutError):
            cluster.close(timeout=2)
    assert child.returncode == 2, err
    assert _one_line(err).startswith(
        f"error: lost the Dask scheduler at {cluster.scheduler_address}"
    )
    assert len(list(out.rglob("chunk-*.parquet"))) >= 2  # kept for the resume


@pytest.mark.parametrize(
    ("item", "hint"), [("players=2", "plays one seat"), ("pieces=2", "--pieces")]
)
def test_exact_names_the_toggles_it_sets_itself(
    item: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exact solver fixes players=1 and takes pieces from --pieces: a --set of either
    is refused as such, not as a toggle "given twice"."""
    code, err = _cli(["exact", "-p", "danish", "--set", item], capsys)
    line = _one_line(err)
    assert code == 2 and line.startswith(f"error: --set {item}: exact solves a solo race")
    assert hint in line and "twice" not in line


def test_bench_refuses_a_negative_reference_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Refused before anything is timed, in the command and in the library: a negative
    count would otherwise drop the reference rows without a word."""
    from ludosim.rules.errors import LudosimError
    from ludosim.run.bench import run_bench

    code, err = _cli(["bench", "--reference-games", "-1", "--games", "100"], capsys)
    assert code == 2
    assert (
        _one_line(err) == "error: --reference-games must be 0 (no reference rows) or more, got -1"
    )
    with pytest.raises(LudosimError, match=r"^reference_games must be an integer >= 0, got -1$"):
        run_bench(["app"], games=10, reference_games=-1)
