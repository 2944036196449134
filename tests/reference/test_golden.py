"""Golden transcripts: one seeded game per preset, replayed and diffed line by line.

Each file in `tests/golden/` holds the full transcript of game 0 of seed 7
with the reference engine, then the game's result row. A reviewer can read a
transcript against docs/rules.md. When a change to the games played is intended,
regenerate them with `pytest tests/reference/test_golden.py --regen-golden` and review
the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from ludosim.reference import play_game
from ludosim.rules.model import SEMANTICS_VERSION, Rules, presets

GOLDEN_DIR = Path(__file__).parents[1] / "golden"
SEED, GAME = 7, 0


def golden_text(preset: str) -> str:
    """The golden transcript of `preset`: header, transcript lines, result row."""
    rules = Rules.preset(preset)
    result = play_game(rules, SEED, GAME, record=True)
    lines = [
        f"# preset={preset} seed={SEED} game={GAME} policies=random "
        f"rules_hash={rules.hash()} semantics={SEMANTICS_VERSION}",
        *result.transcript,
        "# result",
        *(f"{key}={value}" for key, value in result.row().items()),
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("preset", presets())
def test_golden_transcript(preset: str, regen_golden: bool) -> None:
    path = GOLDEN_DIR / f"{preset}.txt"
    actual = golden_text(preset)
    if regen_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        return
    assert path.exists(), f"{path} is missing; create it with pytest --regen-golden"
    expected = path.read_text()
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"golden/{preset}.txt",
            "replay",
            lineterm="",
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"the replayed {preset} game differs from its golden transcript; if the change is "
            f"intended, rerun with --regen-golden and review the diff:\n{shown}"
        )


def test_golden_files_match_presets() -> None:
    """No stale golden file for a preset that no longer exists."""
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.txt")) == sorted(presets())
