"""The house rules in plain words, as a family reads them at the table: what each rule is
about and what it says at a value (`rule_words`), the explorer's menus (`menu_words`) and
the goals (`GOAL_WORDS`).
"""

from __future__ import annotations

from typing import Any

from ludosim.report.wording import listing
from ludosim.rules.model import TOGGLES
from ludosim.studies.design.spec import Free, _spell

# Plain words for the house rules, written from the toggle table's one-line descriptions
# (`ludosim.rules.toggles.TOGGLES`): per toggle what the rule is about and, per value, what
# it says. The rules card and the explorer's menus read them; a toggle without words here
# falls back on its description and its value as the options spell it.
RULE_WORDS: dict[str, tuple[str, dict[Any, str]]] = {
    "start_attempts": ("With no piece in play", {
        1: "you get one roll to bring a piece out",
        3: "you get three rolls to bring a piece out"}),
    "start_attempts_when": ("The three rolls to bring a piece out", {
        "always": "apply whenever you have no piece in play",
        "game_start": "apply only until your first piece has entered"}),
    "bonus_on_six": ("A six", {
        "always": "always earns another roll",
        "unless_entered": "earns another roll unless it brought a piece out",
        "never": "earns no extra roll"}),
    "bonus_on_capture": ("Capturing a piece", {
        True: "earns another roll", False: "earns no extra roll"}),
    "bonus_on_finish": ("Bringing a piece to the goal", {
        True: "earns another roll", False: "earns no extra roll"}),
    "bonus_stacking": ("Bonus rolls", {
        "stack": "one for each reason (a six, a capture, a piece home)",
        "one": "at most one per move, whatever earned it"}),
    "no_move_ends_turn": ("A roll with no legal move", {
        True: "ends the turn, and any bonus roll is lost",
        False: "does not end the turn: a bonus roll still comes"}),
    "pass_own": ("Passing your own pieces", {
        True: "is allowed", False: "is not allowed"}),
    "pass_opponents": ("Passing opponent pieces", {
        "all": "is allowed, even past a block",
        "singles": "is allowed past single pieces; a block of two or more stops you",
        "none": "is not allowed: any opponent piece blocks the way"}),
    "safe_landing": ("Landing on a lone opponent on a safe square", {
        "coexist": "both pieces share the square", "lander_home": "sends your piece home"}),
    "capture_rule": ("Capturing", {
        "lone_opponent": "takes a lone opponent even where your own pieces share its square",
        "lone_piece": "takes only a piece that stands alone on its square"}),
    "block_landing": ("Landing on two or more opponent pieces", {
        "coexist": "your piece joins them on the square",
        "lander_home": "sends your piece home",
        "capture": "captures them all",
        "forbidden": "is not allowed"}),
    "start_capture": ("Entering onto an opponent on your start square", {
        True: "captures it", False: "does not capture it"}),
    "finish": ("Reaching the goal", {
        "exact": "needs the exact roll",
        "bounce": "a roll too high bounces back from the goal",
        "bounce_on": "a roll too high bounces back, and the piece goes on backwards all turn"}),
    "forced_capture": ("A capture that can be made", {
        True: "must be made", False: "may be left"}),
}  # fmt: skip


_SAFE_WORDS = {"starts": "start squares", "globes": "globes", "stars": "stars"}


_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


GOAL_WORDS = {
    "short": "a shorter game",
    "fairness": "a fairer turn order",
    "skill": "a game where skill pays more",
    "drama": "more comebacks",
    "action": "more captures",
}


def rule_words(toggle: str, value: Any) -> tuple[str, str]:
    """(what the rule is about, what it says at `value`) in plain words: `("Reaching the
    goal", "needs the exact roll")`."""
    if toggle == "six_limit":
        said = (
            "have no limit"
            if not value
            else (
                f"are limited: the {_ORDINALS[value]} six in a row is forfeited and ends the turn"
            )
        )
        return "Sixes in a row", said  # fmt: skip
    if toggle == "start_capacity":
        said = (
            "may hold any number of your pieces"
            if not value
            else (f"holds at most {value} of your pieces; no more enter while it is full")
        )
        return "Your start square", said  # fmt: skip
    if toggle == "safe":
        if not value:
            return "Safe squares", "none: a lone piece can be captured anywhere"
        kinds = listing([_SAFE_WORDS.get(v, str(v)) for v in value])
        return "Safe squares", f"a lone piece cannot be captured on {kinds}"
    topic, words = RULE_WORDS.get(toggle, ("", {}))
    if value in words:
        return topic, words[value]
    description = TOGGLES[toggle].description
    # `{}` is the command line's empty set: a family reads "none".
    said = "none" if value == () else _spell(toggle, value)
    return description[0].upper() + description[1:], said


def menu_words(free: Free) -> tuple[str, str, list[str]]:
    """The explorer's menu of a free toggle: (toggle, the rule in words, its two values in
    words). Values whose words coincide keep their spelling beside them, since the menu
    tells its two values apart by their text."""
    topic, first = rule_words(free.toggle, free.values[0])
    _, second = rule_words(free.toggle, free.values[1])
    if first == second:
        first, second = (
            f"{w} ({_spell(free.toggle, v)})"
            for w, v in zip((first, second), free.values, strict=True)
        )
    return free.toggle, topic, [first, second]
