"""A black-three book holds no wild card: it is one of the clean books needed to go out."""

from __future__ import annotations

from engine_helpers import meld, refused, table

from scorekeeper.engine import DealEnd, Face, Meld, Play, apply
from scorekeeper.rules.variants import get_variant

BROUILLETTE = get_variant("brouillette-low")
K = Face.KING


def test_a_black_three_book_counts_as_the_clean_book_to_go_out() -> None:
    books = {0: [meld("B3", 7), meld("Q", 6, 1)]}
    state = table(BROUILLETTE, ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds=books)

    apply(state, Meld((Play(K, 3),)))

    assert state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT


def test_an_unfinished_black_three_meld_is_no_book() -> None:
    books = {0: [meld("B3", 6), meld("Q", 6, 1)]}
    state = table(BROUILLETTE, ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds=books)

    message = refused(state, Meld((Play(K, 3),)))
    needs = "Going out in deal 1 needs 1 clean book and 1 dirty book; your side has 1 dirty book"
    assert needs in message
