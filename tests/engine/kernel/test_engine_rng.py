"""The compiled streams reproduce `ludosim.rules.streams` bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from ludosim.engine import rng as krng
from ludosim.engine.layout import detect_threshold
from ludosim.rules import streams as rng

MASK = (1 << 64) - 1
SEEDS = [0, 1, 2, 12345, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**63 + 1, MASK - 1, MASK]
GAMES = [0, 1, 7, 2**31, 2**40 + 3, 2**63 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_stream_key_and_mix_match_python(seed: int) -> None:
    assert int(krng.mix64(np.uint64(seed))) == rng.mix64(seed)
    for game in GAMES:
        assert int(krng.stream_key(np.uint64(seed), np.uint64(game))) == rng.stream_key(seed, game)


@pytest.mark.parametrize("seed", SEEDS)
def test_draws_match_python(seed: int) -> None:
    for game in (0, 3, 2**40 + 3):
        kernel = krng.new_stream(np.uint64(seed), np.uint64(game))
        python = rng.Stream(seed, game)
        for i in range(200):
            n = 1 + i % 11 if i % 3 else 2**32 - i
            assert krng.below(kernel, n) == python.below(n)
            assert krng.uniform(kernel) == python.uniform()
            assert krng.uniform_bits(kernel) == python.next64() >> 11
        assert int(kernel[1]) == python.draws


def test_many_pairs_match_python() -> None:
    generator = np.random.default_rng(20240611)
    for _ in range(300):
        seed = int(generator.integers(0, 2**63)) * 2 + int(generator.integers(0, 2))
        game = int(generator.integers(0, 2**62))
        kernel = krng.new_stream(np.uint64(seed), np.uint64(game))
        python = rng.Stream(seed, game)
        assert [krng.below(kernel, 6) for _ in range(5)] == [python.below(6) for _ in range(5)]


@pytest.mark.parametrize("p", [1e-9, 0.1, 0.25, 0.5, 1 / 3, 0.7, 0.999999])
def test_detect_threshold_equals_float_comparison(p: float) -> None:
    """`(x >> 11) < threshold` must decide exactly like the reference's `uniform() < p`."""
    threshold = detect_threshold(p)
    for bits in (threshold - 2, threshold - 1, threshold, threshold + 1):
        if 0 <= bits < 2**53:
            assert (bits < threshold) == (bits * (1.0 / (1 << 53)) < p)
    stream = rng.Stream(99, 0)
    for _ in range(1000):
        x = stream.next64()
        assert ((x >> 11) < threshold) == ((x >> 11) * (1.0 / (1 << 53)) < p)
