"""One test per validation rule: the refusal names the side and the field, in plain words."""

from dataclasses import replace

import pytest
from sample_deals import PAGAT_OUT

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.messages import Severity
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import get_variant

OUT = PAGAT_OUT
IN = SideEntry(meld_points=600, clean_books=1, dirty_books=1, cards_left_points=120)


def problems(
    variant_id="pagat", deal=1, sides=(OUT, IN), players=None, stock_ran_out=False, names=None
):
    entry = DealEntry(get_variant(variant_id), deal, tuple(sides), players, stock_ran_out)
    return validate_deal(entry, names)


def only_error(report):
    assert len(report.errors) == 1, [p.message for p in report.errors]
    return report.errors[0]


def test_a_sound_deal_has_no_problems():
    assert problems().problems == ()


@pytest.mark.parametrize("deal", [0, 5, -1])
def test_deal_must_be_within_the_games_deals(deal):
    error = only_error(problems(deal=deal))
    assert (error.side, error.field) == (None, "deal")
    assert error.message == f"The deal must be a number from 1 to 4, not {deal}."


def test_number_of_sides_must_be_one_the_variant_allows():
    error = only_error(problems(sides=(OUT, IN, IN, IN, IN, IN, IN)))
    assert (error.side, error.field) == (None, "sides")
    assert error.message == "Partnership (pagat.com) is played by 2, 3, 4, 5 or 6 sides, not 7."


def test_players_must_fit_the_sides():
    error = only_error(problems(players=5))
    assert error.field == "players"
    assert (
        error.message
        == "Partnership (pagat.com) with 2 sides is played by 4, 6 or 2 players, not 5."
    )


@pytest.mark.parametrize(
    "field", ["meld_points", "clean_books", "red_threes_held", "cards_left_points", "exact_22"]
)
def test_numbers_cannot_be_negative(field):
    side = replace(IN, **{field: -5})
    error = problems(sides=(OUT, side)).errors[0]
    assert (error.side, error.field) == (1, field)
    assert "cannot be below 0 (entered -5)" in error.message
    assert error.message.startswith("Side 2:")


@pytest.mark.parametrize("field", ["meld_points", "cards_left_points"])
def test_card_points_are_multiples_of_five(field):
    error = only_error(problems(sides=(OUT, replace(IN, **{field: 603}))))
    assert (error.side, error.field) == (1, field)
    assert error.message.endswith("must be a multiple of 5, as every card is (entered 603).")


def test_side_names_appear_in_messages():
    error = only_error(
        problems(sides=(OUT, replace(IN, meld_points=601)), names=["Ann & Bo", "Cy & Di"])
    )
    assert error.message.startswith("Cy & Di: melded card points must be a multiple of 5")


def test_red_threes_are_limited_by_the_decks():
    lots = SideEntry(
        meld_points=600,
        clean_books=1,
        dirty_books=1,
        red_threes_down=6,
        red_threes_held=3,
        cards_left_points=120,
    )
    error = only_error(problems(sides=(OUT, lots)))  # 2 + 9 > 10 with five decks
    assert (error.side, error.field) == (None, "red_threes_down")
    assert error.message == (
        "Together, the sides have 11 red threes (Side 1 2, Side 2 9), but 5 decks hold only 10."
    )


def test_black_three_books_are_limited_by_the_black_threes():
    side = SideEntry(
        meld_points=465, clean_books=1, dirty_books=1, black_three_books=1, went_out=True
    )
    other = SideEntry(cards_left_points=50)
    error = only_error(problems("brouillette-low", sides=(side, other)))
    assert error.field == "black_three_books"
    assert error.message == (
        "Together, the sides have 1 black-three books (Side 1 1, Side 2 0), which need 7 black "
        "threes, but 3 decks hold only 6."
    )


def test_wild_books_are_limited_by_the_wilds():
    big = SideEntry(
        meld_points=1500,
        clean_books=2,
        dirty_books=2,
        wild_books=3,
        cards_left_points=15,
        went_out=True,
    )
    other = SideEntry(meld_points=700, wild_books=2, cards_left_points=100)
    error = only_error(problems(sides=(big, other)))
    assert (error.side, error.field) == (None, "wild_books")
    assert error.message == "5 wild books need 35 wild cards, but 5 decks hold only 30."


