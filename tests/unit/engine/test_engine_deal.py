"""Cards, the shoe and the deal: packet sizes, stock piles, the first discard, the seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.engine import Card, Face, deck, new_deal, play_game, shoe, shuffled_shoe
from scorekeeper.engine.cards import (
    Suit,
    cards_held,
    cards_held_up_to,
    counts_of,
    deck_faces,
    describe,
    parse_faces,
)
from scorekeeper.engine.game import default_table
from scorekeeper.rules.decks import HANDNFOOT
from scorekeeper.rules.variants import Variant, all_variants, get_variant

PAGAT = get_variant("pagat")
SIMPSON = get_variant("simpson")


def test_a_deck_has_54_cards_with_two_red_and_two_black_threes() -> None:
    faces = Counter(card.face for card in deck())

    assert len(deck()) == 54
    assert faces[Face.RED_THREE] == 2 and faces[Face.BLACK_THREE] == 2
    assert faces[Face.TWO] == 4 and faces[Face.JOKER] == 2 and faces[Face.ACE] == 4


def test_threes_are_told_apart_by_colour() -> None:
    assert Card("3", Suit.HEARTS).face is Face.RED_THREE
    assert Card("3", Suit.DIAMONDS).face is Face.RED_THREE
    assert Card("3", Suit.SPADES).face is Face.BLACK_THREE
    assert str(Card("JK")) == "Joker" and str(Card("10", Suit.CLUBS)) == "10♣"


@pytest.mark.parametrize(
    ("text", "held"), [("", 0), ("K", 1), ("K K", 2), ("A K", 2), ("A K 10 4 2 JK", 2)]
)
def test_cards_are_counted_up_to_a_limit(text: str, held: int) -> None:
    counts = counts_of(parse_faces(text))

    assert cards_held_up_to(counts, 2) == held
    assert cards_held_up_to(counts, 10) == cards_held(counts) == len(text.split())


def test_each_deal_starts_from_a_deck_of_its_own() -> None:
    """The unshuffled deck is listed once and copied: one deal's shoe, shuffled in place,
    leaves the next deal's deck as it was."""
    first = deck_faces(HANDNFOOT, 2)
    in_order = list(first)
    first.reverse()

    assert deck_faces(HANDNFOOT, 2) == in_order
    assert Counter(in_order)[Face.JOKER] == 2 * HANDNFOOT.wilds[1].per_deck


def test_card_text_reads_back() -> None:
    text = "A K 10 4 2 JK B3 R3"

    assert describe(counts_of(parse_faces(text))) == text
    with pytest.raises(ValueError):
        parse_faces("A 3")


def test_the_shoe_holds_every_deck_and_a_seed_fixes_its_order() -> None:
    assert len(shoe(5)) == 270
    assert shuffled_shoe(5, random.Random(7)) == shuffled_shoe(5, random.Random(7))
    assert shuffled_shoe(5, random.Random(7)) != shuffled_shoe(5, random.Random(8))


def test_pagat_deals_hands_and_feet_of_thirteen_and_turns_one_card() -> None:
    state = new_deal(PAGAT, 1, default_table(PAGAT), random.Random(1))

    assert [sum(hand) for hand in state.hands] == [13] * 4
    assert [sum(foot or ()) for foot in state.feet] == [13] * 4
    assert len(state.pile) == 1 and state.stock_size == 270 - 8 * 13 - 1


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_every_variant_deals_its_packet_sizes(variant: Variant) -> None:
    table = default_table(variant)
    state = new_deal(variant, 1, table, random.Random(3))

    assert [sum(hand) for hand in state.hands] == [variant.hand_size] * table.players
    assert [sum(foot or ()) for foot in state.feet] == [variant.foot_size] * table.players
    assert len(state.stock) == variant.stock_piles
    assert state.card_counts() == counts_of(card.face for card in shoe(table.decks))


def test_the_first_discard_is_never_a_red_three_or_a_wild_card() -> None:
    turned = Counter(
        new_deal(PAGAT, 1, default_table(PAGAT), random.Random(seed)).pile[-1]
        for seed in range(300)
    )

    assert not turned[Face.RED_THREE] and not turned[Face.TWO] and not turned[Face.JOKER]


def test_simpsons_players_cut_about_22_and_exactly_22_now_and_then() -> None:
    table = default_table(SIMPSON)
    exact = [
        flag
        for seed in range(200)
        for flag in new_deal(SIMPSON, 1, table, random.Random(seed)).exact_22
    ]

    assert 0.1 < sum(exact) / len(exact) < 0.35
    assert not any(new_deal(PAGAT, 1, default_table(PAGAT), random.Random(1)).exact_22)


def test_the_deal_passes_to_the_left() -> None:
    table = default_table(PAGAT)
    starters = [new_deal(PAGAT, deal, table, random.Random(0)).current for deal in (1, 2, 3, 4)]

    assert starters == [1, 2, 3, 0]


def test_a_seed_replays_the_same_game_and_another_seed_another() -> None:
    first = play_game("pagat", 11).to_dict()

    assert play_game("pagat", 11).to_dict() == first
    assert play_game("pagat", 12).to_dict() != first


def test_tables_follow_the_variant() -> None:
    assert default_table(PAGAT).players == 4
    assert default_table(PAGAT, players=6).decks == 7
    assert default_table(SIMPSON, sides=3).decks == 4
    with pytest.raises(ValueError):
        default_table(PAGAT, players=7)
