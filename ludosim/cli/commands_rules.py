"""The commands that list what can be played: `presets`, `policies` and `rules`.

They read the rules layer only, and start and answer at once.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ludosim.cli.output import _console, _show
from ludosim.cli.params import PresetOpt, SetOpt
from ludosim.rules.model import PRESETS, TOGGLES
from ludosim.rules.options import rules_from_options
from ludosim.rules.policies import (
    DESCRIPTIONS,
    FEATURE_DESCRIPTIONS,
    FEATURES,
    NAMED,
    SCALE,
    parse_policy,
    tuned_names,
    weights_of,
)


def presets() -> None:
    """List the preset rule sets with the seed files they come from.

    Example: ludosim presets
    """
    table = Table(title="Presets")
    table.add_column("preset", style="bold")
    table.add_column("seed files")
    table.add_column("description")
    for preset in PRESETS.values():
        table.add_row(preset.name, "\n".join(preset.seeds), escape(preset.description))
    _console().print(table)


def policies() -> None:
    """List the policies (strategies) a seat can play, with their parameters and weights.

    Every command that takes `--policy` accepts these names, one for every seat or one
    per seat in seat order, comma-separated.

    Example: ludosim policies
    """
    table = Table(title="Policies")
    table.add_column("policy", style="bold")
    table.add_column("weights (feature=w)")
    table.add_column("description")
    for name in NAMED:
        weights = ", ".join(f"{f}={w:g}" for f, w in weights_of(name).items()) or "none"
        table.add_row(name, weights, escape(DESCRIPTIONS[name]))
    table.add_row(
        "skipper:Q",
        "as balanced",
        escape(DESCRIPTIONS["skipper:Q"] + "; Q in 0..1, e.g. skipper:0.5"),
    )
    table.add_row(
        "weights:F=W,...",
        "F=W, ...",
        escape(
            "custom: the score of an option is the sum of W x feature F over the listed "
            "features (the others weigh 0), e.g. weights:capture=5,progress=1"
        ),
    )
    table.add_row(
        "tuned:PATH", "from the file", "the weights of a policy file written by `ludosim tune`"
    )
    table.add_row(
        "expert:R:H",
        "tuned-<preset> in its rollouts",
        escape(DESCRIPTIONS["expert:R:H"] + "; expert, expert:R or expert:R:H, e.g. expert:64:24"),
    )
    table.add_row(
        "fictive:H",
        "tuned-<preset> in its rollouts",
        escape(DESCRIPTIONS["fictive:H"] + "; fictive or fictive:H, e.g. fictive:24"),
    )
    for name in tuned_names():
        tuned = zip(FEATURES, parse_policy(name).weights, strict=True)
        weights = ", ".join(f"{f}={w / SCALE:g}" for f, w in tuned if w)
        preset = name.removeprefix("tuned-")
        table.add_row(name, weights, f"shipped: tuned by `ludosim tune` for the {preset} preset")
    _console().print(table)
    features = Table(title="Features (measured after an option, against before it)")
    features.add_column("feature", style="bold")
    features.add_column("meaning")
    for name, meaning in FEATURE_DESCRIPTIONS.items():
        features.add_row(name, escape(meaning))
    _show(features)
    typer.echo(
        "The option with the highest score is played; ties are drawn at random. "
        "One policy applies to every seat; a comma-separated list gives one per seat."
    )


def rules(
    preset: PresetOpt,
    sets: SetOpt = None,
    toml: Annotated[bool, typer.Option("--toml", help="Print the rules as TOML instead.")] = False,
) -> None:
    """Show every toggle of a rule set with its value and description.

    Example: ludosim rules --preset killer --set pass_opponents=all
    """
    chosen = rules_from_options(preset, sets or ())
    if toml:
        typer.echo(chosen.to_toml(), nl=False)
        return
    table = Table(title=f"Rules: {preset} (hash {chosen.hash()})")
    table.add_column("toggle", style="bold", no_wrap=True)  # names are copied into --set
    table.add_column("value")
    table.add_column("allowed")
    table.add_column("description")
    for name, value, description in chosen.describe():
        table.add_row(name, escape(value), escape(TOGGLES[name].allowed()), escape(description))
    _console().print(table)