def test_dirty_books_each_hold_a_wild():
    big = SideEntry(
        meld_points=1000,
        clean_books=2,
        dirty_books=2,
        wild_books=2,
        cards_left_points=15,
        went_out=True,
    )
    other = SideEntry(meld_points=1200, dirty_books=16, cards_left_points=100)
    error = only_error(problems(sides=(big, other)))
    assert error.field == "dirty_books"
    assert error.message.startswith("2 wild books and 18 dirty books need at least 32 wild cards")


def test_clean_books_are_limited_by_the_naturals():
    big = SideEntry(
        meld_points=1400,
        clean_books=20,
        dirty_books=2,
        wild_books=1,
        cards_left_points=15,
        went_out=True,
    )
    other = SideEntry(meld_points=300, clean_books=3, cards_left_points=100)
    error = only_error(problems(sides=(big, other)))
    assert error.field == "clean_books"
    assert (
        error.message
        == "Together, the sides have 23 clean books (Side 1 20, Side 2 3), but 5 decks allow at "
        "most 22 (2 of each rank)."
    )


def test_only_one_side_goes_out():
    error = only_error(problems(sides=(OUT, replace(OUT, meld_points=1500))))
    assert (error.side, error.field) == (None, "went_out")
    assert error.message == "Only one side can go out in a deal; 2 are marked (Side 1, Side 2)."


def test_nobody_goes_out_when_the_stock_ran_out():
    error = only_error(problems(stock_ran_out=True))
    assert (error.side, error.field) == (0, "went_out")
    assert "the stock ran out" in error.message


def test_a_deal_ends_by_going_out_or_the_stock_running_out():
    error = only_error(problems(sides=(replace(OUT, went_out=False), IN)))
    assert (error.side, error.field) == (None, "went_out")
    assert "mark the side that went out, or mark that the stock ran out" in error.message


@pytest.mark.parametrize(
    ("variant_id", "deal", "books", "field", "needed"),
    [
        ("pagat", 1, dict(clean_books=2, dirty_books=2, wild_books=0), "wild_books", 1),
        ("pagat", 2, dict(clean_books=1, dirty_books=2, wild_books=1), "clean_books", 2),
        ("saskatchewan", 1, dict(clean_books=1, dirty_books=0, wild_books=1), "dirty_books", 1),
        ("simpson", 3, dict(clean_books=0, dirty_books=2), "clean_books", 1),
        ("brouillette-high", 4, dict(clean_books=2, dirty_books=1), "dirty_books", 2),
        ("brouillette-partners-low", 4, dict(clean_books=3, dirty_books=4), "clean_books", 4),
    ],
)
def test_the_side_that_went_out_has_the_books_the_deal_needs(
    variant_id, deal, books, field, needed
):
    variant = get_variant(variant_id)
    table = variant.tables[0]
    partner_cards = 5 * (table.players_per_side - 1)
    out = SideEntry(meld_points=1200, went_out=True, cards_left_points=partner_cards, **books)
    other = SideEntry(meld_points=200, cards_left_points=50 * table.players_per_side)
    error = only_error(problems(variant_id, deal, (out, other)))
    assert (error.side, error.field) == (0, field)
    assert error.message.endswith(f"going out in deal {deal} needs at least {needed}.")


def test_a_side_that_melded_reached_the_first_meld_minimum():
    error = only_error(
        problems(deal=4, sides=(OUT, replace(IN, meld_points=140, clean_books=0, dirty_books=0)))
    )
    assert (error.side, error.field) == (1, "meld_points")
    assert error.message == (
        "Side 2: 140 melded card points is below the first meld of deal 4, "
        "which alone must reach 150."
    )


def test_melded_points_cover_the_cheapest_cards_of_the_books():
    error = only_error(problems(sides=(replace(OUT, meld_points=300), IN)))
    # 2 clean (35 each) + 2 dirty (50 each) + 1 wild (140) = 310
    assert (error.side, error.field) == (0, "meld_points")
    assert "worth at least 310" in error.message


def test_card_points_cannot_exceed_the_decks():
    error = only_error(problems(sides=(OUT, replace(IN, cards_left_points=3000))))
    assert (error.side, error.field) == (1, "cards_left_points")
    assert "more than all 5 decks hold (2950)" in error.message


def test_every_player_who_did_not_go_out_holds_a_card():
    error = only_error(problems(sides=(OUT, replace(IN, cards_left_points=5))))
    assert (error.side, error.field) == (1, "cards_left_points")
    assert "2 player(s) still hold at least one card each" in error.message


