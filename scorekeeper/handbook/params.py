"""Every parameter of a variant as a row a person can read: label, value, rules section.

The comparison page and each rules page's "differences" section are both built from these
rows, and the rows are read from the rules' one description of each parameter
(``rules.params``): its label, its rules-page section and the words for its choices. What
this module adds is the prose for values that several fields make together (tables, going
out deal by deal, the wild-card limit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import MATCHING_TO_TAKE, PILE_TAKE
from scorekeeper.rules.cards import BOOK_SIZE
from scorekeeper.rules.messages import Phrase, Term
from scorekeeper.rules.params import PARAM_BY_KEY, PARAMS, SECTION_OF_FIELD, Kind, label_of
from scorekeeper.rules.variants import PilePickup, Table, Variant, WildDiscard, WildLimit

from .words import (
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

# Fields whose value is a small record shown one row per part.
SPLIT_FIELDS = frozenset({"card_points", "book_bonus", "red_three"})

# Rows computed from several fields, and the rules section that explains each.
DERIVED_SECTIONS: dict[str, str] = {"stock_end": "end-of-deal"}


def pair_of_black_threes_takes_pile(variant: Variant) -> bool:
    """Whether a pair of black threes may take a black three on top of the pile.

    Only where black threes are melded can a three on top be taken at all; elsewhere the
    field's value is moot and the answer is no.
    """
    return variant.black_three_books and variant.black_three_pair_takes_pile


def frozen_piles_return(variant: Variant) -> bool:
    """Whether piles set aside by a wild discard go back under a stock that runs short."""
    return variant.wild_discard is WildDiscard.FREEZES_PILE


def silent_source(variant: Variant) -> bool:
    """Whether the variant's source says nothing of who deals, who starts and the stock's end.

    Where each player cuts their own packets (Simpson's game and Brouillette's variations),
    the source describes no dealer and no end of the stock: the pages fill those in from the
    partnership game, as defaults a table may change.
    """
    return variant.cut_for_packets


# Rows of the comparison computed from several fields: (value, is it a default).
DERIVED: dict[str, tuple[Callable[[Variant], Any], Callable[[Variant], bool]]] = {
    "stock_end": (
        frozen_piles_return,
        lambda v: silent_source(v) and not frozen_piles_return(v),
    ),
}


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
        labelled(deal_span(first, last), books_needed(books))  # type: ignore[arg-type]
        for first, last, books in grouped
    )


def _describe(name: str, value: Any, variant: Variant) -> str:
    """The value of field `name` (or `field.part`) of `variant`, in words."""
    if name == "red_three.down" and value is None:
        return _("never laid down")
    if name == "concealed_opening" and not variant.concealed_book_first_meld_deals:
        return NONE
    spec = PARAM_BY_KEY.get(name)
    if name == "red_three.down_not_out" and value is None and spec is not None:
        return words(spec.empty_words) if spec.empty_words else NONE
    if value is None:
        return NONE
    if spec is not None and spec.kind is Kind.CHOICE and name not in _PROSE:
        return words(spec.words_for(value))
    describers: dict[str, Callable[[], str]] = {
        "tables": lambda: clauses(table_lines(value)),
        "deals": lambda: str(value),
        "card_points.black_three": lambda: points(-value),
        "card_points.black_three_melded": lambda: (
            points(value) if variant.black_three_books else NONE
        ),
        "black_three_pair_takes_pile": lambda: (
            yes_no(value) if variant.black_three_books else _("no: a three on top is never taken")
        ),
        "stock_end": lambda: (
            _("the frozen piles are shuffled and put under it, and play goes on")
            if value
            else _("the deal ends, and nobody scores the going-out bonus")
        ),
        "red_three.down": lambda: signed(value),
        "red_three.held": lambda: signed(value),
        "going_out_bonus": lambda: deal_values(value, signed),
        "exact_22_bonus": lambda: signed(value),
        "first_meld": lambda: " / ".join(points(n) for n in value),
        "going_out": lambda: going_out_label(variant),
        "max_meld_size": lambda: str(value),
        "wild_limit": lambda: _(
            "%(rule)s; at most %(most)s in a book of %(size)s",
            rule=wild_rule(value),
            most=value.most_wilds(BOOK_SIZE),
            size=BOOK_SIZE,
        ),
        "pile_pickup": lambda: pile_pickup_label(value),
        "wild_discard": lambda: wild_discard_label(value),
        "first_meld_by_score": lambda: (
            "; ".join(
                _("from %(score)s: %(minimum)s", score=t.from_score, minimum=points(t.minimum))
                for t in value
            )
            or NONE
        ),
        "going_out_concealed_bonus": lambda: signed(value) if value else NONE,
        "red_three.down_not_out": lambda: signed(value),
        "first_discard_buried": lambda: (
            buried_cards(value) or NONE if variant.first_discard_turned else NONE
        ),
        "concealed_book_first_meld_deals": lambda: (
            join(deal_span(n, n) for n in sorted(value)) if value else NONE
        ),
    }
    if name in describers:
        return describers[name]()
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, int):
        return points(value)
    return str(value)


_PROSE = frozenset({"pile_pickup", "wild_discard", "max_meld_size"})
"""Choices the pages word with the numbers they hold (seven cards...), not the spec's words."""


