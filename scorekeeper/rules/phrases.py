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
from typing import Protocol, TypeVar

from .cards import BOOK_SIZE
from .score_lines import EntryField, LineSpec, shown_specs, special_rank_words
from .terms import N_, NC_, NP_, Message, Phrase, Term
from .variants import (
    MATCHING_TO_TAKE,
    PILE_TAKE,
    BookCount,
    BookRole,
    PilePickup,
    RedThreeScore,
    Variant,
    WildDiscard,
    WildLimit,
)


@dataclass(frozen=True, slots=True)
class Wording:
    """A template and what fills it: numbers, written by the renderer's `number`, and other
    words (`Said`), each rendered the same way first."""

    template: str
    numbers: Mapping[str, int] = dataclasses.field(default_factory=dict)
    words: Mapping[str, Said] = dataclasses.field(default_factory=dict)
    context: str | None = None
    """The catalogs' context of a template that other places word apart ("label and value")."""

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
    """How much a rule says: a clause in a list of rules (the comparison's cells), a score
    sheet's sentences, the rules pages' sentences, or the words a refusal puts in its own."""

    CLAUSE = "clause"
    SHEET = "sheet"
    FULL = "full"
    REFUSAL = "refusal"


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


@dataclass(frozen=True, slots=True)
class BookKindWords:
    """A number of books of one kind, in each register that says it."""

    counted: tuple[str, str]
    """In full, one book and several (`Counted`): "2 clean books"."""
    short: str
    """As a score sheet's narrow columns print it: "2 clean"."""
    refusal: tuple[str, str]
    """As the engine's refusals word it, one book and several (their ``{count}``)."""


BOOK_KINDS: Mapping[str, BookKindWords] = {
    "clean": BookKindWords(
        NP_("%(num)d clean book", "%(num)d clean books"),
        N_("%(num)s clean"),
        (N_("{count} clean book"), N_("{count} clean books")),
    ),
    "dirty": BookKindWords(
        NP_("%(num)d dirty book", "%(num)d dirty books"),
        N_("%(num)s dirty"),
        (N_("{count} dirty book"), N_("{count} dirty books")),
    ),
    "wild": BookKindWords(
        NP_("%(num)d wild book", "%(num)d wild books"),
        N_("%(num)s wild"),
        (N_("{count} wild book"), N_("{count} wild books")),
    ),
}
"""The books of each kind a side needs to go out, in words: the one wording of the books to
go out that the rules pages, the sheets, the deal form and the engine's refusals render."""

NO_BOOKS = N_("no books")
"""A deal in which a side may go out with no particular books."""

LISTED_PAIR = N_("{first}, {second}")
LISTED_LAST = N_("{first} and {last}")


def books_to_go_out(books: BookCount) -> tuple[Counted, ...]:
    """The books a side needs to go out, one kind each (none: `NO_BOOKS`)."""
    return tuple(Counted(*BOOK_KINDS[kind].counted, count=count) for kind, count in books if count)


def books_to_go_out_short(books: BookCount) -> tuple[Wording, ...]:
    """The books a side needs to go out as a sheet prints them ("2 clean"), or `NO_BOOKS`."""
    parts = tuple(Wording(BOOK_KINDS[kind].short, {"num": n}) for kind, n in books if n)
    return parts or (Wording(NO_BOOKS),)


def books_in_refusal(books: BookCount) -> Phrase:
    """A number of books by kind as a refusal words them, "2 clean books, 2 dirty books and
    1 wild book", or `NO_BOOKS`."""
    parts = [
        Phrase(BOOK_KINDS[kind].refusal[0 if count == 1 else 1], {"count": count})
        for kind, count in books
        if count
    ]
    if not parts:
        return Phrase(NO_BOOKS)
    words = parts[0]
    for part in parts[1:-1]:
        words = Phrase(LISTED_PAIR, {"first": words, "second": part})
    if len(parts) > 1:
        words = Phrase(LISTED_LAST, {"first": words, "last": parts[-1]})
    return words


def books_needed(books: BookCount) -> Said:
    """The books a side needs to go out, listed ("2 clean books and 1 wild book"), or
    `NO_BOOKS`."""
    parts = books_to_go_out(books)
    return Listing(parts) if parts else Wording(NO_BOOKS)


T = TypeVar("T")


def runs(values: tuple[T, ...]) -> list[tuple[int, int, T]]:
    """Consecutive equal values grouped: [(first deal, last deal, value), ...] (deals from 1)."""
    grouped: list[tuple[int, int, T]] = []
    for deal, value in enumerate(values, start=1):
        if grouped and grouped[-1][2] == value:
            grouped[-1] = (grouped[-1][0], deal, value)
        else:
            grouped.append((deal, deal, value))
    return grouped


