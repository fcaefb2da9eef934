"""Two limits some tables put on dirty melds: the most wild cards any meld may hold (three in
Tanglewood's Vegas rules, however the book grows) and a dirty book closed at seven while a
clean one grows (the Roth family rules). The engine refuses a play past either with its own
words, lists no such play among the legal actions, and checks a whole meld alike."""

from __future__ import annotations

from engine_helpers import meld, refused, table

from scorekeeper.engine import DealState, Face, Meld, Play, apply, check_meld, legal_actions
from scorekeeper.engine.going_out import can_go_out
from scorekeeper.rules.gallery import ROTH, TANGLEWOOD_VEGAS
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import Variant

KING = Face.KING
NO_CAP = {"max_meld_size": None, "wild_limit.per_wild": 1, "wild_limit.extra": 1}
CAPPED_WILDS = {**NO_CAP, "wild_limit.most": 3}
CLOSED_DIRTY = {**NO_CAP, "max_dirty_meld_size": 7}
THREE_WILDS_MESSAGE = "Too many wild cards: no meld may hold more than 3 of them."
DIRTY_CLOSED_MESSAGE = (
    "A meld with a wild card can hold at most 7 cards in these rules: a dirty book is closed."
)


def house(**changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on="pagat", changes=changes)
    assert rules.problems() == []
    return rules.variant()


def kings_on_table(variant: Variant, hand: str, kings: int, twos: int) -> DealState:
    """Player 1 holds `hand`; the side has opened with a meld of kings and twos."""
    return table(
        variant,
        [hand, "5 6 7 9", "5 6 7 9", "5 6 7 9"],
        melds={0: [meld("K", kings, twos)]},
        opened=[0],
    )


def onto_kings(naturals: int = 0, twos: int = 0) -> Meld:
    return Meld((Play(KING, naturals, twos, 0, 0),))


def listed(state: DealState, action: Meld) -> bool:
    return action in legal_actions(state)


def test_a_fourth_wild_card_is_refused_however_many_naturals_the_meld_holds() -> None:
    state = kings_on_table(house(**CAPPED_WILDS), "2 5 6", kings=7, twos=3)

    assert refused(state, onto_kings(twos=1)) == THREE_WILDS_MESSAGE
    assert not listed(state, onto_kings(twos=1))


def test_without_the_cap_the_natural_cards_alone_decide() -> None:
    state = kings_on_table(house(**NO_CAP), "2 5 6", kings=7, twos=3)

    assert listed(state, onto_kings(twos=1))
    apply(state, onto_kings(twos=1))

    assert state.melds[0][0].twos == 4


def test_a_third_wild_card_stays_legal_under_the_cap() -> None:
    state = kings_on_table(house(**CAPPED_WILDS), "2 5 6", kings=4, twos=2)

    assert listed(state, onto_kings(twos=1))
    apply(state, onto_kings(twos=1))

    assert (state.melds[0][0].naturals, state.melds[0][0].twos) == (4, 3)


def test_a_dirty_book_takes_no_eighth_card() -> None:
    state = kings_on_table(house(**CLOSED_DIRTY), "K 2 5 6", kings=5, twos=2)

    assert refused(state, onto_kings(naturals=1)) == DIRTY_CLOSED_MESSAGE
    assert not listed(state, onto_kings(naturals=1))


def test_a_clean_book_grows_past_seven_but_takes_no_wild_card_there() -> None:
    state = kings_on_table(house(**CLOSED_DIRTY), "K 2 5 6", kings=7, twos=0)

    assert refused(state, onto_kings(twos=1)) == DIRTY_CLOSED_MESSAGE
    assert not listed(state, onto_kings(twos=1))
    assert listed(state, onto_kings(naturals=1))
    apply(state, onto_kings(naturals=1))

    assert state.melds[0][0].naturals == 8


def test_a_dirty_meld_short_of_seven_still_grows_to_seven() -> None:
    state = kings_on_table(house(**CLOSED_DIRTY), "K K 5 6", kings=4, twos=2)

    assert refused(state, onto_kings(naturals=2)) == DIRTY_CLOSED_MESSAGE
    apply(state, onto_kings(naturals=1))

    assert state.melds[0][0].size == 7


def test_going_out_is_not_within_reach_through_a_closed_dirty_book() -> None:
    """Four clean and four dirty books down, a player in the foot melds seven queens for the
    fifth clean book and discards the five: only where the dirty book of kings still takes
    the king left over."""
    books = [meld("A", 7), meld("J", 7), meld("10", 7), meld("9", 7), meld("K", 5, 2)]
    books += [meld("8", 5, 2), meld("7", 5, 2), meld("6", 5, 2)]

    def in_foot(variant: Variant) -> DealState:
        return table(
            variant,
            ["K Q Q Q Q Q Q Q 5", "5 6 7 9", "5 6 7 9", "5 6 7 9"],
            feet=[None, "5", None, "5"],
            foot_played=[0, 2],
            melds={0: books},
            opened=[0],
        )

    roth = ROTH.variant()
    open_dirty = house(**{**dict(ROTH.changes), "max_dirty_meld_size": None})

    assert can_go_out(in_foot(open_dirty), 0)
    assert not can_go_out(in_foot(roth), 0)


def test_a_whole_meld_is_checked_against_both_limits() -> None:
    vegas = TANGLEWOOD_VEGAS.variant()
    roth = ROTH.variant()

    assert check_meld(vegas, 1, "K", 6, 3).legal
    assert [str(r) for r in check_meld(vegas, 1, "K", 8, 4).reasons] == [THREE_WILDS_MESSAGE]
    assert check_meld(roth, 1, "K", 9).legal
    assert check_meld(roth, 1, "K", 4, 3).legal
    assert [str(r) for r in check_meld(roth, 1, "K", 6, 2).reasons] == [DIRTY_CLOSED_MESSAGE]


def test_the_plays_listed_under_one_cap_are_not_kept_for_rules_without_it() -> None:
    """The legal-action list keeps its answers by variant: rules that differ only in a cap
    list their own plays, whichever was asked first."""
    capped = kings_on_table(house(**CAPPED_WILDS), "2 5 6", kings=7, twos=3)
    free = kings_on_table(house(**NO_CAP), "2 5 6", kings=7, twos=3)
    closed = kings_on_table(house(**CLOSED_DIRTY), "K 2 5 6", kings=7, twos=0)
    open_dirty = kings_on_table(house(**NO_CAP), "K 2 5 6", kings=7, twos=0)

    assert not listed(capped, onto_kings(twos=1))
    assert listed(free, onto_kings(twos=1))
    assert not listed(closed, onto_kings(twos=1))
    assert listed(open_dirty, onto_kings(twos=1))
