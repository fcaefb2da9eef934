"""Ready-made rules: each published rule set of the gallery played over a whole game through
the rules core, against totals worked out by hand. Two sides of two players, five decks."""

from __future__ import annotations

import pytest

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.gallery import BERTA, GALLERY, JCJ59_EAST_COAST, TONATIHUAI, published
from scorekeeper.rules.game import score_game
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import BUILT_IN, Variant


def play(variant: Variant, deals: list[tuple[SideEntry, SideEntry]]) -> tuple[list, tuple]:
    """Each deal's totals and the game's; every deal must be accepted."""
    entries = [DealEntry(variant, n, sides) for n, sides in enumerate(deals, start=1)]
    for entry in entries:
        assert validate_deal(entry).errors == (), entry.deal
    game = score_game(variant, ("A", "B"), entries)
    assert game.finished
    per_deal = [[score.total for score in deal.scores] for deal in game.deals]
    return per_deal, game.totals


def error_fields(variant: Variant, number: int, sides: tuple[SideEntry, ...]) -> list:
    return [(p.side, p.field) for p in validate_deal(DealEntry(variant, number, sides)).errors]


@pytest.mark.parametrize("entry", GALLERY, ids=lambda entry: entry.slug)
def test_each_entry_makes_house_rules_a_table_can_play(entry):
    rules = entry.house_rules()

    assert rules.problems() == []
    assert rules.id == "house-" + entry.slug
    assert entry.variant().deals == BUILT_IN[entry.based_on].deals
    assert entry.address.startswith("https://")
    assert published(entry.key) is entry


def test_an_entry_is_found_by_its_key_only():
    assert published("published-canasta-scorer-tonatihuai2026") is TONATIHUAI
    assert published("published-nothing") is None
    assert published(None) is None


def test_the_house_rules_of_an_entry_take_the_name_and_summary_given():
    rules = TONATIHUAI.house_rules(name="Nos règles", summary="Résumé.")

    assert rules == HouseRules(
        "Nos règles", "pagat", dict(TONATIHUAI.changes), "Résumé.", rules.slug
    )
    assert rules.slug == TONATIHUAI.slug


# tonatihuai2026's calculator: a red three laid down 100 (50 for a side that did not go out),
# one held -500, no wild books, no book needed to go out; the rest as pagat (clean 500, dirty
# 300, going out 100, first melds 50/90/120/150).
def test_the_canasta_scorer_rules_over_a_whole_game():
    variant = TONATIHUAI.variant()
    deals = [
        (
            # 1250 + 2 x 500 + 300 + 2 x 100 + 100 - 35 = 2815
            SideEntry(1250, 2, 1, red_threes_down=2, cards_left_points=35, went_out=True),
            # 640 + 500 + 1 x 50 - 1 x 500 - 145 = 545
            SideEntry(640, 1, red_threes_down=1, red_threes_held=1, cards_left_points=145),
        ),
        (
            # 900 + 500 + 300 + 3 x 50 - 60 = 1790
            SideEntry(900, 1, 1, red_threes_down=3, cards_left_points=60),
            # out without a single book: 430 + 100 - 5 = 525
            SideEntry(430, cards_left_points=5, went_out=True),
        ),
        (
            # 1500 + 3 x 500 + 2 x 300 + 100 + 100 - 20 = 3780
            SideEntry(1500, 3, 2, red_threes_down=1, cards_left_points=20, went_out=True),
            # 720 + 500 + 300 - 2 x 500 - 230 = 290
            SideEntry(720, 1, 1, red_threes_held=2, cards_left_points=230),
        ),
        (
            # 350 + 50 - 85 = 315
            SideEntry(350, red_threes_down=1, cards_left_points=85),
            # 1100 + 2 x 500 + 2 x 300 + 2 x 100 + 100 - 10 = 2990
            SideEntry(1100, 2, 2, red_threes_down=2, cards_left_points=10, went_out=True),
        ),
    ]

    per_deal, totals = play(variant, deals)

    assert per_deal == [[2815, 545], [1790, 525], [3780, 290], [315, 2990]]
    assert totals == (8700, 4350)  # 2815 + 1790 + 3780 + 315; 545 + 525 + 290 + 2990


def test_the_canasta_scorer_rules_have_no_wild_book():
    out = SideEntry(1250, 2, 1, wild_books=1, cards_left_points=35, went_out=True)
    other = SideEntry(640, 1, cards_left_points=145)

    assert (0, "wild_books") in error_fields(TONATIHUAI.variant(), 1, (out, other))


# Michelle Berta's score keeper: pagat's scores (clean 500, dirty 300, wild 1500, red three
# 100, going out 100; two clean, two dirty and one wild book to go out), a first meld of 50 in
# every deal, and a meld's second wild card only beside five natural cards.
def test_the_score_keeper_rules_over_a_whole_game():
    variant = BERTA.variant()
    deals = [
        (
            # 1400 + 2 x 500 + 2 x 300 + 1500 + 100 + 100 - 25 = 4675
            SideEntry(1400, 2, 2, 1, red_threes_down=1, cards_left_points=25, went_out=True),
            # 60 + 100 - 310 = -150
            SideEntry(60, red_threes_down=1, cards_left_points=310),
        ),
        (
            # 540 + 500 + 300 + 100 - 100 - 95 = 1245
            SideEntry(540, 1, 1, red_threes_down=1, red_threes_held=1, cards_left_points=95),
            # 1320 + 2 x 500 + 2 x 300 + 1500 + 2 x 100 + 100 - 40 = 4680
            SideEntry(1320, 2, 2, 1, red_threes_down=2, cards_left_points=40, went_out=True),
        ),
        (
            # 1610 + 3 x 500 + 2 x 300 + 1500 + 100 - 15 = 5295
            SideEntry(1610, 3, 2, 1, cards_left_points=15, went_out=True),
            # a first meld of 55 in deal 3: 55 + 2 x 100 - 180 = 75
            SideEntry(55, red_threes_down=2, cards_left_points=180),
        ),
        (
            # 70 + 100 - 260 = -90
            SideEntry(70, red_threes_down=1, cards_left_points=260),
            # 1380 + 2 x 500 + 3 x 300 + 1500 + 100 + 100 - 30 = 4950
            SideEntry(1380, 2, 3, 1, red_threes_down=1, cards_left_points=30, went_out=True),
        ),
    ]

    per_deal, totals = play(variant, deals)

    assert per_deal == [[4675, -150], [1245, 4680], [5295, 75], [-90, 4950]]
    assert totals == (11125, 9555)  # 4675 + 1245 + 5295 - 90; -150 + 4680 + 75 + 4950


