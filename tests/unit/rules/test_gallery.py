"""Ready-made rules: each published rule set of the gallery played over a whole game through
the rules core, against totals worked out by hand. Two sides of two players, five decks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.gallery import (
    BERTA,
    CHRISTOPHERSANZ,
    DEARIE,
    GALLERY,
    JCJ59_EAST_COAST,
    ROTH,
    TANGLEWOOD_VEGAS,
    TONATIHUAI,
    published,
)
from scorekeeper.rules.game import score_game
from scorekeeper.rules.house_rules import HouseRules, RulesSource
from scorekeeper.rules.scoring import score_deal
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
    assert entry.variant().deals == entry.changes.get("deals", BUILT_IN[entry.based_on].deals)
    assert entry.address.startswith("https://")
    assert published(entry.key) is entry


def test_an_entry_is_found_by_its_key_only():
    assert published("published-canasta-scorer-tonatihuai2026") is TONATIHUAI
    assert published("published-nothing") is None
    assert published(None) is None


def test_the_house_rules_of_an_entry_take_the_name_and_summary_given():
    rules = TONATIHUAI.house_rules(name="Nos règles", summary="Résumé.")

    assert rules == HouseRules(
        "Nos règles", "pagat", dict(TONATIHUAI.changes), "Résumé.", rules.slug, TONATIHUAI.source
    )
    assert rules.slug == TONATIHUAI.slug
    assert rules.source == RulesSource(
        "tonatihuai2026",
        "Hand and Foot Score Calculator (hand-and-foot-canasta-scorer)",
        "https://github.com/tonatihuai2026/hand-and-foot-canasta-scorer",
    )


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


# Christophersanz-cyber's score sheet: two teams of two, five decks; hand and foot of 11, 13,
# 15 and 17 cards (a perfect cut of 22, 26, 30, 34: 100 a player); first melds 90/120/150/180;
# going out 100/200/300/400 with n clean and n dirty books in deal n; clean 500, dirty 300, a
# book of sevens 1500 and of black threes 2000 (neither counts toward going out); no wild
# books; a red three is never laid down and costs 500 held; a melded black three is worth 5.
# The source's perfect draw is a yes or no for the team: each side here has one cut at most.
def test_the_hand_and_foot_score_rules_over_a_whole_game():
    variant = CHRISTOPHERSANZ.variant()
    deals = [
        (
            # 610 + 500 + 2 x 300 + 1500 + 100 + 100 - 15 = 3395
            SideEntry(610, 1, 2, special_books=1, exact_22=1, cards_left_points=15, went_out=True),
            # 340 + 500 - 500 - 85 = 255
            SideEntry(340, 1, red_threes_held=1, cards_left_points=85),
        ),
        (
            # 480 + 2 x 500 + 300 + 2000 - 2 x 500 - 120 = 2660
            SideEntry(480, 2, 1, black_three_books=1, red_threes_held=2, cards_left_points=120),
            # 905 + 2 x 500 + 3 x 300 + 200 + 100 - 20 = 3085
            SideEntry(905, 2, 3, exact_22=1, cards_left_points=20, went_out=True),
        ),
        (
            # 1120 + 3 x 500 + 3 x 300 + 1500 + 300 - 10 = 5310
            SideEntry(1120, 3, 3, special_books=1, cards_left_points=10, went_out=True),
            # 150 - 500 + 100 - 260 = -510
            SideEntry(150, red_threes_held=1, exact_22=1, cards_left_points=260),
        ),
        (
            # never melded: -2 x 500 - 415 = -1415
            SideEntry(0, red_threes_held=2, cards_left_points=415),
            # 1460 + 4 x 500 + 4 x 300 + 2000 + 400 + 100 - 25 = 7135
            SideEntry(
                1460, 4, 4, black_three_books=1, exact_22=1, cards_left_points=25, went_out=True
            ),
        ),
    ]

    per_deal, totals = play(variant, deals)

    assert per_deal == [[3395, 255], [2660, 3085], [5310, -510], [-1415, 7135]]
    assert totals == (9950, 9965)  # 3395 + 2660 + 5310 - 1415; 255 + 3085 - 510 + 7135
    assert variant.hand_sizes == variant.foot_sizes == (11, 13, 15, 17)


def test_the_hand_and_foot_score_rules_count_no_book_of_sevens_or_black_threes_to_go_out():
    # Deal 1 needs a clean book: the book of sevens and the black-three book are not one.
    out = SideEntry(
        610, 0, 1, black_three_books=1, special_books=1, cards_left_points=15, went_out=True
    )
    other = SideEntry(340, 1, cards_left_points=85)

    assert (0, "clean_books") in error_fields(CHRISTOPHERSANZ.variant(), 1, (out, other))
    assert (0, "clean_books") not in error_fields(
        CHRISTOPHERSANZ.variant(), 1, (replace(out, clean_books=1), other)
    )


# "Dearie's rules" (handandfootcalculator.com's default settings): pagat's scores (clean 500,
# dirty 300, wild 1500, red three laid down 100, going out 100) with a red three held -500, a
# book of sevens 1000 and a book of red threes 1700 (its seven threes at 100 and 1000 more);
# five deals, first melds 50/90/120/150 and in deal 5 a book instead of points; going out needs
# a wild book, a book of sevens, and three clean and two dirty books besides it.
def test_dearies_rules_over_a_whole_game():
    variant = DEARIE.variant()
    deals = [
        (
            # 1380 + 3 x 500 + 2 x 300 + 1500 + 1000 + 2 x 100 + 100 - 30 = 6250
            SideEntry(
                1380,
                3,
                2,
                1,
                special_books=1,
                red_threes_down=2,
                cards_left_points=30,
                went_out=True,
            ),
            # 520 + 500 + 300 + 100 - 500 - 140 = 780
            SideEntry(520, 1, 1, red_threes_down=1, red_threes_held=1, cards_left_points=140),
        ),
        (
            # no wild book, so no going out: 610 + 2 x 500 + 300 + 1000 - 95 = 2815
            SideEntry(610, 2, 1, special_books=1, cards_left_points=95),
            # 1510 + 4 x 500 + 2 x 300 + 1500 + 1000 + 100 + 100 - 45 = 6765
            SideEntry(
                1510,
                4,
                2,
                1,
                special_books=1,
                red_threes_down=1,
                cards_left_points=45,
                went_out=True,
            ),
        ),
        (
            # eight red threes laid down, seven of them a book:
            # 1240 + 3 x 500 + 3 x 300 + 1500 + 1000 + 1700 + 100 + 100 - 10 = 8030
            SideEntry(
                1240,
                3,
                3,
                1,
                special_books=1,
                red_three_books=1,
                red_threes_down=1,
                cards_left_points=10,
                went_out=True,
            ),
            # 125 - 2 x 500 - 310 = -1185
            SideEntry(125, red_threes_held=2, cards_left_points=310),
        ),
        (
            # 300 + 300 + 100 - 180 = 520
            SideEntry(300, 0, 1, red_threes_down=1, cards_left_points=180),
            # 1600 + 3 x 500 + 2 x 300 + 2 x 1500 + 1000 + 2 x 100 + 100 - 5 = 7995
            SideEntry(
                1600,
                3,
                2,
                2,
                special_books=1,
                red_threes_down=2,
                cards_left_points=5,
                went_out=True,
            ),
        ),
        (
            # 1450 + 3 x 500 + 2 x 300 + 1500 + 1000 + 100 + 100 - 20 = 6230
            SideEntry(
                1450,
                3,
                2,
                1,
                special_books=1,
                red_threes_down=1,
                cards_left_points=20,
                went_out=True,
            ),
            # deal 5 opens with a book, whatever its points: 45 + 500 - 500 - 230 = -185
            SideEntry(45, 1, red_threes_held=1, cards_left_points=230),
        ),
    ]

    per_deal, totals = play(variant, deals)

    assert per_deal == [[6250, 780], [2815, 6765], [8030, -1185], [520, 7995], [6230, -185]]
    # 6250 + 2815 + 8030 + 520 + 6230; 780 + 6765 - 1185 + 7995 - 185
    assert totals == (23845, 14170)


def test_dearies_rules_open_the_fifth_deal_with_a_book_only():
    out = SideEntry(
        1450, 3, 2, 1, special_books=1, red_threes_down=1, cards_left_points=20, went_out=True
    )
    no_book = SideEntry(200, red_threes_held=1, cards_left_points=230)

    assert (1, "meld_points") in error_fields(DEARIE.variant(), 5, (out, no_book))
    assert error_fields(DEARIE.variant(), 5, (out, SideEntry(45, 1, cards_left_points=230))) == []


def test_dearies_rules_go_out_with_a_book_of_sevens_beside_three_clean_books():
    out = SideEntry(1380, 3, 2, 1, cards_left_points=30, went_out=True)
    other = SideEntry(520, 1, 1, cards_left_points=140)
    sevens_for_a_clean = replace(out, clean_books=2, special_books=1)

    assert (0, "special_books") in error_fields(DEARIE.variant(), 1, (out, other))
    assert (0, "clean_books") in error_fields(DEARIE.variant(), 1, (sevens_for_a_clean, other))


# The Roth family rules (chan.dev): two teams, one deck per player, 22 cards cut (11 + 11, a
# perfect cut 100 a player); fours to nines 5, tens to kings 10, aces and twos 20, jokers 50,
# black threes 0, a red three -500; clean 500, dirty 300, no wild books, going out 100 with
# five clean and four dirty books; the first meld by the team's score: 50 from 0, 90 from
# 2500, 120 from 5000, 150 from 7500; a pickup of the discard pile given back costs 100. The
# game is played to 10,000: after deal 3 both teams are below it (9510, 6950), and B passes it
# in deal 4, which ends the game.
def test_the_roth_family_rules_over_a_whole_game():
    variant = ROTH.variant()
    deals = [
        (
            # 1150 + 5 x 500 + 4 x 300 + 100 + 2 x 100 - 15 = 5135
            SideEntry(1150, 5, 4, exact_22=2, cards_left_points=15, went_out=True),
            # 400 + 2 x 500 + 300 - 500 + 100 - 60 = 1240
            SideEntry(400, 2, 1, red_threes_held=1, exact_22=1, cards_left_points=60),
        ),
        (
            # at 5135, a first meld of 120: 125 - 210 = -85
            SideEntry(125, cards_left_points=210),
            # 1230 + 6 x 500 + 4 x 300 + 100 - 25 = 5505
            SideEntry(1230, 6, 4, cards_left_points=25, went_out=True),
        ),
        (
            # 700 + 5 x 500 + 4 x 300 + 100 - 40 = 4460
            SideEntry(700, 5, 4, cards_left_points=40, went_out=True),
            # with a pickup given back: 300 + 500 - 500 + 100 - 100 - 95 = 205
            SideEntry(
                300, 1, red_threes_held=1, exact_22=1, cards_left_points=95, failed_pickups=1
            ),
        ),
        (
            # at 9510, a first meld of 150: 160 - 500 - 85 = -425
            SideEntry(160, red_threes_held=1, cards_left_points=85),
            # 1105 + 5 x 500 + 4 x 300 + 100 + 2 x 100 - 20 = 5085
            SideEntry(1105, 5, 4, exact_22=2, cards_left_points=20, went_out=True),
        ),
    ]
    running = (0, 0)
    for number, sides in enumerate(deals, start=1):
        entry = DealEntry(variant, number, sides, running_scores=running)
        assert validate_deal(entry).errors == (), number
        running = tuple(
            total + score.total for total, score in zip(running, score_deal(entry), strict=True)
        )

    per_deal, totals = play(variant, deals)

    assert per_deal == [[5135, 1240], [-85, 5505], [4460, 205], [-425, 5085]]
    assert totals == running == (9085, 12035)  # 5135 - 85 + 4460 - 425; 1240 + 5505 + 205 + 5085
    game = score_game(
        variant, ("A", "B"), [DealEntry(variant, n, d) for n, d in enumerate(deals, 1)]
    )
    assert (game.ended_after, game.ended_at_target, game.winners) == (4, True, (1,))


def test_the_roth_family_rules_set_the_first_meld_by_the_teams_score():
    variant = ROTH.variant()
    low = SideEntry(145, red_threes_held=1, cards_left_points=85)
    out = SideEntry(1105, 5, 4, exact_22=2, cards_left_points=20, went_out=True)

    def refused(scores: tuple[int, int]) -> list:
        entry = DealEntry(variant, 4, (low, out), running_scores=scores)
        return [(p.side, p.field) for p in validate_deal(entry).errors]

    assert refused((9510, 7050)) == [(0, "meld_points")]  # 150 from 7500
    assert refused((7495, 7050)) == []  # 120 from 5000


def test_the_roth_family_rules_go_out_with_five_clean_and_four_dirty_books():
    out = SideEntry(1150, 4, 5, exact_22=2, cards_left_points=15, went_out=True)
    other = SideEntry(400, 2, 1, red_threes_held=1, exact_22=1, cards_left_points=60)

    assert (0, "clean_books") in error_fields(ROTH.variant(), 1, (out, other))
    assert (
        error_fields(ROTH.variant(), 1, (replace(out, clean_books=5, dirty_books=4), other)) == []
    )


def test_the_roth_family_rules_price_black_threes_at_nothing_and_nines_at_five():
    points = ROTH.variant().card_points

    assert (points.black_three, points.nine, points.eight, points.low, points.high) == (
        0,
        5,
        5,
        5,
        10,
    )


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


# Tanglewood's Vegas Version: 11 + 11 cards cut (an exact 22 earns 100), first melds
# 90/120/150/180, three clean and three dirty books to go out in deals 1 and 2, four and four in
# deal 3, five and five in deal 4, no wild book, a red three held -500 and a black three held
# 300 against (counted in the cards left); clean 500, dirty 300, a red three laid down 100 and
# going out 100 as pagat.
def test_the_vegas_rules_over_a_whole_game():
    deals = [
        (
            # 1050 + 3 x 500 + 3 x 300 + 100 + 100 - 15 = 3635
            SideEntry(1050, 3, 3, exact_22=1, cards_left_points=15, went_out=True),
            # a black three held among the cards left (300 + 55):
            # 420 + 500 + 300 - 500 - 355 = 365
            SideEntry(420, 1, 1, red_threes_held=1, cards_left_points=355),
        ),
        (
            # two black threes held (600 + 40): 130 + 500 + 100 - 640 = 90
            SideEntry(130, 1, red_threes_down=1, cards_left_points=640),
            # 1210 + 3 x 500 + 4 x 300 + 100 + 2 x 100 - 20 = 4190
            SideEntry(1210, 3, 4, exact_22=2, cards_left_points=20, went_out=True),
        ),
        (
            # 1480 + 4 x 500 + 4 x 300 + 2 x 100 + 100 - 25 = 4955
            SideEntry(1480, 4, 4, red_threes_down=2, cards_left_points=25, went_out=True),
            # 600 + 2 x 500 + 3 x 300 - 500 + 100 - 330 = 1770
            SideEntry(600, 2, 3, red_threes_held=1, exact_22=1, cards_left_points=330),
        ),
        (
            # never melded: -2 x 500 - 720 = -1720
            SideEntry(0, red_threes_held=2, cards_left_points=720),
            # 1890 + 5 x 500 + 5 x 300 + 100 + 100 - 10 = 6080
            SideEntry(1890, 5, 5, red_threes_down=1, cards_left_points=10, went_out=True),
        ),
    ]

    per_deal, totals = play(TANGLEWOOD_VEGAS.variant(), deals)

    assert per_deal == [[3635, 365], [90, 4190], [4955, 1770], [-1720, 6080]]
    assert totals == (6960, 12405)  # 3635 + 90 + 4955 - 1720; 365 + 4190 + 1770 + 6080


def test_the_vegas_rules_go_out_with_four_clean_and_four_dirty_books_in_deal_3():
    out = SideEntry(1480, 3, 4, cards_left_points=25, went_out=True)
    other = SideEntry(600, 2, 3, cards_left_points=330)
    variant = TANGLEWOOD_VEGAS.variant()

    assert (0, "clean_books") in error_fields(variant, 3, (out, other))
    assert error_fields(variant, 3, (replace(out, clean_books=4), other)) == []


def test_the_vegas_rules_open_deal_4_with_180():
    low = SideEntry(175, cards_left_points=60)
    out = SideEntry(1890, 5, 5, cards_left_points=10, went_out=True)
    variant = TANGLEWOOD_VEGAS.variant()

    assert error_fields(variant, 4, (low, out)) == [(0, "meld_points")]
    assert error_fields(variant, 4, (replace(low, meld_points=180), out)) == []


def test_the_vegas_rules_draw_and_take_more_cards_as_the_deals_go_on():
    variant = TANGLEWOOD_VEGAS.variant()

    assert [variant.draw_count_for(deal) for deal in range(1, 5)] == [3, 3, 4, 5]
    assert [variant.pile_take_for(deal) for deal in range(1, 5)] == [3, 3, 4, 5]
    assert variant.going_out_by_melding_only
    assert (variant.hand_size, variant.foot_size, variant.cut_for_packets) == (11, 11, True)
    assert (variant.card_points.black_three, variant.red_three.held) == (300, -500)
    assert variant.book_bonus.wild is None


def test_failed_pickups_are_refused_where_the_rules_cost_nothing_for_one():
    out = SideEntry(1105, 5, 4, cards_left_points=20, went_out=True)
    slipped = SideEntry(300, 1, cards_left_points=95, failed_pickups=51)
    given_back = SideEntry(300, 1, cards_left_points=95, failed_pickups=2)
    pagat = BUILT_IN["pagat"]

    under_pagat = validate_deal(
        DealEntry(
            pagat, 1, (SideEntry(900, 5, 4, 1, cards_left_points=5, went_out=True), given_back)
        )
    )
    under_roth = validate_deal(DealEntry(ROTH.variant(), 1, (out, slipped)))

    assert [(p.side, p.field, p.message) for p in under_pagat.errors] == [
        (
            1,
            "failed_pickups",
            "Side 2: Partnership (pagat.com) has no penalty for a failed pickup of the "
            "discard pile.",
        )
    ]
    assert [(p.side, p.field, p.message) for p in under_roth.errors] == [
        (1, "failed_pickups", "Side 2: 51 failed pickups in one deal is more than any table sees.")
    ]
