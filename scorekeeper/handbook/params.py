"""Every rule parameter in words, as the rules pages and the comparison show it.

The rows are the rules' one description of each parameter (``rules.params``): its label, its
section, the words for its choices and how the pages read it. What this module adds is the
prose for values that several fields make together (tables, going out deal by deal, the
wild-card limit) and the numbers each value holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import MATCHING_TO_TAKE, PILE_TAKE
from scorekeeper.rules.cards import BOOK_SIZE
from scorekeeper.rules.messages import Phrase, Term
from scorekeeper.rules.params import Kind, Param, shown_params
from scorekeeper.rules.variants import PilePickup, Table, Variant, WildDiscard, WildLimit
from scorekeeper.wording.words import (
    books_needed,
    buried_cards,
    clauses,
    deal_span,
    deal_values,
    join,
    labelled,
    points,
    runs,
    signed,
)

BASELINE_ID = "pagat"
"""The variant the others are described against: the partnership game most tables know."""

NONE = "\N{EM DASH}"


def params(sample: Variant | None = None) -> Iterator[Param]:
    """Every rule parameter as the pages show it, one row each, in the spec's order."""
    return shown_params()


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def table_lines(tables: tuple[Table, ...]) -> list[str]:
    """The allowed tables in words; runs of solo tables (2 to 7 players...) said once."""
    groups: list[list[Table]] = []
    for table in tables:
        last = groups[-1] if groups else None
        if (
            last is not None
            and not table.is_partnership
            and not last[0].is_partnership
            and last[-1].players + 1 == table.players
            and _one_deck_rule([*last, table])
        ):
            last.append(table)
        else:
            groups.append([table])
    return [_group_line(group) for group in groups]


def _one_deck_rule(tables: list[Table]) -> bool:
    return len({t.decks for t in tables}) == 1 or len({t.decks - t.players for t in tables}) == 1


def _group_line(group: list[Table]) -> str:
    first, last = group[0], group[-1]
    if first.is_partnership:
        return _(
            "%(players)s players in %(sides)s teams of %(size)s, %(decks)s decks",
            players=first.players,
            sides=first.sides,
            size=first.players_per_side,
            decks=first.decks,
        )
    if len(group) == 1:
        return _(
            "%(players)s players, each for themselves, %(decks)s decks",
            players=first.players,
            decks=first.decks,
        )
    if first.decks == last.decks:
        return _(
            "%(low)s to %(high)s players, each for themselves, %(decks)s decks",
            low=first.players,
            high=last.players,
            decks=first.decks,
        )
    return ngettext(
        "%(low)s to %(high)s players, each for themselves, with %(num)d more deck than players",
        "%(low)s to %(high)s players, each for themselves, with %(num)d more decks than players",
        first.decks - first.players,
        low=first.players,
        high=last.players,
    )


def wild_rule(limit: WildLimit) -> str:
    """The wild-card limit as a short formula."""
    if limit.extra == 0:
        return _("natural cards ≥ %(times)s × wild cards", times=limit.per_wild)
    if limit.per_wild == 1:
        return _("natural cards ≥ wild cards + %(extra)s", extra=limit.extra)
    return _(
        "natural cards ≥ %(times)s × wild cards + %(extra)s",
        times=limit.per_wild,
        extra=limit.extra,
    )


def pile_pickup_label(pickup: PilePickup) -> str:
    labels = {
        PilePickup.TOP_SEVEN: _(
            "the top %(count)s cards, or the whole pile if fewer", count=PILE_TAKE
        ),
        PilePickup.TOP_SEVEN_FROM_FULL: _(
            "exactly the top %(count)s cards, only from a pile of %(count)s or more",
            count=PILE_TAKE,
        ),
        PilePickup.WHOLE_PILE: _("the whole pile"),
    }
    return labels.get(pickup, str(pickup.value))


def wild_discard_label(rule: WildDiscard) -> str:
    labels = {
        WildDiscard.NEEDS_MATCHING_WILDS: _(
            "the pile is taken only with %(count)s matching wild cards", count=MATCHING_TO_TAKE
        ),
        WildDiscard.NEVER_TAKEN: _("a two, three or joker on top is never taken"),
        WildDiscard.FREEZES_PILE: _("it freezes the pile, which is set aside"),
    }
    return labels.get(rule, str(rule.value))


def going_out_label(variant: Variant) -> str:
    grouped = runs(variant.going_out)
    if len(grouped) == 1:
        return books_needed(variant.going_out_for(1))
    return clauses(
        labelled(deal_span(first, last), books_needed(books)) for first, last, books in grouped
    )


def param_label(param: Param) -> str:
    """A parameter's label in the current language."""
    return words(param.label)


def describe(param: Param, variant: Variant) -> str:
    """A parameter's value in `variant`, in words."""
    value = param.value_in(variant)
    if param.shown_when is not None and not param.shown_when(variant):
        return words(param.moot_words) if param.moot_words is not None else NONE
    if value is None:
        return words(param.empty_words) if param.empty_shown else NONE
    if param.choice_words and not param.worded_with_numbers:
        return words(param.words_for(value))
    if param.signed:
        return deal_values(value, signed) if isinstance(value, tuple) else signed(value)
    if param.against:
        return points(-value)
    describer = _BY_KIND.get(param.kind) or _RULES_IN_WORDS.get(param.key)
    if describer is not None:
        return describer(value, variant)
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, int):
        return points(value)
    return str(value)


def differs(param: Param, variant: Variant, baseline: Variant) -> bool:
    """Whether a reader sees another value: a game of five deals with the same bonus in each
    has the same going-out bonus as one of four."""
    return param.value_in(variant) != param.value_in(baseline) and (
        describe(param, variant) != describe(param, baseline)
    )


def _wild_limit(limit: WildLimit) -> str:
    return _(
        "%(rule)s; at most %(most)s in a book of %(size)s",
        rule=wild_rule(limit),
        most=limit.most_wilds(BOOK_SIZE),
        size=BOOK_SIZE,
    )


def _thresholds(value: Any) -> str:
    said = "; ".join(
        _("from %(score)s: %(minimum)s", score=t.from_score, minimum=points(t.minimum))
        for t in value
    )
    return said or NONE


_BY_KIND: Mapping[Kind, Callable[[Any, Variant], str]] = {
    Kind.TABLES: lambda value, _v: clauses(table_lines(value)),
    Kind.THRESHOLDS: lambda value, _v: _thresholds(value),
    Kind.CARD_KINDS: lambda value, _v: buried_cards(value) or NONE,
    Kind.DEALS: lambda value, _v: join(deal_span(n, n) for n in sorted(value)) if value else NONE,
    Kind.SIZES: lambda value, _v: " / ".join(str(n) for n in value) if value else NONE,
}
"""How the pages word a value that is a list: of tables, thresholds, card kinds, deals or
sizes deal by deal."""

_RULES_IN_WORDS: Mapping[str, Callable[[Any, Variant], str]] = {
    "first_meld": lambda value, _v: " / ".join(points(n) for n in value),
    "going_out": lambda _value, v: going_out_label(v),
    "wild_limit": lambda value, _v: _wild_limit(value),
    "pile_pickup": lambda value, _v: pile_pickup_label(value),
    "wild_discard": lambda value, _v: wild_discard_label(value),
}
"""The prose of the rules that several fields make together, and of the choices worded with
the numbers they hold (`Param.worded_with_numbers`)."""


def words(term: Term | Phrase) -> str:
    return term.render(_) if isinstance(term, Phrase) else _(term)
