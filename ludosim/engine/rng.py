"""Compiled twin of `ludosim.rules.streams`: the same counter-based streams, bit for bit.

Every operand is `np.uint64`: numba promotes `uint64 op int64` to float64,
which would silently lose the low bits, so constants, shift counts and the
counter are all unsigned. A stream is a `uint64[2]` array `[key, draws]`
owned by the caller (one per game), so no state hides in a thread.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.rules.streams import GOLDEN, MIX1, MIX2

_GOLDEN = np.uint64(GOLDEN)
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)


@njit(cache=True, _nrt=False)
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser (wrapping uint64 arithmetic)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, _nrt=False)
def stream_key(seed: np.uint64, game: np.uint64) -> np.uint64:
    """Key of the stream of game `game` under master seed `seed`."""
    return mix64(mix64(np.uint64(seed)) + np.uint64(game) * _GOLDEN)


@njit(cache=True, _nrt=False)
def next64(stream: np.ndarray) -> np.uint64:
    """The next raw number of `stream` (`uint64[2]`: key, draws so far)."""
    draws = stream[1] + _ONE
    stream[1] = draws
    return mix64(stream[0] + draws * _GOLDEN)


@njit(cache=True, _nrt=False)
def below(stream: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) by multiply-shift, as `Stream.below`."""
    return np.int64(((next64(stream) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, _nrt=False)
def uniform_bits(stream: np.ndarray) -> np.int64:
    """The 53 random bits behind `uniform()`, as an integer (for exact comparisons)."""
    return np.int64(next64(stream) >> _S11)


@njit(cache=True, _nrt=False)
def uniform(stream: np.ndarray) -> float:
    """Uniform float in [0, 1) with 53 random bits, as `Stream.uniform`."""
    return np.float64(next64(stream) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def new_stream(seed: np.uint64, game: np.uint64) -> np.ndarray:
    """A fresh stream array for game `game` of seed `seed`."""
    stream = np.zeros(2, dtype=np.uint64)
    stream[0] = stream_key(seed, game)
    return stream
