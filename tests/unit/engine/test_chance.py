"""The engine's own random draws are CPython's: a seed deals and plays the same with the
compiled engine as with the plain Python one, and as `random.Random` would."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine.cards import deck_faces, shuffled_shoe
from scorekeeper.engine.chance import below, shuffle
from scorekeeper.rules.decks import STANDARD


@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_below_draws_the_numbers_randrange_draws(seed: int) -> None:
    sizes = [1, 2, 3, 5, 8, 13, 64, 100, 255, 256, 257, 1000, 1023, 1024, 1025, 4097]
    ours, theirs = random.Random(seed), random.Random(seed)

    drawn = [below(ours.getrandbits, size) for size in sizes * 20]

    assert drawn == [theirs.randrange(size) for size in sizes * 20]
    assert ours.random() == theirs.random(), "the generator is left where randrange leaves it"


@pytest.mark.parametrize("seed", [0, 7, 2026])
@pytest.mark.parametrize("size", [0, 1, 2, 54, 270, 324])
def test_shuffle_leaves_the_order_random_shuffle_leaves(seed: int, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))

    shuffle(ours, random.Random(seed))
    random.Random(seed).shuffle(theirs)

    assert ours == theirs


def test_a_shuffled_shoe_draws_as_many_numbers_as_random_shuffle() -> None:
    """The generator is left where `Random.shuffle` leaves it, so the deal's later draws
    (a frozen pile shuffled back, a random bot's picks) come out the same too."""
    ours, theirs = random.Random(11), random.Random(11)

    shoe = shuffled_shoe(5, ours)
    faces = deck_faces(STANDARD, 5)
    theirs.shuffle(faces)

    assert shoe == faces
    assert ours.random() == theirs.random()
