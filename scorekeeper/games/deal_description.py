"""What a variant's deal form shows, worked out once per variant.

The fields, their labels, the hint beside each, what going out and the first meld ask in each
deal, the card counter and the most a field may hold at each table: all of it follows from the
variant alone, so `describe_deal_form` asks the rules core once and keeps the answer for as
long as the variant is in use. The words are the rules core's phrases (``rules.phrases``);
the page renders them in the reader's language with `FORM_VOICE`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, gettext, ngettext, pgettext

from scorekeeper.games.forms import (
    Counters,
    DealForm,
    SideFields,
    counter_labels,
    deal_form_class,
    side_form_class,
    variant_counters,
)
from scorekeeper.rules.book_supply import supply_of
from scorekeeper.rules.phrases import Counted, Said, field_hints, going_out_rule, say
from scorekeeper.rules.score_lines import WENT_OUT_CONCEALED, EntryField, entered_fields
from scorekeeper.rules.terms import Phrase
from scorekeeper.rules.validation import MAX_FAILED_PICKUPS
from scorekeeper.rules.variants import ConcealedOpening, Table, Variant

Limits = Mapping[str, int | None]
"""The most a side's field may hold, by field: red threes by the decks' supply, players who
cut exactly by the players of a side; None: no bound."""


@dataclass(frozen=True, slots=True)
class DealRules:
    """What the form says of one deal: the hints, going out and the first meld."""

    hints: Mapping[str, Said]
    going_out: Said
    going_out_books: Mapping[str, int]
    """The books a side needs at least to go out, by entry field: the form's script fills
    them in for the side chosen as the one that went out."""
    first_meld: int | None
    """The points the first meld must reach; None where a concealed book replaces them or
    where each side's running score sets its own (`first_meld_by_score`)."""
    first_meld_by_score: bool
    first_meld_concealed: bool
    """The deal opens with a concealed book."""
    first_meld_book: bool = False
    """The deal's first meld holds a book (any book), besides its points."""
    labels: Mapping[str, Phrase] = dataclasses.field(default_factory=dict)
    """The label of every field entered in this deal (the exact cut names this deal's
    number of cards)."""


@dataclass(frozen=True, slots=True)
class DealFormDescription:
    """The deal form of one variant: its fields and everything said beside them."""

    fields: tuple[str, ...]
    """The fields each side fills in, in form order (who went out is asked once)."""
    labels: Mapping[str, Phrase]
    """The label of every field entered, who went out concealed included, in no one deal
    (`DealRules.labels` has them in each deal)."""
    concealed_asked: bool
    counters: Counters
    counter_labels: Mapping[str, str]
    side_form: type[SideFields]
    limits: Mapping[tuple[int, int], Limits]
    """The bounds of the fields at each table of the variant, by (sides, players)."""
    deals: tuple[DealRules, ...]

    def deal(self, number: int) -> DealRules:
        return self.deals[number - 1]

    def limits_at(self, sides: int, players: int) -> Limits:
        return self.limits.get((sides, players), _NO_LIMITS)


_NO_LIMITS: Limits = dict.fromkeys(
    ("red_threes_down", "red_threes_held", "ladies_in_books", "exact_22", "failed_pickups")
)


@lru_cache(maxsize=64)
def describe_deal_form(variant: Variant) -> DealFormDescription:
    """The deal form of ``variant``, asked of the rules core once per variant."""
    entered = entered_fields(variant)
    fields = tuple(field.name for field in entered if not field.flag)
    return DealFormDescription(
        fields=fields,
        labels={field.name: field.label_for(variant) for field in entered},
        concealed_asked=WENT_OUT_CONCEALED in entered,
        counters=variant_counters(variant),
        counter_labels=counter_labels(variant),
        side_form=side_form_class(variant, fields),
        limits={(table.sides, table.players): _limits(variant, table) for table in variant.tables},
        deals=tuple(
            _deal_rules(variant, number, fields, entered) for number in range(1, variant.deals + 1)
        ),
    )


def _limits(variant: Variant, table: Table) -> Limits:
    red_threes = supply_of(variant, table).red_threes
    return {
        "red_threes_down": red_threes,
        "red_threes_held": red_threes,
        "ladies_in_books": red_threes,
        "exact_22": table.players_per_side,
        "failed_pickups": MAX_FAILED_PICKUPS,
    }


def _deal_rules(
    variant: Variant, number: int, fields: Sequence[str], entered: Sequence[EntryField]
) -> DealRules:
    concealed_first = number in variant.concealed_book_first_meld_deals
    instead = concealed_first and variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
    by_score = bool(variant.first_meld_by_score) and not instead
    books = {f"{kind}_books": count for kind, count in variant.going_out_for(number) if count}
    return DealRules(
        hints=field_hints(variant, number),
        going_out=going_out_rule(variant, number),
        going_out_books={name: count for name, count in books.items() if name in fields},
        first_meld=None if instead or by_score else variant.first_meld_for(number),
        first_meld_by_score=by_score,
        first_meld_concealed=concealed_first,
        first_meld_book=number in variant.book_first_meld_deals and not concealed_first,
        labels={field.name: field.label_for(variant, number) for field in entered},
    )


def deal_form(
    description: DealFormDescription, side_names: Sequence[str], **kwargs: Any
) -> DealForm:
    """The deal form for a game of the described variant and these sides."""
    form_class = deal_form_class(
        description.side_form,
        len(side_names),
        description.concealed_asked,
        description.counters,
    )
    form = form_class(**kwargs)
    form.set_sides(side_names)
    return form


class FormVoice:
    """The deal form's way with the rules' words: the reader's language and lists, hints'
    points with their sign ("+500", "0"), other numbers as they are."""

    def translate(self, template: str) -> str:
        return str(gettext(template))

    def translate_in(self, context: str, template: str) -> str:
        return str(pgettext(context, template))

    def plural(self, words: Counted) -> str:
        return str(ngettext(words.singular, words.plural, words.count))

    def listed(self, items: Sequence[str]) -> str:
        return format_list(list(items), locale=get_locale() or "en")

    def number(self, value: int) -> str:
        return str(value)

    def signed(self, value: int) -> str:
        return f"{value:+d}" if value else "0"


FORM_VOICE = FormVoice()


def field_labels(description: DealFormDescription, number: int | None = None) -> dict[str, str]:
    """What the deal form calls each field, in the reader's language: in deal `number`,
    where the exact cut names its number of cards."""
    labels = dict(description.labels)
    if number is not None and 1 <= number <= len(description.deals):
        labels.update(description.deal(number).labels)
    return {name: say(label, FORM_VOICE) for name, label in labels.items()}


def field_hints_shown(rules: DealRules) -> dict[str, str]:
    """The hint beside each field, in the reader's language."""
    return {name: say(hint, FORM_VOICE) for name, hint in rules.hints.items()}
