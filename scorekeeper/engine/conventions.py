"""Facts of play the variant data leaves implicit, read by the engine alone.

Every value here is the same for all variants or follows from a `Variant` field; none of
them depends on a variant's id.
"""

from __future__ import annotations

from typing import Final

from ..rules.variants import DRAW_COUNT as DRAW_COUNT
from ..rules.variants import MATCHING_TO_TAKE as MATCHING_TO_TAKE
from ..rules.variants import PILE_TAKE as PILE_TAKE
from ..rules.variants import Variant

MIN_MELD: Final = 3
"""A new meld holds at least three cards."""

CUT_SPREAD: Final = 2.0
"""Where players cut their own packets, the standard deviation of a cut around the target
(hand plus foot): a cut of exactly the target then happens about one time in five."""

CUT_REACH: Final = 8
"""A cut is never further than this many cards from the target."""


def cut_target(variant: Variant, deal: int) -> int:
    """The packet a player cuts for themself in deal `deal`: a hand and a foot (22 in
    Simpson's rules, 22, 26, 30 and 34 where the packets grow by two cards a deal)."""
    return variant.hand_size_for(deal) + variant.foot_size_for(deal)
