"""The HANDnFOOT pack's ladies (its red threes) added to a clean book for a bonus: a legal
action where the rules pay for it, refused for a dirty book, a meld that is not yet a book, a
side with no book and rules without the bonus; the book stays clean, and the entry the engine
produces counts the ladies as the score sheet does."""

from __future__ import annotations

from engine_helpers import meld, refused, table

from scorekeeper.engine import (
    AddRedThree,
    Discard,
    Face,
    HeuristicBot,
    LayRedThrees,
    Meld,
    Phase,
    Play,
    apply,
    deal_totals,
    legal_actions,
    side_entries,
    to_deal_entry,
)
from scorekeeper.engine.fuzz import entry_disagreements
from scorekeeper.engine.melds import TableMeld
from scorekeeper.engine.state import DealEnd, DealState, Outcome
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import Variant, get_variant


def pack(based_on: str, **changes: object) -> Variant:
    """House rules played with one HANDnFOOT pack a table (its ladies: 100 each by default)."""
    tables = [{"sides": 2, "players": 2, "decks": 1}, {"sides": 2, "players": 4, "decks": 1}]
    rules = HouseRules(
        name="Pack", based_on=based_on, changes={"deck": "handnfoot", "tables": tables, **changes}
    )
    assert rules.problems() == []
    return rules.variant()


PAIRS = pack("pagat")
"""Partnership rules: a lady found is laid down at once, or added to a clean book instead."""
ALONE = pack("simpson")
"""Each for themselves: ladies are never laid down, so they are held, discarded or added."""

NOT_A_CLEAN_BOOK = "A red three joins only a clean book of your side: meld number {} is not one."


def accepted_and_scored_alike(state: DealState) -> tuple[int, ...]:
    entry = to_deal_entry(state)
    assert [error.message for error in validate_deal(entry).errors] == []
    assert entry_disagreements(state, entry) == []
    return deal_totals(state)


def test_a_pack_variant_pays_100_a_lady_in_a_clean_book_by_default() -> None:
    assert PAIRS.book_bonus.lady == 100
    assert ALONE.book_bonus.lady == 100
    assert get_variant("pagat").book_bonus.lady is None


def test_a_lady_held_goes_onto_a_clean_book_instead_of_being_laid_down() -> None:
    state = table(ALONE, ["R3 5 6 9", "4 4"], melds={0: [meld("K", 7)]})

    apply(state, AddRedThree(0))

    assert state.hands[0][Face.RED_THREE] == 0
    assert state.melds[0][0].red_threes == 1
    assert state.melds[0][0].kind.value == "clean"
    assert side_entries(state)[0].ladies_in_books == 1


def test_where_red_threes_go_down_at_once_a_lady_may_go_onto_a_clean_book_instead() -> None:
    state = table(PAIRS, ["R3 R3 5 6", "4 4"], melds={0: [meld("K", 7), meld("Q", 5)]})

    assert set(legal_actions(state)) == {AddRedThree(0), LayRedThrees()}
    apply(state, AddRedThree(0))
    apply(state, AddRedThree(0))

    assert state.melds[0][0].red_threes == 2
    assert state.red_threes_down == [0, 0]


def test_a_lady_is_refused_for_a_dirty_book_an_unfinished_meld_or_a_side_with_no_book() -> None:
    melds = {0: [meld("K", 6, twos=1), meld("Q", 5)]}
    state = table(ALONE, ["R3 5 6 9", "4 4"], melds=melds)

    assert refused(state, AddRedThree(0)) == NOT_A_CLEAN_BOOK.format(1)
    assert refused(state, AddRedThree(1)) == NOT_A_CLEAN_BOOK.format(2)
    assert refused(state, AddRedThree(2)) == "Your side has no meld number 3."
    assert not any(isinstance(action, AddRedThree) for action in legal_actions(state))

    no_book = table(ALONE, ["R3 5 6 9", "4 4"])
    assert refused(no_book, AddRedThree(0)) == "Your side has no meld number 1."


def test_a_lady_is_refused_where_the_rules_pay_no_bonus_for_it() -> None:
    state = table(get_variant("simpson"), ["R3 5 6 9", "4 4"], melds={0: [meld("K", 7)]})

    assert refused(state, AddRedThree(0)) == (
        "Under these rules red threes are never added to books."
    )


def test_a_book_holding_a_lady_takes_no_wild_card() -> None:
    state = table(ALONE, ["R3 2 5 9", "4 4"], melds={0: [meld("K", 7)]})
    apply(state, AddRedThree(0))

    assert refused(state, Meld((Play(Face.KING, 0, twos=1, onto=0),))) == (
        "A book holding a red three stays clean: no wild card may join it."
    )


def test_the_ladies_in_books_are_scored_by_the_sheet_as_by_the_engine() -> None:
    state = table(
        ALONE,
        ["", "5"],
        feet=[None, None],
        melds={0: [meld("K", 7), meld("Q", 7), meld("J", 6, twos=1)], 1: [meld("A", 3)]},
        phase=Phase.OVER,
    )
    state.melds[0][0] = TableMeld(Face.KING, 7, red_threes=2)
    state.outcome = Outcome(DealEnd.WENT_OUT, 0)

    out, other = side_entries(state)

    assert (out.ladies_in_books, out.clean_books, out.dirty_books) == (2, 2, 1)
    assert other.ladies_in_books == 0
    # Melded: 12s, 11s and 10s at 10 each, a jester at 25 (225); two clean books at 300, a
    # dirty one at 100, two ladies at 100 each, 100 for going out. The others: 3 lords, a 5 left.
    assert accepted_and_scored_alike(state) == (225 + 300 + 300 + 100 + 200 + 100, 60 - 5)


def test_the_heuristic_bot_adds_a_lady_to_a_clean_book() -> None:
    state = table(ALONE, ["R3 5 6 9", "4 4"], melds={0: [meld("K", 7)]})

    assert HeuristicBot().choose(state) == AddRedThree(0)


def test_the_heuristic_bot_discards_a_lady_it_cannot_add_to_a_book() -> None:
    state = table(ALONE, ["R3 5 6 9", "4 4"], melds={0: [meld("K", 6, twos=1)]})

    assert HeuristicBot().choose(state) == Discard(Face.RED_THREE)
