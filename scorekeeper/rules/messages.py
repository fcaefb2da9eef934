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


@dataclass(frozen=True, slots=True)
class Phrase:
    """A translated phrase with fields of its own, used inside a message ("first meld, deal 2").

    It renders like a message: the template translated, then filled in (a `Term` or another
    `Phrase` among its fields is translated too).
    """

    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)

    def render(self, translate: Callable[[str], str]) -> str:
        return translate(self.template).format(**_rendered(self.params, translate))

    def __str__(self) -> str:
        return self.render(lambda text: text)


def _rendered(params: Mapping[str, object], translate: Callable[[str], str]) -> dict[str, object]:
    return {
        key: value.render(translate)
        if isinstance(value, Phrase)
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
    "special_books": Term(N_("special books")),
    "red_three_books": Term(N_("red-three books")),
    "red_threes_down": Term(N_("red threes laid down")),
    "red_threes_held": Term(N_("red threes still held")),
    "cards_left_points": Term(N_("points of cards left")),
    "went_out": Term(N_("went out")),
    "went_out_concealed": Term(N_("went out concealed")),
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
class Problem:
    """One thing wrong with an entry, naming the side (None for the whole deal) and field."""

    side: int | None
    field: str | None
    template: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    severity: Severity = Severity.ERROR

    @property
    def message(self) -> str:
        return self.render(lambda text: text)

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in a language, given that language's gettext function."""
        return translate(self.template).format(**_rendered(self.params, translate))

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "field": self.field, "message": self.message}
