"""A game's summary for the statistics: every line of every deal falls in one chart group."""

from sample_deals import PAGAT_CAUGHT, PAGAT_OUT

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.game import score_game
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.store.game_summary import side_summary

SEVENS = HouseRules(
    name="Sevens",
    based_on="pagat",
    changes={
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1000,
        "book_bonus.red_three": 1000,
        "going_out_concealed_bonus": 100,
    },
).variant()


def test_special_books_red_three_books_and_going_out_concealed_are_charted_in_their_groups():
    out = SideEntry(
        meld_points=1300,
        clean_books=2,
        special_books=1,
        dirty_books=2,
        wild_books=1,
        red_threes_down=2,
        cards_left_points=15,
        went_out=True,
        went_out_concealed=True,
    )
    caught = SideEntry(
        meld_points=600, clean_books=1, dirty_books=1, red_three_books=1, cards_left_points=120
    )
    entries = [
        DealEntry(SEVENS, 1, (out, caught)),
        DealEntry(SEVENS, 2, (PAGAT_CAUGHT, PAGAT_OUT)),
    ]

    first, second = (side_summary(score_game(SEVENS, ("Us", "Them"), entries), i) for i in (0, 1))

    assert dict(first.lines)["books"] == 1000 + 1000 + 600 + 1500 + 500 + 300
    assert dict(first.lines)["going_out"] == 100 + 100
    assert dict(second.lines)["books"] == 500 + 300 + 1000 + 1000 + 600 + 1500
    assert sum(points for _group, points in first.lines) == first.total == 5785 + 1280
