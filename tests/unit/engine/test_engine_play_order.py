"""A turn's plays are legal or not whatever order they are listed in: the table they leave is
the same, so the rules read that table (the size and wild cards of each meld touched, and the
rule on melds of one rank), not the plays one by one."""

from __future__ import annotations

from itertools import permutations

from engine_helpers import meld, refused, table

from scorekeeper.engine import Face, Meld, Phase, Play, TakePile, apply, is_legal
from scorekeeper.engine.melds import TableMeld
from scorekeeper.rules.variants import get_variant

PAGAT = get_variant("pagat")
EIGHT, KING, FIVE = Face.EIGHT, Face.KING, Face.FIVE
OTHERS = ["5 6 7 9"] * 3


def eights_table(hand: str, eights_down: int, *, pile: str = "", phase: Phase = Phase.PLAY):
    return table(
        PAGAT,
        [hand, *OTHERS],
        melds={0: [meld("8", eights_down)]},
        pile=pile,
        phase=phase,
    )


def test_pagats_example_finishes_the_book_of_eights_and_starts_another_in_either_order() -> None:
    # Seed 000: an eight on top of the pile, five eights down, 8 8 8 2 in hand: the top eight
    # and one eight finish the book, two eights and the two start a new meld.
    finish = Play(EIGHT, 2, onto=0)
    start = Play(EIGHT, 2, twos=1)
    for plays in ((finish, start), (start, finish)):
        state = eights_table("8 8 8 2 5", 5, pile="9 8", phase=Phase.DRAW)

        apply(state, TakePile(plays))

        assert state.melds[0] == [TableMeld(EIGHT, 7), TableMeld(EIGHT, 2, 1)]
        assert state.hands[0][FIVE] == 1 and state.hands[0][Face.NINE] == 1


def test_pagats_example_is_refused_in_either_order_with_one_eight_too_few() -> None:
    # The seed's counter-example: with only 8 8 2 in hand the book is finished, but two
    # cards are left to start the new meld (the eights under the top cannot help).
    finish = Play(EIGHT, 2, onto=0)
    start = Play(EIGHT, 1, twos=1)
    for plays in ((finish, start), (start, finish)):
        state = eights_table("8 8 2 5", 5, pile="8 9 8", phase=Phase.DRAW)

        assert refused(state, TakePile(plays)) == "A new meld needs at least 3 cards."


def test_a_book_finished_and_a_meld_of_its_rank_started_in_one_meld_in_either_order() -> None:
    finish = Play(EIGHT, 1, onto=0)
    start = Play(EIGHT, 2, twos=1)
    for plays in ((finish, start), (start, finish)):
        state = eights_table("8 8 8 2 5", 6)

        apply(state, Meld(plays))

        assert state.melds[0] == [TableMeld(EIGHT, 7), TableMeld(EIGHT, 2, 1)]


def test_a_new_meld_beside_an_unfinished_one_of_its_rank_is_refused_in_either_order() -> None:
    grow = Play(EIGHT, 1, onto=0)
    start = Play(EIGHT, 2, twos=1)
    for plays in ((grow, start), (start, grow)):
        state = eights_table("8 8 8 2 5", 5)

        assert refused(state, Meld(plays)) == (
            "Your side already has an unfinished meld of eights: finish it as a book before "
            "starting another."
        )


def test_a_joker_and_a_king_added_to_k_k_k_2_in_either_order() -> None:
    joker = Play(KING, 0, jokers=1, onto=0)
    king = Play(KING, 1, onto=0)
    for plays in ((joker, king), (king, joker)):
        state = table(PAGAT, ["K JK 5 6", *OTHERS], melds={0: [meld("K", 3, 1)]})

        apply(state, Meld(plays))

        assert state.melds[0] == [TableMeld(KING, 4, 1, 1)]


def test_a_joker_and_a_two_added_to_k_k_k_2_are_too_many_wilds_in_either_order() -> None:
    joker = Play(KING, 0, jokers=1, onto=0)
    two = Play(KING, 0, twos=1, onto=0)
    for plays in ((joker, two), (two, joker)):
        state = table(PAGAT, ["2 JK 5 6", *OTHERS], melds={0: [meld("K", 3, 1)]})

        assert refused(state, Meld(plays)) == (
            "Too many wild cards: a meld must have at least twice as many natural cards as "
            "wild cards."
        )


def test_every_order_of_a_turns_plays_is_legal_alike() -> None:
    plays = (
        Play(EIGHT, 1, onto=0),
        Play(EIGHT, 2, twos=1),
        Play(KING, 0, jokers=1, onto=1),
        Play(KING, 1, onto=1),
        Play(Face.ACE, 3),
    )
    answers = set()
    for order in permutations(plays):
        state = table(
            PAGAT,
            ["8 8 8 2 K JK A A A 5 6", *OTHERS],
            melds={0: [meld("8", 6), meld("K", 3, 1)]},
        )
        answers.add(is_legal(state, Meld(order)))
        if is_legal(state, Meld(order)):
            apply(state, Meld(order))
            assert sorted(map(str, state.melds[0])) == sorted(
                map(
                    str,
                    [
                        TableMeld(EIGHT, 7),
                        TableMeld(KING, 4, 1, 1),
                        TableMeld(EIGHT, 2, 1),
                        TableMeld(Face.ACE, 3),
                    ],
                )
            )

    assert answers == {True}


def test_a_play_may_add_to_a_new_meld_listed_after_it() -> None:
    state = eights_table("8 8 8 8 5 6", 7)

    apply(state, Meld((Play(EIGHT, 1, onto=1), Play(EIGHT, 3))))

    assert state.melds[0] == [TableMeld(EIGHT, 7), TableMeld(EIGHT, 4)]
