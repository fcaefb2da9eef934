"""A side's deal score as a price list: a base and the points of one of each counted field.

Every line of a side's score is its count times the points of one, where those points depend
only on the variant, the deal's number and whether the side went out (``score_lines``). Once
those two are known, a side's deal total is therefore ``base + sum(count * price)`` over its
entry fields. A page that must add up a deal without a server at hand (a deal form saved on a
phone with no network, counted in the scoreboard the phone kept) gets these lists, made here by
scoring entries of one with ``score_side`` itself, so that the rules are written once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from .entry import COUNT_FIELDS, SideEntry
from .scoring import score_side
from .variants import Variant

CONCEALED = "went_out_concealed"
"""The flag priced as a count of one: it scores only for the side that went out."""


@dataclass(frozen=True, slots=True)
class PriceList:
    """A side's deal total under one variant, in one deal, having gone out or not."""

    base: int
    prices: dict[str, int]
    """The points of one of each field (``went_out_concealed``: of the flag set)."""

    def total(self, counts: dict[str, int]) -> int:
        return self.base + sum(self.prices.get(name, 0) * count for name, count in counts.items())


def price_list(variant: Variant, deal: int, went_out: bool) -> PriceList:
    """What a side's entry fields are worth in deal ``deal`` (1-based): ``went_out`` is whether
    this side went out (no side did when the stock ran out)."""
    empty = SideEntry(went_out=went_out)
    base = score_side(variant, empty, deal=deal).total
    prices = {
        name: score_side(variant, _one_of(empty, name), deal=deal).total - base
        for name in COUNT_FIELDS
    }
    if went_out:
        concealed = replace(empty, went_out_concealed=True)
        prices[CONCEALED] = score_side(variant, concealed, deal=deal).total - base
    return PriceList(base, {name: price for name, price in prices.items() if price})


def _one_of(side: SideEntry, field: str) -> SideEntry:
    """The side's entry with one of ``field`` (a count field)."""
    values = asdict(side)
    values[field] = 1
    return SideEntry(**values)
