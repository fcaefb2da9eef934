"""The house-rules form: one field per parameter of the rules core, the base value beside it.

The fields are made from ``rules.house.PARAMS``, so a parameter added there shows up here.
A submitted form gives changes (only what differs from the base); the rules core decides
whether they can be played, and its problems land on the field they name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length

from scorekeeper.forms import PageForm, name_filter
from scorekeeper.rules.house import (
    GROUP_TERMS,
    MAX_NAME,
    MAX_TEXT,
    Group,
    Kind,
    Param,
    choice_term,
    param_value,
    params_for,
    typed_differences,
)
from scorekeeper.rules.messages import Phrase, Problem, Term
from scorekeeper.rules.variants import BUILT_IN, Table, Variant
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


def deal_field(deal: int) -> str:
    return f"concealed__{deal}"


def decks_field(index: int) -> str:
    return f"decks__{index}"


def table_words(table: Table | Mapping[str, int]) -> str:
    sides, players = (
        (table.sides, table.players) if isinstance(table, Table)
        else (table["sides"], table["players"])
    )
    if players > sides:
        return _("%(sides)s teams of %(size)s", sides=sides, size=players // sides)
    return _("%(players)s players", players=players)


def shown_value(param: Param, value: Any) -> str:
    """A parameter's value in words, as the base value beside a field shows it."""
    kind = param.kind
    if kind is Kind.OPTIONAL_BONUS and value is None:
        return _("not allowed") if param.key.startswith("book_bonus.") else _("none")
    if kind is Kind.OPTIONAL_POINTS and value is None:
        return _("never laid down") if param.key == "red_three.down" else _("none")
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
    if kind is Kind.TABLES:
        return "; ".join(
            _("%(table)s: %(decks)s", table=table_words(table),
              decks=ngettext("%(num)s deck", "%(num)s decks", table["decks"]))
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


class ThresholdsField(StringField):
    """Running scores and the first meld each one needs, typed as "0: 50, 1500: 90"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.thresholds: list[dict[str, int]] | None = None

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = text
        self.thresholds = None
        pairs = [pair.strip() for pair in text.split(",") if pair.strip()]
        thresholds = []
        for pair in pairs:
            score, colon, minimum = pair.partition(":")
            try:
                if not colon:
                    raise ValueError(pair)
                thresholds.append(
                    {"from_score": int(score.strip(), 10), "minimum": int(minimum.strip(), 10)}
                )
            except ValueError:
                raise ValueError(
                    _("Write each running score and its first meld as 1500: 90, "
                      "separated by commas.")
                ) from None
        self.thresholds = thresholds

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return thresholds_words(self.data or [])


def thresholds_words(value: Any) -> str:
    """Running scores and first melds as the form writes them: "0: 50, 1500: 90"."""
    if isinstance(value, str):
        return value
    return ", ".join(f"{item['from_score']}: {item['minimum']}" for item in value)


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

    @property
    def label(self) -> str:
        return words(self.param.label)

    @property
    def help(self) -> str:
        return words(self.param.help) if self.param.help else ""

    @property
    def anchor(self) -> str:
        return "p-" + field_name(self.param.key)


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

    param_keys: tuple[str, ...] = ()
    table_count = 0
    deal_count = 0


def house_form(current: Variant, **kwargs: Any) -> HouseForm:
    """A form for rules shaped like `current` (its tables), filled with its values."""
    attributes: dict[str, Field] = {}
    for param in params_for(current.deals):
        attributes.update(_fields_for(param, current))

    class Form(HouseForm):
        pass

    for name, unbound in attributes.items():
        setattr(Form, name, unbound)
    Form.table_count = len(current.tables)
    Form.deal_count = current.deals
    data = {**form_data(current), **kwargs.pop("data", {})}
    return Form(data=data, **kwargs)


def _fields_for(param: Param, current: Variant) -> Iterator[tuple[str, Any]]:
    kind = param.kind
    name = field_name(param.key)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS, Kind.COUNT):
        yield name, WholeNumberField(words(param.label), optional=param.every_deal)
    elif kind in (Kind.OPTIONAL_BONUS, Kind.OPTIONAL_POINTS):
        yield name, WholeNumberField(words(param.label), optional=True)
    elif kind is Kind.CHOICE:
        choices = [
            SelectChoice(_choice_value(c), words(choice_term(param.key, c)))
            for c in param.choices
        ]
        yield name, SelectField(words(param.label), choices=choices)
    elif kind is Kind.FLAG:
        yield name, BooleanField(words(param.label))
    elif kind is Kind.THRESHOLDS:
        yield name, ThresholdsField(words(param.label))
    elif kind is Kind.DEALS:
        for deal in range(1, current.deals + 1):
            yield deal_field(deal), BooleanField(_("Deal %(deal)s", deal=deal))
    elif kind is Kind.TABLES:
        for index, table in enumerate(current.tables):
            yield decks_field(index), WholeNumberField(table_words(table))


def form_data(variant: Variant) -> dict[str, Any]:
    """The form's fields filled with a variant's values."""
    data: dict[str, Any] = {"name": variant.name, "summary": variant.summary}
    for param in params_for(variant.deals):
        value = param_value(variant, param.key)
        if param.kind is Kind.CHOICE:
            data[field_name(param.key)] = _choice_value(value)
        elif param.kind is Kind.DEALS:
            for deal in range(1, variant.deals + 1):
                data[deal_field(deal)] = deal in value
        elif param.kind is Kind.TABLES:
            for index, table in enumerate(value):
                data[decks_field(index)] = table["decks"]
        else:
            data[field_name(param.key)] = value
    return data


def read_values(form: HouseForm, current: Variant) -> tuple[dict[str, Any], bool]:
    """Every parameter's value as typed (JSON-ready), and whether all could be read.

    A field that could not be read keeps the current value and its own error.
    """
    values: dict[str, Any] = {}
    readable = True
    for param in params_for(current.deals):
        kind = param.kind
        if kind is Kind.DEALS:
            values[param.key] = [
                deal for deal in range(1, current.deals + 1) if form[deal_field(deal)].data
            ]
        elif kind is Kind.TABLES:
            tables = []
            for index, table in enumerate(current.tables):
                field = form[decks_field(index)]
                readable &= not field.errors
                decks = field.number if field.number is not None else table.decks
                tables.append({"sides": table.sides, "players": table.players, "decks": decks})
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
            field = form[field_name(param.key)]
            readable &= not field.errors
            values[param.key] = (
                field.thresholds
                if field.thresholds is not None
                else param_value(current, param.key)
            )
        else:
            field = form[field_name(param.key)]
            readable &= not field.errors
            values[param.key] = (
                field.number if not field.errors else param_value(current, param.key)
            )
    return values, readable


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
    for param in params_for(form.deal_count):
        kind = param.kind
        if kind is Kind.DEALS:
            fields = tuple(form[deal_field(d)] for d in range(1, form.deal_count + 1))
        elif kind is Kind.TABLES:
            fields = tuple(form[decks_field(i)] for i in range(form.table_count))
        else:
            fields = (form[field_name(param.key)],)
        base_value = param_value(base, param.key) if (param.deal or 0) <= base.deals else None
        errors = [str(e) for f in fields for e in f.errors]
        grouped[param.group].append(
            ParamRow(
                param=param,
                fields=fields,
                base_words=shown_value(param, base_value),
                changed=values.get(param.key, base_value) != base_value,
                problems=tuple(errors + by_key.get(param.key, [])),
                table_labels=_base_decks(base, values.get(param.key)) if kind is Kind.TABLES
                else (),
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
