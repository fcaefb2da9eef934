"""Hand-worked deals for every variant: the totals a table would add up on paper."""

import pytest
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.scoring import line_keys, score_deal, shown_line_keys, shown_lines
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import all_variants, get_variant


def scored(variant_id: str, deal: int, *sides: SideEntry, stock_ran_out: bool = False):
    entry = DealEntry(get_variant(variant_id), deal, sides, stock_ran_out=stock_ran_out)
    assert validate_deal(entry).errors == ()
    return score_deal(entry)


def test_pagat_deal_adds_cards_books_red_threes_and_going_out():
    out, caught = PAGAT_OUT, PAGAT_CAUGHT
    first, second = scored("pagat", 1, out, caught)
    assert first.total == 1210 + 1000 + 600 + 1500 + 200 + 100 - 15 == 4595
    assert first.breakdown == {
        "meld_points": 1210,
        "clean_books": 1000,
        "dirty_books": 600,
        "wild_books": 1500,
        "red_threes": 200,
        "going_out": 100,
        "cards_left": -15,
    }
    assert second.total == 600 + 500 + 300 + 100 - 100 - 120 == 1280


def test_gamerules_scores_like_pagat():
    side = SideEntry(
        meld_points=900,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        cards_left_points=20,
        went_out=True,
    )
    other = SideEntry(meld_points=150, cards_left_points=200)
    assert [s.total for s in scored("gamerules", 3, side, other)] == [
        900 + 1600 + 1500 + 100 - 20,
        -50,
    ]


def test_saskatchewan_needs_one_book_of_each_kind_to_go_out():
    side = SideEntry(
        meld_points=900,
        clean_books=1,
        dirty_books=1,
        wild_books=1,
        red_threes_down=1,
        cards_left_points=30,
        went_out=True,
    )
    other = SideEntry(meld_points=400, dirty_books=1, cards_left_points=60)
    first, second = scored("saskatchewan", 4, side, other)
    assert first.total == 900 + 500 + 300 + 1500 + 100 + 100 - 30 == 3370
    assert second.total == 400 + 300 - 60 == 640


def test_simpson_red_threes_still_held_cost_500_and_exact_22_pays_100():
    winner = SideEntry(meld_points=600, clean_books=1, dirty_books=1, went_out=True, exact_22=1)
    loser = SideEntry(meld_points=200, red_threes_held=1, cards_left_points=85)
    first, second = scored("simpson", 2, winner, loser)
    assert first.total == 600 + 300 + 100 + 100 + 100 == 1200
    assert first.breakdown["exact_22"] == 100
    assert second.total == 200 - 500 - 85 == -385
    assert "wild_books" not in first.breakdown


@pytest.mark.parametrize(
    ("variant_id", "total"), [("brouillette-low", 1065), ("brouillette-high", 1665)]
)
def test_brouillette_black_three_book_scores_its_bonus_less_its_cards(variant_id, total):
    # 500 points of cards melded, less seven black threes at -5 each
    side = SideEntry(
        meld_points=465, clean_books=1, dirty_books=1, black_three_books=1, went_out=True
    )
    other = SideEntry(meld_points=0, cards_left_points=55)
    # three players play with four decks: eight black threes, enough for one book
    first, second, _ = scored(variant_id, 1, side, other, other)
    assert first.total == total
    assert second.total == -55


@pytest.mark.parametrize(
    ("variant_id", "total"),
    [("brouillette-partners-low", 2655), ("brouillette-partners-high", 4255)],
)
def test_brouillette_partners_last_deal_needs_four_clean_and_four_dirty(variant_id, total):
    side = SideEntry(
        meld_points=2000,
        clean_books=4,
        dirty_books=4,
        red_threes_held=2,
        cards_left_points=45,
        went_out=True,
    )
    other = SideEntry(meld_points=500, clean_books=1, cards_left_points=90)
    first, _ = scored(variant_id, 4, side, other)
    assert first.total == total


def test_nobody_earns_the_going_out_bonus_when_the_stock_ran_out():
    a = SideEntry(meld_points=700, clean_books=2, cards_left_points=40)
    b = SideEntry(meld_points=350, dirty_books=1, cards_left_points=25)
    first, second = scored("pagat", 2, a, b, stock_ran_out=True)
    assert first.breakdown["going_out"] == 0
    assert (first.total, second.total) == (700 + 1000 - 40, 350 + 300 - 25)


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_breakdown_rows_follow_the_variant(variant):
    keys = line_keys(variant)
    assert ("wild_books" in keys) == variant.wild_books
    assert ("black_three_books" in keys) == variant.black_three_books
    assert ("exact_22" in keys) == (variant.exact_22_bonus is not None)
    assert keys[0] == "meld_points" and keys[-1] == "cards_left"


def test_red_threes_laid_down_and_held_are_lines_of_their_own_within_the_red_three_line():
    side = SideEntry(meld_points=300, clean_books=1, red_threes_down=1, red_threes_held=1)
    first, _ = score_deal(DealEntry(get_variant("pagat"), 1, (side, SideEntry())))

    [red] = [line for line in first.lines if line.key == "red_threes"]
    assert (red.count, red.points) == (2, 0)
    assert [(part.key, part.count, part.points) for part in red.shown()] == [
        ("red_threes_down", 1, 100),
        ("red_threes_held", 1, -100),
    ]
    assert first.breakdown["red_threes"] == 0
    shown = [line.key for line in shown_lines(first)]
    assert shown == list(shown_line_keys(get_variant("pagat")))
    assert shown[shown.index("red_threes_down") + 1] == "red_threes_held"
    assert "red_threes" not in shown


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.id)
def test_a_variant_survives_its_json_form(variant):
    import json

    from scorekeeper.rules.variants import variant_from_dict

    assert variant_from_dict(json.loads(json.dumps(variant.to_dict()))) == variant


def test_a_game_keeps_running_totals_and_names_the_winner():
    from scorekeeper.rules.game import score_game

    variant = get_variant("simpson")
    out = SideEntry(meld_points=600, clean_books=1, dirty_books=1, went_out=True)
    stuck = SideEntry(meld_points=200, cards_left_points=85)
    entries = [DealEntry(variant, n, (out, stuck) if n != 3 else (stuck, out)) for n in (2, 1, 3)]
    game = score_game(variant, ["Ann", "Bo"], entries)
    assert [d.number for d in game.deals] == [1, 2, 3]
    assert [d.running_totals for d in game.deals] == [(1100, 115), (2200, 230), (2315, 1330)]
    assert game.leaders == (0,) and game.winners == () and game.next_deal == 4
    final = score_game(variant, ["Ann", "Bo"], [*entries, DealEntry(variant, 4, (stuck, out))])
    assert final.finished and final.totals == (2430, 2430) and final.winners == (0, 1)