DEAL = N_("deal %(deal)s")
DEALS = N_("deals %(first)s–%(last)s")
LABELLED = "label and value"
LABEL_AND_VALUE = NC_("label and value", "%(label)s: %(value)s")
"""A label and its value ("deal 2: 1 clean book"), in the catalogs' context `LABELLED`."""


def deal_span(first: int, last: int) -> Wording:
    """ "deal 2" or "deals 1–3"."""
    if first == last:
        return Wording(DEAL, numbers={"deal": first})
    return Wording(DEALS, numbers={"first": first, "last": last})


def labelled(label: Said, value: Said) -> Wording:
    """ "label: value", with the colon the reader's language writes."""
    return Wording(LABEL_AND_VALUE, words={"label": label, "value": value}, context=LABELLED)


def books_by_deal(going_out: tuple[BookCount, ...]) -> Said:
    """The books needed to go out in every deal: said once where every deal asks the same,
    else deal by deal ("deals 1–2: 1 clean book; deal 3: no books")."""
    grouped = runs(going_out)
    if len(grouped) == 1:
        return books_needed(going_out[0])
    return Clauses(
        tuple(
            labelled(deal_span(first, last), books_needed(books)) for first, last, books in grouped
        )
    )


BOOKS_TO_GO_OUT_IN_FULL: Mapping[tuple[bool, bool], str] = {
    (False, False): N_("To go out, your side must have completed at least %(books)s."),
    (False, True): N_("To go out, you must have completed at least %(books)s."),
    (True, False): N_(
        "To go out, your side must have completed the books the deal asks for (%(books)s)."
    ),
    (True, True): N_("To go out, you must have completed the books the deal asks for (%(books)s)."),
}
"""The rules pages' sentence on the books to go out, by (whether deals differ, whether each
player plays alone)."""


def books_to_go_out_in_full(going_out: tuple[BookCount, ...], solo: bool) -> Wording:
    """The books to go out as the rules pages tell a player: to a side, or to a player alone."""
    by_deal = len(runs(going_out)) > 1
    return Wording(
        BOOKS_TO_GO_OUT_IN_FULL[by_deal, solo], words={"books": books_by_deal(going_out)}
    )


# --- the wild-card limit ----------------------------------------------------------------------


class WildLimitCase(StrEnum):
    """The shapes a wild-card limit (naturals >= per_wild * wilds + extra) takes."""

    ONE_MORE = "one-more"
    """One more natural card than wild cards (1 per wild, 1 more)."""
    TWICE = "twice"
    """Twice as many natural cards as wild cards (2 per wild, none more)."""
    TIMES = "times"
    """So many natural cards per wild card, none more."""
    MORE = "more"
    """So many more natural cards than wild cards (1 per wild)."""
    TIMES_AND_MORE = "times-and-more"


def wild_limit_case(limit: WildLimit) -> WildLimitCase:
    if limit.per_wild == 1 and limit.extra == 1:
        return WildLimitCase.ONE_MORE
    if limit.per_wild == 2 and limit.extra == 0:
        return WildLimitCase.TWICE
    if limit.extra == 0:
        return WildLimitCase.TIMES
    if limit.per_wild == 1:
        return WildLimitCase.MORE
    return WildLimitCase.TIMES_AND_MORE


_WILD_FORMULA_TIMES = N_("natural cards ≥ %(times)s × wild cards")
_WILD_FORMULA_MORE = N_("natural cards ≥ wild cards + %(extra)s")
_WILD_FORMULA = N_("natural cards ≥ %(times)s × wild cards + %(extra)s")
_WILD_SENTENCE_TIMES = N_(
    "A meld must hold at least %(times)s times as many natural cards as wild cards."
)
_WILD_SENTENCE_MORE = NP_(
    "A meld must hold at least %(num)d more natural card than wild cards.",
    "A meld must hold at least %(num)d more natural cards than wild cards.",
)
_WILD_SENTENCE = N_(
    "A meld must hold at least %(times)s natural cards for each wild card, plus %(extra)s."
)
_WILD_REFUSAL = N_("at least {count} natural cards for every wild card, and {extra} more")

