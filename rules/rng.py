"""A tiny deterministic random-number generator whose whole state is one integer.

Why not :mod:`random`? Its state is 625 integers, which would bloat every stored snapshot,
and its algorithms for ``shuffle``/``randrange`` are not promised to stay the same across
Python versions. A match must replay identically from seed + moves for years, so the game
states carry this splitmix64 counter instead and every draw is defined here, once.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
#: _LIMITS[n]: the largest accepted draw of ``below(n)``, for the small ``n`` random
#: playouts ask for at every decision (three arithmetic operations on 64-bit numbers, a
#: tenth of a draw, become one tuple lookup; the values are the same).
_LIMITS = tuple(_MASK - (_MASK + 1) % n if n else 0 for n in range(1024))


class Rng:
    """splitmix64; ``state`` is a plain int that goes into the game state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int, salt: str = "") -> Rng:
        """Derive a generator from a match seed; ``salt`` separates independent streams."""
        h = seed & _MASK
        for ch in salt:
            h = ((h ^ ord(ch)) * 0x100000001B3) & _MASK
        rng = cls(h)
        rng.next64()
        return rng

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
        if n <= 1:
            if n == 1:  # one choice: the draw is 0, but the stream still takes its step
                self.state = (self.state + _GAMMA) & _MASK
                return 0
            raise ValueError("n must be positive")
        limit = _LIMITS[n] if n < 1024 else _MASK - (_MASK + 1) % n
        while True:
            # next64 inlined: this is the hottest call of every random playout
            self.state = z = (self.state + _GAMMA) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
