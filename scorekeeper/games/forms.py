"""The forms of a game: starting one, entering a deal, and the buttons that delete.

The deal form is built for the game's variant: it has the fields that variant scores and no
others, decided from the variant's data (``rules.score_lines.entered_fields``), never from its id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from flask_babel import gettext as _
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from scorekeeper.forms import PageForm, PrintableName, lazy_text, name_filter
from scorekeeper.forms import lazy_gettext as _l
from scorekeeper.rules import gallery
from scorekeeper.rules.cards import PRICED_APART, CardKind
from scorekeeper.rules.decks import STANDARD, get_deck
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.score_lines import EntryField, entered_fields
from scorekeeper.rules.variant_checks import KNOWN_TABLES
from scorekeeper.rules.variants import Table, UnknownVariant, Variant
from scorekeeper.store.catalogue import find_variant, variants
from scorekeeper.store.games import NAME_LENGTH, SIDE_NAME_LENGTH
from scorekeeper.store.holdings import editable_tables
from scorekeeper.store.players import names_repeat, players_repeat
from scorekeeper.store.table_service import table_name
from scorekeeper.variant_texts import table_label

STOCK_RAN_OUT = "stock"
"""The "went out" choice that says nobody went out: the stock ran out."""

MAX_CARD_COUNT = 999

# The kinds of cards the card counter asks about, with their names.
COUNTER_LABELS = {
    "joker": _l("Jokers"),
    "two": _l("Twos"),
    "ace": _l("Aces"),
    "high": _l("Kings to eights"),
    "low": _l("Sevens to fours"),
    "black_three": _l("Black threes"),
}
MELDED = "meld"
LEFT = "left"


APART_LABELS = {"nine": _l("Nines"), "eight": _l("Eights")}
"""The card counter's names for the ranks a table may price apart from their kind."""


def counter_label(deck_id: str, kind: str, apart: tuple[str, ...] = ()) -> str:
    """The card counter's name for a kind of card, translated where it is shown: the words
    above for standard decks, the cards' own names for another deck (HANDnFOOT: lords,
    "12 to 7", jesters...). Ranks priced `apart` (nines, eights) are counted on their own."""
    if kind in APART_LABELS:
        return APART_LABELS[kind]
    deck = get_deck(deck_id)
    card_kind = CardKind(kind)
    if deck is STANDARD and not (apart and card_kind is CardKind.HIGH):
        return COUNTER_LABELS[kind]
    if card_kind in (CardKind.HIGH, CardKind.LOW):
        ranks = [
            card.symbol
            for card in deck.naturals
            if card.kind is card_kind and card.symbol not in apart
        ]
        return _l("%(high)s to %(low)s", high=ranks[0], low=ranks[-1])
    plural = next(card.plural for card in deck.cards if card.kind is card_kind)
    return lazy_text(lambda: _(plural).capitalize())


def counter_labels(variant: Variant) -> dict[str, str]:
    """The card counter's name for each kind of card it counts, in the variant's deck."""
    apart = variant.card_points.ranks_apart
    kinds = (*COUNTER_LABELS, *(PRICED_APART[rank] for rank in apart))
    return {kind: counter_label(variant.deck, kind, apart) for kind in kinds}


COUNTER_TARGETS = {MELDED: "meld_points", LEFT: "cards_left_points"}


if TYPE_CHECKING:
    # WTForms' stubs make FieldList generic in its entries; the class itself is not.
    AnyFieldList = FieldList[Any]
else:
    AnyFieldList = FieldList


class FixedList(AnyFieldList):
    """A FieldList of exactly ``min_entries`` entries, numbered 0 to n-1 whatever is posted.

    A plain FieldList numbers its entries from the indexes found in the posted data, so a
    request missing ``sides-0-...`` would shift every side by one.
    """

    def _extract_indices(self, prefix: str, formdata: object) -> range:
        return range(self.min_entries)


MAX_DIGITS = 6
"""The longest number a deal's field takes: no deal comes near a million points, and a longer
number (a key held down) is refused as typed rather than scored into an absurd total."""


