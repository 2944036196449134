"""A skill study's tables (`SkillTables`): per rule set and measure the win shares, the
ladders, the meta-game, the head-to-head pairs and the relative skill levels; their files
and columns, written and read back (`write_tables`, `read_tables`) so a page can be redrawn
without playing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ludosim.studies import relative_skill
from ludosim.studies.skill.spec import SkillError, Study

SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE = (
    "skill.csv",
    "ladder.csv",
    "metagame.csv",
    "head_to_head.csv",
)
SKILL_COLUMNS = (
    "rule_set", "preset", "set", "measure", "player", "opponent",
    "estimate", "ci_low", "ci_high", "games", "fair", "resolved",
)  # fmt: skip
LADDER_COLUMNS = (
    "rule_set", "rank", "player", "mu", "sigma", "ordinal", "ci_low", "ci_high", "games",
)  # fmt: skip
METAGAME_COLUMNS = (
    "rule_set", "player", "weight", "weight_low", "weight_high", "support_share",
    "payoff_vs_mix", "resamples",
)  # fmt: skip
PAIR_COLUMNS = (
    "rule_set", "player", "opponent", "games", "wins", "opponent_wins", "share",
    "ci_low", "ci_high",
)  # fmt: skip


@dataclass
class SkillTables:
    """The study's tables: per rule set x measure, the ladders, the meta-game, the pairs,
    and the relative skill levels (`rs`; None for tables written without them)."""

    skill: pd.DataFrame
    ladder: pd.DataFrame
    metagame: pd.DataFrame
    pairs: pd.DataFrame
    study: Study
    rs: pd.DataFrame | None = None


def write_tables(tables: SkillTables, out: str | Path) -> Path:
    """Write skill.csv, ladder.csv, metagame.csv, head_to_head.csv and rs.csv into `out`."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.skill.to_csv(folder / SKILL_FILE, index=False)
    tables.ladder.to_csv(folder / LADDER_FILE, index=False)
    tables.metagame.to_csv(folder / METAGAME_FILE, index=False)
    tables.pairs.to_csv(folder / PAIRS_FILE, index=False)
    if tables.rs is not None:
        tables.rs.to_csv(folder / relative_skill.RS_FILE, index=False)
    return folder


def read_tables(folder: str | Path, study: Study) -> SkillTables:
    """The tables `write_tables` wrote into `folder`."""
    path = Path(folder)
    frames = []
    for name in (SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE):
        try:
            frames.append(pd.read_csv(path / name, keep_default_na=False, na_values=[""]))
        except OSError as exc:
            raise SkillError(f"{path / name} cannot be read: {exc}") from None
    frames[0]["set"] = frames[0]["set"].fillna("")
    frames[0]["player"] = frames[0]["player"].fillna("")
    frames[0]["opponent"] = frames[0]["opponent"].fillna("")
    rs = None
    if (path / relative_skill.RS_FILE).exists():
        rs = pd.read_csv(path / relative_skill.RS_FILE, keep_default_na=False, na_values=[""])
        rs["set"] = rs["set"].fillna("")
    return SkillTables(*frames, study=study, rs=rs)
