"""README.md and the pages it sends readers to stay true: the examples run, the lists
match the repository.

Every line of a code block of README.md or docs/cli.md (the tour of the command line)
that starts with `ludosim ` or `$ ludosim ` is run through the CLI's `main` with the
real kernel, block by block, each block in a fresh copy of the repository's committed
files (as if run from the root of a clean clone): an example that reads a results folder
must create it earlier in its own block. The examples write under `runs/` only: after
each block no committed file has changed and nothing new exists outside `runs/`.
In `make test` two examples run with fewer games of the slow players of the relative
skill level (the optimal and the fictive player play a few dozen games a second):
`ludosim skill` with `--skill-games 40` (its default, 4,000, is not written in the
example) and `ludosim design` with `--skill-games 80` (the least it takes: 20 per seat)
instead of 800; `QUICK` lists them. `make verify` (`LUDOSIM_VERIFY=1`) runs every
example exactly as written. README's Python example runs too. `make run` installs every
extra an example needs.
The project layout tree of docs/architecture.md must list every module of `ludosim/` and
every document of `docs/`, and only files that exist; every Makefile target is shown as
`make TARGET`.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import VERIFY

from ludosim.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
TOUR = (ROOT / "docs" / "cli.md").read_text()
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()
# The documents whose `ludosim` examples are run, by a short name for the test ids.
EXAMPLE_DOCUMENTS = {"readme": README, "cli": TOUR}


def code_blocks(text: str) -> list[str]:
    """The bodies of the fenced code blocks of a Markdown text, in order."""
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)


def example_blocks(text: str) -> list[list[list[str]]]:
    """Per code block holding any, its `ludosim` commands as argument lists.

    A line `ludosim ...` is a command; so is `$ ludosim ...`, a command shown with what
    it prints below it (the lines that follow, which are not run)."""
    blocks = []
    for body in code_blocks(text):
        commands = [
            shlex.split(line.removeprefix("$ "), comments=True)
            for line in body.splitlines()
            if line.startswith(("ludosim ", "$ ludosim "))
        ]
        if commands:
            blocks.append(commands)
    return blocks


EXAMPLES = [
    (f"{name}-block{i}-{block[0][1]}", block)
    for name, text in EXAMPLE_DOCUMENTS.items()
    for i, block in enumerate(example_blocks(text))
]


# Per command, the options `make test` sets to a smaller size (`sized`): the rest of the
# example is run as written. These two play thousands of games of the optimal and the
# fictive player, four fifths of the examples' time; `make verify` runs them as written.
QUICK = {"skill": {"--skill-games": "40"}, "design": {"--skill-games": "80"}}


def sized(args: list[str]) -> list[str]:
    """`args` as `make test` runs them: the options of `QUICK` replaced or added."""
    if VERIFY:
        return args
    args = list(args)
    for option, value in QUICK.get(args[1], {}).items():
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    return args


def test_the_quick_sizes_change_only_the_sizes_of_documented_commands() -> None:
    shown = {args[1]: args for _, block in EXAMPLES for args in block}
    assert set(QUICK) <= set(shown), "QUICK names a command no example runs"

    def without(args: list[str], options: dict[str, str]) -> list[str]:
        kept = list(args)
        for option in options:
            if option in kept:
                del kept[kept.index(option) : kept.index(option) + 2]
        return kept

    for command, options in QUICK.items():
        args, quick = shown[command], sized(shown[command])
        if VERIFY:  # make verify runs every example as written
            assert quick == args
            continue
        assert without(quick, options) == without(args, options)
        for option, value in options.items():
            assert quick[quick.index(option) + 1] == value


def test_the_tour_shows_examples_of_every_command() -> None:
    from ludosim.cli.app import command_names

    shown = {args[1] for block in example_blocks(TOUR) for args in block}
    assert shown == set(command_names())
    assert example_blocks(README), "README.md shows no command"


def test_readme_is_a_landing_page() -> None:
    """What ludosim answers, the first commands and links: the manual is in docs/."""
    assert len(README.encode("utf-8")) <= 10 * 1024
    assert "make run" in README and "make test" in README
    assert "BEGIN generated" not in README  # the toggle table lives in docs/rules.md
    for page in ("docs/cli.md", "docs/architecture.md", "docs/rules.md", "docs/api.md"):
        assert f"]({page})" in README, f"README.md does not link to {page}"


def test_the_docs_home_sends_no_reader_back_to_the_readme() -> None:
    home = (ROOT / "docs" / "index.md").read_text()
    assert "README" not in home
    assert "(cli.md)" in home and "(architecture.md)" in home


@pytest.mark.parametrize("commands", [b for _, b in EXAMPLES], ids=[i for i, _ in EXAMPLES])
def test_documented_examples_run_as_written(
    commands: list[list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    clean_copy(tmp_path)
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)
    for args in commands:
        with pytest.raises(SystemExit) as info:
            main(sized(args)[1:])
        captured = capsys.readouterr()
        assert info.value.code == 0, f"`{shlex.join(args)}` failed: {captured.err}"
        assert captured.out.strip(), f"`{shlex.join(args)}` printed nothing"
        for i, arg in enumerate(args):
            if arg in ("--out", "-o"):
                assert (tmp_path / args[i + 1]).exists(), f"`{shlex.join(args)}` wrote nothing"
        if args[1] == "report":
            _check_small_report(tmp_path / args[args.index("--out") + 1])
    after = snapshot(tmp_path)
    changed = sorted(p for p in before if after.get(p) != before[p])
    assert not changed, f"the examples changed committed files: {changed}"
    outside = sorted(p for p in set(after) - set(before) if not p.startswith("runs/"))
    assert not outside, f"the examples wrote outside runs/: {outside}"


def clean_copy(folder: Path) -> None:
    """Copy the repository's committed files into `folder`, as a clean clone holds them
    (`git ls-files`); without git (an unpacked release), `analyses/` alone, what the
    examples read."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT / "analyses", folder / "analyses")
        return
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, folder / name)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative, `/`-separated) -> a digest of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha1(path.read_bytes()).hexdigest()
        for path in folder.rglob("*")
        if path.is_file()
    }