WILD_LIMIT_TEMPLATES: Mapping[Register, Mapping[WildLimitCase, str | tuple[str, str]]] = {
    Register.CLAUSE: {
        WildLimitCase.ONE_MORE: _WILD_FORMULA_MORE,
        WildLimitCase.TWICE: _WILD_FORMULA_TIMES,
        WildLimitCase.TIMES: _WILD_FORMULA_TIMES,
        WildLimitCase.MORE: _WILD_FORMULA_MORE,
        WildLimitCase.TIMES_AND_MORE: _WILD_FORMULA,
    },
    Register.FULL: {
        WildLimitCase.ONE_MORE: _WILD_SENTENCE_MORE,
        WildLimitCase.TWICE: _WILD_SENTENCE_TIMES,
        WildLimitCase.TIMES: _WILD_SENTENCE_TIMES,
        WildLimitCase.MORE: _WILD_SENTENCE_MORE,
        WildLimitCase.TIMES_AND_MORE: _WILD_SENTENCE,
    },
    Register.REFUSAL: {
        WildLimitCase.ONE_MORE: N_("more natural cards than wild cards"),
        WildLimitCase.TWICE: N_("at least twice as many natural cards as wild cards"),
        WildLimitCase.TIMES: N_("at least {count} natural cards for every wild card"),
        WildLimitCase.MORE: _WILD_REFUSAL,
        WildLimitCase.TIMES_AND_MORE: _WILD_REFUSAL,
    },
}
"""The wild-card limit in each register: a formula (the comparison), a sentence (the rules
pages), the words of a refusal (the engine's ``{placeholders}``, as its messages take)."""

WILD_LIMIT_IN_A_BOOK = N_("%(rule)s; at most %(most)s in a book of %(size)s")
WILD_LIMIT_IN_A_BOOK_AND_ANY_MELD = N_(
    "%(rule)s; at most %(most)s in a book of %(size)s, and %(cap)s in any meld"
)


def wild_limit_rule(limit: WildLimit, register: Register) -> Said:
    """How many natural cards a meld needs for its wild cards, in `register` (a clause or the
    rules pages' sentence; a refusal's words are `wild_limit_refusal`)."""
    template = WILD_LIMIT_TEMPLATES[register][wild_limit_case(limit)]
    if isinstance(template, tuple):
        return Counted(*template, count=limit.extra)
    return Wording(template, _used(template, {"times": limit.per_wild, "extra": limit.extra}))


def wild_limit_refusal(limit: WildLimit) -> Phrase:
    """The wild-card limit as a refusal words it ("a meld must have {words}")."""
    template = WILD_LIMIT_TEMPLATES[Register.REFUSAL][wild_limit_case(limit)]
    assert isinstance(template, str)
    return Phrase(template, _used_braced(template, {"count": limit.per_wild, "extra": limit.extra}))


def wild_limit_with_book(limit: WildLimit) -> Wording:
    """The wild-card limit as the comparison says it: its formula and the most wild cards a
    book may hold."""
    numbers = {"most": limit.most_wilds(BOOK_SIZE), "size": BOOK_SIZE}
    words = {"rule": wild_limit_rule(limit, Register.CLAUSE)}
    if limit.most is None:
        return Wording(WILD_LIMIT_IN_A_BOOK, numbers=numbers, words=words)
    numbers["cap"] = limit.most
    return Wording(WILD_LIMIT_IN_A_BOOK_AND_ANY_MELD, numbers=numbers, words=words)


def first_meld_by_deal(first_meld: tuple[int, ...]) -> Slashed:
    """The minimum first meld of every deal, one a deal: "50 / 90 / 120 / 150"."""
    return Slashed(tuple(Amount(points) for points in first_meld))


# --- the discard pile -------------------------------------------------------------------------

PILE_PICKUP_WORDS: Mapping[Register, Mapping[PilePickup, Wording]] = {
    Register.CLAUSE: {
        PilePickup.TOP_SEVEN: Wording(
            N_("the top %(count)s cards, or the whole pile if fewer"), {"count": PILE_TAKE}
        ),
        PilePickup.TOP_SEVEN_FROM_FULL: Wording(
            N_("exactly the top %(count)s cards, only from a pile of %(count)s or more"),
            {"count": PILE_TAKE},
        ),
        PilePickup.WHOLE_PILE: Wording(N_("the whole pile")),
    },
    Register.FULL: {
        PilePickup.TOP_SEVEN: Wording(
            N_(
                "Picking up the discard pile: you take its top %(count)s cards, or the whole "
                "pile if it holds fewer."
            ),
            {"count": PILE_TAKE},
        ),
        PilePickup.TOP_SEVEN_FROM_FULL: Wording(
            N_(
                "Picking up the discard pile: this is allowed only while the pile holds at "
                "least %(count)s cards, and you take exactly the top %(count)s."
            ),
            {"count": PILE_TAKE},
        ),
        PilePickup.WHOLE_PILE: Wording(
            N_("Picking up the discard pile: you take every card in it.")
        ),
    },
}
"""How much of the discard pile a player takes, with the number of cards it holds: as the
comparison and the quick reference say it, and as the rules pages tell it."""

