"""The engine under a draw and a discard-pile pickup that change from deal to deal (draw 3, 3,
4 and 5 cards; take the top 3, 3, 4 and 5 cards of the pile): each turn draws the deal's
number, a pickup takes the deal's number, and the bots play such games to a score the sheet
accepts and adds up alike."""

from __future__ import annotations

import pytest
from engine_helpers import cards, refused, table

from scorekeeper.engine import DealEnd, Face, Phase, Play, TakePile, apply, legal_actions
from scorekeeper.engine.actions import Draw
from scorekeeper.engine.cards import counts_of
from scorekeeper.engine.fuzz import play_checked
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import Variant

K = Face.KING
BY_DEAL = {"draw_count_by_deal": [3, 3, 4, 5], "pile_take_by_deal": [3, 3, 4, 5]}


def house(based_on: str, **changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


VEGAS_DRAWS = house("pagat", **BY_DEAL)
TWO_PILES = house("simpson", draw_count_by_deal=[3, 3, 3, 3])
FROM_FULL = house("pagat", pile_pickup="top-seven-from-full", pile_take_by_deal=[4, 4, 4, 4])
OTHERS = ["5 6 7 9"] * 3


@pytest.mark.parametrize(
    ("deal", "drawn"), [(1, "4 5 6"), (2, "4 5 6"), (3, "4 5 6 7"), (4, "4 5 6 7 8")]
)
def test_a_turn_draws_the_deals_number_of_cards(deal: int, drawn: str) -> None:
    state = table(
        VEGAS_DRAWS, ["K", *OTHERS], phase=Phase.DRAW, stock="Q J 10 9 8 7 6 5 4", deal=deal
    )

    apply(state, Draw())

    assert state.hands[0] == counts_of(cards("K " + drawn))
    assert state.phase is Phase.PLAY


def test_without_the_rule_a_turn_draws_two() -> None:
    state = table(house("pagat"), ["K", *OTHERS], phase=Phase.DRAW, stock="9 8 7 6", deal=4)

    apply(state, Draw())

    assert state.hands[0] == counts_of(cards("K 7 6"))


def test_a_stock_short_of_the_deals_draw_ends_the_deal() -> None:
    state = table(VEGAS_DRAWS, ["K", *OTHERS], phase=Phase.DRAW, stock="9 8 7", deal=3)

    apply(state, Draw())

    assert state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT
    assert state.hands[0] == counts_of(cards("K"))


def test_two_stock_piles_list_every_way_to_draw_three() -> None:
    state = table(TWO_PILES, ["K", *OTHERS], phase=Phase.DRAW, stock=["9 8 7", "6 5 4"])

    draws = [action for action in legal_actions(state) if isinstance(action, Draw)]

    assert draws == [Draw((0, 0, 0)), Draw((0, 0, 1)), Draw((0, 1, 1)), Draw((1, 1, 1))]


def test_a_draw_names_a_pile_for_each_card_of_the_deal() -> None:
    state = table(TWO_PILES, ["K", *OTHERS], phase=Phase.DRAW, stock=["9 8 7", "6 5 4"])

    assert refused(state, Draw((0, 1))) == (
        "A draw takes 3 cards from the stock in this deal: name a pile for each."
    )
    apply(state, Draw((0, 1, 1)))

    assert state.hands[0] == counts_of(cards("K 7 4 5"))


def test_a_draw_from_one_pile_needs_as_many_cards_there() -> None:
    state = table(TWO_PILES, ["K", *OTHERS], phase=Phase.DRAW, stock=["9 8", "6 5 4"])

    assert "That stock pile does not hold enough cards" in refused(state, Draw((0, 0, 0)))


@pytest.mark.parametrize(
    ("deal", "left", "taken"),
    [(2, "4 5 6 7 8 9 10", "J Q"), (3, "4 5 6 7 8 9", "10 J Q"), (4, "4 5 6 7 8", "9 10 J Q")],
)
def test_a_pickup_takes_the_deals_number_of_cards(deal: int, left: str, taken: str) -> None:
    state = table(
        VEGAS_DRAWS,
        ["K K A", *OTHERS],
        phase=Phase.DRAW,
        pile="4 5 6 7 8 9 10 J Q K",
        opened=[0],
        deal=deal,
    )

    apply(state, TakePile((Play(K, 3),)))

    assert state.pile == cards(left)
    assert state.hands[0] == counts_of(cards("A " + taken))


def test_a_pile_that_must_be_full_needs_the_deals_number_of_cards() -> None:
    state = table(FROM_FULL, ["K K A", *OTHERS], phase=Phase.DRAW, pile="4 5 K", opened=[0])

    assert refused(state, TakePile((Play(K, 3),))) == (
        "The discard pile may be taken only when it holds at least 4 cards."
    )


@pytest.mark.parametrize("variant", [VEGAS_DRAWS, TWO_PILES], ids=["one-pile", "two-piles"])
def test_bots_play_every_deal_and_each_is_accepted_and_scored_alike(variant: Variant) -> None:
    seats = variant.tables[0]

    findings = play_checked(variant, seats, range(6))
    findings += play_checked(variant, seats, range(3), against_heuristic=True)

    assert [str(finding) for finding in findings] == []


def test_a_draw_given_for_too_few_deals_is_refused_by_name() -> None:
    rules = HouseRules(name="Our table", based_on="pagat", changes={"draw_count_by_deal": [3, 4]})

    assert [problem.message for problem in rules.problems()] == [
        "Cards drawn from the stock each turn, deal by deal must give one number for each of "
        "the 4 deals, or none (entered 2)."
    ]
