"""Counter-based random streams shared by both engines.

Game `g` of a run with master seed `s` draws from a stream whose key depends
only on `(s, g)`; its `i`-th number is `mix64(key + i * GOLDEN)` (SplitMix64's
output function over a counter). Nothing depends on thread, chunk or backend,
and the compiled kernel (`ludosim.engine.rng`) reproduces it bit for bit.

Draw protocol (both engines consume numbers in exactly this order):

- `below(n)`: one number `x`, result `((x >> 32) * n) >> 32` (for n <= 2**32);
- a die roll is `below(6)`, an index into `rules.die_faces`;
- a choice among `k > 1` legal moves or plans is `below(k)`; with one option
  nothing is drawn;
- `uniform()`: one number `x`, result `(x >> 11) * 2**-53` in [0, 1).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """SplitMix64 finaliser: a bijection of 64-bit integers with good avalanche."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, game: int) -> int:
    """Key of the stream of game `game` under master seed `seed`."""
    return mix64((mix64(seed & MASK64) + (game & MASK64) * GOLDEN) & MASK64)


def normalise_seed(seed: int | None) -> int:
    """Seeds are integers in 0..2**64-1; `None` is refused: results must be reproducible."""
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
    return seed


class Stream:
    """The random stream of one game; `draws` counts numbers consumed so far."""

    __slots__ = ("draws", "key")

    def __init__(self, seed: int, game: int) -> None:
        self.key = stream_key(seed, game)
        self.draws = 0

    def next64(self) -> int:
        """The next raw 64-bit number."""
        self.draws += 1
        return mix64((self.key + self.draws * GOLDEN) & MASK64)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (multiply-shift; bias below n / 2**32)."""
        return ((self.next64() >> 32) * n) >> 32

    def uniform(self) -> float:
        """Uniform float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))


class ScriptedStream:
    """A stand-in for `Stream` that returns scripted numbers: for scenario tests.

    `below(n)` returns the next scripted integer (which must be < n); a die
    roll is therefore scripted as the index of the face in `rules.die_faces`
    (`faces_to_script` converts faces). `uniform()` returns the next scripted
    value as a float.
    """

    def __init__(self, values: list[int | float]) -> None:
        self.values = list(values)
        self.draws = 0

    def _next(self) -> int | float:
        if self.draws >= len(self.values):
            raise AssertionError(f"scripted stream exhausted after {self.draws} draws")
        value = self.values[self.draws]
        self.draws += 1
        return value

    def below(self, n: int) -> int:
        value = int(self._next())
        if not 0 <= value < n:
            raise AssertionError(f"scripted value {value} is not below {n}")
        return value

    def uniform(self) -> float:
        return float(self._next())

    def exhausted(self) -> bool:
        return self.draws == len(self.values)


def faces_to_script(die_faces: tuple[int | str, ...], faces: list[int | str]) -> list[int]:
    """Scripted `below(6)` values that roll `faces` on a die with `die_faces`."""
    return [die_faces.index(face) for face in faces]