class WholeNumberField(IntegerField):
    """A whole number of at most ``MAX_DIGITS`` digits that may be left empty (read as 0 by
    the deal form)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        raw = valuelist[0].strip()
        if not raw:
            self.data = None
            return
        try:
            self.data = int(raw)
        except ValueError:
            self.data = None
            raise ValueError(_("Enter a whole number, such as 0 or 120.")) from None
        if len(str(abs(self.data))) > MAX_DIGITS:
            self.data = None
            raise ValueError(_("Enter a number of at most %(digits)s digits.", digits=MAX_DIGITS))


def entry_fields(variant: Variant) -> tuple[str, ...]:
    """The SideEntry fields each side fills in under this variant, in form order.

    Who went out (and whether concealed) is asked once for the deal, not per side.
    """
    return _side_fields(entered_fields(variant))


def _side_fields(entered: Iterable[EntryField]) -> tuple[str, ...]:
    return tuple(field.name for field in entered if not field.flag)


@dataclass(frozen=True, slots=True)
class CounterKind:
    kind: str
    points: int

    def field_name(self, where: str) -> str:
        return f"{where}_{self.kind}"


def counter_kinds(variant: Variant, where: str) -> tuple[CounterKind, ...]:
    """The card kinds counted for melded cards (MELDED) or cards left (LEFT), with points.

    Black threes are melded only in variants with black-three books, and may score there
    differently from black threes left in hand.
    """
    points = variant.card_points
    deck = get_deck(variant.deck)

    def worth(kind: CardKind) -> int:
        return next(card.points_in(points) for card in deck.cards if card.kind is kind)

    kinds = [
        CounterKind(kind.value, worth(kind))
        for kind in (CardKind.JOKER, CardKind.TWO, CardKind.ACE, CardKind.HIGH)
    ]
    kinds += [
        CounterKind(PRICED_APART[rank], points.of_rank(rank, CardKind.HIGH))
        for rank in variant.card_points.ranks_apart
    ]
    kinds.append(CounterKind(CardKind.LOW.value, worth(CardKind.LOW)))
    if where == LEFT:
        kinds.append(CounterKind("black_three", points.black_three))
    elif variant.black_three_books:
        kinds.append(CounterKind("black_three", points.black_three_melded))
    return tuple(kinds)


def counted_points(form: Form, kinds: Iterable[CounterKind], where: str) -> int | None:
    """The points of the counted cards, or None when nothing was counted."""
    counts = [(kind, form[kind.field_name(where)].data) for kind in kinds]
    if all(count is None for _kind, count in counts):
        return None
    return sum((count or 0) * kind.points for kind, count in counts)


class SideFields(Form):
    """One side's part of the deal form: ``side_form_class`` makes a subclass of it with the
    fields of a variant."""

    entry_fields: tuple[str, ...] = ()
    """The side's entry fields, in form order (the card counter's fields are not among them)."""


@lru_cache(maxsize=64)
def _side_form_class(
    fields: tuple[str, ...],
    counters: tuple[tuple[str, str], ...],
    deck_id: str,
    apart: tuple[str, ...] = (),
) -> type[SideFields]:
    # Labels are the deal page's, from the score-line spec: a field here is named by its key.
    attrs: dict[str, object] = {
        name: WholeNumberField(name, validators=[Optional()]) for name in fields
    }
    for where, kind in counters:
        attrs[f"{where}_{kind}"] = WholeNumberField(
            counter_label(deck_id, kind, apart),
            validators=[
                Optional(),
                NumberRange(0, MAX_CARD_COUNT, _l("Enter a count from %(min)s to %(max)s.")),
            ],
        )
    attrs["entry_fields"] = fields
    return type("SideForm", (SideFields,), attrs)


def side_form_class(variant: Variant, fields: tuple[str, ...] | None = None) -> type[SideFields]:
    """One side's fields under this variant: its entry fields and its card counter."""
    counters = tuple(
        (where, kind.kind) for where in (MELDED, LEFT) for kind in counter_kinds(variant, where)
    )
    return _side_form_class(
        entry_fields(variant) if fields is None else fields,
        counters,
        variant.deck,
        variant.card_points.ranks_apart,
    )


