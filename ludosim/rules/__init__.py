"""The game as data: every rule choice, the rule sets, the board they make, the policies.

- `toggles`: the table of toggles, every rule choice declared once;
- `model`: `Rules` (a frozen dataclass built from that table), the presets and their
  seed texts, validation, TOML;
- `options`: `--preset`/`--set` text to `Rules`, the same in every front end;
- `board`: geometry computed once (seating, track, safe, star and globe squares);
- `policies`: strategies as weights over position features, and the shipped tuned ones
  (`tuned/`);
- `canonical`: which rule sets play the same games (toggles that cannot act);
- `streams`: the counter-based random streams both engines draw from;
- `tomlio`: the one TOML writer; `errors`: `LudosimError` and its kinds.

Nothing here plays a game: the engines (`ludosim.engine`, `ludosim.reference`) read it.
`from ludosim.rules import Rules, presets` keeps working: the package re-exports
`model`'s names.
"""

from ludosim.rules.model import (
    D6_FACES,
    DEFAULT_FACES,
    GLOBE,
    HASH_SCHEME,
    PRESETS,
    SAFE_KINDS,
    SEMANTICS_VERSION,
    STAR,
    STAR_GLOBE_FACES,
    SYMBOL_FACES,
    TOGGLES,
    Preset,
    Rules,
    Toggle,
    format_value,
    parse_value,
    presets,
    rules_hash,
)

__all__ = [
    "D6_FACES",
    "DEFAULT_FACES",
    "GLOBE",
    "HASH_SCHEME",
    "PRESETS",
    "SAFE_KINDS",
    "SEMANTICS_VERSION",
    "STAR",
    "STAR_GLOBE_FACES",
    "SYMBOL_FACES",
    "TOGGLES",
    "Preset",
    "Rules",
    "Toggle",
    "format_value",
    "parse_value",
    "presets",
    "rules_hash",
]
