"""Random draws made in compiled code exactly as CPython's `random.Random` makes them.

The engine is compiled (see `native`), and a call back into the interpreter for each random
number would cost more than the draw. These functions draw the same bits in the same order
as `Random.randrange(count)` and `Random.shuffle(items)`, so a seed plays the same deal with
either engine.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, count: int) -> int:
    """`rng.randrange(count)`: the fewest random bits that hold `count`, drawn again until
    they are below it."""
    bits = count.bit_length()
    found: int = rng.getrandbits(bits)
    while found >= count:
        found = rng.getrandbits(bits)
    return found


def shuffle(items: list[T], rng: random.Random) -> None:
    """`rng.shuffle(items)`: each place from the last down swaps with one at or before it."""
    for index in range(len(items) - 1, 0, -1):
        other = below(rng, index + 1)
        items[index], items[other] = items[other], items[index]
