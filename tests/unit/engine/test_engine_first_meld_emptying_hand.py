"""A first meld that lays down the whole hand needs no minimum, where the table says so
(``first_meld_waived_to_empty_hand``: jcj59's "Marva rule")."""

from __future__ import annotations

from engine_helpers import refused, table

from scorekeeper.engine import apply, legal_actions, refusal
from scorekeeper.engine.actions import Meld, Play
from scorekeeper.engine.cards import Face
from scorekeeper.rules.gallery import JCJ59_EAST_COAST
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import BUILT_IN, Variant

MARVA = HouseRules("Marva", "pagat", {"first_meld_waived_to_empty_hand": True}).checked_variant()
FIVES = Meld((Play(Face.FIVE, 3),))
"""Three fives: 15 card points, far below deal 2's 90."""


def test_a_short_first_meld_that_empties_the_hand_is_allowed() -> None:
    state = table(MARVA, ["5 5 5", "K Q J"], deal=2)

    assert refusal(state, FIVES) is None
    assert FIVES in legal_actions(state)
    apply(state, FIVES)
    assert state.opened[0]
    assert not any(state.hands[0])


def test_without_the_rule_the_same_meld_is_short() -> None:
    state = table(BUILT_IN["pagat"], ["5 5 5", "K Q J"], deal=2)

    assert "90" in refused(state, FIVES)
    assert FIVES not in legal_actions(state)


def test_a_short_first_meld_that_keeps_cards_in_hand_is_still_short() -> None:
    state = table(MARVA, ["5 5 5 K", "K Q J"], deal=2)

    assert "90" in refused(state, FIVES)


def test_in_the_foot_a_short_first_meld_is_still_short() -> None:
    state = table(MARVA, ["5 5 5 K", "K Q J"], feet=[None, "K Q J"], deal=2)

    assert "90" in refused(state, FIVES)


def test_the_east_coast_rules_play_the_rule() -> None:
    variant: Variant = JCJ59_EAST_COAST.variant()
    state = table(variant, ["5 5 5", "K Q J"], deal=4)

    assert refusal(state, FIVES) is None
