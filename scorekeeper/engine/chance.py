"""Random draws made in compiled code exactly as CPython's `random.Random` makes them.

The engine is compiled (see `native`), and a call back into the interpreter for each random
number would cost more than the draw. These functions draw the same bits in the same order
as `Random.randrange(count)` and `Random.shuffle(items)`, so a seed plays the same deal with
either engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, TypeVar

T = TypeVar("T")


def below(draw: Callable[[int], int], count: int) -> int:
    """`rng.randrange(count)`, from the generator's `getrandbits` (`draw`): the fewest random
    bits that hold `count`, drawn again until they are below it. A caller that draws often
    takes the method once: calling it through its object looks it up each time, at several
    times the cost."""
    return _below_in_bits(draw, count, _bit_length(count))


def shuffle(items: list[T], rng: random.Random) -> None:
    """`rng.shuffle(items)`: each place from the last down swaps with one at or before it,
    drawn as `below` draws it. The generator's method is taken once, and the bits a count
    needs follow the counts down instead of being worked out for each."""
    draw = rng.getrandbits
    index = len(items) - 1
    bits = _bit_length(index + 1)
    while index > 0:
        count = index + 1
        if count < 1 << (bits - 1):
            bits -= 1
        other = _below_in_bits(draw, count, bits)
        items[index], items[other] = items[other], items[index]
        index -= 1


def _below_in_bits(draw: Callable[[int], int], count: int, bits: int) -> int:
    """A number below `count`, drawn `bits` (those that hold `count`) at a time until one is
    below it."""
    found = draw(bits)
    while found >= count:
        found = draw(bits)
    return found


_BIT_LENGTHS: Final = [count.bit_length() for count in range(1024)]
"""`bit_length` of the counts drawn below most often: read where the method call, or a loop
over the bits, would cost several times more."""


def _bit_length(count: int) -> int:
    """`count.bit_length()` for a count of cards or actions."""
    if 0 <= count < 1024:
        return _BIT_LENGTHS[count]
    bits = 10
    while count >> bits:
        bits += 1
    return bits
