"""Small pieces of wording shared by the rules pages: numbers, card names, lists of books.

Every function here speaks the language of the current request (Flask-Babel's locale).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from babel.lists import format_list
from flask_babel import get_locale, ngettext, pgettext
from flask_babel import gettext as _

from scorekeeper.rules.cards import NATURAL_RANKS, PRICED_APART, CardKind, kind_of_rank
from scorekeeper.rules.decks import STANDARD, get_deck
from scorekeeper.rules.phrases import Clauses, Counted, Register, Said, say
from scorekeeper.rules.phrases import books_needed as books_needed_phrase
from scorekeeper.rules.phrases import deal_span as deal_span_phrase
from scorekeeper.rules.phrases import labelled as labelled_phrase
from scorekeeper.rules.phrases import red_three_rule as red_three_phrase
from scorekeeper.rules.variants import BookCount, RedThreeScore, Variant

MINUS = "\N{MINUS SIGN}"
EN_DASH = "\N{EN DASH}"


def points(value: int) -> str:
    """A number of points, with a true minus sign when it is negative."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """Points with their sign always shown: +100, −500, 0."""
    return f"+{value}" if value > 0 else points(value)


def deal_values(values: Sequence[int], shown: Callable[[int], str] = points) -> str:
    """One value, or one a deal where they differ: "100", "+100 / +200 / +300 / +400"."""
    if all(value == values[0] for value in values):
        return shown(values[0])
    return " / ".join(shown(value) for value in values)


def rank_symbol(rank: str) -> str:
    """A rank as the cards of the current language print it (R for roi, B for Bube...)."""
    symbols = {
        "A": pgettext("card rank", "A"),
        "K": pgettext("card rank", "K"),
        "Q": pgettext("card rank", "Q"),
        "J": pgettext("card rank", "J"),
    }
    return symbols.get(rank, rank)


def ranks_of(kind: CardKind, apart: Iterable[str] = ()) -> tuple[str, ...]:
    """The natural ranks that score as `kind`, highest first, less those priced `apart`."""
    return tuple(rank for rank in NATURAL_RANKS if kind_of_rank(rank) is kind and rank not in apart)


def rank_span(ranks: tuple[str, ...]) -> str:
    """ "K–8" for a run of ranks; a single rank alone."""
    if not ranks:
        return ""
    if len(ranks) == 1:
        return rank_symbol(ranks[0])
    return f"{rank_symbol(ranks[0])}{EN_DASH}{rank_symbol(ranks[-1])}"


def card_label(name: str, apart: Iterable[str] = ()) -> str:
    """The label of a `CardPoints` field: the card or cards it prices (the high and low
    cards less the ranks priced `apart`)."""
    kinds = {
        "high": CardKind.HIGH,
        "low": CardKind.LOW,
    }
    if name in kinds:
        return _("%(ranks)s (each)", ranks=rank_span(ranks_of(kinds[name], tuple(apart))))
    if name in PRICED_APART.values():
        rank = next(rank for rank, field in PRICED_APART.items() if field == name)
        return _("%(ranks)s (each)", ranks=rank_symbol(rank))
    labels = {
        "joker": _("Joker"),
        "two": _("Two"),
        "ace": _("Ace"),
        "black_three": _("Black three left in hand or foot"),
        "black_three_melded": _("Black three in a black-three book"),
    }
    return labels.get(name, name.replace("_", " "))


def priced_cards(variant: Variant) -> list[tuple[str, str, int]]:
    """Each `CardPoints` field the variant prices: its name, its label in the variant's deck
    and what one such card is worth. A deck other than the standard one names its own cards
    (a jester, 12–7) and may print its own points on them (a jester is worth 25)."""
    deck = get_deck(variant.deck)
    points = variant.card_points
    apart = points.ranks_apart
    names = (
        "joker",
        "two",
        "ace",
        "high",
        *(PRICED_APART[rank] for rank in apart),
        "low",
        "black_three",
        "black_three_melded",
    )
    priced = []
    for name in names:
        value = int(getattr(points, name))
        label = card_label(name, apart)
        if deck is not STANDARD and name in _DECK_NAMED:
            cards = [
                card
                for card in deck.naturals + deck.wilds
                if card.kind.value == name and card.symbol not in apart
            ]
            value = cards[0].points_in(points)
            label = (
                _("%(ranks)s (each)", ranks=f"{cards[0].symbol}{EN_DASH}{cards[-1].symbol}")
                if len(cards) > 1
                else _(cards[0].name).capitalize()
            )
        priced.append((name, label, value))
    return priced


_DECK_NAMED = frozenset({"joker", "two", "ace", "high", "low"})
"""The prices whose cards a deck names itself (its threes are black and red threes)."""


def buried_cards(kinds: frozenset[CardKind]) -> str:
    """The cards turned up first that are buried in the stock, as "a red three or a wild card"."""
    threes = {CardKind.RED_THREE, CardKind.BLACK_THREE} & kinds
    wilds = {CardKind.TWO, CardKind.JOKER} & kinds
    parts: list[str] = []
    if len(threes) == 2:
        parts.append(_("a three"))
    elif threes:
        parts.append(_("a red three") if CardKind.RED_THREE in threes else _("a black three"))
    if len(wilds) == 2:
        parts.append(_("a wild card"))
    elif wilds:
        parts.append(_("a two") if CardKind.TWO in wilds else _("a joker"))
    if len(parts) == 2:
        return _("%(first)s or %(second)s", first=parts[0], second=parts[1])
    return parts[0] if parts else ""


def join(items: Iterable[str]) -> str:
    """Items joined the way the current language lists them ("a, b and c")."""
    items = [item for item in items if item]
    if not items:
        return ""
    return format_list(items, locale=get_locale() or "en")


def clauses(items: Iterable[str]) -> str:
    """Clauses one after another, with the current language's semicolon ("a ; b" in French)."""
    return said(Clauses(tuple(items)))


def labelled(label: str, value: str) -> str:
    """ "label: value", with the colon the current language writes."""
    return said(labelled_phrase(label, value))


def counted(words: Counted) -> str:
    """A count and its noun in the current language, in the singular or plural it takes."""
    return ngettext(words.singular, words.plural, words.count)


def books_needed(books: BookCount) -> str:
    """The books of a going-out requirement in words, or "no books"."""
    return said(books_needed_phrase(books))


class PageVoice:
    """The rules pages' way with the rules' words: the reader's language and lists, points
    with a true minus sign."""

    def translate(self, template: str) -> str:
        return _(template)

    def translate_in(self, context: str, template: str) -> str:
        return pgettext(context, template)

    def plural(self, words: Counted) -> str:
        return counted(words)

    def listed(self, items: Sequence[str]) -> str:
        return join(items)

    def number(self, value: int) -> str:
        return points(value)

    def signed(self, value: int) -> str:
        return signed(value)


PAGE_VOICE = PageVoice()


def said(words: Said) -> str:
    """What the rules say, as the rules pages word it."""
    return say(words, PAGE_VOICE)


def red_three_rule(red: RedThreeScore) -> str:
    """What a red three scores, as a clause of a list of rules."""
    return red_three_phrase(red, Register.CLAUSE).render(_, signed)


def deal_span(first: int, last: int) -> str:
    """ "deal 2" or "deals 1–3"."""
    return said(deal_span_phrase(first, last))
