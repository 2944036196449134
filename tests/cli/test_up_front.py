"""What a command refuses, it refuses before its first game and before it writes anything.

Two kinds of mistake that used to be found only after games were played: a line-up with
the expert or the fictive player under the rules toggle `teams` (their rollouts know no
partners), and an `--out` folder that holds the user's own files. Each is one line on
stderr, exit code 2, no game played (the kernel's entry fails the test) and the disk as
it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ludosim.cli.app import app
from ludosim.results import check_output_folder
from ludosim.results.failures import ResultsError
from ludosim.rules.policies import PolicyError, refuse_search_under_teams
from ludosim.studies.study import PAGE_FILE, earlier_output

runner = CliRunner()
TEAMS = "teams=0,1,0,1"
EXPERT = "expert:2,random,random,random"


class KernelReached(AssertionError):
    """A game reached the kernel."""


@pytest.fixture
def no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game of every command has its rules compiled for the kernel once its inputs
    are checked (`ludosim.run.simulate._prepare`): reaching that fails the test."""
    import ludosim.engine

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise KernelReached("a game was played before the input was checked")

    monkeypatch.setattr(ludosim.engine, "compile_layout", boom)


def refused(args: list[str], *words: str) -> str:
    """Run `ludosim ARGS`; assert exit code 2 and one line on stderr holding every word."""
    result = runner.invoke(app, [*args, "-q"])
    assert not isinstance(result.exception, KernelReached), "a game was played"
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# ------------------------------------------------- the expert and the fictive player
def test_the_searching_players_are_refused_under_teams_only() -> None:
    refuse_search_under_teams(["expert", "fictive"], ())
    refuse_search_under_teams(["random", "balanced", "weights:progress=1"], (0, 1, 0, 1))
    for player in ("expert", "expert:2:3", "fictive"):
        with pytest.raises(PolicyError, match=rf"policy '{player}[^']*' does not play under"):
            refuse_search_under_teams(["random", player], (0, 1, 0, 1))


TEAM_COMMANDS = {
    "simulate": ["simulate", "-p", "king", "--set", TEAMS, "--policy", EXPERT, "--seed", "1"],
    "compare": ["compare", "king", f"king+{TEAMS}", "--policy", EXPERT, "--seed", "1"],
    "tournament": [
        "tournament", "-p", "king", "--set", TEAMS, "--policy", EXPERT, "--seed", "1",
    ],
    "ratings": [
        "ratings", "-p", "king", "--set", TEAMS, "--policy", "random,runner,balanced,expert:2",
        "--games", "100", "--seed", "1",
    ],
    "sweep": [
        "sweep", "-p", "king", "--vary", f"policies=random,[{EXPERT}]", "--set", TEAMS,
        "--games", "100", "--seed", "1", "--out", "{out}",
    ],
    "unfold": [
        "unfold", "-p", "king", "--rule-set", f"king+{TEAMS}", "--policy", EXPERT,
        "--games", "100", "--seed", "1", "--out", "{out}",
    ],
    "skill ladder": [
        "skill", "-p", "king", "--set", TEAMS, "--policy", "random,runner,balanced,expert:2",
        "--optimal", "balanced", "--fictive", "runner", "--seed", "1", "--out", "{out}",
    ],
    "skill optimal": ["skill", "-p", "king", "--set", TEAMS, "--seed", "1", "--out", "{out}"],
    "design": [
        "design", "-p", "king", "--set", TEAMS, "--free", "finish", "--free", "pass_own",
        "--seed", "1", "--out", "{out}",
    ],
}  # fmt: skip


@pytest.mark.parametrize("command", TEAM_COMMANDS)
def test_an_expert_under_teams_is_refused_before_any_game(
    no_kernel: None, tmp_path: Path, command: str
) -> None:
    out = tmp_path / "runs" / "out"
    args = [a.format(out=out) for a in TEAM_COMMANDS[command]]
    line = refused(args, "does not play under teams=0,1,0,1", "use another policy")
    player = "expert" if command != "skill optimal" else "optimal player"
    assert player in line
    if command == "skill optimal":
        assert "--optimal" in line, "names the option of a player the user did not choose"
    assert not (tmp_path / "runs").exists(), "nothing is written"


