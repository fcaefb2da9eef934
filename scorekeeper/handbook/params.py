"""Every rule parameter in words, as the rules pages and the comparison show it.

The rows are the rules' one description of each parameter (``rules.params``): its label, its
section, the words for its choices and the phrase that words its value (`Param.worded`), which
this module renders. What it adds is the words for a value by its kind alone (tables, running
scores, card kinds, deals) and for plain numbers and flags; it names no parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.rules.messages import Phrase, Term
from scorekeeper.rules.params import Kind, Param, shown_params
from scorekeeper.rules.variants import Table, Variant
from scorekeeper.wording.words import (
    buried_cards,
    clauses,
    deal_span,
    deal_values,
    join,
    points,
    said,
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
    if param.worded is not None:
        return said(param.worded(value))
    if param.choice_words:
        return words(param.words_for(value))
    if param.signed:
        return deal_values(value, signed) if isinstance(value, tuple) else signed(value)
    if param.against:
        return points(-value)
    describer = _BY_KIND.get(param.kind)
    if describer is not None:
        return describer(value)
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


def _thresholds(value: Any) -> str:
    said = "; ".join(
        _("from %(score)s: %(minimum)s", score=t.from_score, minimum=points(t.minimum))
        for t in value
    )
    return said or NONE


_BY_KIND: Mapping[Kind, Callable[[Any], str]] = {
    Kind.TABLES: lambda value: clauses(table_lines(value)),
    Kind.THRESHOLDS: _thresholds,
    Kind.CARD_KINDS: lambda value: buried_cards(value) or NONE,
    Kind.DEALS: lambda value: join(deal_span(n, n) for n in sorted(value)) if value else NONE,
    Kind.SIZES: lambda value: " / ".join(str(n) for n in value) if value else NONE,
}
"""How the pages word a value that is a list: of tables, thresholds, card kinds, deals or
sizes deal by deal."""


def words(term: Term | Phrase) -> str:
    return term.render(_) if isinstance(term, Phrase) else _(term)
