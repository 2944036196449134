"""Playing games: many with the kernel, one with its transcript, from a position, timed.

- `simulate`: `ludosim.simulate`, per-game rows or a `Summary` from the compiled kernel;
- `play`: `ludosim.play`, one game of the reference engine with its transcript;
- `notation`: the position notation (`parse_position`, `format_position`);
- `replay`: the expert's kernel games replayed by the reference engine;
- `bench`: games per second of both engines.
"""