class DealForm(PageForm):
    """A deal's entry; ``deal_form`` makes the subclass with the variant's side fields."""

    went_out = RadioField(_l("Who went out?"), validate_choice=False)
    went_out_concealed = BooleanField()
    """Asked where the variant has a bonus for going out concealed (a ``went_out_concealed``
    entry field); ticked, it counts for the side that went out."""
    confirm = HiddenField()
    """The warnings the table has seen and accepts (see ``deal_problems.warnings_key``)."""
    save = SubmitField(_l("Save deal"))

    sides: FixedList
    entry_fields: tuple[str, ...] = ()
    """The fields each side fills in, in form order: ``entry_fields`` of the form's variant."""
    concealed_asked: bool = False
    counters: Mapping[str, tuple[CounterKind, ...]] = {}
    """The card counter's kinds of cards, by where they are counted (MELDED, LEFT)."""

    def set_sides(self, names: Iterable[str]) -> None:
        choices = [(str(i), _("%(side)s went out", side=name)) for i, name in enumerate(names)]
        choices.append((STOCK_RAN_OUT, _("Nobody: the stock ran out")))
        self.went_out.choices = choices

    def validate_went_out(self, field: RadioField) -> None:
        valid = {choice[0] for choice in field.choices or ()}
        if field.data and field.data not in valid:
            raise ValidationError(_("Choose who went out from the list."))

    @property
    def stock_ran_out(self) -> bool:
        went_out: str | None = self.went_out.data
        return went_out == STOCK_RAN_OUT

    def went_out_side(self) -> int | None:
        data = self.went_out.data
        return int(data) if data and data.isdigit() else None

    def apply_counters(self) -> None:
        """Fill an empty points field from the card counts given for it (the counter, when
        the page's script did not add them up)."""
        for side_form in self.sides:
            for where, kinds in self.counters.items():
                target = side_form.form[COUNTER_TARGETS[where]]
                if target.data is not None:
                    continue
                points = counted_points(side_form.form, kinds, where)
                if points is not None:
                    target.data = points
                    target.raw_data = [str(points)]

    def entry(self, variant: Variant, number: int, players: int) -> DealEntry:
        """The validated form as the rules core's entry for deal ``number``: the counted
        cards added up first, an empty field read as 0."""
        self.apply_counters()
        out = self.went_out_side()
        concealed = self.concealed_asked and bool(self.went_out_concealed.data)
        sides = tuple(
            SideEntry(
                **{name: side_form.form[name].data or 0 for name in self.entry_fields},
                went_out=index == out,
                went_out_concealed=index == out and concealed,
            )
            for index, side_form in enumerate(self.sides)
        )
        return DealEntry(variant, number, sides, players=players, stock_ran_out=self.stock_ran_out)


Counters = tuple[tuple[str, tuple[CounterKind, ...]], ...]
"""The card kinds the counter asks about, for melded cards (MELDED) and cards left (LEFT)."""


def variant_counters(variant: Variant) -> Counters:
    """The card kinds the counter asks about under this variant, with their points."""
    return tuple((where, counter_kinds(variant, where)) for where in (MELDED, LEFT))


@lru_cache(maxsize=64)
def deal_form_class(
    side_form: type[SideFields], sides: int, concealed: bool, counters: Counters
) -> type[DealForm]:
    """The deal form of ``sides`` sides, each filling in ``side_form``."""
    field = FixedList(FormField(side_form), min_entries=sides, max_entries=sides)
    attrs = {
        "sides": field,
        "entry_fields": side_form.entry_fields,
        "concealed_asked": concealed,
        "counters": dict(counters),
    }
    return type("VariantDealForm", (DealForm,), attrs)


# --- starting a game ---------------------------------------------------------------------


def table_key(table: Table) -> str:
    return f"{table.sides}x{table.players}"


def parse_table_key(key: str | None) -> tuple[int, int] | None:
    try:
        sides, players = (int(part) for part in (key or "").split("x"))
    except ValueError:
        return None
    return sides, players


def every_table() -> list[tuple[int, int]]:
    """Every (sides, players) a game may be laid out for (some variant's, or house rules'
    three or four teams of two): teams first, then players, smallest first."""
    tables = {(t.sides, t.players) for v in variants() for t in v.tables} | KNOWN_TABLES
    return sorted(tables, key=lambda t: (t[1] == t[0], t[1], t[0]))


def most_sides() -> int:
    return max(sides for sides, _players in every_table())


