"""The engine under house rules no built-in variant has: special books that stay clean, books
of red threes, red threes worth less to a side that did not go out, going out concealed, and
black threes worth 100 in hand. Every finished deal is one the score sheet accepts and adds up
alike."""

from __future__ import annotations

import pytest
from engine_helpers import meld, refused, table

from scorekeeper.engine import (
    Discard,
    Draw,
    Face,
    Meld,
    Phase,
    PickUpFoot,
    Play,
    apply,
    check_meld,
    deal_totals,
    legal_actions,
    side_entries,
    to_deal_entry,
)
from scorekeeper.engine.fuzz import entry_disagreements
from scorekeeper.engine.state import DealEnd, DealState, Outcome
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Variant


def house(**changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on="pagat", changes=changes)
    assert rules.problems() == []
    return rules.variant()


SEVENS = house(
    **{
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1000,
        "book_bonus.red_three": 1000,
        "red_three.down_not_out": 50,
        "going_out_concealed_bonus": 100,
        "going_out.1.clean": 1,
        "going_out.1.dirty": 0,
        "going_out.1.wild": 0,
    }
)
SEVENS_WILD_REFUSED = (
    "A meld of sevens makes a special book, which is always clean: no twos or jokers may join it."
)


def accepted_and_scored_alike(state: DealState) -> tuple[int, ...]:
    entry = to_deal_entry(state)
    assert [error.message for error in validate_deal(entry).errors] == []
    assert entry_disagreements(state, entry) == []
    return deal_totals(state)


# --- going out concealed ---------------------------------------------------------------------


def go_out_in_one_turn(variant: Variant, melds_before: bool = False) -> DealState:
    """Player 1 melds the whole hand, picks up the foot and melds it all but a discard."""
    state = table(
        variant,
        ["K K K K K K K Q Q", "5 6 8"],
        feet=["4 4 4 4 4 4 4 J", "K Q J"],
        stock="4 5 6 8 9 Q Q",
        melds={0: [meld("A", 3)]} if melds_before else None,
        phase=Phase.DRAW,
    )
    apply(state, Draw())
    apply(state, Meld((Play(Face.KING, 7), Play(Face.QUEEN, 4))))
    apply(state, PickUpFoot())
    apply(state, Meld((Play(Face.FOUR, 7),)))
    apply(state, Discard(Face.JACK))
    assert state.outcome == Outcome(DealEnd.WENT_OUT, 0)
    return state


def test_a_side_that_goes_out_with_no_meld_before_its_turn_went_out_concealed() -> None:
    state = go_out_in_one_turn(SEVENS)

    out, other = side_entries(state)

    assert out.went_out_concealed and out.went_out
    assert not other.went_out_concealed
    assert accepted_and_scored_alike(state) == (
        7 * 10 + 4 * 10 + 7 * 5 + 2 * 500 + 100 + 100,
        -(5 + 5 + 10) - (10 + 10 + 10),
    )


def test_a_side_with_a_meld_on_the_table_before_its_turn_did_not_go_out_concealed() -> None:
    state = go_out_in_one_turn(SEVENS, melds_before=True)

    out, _other = side_entries(state)

    assert out.went_out and not out.went_out_concealed
    assert accepted_and_scored_alike(state)[0] == 3 * 20 + 7 * 10 + 4 * 10 + 7 * 5 + 1000 + 100


def test_where_the_rules_pay_nothing_for_it_going_out_concealed_is_not_written_down() -> None:
    plain = house(**{"going_out.1.clean": 1, "going_out.1.dirty": 0, "going_out.1.wild": 0})

    state = go_out_in_one_turn(plain)

    assert not side_entries(state)[0].went_out_concealed
    assert accepted_and_scored_alike(state)[0] == 7 * 10 + 4 * 10 + 7 * 5 + 2 * 500 + 100


# --- special books ----------------------------------------------------------------------------


