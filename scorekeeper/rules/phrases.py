"""Rules said in words, each once: the rules pages and the score sheets render these phrases.

A phrase is data: a gettext template with ``%(name)s`` placeholders (the catalogs' own message
ids) and the numbers that fill it. The place that shows it translates the template where the
language is known and writes the numbers its own way (the rules pages with a true minus sign,
the sheets in the reader's number format), as `Message` leaves translation to the web layer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from .score_lines import EntryField, LineSpec, shown_specs, special_rank_words
from .terms import N_, Message, Term
from .variants import BookCount, BookRole, RedThreeScore, Variant


@dataclass(frozen=True, slots=True)
class Wording:
    """A template and what fills it: numbers, written by the renderer's `number`, and other
    words (`Said`), each rendered the same way first."""

    template: str
    numbers: Mapping[str, int] = dataclasses.field(default_factory=dict)
    words: Mapping[str, Said] = dataclasses.field(default_factory=dict)

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


RED_THREES_EITHER_WAY = N_(
    "Every red three counts %(points)s at the end of the deal, laid down or not. "
    "Lay them down anyway: each one brings you a replacement card."
)
RED_THREES_DOWN_OR_HELD = N_(
    "Each red three laid down scores %(down)s for your side. One still in a hand "
    "or foot when the deal ends counts %(held)s instead."
)
RED_THREES_NOT_OUT = N_(
    "A side that did not go out scores %(not_out)s for each red three it laid "
    "down; when the stock runs out, nobody went out, so every side does."
)
RED_THREES_NEVER_DOWN = N_(
    "Each red three still in a hand or foot when the deal ends, a foot never "
    "picked up included, costs %(held)s."
)


def red_three_rule_in_full(red: RedThreeScore) -> Said:
    """What a red three scores, as the rules pages tell a player (who is "you")."""
    if red.down is None:
        return Wording(RED_THREES_NEVER_DOWN, words={"held": Signed(red.held)})
    if red.down == red.held:
        first = Wording(RED_THREES_EITHER_WAY, words={"points": Signed(red.held)})
    else:
        down_or_held = {"down": Signed(red.down), "held": Signed(red.held)}
        first = Wording(RED_THREES_DOWN_OR_HELD, words=down_or_held)
    not_out = red.down_for(False)
    if not_out == red.down:
        return first
    return Sentences((first, Wording(RED_THREES_NOT_OUT, words={"not_out": Signed(not_out or 0)})))


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


# --- the deal form: what a field is worth, what a deal asks ----------------------------------


@dataclass(frozen=True, slots=True)
class Signed:
    """Points written with their sign, as a hint beside a field gives them ("+500")."""

    value: int


@dataclass(frozen=True, slots=True)
class Listing:
    """Words listed the way the reader's language lists them ("2 clean books and 1 wild book")."""

    items: tuple[Said, ...]


@dataclass(frozen=True, slots=True)
class Sentences:
    """Sentences one after another, a space between them."""

    parts: tuple[Said, ...]


Said = Wording | Counted | Listing | Sentences | Signed | Message | Term | str
"""Anything the rules say; a plain `str` is a name (a side's) and is shown as it is."""


class Voice(Protocol):
    """How a place speaks: its language, its plurals, its lists and its numbers."""

    def translate(self, template: str) -> str: ...

    def plural(self, words: Counted) -> str: ...

    def listed(self, items: Sequence[str]) -> str: ...

    def number(self, value: int) -> str: ...

    def signed(self, value: int) -> str: ...


def say(said: Said, voice: Voice) -> str:
    """What the rules say, in the voice of the place that shows it."""
    if isinstance(said, Wording):
        values = {name: voice.number(value) for name, value in said.numbers.items()}
        values.update({name: say(words, voice) for name, words in said.words.items()})
        return voice.translate(said.template) % values
    if isinstance(said, Counted):
        return voice.plural(said)
    if isinstance(said, Listing):
        return voice.listed([say(item, voice) for item in said.items])
    if isinstance(said, Sentences):
        return " ".join(say(part, voice) for part in said.parts)
    if isinstance(said, Signed):
        return voice.signed(said.value)
    if isinstance(said, Message):
        return said.render(voice.translate)
    if isinstance(said, Term):
        return voice.translate(said)
    return said


EACH = N_("%(points)s points each")
EACH_UNLESS_OUT = N_("%(each)s; %(points)s for a side that did not go out")
FLAG_POINTS = N_("%(help)s %(points)s points.")
SPECIAL_BOOKS_APART = N_(
    "Books of %(rank)s are not counted here but on their own line; for going out, "
    "they count as clean books."
)
SPECIAL_BOOKS_APART_DIRTY = N_(
    "Books of %(rank)s are not counted here but on their own line; for going out, "
    "they count as dirty books."
)
SPECIAL_BOOKS_APART_NEITHER = N_(
    "Books of %(rank)s are not counted here but on their own line; for going out, "
    "they count as neither clean nor dirty books."
)
_SPECIAL_BOOKS_APART = {
    BookRole.CLEAN: SPECIAL_BOOKS_APART,
    BookRole.DIRTY: SPECIAL_BOOKS_APART_DIRTY,
    BookRole.NONE: SPECIAL_BOOKS_APART_NEITHER,
}