def _check_small_report(folder: Path) -> None:
    """An example's report is small: it says it is exploratory, and no false claim leads it.

    At these sizes a page may resolve what the full-size reports resolve by far,
    the length of a game (bounce adds about 7 rounds on app, three start tries
    take about 4 off: `reports/app-grid`, `reports/start-six-finish`), never a
    difference in the first player's edge, which needs hundreds of thousands of
    games per cell: claims like that at a few thousand are what a statistician
    would not sign.
    """
    found = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
    notes = [f["text"] for f in found if f["topic"] == "about"]
    assert any(t.startswith("Exploratory:") for t in notes), notes
    for f in found:
        if f["kind"] in ("difference", "ranking") and f["resolved"]:
            assert f["unit"] == "rounds", f["text"]


# --------------------------------------------------------- what `make run` installs
def make_variable(name: str) -> str:
    text = (ROOT / "Makefile").read_text()
    return re.search(rf"^{name}\s*:=\s*(.*)$", text, flags=re.M).group(1).strip()


def test_make_run_installs_every_extra_an_example_needs() -> None:
    """The commands of the tour that need an optional extra say so ("needs the `skill`
    extra"); `make run` installs each, and so does the test install (`make test`, CI)."""
    import tomllib

    installed = set(make_variable("RUN_EXTRAS").split(","))
    assert "-e '.[$(RUN_EXTRAS)]'" in (ROOT / "Makefile").read_text()
    every_command = TOUR.split("## Every command", 1)[1].split("\n## ", 1)[0]
    needed = set(re.findall(r"needs the `(\w+)` extra", every_command))
    assert needed, "no command of docs/cli.md says it needs an extra"
    assert needed <= installed, f"make run does not install {needed - installed}"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra in installed:
        assert set(extras[extra]) <= set(extras["test"]), extra


# ------------------------------------------------------------------- the Python example
def test_readme_python_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (example,) = re.findall(r"^```python\n(.*?)^```", README, flags=re.M | re.S)
    assert len([line for line in example.splitlines() if line.strip()]) <= 10
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(example, "README.md", "exec"), namespace)
    assert capsys.readouterr().out.strip()
    # What its last line says: row 42 of the simulation, replayed.
    row, df = namespace["row"], namespace["df"]
    for column in ("first", "winner", "turns", "rolls"):
        assert row[column] == df.iloc[42][column], column
    assert not list(tmp_path.iterdir()), "the Python example wrote files"


# ------------------------------------------------------------------------ the layout
def layout_block() -> list[str]:
    section = ARCHITECTURE.split("## Project layout", 1)[1]
    return code_blocks(section)[0].splitlines()


def listed(folder: str, indent: int = 2) -> set[str]:
    """Names listed one level under `folder/` (itself indented `indent - 2`) in the tree."""
    lines = layout_block()
    start = lines.index(next(line for line in lines if line.split()[:1] == [f"{folder}/"]
                             and len(line) - len(line.lstrip()) == indent - 2))  # fmt: skip
    names = set()
    for line in lines[start + 1 :]:
        if not line.startswith(" " * indent):
            break
        if not line.startswith(" " * (indent + 1)):
            names.add(line.split()[0].rstrip(","))
    return names


