"""House rules that real tables play: special books, red-three books, red threes laid down by a
side that did not go out, going out concealed and costly black threes. Each is scored to the
point, and refused, in English and in French, where the cards or the rules make it impossible."""

from dataclasses import replace
from pathlib import Path

import pytest
from babel.support import Translations
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import least_book_points, validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variants import Variant, get_variant

TRANSLATIONS = Path(__file__).resolve().parents[3] / "scorekeeper" / "translations"


def house(based_on: str = "pagat", **changes: object) -> Variant:
    """House rules from a base and changes keyed as the house-rules file keys them."""
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


SEVENS = house(
    **{
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1000,
        "book_bonus.red_three": 1000,
        "red_three.down_not_out": 50,
        "going_out_concealed_bonus": 100,
    }
)
"""Sevens worth 1,000, a book of red threes worth 1,000, a red three laid down worth 50 to a
side that did not go out, and 100 more for going out concealed."""


def entry(variant: Variant, *sides: SideEntry, stock_ran_out: bool = False) -> DealEntry:
    return DealEntry(variant, 1, sides, stock_ran_out=stock_ran_out)


def totals(variant: Variant, *sides: SideEntry, stock_ran_out: bool = False) -> list[int]:
    deal = entry(variant, *sides, stock_ran_out=stock_ran_out)
    assert [p.message for p in validate_deal(deal).errors] == []
    return [score.total for score in score_deal(deal)]


def errors(variant: Variant, *sides: SideEntry, stock_ran_out: bool = False):
    return validate_deal(entry(variant, *sides, stock_ran_out=stock_ran_out)).errors


def in_french(problem) -> str:
    return problem.render(Translations.load(str(TRANSLATIONS), ["fr"]).gettext)


# --- red threes laid down by a side that did not go out -------------------------------------


def test_a_red_three_laid_down_by_the_side_caught_is_worth_the_lower_value():
    out, caught = score_deal(entry(SEVENS, PAGAT_OUT, PAGAT_CAUGHT))

    assert out.breakdown["red_threes"] == 2 * 100
    assert out.total == 4595
    assert caught.breakdown["red_threes"] == 1 * 50 - 1 * 100
    assert caught.total == 600 + 500 + 300 + 50 - 100 - 120 == 1230


def test_when_the_stock_runs_out_every_side_laid_down_its_red_threes_without_going_out():
    first = SideEntry(
        meld_points=600, clean_books=1, dirty_books=1, red_threes_down=2, cards_left_points=120
    )

    assert totals(SEVENS, first, PAGAT_CAUGHT, stock_ran_out=True) == [
        600 + 500 + 300 + 2 * 50 - 120,
        600 + 500 + 300 + 50 - 100 - 120,
    ]


def test_without_a_value_of_its_own_a_red_three_laid_down_is_worth_the_same_to_every_side():
    assert totals(get_variant("pagat"), PAGAT_OUT, PAGAT_CAUGHT) == [4595, 1280]


# --- special books --------------------------------------------------------------------------


SPECIAL_OUT = SideEntry(
    meld_points=1300,
    clean_books=1,
    special_books=1,
    dirty_books=2,
    wild_books=1,
    red_threes_down=2,
    cards_left_points=15,
    went_out=True,
)


def test_a_book_of_sevens_earns_its_own_bonus_and_is_a_clean_book_to_go_out():
    out, caught = score_deal(entry(SEVENS, SPECIAL_OUT, PAGAT_CAUGHT))

    assert errors(SEVENS, SPECIAL_OUT, PAGAT_CAUGHT) == ()
    assert out.total == 1300 + 500 + 1000 + 600 + 1500 + 200 + 100 - 15 == 5185
    assert out.breakdown["special_books"] == 1000
    assert out.breakdown["clean_books"] == 500
    assert caught.breakdown["special_books"] == 0


def test_special_books_only_where_the_rules_have_them():
    (error,) = errors(get_variant("pagat"), SPECIAL_OUT, PAGAT_CAUGHT)

    assert (error.side, error.field) == (0, "special_books")
    assert error.message == (
        "Side 1: Partnership (pagat.com) has no special books, so none can be scored."
    )
    assert in_french(error) == (
        "Side 1 : En équipes (pagat.com) n'a pas de canasta spéciale, on ne peut donc pas en "
        "marquer."
    )


def test_special_books_are_counted_against_the_cards_of_their_rank():
    # Five decks hold 20 sevens: two books of seven at most, whichever sides made them.
    caught = replace(PAGAT_CAUGHT, special_books=2, meld_points=700)

    (error,) = errors(SEVENS, SPECIAL_OUT, caught)

    assert (error.side, error.field) == (None, "special_books")
    assert error.message == (
        "Together, the sides have 3 special books (Side 1 1, Side 2 2), but 5 decks hold 20 "
        "cards of rank 7: at most 2 books."
    )
    assert in_french(error) == (
        "Ensemble, les camps ont 3 canastas spéciales (Side 1 1, Side 2 2), mais 5 jeux "
        "contiennent 20 cartes de rang 7 : au plus 2 canastas."
    )


