"""The docs stay true: generated tables match the code, the site builds strictly, nothing
points outside the repository."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from ludosim.rules.model import PRESETS, TOGGLES

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_toggles", ROOT / "docs" / "gen_toggles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_tables_match_the_code() -> None:
    document = "docs/rules.md"  # the one home of the preset and toggle tables
    text = (ROOT / document).read_text()
    assert _generator().render(text) == text, (
        f"{document}'s preset/toggle tables are out of date: run python docs/gen_toggles.py --write"
    )


def test_tables_list_every_toggle_and_preset() -> None:
    gen = _generator()
    toggles = gen.toggles_table()
    rows = {line.split(" | ")[0]: line for line in toggles.splitlines()}
    for name, toggle in TOGGLES.items():
        row = rows[f"| `{name}`"]
        assert toggle.description in row and toggle.allowed() in row
        assert all(seed[:3] in row for seed in toggle.seeds)
    presets = gen.presets_table()
    for preset in PRESETS.values():
        assert f"| `{preset.name}` |" in presets
        assert all(seed in presets for seed in preset.seeds)


# ------------------------------------------------ the repository stands on its own
# Files outside the repository that the docs must not point at, and work-log text
# that does not belong in a description of the product as it is.
OUTSIDE = re.compile(r"\.\./shared|\bRULES\.md|\bAPI\.md")
WORK_LOG = re.compile(r"\bsession [0-9]|\bissue [0-9]|this\s+session|tried\s+and\s+dropped", re.I)
# Generated reports quote run metadata verbatim; they are regenerated, not written.
UNCHECKED = ("reports/",)

CITED_TEST = re.compile(r"(tests/[\w/]+\.py)::(test\w*)")


def _tracked_text_files() -> list[Path]:
    """Tracked files (every file outside caches and build output without git), text only."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
        names = [n for n in listed.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "runs", "__pycache__", ".ruff_cache", ".pytest_cache"}
        names = [
            p.relative_to(ROOT).as_posix()
            for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
        ]
    files = []
    for name in names:
        path = ROOT / name
        if name.startswith(UNCHECKED) or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        files.append(path)
    return files


def test_no_file_points_outside_the_repository_or_reads_like_a_work_log() -> None:
    files = _tracked_text_files()
    assert any(p.name == "rules.md" for p in files)
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for pattern in (OUTSIDE, WORK_LOG):
                match = pattern.search(line)
                if match:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not found, "cite docs/rules.md or docs/api.md, and say why, not when:\n" + "\n".join(
        found
    )


# An absolute path of the machine that made a page (a results folder, an output
# folder). Base64 data never matches: there a slash follows a letter, digit or +.
ABSOLUTE = re.compile(r"(?<![\w+/.:~-])/(?:work|home|tmp|root|Users|mnt|var|opt)/")


def test_generated_reports_name_no_absolute_path() -> None:
    """Report pages, tables and sweep files are made from `runs/NAME` inside the
    repository (`make reports`), so the paths they quote work on any clone."""
    found = []
    for path in sorted((ROOT / "reports").rglob("*")):
        if path.suffix not in (".html", ".csv", ".toml", ".md") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = ABSOLUTE.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line[match.start() :][:60]!r}")
    assert not found, "regenerate these from runs/NAME:\n" + "\n".join(found[:20])


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    }


def test_every_test_cited_by_the_docs_exists() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    cited = {
        (match.group(1), match.group(2))
        for doc in docs
        for match in CITED_TEST.finditer(doc.read_text(encoding="utf-8"))
    }
    assert len(cited) > 100  # docs/rules.md pins every [choice] with a test
    names: dict[str, set[str]] = {}
    missing = []
    for file, name in sorted(cited):
        if file not in names:
            path = ROOT / file
            names[file] = _test_names(path) if path.is_file() else set()
        if name not in names[file]:
            missing.append(f"{file}::{name}")
    assert not missing, "docs cite tests that do not exist:\n" + "\n".join(missing)


def test_the_documentation_builds_as_a_strict_site(tmp_path: Path) -> None:
    """`make docs`: every page in the navigation, no broken link or anchor, and every
    `::: module` of the API reference resolved from the docstrings."""
    import shutil

    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).with_name("mkdocs"))
    done = subprocess.run(
        [mkdocs, "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    reference = (tmp_path / "site" / "reference" / "report" / "index.html").read_text("utf-8")
    assert "page_findings" in reference  # generated from the docstrings, not written by hand
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        assert str(page.relative_to(ROOT / "docs")) in nav, f"{page} is not in mkdocs.yml's nav"