def test_layout_lists_every_module_of_the_package() -> None:
    package = ROOT / "ludosim"
    modules = {p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    subpackages = {f"{p.parent.name}/" for p in package.glob("*/__init__.py")}
    assert listed("ludosim") == modules | subpackages
    # At most ten layers besides the version: the folder listing is the architecture.
    assert len(subpackages) <= 10
    for layer in ("rules", "run", "report", "studies", "adapters", "cli"):
        inside = {p.name for p in (package / layer).glob("*.py") if p.name != "__init__.py"}
        opened = sorted(p.parent for p in (package / layer).glob("*/__init__.py"))
        assert listed(layer, indent=4) == inside | {f"{p.name}/" for p in opened}, layer
        # A layer's own packages (studies/design/) list every module too.
        for sub in opened:
            modules = {p.name for p in sub.glob("*.py") if p.name != "__init__.py"}
            assert listed(sub.name, indent=6) == modules, f"{layer}/{sub.name}"


# A study with a page is a package of the same stages (ludosim.studies): its stage
# modules share their names with the other studies' by design.
STUDY_STAGES = {"spec", "plan", "tables", "play", "findings", "page", "words"}


def test_no_two_modules_share_a_name() -> None:
    """Twins only where the compiled and the reference engine mirror each other, and where
    the studies share their stages, by design."""
    seen: dict[str, list[str]] = {}
    for path in (ROOT / "ludosim").rglob("*.py"):
        if path.name != "__init__.py":
            seen.setdefault(path.stem, []).append(str(path.parent.relative_to(ROOT)))
    twins = {name: sorted(where) for name, where in seen.items() if len(where) > 1}
    mirrored = {"flow", "game", "moves", "plans", "position"}  # engine/ and reference/, by design
    for name, where in twins.items():
        if name in mirrored:
            assert where == ["ludosim/engine", "ludosim/reference"], (name, where)
        else:
            studies = [w for w in where if w.startswith("ludosim/studies/")]
            assert name in STUDY_STAGES and len(studies) >= 2, (name, where)
            # Outside the studies the name is one module's (the sweep's spec, the runner's
            # play, the page kit's findings and page).
            assert len(where) - len(studies) <= 1, (name, where)


def test_layout_lists_every_document() -> None:
    docs = {p.name for p in (ROOT / "docs").iterdir() if p.suffix in (".md", ".py")}
    docs |= {f"{p.name}/" for p in (ROOT / "docs").iterdir() if p.is_dir()}
    assert listed("docs") == docs


def listed_tree(folder: str) -> set[str]:
    """Paths listed under the top-level `folder/`, each level two spaces deeper, with the
    names of a line listed together (`a.py, b.py  what they hold`)."""
    lines = layout_block()
    start = lines.index(next(line for line in lines if line.split()[:1] == [f"{folder}/"]))
    paths: set[str] = set()
    above: list[str] = []  # the folders around the next name, outermost first
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        indent = len(line) - len(line.lstrip())
        level = indent // 2 - 1
        if indent % 2 or level > len(above):
            continue  # a description's next line
        del above[level:]
        words = line.split()
        names = [words[0]]
        while names[-1].endswith(","):
            names.append(words[len(names)])
        paths |= {"/".join([*above, name.rstrip(",")]) for name in names}
        if names[-1].endswith("/"):
            above.append(names[-1].rstrip("/"))
    return paths


def test_everything_listed_exists() -> None:
    tests = ROOT / "tests"
    names = listed_tree("tests")
    for name in names:
        assert list(tests.glob(name.rstrip("/"))), f"tests/{name}"
    # Every folder of tests is listed.
    folders = {f"{p.parent.relative_to(tests).as_posix()}/" for p in tests.rglob("test_*.py")}
    assert folders - {"./"} <= names
    for line in layout_block():
        if line and not line.startswith(" "):
            assert (ROOT / line.split()[0]).exists(), line


def makefile_targets() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    return re.search(r"^\.PHONY:(.*)$", text, flags=re.M).group(1).split()


def test_every_make_target_is_documented() -> None:
    """The two of a fresh machine on README.md, every one under docs/architecture.md's
    Development and in its layout tree."""
    targets = makefile_targets()
    assert "test" in targets and "run" in targets
    assert "make run" in README and "make test" in README
    development = ARCHITECTURE.split("## Development", 1)[1]
    for target in targets:
        assert f"make {target}" in development, f"Development does not show `make {target}`"
    makefile_line = next(line for line in layout_block() if line.startswith("Makefile"))
    assert makefile_line.split(None, 1)[1].split(", ") == targets


def test_no_fixed_test_duration_is_claimed() -> None:
    """The suite's duration depends on the machine; a number of minutes would drift."""
    for line in (README + ARCHITECTURE + TOUR).splitlines():
        if "make test" in line or "pytest -n" in line:
            assert not re.search(r"\d+\s*(-\s*\d+\s*)?min", line), line


# ------------------------------------------------------------------- the Python examples
def stated_values(text: str) -> list[tuple[str, str]]:
    """(expression, value) of every Python example line whose comment states a value.

    `ludosim.presets()   # ["app", ...]`: the comment is a Python literal, so the line
    claims what the expression returns. Comments in words are left alone.
    """
    found = []
    for body in re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
        for line in body.splitlines():
            code, sep, comment = line.partition("#")
            if not sep or "=" in code or not code.strip():
                continue
            try:
                ast.literal_eval(comment.strip())
            except (ValueError, SyntaxError):
                continue
            found.append((code.strip(), comment.strip()))
    return found


@pytest.mark.parametrize("document", ["README.md", "docs/api.md"])
def test_python_comments_that_state_a_value_are_true(document: str) -> None:
    import ludosim

    stated = stated_values((ROOT / document).read_text())
    assert stated, f"{document} states no value in a comment"
    for code, value in stated:
        assert eval(code, {"ludosim": ludosim}) == ast.literal_eval(value), code
