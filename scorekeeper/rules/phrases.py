"""Rules said in words, each once: the rules pages and the score sheets render these phrases.

A phrase is data: a gettext template with ``%(name)s`` placeholders (the catalogs' own message
ids) and the numbers that fill it. The place that shows it translates the template where the
language is known and writes the numbers its own way (the rules pages with a true minus sign,
the sheets in the reader's number format), as `Message` leaves translation to the web layer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from .terms import N_
from .variants import BookCount, RedThreeScore


@dataclass(frozen=True, slots=True)
class Wording:
    """A template and the numbers it is filled with, written by the renderer's `number`."""

    template: str
    numbers: Mapping[str, int] = dataclasses.field(default_factory=dict)

    def render(self, translate: Callable[[str], str], number: Callable[[int], str]) -> str:
        text = translate(self.template)
        return text % {name: number(value) for name, value in self.numbers.items()}


@dataclass(frozen=True, slots=True)
class Counted:
    """A count with the singular and plural templates of its noun ("%(num)d clean book")."""

    singular: str
    plural: str
    count: int


class Register(StrEnum):
    """How much a rule says: a clause in a list of rules, or a score sheet's sentences."""

    CLAUSE = "clause"
    SHEET = "sheet"


class RedThreeCase(StrEnum):
    """The shapes a variant's red-three points take, each worded its own way."""

    NEVER_DOWN = "never-down"
    LESS_IF_NOT_OUT = "less-if-not-out"
    SAME_EITHER_WAY = "same-either-way"
    DOWN_OR_HELD = "down-or-held"


RED_THREE_TEMPLATES: Mapping[Register, Mapping[RedThreeCase, str]] = {
    Register.CLAUSE: {
        RedThreeCase.NEVER_DOWN: N_("never laid down; %(held)s each still held"),
        RedThreeCase.LESS_IF_NOT_OUT: N_(
            "%(down)s each laid down (%(not_out)s by a side that did not go out), "
            "%(held)s each still held"
        ),
        RedThreeCase.SAME_EITHER_WAY: N_("%(points)s each, laid down or not"),
        RedThreeCase.DOWN_OR_HELD: N_("%(down)s each laid down, %(held)s each still held"),
    },
    Register.SHEET: {
        RedThreeCase.NEVER_DOWN: N_(
            "Never laid down: a red three is got rid of by discarding it; "
            "%(held)s each still held when the deal ends."
        ),
        RedThreeCase.LESS_IF_NOT_OUT: N_(
            "%(down)s each laid down (%(not_out)s by a side that did not go out); "
            "%(held)s each still held when the deal ends."
        ),
        RedThreeCase.SAME_EITHER_WAY: N_("%(points)s each, laid down or still held."),
        RedThreeCase.DOWN_OR_HELD: N_(
            "%(down)s each laid down; %(held)s each still held when the deal ends."
        ),
    },
}


def red_three_case(red: RedThreeScore) -> RedThreeCase:
    if red.down is None:
        return RedThreeCase.NEVER_DOWN
    if red.down_for(False) != red.down:
        return RedThreeCase.LESS_IF_NOT_OUT
    if red.down == red.held:
        return RedThreeCase.SAME_EITHER_WAY
    return RedThreeCase.DOWN_OR_HELD


def red_three_rule(red: RedThreeScore, register: Register) -> Wording:
    """What a red three scores, laid down or still held at the end of a deal."""
    case = red_three_case(red)
    numbers = {
        "held": red.held,
        "down": red.down or 0,
        "not_out": red.down_for(False) or 0,
        "points": red.held,
    }
    return Wording(RED_THREE_TEMPLATES[register][case], numbers)


BOOKS_OF_KIND: Mapping[str, tuple[str, str]] = {
    "clean": (N_("%(num)d clean book"), "%(num)d clean books"),
    "dirty": (N_("%(num)d dirty book"), "%(num)d dirty books"),
    "wild": (N_("%(num)d wild book"), "%(num)d wild books"),
}
"""A number of books of each kind a side needs to go out, in full: "2 clean books"."""

BOOKS_OF_KIND_SHORT: Mapping[str, str] = {
    "clean": N_("%(num)s clean"),
    "dirty": N_("%(num)s dirty"),
    "wild": N_("%(num)s wild"),
}
"""The same, as a score sheet's narrow columns print it: "2 clean"."""

NO_BOOKS = N_("no books")
"""A deal in which a side may go out with no particular books."""


def books_to_go_out(books: BookCount) -> tuple[Counted, ...]:
    """The books a side needs to go out, one kind each (none: `NO_BOOKS`)."""
    return tuple(Counted(*BOOKS_OF_KIND[kind], count=count) for kind, count in books if count)


def books_to_go_out_short(books: BookCount) -> tuple[Wording, ...]:
    """The books a side needs to go out as a sheet prints them ("2 clean"), or `NO_BOOKS`."""
    parts = tuple(Wording(BOOKS_OF_KIND_SHORT[kind], {"num": n}) for kind, n in books if n)
    return parts or (Wording(NO_BOOKS),)