def test_the_special_rank_makes_no_clean_book_of_its_own():
    # Ten other ranks of 20 cards: 20 clean books at most where sevens are special, not 22.
    first = SideEntry(meld_points=1200, clean_books=11, cards_left_points=20)
    second = SideEntry(meld_points=1100, clean_books=10, cards_left_points=20)

    (error,) = errors(SEVENS, first, second, stock_ran_out=True)

    assert error.message == (
        "Together, the sides have 21 clean books (Side 1 11, Side 2 10), but 5 decks allow "
        "at most 20 (2 of each rank)."
    )
    assert errors(get_variant("pagat"), first, second, stock_ran_out=True) == ()


def test_a_special_book_holds_at_least_seven_cards_of_its_rank():
    aces = house(**{"book_bonus.special_rank": "A", "book_bonus.special": 1500})
    table = aces.tables[0]
    side = SideEntry(meld_points=100, special_books=1, cards_left_points=20)

    (error,) = errors(aces, side, replace(side, meld_points=140), stock_ran_out=True)

    assert least_book_points(aces, table, side) == 7 * 20
    assert least_book_points(SEVENS, table, replace(side, clean_books=1)) == 7 * 5 + 7 * 5
    assert (error.side, error.field) == (0, "meld_points")
    assert error.message == (
        "Side 1: 100 melded card points is too few for the books entered, whose cards alone "
        "are worth at least 140."
    )


def test_one_meld_of_a_rank_allows_one_special_book_a_side():
    # Three players, four decks: 16 kings, enough for two books, but not for one player.
    kings = house(
        "brouillette-high", **{"book_bonus.special_rank": "K", "book_bonus.special": 1500}
    )
    side = SideEntry(meld_points=200, special_books=2, cards_left_points=20)
    other = SideEntry(meld_points=50, cards_left_points=20)

    (error,) = errors(kings, side, other, other, stock_ran_out=True)

    assert (error.side, error.field) == (0, "special_books")
    assert error.message == (
        "Side 1: Our table allows one meld of each rank, so a side has at most one special "
        "book, not 2."
    )


# --- red-three books ------------------------------------------------------------------------


def test_a_red_three_book_earns_its_bonus_in_place_of_its_red_threes():
    # Eight red threes laid down by the side caught: one book of seven and one more.
    caught = SideEntry(
        meld_points=600,
        clean_books=1,
        dirty_books=1,
        red_three_books=1,
        red_threes_down=1,
        cards_left_points=120,
    )

    out_score, caught_score = score_deal(entry(SEVENS, PAGAT_OUT, caught))

    assert totals(SEVENS, PAGAT_OUT, caught) == [4595, 600 + 500 + 300 + 1000 + 50 - 120]
    assert caught_score.breakdown["red_three_books"] == 1000
    assert caught_score.breakdown["red_threes"] == 50
    assert out_score.breakdown["red_three_books"] == 0


def test_red_three_books_are_counted_against_the_red_threes_that_exist():
    caught = replace(PAGAT_CAUGHT, red_three_books=1, red_threes_held=0, red_threes_down=2)

    (error,) = errors(SEVENS, PAGAT_OUT, caught)

    assert (error.side, error.field) == (None, "red_three_books")
    assert error.message == (
        "Together, the sides have 11 red threes (Side 1 2, Side 2 9), counting seven in each "
        "red-three book, but 5 decks hold only 10."
    )
    assert in_french(error) == (
        "Ensemble, les camps ont 11 trois rouges (Side 1 2, Side 2 9), en comptant sept par "
        "canasta de trois rouges, mais 5 jeux n'en contiennent que 10."
    )


def test_seven_red_threes_laid_down_are_entered_as_a_book():
    caught = replace(PAGAT_CAUGHT, red_threes_down=7, red_threes_held=0)

    (error,) = errors(SEVENS, PAGAT_OUT, caught)

    assert (error.side, error.field) == (1, "red_threes_down")
    assert error.message == (
        "Side 2: in Our table seven red threes laid down make a red-three book: count each "
        "seven as a book, and only the others as laid down (entered 7)."
    )


def test_a_red_three_book_is_not_a_clean_book_to_go_out_with():
    out = replace(SPECIAL_OUT, special_books=0, red_three_books=1, red_threes_down=0)

    (error,) = errors(SEVENS, out, PAGAT_CAUGHT)

    assert (error.side, error.field) == (0, "clean_books")
    assert error.message == (
        "Side 1 went out with 1 clean book, but going out in deal 1 needs at least 2."
    )


def test_a_side_with_only_a_red_three_book_has_not_melded():
    threes_only = SideEntry(red_three_books=1, red_threes_down=1, cards_left_points=100)

    assert totals(SEVENS, PAGAT_OUT, threes_only) == [4595, 1000 + 50 - 100]


