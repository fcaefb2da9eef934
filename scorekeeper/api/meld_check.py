"""The meld checker's JSON: a request read and answered through the engine's `check_meld`."""

from __future__ import annotations

from typing import Any

from scorekeeper.engine.melds import check_meld
from scorekeeper.rules.decks import HANDNFOOT, STANDARD, Deck, get_deck
from scorekeeper.rules.json_entry import MOST_RUNNING_SCORE, Describe, read_object
from scorekeeper.rules.messages import N_, Problem
from scorekeeper.rules.params import VariantRejected
from scorekeeper.rules.variant_json import resolve_variant
from scorekeeper.rules.variants import MAX_DEALS, UnknownVariant, Variant
from scorekeeper.store.catalogue import find_variant

MELD_FIELDS = (
    "variant",
    "deal",
    "rank",
    "naturals",
    "twos",
    "jokers",
    "first_meld",
    "running_score",
)
COUNT_FIELDS = ("naturals", "twos", "jokers")


def meld_ranks(deck: Deck) -> tuple[str, ...]:
    """The ranks a meld of `deck` may give: its natural ranks, and 3 for black threes."""
    return (*deck.rank_symbols, deck.black_three_rank)


RANKS = meld_ranks(STANDARD)
"""The ranks of standard decks, which the schema lists; a variant played with another deck
takes that deck's ranks instead."""
PACK_RANKS = meld_ranks(HANDNFOOT)
MOST_CARDS = 100


def _problem(field: str | None, template: str, /, **params: object) -> Problem:
    return Problem(None, field, template, params)


def answer_meld_check(
    data: object, describe: Describe = Problem.to_dict
) -> tuple[dict[str, Any], bool]:
    """The answer body, and whether the request could be read at all (``describe``: how
    each problem is stated)."""
    if not isinstance(data, dict):
        return {"errors": [describe(_problem(None, N_("The meld must be a JSON object.")))]}, False
    problems: list[Problem] = []
    values = read_object(
        data, MELD_FIELDS, None, problems, bools=("first_meld",), unread=("variant", "rank")
    )
    variant = _variant(values, problems)
    deal = values.get("deal", 1)
    last = variant.deals if variant is not None else MAX_DEALS
    if isinstance(deal, int) and not 1 <= deal <= last:
        problems.append(
            _problem(
                "deal",
                N_("The deal must be a number from 1 to {last}, not {value}."),
                last=last,
                value=deal,
            )
        )
    rank = values.get("rank")
    ranks = meld_ranks(get_deck(variant.deck)) if variant is not None else RANKS
    if rank is not None and rank not in ranks:
        problems.append(
            _problem(
                "rank",
                N_("rank must be one of {ranks}, or null for an all-wild meld."),
                ranks=", ".join(ranks),
            )
        )
    for field in COUNT_FIELDS:
        count = values.get(field, 0)
        if isinstance(count, int) and not 0 <= count <= MOST_CARDS:
            problems.append(
                _problem(
                    field, N_("{field} must be between 0 and {most}."), field=field, most=MOST_CARDS
                )
            )
    running_score = values.get("running_score")
    if isinstance(running_score, int) and abs(running_score) > MOST_RUNNING_SCORE:
        problems.append(
            _problem(
                "running_score",
                N_("{field} must be between -{most} and {most}."),
                field="running_score",
                most=MOST_RUNNING_SCORE,
            )
        )
    if problems or variant is None:
        return {"errors": [describe(p) for p in problems]}, False
    check = check_meld(
        variant,
        int(deal),  # type: ignore[call-overload]
        rank,  # type: ignore[arg-type]
        **{field: int(values.get(field, 0)) for field in COUNT_FIELDS},  # type: ignore[call-overload]
        first_meld=bool(values.get("first_meld", False)),
        running_score=running_score,  # type: ignore[arg-type]
    )
    return check.to_dict(), True


def _variant(values: dict[str, object], problems: list[Problem]) -> Variant | None:
    if "variant" not in values:
        problems.append(_problem("variant", N_("{field} is required."), field="variant"))
        return None
    try:
        return resolve_variant(values["variant"], find_variant)
    except VariantRejected as refusal:
        problems.extend(refusal.problems)
    except (UnknownVariant, TypeError, ValueError):
        problems.append(
            _problem("variant", N_("Unknown variant {value}."), value=repr(values["variant"])[:80])
        )
    return None
