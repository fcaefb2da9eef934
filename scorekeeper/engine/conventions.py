"""Facts of play the variant data leaves implicit, read by the engine alone.

Every value here is the same for all variants or follows from a `Variant` field; none of
them depends on a variant's id.
"""

from __future__ import annotations

from typing import Final

from ..rules.variants import DRAW_COUNT as DRAW_COUNT
from ..rules.variants import MATCHING_TO_TAKE as MATCHING_TO_TAKE
from ..rules.variants import PILE_TAKE as PILE_TAKE

MIN_MELD: Final = 3
"""A new meld holds at least three cards."""

CUT_SPREAD: Final = 2.0
"""Where players cut their own packets, the standard deviation of a cut around the target
(hand plus foot): a cut of exactly the target then happens about one time in five."""

CUT_REACH: Final = 8
"""A cut is never further than this many cards from the target."""