def test_the_score_keeper_rules_open_deal_3_with_50_where_pagat_needs_120():
    out = SideEntry(1610, 3, 2, 1, cards_left_points=15, went_out=True)
    low = SideEntry(55, red_threes_down=2, cards_left_points=180)

    assert error_fields(BERTA.variant(), 3, (out, low)) == []
    assert (1, "meld_points") in error_fields(BUILT_IN["pagat"], 3, (out, low))


def test_the_score_keeper_rules_still_need_the_wild_book_to_go_out():
    out = SideEntry(1400, 2, 2, red_threes_down=1, cards_left_points=25, went_out=True)
    other = SideEntry(60, red_threes_down=1, cards_left_points=310)

    assert error_fields(BERTA.variant(), 1, (out, other))


# jcj59's East Coast preset: hands and feet of 14, first melds 60/90/120/150 (waived for a
# first meld that lays down a whole hand), one clean and two dirty books to go out, no wild
# book, aces 15, nines and eights 5, a red three held -500; clean 500, dirty 300, a red three
# laid down 100 and going out 100 as pagat.
EAST_COAST_DEALS = [
    (
        # 820 + 500 + 2 x 300 + 100 + 100 - 30 = 2090
        SideEntry(820, 1, 2, red_threes_down=1, cards_left_points=30, went_out=True),
        # 410 + 500 - 500 - 95 = 315
        SideEntry(410, 1, red_threes_held=1, cards_left_points=95),
    ),
    (
        # 960 + 2 x 500 + 2 x 300 + 100 - 15 = 2645
        SideEntry(960, 2, 2, cards_left_points=15, went_out=True),
        # a whole hand of fifteen low cards laid down as the first meld, 75 below deal 2's
        # 90: 75 + 2 x 100 - 160 = 115
        SideEntry(75, red_threes_down=2, cards_left_points=160),
    ),
    (
        # 1120 + 500 + 3 x 300 + 100 - 45 = 2575
        SideEntry(1120, 1, 3, red_threes_down=1, cards_left_points=45),
        # 1340 + 2 x 500 + 2 x 300 + 100 - 20 = 3020
        SideEntry(1340, 2, 2, cards_left_points=20, went_out=True),
    ),
    (
        # 600 + 300 - 2 x 500 - 125 = -225
        SideEntry(600, 0, 1, red_threes_held=2, cards_left_points=125),
        # 1510 + 500 + 3 x 300 + 2 x 100 + 100 - 10 = 3200
        SideEntry(1510, 1, 3, red_threes_down=2, cards_left_points=10, went_out=True),
    ),
]


def test_the_east_coast_rules_over_a_whole_game():
    per_deal, totals = play(JCJ59_EAST_COAST.variant(), EAST_COAST_DEALS)

    assert per_deal == [[2090, 315], [2645, 115], [2575, 3020], [-225, 3200]]
    assert totals == (7085, 6650)  # 2090 + 2645 + 2575 - 225; 315 + 115 + 3020 + 3200


def test_the_east_coast_rules_go_out_with_one_clean_and_two_dirty_books():
    out, other = EAST_COAST_DEALS[0]

    assert error_fields(JCJ59_EAST_COAST.variant(), 1, (out, other)) == []
    assert (0, "wild_books") in error_fields(BUILT_IN["pagat"], 1, (out, other))


def test_the_east_coast_rules_accept_a_first_meld_below_the_minimum():
    out, low = EAST_COAST_DEALS[1]

    assert error_fields(JCJ59_EAST_COAST.variant(), 2, (out, low)) == []
    without = HouseRules(
        "no waiver", "pagat", {**JCJ59_EAST_COAST.changes, "first_meld_waived_to_empty_hand": False}
    ).checked_variant()
    assert (1, "meld_points") in error_fields(without, 2, (out, low))


def test_the_east_coast_rules_refuse_less_than_the_cheapest_whole_hand():
    out, _ = EAST_COAST_DEALS[1]
    # a hand of 14 dealt and one card drawn beyond, at 5 points each: at least 75
    low = SideEntry(70, red_threes_down=2, cards_left_points=160)

    problems = validate_deal(DealEntry(JCJ59_EAST_COAST.variant(), 2, (out, low))).errors
    assert [(p.side, p.field) for p in problems] == [(1, "meld_points")]
    assert problems[0].message == (
        "Side 2: 70 melded card points is below even a first meld that lays down a whole hand in "
        "deal 2, which holds at least 75."
    )


def test_the_east_coast_rules_have_no_wild_book():
    out = SideEntry(820, 1, 2, 1, red_threes_down=1, cards_left_points=30, went_out=True)
    other = SideEntry(410, 1, red_threes_held=1, cards_left_points=95)

    assert (0, "wild_books") in error_fields(JCJ59_EAST_COAST.variant(), 1, (out, other))
