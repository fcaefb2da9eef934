"""A finished deal read off the table, and checked against the scoring core and validator."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_helpers import meld, table
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    HeuristicBot,
    Phase,
    deal_totals,
    play_deal,
    play_game,
    side_entries,
    to_deal_entry,
)
from scorekeeper.engine.fuzz import entry_disagreements
from scorekeeper.engine.state import DealEnd, Outcome
from scorekeeper.rules.entry import SIDE_FIELDS, SideEntry
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Variant, all_variants, get_variant

PAGAT = get_variant("pagat")
BROUILLETTE = get_variant("brouillette-high")


def test_a_finished_table_gives_the_score_sheet_entries() -> None:
    state = table(
        PAGAT,
        ["", "K 5 B3", "A 2", ""],
        feet=[None, "R3 4", None, None],
        melds={
            0: [meld("A", 7), meld("K", 5, 2), meld(None, 0, 4, 3), meld("9", 3)],
            1: [meld("Q", 4)],
        },
        phase=Phase.OVER,
    )
    state.red_threes_down = [1, 2, 0, 0]
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    north_south, east_west = side_entries(state)

    assert north_south == SideEntry(
        meld_points=7 * 20 + 5 * 10 + 2 * 20 + 4 * 20 + 3 * 50 + 3 * 10,
        clean_books=1,
        dirty_books=1,
        wild_books=1,
        red_threes_down=1,
        cards_left_points=20 + 20,
        went_out=True,
    )
    assert east_west == SideEntry(
        meld_points=40,
        red_threes_down=2,
        red_threes_held=1,
        cards_left_points=10 + 5 + 5 + 0 + 5,
    )
    assert entry_disagreements(state, to_deal_entry(state)) == []


@pytest.mark.parametrize(
    ("change", "counted"),
    [
        ({"meld_points": 1}, "meld_points"),
        ({"dirty_books": 1}, "books"),
        ({"wild_books": -1, "clean_books": 1}, "wild_books"),
        ({"red_threes_down": 1}, "red_threes"),
        ({"red_threes_held": 1, "red_threes_down": -1}, "red_threes_held"),
        ({"cards_left_points": -5}, "cards_left_points"),
        ({"went_out": -1}, "went_out"),
    ],
)
def test_an_entry_that_says_otherwise_than_its_table_is_found(
    change: dict[str, int], counted: str
) -> None:
    state = table(
        PAGAT,
        ["", "K 5"],
        feet=[None, None],
        melds={0: [meld("A", 7), meld(None, 0, 4, 3)], 1: [meld("Q", 4)]},
        phase=Phase.OVER,
    )
    state.red_threes_down = [1, 0]
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)
    entry = to_deal_entry(state)
    assert entry_disagreements(state, entry) == []
    side = entry.sides[0]
    wrong = replace(side, **{name: getattr(side, name) + step for name, step in change.items()})

    problems = entry_disagreements(state, replace(entry, sides=(wrong, entry.sides[1])))

    assert [problem.split(":")[0] for problem in problems] == [f"side 0 {counted}"]


def test_melded_black_threes_count_against_where_the_variant_says_so() -> None:
    state = table(
        BROUILLETTE,
        ["5", "5"],
        feet=[None, None],
        melds={0: [meld("B3", 7), meld("K", 4)]},
        phase=Phase.OVER,
    )
    state.outcome = Outcome(DealEnd.STOCK_RAN_OUT)

    entry = side_entries(state)[0]

    assert entry.meld_points == 7 * -5 + 40 and entry.black_three_books == 1
    assert deal_totals(state)[0] == 7 * -5 + 40 + 300 - 5


def test_the_demo_json_has_the_score_apis_side_fields() -> None:
    data = play_game("simpson", 4).to_dict()

    assert data["variant"] == "simpson" and data["seed"] == 4
    assert len(data["sides"]) == 4 and len(data["deals"]) == 4
    for deal in data["deals"]:
        assert set(deal) == {"deal", "stock_ran_out", "sides", "totals"}
        assert all(list(side) == list(SIDE_FIELDS) for side in deal["sides"])
        assert len(deal["totals"]) == 4


@settings(max_examples=100, deadline=None)
@given(variant=st.sampled_from(all_variants()), seed=st.integers(0, 2**32 - 1))
def test_every_demo_deal_validates_and_says_what_its_table_holds(
    variant: Variant, seed: int
) -> None:
    game = play_game(variant, seed)

    rng = random.Random(seed)
    bots = [HeuristicBot()] * game.table.players
    scores = [0] * game.table.sides
    for deal in game.deals:
        report = validate_deal(deal.entry, game.side_names)
        assert report.errors == (), [problem.message for problem in report.errors]
        state = play_deal(variant, deal.deal, game.table, rng, bots, scores)
        assert to_deal_entry(state) == deal.entry
        assert entry_disagreements(state, deal.entry) == []
        scores = [score + total for score, total in zip(scores, deal.totals, strict=True)]
