"""The engine under card values and packet sizes of published rule sets: it deals each deal's
own hand and foot (11, 13, 15 and 17 cards; a cut of 22, 26, 30 and 34), and counts nines,
eights and black threes at the table's values. Every finished deal is one the score sheet
accepts and adds up alike."""

from __future__ import annotations

import random

import pytest
from engine_helpers import meld, table

from scorekeeper.engine import Phase, deal_totals, new_deal, side_entries, to_deal_entry
from scorekeeper.engine.fuzz import entry_disagreements, play_checked
from scorekeeper.engine.state import DealEnd, Outcome
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Variant


def house(based_on: str, **changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


SIZES = {"hand_size_by_deal": [11, 13, 15, 17], "foot_size_by_deal": [11, 13, 15, 17]}


@pytest.mark.parametrize(("deal", "size"), [(1, 11), (2, 13), (3, 15), (4, 17)])
def test_each_deal_is_dealt_its_own_hand_and_foot(deal: int, size: int) -> None:
    variant = house("pagat", **SIZES)
    seats = variant.table_for(2, 4)
    assert seats is not None

    state = new_deal(variant, deal, seats, random.Random(deal))

    assert [sum(hand) for hand in state.hands] == [size] * 4
    assert [sum(foot or ()) for foot in state.feet] == [size] * 4
    dealt = 4 * 2 * size + len(state.pile)
    assert sum(len(pile) for pile in state.stock) + dealt == 5 * 54


@pytest.mark.parametrize(("deal", "cut"), [(1, 22), (2, 26), (3, 30), (4, 34)])
def test_players_who_cut_their_own_packets_cut_each_deals_hand_and_foot(
    deal: int, cut: int
) -> None:
    variant = house("simpson", **SIZES)
    seats = variant.table_for(3, 3)
    assert seats is not None

    exact = 0
    for seed in range(40):
        state = new_deal(variant, deal, seats, random.Random(seed))
        hands = [sum(hand) for hand in state.hands]
        feet = [sum(foot or ()) for foot in state.feet]
        assert hands == feet == [cut // 2] * 3
        exact += sum(state.exact_22)
    assert exact > 0  # some players lift exactly the deal's cut at the first attempt


ROTH = house(
    "simpson", **{"card_points.nine": 5, "card_points.eight": 5, "card_points.black_three": 0}
)


@pytest.mark.parametrize(
    ("variant", "left"),
    [(ROTH, 5 + 5 + 0 + 0 + 10), (house("simpson"), 10 + 10 + 5 + 5 + 10)],
)
def test_cards_left_count_nines_eights_and_black_threes_at_the_tables_values(
    variant: Variant, left: int
) -> None:
    books = [meld("K", 7), meld("Q", 5, 2)]
    state = table(
        variant,
        ["", "9 8 B3 B3 K"],
        feet=[None, None],
        melds={0: books},
        phase=Phase.OVER,
    )
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    out, caught = side_entries(state)

    assert caught.cards_left_points == left
    assert out.meld_points == 7 * 10 + 5 * 10 + 2 * 20
    entry = to_deal_entry(state)
    assert [error.message for error in validate_deal(entry).errors] == []
    assert entry_disagreements(state, entry) == []
    assert deal_totals(state) == (160 + 300 + 100 + 100, -left)


def test_melded_nines_and_eights_count_at_the_tables_values() -> None:
    books = [meld("9", 7), meld("8", 5, 2)]
    state = table(ROTH, ["", "4"], feet=[None, None], melds={0: books}, phase=Phase.OVER)
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    out, caught = side_entries(state)

    assert out.meld_points == 7 * 5 + 5 * 5 + 2 * 20 == 100
    assert caught.cards_left_points == 5
    assert deal_totals(state) == (100 + 300 + 100 + 100, -5)


ROTH_GROWING = house(
    "simpson",
    **SIZES,
    **{"card_points.nine": 5, "card_points.eight": 5, "card_points.black_three": 0},
)
PARTNERS_GROWING = house("pagat", **SIZES, **{"card_points.nine": 5, "card_points.black_three": 0})


@pytest.mark.parametrize("variant", [ROTH_GROWING, PARTNERS_GROWING], ids=["roth", "partners"])
def test_bots_play_every_deal_and_each_is_accepted_and_scored_alike(variant: Variant) -> None:
    seats = variant.tables[0]

    findings = play_checked(variant, seats, range(8))
    findings += play_checked(variant, seats, range(4), against_heuristic=True)

    assert [str(finding) for finding in findings] == []