def most_per_side() -> int:
    """The most players one side has at any table a game may be laid out for (a team of
    three)."""
    return max(players // sides for sides, players in every_table())


def side_label(position: int, partnership: bool) -> str:
    """The name a side gets when none is given: "Team 1", "Player 2"."""
    if partnership:
        return _("Team %(number)s", number=position + 1)
    return _("Player %(number)s", number=position + 1)


def _table_id(value: object) -> int | None:
    """A card table's id as the form posts it; None for anything else."""
    try:
        return int(str(value))
    except ValueError:
        return None


def published_variants() -> dict[str, Variant]:
    """The ready-made rules (``rules.gallery``) as the new-game form offers them beside the
    variants: keyed ``published-<slug>``, named and summed up in the reader's language."""
    return {
        entry.key: entry.variant().with_changes(
            name=_(entry.name),
            summary=" ".join(
                (_(entry.summary), _("Ready-made rules from %(author)s.", author=entry.author))
            ),
        )
        for entry in gallery.GALLERY
    }


def offered_variants() -> dict[str, Variant]:
    """Every choice of rules of the new-game form: the variants, then the ready-made rules."""
    return {**{v.id: v for v in variants()}, **published_variants()}


class NewGameForm(PageForm):
    variant = RadioField(_l("Rules"))
    table = SelectField(_l("Table"), validate_choice=False)
    side_names = FixedList(
        StringField(
            filters=[name_filter],
            validators=[
                Length(max=SIDE_NAME_LENGTH, message=_l("Keep names to %(max)s characters.")),
                PrintableName(_l("Side names cannot hold control characters.")),
            ],
        ),
        min_entries=most_sides(),
        max_entries=most_sides(),
    )
    player_names = FixedList(
        StringField(
            filters=[name_filter],
            validators=[
                Length(max=SIDE_NAME_LENGTH, message=_l("Keep names to %(max)s characters.")),
                PrintableName(_l("Player names cannot hold control characters.")),
            ],
        ),
        min_entries=most_sides() * most_per_side(),
        max_entries=most_sides() * most_per_side(),
    )
    """The players of each team, ``most_per_side()`` entries a side (side 0 first)."""
    name = StringField(
        _l("Game name (optional)"),
        filters=[name_filter],
        validators=[
            Length(max=NAME_LENGTH, message=_l("Keep the name to %(max)s characters.")),
            PrintableName(_l("The game name cannot hold control characters.")),
        ],
    )
    at = SelectField(_l("Kept with the table"), coerce=_table_id, validate_choice=False)
    """The card table the game goes to, among those this browser may add to."""
    start = SubmitField(_l("Start game"))
    refresh = SubmitField(_l("Show the fields for this table"))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.offered = offered_variants()
        """The choices of ``variant``: its keys to their variants."""
        self.variant.choices = [(key, v.name) for key, v in self.offered.items()]
        self.tables_offered = [(table.id, table_name(table)) for table in editable_tables()]
        """The choices of ``at``: (id, name) of each card table this browser may add to."""
        self.at.choices = list(self.tables_offered)
        self.table.choices = [(f"{s}x{p}", table_label(s, p)) for s, p in every_table()]
        if not self.variant.data:
            self.variant.data = next(iter(self.offered))
        if not self.table.data or self.chosen_table() is None and not self.is_submitted():
            self.table.data = table_key(self.chosen_variant().tables[0])

    def chosen_variant(self) -> Variant:
        if self.variant.data in self.offered:
            return self.offered[self.variant.data]
        try:
            return find_variant(self.variant.data or "")
        except UnknownVariant:
            return variants()[0]

    def chosen_published(self) -> gallery.PublishedRules | None:
        """The ready-made rules chosen, if the choice is one of them."""
        data = self.variant.data or ""
        if not data.startswith(gallery.PUBLISHED_PREFIX):
            return None
        return gallery.published(data)

    def chosen_table(self) -> Table | None:
        parsed = parse_table_key(self.table.data)
        if parsed is None:
            return None
        return self.chosen_variant().table_for(*parsed)

    def validate_table(self, field: SelectField) -> None:
        if self.chosen_table() is None:
            raise ValidationError(
                _(
                    "%(variant)s is not played at that table. Choose one of the tables it allows.",
                    variant=self.chosen_variant().name,
                )
            )

    def validate_side_names(self, field: FixedList) -> None:
        if self.chosen_table() is None:
            return
        if names_repeat(self.names()):
            raise ValidationError(_("Give each side a different name."))

    def validate_player_names(self, field: FixedList) -> None:
        if self.chosen_table() is None:
            return
        if players_repeat(self.players()):
            raise ValidationError(_("Give each player a different name."))

    def names(self) -> list[str]:
        """The side names for the chosen table, with a default for each one left empty: a
        team's players ("Ann & Bob") when they are named and fit, else "Team 1"."""
        table = self.chosen_table()
        assert table is not None
        players = self.players()
        names = []
        for position, entry in enumerate(self.side_names.entries[: table.sides]):
            joined = " & ".join(players[position])
            if entry.data:
                names.append(entry.data)
            elif table.is_partnership and joined and len(joined) <= SIDE_NAME_LENGTH:
                names.append(joined)
            else:
                names.append(side_label(position, table.is_partnership))
        return names

    def players(self) -> list[list[str]]:
        """The people named on each side of the chosen table: a team's typed players, or a
        lone player's own name when typed; nobody for a name left empty."""
        table = self.chosen_table()
        assert table is not None
        if not table.is_partnership:
            return [
                [entry.data] if entry.data else []
                for entry in self.side_names.entries[: table.sides]
            ]
        per_side = most_per_side()
        entries = self.player_names.entries
        return [
            [
                entry.data
                for entry in entries[side * per_side : side * per_side + table.players_per_side]
                if entry.data
            ]
            for side in range(table.sides)
        ]


class ConfirmForm(PageForm):
    """A button that deletes something: the form carries only the CSRF token."""
