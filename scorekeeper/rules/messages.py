"""Messages of the rules core, kept translatable without importing any web framework.

A message is an English template with named fields. Templates are marked with `N_` so the
gettext extractor finds them; the web layer translates the template and every `Term` in the
fields, then fills the template in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum


def N_(template: str) -> str:
    """Mark a template for translation; translated later, where the language is known."""
    return template


class Term(str):
    """A word inside a message that is itself translated (a field's name, a book kind)."""


class Message:
    """A translatable message: an English template and the values of its named fields.

    The one message type of the rules core and the engine: a validation `Problem`, an engine
    `Reason` and a `Phrase` inside either are all messages, rendered the same way. Rendering
    translates the template, then every `Term` and nested `Message` among the fields.
    """

    __slots__ = ()
    template: str
    params: Mapping[str, object]

    @property
    def message(self) -> str:
        """The message in English."""
        return self.render(lambda text: text)

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in a language, given that language's gettext function."""
        return translate(self.template).format(**_rendered(self.params, translate))

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Phrase(Message):
    """A translated phrase with fields of its own, used inside a message ("first meld, deal 2")."""

    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)


def _rendered(params: Mapping[str, object], translate: Callable[[str], str]) -> dict[str, object]:
    return {
        key: value.render(translate)
        if isinstance(value, Message)
        else translate(value)
        if isinstance(value, Term)
        else value
        for key, value in params.items()
    }


FIELD_TERMS: Mapping[str, Term] = {
    "meld_points": Term(N_("melded card points")),
    "clean_books": Term(N_("clean books")),
    "dirty_books": Term(N_("dirty books")),
    "wild_books": Term(N_("wild books")),
    "black_three_books": Term(N_("black-three books")),
    "red_threes_down": Term(N_("red threes laid down")),
    "red_threes_held": Term(N_("red threes still held")),
    "cards_left_points": Term(N_("points of cards left")),
    "went_out": Term(N_("went out")),
    "exact_22": Term(N_("players who cut exactly 22")),
    "deal": Term(N_("deal")),
    "sides": Term(N_("sides")),
    "players": Term(N_("players")),
    "stock_ran_out": Term(N_("stock ran out")),
    "variant": Term(N_("variant")),
}


class Severity(StrEnum):
    ERROR = "error"
    """Impossible under the rules: the deal is refused."""
    WARNING = "warning"
    """Possible but unusual: shown, and the table confirms."""


@dataclass(frozen=True, slots=True)
class Problem(Message):
    """One thing wrong with an entry, naming the side (None for the whole deal) and field."""

    side: int | None
    field: str | None
    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    severity: Severity = Severity.ERROR

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "field": self.field, "message": self.message}
