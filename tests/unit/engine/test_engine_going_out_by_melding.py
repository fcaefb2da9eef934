"""The engine where a player goes out only by melding the last card: a discard never takes a
player out, so one playing from the foot keeps two cards or melds them all, and the bots play
such games to a score the sheet accepts and adds up alike."""

from __future__ import annotations

from engine_helpers import meld, refused, table

from scorekeeper.engine import DealEnd, DealState, Discard, Face, Meld, Play, apply
from scorekeeper.engine.fuzz import play_checked
from scorekeeper.engine.going_out import can_go_out
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import Variant

EIGHT, FIVE = Face.EIGHT, Face.FIVE
BOOKS = [meld("A", 7), meld("K", 7), meld("Q", 6, 1), meld("J", 5, 2), meld(None, 0, 5, 2)]
"""Two clean, two dirty and a wild book: enough to go out in pagat's deal 1."""
ALONE = {"going_out_asks_partner": False, "going_out_needs_partner_in_foot": False}
MELD_ONLY_MESSAGE = (
    "In this variant you go out by melding your last card, never by discarding it: keep two "
    "cards or meld them all."
)


def house(**changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on="pagat", changes=changes)
    assert rules.problems() == []
    return rules.variant()


EITHER = house(**ALONE)
MELD_ONLY = house(**ALONE, going_out_by_melding_only=True)


def in_foot(variant: Variant, hand: str) -> DealState:
    """Player 1 plays from the foot with the books to go out on the table."""
    return table(
        variant,
        [hand, "5 6 7 9", "5 6 7 9", "5 6 7 9"],
        feet=[None, "5", "5", "5"],
        melds={0: list(BOOKS)},
    )


def went_out(state: DealState) -> bool:
    return state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT


def test_a_player_cannot_discard_their_last_card_to_go_out() -> None:
    state = in_foot(MELD_ONLY, "5")

    assert refused(state, Discard(FIVE)) == MELD_ONLY_MESSAGE


def test_without_the_rule_the_last_card_is_discarded_to_go_out() -> None:
    state = in_foot(EITHER, "5")

    apply(state, Discard(FIVE))

    assert went_out(state)


def test_a_meld_that_leaves_one_card_is_refused() -> None:
    state = in_foot(MELD_ONLY, "8 8 8 5")

    assert refused(state, Meld((Play(EIGHT, 3),))) == MELD_ONLY_MESSAGE


def test_a_meld_of_every_card_goes_out() -> None:
    state = in_foot(MELD_ONLY, "8 8 8 5 5 5")

    apply(state, Meld((Play(EIGHT, 3), Play(FIVE, 3))))

    assert went_out(state) and state.outcome is not None and state.outcome.player == 0


def test_going_out_is_within_reach_only_by_melding_every_card() -> None:
    assert can_go_out(in_foot(EITHER, "8 8 8 5"), 0)
    assert not can_go_out(in_foot(MELD_ONLY, "8 8 8 5"), 0)
    assert can_go_out(in_foot(MELD_ONLY, "8 8 8 5 5 5"), 0)


def test_both_last_card_rules_at_once_are_refused_by_name() -> None:
    rules = HouseRules(
        name="Our table",
        based_on="pagat",
        changes={"must_discard_to_go_out": True, "going_out_by_melding_only": True},
    )

    assert [problem.message for problem in rules.problems()] == [
        "A player goes out only by melding the last card, never on a discard: a player cannot "
        "both end on a discard and go out only by melding; choose one."
    ]


def test_bots_play_every_deal_and_each_is_accepted_and_scored_alike() -> None:
    seats = MELD_ONLY.tables[0]

    findings = play_checked(MELD_ONLY, seats, range(6))
    findings += play_checked(MELD_ONLY, seats, range(3), against_heuristic=True)

    assert [str(finding) for finding in findings] == []
