"""What the scoreboard a phone keeps needs to count a deal saved there with no network: each
deal's price lists (``rules.deal_prices``) and the card counter's points, as JSON that
``static/js/offline-sync.js`` adds the kept deal's form fields up with."""

from __future__ import annotations

from scorekeeper.rules.deal_prices import price_lists
from scorekeeper.rules.variants import Variant

from .forms import COUNTER_TARGETS, counter_kinds


def kept_deal_prices(variant: Variant) -> dict[str, object]:
    """``deals``: by deal number, "out" and "in", each a base and the points of one of each
    field; ``counters``: by points field, the points of one card of each counter field, which
    fill that field when it is left empty (as saving does)."""
    deals = {
        str(number): {
            where: {"base": prices.base, "prices": prices.prices} for where, prices in lists.items()
        }
        for number, lists in price_lists(variant).items()
    }
    counters = {
        target: {kind.field_name(where): kind.points for kind in counter_kinds(variant, where)}
        for where, target in COUNTER_TARGETS.items()
    }
    return {"deals": deals, "counters": counters}
