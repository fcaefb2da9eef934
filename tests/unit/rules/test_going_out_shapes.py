"""Going out as other tables play it: what a black-three book and a special book count as, the
books of any kind and the special book going out needs, a player who runs out of cards and
waits, and a first meld that needs a book. Each rule is scored to the point where it lets a
deal through, and refused by name where it does not; the built-in variants keep their rules."""

from pathlib import Path

import pytest
from babel.support import Translations

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import PARAM_BY_KEY
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variant_json import variant_from_json
from scorekeeper.rules.variants import BUILT_IN, BookRole, Variant

TRANSLATIONS = Path(__file__).resolve().parents[3] / "scorekeeper" / "translations"


def house(based_on: str, **changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


def refusals(based_on: str, **changes: object) -> list[str]:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    return [problem.message for problem in rules.problems()]


def deal(variant: Variant, *sides: SideEntry, number: int = 1, players: int = 2) -> DealEntry:
    return DealEntry(variant, number, sides, players=players)


def errors(entry: DealEntry) -> list[str]:
    return [problem.message for problem in validate_deal(entry).errors]


def totals(entry: DealEntry) -> list[int]:
    assert errors(entry) == []
    return [score.total for score in score_deal(entry)]


CAUGHT = SideEntry(cards_left_points=30)
"""A lone player who did not go out, holding 30 points of cards."""


def test_the_built_in_rule_sets_keep_every_book_clean_and_nothing_more_to_go_out() -> None:
    for variant in BUILT_IN.values():
        assert variant.black_three_book_goes_out_as is BookRole.CLEAN
        assert variant.special_book_goes_out_as is BookRole.CLEAN
        assert variant.going_out_any_books == 0
        assert variant.going_out_needs_special_book is False
        assert variant.players_may_run_out is False
        assert variant.book_first_meld_deals == frozenset()


def test_variant_json_written_before_these_rules_reads_the_old_rules() -> None:
    data = BUILT_IN["brouillette-low"].to_dict()
    for key in (
        "black_three_book_goes_out_as",
        "special_book_goes_out_as",
        "going_out_any_books",
        "going_out_needs_special_book",
        "players_may_run_out",
        "book_first_meld_deals",
    ):
        assert PARAM_BY_KEY[key].optional_in_whole
        del data[key]

    assert variant_from_json(data) == BUILT_IN["brouillette-low"]


# --- what a black-three book counts as toward going out --------------------------------------

# Brouillette's deal 1 asks one clean book and one dirty book; three players hold the 8 black
# threes of 4 decks. The side that went out melded 60 card points: a book, and seven black
# threes worth -5 each.
BLACK_BOOK_AND_DIRTY = SideEntry(meld_points=60, dirty_books=1, black_three_books=1, went_out=True)
BLACK_BOOK_AND_CLEAN = SideEntry(meld_points=60, clean_books=1, black_three_books=1, went_out=True)


def test_a_black_three_book_counts_as_clean_by_default() -> None:
    variant = BUILT_IN["brouillette-low"]

    # 60 + 100 dirty + 100 black-three book + 100 going out; -30 left in hand.
    assert totals(deal(variant, BLACK_BOOK_AND_DIRTY, CAUGHT, CAUGHT, players=3)) == [360, -30, -30]
    assert errors(deal(variant, BLACK_BOOK_AND_CLEAN, CAUGHT, CAUGHT, players=3)) == [
        "Side 1 went out with 0 dirty books, but going out in deal 1 needs at least 1."
    ]


def test_a_black_three_book_may_count_as_a_dirty_book() -> None:
    variant = house("brouillette-low", black_three_book_goes_out_as="dirty")

    # 60 + 300 clean + 100 black-three book + 100 going out.
    assert totals(deal(variant, BLACK_BOOK_AND_CLEAN, CAUGHT, CAUGHT, players=3)) == [560, -30, -30]
    assert errors(deal(variant, BLACK_BOOK_AND_DIRTY, CAUGHT, CAUGHT, players=3)) == [
        "Side 1 went out with 0 clean books, but going out in deal 1 needs at least 1."
    ]


def test_a_black_three_book_may_count_as_neither() -> None:
    variant = house("brouillette-low", black_three_book_goes_out_as="none")
    both = SideEntry(
        meld_points=120, clean_books=1, dirty_books=1, black_three_books=1, went_out=True
    )

    # 120 + 300 clean + 100 dirty + 100 black-three book + 100 going out.
    assert totals(deal(variant, both, CAUGHT, CAUGHT, players=3)) == [720, -30, -30]
    assert errors(deal(variant, BLACK_BOOK_AND_DIRTY, CAUGHT, CAUGHT, players=3)) == [
        "Side 1 went out with 0 clean books, but going out in deal 1 needs at least 1."
    ]
    assert errors(deal(variant, BLACK_BOOK_AND_CLEAN, CAUGHT, CAUGHT, players=3)) == [
        "Side 1 went out with 0 dirty books, but going out in deal 1 needs at least 1."
    ]


def test_what_a_black_three_book_counts_as_is_one_of_three_choices() -> None:
    assert refusals("brouillette-low", black_three_book_goes_out_as="wild") == [
        "Toward going out, a black-three book counts as must be one of clean, dirty, none "
        '(entered "wild").'
    ]


# --- what a special book counts as toward going out ------------------------------------------

SEVENS = {"book_bonus.special_rank": "7", "book_bonus.special": 1500}
# Simpson's deal 1 asks one clean book and one dirty book: here a book of sevens, worth 1,500,
# and a dirty book, 150 melded points in all.
SEVENS_AND_DIRTY = SideEntry(meld_points=150, dirty_books=1, special_books=1, went_out=True)


def test_a_special_book_counts_as_clean_by_default() -> None:
    variant = house("simpson", **SEVENS)

    # 150 + 1,500 sevens + 100 dirty + 100 going out.
    assert totals(deal(variant, SEVENS_AND_DIRTY, CAUGHT)) == [1850, -30]


def test_a_special_book_may_count_toward_no_kind_of_book() -> None:
    variant = house("simpson", **SEVENS, special_book_goes_out_as="none")
    with_clean = SideEntry(
        meld_points=200, clean_books=1, dirty_books=1, special_books=1, went_out=True
    )

    assert errors(deal(variant, SEVENS_AND_DIRTY, CAUGHT)) == [
        "Side 1 went out with 0 clean books, but going out in deal 1 needs at least 1."
    ]
    # 200 + 1,500 sevens + 300 clean + 100 dirty + 100 going out.
    assert totals(deal(variant, with_clean, CAUGHT)) == [2200, -30]


def test_a_special_book_may_count_as_a_dirty_book() -> None:
    variant = house("simpson", **SEVENS, special_book_goes_out_as="dirty")
    sevens_and_clean = SideEntry(meld_points=150, clean_books=1, special_books=1, went_out=True)

    # 150 + 1,500 sevens + 300 clean + 100 going out.
    assert totals(deal(variant, sevens_and_clean, CAUGHT)) == [2050, -30]
    assert errors(deal(variant, SEVENS_AND_DIRTY, CAUGHT)) == [
        "Side 1 went out with 0 clean books, but going out in deal 1 needs at least 1."
    ]


# --- books of any kind, and a special book, to go out ----------------------------------------


def test_going_out_may_need_books_of_any_kind() -> None:
    variant = house("simpson", going_out_any_books=4)
    two = SideEntry(meld_points=100, clean_books=1, dirty_books=1, went_out=True)
    four = SideEntry(meld_points=200, clean_books=2, dirty_books=2, went_out=True)

    assert errors(deal(variant, two, CAUGHT)) == [
        "Side 1 went out with 2 books in all, but going out needs at least 4 books of any kind."
    ]
    # 200 + 2 x 300 clean + 2 x 100 dirty + 100 going out.
    assert totals(deal(variant, four, CAUGHT)) == [1100, -30]


def test_a_black_three_book_that_counts_as_neither_still_counts_as_a_book() -> None:
    variant = house("brouillette-low", black_three_book_goes_out_as="none", going_out_any_books=3)
    both = SideEntry(
        meld_points=120, clean_books=1, dirty_books=1, black_three_books=1, went_out=True
    )

    assert totals(deal(variant, both, CAUGHT, CAUGHT, players=3)) == [720, -30, -30]


def test_books_of_any_kind_are_bounded_by_the_cards() -> None:
    # Two players of Simpson's game hold 3 decks: 132 naturals and 18 wild cards, 21 books.
    assert refusals("simpson", going_out_any_books=22) == [
        "Books of any kind to go out: 2 players play with 3 decks, whose cards make at most "
        "21 books, not 22."
    ]
    assert refusals("simpson", going_out_any_books=21) == []


def test_going_out_may_need_a_special_book() -> None:
    variant = house("simpson", **SEVENS, going_out_needs_special_book=True)
    no_sevens = SideEntry(meld_points=100, clean_books=1, dirty_books=1, went_out=True)

    assert errors(deal(variant, no_sevens, CAUGHT)) == [
        "Side 1 went out with no special book, but going out needs one."
    ]
    assert totals(deal(variant, SEVENS_AND_DIRTY, CAUGHT)) == [1850, -30]


def test_a_special_book_is_needed_only_where_there_is_one() -> None:
    assert refusals("simpson", going_out_needs_special_book=True) == [
        "A special book is needed to go out: choose the rank of the special book first; this "
        "variant has none."
    ]


# --- a player who runs out of cards without going out ----------------------------------------

OUT = SideEntry(meld_points=100, clean_books=1, dirty_books=1, went_out=True)
EMPTY_HANDED = SideEntry(meld_points=150)


def test_a_side_that_did_not_go_out_holds_cards_by_default() -> None:
    assert errors(deal(BUILT_IN["simpson"], OUT, EMPTY_HANDED)) == [
        "Side 2 did not go out, so each of its players still holds at least one card: the "
        "points of cards left cannot be 0."
    ]


def test_a_player_may_run_out_of_cards_and_wait() -> None:
    variant = house("simpson", players_may_run_out=True)

    # 100 + 300 clean + 100 dirty + 100 going out; 150 melded and nothing left.
    assert totals(deal(variant, OUT, EMPTY_HANDED)) == [600, 150]


def test_a_partner_of_the_player_who_went_out_may_have_run_out_too() -> None:
    variant = house("pagat", players_may_run_out=True)
    out = SideEntry(meld_points=400, clean_books=2, dirty_books=2, wild_books=1, went_out=True)
    caught = SideEntry(meld_points=90, cards_left_points=40)
    entry = deal(variant, out, caught, players=4)

    assert errors(deal(BUILT_IN["pagat"], out, caught, players=4)) == [
        "Side 1 went out, but a partner plays on until then and still holds at least one "
        "card: the points of cards left cannot be 0."
    ]
    # 400 + 2 x 500 + 2 x 300 + 1,500 + 100 going out; 90 - 40.
    assert totals(entry) == [3600, 50]


# --- a first meld that needs a book ----------------------------------------------------------


def test_a_first_meld_may_need_a_book_in_a_given_deal() -> None:
    variant = house("simpson", book_first_meld_deals=[2])
    no_book = SideEntry(meld_points=120, cards_left_points=30)
    one_book = SideEntry(meld_points=120, dirty_books=1, cards_left_points=30)

    assert errors(deal(variant, OUT, no_book, number=2)) == [
        "Side 2: the first meld of deal 2 must hold a book, so a side that melded has at least "
        "one book (entered 120 melded card points and no book)."
    ]
    # 120 + 100 dirty - 30 left.
    assert totals(deal(variant, OUT, one_book, number=2)) == [600, 190]
    assert totals(deal(variant, OUT, no_book, number=1)) == [600, 90]


def test_a_first_meld_with_a_book_is_set_for_deals_of_the_game() -> None:
    assert refusals("simpson", book_first_meld_deals=[5]) == [
        "Deals whose first meld needs a book: deal 5 is past the last deal of a game of 4 deals."
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", "sortie sans canasta spéciale, alors que sortir en demande une."),
        ("it", "ha chiuso senza una canasta speciale, ma per chiudere ne serve una."),
        ("de", "ist ohne Sonder-Canasta ausgegangen, aber zum Ausgehen braucht es eine."),
        ("ja", "は特別ブックなしで上がりましたが、上がるには特別ブックが必要です。"),
    ],
)
def test_the_refusals_are_translated(lang: str, words: str) -> None:
    variant = house("simpson", **SEVENS, going_out_needs_special_book=True)
    no_sevens = SideEntry(meld_points=100, clean_books=1, dirty_books=1, went_out=True)
    (problem,) = validate_deal(deal(variant, no_sevens, CAUGHT)).errors

    said = problem.render(Translations.load(str(TRANSLATIONS), [lang]).gettext)

    assert said.endswith(words)


