"""The house-rules form: one field per parameter of the rules core, the base value beside it.

The fields are made from ``rules.params.PARAMS``, so a parameter added there shows up here.
Every deal's fields are on the form, those past the game's last deal hidden: changing the
number of deals shows or hides them without a reload, and only the deals the game has are
read. A submitted form gives changes (only what differs from the base); the rules core
decides whether they can be played, and its problems land on the field they name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, SelectField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length

from scorekeeper.forms import PageForm, SelectChoice, name_filter
from scorekeeper.forms import lazy_gettext as _l
from scorekeeper.rules.cards import CardKind
from scorekeeper.rules.decks import DECKS
from scorekeeper.rules.house_rules import typed_differences
from scorekeeper.rules.messages import Phrase, Problem, Term
from scorekeeper.rules.params import (
    CARD_KIND_VALUES,
    GROUP_TERMS,
    MAX_NAME,
    MAX_TEXT,
    MAX_THRESHOLDS,
    PARAMS,
    Group,
    Kind,
    Param,
    choice_term,
    every_deal_values,
    is_int,
    param_value,
    params_for,
    value_at,
)
from scorekeeper.rules.variant_checks import TEAMS_OF_TWO
from scorekeeper.rules.variants import BUILT_IN, MAX_DEALS, Table, Variant
from scorekeeper.variant_texts import variant_text

NONE_CHOICE = "none"


def words(label: Term | Phrase | str) -> str:
    """A label or phrase of the rules core in the reader's language."""
    if isinstance(label, Phrase):
        return label.render(_)
    return _(label)


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


def field_name(key: str) -> str:
    """The form field of a parameter key: dots become double underscores."""
    return key.replace(".", "__")


_DEAL_FIELD_PREFIX = {"concealed_book_first_meld_deals": "concealed"}
"""The deal boxes' names of a list of deals: the first such parameter keeps its short name."""


def deal_field(key: str, deal: int) -> str:
    """The box of deal `deal` of the list-of-deals parameter `key`."""
    return f"{_DEAL_FIELD_PREFIX.get(key, field_name(key))}__{deal}"


def decks_field(index: int) -> str:
    return f"decks__{index}"


def added_decks_field(sides: int, players: int) -> str:
    """The decks of a table the rules do not list yet, left empty while it is not played."""
    return f"decks__{sides}x{players}"


def tables_to_add(current: Variant) -> tuple[tuple[int, int], ...]:
    """The tables laid out for house rules alone (three or four teams of two) that `current`
    does not list: the form offers each with an empty decks field."""
    listed = {(table.sides, table.players) for table in current.tables}
    return tuple(sorted(table for table in TEAMS_OF_TWO if table not in listed))


def size_field(key: str, deal: int) -> str:
    """The field of one deal's number of a parameter given deal by deal (`Kind.SIZES`)."""
    return f"{field_name(key)}__{deal}"


def kind_field(kind: str) -> str:
    return f"card_kind__{kind}"


def score_field(index: int) -> str:
    """The running score of row `index` of the first meld by running score."""
    return f"by_score__from__{index}"


def minimum_field(index: int) -> str:
    """The first meld that row `index` of the first meld by running score needs."""
    return f"by_score__minimum__{index}"


def card_kind_words(kind: str) -> str:
    words_of = {
        CardKind.JOKER.value: _("jokers"),
        CardKind.TWO.value: _("twos"),
        CardKind.ACE.value: _("aces"),
        CardKind.HIGH.value: _("kings down to eights"),
        CardKind.LOW.value: _("sevens down to fours"),
        CardKind.BLACK_THREE.value: _("black threes"),
        CardKind.RED_THREE.value: _("red threes"),
    }
    return words_of.get(kind, kind)


