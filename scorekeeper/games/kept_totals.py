"""What a deal form gives the phone to count the deal in the scoreboard it kept, when the deal
is saved there with no network: the deal's price lists (``rules.deal_prices``) and the card
counter's points, as JSON that ``static/js/offline-store.js`` adds the form's fields up with."""

from __future__ import annotations

from scorekeeper.games.forms import COUNTER_TARGETS, counter_kinds
from scorekeeper.rules.deal_prices import price_list
from scorekeeper.rules.variants import Variant


def kept_deal_prices(variant: Variant, number: int) -> dict[str, object]:
    """For deal ``number``: "out" and "in", a side's base and the points of one of each field
    when it went out and when it did not; "counters", by points field, the points of one card
    of each counter field, which fill that field when it is left empty (as saving does)."""
    lists = {
        where: {"base": prices.base, "prices": prices.prices}
        for where, prices in (
            ("out", price_list(variant, number, True)),
            ("in", price_list(variant, number, False)),
        )
    }
    counters = {
        target: {kind.field_name(where): kind.points for kind in counter_kinds(variant, where)}
        for where, target in COUNTER_TARGETS.items()
    }
    return {**lists, "counters": counters}
