"""A stopped `skill` or `unfold` study keeps its finished parts (`ludosim.studies.parts`):
rerun, it plays only the parts left and writes the same tables as a run never stopped;
Ctrl-C and SIGTERM say in one line what is kept and exit as a sweep does."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from ludosim.cli.app import main
from ludosim.rules.options import RuleSet
from ludosim.studies.parts import PARTS, Parts, StudyStopped, study_key
from ludosim.studies.unfold import UnfoldStudy
from ludosim.studies.unfold import run_study as run_unfold

UNFOLD = UnfoldStudy(
    (RuleSet("app"), RuleSet("app", ("finish=bounce",))),
    3,
    games=300,
    race_check=(RuleSet("app", ("players=2", "pieces=1")),),
    race_games=200,
)


class _Stages:
    """A progress callback that records the stages announced and begun, and stops the
    study (Ctrl-C) when stage `stop` begins."""

    def __init__(self, stop: int | None = None) -> None:
        self.stop = stop
        self.planned: list[str] = []
        self.begun: list[int] = []

    def plan(self, stages: list[Any]) -> None:
        self.planned = [s.name for s in stages]

    def stage(self, index: int, at: int = 0) -> None:
        if index == self.stop:
            raise KeyboardInterrupt
        self.begun.append(index)

    def __call__(self, done: int, total: int) -> None:
        pass


def _tables(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}


def _resumed_like_whole(
    run: Any, study: Any, tmp_path: Path, stop: int, caplog: pytest.LogCaptureFixture
) -> tuple[_Stages, StudyStopped]:
    """Run `study` whole, and stopped at stage `stop` then rerun; the same tables."""
    whole = tmp_path / "whole"
    run(study, whole)
    out = tmp_path / "resumed"
    with pytest.raises(StudyStopped) as info:
        run(study, out, progress=_Stages(stop))
    # Only the finished parts are there, hidden: the folder is taken again.
    assert not [p for p in out.iterdir() if not p.name.startswith(".")]
    assert len(list((out / PARTS).iterdir())) == stop - 1
    again = _Stages()
    with caplog.at_level(logging.WARNING, logger="ludosim.studies"):
        run(study, out, progress=again)
    total = info.value.total
    said = [r.getMessage() for r in caplog.records if r.name == "ludosim.studies"]
    assert said == [f"resuming: {stop - 1} of {total} parts already played"]
    assert _tables(out) == _tables(whole) and len(_tables(out)) >= 4
    assert not (out / PARTS).exists()
    return again, info.value


def test_a_stopped_unfold_study_resumes_to_the_same_tables(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Stopped as the second rule set begins: the race check and the first rule set kept.
    again, stopped = _resumed_like_whole(run_unfold, UNFOLD, tmp_path, 3, caplog)
    assert (stopped.kept, stopped.total, stopped.terminated) == (2, 3, False)
    assert stopped.text() == (
        f"interrupted: kept 2 of 3 parts played in {tmp_path / 'resumed'}; "
        "rerun the same command to resume"
    )
    # The rerun played only the part left.
    assert again.planned == ["rule set app finish=bounce"] and again.begun == [1]


def test_a_stopped_skill_study_resumes_to_the_same_tables(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("openskill")
    pytest.importorskip("scipy")
    from ludosim.studies.skill import Study
    from ludosim.studies.skill import run_study as run_skill

    sizes = dict(games=40, match_games=40, pair_games=40, bootstrap=3, resamples=10,
                 headline_games=40, skill_games=40)  # fmt: skip
    study = Study(
        (RuleSet("app"), RuleSet("app", ("finish=bounce",))),
        4,
        ("random", "runner", "balanced", "aggressive"),
        **sizes,
    )
    again, stopped = _resumed_like_whole(run_skill, study, tmp_path, 2, caplog)
    assert (stopped.kept, stopped.total) == (1, 2)
    assert again.planned == ["rule set app finish=bounce"] and again.begun == [1]


def test_a_changed_study_never_takes_the_parts_of_another(tmp_path: Path) -> None:
    out = tmp_path / "unfold"
    with pytest.raises(StudyStopped):
        run_unfold(UNFOLD, out, progress=_Stages(3))
    (out / PARTS / ".half-written.tmp").write_bytes(b"x")
    other = UnfoldStudy(UNFOLD.rule_sets, 4, games=300)
    assert study_key("unfold", other) != study_key("unfold", UNFOLD)
    stages = _Stages(2)
    with pytest.raises(StudyStopped) as info:
        run_unfold(other, out, progress=stages)
    # Nothing of the first study taken; its parts and the half-written file are gone.
    assert stages.planned == ["rule set app", "rule set app finish=bounce"]
    assert (info.value.kept, info.value.total) == (1, 2)
    assert len(list((out / PARTS).iterdir())) == 1
    run_unfold(other, out)
    run_unfold(other, tmp_path / "whole")
    assert _tables(out) == _tables(tmp_path / "whole")


def test_a_part_that_cannot_be_read_is_played_again(tmp_path: Path) -> None:
    parts = Parts(tmp_path, study_key("unfold", UNFOLD))
    parts.resume(["1: rule set app", "2: rule set app finish=bounce"])
    parts.save("1: rule set app", {"value": 1})
    parts.save("2: rule set app finish=bounce", {"value": 2})
    parts.path("2: rule set app finish=bounce").write_bytes(b"not a part")
    again = Parts(tmp_path, study_key("unfold", UNFOLD))
    assert again.resume(["1: rule set app", "2: rule set app finish=bounce"]) == {
        "1: rule set app": {"value": 1}
    }
    assert again.kept == 1
    # Without a folder nothing is kept or found.
    none = Parts(None)
    none.save("1: rule set app", 1)
    assert none.resume(["1: rule set app"]) == {} and none.kept == 0


ARGS = ["unfold", "--preset", "app", "--vary", "finish=bounce", "--games", "300",
        "--seed", "3", "-q"]  # fmt: skip


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    return int(info.value.code or 0), out.out, out.err


@pytest.fixture
def sigterm_guard():
    """SIGTERM raises an error of its own while the test runs, so a study that fails to
    take SIGTERM over fails the test instead of ending the test run."""

    def refuse(signum: int, frame: Any) -> None:
        raise AssertionError("SIGTERM reached the handler outside the study")

    previous = signal.signal(signal.SIGTERM, refuse)
    yield refuse
    signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize(
    ("stop", "code", "head"),
    [("sigterm", 143, "terminated (SIGTERM)"), ("ctrl-c", 130, "interrupted")],
)
def test_the_command_stopped_says_what_it_kept_and_a_rerun_resumes(
    stop: str,
    code: int,
    head: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    sigterm_guard: Any,
) -> None:
    import ludosim.studies.unfold.play as play

    out = tmp_path / "unfold"
    played: list[str] = []
    real = play.play_cell

    def play_cell(rule_set: RuleSet, *args: Any, **kwargs: Any) -> Any:
        if played and stop:
            if stop == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            raise KeyboardInterrupt
        played.append(rule_set.label)
        return real(rule_set, *args, **kwargs)

    monkeypatch.setattr(play, "play_cell", play_cell)
    got, stdout, err = _run([*ARGS, "--out", str(out)], capsys)
    assert (got, stdout) == (code, "")
    # One line (after the compile notice of a first run, if any).
    assert err.strip().splitlines()[-1] == (
        f"{head}: kept 1 of 2 parts played in {out}; rerun the same command to resume"
    )
    # SIGTERM is handled as before the command again.
    assert signal.getsignal(signal.SIGTERM) is sigterm_guard
    stop = ""
    got, stdout, err = _run([*ARGS, "--out", str(out)], capsys)
    assert got == 0, err
    assert "resuming: 1 of 2 parts already played" in err.strip().splitlines()
    assert played == ["app", "app finish=bounce"] and "wrote" in stdout
    assert not (out / PARTS).exists()
