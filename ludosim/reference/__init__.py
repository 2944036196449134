"""The readable pure-Python engine: the oracle the compiled kernel is checked against.

Scenario API (build a position, list moves or plans, apply them, read events)::

    from ludosim.reference import Position, legal_moves, play_move, all_plans
    rules = Rules.preset("killer")
    pos = Position.from_progress(rules, [[10, -1, -1, -1], [13, -1, -1, -1], ...])
    moves = legal_moves(rules, pos, seat=0, face=3)
    result = play_move(rules, pos, moves[0])    # result.events, result.captures, ...
"""

from ludosim.reference.events import (
    Captured,
    Event,
    Finished,
    Jumped,
    Moved,
    PlayerDone,
    Puster,
    Rolled,
    SentHome,
    Skipped,
)
from ludosim.reference.game import Game, GameResult, play_game
from ludosim.reference.moves import (
    CAPTURE,
    HOME,
    LAND,
    Move,
    MoveResult,
    legal_moves,
    play_move,
    resolve_landing,
    try_move,
)
from ludosim.reference.outside import OutsidePlayer, OutsidePlayerError, PlayerView, legal_options
from ludosim.reference.plans import (
    Plan,
    all_plans,
    best_plans,
    forced,
    pieces_at_risk,
    play_plan,
    single_roll_options,
)
from ludosim.reference.position import Position

__all__ = [
    "CAPTURE",
    "HOME",
    "LAND",
    "Captured",
    "Event",
    "Finished",
    "Game",
    "GameResult",
    "Jumped",
    "Move",
    "MoveResult",
    "Moved",
    "OutsidePlayer",
    "OutsidePlayerError",
    "Plan",
    "PlayerDone",
    "PlayerView",
    "Position",
    "Puster",
    "Rolled",
    "SentHome",
    "Skipped",
    "all_plans",
    "best_plans",
    "forced",
    "legal_moves",
    "legal_options",
    "pieces_at_risk",
    "play_game",
    "play_move",
    "play_plan",
    "resolve_landing",
    "single_roll_options",
    "try_move",
]