WILD_DISCARD_WORDS: Mapping[Register, Mapping[WildDiscard, Wording]] = {
    Register.CLAUSE: {
        WildDiscard.NEEDS_MATCHING_WILDS: Wording(
            N_("the pile is taken only with %(count)s matching wild cards"),
            {"count": MATCHING_TO_TAKE},
        ),
        WildDiscard.NEVER_TAKEN: Wording(N_("a two, three or joker on top is never taken")),
        WildDiscard.FREEZES_PILE: Wording(N_("it freezes the pile, which is set aside")),
    },
    Register.FULL: {
        WildDiscard.NEEDS_MATCHING_WILDS: Wording(
            N_(
                "If a wild card lies on top of the discard pile, the pile can be taken only "
                "with %(count)s wild cards of the same kind: twos to take a two, jokers to "
                "take a joker."
            ),
            {"count": MATCHING_TO_TAKE},
        ),
        WildDiscard.NEVER_TAKEN: Wording(
            N_(
                "A two, a three or a joker on top of the discard pile can never be taken, "
                "since no meld can be built on it."
            )
        ),
        WildDiscard.FREEZES_PILE: Wording(
            N_(
                "Discarding a two or a joker freezes the discard pile: the whole pile is set "
                "aside, out of play, and the next discard starts a new one."
            )
        ),
    },
}
"""What a wild card discarded onto the pile does, with the number of cards it asks for: as
the comparison and the quick reference say it, and as the rules pages tell it."""


def pile_pickup_words(pickup: PilePickup, register: Register = Register.CLAUSE) -> Wording:
    return PILE_PICKUP_WORDS[register][pickup]


def wild_discard_words(rule: WildDiscard, register: Register = Register.CLAUSE) -> Wording:
    return WILD_DISCARD_WORDS[register][rule]


def _used(template: str, numbers: Mapping[str, int]) -> dict[str, int]:
    return {name: value for name, value in numbers.items() if f"%({name})" in template}


def _used_braced(template: str, numbers: Mapping[str, int]) -> dict[str, object]:
    return {name: value for name, value in numbers.items() if f"{{{name}}}" in template}


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


@dataclass(frozen=True, slots=True)
class Clauses:
    """Clauses one after another, with the reader's language's semicolon ("a ; b" in French)."""

    parts: tuple[Said, ...]


@dataclass(frozen=True, slots=True)
class Amount:
    """A number as the place writes its numbers (the rules pages: a true minus sign)."""

    value: int


@dataclass(frozen=True, slots=True)
class Slashed:
    """Values one after another with a slash between them, one a deal ("50 / 90 / 120")."""

    parts: tuple[Said, ...]


Said = (
    Wording
    | Counted
    | Listing
    | Sentences
    | Clauses
    | Slashed
    | Amount
    | Signed
    | Message
    | Term
    | str
)
"""Anything the rules say; a plain `str` is a name (a side's) and is shown as it is."""


CLAUSE_SEPARATOR = "clause separator"
# TRANSLATORS: the separator between two clauses of a list, a semicolon and a space.
CLAUSES_APART = NC_("clause separator", "; ")
"""The separator between clauses, in the catalogs' context `CLAUSE_SEPARATOR`."""


class Voice(Protocol):
    """How a place speaks: its language, its plurals, its lists and its numbers."""

    def translate(self, template: str) -> str: ...

    def translate_in(self, context: str, template: str) -> str: ...

    def plural(self, words: Counted) -> str: ...

    def listed(self, items: Sequence[str]) -> str: ...

    def number(self, value: int) -> str: ...

    def signed(self, value: int) -> str: ...


def say(said: Said, voice: Voice) -> str:
    """What the rules say, in the voice of the place that shows it."""
    if isinstance(said, Wording):
        values = {name: voice.number(value) for name, value in said.numbers.items()}
        values.update({name: say(words, voice) for name, words in said.words.items()})
        if said.context is not None:
            return voice.translate_in(said.context, said.template) % values
        return voice.translate(said.template) % values
    if isinstance(said, Counted):
        return voice.plural(said)
    if isinstance(said, Listing):
        return voice.listed([say(item, voice) for item in said.items])
    if isinstance(said, Sentences):
        return " ".join(say(part, voice) for part in said.parts)
    if isinstance(said, Clauses):
        separator = voice.translate_in(CLAUSE_SEPARATOR, CLAUSES_APART)
        return separator.join(text for text in (say(part, voice) for part in said.parts) if text)
    if isinstance(said, Slashed):
        return " / ".join(say(part, voice) for part in said.parts)
    if isinstance(said, Amount):
        return voice.number(said.value)
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
        return spec.help_for(variant, number)
    out, not_out = spec.unit(variant, True, number), spec.unit(variant, False, number)
    if field.flag:
        help_ = spec.help_for(variant, number)
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
    if "exact_22" in hints and variant.sizes_by_deal:
        cut = variant.hand_size_for(number) + variant.foot_size_for(number)
        exact = Wording(EXACT_CUT_OF_THIS_DEAL, numbers={"cut": cut})
        hints["exact_22"] = Sentences((hints["exact_22"], exact))
    return hints


EXACT_CUT_OF_THIS_DEAL = N_("In this deal the exact cut is %(cut)s cards.")


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