def test_a_refused_sweep_leaves_no_folder_to_refuse_the_corrected_command(
    no_kernel: None, tmp_path: Path
) -> None:
    out = tmp_path / "grid"
    args = [a.format(out=out) for a in TEAM_COMMANDS["sweep"]]
    refused(args, "expert:2")
    corrected = [a.replace(f"[{EXPERT}]", "[runner,random,random,random]") for a in args]
    result = runner.invoke(app, [*corrected, "-q"])
    # The corrected command goes past every check: to the games.
    assert isinstance(result.exception, KernelReached), (result.exit_code, result.stderr)


# ------------------------------------------------------- --out onto the user's files
STUDIES = {
    "skill": ["skill", "-p", "app", "--games", "200", "--seed", "1", "--out", "{out}"],
    "unfold": ["unfold", "-p", "app", "--games", "100", "--seed", "1", "--out", "{out}"],
    "design": [
        "design", "-p", "app", "--free", "finish", "--free", "pass_opponents", "--seed", "1",
        "--out", "{out}",
    ],
}  # fmt: skip
# A file of the user's that each study writes a file of the same name as.
SAME_NAME = {"skill": "skill.csv", "unfold": "index.html", "design": "notes.txt"}


@pytest.mark.parametrize("user_file", ["notes.txt", "same name"])
@pytest.mark.parametrize("command", STUDIES)
def test_a_study_refuses_a_folder_of_the_users_files(
    no_kernel: None, tmp_path: Path, command: str, user_file: str
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    name = SAME_NAME[command] if user_file == "same name" else user_file
    (out / name).write_text("the user's own")
    args = [a.format(out=out) for a in STUDIES[command]]
    refused(args, f"--out {out} holds other files ({name})", "not an earlier", "new or empty")
    assert listing(tmp_path) == ["mine", f"mine/{name}"]
    assert (out / name).read_text() == "the user's own"


@pytest.mark.parametrize("command", STUDIES)
def test_a_study_takes_an_empty_folder_and_one_of_hidden_files(
    no_kernel: None, tmp_path: Path, command: str
) -> None:
    out = tmp_path / "empty"
    (out / ".lock").parent.mkdir()
    (out / ".lock").write_text("")
    args = [a.format(out=out) for a in STUDIES[command]]
    result = runner.invoke(app, [*args, "-q"])
    assert isinstance(result.exception, KernelReached), (result.exit_code, result.stderr)


def test_an_earlier_output_is_written_over_and_a_part_of_one_is_not(tmp_path: Path) -> None:
    tables = ("skill.csv", "ladder.csv", "metagame.csv", "head_to_head.csv", PAGE_FILE)
    own = earlier_output(*tables)
    for name in tables:
        (tmp_path / name).write_text("")
    assert check_output_folder(tmp_path, "skill study", own) == tmp_path
    (tmp_path / "ladder.csv").unlink()
    with pytest.raises(ResultsError, match="is not an earlier skill study folder"):
        check_output_folder(tmp_path, "skill study", own)
    with pytest.raises(ResultsError, match="is not an earlier study folder"):
        check_output_folder(tmp_path)


def test_a_design_resumes_its_own_folder(no_kernel: None, tmp_path: Path) -> None:
    """A design stopped during its screening left `screen-random/`, a sweep: its rerun
    goes on (to the games), it is not refused as a folder of other files."""
    out = tmp_path / "design"
    (out / "screen-random").mkdir(parents=True)
    (out / "screen-random" / "manifest.json").write_text("{}")
    args = [a.format(out=out) for a in STUDIES["design"]]
    result = runner.invoke(app, [*args, "-q"])
    assert "holds other files" not in result.stderr