def table_words(table: Table | Mapping[str, int]) -> str:
    sides, players = (
        (table.sides, table.players)
        if isinstance(table, Table)
        else (table["sides"], table["players"])
    )
    if players > sides:
        return _("%(sides)s teams of %(size)s", sides=sides, size=players // sides)
    return _("%(players)s players", players=players)


def shown_value(param: Param, value: Any) -> str:
    """A parameter's value in words, as the base value beside a field shows it."""
    kind = param.kind
    if kind in (Kind.OPTIONAL_BONUS, Kind.OPTIONAL_POINTS, Kind.OPTIONAL_CARD) and value is None:
        return words(param.empty_words)
    if kind is Kind.CHOICE:
        return words(choice_term(param.key, value))
    if kind is Kind.FLAG:
        return _("yes") if value else _("no")
    if kind is Kind.DEALS:
        if not value:
            return _("none")
        return ", ".join(str(deal) for deal in value)
    if kind is Kind.THRESHOLDS:
        return thresholds_words(value) if value else _("none")
    if kind is Kind.CARD_KINDS:
        return ", ".join(card_kind_words(k) for k in value) if value else _("none")
    if kind is Kind.SIZES:
        return " / ".join(str(n) for n in value) if value else _("the same in every deal")
    if kind is Kind.TABLES:
        return "; ".join(
            _(
                "%(table)s: %(decks)s",
                table=table_words(table),
                decks=ngettext("%(num)s deck", "%(num)s decks", table["decks"]),
            )
            for table in value
        )
    return str(value)


class WholeNumberField(StringField):
    """A whole number typed in; empty is None where the field is optional."""

    def __init__(self, *args: Any, optional: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.optional = optional
        self.number: int | None = None

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = text
        self.number = None
        if not text:
            if not self.optional:
                raise ValueError(_("Enter a whole number."))
            return
        try:
            self.number = int(text, 10)
        except ValueError:
            raise ValueError(_("Enter a whole number, like 500 or -100.")) from None

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return "" if self.data is None else str(self.data)


def thresholds_words(value: Any) -> str:
    """Running scores and their first melds in short: "from 0: 50; from 1500: 90"."""
    return "; ".join(
        _("from %(score)s: %(minimum)s", score=item["from_score"], minimum=item["minimum"])
        for item in value
    )


def _choice_value(value: Any) -> str:
    return NONE_CHOICE if value is None else str(value)


@dataclass(frozen=True, slots=True)
class ParamRow:
    """One parameter as the form shows it: its fields, the base value, and its problems."""

    param: Param
    fields: tuple[Field, ...]
    base_words: str
    changed: bool
    problems: tuple[str, ...]
    table_labels: tuple[str, ...] = ()
    shown: bool = True
    """False for a deal past the game's last deal: on the form, hidden until deals grow."""
    rows_shown: int = 0
    """For rows of values (running scores): how many rows show before any is typed in."""
    game_deals: int = 0
    """The number of deals of the game as the form stands."""

    @property
    def label(self) -> str:
        return words(self.param.label)

    @property
    def help(self) -> str:
        return words(self.param.help) if self.param.help else ""

    @property
    def anchor(self) -> str:
        return "p-" + field_name(self.param.key)

    @property
    def deal(self) -> int:
        return self.param.deal or 0

    def score_rows(self) -> Iterator[tuple[int, Field, Field]]:
        """The rows of a first meld by running score: (index, score field, minimum field)."""
        for index in range(0, len(self.fields), 2):
            yield index // 2, self.fields[index], self.fields[index + 1]


FieldT = TypeVar("FieldT", bound=Field)


class HouseForm(PageForm):
    """Name, summary and one field per parameter; made for one variant's tables."""

    name = StringField(
        _l("Name of your rules"),
        filters=[name_filter],
        validators=[Length(max=MAX_NAME, message=_l("Keep the name to %(max)s characters."))],
    )
    summary = TextAreaField(
        _l("What is different, in a sentence (optional)"),
        filters=[name_filter],
        validators=[Length(max=MAX_TEXT, message=_l("Keep it to %(max)s characters."))],
    )
    save = SubmitField(_l("Save the rules"))

    table_count = 0
    tables_added: tuple[tuple[int, int], ...] = ()
    deal_count = 0

    def typed(self, name: str, kind: type[FieldT]) -> FieldT:
        """The field `name`, of the class `kind` that ``house_form`` made it with: the fields
        are added for each variant, so the type checker knows them by name only."""
        field = self[name]
        if not isinstance(field, kind):
            raise TypeError(f"{name} is a {type(field).__name__}, not a {kind.__name__}")
        return field

    def typed_deals(self) -> int:
        """The number of deals as typed, when it is one a game can have; else as it was."""
        number = self.typed("deals", WholeNumberField).number if "deals" in self else None
        return number if number is not None and 1 <= number <= MAX_DEALS else self.deal_count


def house_form(current: Variant, **kwargs: Any) -> HouseForm:
    """A form for rules shaped like `current` (its tables), filled with its values.

    Every deal up to the most a game may have gets its fields, so the form can grow.
    """
    attributes: dict[str, Field] = {}
    for param in PARAMS:
        attributes.update(_fields_for(param, current))

    class Form(HouseForm):
        pass

    for name, unbound in attributes.items():
        setattr(Form, name, unbound)
    Form.table_count = len(current.tables)
    Form.tables_added = tables_to_add(current)
    Form.deal_count = current.deals
    data = {**form_data(current), **kwargs.pop("data", {})}
    form = Form(data=data, **kwargs)
    for param in PARAMS:
        if param.ranks_of_deck:
            _offer_ranks_of_deck(
                form.typed(field_name(param.key), SelectField),
                form.typed(field_name("deck"), SelectField),
                current,
            )
    return form


def _offer_ranks_of_deck(field: SelectField, deck_field: SelectField, current: Variant) -> None:
    """Offer only the ranks of the chosen deck (and the value chosen, so that a refusal shows
    it); the page's script offers another deck's ranks when the deck is changed."""
    chosen = deck_field.data if deck_field.data in DECKS else current.deck
    every: list[SelectChoice] = list(field.choices or [])
    by_deck = {
        deck_id: [
            [choice.value, str(choice.label)]
            for choice in every
            if choice.value == NONE_CHOICE or choice.value in deck.rank_symbols
        ]
        for deck_id, deck in DECKS.items()
    }
    offered = {value for value, _label in by_deck[chosen]} | {field.data}
    field.choices = [choice for choice in every if choice.value in offered]
    field.render_kw = {"data-ranks-by-deck": json.dumps(by_deck), "data-deck-field": deck_field.id}


def _fields_for(param: Param, current: Variant) -> Iterator[tuple[str, Any]]:
    kind = param.kind
    name = field_name(param.key)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS, Kind.COUNT):
        yield name, WholeNumberField(words(param.label), optional=param.every_deal)
    elif kind in (Kind.OPTIONAL_BONUS, Kind.OPTIONAL_POINTS, Kind.OPTIONAL_CARD):
        yield name, WholeNumberField(words(param.label), optional=True)
    elif kind is Kind.CHOICE:
        choices = [
            SelectChoice(_choice_value(c), words(choice_term(param.key, c))) for c in param.choices
        ]
        yield name, SelectField(words(param.label), choices=choices)
    elif kind is Kind.FLAG:
        yield name, BooleanField(words(param.label))
    elif kind is Kind.THRESHOLDS:
        for index in range(MAX_THRESHOLDS):
            yield score_field(index), WholeNumberField(_("From a running score of"), optional=True)
            yield minimum_field(index), WholeNumberField(_("First meld"), optional=True)
    elif kind is Kind.CARD_KINDS:
        for card_kind in CARD_KIND_VALUES:
            yield kind_field(card_kind), BooleanField(card_kind_words(card_kind))
    elif kind is Kind.SIZES:
        for deal in range(1, MAX_DEALS + 1):
            yield (
                size_field(param.key, deal),
                WholeNumberField(_("Deal %(deal)s", deal=deal), optional=True),
            )
    elif kind is Kind.DEALS:
        for deal in range(1, MAX_DEALS + 1):
            yield deal_field(param.key, deal), BooleanField(_("Deal %(deal)s", deal=deal))
    elif kind is Kind.TABLES:
        for index, table in enumerate(current.tables):
            yield decks_field(index), WholeNumberField(table_words(table))
        for sides, players in tables_to_add(current):
            label = _(
                "%(table)s (leave empty if not played)",
                table=table_words({"sides": sides, "players": players}),
            )
            yield added_decks_field(sides, players), WholeNumberField(label, optional=True)


def form_data(variant: Variant) -> dict[str, Any]:
    """The form's fields filled with a variant's values; a deal past its last one takes the
    last deal's values, as a deal added does."""
    data: dict[str, Any] = {"name": variant.name, "summary": variant.summary}
    every_deal = every_deal_values(variant)
    for param in PARAMS:
        value = value_at(every_deal, param.key)
        if param.kind is Kind.CHOICE:
            data[field_name(param.key)] = _choice_value(value)
        elif param.kind is Kind.THRESHOLDS:
            for index, item in enumerate(value):
                data[score_field(index)] = item["from_score"]
                data[minimum_field(index)] = item["minimum"]
        elif param.kind is Kind.CARD_KINDS:
            for card_kind in CARD_KIND_VALUES:
                data[kind_field(card_kind)] = card_kind in value
        elif param.kind is Kind.SIZES:
            for deal in range(1, MAX_DEALS + 1):
                data[size_field(param.key, deal)] = value[deal - 1] if value else None
        elif param.kind is Kind.DEALS:
            for deal in range(1, MAX_DEALS + 1):
                data[deal_field(param.key, deal)] = deal in value
        elif param.kind is Kind.TABLES:
            for index, table in enumerate(value):
                data[decks_field(index)] = table["decks"]
        else:
            data[field_name(param.key)] = value
    return data


def read_values(form: HouseForm, current: Variant) -> tuple[dict[str, Any], bool]:
    """Every parameter's value as typed (JSON-ready), and whether all could be read.

    Only the deals of the game as typed are read. A field that could not be read keeps the
    current value (or the last deal's, for a deal added) and its own error.
    """
    values: dict[str, Any] = {}
    readable = True
    deals = form.typed_deals()
    known = every_deal_values(current)
    for param in params_for(deals):
        kind = param.kind
        if kind is Kind.DEALS:
            values[param.key] = [
                deal for deal in range(1, deals + 1) if form[deal_field(param.key, deal)].data
            ]
        elif kind is Kind.CARD_KINDS:
            values[param.key] = sorted(
                card_kind for card_kind in CARD_KIND_VALUES if form[kind_field(card_kind)].data
            )
        elif kind is Kind.TABLES:
            tables = []
            for index, table in enumerate(current.tables):
                field = form.typed(decks_field(index), WholeNumberField)
                readable &= not field.errors
                decks = field.number if field.number is not None else table.decks
                tables.append({"sides": table.sides, "players": table.players, "decks": decks})
            for sides, players in tables_to_add(current):
                field = form.typed(added_decks_field(sides, players), WholeNumberField)
                readable &= not field.errors
                if field.number is not None:
                    tables.append({"sides": sides, "players": players, "decks": field.number})
            values[param.key] = tables
        elif kind is Kind.CHOICE:
            chosen = form[field_name(param.key)].data
            values[param.key] = next(
                (c for c in param.choices if _choice_value(c) == chosen),
                param_value(current, param.key),
            )
        elif kind is Kind.FLAG:
            values[param.key] = bool(form[field_name(param.key)].data)
        elif kind is Kind.THRESHOLDS:
            thresholds, read = _read_thresholds(form)
            readable &= read
            values[param.key] = thresholds if read else value_at(known, param.key)
        elif kind is Kind.SIZES:
            sizes, read = _read_sizes(form, param, values, deals)
            readable &= read
            values[param.key] = sizes if read else value_at(known, param.key)[:deals]
        else:
            field = form.typed(field_name(param.key), WholeNumberField)
            readable &= not field.errors
            values[param.key] = field.number if not field.errors else value_at(known, param.key)
    _carry_every_deal(values, known, deals)
    return values, readable


def _carry_every_deal(values: dict[str, Any], known: Mapping[str, Any], deals: int) -> None:
    """A value that sets every deal, changed, carries along the deals that had the old one,
    as the page's script does while the table types (a deal given its own value keeps it)."""
    for param in params_for(deals):
        if not param.every_deal:
            continue
        old, new = value_at(known, param.key), values.get(param.key)
        if new is None or new == old:
            continue
        for deal in range(1, deals + 1):
            key = f"{param.key}.{deal}"
            if values.get(key) == old:
                values[key] = new


def _read_sizes(
    form: HouseForm, param: Param, values: Mapping[str, Any], deals: int
) -> tuple[list[int], bool]:
    """A size for each deal of the game as typed: a deal left empty takes the every-deal
    size; all empty, or all the every-deal size, is no list (the same in every deal)."""
    fields = [
        form.typed(size_field(param.key, deal), WholeNumberField) for deal in range(1, deals + 1)
    ]
    if any(field.errors for field in fields):
        return [], False
    every = values.get(param.key.removesuffix("_by_deal"))  # hand_size, foot_size
    sizes = [field.number if field.number is not None else every for field in fields]
    if all(size == every for size in sizes) or not all(is_int(size) for size in sizes):
        return [], True
    return [size for size in sizes if is_int(size)], True


def _read_thresholds(form: HouseForm) -> tuple[list[dict[str, int]], bool]:
    """The rows of running scores and first melds typed in; a half-filled row is an error
    on its empty field, and rows left empty are no rows."""
    thresholds = []
    readable = True
    for index in range(MAX_THRESHOLDS):
        score = form.typed(score_field(index), WholeNumberField)
        minimum = form.typed(minimum_field(index), WholeNumberField)
        if score.errors or minimum.errors:
            readable = False
        elif score.number is not None and minimum.number is not None:
            thresholds.append({"from_score": score.number, "minimum": minimum.number})
        elif score.number is not None or minimum.number is not None:
            empty = minimum if minimum.number is None else score
            empty.errors = [
                *empty.errors,
                _("Fill in both the running score and its first meld, or neither."),
            ]
            readable = False
    return thresholds, readable


def changes_over(base: Variant, values: Mapping[str, Any]) -> dict[str, Any]:
    """Only the values that differ from the base variant's."""
    return {d.key: d.value for d in typed_differences(base, values)}


def rows(
    form: HouseForm, base: Variant, values: Mapping[str, Any], problems: list[Problem]
) -> dict[Group, list[ParamRow]]:
    """The form's parameters by group, each with its base value and its problems."""
    by_key: dict[str, list[str]] = {}
    for problem in problems:
        by_key.setdefault(problem.field or "", []).append(problem.render(_))
    grouped: dict[Group, list[ParamRow]] = {group: [] for group in GROUP_TERMS}
    deals = form.typed_deals()
    base_values = every_deal_values(base)
    for param in PARAMS:
        kind = param.kind
        rows_shown = 0
        if kind is Kind.DEALS:
            fields = tuple(form[deal_field(param.key, d)] for d in range(1, MAX_DEALS + 1))
        elif kind is Kind.CARD_KINDS:
            fields = tuple(form[kind_field(k)] for k in CARD_KIND_VALUES)
        elif kind is Kind.SIZES:
            fields = tuple(form[size_field(param.key, d)] for d in range(1, MAX_DEALS + 1))
        elif kind is Kind.THRESHOLDS:
            fields = tuple(
                form[name(index)]
                for index in range(MAX_THRESHOLDS)
                for name in (score_field, minimum_field)
            )
            filled = [i for i in range(len(fields)) if fields[i].data not in (None, "")]
            rows_shown = min(MAX_THRESHOLDS, (filled[-1] // 2 + 1 if filled else 0) + 1)
        elif kind is Kind.TABLES:
            fields = tuple(form[decks_field(i)] for i in range(form.table_count)) + tuple(
                form[added_decks_field(*table)] for table in form.tables_added
            )
        else:
            fields = (form[field_name(param.key)],)
        base_value = value_at(base_values, param.key)
        errors = [str(e) for f in fields for e in f.errors]
        grouped[param.group].append(
            ParamRow(
                param=param,
                fields=fields,
                base_words=shown_value(param, base_value),
                changed=values.get(param.key, base_value) != base_value,
                problems=tuple(errors + by_key.get(param.key, [])),
                table_labels=_table_labels(form, base, values.get(param.key))
                if kind is Kind.TABLES
                else (),
                shown=(param.deal or 0) <= deals,
                rows_shown=rows_shown,
                game_deals=deals,
            )
        )
    return grouped


def _base_decks(base: Variant, tables: Any) -> tuple[str, ...]:
    """Beside each table's decks field: the base variant's decks for that table."""
    labels = []
    for table in tables or ():
        same = base.table_for(table["sides"], table["players"])
        labels.append(
            ngettext("%(num)s deck", "%(num)s decks", same.decks) if same else _("not in the base")
        )
    return tuple(labels)


def _table_labels(form: HouseForm, base: Variant, tables: Any) -> tuple[str, ...]:
    """Beside each decks field: the base's decks for the tables listed, then a word for each
    table that may be added."""
    listed = _base_decks(base, list(tables or ())[: form.table_count])
    return listed + tuple(_("not in the base") for _table in form.tables_added)


def base_choices() -> list[SelectChoice]:
    return [SelectChoice(variant.id, variant_text(variant.name)) for variant in BUILT_IN.values()]


class BaseForm(PageForm):
    """Which built-in variant new house rules start from."""

    class Meta:
        csrf = False

    base = SelectField(_l("Start from"), validate_choice=False)
    start = SubmitField(_l("Start"))


class ImportForm(PageForm):
    file = FileField(_l("A rules file (.json)"))
    text = TextAreaField(_l("Or paste the rules"), filters=[_strip])
    upload = SubmitField(_l("Import"))


class SharedForm(PageForm):
    """Saves the rules a share link carries."""

    save = SubmitField(_l("Save these rules"))


class ConfirmForm(PageForm):
    """A button that needs the CSRF token and nothing else."""

    confirm = SubmitField(_l("Delete these rules"))
