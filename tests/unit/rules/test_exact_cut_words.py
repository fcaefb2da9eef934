"""The exact cut is worded from each deal's own hand and foot: a deal names its number of
cards, and where no one deal applies the words say it in general (or list it by deal)."""

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.messages import FIELD_TERMS
from scorekeeper.rules.score_lines import EXACT_22, LINE_SPECS, exact_cut, line_label
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import get_variant

GROWING = HouseRules(
    name="Growing",
    based_on="simpson",
    changes={"hand_size_by_deal": [11, 13, 15, 17], "foot_size_by_deal": [11, 13, 15, 17]},
).variant()
"""A hand and a foot of 11, 13, 15 and 17 cards: an exact cut of 22, 26, 30 and 34."""


def test_each_deal_names_its_own_exact_cut() -> None:
    line = LINE_SPECS["exact_22"]

    assert [exact_cut(GROWING, deal) for deal in range(1, 5)] == [22, 26, 30, 34]
    assert EXACT_22.label_for(GROWING, 3).message == "Players who cut exactly 30"
    assert line_label(line, GROWING, 4).message == "Cut exactly 34"
    assert line.help_for(GROWING, 2).message == "Each player who cut exactly 26 cards."


def test_a_variant_that_cuts_the_same_in_every_deal_names_its_number() -> None:
    line = LINE_SPECS["exact_22"]

    simpson = get_variant("simpson")

    assert EXACT_22.label_for(simpson).message == "Players who cut exactly 22"
    assert line_label(line, simpson).message == "Cut exactly 22"
    assert line.help_for(simpson).message == "Each player who cut exactly 22 cards."


def test_outside_any_one_deal_the_exact_cut_is_worded_in_general() -> None:
    line = LINE_SPECS["exact_22"]

    assert exact_cut(GROWING) is None
    assert EXACT_22.label_for(GROWING).message == "Players with an exact cut"
    assert EXACT_22.label_for(None).message == "Players with an exact cut"
    assert line_label(line, GROWING).message == "Exact cut"
    assert line.help_for(GROWING).message == (
        "Each player who cut exactly the cards of the deal's hand and foot "
        "(22, 26, 30, 34 by deal)."
    )
    assert FIELD_TERMS["exact_22"].message == "players with an exact cut"


def test_a_refused_exact_cut_names_the_deals_number_of_cards() -> None:
    out = SideEntry(meld_points=600, clean_books=1, dirty_books=1, went_out=True, exact_22=2)
    caught = SideEntry(meld_points=100, cards_left_points=50)
    entry = DealEntry(GROWING, 3, (out, caught), players=2)

    (error,) = [p for p in validate_deal(entry).errors if p.field == "exact_22"]

    assert error.message == (
        "Side 1: only 1 player on this side could cut exactly 30 cards, not 2."
    )
