"""README.md stays true: its `ludosim` examples run, and its lists match the repository.

Every line of a README code block that starts with `ludosim ` is run through the CLI's
`main` with the real kernel, block by block, each block in a fresh folder holding a copy
of `analyses/` (as if run from the repository root): an example that reads a results
folder must create it earlier in its own block. The project layout tree must list every
module of `ludosim/` and every document of `docs/`, and only files that exist; every
Makefile target is shown as `make TARGET`.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from ludosim.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def code_blocks(text: str) -> list[str]:
    """The bodies of the fenced code blocks of a Markdown text, in order."""
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)


def example_blocks() -> list[list[list[str]]]:
    """Per code block holding any, its `ludosim` commands as argument lists."""
    blocks = []
    for body in code_blocks(README):
        commands = [
            shlex.split(line, comments=True)
            for line in body.splitlines()
            if line.startswith("ludosim ")
        ]
        if commands:
            blocks.append(commands)
    return blocks


EXAMPLES = example_blocks()


def test_readme_shows_examples_of_every_command() -> None:
    from ludosim.cli import command_names

    shown = {args[1] for block in EXAMPLES for args in block}
    assert shown == set(command_names())


@pytest.mark.parametrize(
    "commands", EXAMPLES, ids=[f"block{i}-{b[0][1]}" for i, b in enumerate(EXAMPLES)]
)
def test_readme_examples_run_as_written(
    commands: list[list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shutil.copytree(ROOT / "analyses", tmp_path / "analyses")
    monkeypatch.chdir(tmp_path)
    for args in commands:
        with pytest.raises(SystemExit) as info:
            main(args[1:])
        captured = capsys.readouterr()
        assert info.value.code == 0, f"`{shlex.join(args)}` failed: {captured.err}"
        assert captured.out.strip(), f"`{shlex.join(args)}` printed nothing"
        for i, arg in enumerate(args):
            if arg in ("--out", "-o"):
                assert (tmp_path / args[i + 1]).exists(), f"`{shlex.join(args)}` wrote nothing"


# ------------------------------------------------------------------------ the layout
def layout_block() -> list[str]:
    section = README.split("## Project layout", 1)[1]
    return code_blocks(section)[0].splitlines()


def listed(folder: str) -> set[str]:
    """Names listed one level under `folder/` in the layout tree."""
    lines = layout_block()
    start = lines.index(f"{folder}/")
    names = set()
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if not line.startswith("   "):
            names.add(line.split()[0].rstrip(","))
    return names


def test_layout_lists_every_module_of_the_package() -> None:
    package = ROOT / "ludosim"
    modules = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    subpackages = {f"{p.parent.name}/" for p in package.glob("*/__init__.py")}
    assert listed("ludosim") == modules | subpackages


def test_layout_lists_every_document() -> None:
    docs = {p.name for p in (ROOT / "docs").iterdir() if p.suffix in (".md", ".py")}
    assert listed("docs") == docs


def test_everything_listed_exists() -> None:
    for name in listed("tests"):
        if "*" not in name:
            assert (ROOT / "tests" / name).exists(), name
    for line in layout_block():
        if line and not line.startswith(" "):
            assert (ROOT / line.split()[0]).exists(), line


def makefile_targets() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    return re.search(r"^\.PHONY:(.*)$", text, flags=re.M).group(1).split()


def test_every_make_target_is_documented() -> None:
    targets = makefile_targets()
    assert "test" in targets and "run" in targets
    for target in targets:
        assert f"make {target}" in README, f"README does not show `make {target}`"
    makefile_line = next(line for line in layout_block() if line.startswith("Makefile"))
    assert makefile_line.split(None, 1)[1].split(", ") == targets


def test_no_fixed_test_duration_is_claimed() -> None:
    """The suite's duration depends on the machine; a number of minutes would drift."""
    for line in README.splitlines():
        if "make test" in line or "pytest -n" in line:
            assert not re.search(r"\d+\s*(-\s*\d+\s*)?min", line), line
