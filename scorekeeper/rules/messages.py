"""Problems of the rules core, and the name of each field they may be about.

A problem is a `Message` (``rules.terms``): an English template with named fields, which the
web layer translates, with every `Term` among its fields, where the language is known.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .score_lines import ENTRY_FIELDS, worded
from .terms import N_, Message, Phrase, Term

__all__ = ["FIELD_TERMS", "N_", "Message", "Phrase", "Problem", "Severity", "Term"]


def _in_any_variant(template: str) -> Term | Phrase:
    """A field's term where no variant is at hand: a special book's rank left unnamed, an
    exact cut worded without its number."""
    return worded(template, None) if "{" in template else Term(template)


FIELD_TERMS: Mapping[str, Term | Phrase] = {
    **{name: _in_any_variant(field.term) for name, field in ENTRY_FIELDS.items()},
    "deal": Term(N_("deal")),
    "sides": Term(N_("sides")),
    "players": Term(N_("players")),
    "stock_ran_out": Term(N_("stock ran out")),
    "variant": Term(N_("variant")),
}
"""The name of each field a message may be about, inside a sentence. A side's fields come
from the score-line spec (``EntryField.term``)."""


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
