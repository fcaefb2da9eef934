"""The decks a table may choose: what each holds, and validation counting against those cards."""

from dataclasses import replace

import pytest

from scorekeeper.rules.book_supply import Short, book_shortages
from scorekeeper.rules.cards import CardKind, CardPoints
from scorekeeper.rules.decks import HANDNFOOT, STANDARD
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.validation import least_book_points, validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variants import PAGAT, Table, WildLimit

ONE_PACK = Table(2, 4, 1)
HNF = PAGAT.with_changes(id="house-hnf", deck="handnfoot", tables=(ONE_PACK,))


def _kinds(deck, kind):
    return [card for card in deck.cards if card.kind is kind]


def test_a_handnfoot_pack_holds_the_262_cards_the_maker_lists():
    numbered = [card for card in HANDNFOOT.naturals if card.symbol.isdigit()]
    (lord,) = [card for card in HANDNFOOT.naturals if not card.symbol.isdigit()]

    assert HANDNFOOT.size == 262
    assert [card.symbol for card in numbered] == [str(n) for n in range(12, 0, -1)]
    assert {card.per_deck for card in numbered} == {16}
    assert (lord.name, lord.kind, lord.per_deck) == ("lord", CardKind.ACE, 20)
    assert [(c.name, c.per_deck, c.points) for c in HANDNFOOT.wilds] == [
        ("jester", 20, 25),
        ("joker", 10, None),
    ]
    assert (HANDNFOOT.black_three.name, HANDNFOOT.black_three.per_deck) == ("villain", 10)
    assert (HANDNFOOT.red_three.name, HANDNFOOT.red_three.per_deck) == ("lady", 10)
    assert HANDNFOOT.stands_for == 5


def test_numbered_cards_score_as_high_and_low_cards_by_default_and_say_so():
    points = CardPoints()
    worth = {card.symbol: card.points_in(points) for card in HANDNFOOT.naturals}

    assert worth == {
        "LD": 20,
        **{str(n): 10 for n in range(7, 13)},
        **{str(n): 5 for n in range(1, 7)},
    }
    assert HANDNFOOT.inferred and "7 to 12" in HANDNFOOT.inferred[0]


def test_the_standard_deck_is_the_54_cards_of_the_rules_core():
    supply = STANDARD.supply(5)

    assert (STANDARD.size, supply.wilds, supply.red_threes, supply.black_threes) == (54, 30, 10, 10)
    assert (supply.naturals, supply.most_clean_books) == (220, 22)
    assert supply.total_points(CardPoints()) == 5 * 590


def test_a_pack_holds_as_many_wilds_and_threes_as_five_decks_but_more_naturals():
    pack, decks = HANDNFOOT.supply(1), STANDARD.supply(5)

    assert (pack.wilds, pack.red_threes, pack.black_threes) == (30, 10, 10)
    assert (pack.naturals, pack.most_clean_books, pack.clean_books_per_rank) == (212, 26, (2,))
    assert pack.total_points(CardPoints()) == (
        20 * 20 + 6 * 16 * 10 + 6 * 16 * 5 + 20 * 25 + 10 * 50 + 10 * 5
    )
    assert decks.naturals == 220


def _deal(variant, *sides):
    return DealEntry(variant, 1, tuple(sides))


def _clean_book_errors(report):
    return [p.message for p in report.errors if p.field == "clean_books"]


def test_a_pack_allows_two_clean_books_of_each_of_its_thirteen_ranks_and_refuses_more():
    allowed = SideEntry(meld_points=26 * 35, clean_books=26, cards_left_points=20)
    too_many = replace(allowed, clean_books=27, meld_points=27 * 35)

    assert (
        _clean_book_errors(validate_deal(_deal(HNF, allowed, SideEntry(cards_left_points=20))))
        == []
    )
    assert _clean_book_errors(
        validate_deal(_deal(HNF, too_many, SideEntry(cards_left_points=20)))
    ) == [
        "Together, the sides have 27 clean books (Side 1 27, Side 2 0), but 1 decks allow at "
        "most 26 (2 of each rank)."
    ]


def test_five_standard_decks_allow_two_clean_books_of_each_of_eleven_ranks():
    variant = PAGAT.with_changes(tables=(Table(2, 4, 5),))
    too_many = SideEntry(meld_points=23 * 35, clean_books=23, cards_left_points=20)

    assert _clean_book_errors(
        validate_deal(_deal(variant, too_many, SideEntry(cards_left_points=20)))
    ) == [
        "Together, the sides have 23 clean books (Side 1 23, Side 2 0), but 5 decks allow at "
        "most 22 (2 of each rank)."
    ]


def test_a_wild_book_of_a_pack_is_worth_at_least_seven_jesters():
    side = SideEntry(wild_books=1)

    assert least_book_points(HNF, ONE_PACK, side) == 7 * 25
    assert least_book_points(PAGAT, Table(2, 4, 5), side) == 7 * 20


@pytest.mark.parametrize(
    ("books", "short", "needed", "most"),
    [
        ((0, 0, 5), Short.WILDS_FOR_WILD_BOOKS, 35, 30),
        ((0, 3, 4), Short.WILDS_FOR_DIRTY_BOOKS, 31, 30),
        ((23, 0, 0), Short.CLEAN_BOOKS, 23, 22),
        ((22, 14, 0), Short.NATURALS, 22 * 7 + 14 * 5, 220),
    ],
)
def test_the_one_book_supply_check_names_what_runs_short(books, short, needed, most):
    clean, dirty, wild = books

    (shortage,) = book_shortages(STANDARD.supply(5), WildLimit(2, 0), clean, dirty, wild)

    assert (shortage.short, shortage.needed, shortage.most) == (short, needed, most)


def test_books_the_cards_allow_have_no_shortage():
    assert book_shortages(HANDNFOOT.supply(1), WildLimit(2, 0), 26, 0, 4) == []


def test_house_rules_refuse_going_out_books_a_pack_cannot_make():
    variant = HNF.with_changes(going_out=tuple(replace(b, wild=5) for b in PAGAT.going_out))

    messages = [p.message for p in validate_variant(variant)]

    assert any("5 wild books need 35 wild cards" in m and "hold only 30" in m for m in messages)


def test_house_rules_count_a_pack_as_262_cards_when_dealing():
    crowded = HNF.with_changes(tables=(Table(2, 12, 1),))

    messages = [p.message for p in validate_variant(crowded)]

    assert any(
        "takes 312 cards, which leaves no stock from 1 × 262 = 262 cards" in m for m in messages
    )
    assert not [p for p in validate_variant(HNF) if p.field == "tables"]