def words(term: Term | Phrase) -> str:
    return term.render(_) if isinstance(term, Phrase) else _(term)


@dataclass(frozen=True, slots=True)
class Param:
    """One row of the comparison: a variant field, or one part of a record-valued field."""

    field: str
    part: str | None = None

    @property
    def key(self) -> str:
        return f"{self.field}.{self.part}" if self.part else self.field

    @property
    def section(self) -> str | None:
        return DERIVED_SECTIONS.get(self.field) or SECTION_OF_FIELD.get(self.field)

    def label(self) -> str:
        if self.field == "stock_end":
            return _("When the stock runs out")
        return words(label_of(self.key))

    def value(self, variant: Variant) -> Any:
        if self.field in DERIVED:
            return DERIVED[self.field][0](variant)
        if self.field == "black_three_pair_takes_pile":
            return pair_of_black_threes_takes_pile(variant)
        value = getattr(variant, self.field)
        return getattr(value, self.part) if self.part else value

    def describe(self, variant: Variant) -> str:
        value = self.value(variant)
        if self.field == "max_meld_size" and value is None:
            return _("no limit")
        return _describe(self.key, value, variant)

    def differs(self, variant: Variant, baseline: Variant) -> bool:
        """Whether a reader sees another value: a game of five deals with the same bonus in
        each has the same going-out bonus as one of four."""
        return self.value(variant) != self.value(baseline) and (
            self.describe(variant) != self.describe(baseline)
        )

    def is_inferred(self, variant: Variant) -> bool:
        """A default a table may change; never a dash, which states no value at all."""
        if self.field in DERIVED:
            return DERIVED[self.field][1](variant)
        return self.value(variant) is not None and variant.is_inferred(self.field)


def params(sample: Variant | None = None) -> Iterator[Param]:
    """Every rule parameter as the pages show it, in the spec's order: a record's parts one
    row each, a per-deal field or the wild-card limit one row."""
    seen: set[str] = set()
    for spec in PARAMS:
        row = Param(spec.field, spec.key.split(".")[1]) if spec.field in SPLIT_FIELDS else (
            Param(spec.field)
        )
        if row.key not in seen:
            seen.add(row.key)
            yield row
    for name in DERIVED:
        yield Param(name)


@dataclass(frozen=True, slots=True)
class Difference:
    param: Param
    label: str
    value: str
    baseline: str
    inferred: bool


def differences(variant: Variant, baseline: Variant) -> list[Difference]:
    """Every parameter whose value differs from the baseline's, in declaration order."""
    return [
        Difference(
            param=param,
            label=param.label(),
            value=param.describe(variant),
            baseline=param.describe(baseline),
            inferred=param.is_inferred(variant),
        )
        for param in params(variant)
        if param.differs(variant, baseline)
    ]