def field_hint(spec: LineSpec, field: EntryField, variant: Variant, number: int) -> Said:
    """The hint beside an entry field in deal ``number``: what one counted thing is worth,
    and for a side that did not go out where that differs (red threes laid down); the line's
    help where it counts points, and with its bonus for a yes or no (went out concealed)."""
    if spec.unit is None:
        return spec.help_for(variant)
    out, not_out = spec.unit(variant, True, number), spec.unit(variant, False, number)
    if field.flag:
        help_ = spec.help_for(variant)
        return Wording(FLAG_POINTS, words={"help": help_, "points": Signed(out or 0)})
    each = Wording(EACH, words={"points": Signed(out or 0)})
    if out == not_out:
        return each
    return Wording(EACH_UNLESS_OUT, words={"each": each, "points": Signed(not_out or 0)})


def field_hints(variant: Variant, number: int) -> dict[str, Said]:
    """The hint beside each entry field in deal ``number``. Where books of a special rank
    have a line of their own, the clean books' hint says they are not counted there, though
    they count as clean books for going out."""
    hints = {
        field.name: field_hint(spec, field, variant, number)
        for spec in shown_specs(variant)
        for field in spec.fields
    }
    if "special_books" in hints and "clean_books" in hints:
        apart = Wording(
            _SPECIAL_BOOKS_APART[variant.special_book_goes_out_as],
            words={"rank": Term(special_rank_words(variant))},
        )
        hints["clean_books"] = Sentences((hints["clean_books"], apart))
    return hints


NEEDS_BOOKS = N_("To go out, a side needs at least %(books)s.")
NEEDS_NO_BOOKS = N_("To go out, a side needs no particular books in this deal.")
SPECIAL_BOOKS_ARE_CLEAN = N_("Books of %(rank)s count as clean books.")
SPECIAL_BOOKS_ARE_DIRTY = N_("Books of %(rank)s count as dirty books.")
SPECIAL_BOOKS_ARE_NEITHER = N_("Books of %(rank)s count as neither clean nor dirty books.")
_SPECIAL_BOOKS_COUNT = {
    BookRole.CLEAN: SPECIAL_BOOKS_ARE_CLEAN,
    BookRole.DIRTY: SPECIAL_BOOKS_ARE_DIRTY,
    BookRole.NONE: SPECIAL_BOOKS_ARE_NEITHER,
}
BLACK_THREE_BOOKS_COUNT = {
    BookRole.DIRTY: N_("Black-three books count as dirty books."),
    BookRole.NONE: N_("Black-three books count as neither clean nor dirty books."),
}
NEEDS_SPECIAL_BOOK = N_("Going out also needs a book of %(rank)s.")
NEEDS_ANY_BOOKS = N_("Going out also needs at least %(count)s books of any kind.")
PLAYERS_MAY_RUN_OUT = N_(
    "A player who runs out of cards without going out waits: a side may have no cards left."
)
BONUS_OF_THIS_DEAL = N_("Going out scores %(bonus)s in this deal.")


def going_out_books_rules(variant: Variant) -> tuple[Said, ...]:
    """What every deal's going out asks beyond the books of each kind: what special books and
    black-three books count as, the books of any kind, the special book, and players who may
    run out of cards and wait."""
    parts: list[Said] = []
    bonus = variant.book_bonus
    if bonus.special is not None and bonus.special_rank is not None:
        rank = Term(special_rank_words(variant))
        said = _SPECIAL_BOOKS_COUNT[variant.special_book_goes_out_as]
        parts.append(Wording(said, words={"rank": rank}))
        if variant.going_out_needs_special_book:
            parts.append(Wording(NEEDS_SPECIAL_BOOK, words={"rank": rank}))
    black = BLACK_THREE_BOOKS_COUNT.get(variant.black_three_book_goes_out_as)
    if variant.black_three_books and black is not None:
        parts.append(Wording(black))
    if variant.going_out_any_books:
        parts.append(Wording(NEEDS_ANY_BOOKS, numbers={"count": variant.going_out_any_books}))
    if variant.players_may_run_out:
        parts.append(Wording(PLAYERS_MAY_RUN_OUT))
    return tuple(parts)


def going_out_rule(variant: Variant, number: int) -> Sentences:
    """What going out asks in deal ``number``, and what it scores where that changes."""
    books = books_to_go_out(variant.going_out_for(number))
    needs = Wording(NEEDS_BOOKS, words={"books": Listing(books)}) if books else None
    parts: list[Said] = [needs or Wording(NEEDS_NO_BOOKS)]
    parts.extend(going_out_books_rules(variant))
    if len(set(variant.going_out_bonus)) > 1:
        bonus_now = variant.going_out_bonus_for(number)
        parts.append(Wording(BONUS_OF_THIS_DEAL, numbers={"bonus": bonus_now}))
    return Sentences(tuple(parts))


SIDE_POINTS = N_("%(side)s %(points)s")


def first_meld_by_side(names: Sequence[str], minimums: Sequence[int]) -> Listing:
    """Each side's first-meld minimum where it follows the running score: "Ann 50, Bob 90"."""
    return Listing(
        tuple(
            Wording(SIDE_POINTS, numbers={"points": points}, words={"side": name})
            for name, points in zip(names, minimums, strict=True)
        )
    )
