"""Strategies: how a seat chooses among the options the rules allow.

A policy is data: integer weights over a few features of the position after
an option (a single move, or a whole Killer plan) compared with the position
before it, plus a skip probability for forced-capture rules. The option with
the highest score is played; ties are broken with the game's random stream
(`below(t)` among the `t` tied options, in option order). The `random` policy
has all weights zero, so every option ties and it draws `below(k)` among all
`k` options: exactly docs/rules.md section 7.

Features (all computed from the position before and after the option, so a
Killer plan is scored by where it leaves the pieces):

    progress   own progress gained (progress + 1 per piece; yard 0, goal goal+1)
    enter      own pieces that left the yard (net)
    capture    opponent pieces sent to their yards
    finish     own pieces that reached the goal
    safe       own track pieces on a safe square or sharing a square with an own piece
    exposed    own unprotected track pieces with an opponent track piece 1-6 squares behind
    sent_home  own pieces back in the yard (net)
    lead       progress of the most advanced own piece (goal counts goal+1)

and two look-ahead features, exact probabilities over the die faces, counted
in units of 1 / 6**5 (`PROB_UNIT`) so that they are integers for every
number of opponents:

    danger     own pieces captured before the seat's next turn (expected number)
    chance     the chance to capture with the seat's next roll

(`ludosim.reference.features.lookahead` says exactly what is counted). A
policy that weighs either of them scores every feature in units of
1 / PROB_UNIT: the base weights are multiplied by PROB_UNIT (`score_weights`),
which leaves the order of the options as it was; a policy that weighs
neither scores exactly as before, and computes neither.

Weights are given in units and stored as integers in thousandths, so both
engines compute identical scores with integer arithmetic. They can also come
from a policy file written by `ludosim tune` (`tuned:PATH`), or from one
shipped with the package (`tuned-<preset>`, in ludosim/rules/tuned).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ludosim.rules.errors import LudosimError, close_names, did_you_mean, unknown_name

BASE_FEATURES = ("progress", "enter", "capture", "finish", "safe", "exposed", "sent_home", "lead")
LOOKAHEAD_FEATURES = ("danger", "chance")
FEATURES = BASE_FEATURES + LOOKAHEAD_FEATURES
SCALE = 1000  # weights are stored in thousandths
# Largest weight, in units. Scores are int64 sums of weight x feature, with the base
# weights multiplied by PROB_UNIT when a look-ahead feature weighs: 10**6 units keep
# every score below 10**17, far from int64's 9.2 * 10**18, on any board.
WEIGHT_MAX = 10**6
PROB_UNIT = 6**5  # look-ahead features count probabilities in units of 1 / 6**5


def score_weights(weights: tuple[int, ...]) -> tuple[int, ...]:
    """The integer multipliers of the features in a score, from weights in thousandths.

    The look-ahead features are counted in units of 1 / PROB_UNIT, so when one
    of them weighs, every base weight is multiplied by PROB_UNIT: the score is
    then PROB_UNIT times the weighted sum in units, exactly. Otherwise the
    weights are the multipliers and scores are those of the base features alone.
    """
    base = len(BASE_FEATURES)
    if not any(weights[base:]):
        return tuple(weights)
    return tuple(w * PROB_UNIT for w in weights[:base]) + tuple(weights[base:])


class PolicyError(LudosimError, ValueError):
    """An unknown policy name, a malformed weight list, or the wrong number of policies."""


@dataclass(frozen=True)
class Policy:
    """Weights (thousandths, in `FEATURES` order) and the chance to skip a forced capture."""

    name: str
    weights: tuple[int, ...]
    skip: float = 0.0  # skipper:Q: probability of ignoring a forced capture
    rollouts: int = 0  # expert:R: rollouts per option of each searched decision (0: no search)
    horizon: int = 0  # expert:R:H: turns a rollout plays before it is scored by progress
    # fictive[:H]: one rollout per option on the game's own dice to come (docs/expert.md)
    fictive: bool = False

    @property
    def is_expert(self) -> bool:
        """The seat searches its choices by rollouts (`ludosim.engine.expert`): the expert,
        and the fictive player, which plays in the kernel and is replayed the same way."""
        return self.rollouts > 0

    @property
    def is_random(self) -> bool:
        return not any(self.weights)

    @property
    def score_weights(self) -> tuple[int, ...]:
        """The integer multipliers of the features in a score (`score_weights`)."""
        return score_weights(self.weights)


def _weights(**named: float) -> tuple[int, ...]:
    return tuple(round(named.get(f, 0.0) * SCALE) for f in FEATURES)


def _checked_weights(where: str, named: dict[str, float]) -> tuple[int, ...]:
    """`_weights` of weights given by a user (`weights:...`, a policy file), each checked
    finite and within WEIGHT_MAX: infinity or 1e300 cannot be stored as an integer."""
    for feature, value in named.items():
        if not math.isfinite(value) or abs(value) > WEIGHT_MAX:
            raise PolicyError(
                f"{where}: weight {feature}={value:g} is not allowed; a weight is a finite "
                f"number in -{WEIGHT_MAX}..{WEIGHT_MAX}"
            )
    return _weights(**named)


_BALANCED = dict(
    capture=20, finish=15, enter=10, safe=5, exposed=-8, progress=1, sent_home=-30
)  # fmt: skip

NAMED: dict[str, tuple[tuple[int, ...], str]] = {
    "random": (_weights(), "uniform among the legal moves or plans (docs/rules.md section 7)"),
    "runner": (
        _weights(lead=10, finish=5, progress=1),
        "advances its leading piece (then the most progress)",
    ),
    "aggressive": (
        _weights(capture=100, progress=1),
        "captures whenever possible, otherwise advances",
    ),
    "defensive": (
        _weights(exposed=-10, safe=5, sent_home=-100, finish=3, enter=2, progress=0.5),
        "keeps pieces out of reach: fewest exposed pieces, prefers safe squares and blocks",
    ),
    "balanced": (_weights(**_BALANCED), "a sensible mixture of capturing, finishing and safety"),
    "pacifist": (
        _weights(**{**_BALANCED, "capture": -1000}),
        "never captures when any other legal move exists (obeys forced captures)",
    ),
}

FEATURE_DESCRIPTIONS: dict[str, str] = {
    "progress": "own progress gained (progress + 1 per piece; yard 0, goal goal+1)",
    "enter": "own pieces that left the yard (net)",
    "capture": "opponent pieces sent to their yards",
    "finish": "own pieces that reached the goal",
    "safe": "own track pieces on a safe square or sharing a square with an own piece",
    "exposed": "own unprotected track pieces with an opponent track piece 1-6 squares behind",
    "sent_home": "own pieces back in the yard (net)",
    "lead": "progress of the most advanced own piece (goal counts goal+1)",
    "danger": "expected own pieces captured before the next own turn: one roll of each "
    "opponent that captures whenever its face allows (exact over the die faces)",
    "chance": "chance to capture with the next own roll (exact over the die faces)",
}

EXPERT = "expert"  # the search-based player (docs/expert.md)
EXPERT_ROLLOUTS = 32  # its rollouts per option unless `expert:R` says otherwise
EXPERT_HORIZON = 24  # turns of its rollouts unless `expert:R:H` says otherwise (0: whole game)
EXPERT_MAX_ROLLOUTS = 4096
EXPERT_MAX_HORIZON = 10_000
# The player who knows the dice to come (docs/expert.md, "The fictive player"): the
# expert's search with one rollout per option, played on the game's own stream.
FICTIVE = "fictive"
# Turns of its rollouts unless `fictive:H` says otherwise (0: whole game). The expert's 24:
# a rollout foresees the game only while every seat plays as in it, and whole-game
# rollouts lose to the expert head to head (docs/expert.md, "The fictive player").
FICTIVE_HORIZON = EXPERT_HORIZON

DESCRIPTIONS: dict[str, str] = {
    **{name: text for name, (_, text) in NAMED.items()},
    "skipper:Q": "balanced, but with probability Q plays its best plan even if that skips a "
    "forced capture (risking the puster); skipper:Q:BASE skips so on top of another policy "
    "(e.g. skipper:1:tuned-killer)",
    "weights:F=W,...": "custom weights over the features " + ", ".join(FEATURES),
    "expert:R:H": f"plays each option out R times (default {EXPERT_ROLLOUTS}) for H turns "
    f"(default {EXPERT_HORIZON}; 0: until a seat finishes), scored by winning or by progress, "
    "every seat on its own policy and itself on tuned-<preset> (or balanced), and picks "
    "the option that wins most (compiled kernel, single-roll rules)",
    "fictive:H": "knows the dice to come: plays each option out once on the game's own "
    f"future dice for H turns (default {FICTIVE_HORIZON}; 0: until a seat finishes), every "
    "seat on its own policy and itself on tuned-<preset> (or balanced), and picks the option "
    'whose rollout ends best (compiled kernel; docs/expert.md, "The fictive player")',
}

# Every spelling `parse_policy` accepts, for error messages.
ALLOWED = ", ".join(
    [
        *NAMED,
        "skipper:Q[:BASE]",
        "weights:feature=w,...",
        "tuned:PATH",
        "tuned-PRESET",
        "expert[:R[:H]]",
        "fictive[:H]",
    ]
)

TUNED_PREFIX = "tuned-"  # shipped tuned policies: ludosim/rules/tuned/<preset>.toml


def _tuned_folder() -> Any:
    return resources.files("ludosim.rules") / "tuned"


def tuned_names() -> list[str]:
    """The shipped tuned policies, `tuned-<preset>`, one per file in ludosim/rules/tuned."""
    folder = _tuned_folder()
    if not folder.is_dir():
        return []
    files = (f.name for f in folder.iterdir() if f.name.endswith(".toml"))
    return sorted(TUNED_PREFIX + name.removesuffix(".toml") for name in files)


def policy_file(name: str) -> str | None:
    """The policy file a tuned policy plays: `tuned-<preset>`'s shipped file or `tuned:PATH`'s
    PATH (a skipper's on its base); None for every other policy."""
    text = name.strip()
    if text.startswith("skipper:") and text.count(":") >= 2:
        return policy_file(text.split(":", 2)[2])
    if text.startswith(TUNED_PREFIX) and text in tuned_names():
        return str(_tuned_folder() / (text.removeprefix(TUNED_PREFIX) + ".toml"))
    if text.startswith("tuned:") and text[6:].strip():
        return text[6:].strip()
    return None


def read_policy_file(path: str | Path) -> dict[str, Any]:
    """The data of a tuned policy file; its `[weights]` table must weigh known features."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"policy file {str(path)!r} cannot be read: {exc}") from None
    weights = data.get("weights")
    if (
        not isinstance(weights, dict)
        or set(weights) - set(FEATURES)
        or not all(
            isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights.values()
        )
    ):
        raise PolicyError(
            f"policy file {str(path)!r} needs a [weights] table of numbers over the features "
            f"{', '.join(FEATURES)}"
        )
    return data


def _tuned(name: str, path: str | Path) -> Policy:
    weights = read_policy_file(path)["weights"]
    return Policy(name, _checked_weights(f"policy file {str(path)!r}", weights))


def _expert_number(
    name: str,
    what: str,
    text: str,
    low: int,
    high: int,
    forms: str = "expert, expert:R or expert:R:H",
) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise PolicyError(
            f"policy {name!r}: {what} must be an integer in {low}..{high}, got {text!r}; "
            f"write {forms}"
        )
    return value


def _expert(name: str, arg: str) -> Policy:
    """`expert`, `expert:R` (rollouts per option) or `expert:R:H` (and a horizon of H turns,
    0: until a seat finishes); canonical `expert` for the defaults, else `expert:R:H`.

    Its weights are balanced's until `expert_base` gives the rules' base policy.
    """
    rollouts_text, _, horizon_text = arg.partition(":")
    rollouts = EXPERT_ROLLOUTS
    if arg:
        rollouts = _expert_number(name, "R", rollouts_text.strip(), 1, EXPERT_MAX_ROLLOUTS)
    horizon = EXPERT_HORIZON
    if horizon_text:
        horizon = _expert_number(name, "H", horizon_text.strip(), 0, EXPERT_MAX_HORIZON)
    canonical = EXPERT
    if (rollouts, horizon) != (EXPERT_ROLLOUTS, EXPERT_HORIZON):
        canonical = f"{EXPERT}:{rollouts}:{horizon}"
    return Policy(canonical, NAMED["balanced"][0], rollouts=rollouts, horizon=horizon)


def _fictive(name: str, arg: str) -> Policy:
    """`fictive` (rollouts of FICTIVE_HORIZON turns) or `fictive:H` (H turns, 0: until a
    seat finishes); canonical `fictive` for the default horizon, else `fictive:H`.

    The expert's search with one rollout per option (`rollouts=1`), drawn from the
    game's own stream (`fictive=True`); its weights are balanced's until
    `expert_base` gives the rules' base policy, as the expert's.
    """
    horizon = FICTIVE_HORIZON
    if arg:
        horizon = _expert_number(
            name, "H", arg.strip(), 0, EXPERT_MAX_HORIZON, forms="fictive or fictive:H"
        )
    canonical = FICTIVE if horizon == FICTIVE_HORIZON else f"{FICTIVE}:{horizon}"
    return Policy(canonical, NAMED["balanced"][0], rollouts=1, horizon=horizon, fictive=True)


def expert_base(rules: Any) -> Policy:
    """The policy an expert seat plays in its rollouts under `rules` (a `ludosim.Rules`).

    `tuned-<preset>` when the rules are exactly a preset (same rules hash) with
    a shipped tuned policy, else `balanced`.
    """
    from ludosim.rules.model import Rules, presets  # the rules layer sits beside this one

    wanted = rules.hash()
    shipped = tuned_names()
    for preset in presets():
        if TUNED_PREFIX + preset in shipped and Rules.preset(preset).hash() == wanted:
            return parse_policy(TUNED_PREFIX + preset)
    return Policy("balanced", NAMED["balanced"][0])


def weights_of(name: str) -> dict[str, float]:
    """The non-zero feature weights of a named policy, in units (empty for `random`)."""
    weights = NAMED[name][0]
    return {f: w / SCALE for f, w in zip(FEATURES, weights, strict=True) if w}


def parse_policy(name: str) -> Policy:
    """A policy from its name: a named one, `skipper:Q`, `weights:feature=w,...`,
    `tuned:PATH` (a policy file), a shipped `tuned-<preset>`, `expert[:R[:H]]` or
    `fictive[:H]`."""
    text = name.strip()
    if text in NAMED:
        return Policy(text, NAMED[text][0])
    if text.startswith(TUNED_PREFIX):
        if text not in tuned_names():
            raise PolicyError(unknown_name("policy", name, tuned_names(), "shipped tuned"))
        return _tuned(text, str(_tuned_folder() / (text.removeprefix(TUNED_PREFIX) + ".toml")))
    kind, _, arg = text.partition(":")
    if kind == EXPERT:
        return _expert(name, arg)
    if kind == FICTIVE:
        return _fictive(name, arg)
    if kind == "tuned" and arg:
        return _tuned(f"tuned:{arg.strip()}", arg.strip())
    if kind == "skipper" and arg:
        # skipper:Q plays balanced's weights; skipper:Q:BASE those of any other policy.
        q_text, _, base_name = arg.partition(":")
        try:
            q = float(q_text)
        except ValueError:
            q = -1.0
        if not 0.0 <= q <= 1.0:
            raise PolicyError(f"policy {name!r}: Q must be a probability in 0..1, got {q_text!r}")
        try:
            base = parse_policy(base_name if base_name.strip() else "balanced")
        except PolicyError as exc:
            raise PolicyError(f"policy {name!r}: its base: {exc}") from None
        if base.skip:
            raise PolicyError(f"policy {name!r}: the base of a skipper cannot be a skipper")
        if base.is_random:
            raise PolicyError(
                f"policy {name!r}: random has no best plan to play; give a scoring base"
            )
        suffix = "" if base.name == "balanced" else f":{base.name}"
        return Policy(f"skipper:{q:g}{suffix}", base.weights, skip=q)
    if kind == "weights" and arg:
        named: dict[str, float] = {}
        for item in arg.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if key not in FEATURES or not eq:
                raise PolicyError(
                    f"policy {name!r}: bad item {item.strip()!r}; "
                    f"write feature=weight with features {', '.join(FEATURES)}"
                )
            try:
                named[key] = float(value)
            except ValueError:
                raise PolicyError(f"policy {name!r}: weight {value!r} is not a number") from None
        weights = _checked_weights(f"policy {name!r}", named)
        canonical = ",".join(
            f"{f}={w / SCALE:g}" for f, w in zip(FEATURES, weights, strict=True) if w
        )
        return Policy(f"weights:{canonical}", weights)
    raise _unknown_policy(name)


def _unknown_policy(name: str) -> PolicyError:
    """An unknown policy: the close names (a misspelt kind keeps its argument:
    `skiper:0.5` -> `skipper:0.5`), else every kind allowed."""
    kinds = ("skipper", "weights", "tuned", EXPERT, FICTIVE)
    kind, colon, arg = name.strip().partition(":")
    close = close_names(kind, kinds) if colon else []
    if close:
        return PolicyError(f"unknown policy {name!r}; {did_you_mean(k + ':' + arg for k in close)}")
    return PolicyError(unknown_name("policy", name, (), "allowed", ALLOWED,
                                    suggest=[*NAMED, *tuned_names(), *kinds]))  # fmt: skip


def split_policy_list(text: str) -> list[str]:
    """`a,b,c` -> one name per seat; the `f=w` items after `weights:` stay with it.

    The one reader of a comma-separated line-up, for command-line flags, sweep
    files, study files and the cells tables of results: `weights:lead=2,capture=1.5`
    is one policy, `weights:lead=2,random` two. Brackets around the list are
    dropped; empty items are kept (as empty names) for the caller to refuse.
    """
    return join_weight_items(text.strip().strip("[]").split(","))


def join_weight_items(tokens: Sequence[str]) -> list[str]:
    """Comma-split tokens of a line-up with each `f=w` item put back after its `weights:`.

    `["weights:lead=2", "capture=1.5", "random"]` -> `["weights:lead=2,capture=1.5",
    "random"]`: the rule `split_policy_list` reads line-ups by, for callers that split
    on commas themselves (a sweep's `--vary policies=...`, which also keeps brackets).
    """
    items: list[str] = []
    for token in (t.strip() for t in tokens):
        if items and items[-1].startswith("weights:") and "=" in token and ":" not in token:
            items[-1] += "," + token
        else:
            items.append(token)
    return items


def format_policies(policies: str | Sequence[str]) -> str:
    """`random` when every seat plays the same policy, else one per seat with commas."""
    if isinstance(policies, str):
        return policies
    return policies[0] if len(set(policies)) == 1 else ",".join(policies)


def refuse_search_under_teams(names: Sequence[str], teams: Sequence[int]) -> None:
    """Refuse the expert and the fictive player (`Policy.is_expert`) under the rules toggle
    `teams`, naming the first of them: their rollouts play each seat's own pieces to the end
    of the game and know no partners. Every command that seats players asks this before
    its first game, so a line-up the kernel would refuse is refused before any is played."""
    if not teams:
        return
    for name in names:
        policy = parse_policy(name)
        if policy.is_expert:
            raise PolicyError(
                f"policy {policy.name!r} does not play under teams="
                f"{','.join(str(t) for t in teams)}: the expert and the fictive player "
                "search each seat's own game and know no partners; use another policy, "
                "or no teams"
            )


def resolve_policies(
    policies: str | Sequence[str], players: int, *, teams: Sequence[int] = ()
) -> tuple[str, ...]:
    """One canonical policy name per seat, validated: a single name applies to every seat.

    `teams` (the rules' toggle): the expert and the fictive player are refused under it
    (`refuse_search_under_teams`)."""
    if isinstance(policies, str):
        names = [policies] * players
    elif isinstance(policies, Sequence) and all(isinstance(p, str) for p in policies):
        names = list(policies)
    else:
        raise PolicyError(
            f"policies must be a policy name (e.g. 'random') or a list of one per seat, "
            f"got {policies!r}"
        )
    if len(names) != players:
        raise PolicyError(f"policies lists {len(names)} policies for {players} players")
    resolved = tuple(parse_policy(n).name for n in names)
    refuse_search_under_teams(resolved, teams)
    return resolved