def test_red_three_books_only_where_the_rules_have_them():
    caught = replace(PAGAT_CAUGHT, red_three_books=1, red_threes_held=0, red_threes_down=0)

    (error,) = errors(get_variant("pagat"), PAGAT_OUT, caught)

    assert (error.side, error.field) == (1, "red_three_books")
    assert error.message == (
        "Side 2: Partnership (pagat.com) has no red-three books, so none can be scored."
    )


# --- going out concealed --------------------------------------------------------------------


def test_going_out_concealed_adds_its_bonus_to_going_out():
    out, _caught = score_deal(
        entry(SEVENS, replace(PAGAT_OUT, went_out_concealed=True), PAGAT_CAUGHT)
    )

    assert out.breakdown["going_out"] == 100
    assert out.breakdown["going_out_concealed"] == 100
    assert out.total == 4595 + 100


def test_only_the_side_that_went_out_went_out_concealed():
    caught = replace(PAGAT_CAUGHT, went_out_concealed=True)

    (error,) = errors(SEVENS, PAGAT_OUT, caught)

    assert (error.side, error.field) == (1, "went_out_concealed")
    assert error.message == "Side 2 did not go out, so it cannot have gone out concealed."
    assert in_french(error) == "Side 2 : pas de sortie, donc pas de sortie sans avoir posé."


def test_going_out_concealed_only_where_the_rules_pay_for_it():
    (error,) = errors(
        get_variant("pagat"), replace(PAGAT_OUT, went_out_concealed=True), PAGAT_CAUGHT
    )

    assert (error.side, error.field) == (0, "went_out_concealed")
    assert error.message == (
        "Side 1: Partnership (pagat.com) has no bonus for going out concealed."
    )


def test_rules_without_the_new_books_or_bonus_score_no_lines_for_them():
    (out, _caught) = score_deal(entry(get_variant("pagat"), PAGAT_OUT, PAGAT_CAUGHT))

    assert not {"special_books", "red_three_books", "going_out_concealed"} & set(out.breakdown)


# --- a black three left in hand --------------------------------------------------------------

BLACK_THREES_100 = house(**{"card_points.black_three": 100})


@pytest.mark.parametrize(("left", "refused"), [(200, False), (201, True)])
def test_black_threes_worth_100_count_for_their_value_in_the_cards_left(left, refused):
    # The side caught holds two black threes and nothing else, one for each player.
    caught = SideEntry(meld_points=600, clean_books=1, dirty_books=1, cards_left_points=left)

    found = errors(BLACK_THREES_100, PAGAT_OUT, caught)

    if not refused:
        assert found == ()
        assert totals(BLACK_THREES_100, PAGAT_OUT, caught)[1] == 600 + 500 + 300 - 200
        return
    (error,) = found
    assert (error.side, error.field) == (1, "cards_left_points")
    assert error.message == (
        "Side 2: points of cards left must be a multiple of 5, as every card is (entered 201)."
    )


def test_the_cards_in_play_are_worth_what_the_black_threes_are_worth():
    # Five decks hold 2,950 card points, or 3,900 where each of the ten black threes is 100.
    caught = SideEntry(meld_points=600, clean_books=1, dirty_books=1, cards_left_points=2000)

    (error,) = errors(get_variant("pagat"), PAGAT_OUT, caught)

    assert error.message == (
        "All sides together have 3825 card points melded and left over, more than all 5 decks "
        "hold (2950)."
    )
    assert errors(BLACK_THREES_100, PAGAT_OUT, caught) == ()


# --- the rules themselves --------------------------------------------------------------------


def variant_problems(based_on: str = "pagat", **changes: object) -> list[tuple[str, str]]:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    return [(p.field, p.message) for p in rules.problems()]


def test_a_special_book_needs_both_its_rank_and_its_bonus():
    assert variant_problems(**{"book_bonus.special": 1000}) == [
        (
            "book_bonus.special_rank",
            "Rank of the special book is needed: a special book has both a rank and a bonus, "
            "or neither.",
        )
    ]
    assert variant_problems(**{"book_bonus.special_rank": "7"})[0][0] == "book_bonus.special"


@pytest.mark.parametrize(
    ("value", "accepted"), [(50, True), (100, True), (-100, True), (150, False), (-105, False)]
)
def test_a_red_three_is_worth_no_more_to_the_side_caught_than_to_the_side_out(value, accepted):
    found = variant_problems(**{"red_three.down_not_out": value})

    if accepted:
        assert found == []
    else:
        assert found == [
            (
                "red_three.down_not_out",
                "Each red three laid down by a side that did not go out must be from -100 (a "
                f"red three still held) to 100 (one laid down by the side that went out), not "
                f"{value}.",
            )
        ]


def test_where_red_threes_are_never_laid_down_they_have_no_value_laid_down_nor_a_book():
    assert [
        field
        for field, _ in variant_problems(
            "simpson",
            **{
                "red_three.down_not_out": 50,
                "book_bonus.red_three": 1000,
            },
        )
    ] == ["red_three.down_not_out", "book_bonus.red_three"]


def test_the_house_rules_the_random_play_covers_are_sound():
    assert validate_variant(SEVENS) == []