def test_a_share_link_carries_these_rules() -> None:
    rules = HouseRules(
        name="Our table",
        based_on="brouillette-low",
        changes={
            "black_three_book_goes_out_as": "dirty",
            "book_bonus.special_rank": "7",
            "book_bonus.special": 1500,
            "special_book_goes_out_as": "none",
            "going_out_any_books": 3,
            "going_out_needs_special_book": True,
            "players_may_run_out": True,
            "book_first_meld_deals": [2, 4],
        },
    )

    variant = rules_from_link(link_token(rules)).variant()

    assert variant.black_three_book_goes_out_as is BookRole.DIRTY
    assert variant.special_book_goes_out_as is BookRole.NONE
    assert variant.going_out_any_books == 3
    assert variant.going_out_needs_special_book is True
    assert variant.players_may_run_out is True
    assert variant.book_first_meld_deals == frozenset({2, 4})


def _plurals(lang: str):  # type: ignore[no-untyped-def]
    catalog = Translations.load(str(TRANSLATIONS), [lang])

    def plurals(singular: str, plural: str, count: int) -> str:
        return str(catalog.ngettext(singular, plural, count)) % {"num": count}

    return catalog.gettext, plurals


def test_a_single_book_is_named_in_the_singular() -> None:
    variant = house("simpson", going_out_any_books=1)
    none = SideEntry(meld_points=100, went_out=True)
    one_clean = house("simpson", **{"going_out.1.clean": 2})
    short = SideEntry(meld_points=100, clean_books=1, went_out=True)

    assert errors(deal(variant, none, CAUGHT)) == [
        "Side 1 went out with 0 clean books, but going out in deal 1 needs at least 1.",
        "Side 1 went out with 0 dirty books, but going out in deal 1 needs at least 1.",
        "Side 1 went out with 0 books in all, but going out needs at least 1 book of any kind.",
    ]
    assert "Side 1 went out with 1 clean book, but going out in deal 1 needs at least 2." in (
        errors(deal(one_clean, short, CAUGHT))
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", "Side 1 : sortie avec 1 canasta propre, mais sortir à la donne 1 en demande"),
        ("it", "Side 1 ha chiuso con 1 canasta pulita, ma per chiudere nella smazzata 1"),
        ("de", "Side 1 ist mit 1 reine Canasta ausgegangen, aber Ausgehen in Runde 1"),
    ],
)
def test_a_single_book_is_singular_in_each_language(lang: str, words: str) -> None:
    variant = house("simpson", **{"going_out.1.clean": 2})
    short = SideEntry(meld_points=100, clean_books=1, dirty_books=1, went_out=True)
    (problem,) = validate_deal(deal(variant, short, CAUGHT)).errors
    translate, plurals = _plurals(lang)

    assert problem.render(translate, plurals).startswith(words)
