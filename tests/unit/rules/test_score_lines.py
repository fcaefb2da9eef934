"""The score-line spec: every line described once, and the new lines priced from the rules' data."""

from dataclasses import replace

from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry, SideEntry
from scorekeeper.rules.messages import FIELD_TERMS
from scorekeeper.rules.score_lines import (
    ENTRY_FIELDS,
    LINE_SPECS,
    entered_fields,
    line_label,
    variant_lines,
)
from scorekeeper.rules.scoring import line_keys, score_deal, shown_line_keys
from scorekeeper.rules.variants import PAGAT, BookBonus, RedThreeScore

SEVENS = PAGAT.with_changes(
    id="sevens",
    book_bonus=replace(PAGAT.book_bonus, special=1000, special_rank="7", red_three=800),
    red_three=RedThreeScore(down=100, held=-100, down_not_out=50),
    going_out_concealed_bonus=200,
)


def scores(*sides: SideEntry, stock_ran_out: bool = False) -> list[int]:
    entry = DealEntry(SEVENS, 1, sides, stock_ran_out=stock_ran_out)
    return [score.total for score in score_deal(entry)]


def test_every_entry_field_is_described_once_and_named_in_messages() -> None:
    assert set(ENTRY_FIELDS) == set(SIDE_FIELDS)
    assert set(SIDE_FIELDS) <= set(FIELD_TERMS)
    assert str(FIELD_TERMS["special_books"]) == "clean books of the special rank"


def test_pagat_has_none_of_the_new_lines() -> None:
    assert line_keys(PAGAT) == (
        "meld_points",
        "clean_books",
        "dirty_books",
        "wild_books",
        "red_threes",
        "going_out",
        "cards_left",
    )
    assert [field.name for field in entered_fields(PAGAT)] == [
        "meld_points",
        "clean_books",
        "dirty_books",
        "wild_books",
        "red_threes_down",
        "red_threes_held",
        "went_out",
        "cards_left_points",
    ]


def test_the_rules_data_adds_special_and_red_three_books_and_going_out_concealed() -> None:
    assert shown_line_keys(SEVENS) == (
        "meld_points",
        "clean_books",
        "dirty_books",
        "wild_books",
        "special_books",
        "red_three_books",
        "red_threes_down",
        "red_threes_held",
        "going_out",
        "going_out_concealed",
        "cards_left",
    )
    special = LINE_SPECS["special_books"]
    assert str(line_label(special, SEVENS)) == "Clean books of sevens"
    assert str(ENTRY_FIELDS["special_books"].label_for(SEVENS)) == "Clean books of sevens"
    tens = SEVENS.with_changes(book_bonus=replace(SEVENS.book_bonus, special_rank="10"))
    assert str(line_label(special, tens)) == "Clean books of tens"


def test_red_threes_where_never_laid_down_are_named_as_held() -> None:
    simpson_like = PAGAT.with_changes(red_three=RedThreeScore(down=None, held=-500))
    red = next(line for line in variant_lines(simpson_like) if line.key == "red_threes")
    assert str(line_label(red, simpson_like)) == "Red threes still held"
    assert str(line_label(red, PAGAT)) == "Red threes"


def test_a_special_book_scores_its_own_bonus_instead_of_the_clean_one() -> None:
    side = SideEntry(
        meld_points=1000, clean_books=1, special_books=1, dirty_books=2, wild_books=1, went_out=True
    )
    other = SideEntry(meld_points=300, clean_books=1, cards_left_points=60)

    assert scores(side, other) == [1000 + 500 + 1000 + 600 + 1500 + 100, 300 + 500 - 60]
    assert scores(side, other) == [4700, 740]
    same_books_in_pagat = replace(side, clean_books=2, special_books=0)
    assert score_deal(DealEntry(PAGAT, 1, (same_books_in_pagat, other)))[0].total == 4200


def test_red_threes_laid_down_by_a_side_that_did_not_go_out_score_less() -> None:
    out = SideEntry(
        meld_points=900,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes_down=2,
        went_out=True,
    )
    caught = SideEntry(
        meld_points=400, clean_books=1, red_threes_down=2, red_threes_held=1, cards_left_points=35
    )

    assert scores(out, caught) == [900 + 1000 + 600 + 1500 + 200 + 100, 400 + 500 + 100 - 100 - 35]
    assert scores(out, caught) == [4300, 865]


def test_when_the_stock_runs_out_every_laid_down_red_three_scores_as_not_out() -> None:
    side = SideEntry(meld_points=300, red_threes_down=1, cards_left_points=20)
    assert scores(side, side, stock_ran_out=True) == [300 + 50 - 20, 330]


def test_going_out_concealed_adds_its_bonus_to_the_side_that_went_out_only() -> None:
    concealed = SideEntry(
        meld_points=700,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        went_out=True,
        went_out_concealed=True,
    )
    other = SideEntry(meld_points=100, cards_left_points=80)

    assert scores(concealed, other) == [700 + 1000 + 600 + 1500 + 100 + 200, 20]
    assert scores(concealed, other) == [4100, 20]
    not_out = replace(concealed, went_out=False)
    assert scores(not_out, other, stock_ran_out=True) == [3800, 20]


def test_a_red_three_book_scores_its_bonus() -> None:
    side = SideEntry(
        meld_points=500,
        red_three_books=1,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        went_out=True,
    )
    assert scores(side, SideEntry()) == [500 + 800 + 1000 + 600 + 1500 + 100, 0]


def test_a_variant_without_the_bonuses_asks_for_none_of_their_fields() -> None:
    plain = PAGAT.with_changes(book_bonus=BookBonus(clean=500, dirty=300))
    names = {field.name for field in entered_fields(plain)}
    assert not names & {"wild_books", "special_books", "red_three_books", "went_out_concealed"}
