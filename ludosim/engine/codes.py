"""Kernel codes of the choice toggles' values: `lay[R.<TOGGLE>]` holds one of these.

Generated from the toggle table (`ludosim.rules.toggles.TOGGLES`) by
`python -m ludosim.rules.gen_codes --write`; do not edit it by hand.
`tests/rules/test_toggles.py` fails when it is out of date.
"""

# sides: arms of the board (6 needed for 5-6 players)
SIDES_4 = 4
SIDES_6 = 6

# die: plain die or star-and-globe die
DIE_D6 = 0
DIE_STAR_GLOBE = 1

# first_player: who takes the first turn: highest roll, drawn at random, or seat 0
FIRST_PLAYER_ROLL_OFF = 0
FIRST_PLAYER_RANDOM = 1
FIRST_PLAYER_SEAT0 = 2

# start_attempts: rolls allowed to get an entering face with no piece in play
START_ATTEMPTS_1 = 1
START_ATTEMPTS_3 = 3

# bonus_on_six: when a 6 earns a bonus roll (the globe always does)
BONUS_ON_SIX_ALWAYS = 0
BONUS_ON_SIX_UNLESS_ENTERED = 1
BONUS_ON_SIX_NEVER = 2

# six_limit: the n-th consecutive 6 of a turn is forfeited and ends it (0 = no limit)
SIX_LIMIT_0 = 0
SIX_LIMIT_2 = 2
SIX_LIMIT_3 = 3
SIX_LIMIT_4 = 4
SIX_LIMIT_5 = 5
SIX_LIMIT_6 = 6

# bonus_stacking: bonus rolls a move earns: one per source (6, capture, finish), or one at most
BONUS_STACKING_STACK = 0
BONUS_STACKING_ONE = 1

# start_attempts_when: when the start tries apply: with no piece in play, or until a first piece
# entered
START_ATTEMPTS_WHEN_ALWAYS = 0
START_ATTEMPTS_WHEN_GAME_START = 1

# pass_opponents: which opponent pieces a piece may pass: all, singles (blocks stop), none
PASS_OPPONENTS_ALL = 0
PASS_OPPONENTS_SINGLES = 1
PASS_OPPONENTS_NONE = 2

# safe_landing: landing on a lone opponent on a safe square: share it, or the lander goes home
SAFE_LANDING_COEXIST = 0
SAFE_LANDING_LANDER_HOME = 1

# capture_rule: capture a lone opponent even if own pieces share the square, or only a lone piece
CAPTURE_RULE_LONE_OPPONENT = 0
CAPTURE_RULE_LONE_PIECE = 1

# block_landing: landing on two or more opponent pieces: share, lander goes home, capture them all,
# or not allowed
BLOCK_LANDING_COEXIST = 0
BLOCK_LANDING_LANDER_HOME = 1
BLOCK_LANDING_CAPTURE = 2
BLOCK_LANDING_FORBIDDEN = 3

# star_jump: a move ending on a star jumps to the next star; from the last: goal or next lap
STAR_JUMP_NONE = 0
STAR_JUMP_GOAL = 1
STAR_JUMP_NEXT_LAP = 2

# finish: reaching the goal: exact roll, bounce back, or bounce and go backwards all turn
FINISH_EXACT = 0
FINISH_BOUNCE = 1
FINISH_BOUNCE_ON = 2

# scoring: points at the end of the game: none, Megajogos', or a point per square advanced (steps)
SCORING_NONE = 0
SCORING_MEGAJOGOS = 1
SCORING_STEPS = 2

# home_unlock: when the home column opens: always, or only after the seat's first capture (a locked
# piece laps on)
HOME_UNLOCK_NONE = 0
HOME_UNLOCK_CAPTURE = 1
