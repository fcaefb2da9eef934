"""The HANDnFOOT pack's ladies (its red threes) added to a clean book for a bonus: a rule
parameter only a deck whose red threes may join books has, 100 a lady by default, scored to
the point and refused by name where the cards or the rules make it impossible."""

from dataclasses import replace
from pathlib import Path

from babel.support import Translations

from scorekeeper.rules.decks import HANDNFOOT, STANDARD
from scorekeeper.rules.entry import LATER_SIDE_FIELDS, DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import PARAM_BY_KEY
from scorekeeper.rules.score_lines import variant_lines
from scorekeeper.rules.scoring import line_keys, score_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Variant, get_variant

TRANSLATIONS = Path(__file__).resolve().parents[3] / "scorekeeper" / "translations"
ONE_PACK = [{"sides": 2, "players": 4, "decks": 1}]


def pack(**changes: object) -> Variant:
    rules = HouseRules(
        name="Pack", based_on="pagat", changes={"deck": "handnfoot", "tables": ONE_PACK, **changes}
    )
    assert rules.problems() == []
    return rules.variant()


PACK = pack()

# Us went out with two clean books of lords, two dirty books, a wild book of jesters, and two
# ladies on the clean books; Them laid a lady down and holds another.
OUT = SideEntry(
    meld_points=655,
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    ladies_in_books=2,
    went_out=True,
    cards_left_points=5,
)
CAUGHT = SideEntry(
    meld_points=300,
    clean_books=1,
    dirty_books=1,
    red_threes_down=1,
    red_threes_held=1,
    cards_left_points=120,
)


def deal(variant: Variant, *sides: SideEntry) -> DealEntry:
    return DealEntry(variant, 1, sides, players=4)


def errors(variant: Variant, *sides: SideEntry) -> list[tuple[int | None, str | None, str]]:
    return [(p.side, p.field, p.message) for p in validate_deal(deal(variant, *sides)).errors]


def test_the_pack_s_ladies_may_join_books_and_a_standard_deck_s_red_threes_never_do() -> None:
    assert HANDNFOOT.red_threes_join_books and HANDNFOOT.red_three_book_bonus == 100
    assert not STANDARD.red_threes_join_books
    assert any("A lady added to a clean book earns 100" in note for note in HANDNFOOT.inferred)


def test_choosing_the_pack_brings_100_a_lady_and_a_table_may_set_its_own() -> None:
    assert PACK.book_bonus.lady == 100
    assert pack(**{"book_bonus.lady": 150}).book_bonus.lady == 150
    assert pack(**{"book_bonus.lady": None}).book_bonus.lady is None
    assert set(PARAM_BY_KEY["book_bonus.lady"].built_in_values().values()) == {None}


def test_a_lady_bonus_with_standard_decks_is_refused_by_name() -> None:
    rules = HouseRules(name="Ours", based_on="pagat", changes={"book_bonus.lady": 100})

    assert [(p.field, p.message) for p in rules.problems()] == [
        (
            "book_bonus.lady",
            "Bonus for each red three added to a clean book: the red threes of standard decks "
            "of 54 cards never join a book, so it must be empty (entered 100).",
        )
    ]


def test_two_ladies_in_clean_books_score_100_each() -> None:
    assert errors(PACK, OUT, CAUGHT) == []

    out, caught = score_deal(deal(PACK, OUT, CAUGHT))

    assert out.breakdown["ladies_in_books"] == 200
    assert caught.breakdown["ladies_in_books"] == 0
    # 655 melded + 2 x 500 + 2 x 300 + 1500 + 2 ladies x 100 + 100 going out - 5.
    assert out.total == 4050
    # 300 melded + 500 + 300 + 100 laid down - 100 held - 120.
    assert caught.total == 980


def test_a_table_s_own_lady_bonus_prices_the_line() -> None:
    out, _caught = score_deal(deal(pack(**{"book_bonus.lady": 250}), OUT, CAUGHT))

    assert out.breakdown["ladies_in_books"] == 500
    assert out.total == 4350


def test_the_line_is_there_only_where_the_rules_have_the_bonus() -> None:
    assert "ladies_in_books" in line_keys(PACK)
    assert "ladies_in_books" not in line_keys(get_variant("pagat"))
    assert "ladies_in_books" not in line_keys(pack(**{"book_bonus.lady": None}))
    assert "ladies_in_books" in LATER_SIDE_FIELDS
    assert [line.key for line in variant_lines(PACK)].index("ladies_in_books") == 4


def test_ladies_in_books_where_the_rules_pay_nothing_for_them_are_refused() -> None:
    side = SideEntry(
        meld_points=655,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        ladies_in_books=1,
        went_out=True,
        cards_left_points=5,
    )

    assert errors(get_variant("pagat"), side, CAUGHT) == [
        (
            0,
            "ladies_in_books",
            "Side 1: Partnership (pagat.com) has no bonus for red threes added to clean books, "
            "so none can be scored.",
        )
    ]


def test_ladies_in_books_count_against_the_pack_s_ten_ladies() -> None:
    caught = SideEntry(
        meld_points=300,
        clean_books=1,
        dirty_books=1,
        ladies_in_books=6,
        red_threes_down=2,
        red_threes_held=1,
        cards_left_points=120,
    )

    assert errors(PACK, OUT, caught) == [
        (
            None,
            "ladies_in_books",
            "Together, the sides have 11 red threes (Side 1 2, Side 2 9), 8 of them added to "
            "clean books, but 1 decks hold only 10.",
        )
    ]
    assert errors(PACK, OUT, replace(caught, ladies_in_books=5)) == []


def test_a_side_with_no_clean_book_holds_no_lady() -> None:
    caught = SideEntry(meld_points=300, dirty_books=1, ladies_in_books=1, cards_left_points=120)

    found = validate_deal(deal(PACK, OUT, caught)).errors

    assert [(p.side, p.field, p.message) for p in found] == [
        (
            1,
            "ladies_in_books",
            "Side 2: 1 red threes added to clean books, but the side has no clean book to add "
            "them to.",
        )
    ]
    french = Translations.load(str(TRANSLATIONS), ["fr"]).gettext
    assert found[0].render(french) == (
        "Side 2 : 1 trois rouges ajoutés aux canastas propres, mais le camp n'a aucune "
        "canasta propre où les ajouter."
    )


def test_a_clean_book_of_the_special_rank_holds_a_lady_too() -> None:
    sevens = pack(**{"book_bonus.special_rank": "7", "book_bonus.special": 1000})
    caught = SideEntry(
        meld_points=300, special_books=1, dirty_books=1, ladies_in_books=1, cards_left_points=120
    )

    assert errors(sevens, OUT, caught) == []