def test_a_meld_of_the_special_rank_may_not_hold_a_wild_card() -> None:
    state = table(SEVENS, ["7 7 7 2 K K K", "5 6 8"])

    assert refused(state, Meld((Play(Face.SEVEN, 3, twos=1), Play(Face.KING, 3)))) == (
        SEVENS_WILD_REFUSED
    )


def test_no_wild_card_joins_a_clean_meld_of_the_special_rank_already_down() -> None:
    state = table(SEVENS, ["7 2 JK K", "5 6 8"], melds={0: [meld("7", 5)]}, opened=[0])

    assert refused(state, Meld((Play(Face.SEVEN, 0, jokers=1, onto=0),))) == SEVENS_WILD_REFUSED
    assert refused(state, Meld((Play(Face.SEVEN, 1, twos=1, onto=0),))) == SEVENS_WILD_REFUSED
    listed = [play for action in legal_actions(state) for play in getattr(action, "plays", ())]
    assert Play(Face.SEVEN, 1, onto=0) in listed
    assert all(play.twos + play.jokers == 0 for play in listed if play.rank is Face.SEVEN)


def test_the_meld_checker_gives_the_reason_a_dirty_meld_of_sevens_is_refused() -> None:
    check = check_meld(SEVENS, 1, "7", naturals=6, twos=1)

    assert not check.legal
    assert check.to_dict()["rules"] == ["special-rank-wilds"]
    assert check.to_dict()["reasons"] == [SEVENS_WILD_REFUSED]
    assert check_meld(SEVENS, 1, "K", naturals=6, twos=1).legal


def test_a_clean_book_of_the_special_rank_scores_as_a_special_book() -> None:
    state = table(
        SEVENS,
        ["", "5"],
        feet=[None, None],
        melds={0: [meld("7", 7), meld("K", 7)], 1: [meld("7", 4), meld("A", 3)]},
        phase=Phase.OVER,
    )
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    out, other = side_entries(state)

    assert (out.special_books, out.clean_books) == (1, 1)
    assert (other.special_books, other.clean_books) == (0, 0)
    assert accepted_and_scored_alike(state) == (35 + 70 + 1000 + 500 + 100, 20 + 60 - 5)


# --- red threes -------------------------------------------------------------------------------


def test_seven_red_threes_a_side_laid_down_make_a_book_and_the_rest_count_one_by_one() -> None:
    state = table(
        SEVENS,
        ["", "5", "6", "8"],
        feet=[None, None, "K", None],
        melds={0: [meld("K", 7)], 1: [meld("Q", 7)]},
        phase=Phase.OVER,
    )
    state.red_threes_down = [1, 5, 0, 3]  # East and West: eight red threes
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    out, other = side_entries(state)

    assert (out.red_three_books, out.red_threes_down) == (0, 1)
    assert (other.red_three_books, other.red_threes_down) == (1, 1)
    assert accepted_and_scored_alike(state) == (
        70 + 500 + 100 + 100 - 5 - 10,
        70 + 500 + 1000 + 50 - 5 - 10,
    )


def test_red_threes_laid_down_when_the_stock_ran_out_are_worth_the_lower_value() -> None:
    state = table(SEVENS, ["5", "6"], melds={0: [meld("K", 5)]}, phase=Phase.OVER)
    state.red_threes_down = [2, 1]
    state.outcome = Outcome(DealEnd.STOCK_RAN_OUT)

    assert accepted_and_scored_alike(state) == (50 + 2 * 50 - 5 - 30, 50 - 5 - 30)


# --- black threes left in hand ----------------------------------------------------------------


@pytest.mark.parametrize(("points", "left"), [(5, 10), (100, 200)])
def test_black_threes_left_in_hand_cost_what_the_rules_say(points: int, left: int) -> None:
    variant = house(**{"card_points.black_three": points})
    books = [meld("K", 7), meld("Q", 7), meld("J", 5, 2), meld("10", 5, 2), meld(None, 0, 4, 3)]
    state = table(variant, ["", "B3 B3"], feet=[None, None], melds={0: books}, phase=Phase.OVER)
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    assert side_entries(state)[1].cards_left_points == left
    assert accepted_and_scored_alike(state)[1] == -left
