"""Small builders for engine tests: tables laid out from short card strings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from scorekeeper.engine import Action, DealState, IllegalAction, Phase, apply, arrange, refusal
from scorekeeper.engine.cards import Face, parse_faces
from scorekeeper.engine.melds import TableMeld
from scorekeeper.rules.variants import Variant

FILLER = "4 5 6 7 8 9 10 J Q K A 4 5 6 7 8 9 10 J Q K A"
"""A harmless stock: naturals only, no threes or wild cards."""


def cards(text: str) -> list[Face]:
    return parse_faces(text)


def meld(rank: str | None, naturals: int, twos: int = 0, jokers: int = 0) -> TableMeld:
    face = None if rank is None else parse_faces(rank)[0]
    return TableMeld(face, naturals, twos, jokers)


def table(
    variant: Variant,
    hands: Sequence[str],
    *,
    feet: Sequence[str | None] | None = None,
    stock: str | Sequence[str] = FILLER,
    pile: str = "",
    melds: Mapping[int, Sequence[TableMeld]] | None = None,
    opened: Sequence[int] = (),
    foot_played: Sequence[int] = (),
    deal: int = 1,
    phase: Phase = Phase.PLAY,
    current: int = 0,
) -> DealState:
    """A deal laid out by hand; feet default to a few cards still on the table."""
    piles = [stock] if isinstance(stock, str) else list(stock)
    foot_cards = feet if feet is not None else ["K Q J"] * len(hands)
    return arrange(
        variant,
        deal=deal,
        hands=[cards(hand) for hand in hands],
        feet=[None if foot is None else cards(foot) for foot in foot_cards],
        stock=[cards(pile_text) for pile_text in piles],
        pile=cards(pile),
        melds=melds,
        opened=opened,
        foot_played=foot_played,
        current=current,
        phase=phase,
    )


def refused(state: DealState, action: Action) -> str:
    """The message `apply` refuses the action with (the test fails if it is accepted)."""
    before = state.card_counts()
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert state.card_counts() == before
    assert refusal(state, action) is not None
    return str(caught.value)
