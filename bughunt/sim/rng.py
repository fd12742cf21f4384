"""mulberry32, bit-for-bit as the seed script and the interactive demo's JavaScript.

The seed's figures depend on every draw, so the arithmetic here mirrors the seed line by line
(32-bit wrap-around after each multiply/add, division by 2**32 as a float).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

Rng = Callable[[], float]
"""A source of floats in [0, 1); each call is one draw."""

_MASK = 0xFFFFFFFF


def mulberry32(seed: int) -> Rng:
    """Return the seeded generator; each call advances the state by one draw."""
    a = seed & _MASK

    def rnd() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & _MASK
        t = ((a ^ (a >> 15)) * (a | 1)) & _MASK
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & _MASK)) & _MASK) ^ t
        return ((t ^ (t >> 14)) & _MASK) / 4294967296

    return rnd


def pick(rnd: Rng, items: Sequence[T]) -> T:
    """One draw, one item: `items[floor(rnd() * len(items))]` (the seed's `pick`)."""
    # int() equals math.floor for the non-negative products here, and is faster.
    return items[int(rnd() * len(items))]


def derive_seed(seed: int, run: int) -> int:
    """Seed of repetition `run` of a task seeded `seed`; run 0 keeps the task's own seed."""
    if run == 0:
        return seed & _MASK
    # Golden-ratio multiply spreads neighbouring (seed, run) pairs far apart in 32-bit space.
    return (seed * 0x9E3779B1 + run * 0x85EBCA6B) & _MASK