def test_no_cards_left_without_going_out_is_an_error_where_red_threes_go_down():
    report = problems(sides=(OUT, replace(IN, cards_left_points=0)))
    error = only_error(report)
    assert (error.side, error.field) == (1, "cards_left_points")
    assert error.message == (
        "Side 2 did not go out, so each of its players still holds at least one card: "
        "the points of cards left cannot be 0."
    )


def test_no_cards_left_for_the_partner_of_the_player_who_went_out_is_an_error():
    error = only_error(problems(sides=(replace(OUT, cards_left_points=0), IN)))
    assert (error.side, error.field) == (0, "cards_left_points")
    assert error.message == (
        "Side 1 went out, but a partner plays on until then and still holds at least one "
        "card: the points of cards left cannot be 0."
    )


def test_holding_only_red_threes_is_a_warning_where_red_threes_are_never_laid_down():
    out = SideEntry(meld_points=600, clean_books=1, dirty_books=1, went_out=True)
    held = SideEntry(meld_points=100, red_threes_held=1)
    report = problems("simpson", 1, (out, held))
    assert report.ok
    (warning,) = report.warnings
    assert warning.severity is Severity.WARNING
    assert (warning.side, warning.field) == (1, "cards_left_points")
    assert warning.message == (
        "Side 2: with no points of cards left, every player still holding cards holds only "
        "red threes. Is that right?"
    )


def test_a_lone_player_who_went_out_holds_nothing():
    out = SideEntry(
        meld_points=600,
        clean_books=1,
        dirty_books=1,
        went_out=True,
        cards_left_points=10,
        red_threes_held=1,
    )
    other = SideEntry(meld_points=100, cards_left_points=50)
    report = problems("simpson", 1, (out, other))
    assert [(p.side, p.field) for p in report.errors] == [
        (0, "cards_left_points"),
        (0, "red_threes_held"),
    ]


@pytest.mark.parametrize(
    ("variant_id", "field"), [("simpson", "wild_books"), ("pagat", "black_three_books")]
)
def test_a_variant_without_a_book_kind_takes_none(variant_id, field):
    out = SideEntry(
        meld_points=1000,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        went_out=True,
        cards_left_points=0 if variant_id == "simpson" else 10,
    )
    other = SideEntry(
        meld_points=500, cards_left_points=100, **{field: 1} if field != "wild_books" else {}
    )
    if field == "wild_books":
        report = problems(variant_id, 1, (out, other))
    else:
        report = problems(
            variant_id,
            1,
            (out, SideEntry(meld_points=500, black_three_books=1, cards_left_points=100)),
        )
    error = report.errors[0]
    assert error.field == field
    assert "has no" in error.message and "so none can be scored" in error.message


def test_exact_22_only_where_the_variant_pays_it():
    error = only_error(problems(sides=(OUT, replace(IN, exact_22=1))))
    assert (error.side, error.field) == (1, "exact_22")
    assert error.message == "Side 2: Partnership (pagat.com) has no bonus for an exact cut."


def test_exact_22_at_most_once_per_player():
    out = SideEntry(meld_points=600, clean_books=1, dirty_books=1, went_out=True, exact_22=2)
    error = only_error(
        problems("simpson", 1, (out, SideEntry(meld_points=100, cards_left_points=50)))
    )
    assert (error.side, error.field) == (0, "exact_22")
    assert "Side 1: only 1 player on this side could cut exactly 22 cards, not 2." in error.message


def test_black_threes_that_count_against_may_bring_melds_below_the_opening_minimum():
    # Opened with 150 in deal 4, then melded a book of eight black threes at -5 each.
    side = SideEntry(meld_points=110, black_three_books=1, cards_left_points=30)
    out = SideEntry(meld_points=900, clean_books=2, dirty_books=2, went_out=True)
    other = SideEntry(meld_points=300, cards_left_points=30)
    report = problems("brouillette-high", 4, (out, side, other))
    assert report.errors == ()


def test_a_black_three_book_is_one_of_the_clean_books_to_go_out():
    out = SideEntry(
        meld_points=300, black_three_books=1, dirty_books=1, went_out=True, cards_left_points=0
    )
    other = SideEntry(meld_points=200, clean_books=1, cards_left_points=50)
    others = (other, other, other)  # four players: five decks hold ten black threes

    assert problems("brouillette-low", 1, (out, *others)).errors == ()
    refused = problems("brouillette-low", 1, (replace(out, black_three_books=0), *others))
    assert [(e.side, e.field) for e in refused.errors] == [(0, "clean_books")]
