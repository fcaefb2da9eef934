"""Cards, faces and the shoe.

A `Card` is a playing card as dealt (face and suit). The rules only ever ask about a card's
`Face`: its rank, with the threes told apart by colour, so the table state counts cards by
face. `Face` is an `IntEnum` so that a hand is a short list of counts indexed by face.

What a face is comes from the rules' deck vocabulary (`rules.decks`): a deck's n-th natural
rank is dealt as the n-th natural face, its two wild cards as the two and the joker, its
threes as the black and red three. The standard deck names the faces; the HANDnFOOT pack
deals its lords as aces, its numbered cards 12 to 1 on the king down to the last natural
face, its jesters as twos, villains as black threes and ladies as red threes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache
from typing import Final

from ..rules.cards import CardKind, CardPoints
from ..rules.decks import DECKS, STANDARD, CardType, Deck, get_deck
from ..rules.variants import Variant
from .chance import shuffle


class Face(IntEnum):
    """What a card is for the rules: a rank, a wild card, or a red or black three."""

    ACE = 0
    KING = 1
    QUEEN = 2
    JACK = 3
    TEN = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7
    SIX = 8
    FIVE = 9
    FOUR = 10
    RANK_12 = 11
    """The twelfth natural rank: only a deck with more ranks than the standard one has it."""
    RANK_13 = 12
    TWO = 13
    JOKER = 14
    BLACK_THREE = 15
    RED_THREE = 16

    @property
    def is_natural(self) -> bool:
        """A rank that forms ordinary melds: ace down to four (and the ranks beyond)."""
        return self <= Face.RANK_13

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def label(self) -> str:
        """The face in words, as a player says it."""
        return _LABELS[self]

    def __str__(self) -> str:
        return self.symbol


FACES: Final[tuple[Face, ...]] = tuple(Face)
FACE_COUNT: Final = len(FACES)
NATURAL_FACES: Final[tuple[Face, ...]] = tuple(f for f in FACES if f.is_natural)
NATURAL_RANKS: Final[tuple[int, ...]] = tuple(int(face) for face in NATURAL_FACES)
TWO_RANK: Final[int] = Face.TWO
JOKER_RANK: Final[int] = Face.JOKER
BLACK_RANK: Final[int] = Face.BLACK_THREE
RED_RANK: Final[int] = Face.RED_THREE
"""Faces typed as plain numbers (ranks), to index a hand: the compiled engine indexes a list
with a number directly, and with a `Face` through the interpreter's generic lookup."""


class Suit(Enum):
    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    SPADES = "♠"

    @property
    def is_red(self) -> bool:
        return self is Suit.DIAMONDS or self is Suit.HEARTS


_DECK_RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the shoe. Jokers have no suit."""

    rank: str
    """"A", "K" ... "4", "3", "2", or "JK" for a joker."""
    suit: Suit | None = None

    @property
    def face(self) -> Face:
        if self.rank == "3":
            if self.suit is None:
                raise ValueError("a three needs a suit to tell its colour")
            return Face.RED_THREE if self.suit.is_red else Face.BLACK_THREE
        return _BY_SYMBOL[self.rank]

    def __str__(self) -> str:
        if self.suit is None:
            return "Joker"
        return f"{self.rank}{self.suit.value}"


def deck() -> tuple[Card, ...]:
    """One 54-card deck: 52 cards and two jokers."""
    cards = [Card(rank, suit) for suit in Suit for rank in _DECK_RANKS]
    cards += [Card("JK"), Card("JK")]
    return tuple(cards)


def shoe(decks: int) -> list[Card]:
    """`decks` decks together, unshuffled."""
    return [card for _ in range(decks) for card in deck()]


def deck_faces(deck: Deck, decks: int) -> list[Face]:
    """The faces of `decks` decks of `deck` together, unshuffled: a copy of those listed
    once for each of the tables' decks and count, as every deal starts from them."""
    if DECKS.get(deck.id) is not deck:  # no table's deck: listed each time
        return list(_listed_faces(deck, decks))
    key = (deck.id, decks)
    found = _DECK_FACES.get(key)
    if found is None:
        found = _DECK_FACES[key] = _listed_faces(deck, decks)
    return list(found)


_DECK_FACES: Final[dict[tuple[str, int], tuple[Face, ...]]] = {}


def _listed_faces(deck: Deck, decks: int) -> tuple[Face, ...]:
    if deck is STANDARD:
        return _standard_deck_faces() * decks
    return tuple(face for face, card in cards_by_face(deck) for _ in range(card.per_deck * decks))


@cache
def _standard_deck_faces() -> tuple[Face, ...]:
    """The faces of one standard deck, in the order of `deck()`."""
    return tuple(card.face for card in deck())


def shuffled_shoe(decks: int, rng: random.Random, deck: Deck = STANDARD) -> list[Face]:
    """The faces of `decks` decks in the order `rng` shuffles them (top card last)."""
    faces = deck_faces(deck, decks)
    shuffle(faces, rng)
    return faces


def deck_of(variant: Variant) -> Deck:
    """The deck the variant plays with."""
    return get_deck(variant.deck)


def natural_faces(deck: Deck) -> tuple[Face, ...]:
    """The natural faces a deck deals, highest rank first."""
    return NATURAL_FACES[: len(deck.naturals)]


def natural_ranks(deck: Deck) -> tuple[int, ...]:
    """`natural_faces` by number: a face typed as a plain number indexes a hand in compiled
    code without the interpreter's generic lookup."""
    return NATURAL_RANKS[: len(deck.naturals)]


def cards_by_face(deck: Deck) -> list[tuple[Face, CardType]]:
    """Each face a deck deals, with the card of the deck it stands for."""
    pairs = list(zip(natural_faces(deck), deck.naturals, strict=True))
    pairs += [(Face.TWO, deck.wilds[0]), (Face.JOKER, deck.wilds[1])]
    pairs += [(Face.BLACK_THREE, deck.black_three), (Face.RED_THREE, deck.red_three)]
    return pairs


_EXTRA_RANKS: dict[Face, tuple[str, str]] = {
    Face.RANK_12: ("N12", "twelfth rank"),
    Face.RANK_13: ("N13", "thirteenth rank"),
}
"""How a program writes the natural faces no standard card is dealt as."""

_SYMBOLS: dict[Face, str] = {
    **{face: card.symbol for face, card in cards_by_face(STANDARD)},
    **{face: symbol for face, (symbol, _label) in _EXTRA_RANKS.items()},
}
_LABELS: dict[Face, str] = {
    **{face: card.name for face, card in cards_by_face(STANDARD)},
    **{face: label for face, (_symbol, label) in _EXTRA_RANKS.items()},
}

_BY_SYMBOL: dict[str, Face] = {symbol: face for face, symbol in _SYMBOLS.items()}
_BY_SYMBOL.update({"T": Face.TEN, "JO": Face.JOKER, "JOKER": Face.JOKER})


def face_of(text: str) -> Face:
    """The face written as "A", "K", "10" ... "4", "2", "JK", "R3" or "B3"."""
    try:
        return _BY_SYMBOL[text.strip().upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a card") from None


def deck_rank_face(deck: Deck, rank: str) -> Face:
    """The face of a natural rank of `deck` as the deck writes it ("A" ... "4"; "LD", "12" ...
    "1" for a HANDnFOOT pack)."""
    text = rank.strip().upper()
    for face, card in cards_by_face(deck):
        if face.is_natural and card.symbol == text:
            return face
    symbols = ", ".join(deck.rank_symbols)
    raise ValueError(f"{rank!r} is not a rank that forms melds ({symbols})")


def parse_faces(text: str) -> list[Face]:
    """Faces written with spaces between them, e.g. "A A K 2 JK B3"."""
    return [face_of(token) for token in text.split()]


def counts_of(faces: Iterable[Face]) -> list[int]:
    """A hand as counts by face."""
    counts = [0] * FACE_COUNT
    for face in faces:
        counts[face] += 1
    return counts


def cards_held(counts: list[int]) -> int:
    """How many cards a count list holds: `sum`, as a loop the compiler turns into C (a call
    to the builtin goes through the interpreter)."""
    total = 0
    for count in counts:
        total += count
    return total


def cards_held_up_to(counts: list[int], most: int) -> int:
    """`cards_held`, or `most` where the list holds at least as many: a large hand is not
    counted through where only its last cards matter."""
    total = 0
    for count in counts:
        total += count
        if total >= most:
            return most
    return total


def holds_cards(counts: list[int]) -> bool:
    """Whether a count list holds any card: `any`, compiled as `cards_held` is."""
    for count in counts:  # noqa: SIM110 (`any` on a list is not compiled)
        if count:
            return True
    return False


def faces_in(counts: Sequence[int]) -> list[Face]:
    """The faces a count list holds, in face order."""
    return [face for face in FACES for _ in range(counts[face])]


def describe(counts: Sequence[int]) -> str:
    """A hand written as text, e.g. "A A K 2"."""
    return " ".join(face.symbol for face in faces_in(counts))


def faces_of(kinds: Iterable[CardKind], deck: Deck = STANDARD) -> frozenset[Face]:
    """The faces of the rules core's card kinds, in `deck`."""
    wanted = frozenset(kinds)
    return frozenset(face for face, card in cards_by_face(deck) if card.kind in wanted)


def held_points(points: CardPoints, deck: Deck = STANDARD) -> tuple[int, ...]:
    """Points of each face left in a hand or foot at the end (red threes score apart)."""
    return _points(points, deck, melded=False)


def melded_points(points: CardPoints, deck: Deck = STANDARD) -> tuple[int, ...]:
    """Points of each face inside a meld on the table."""
    return _points(points, deck, melded=True)


_POINTS_KEPT: Final[dict[tuple[int, int, bool], tuple[CardPoints, Deck, tuple[int, ...]]]] = {}
"""`_points` by the identity of its points and deck: hashing those values walks every field
of both, nested, at each deal. An entry holds its points and deck, so their identities stay
theirs while it is kept."""
_MOST_POINTS_KEPT: Final = 256


def _points(points: CardPoints, deck: Deck, *, melded: bool) -> tuple[int, ...]:
    """Kept for each variant's points and deck: every deal dealt reads them."""
    key = (id(points), id(deck), melded)
    found = _POINTS_KEPT.get(key)
    if found is not None:
        return found[2]
    table = [0] * FACE_COUNT
    for face, card in cards_by_face(deck):
        table[face] = card.points_in(points)
    if melded:
        table[Face.BLACK_THREE] = points.black_three_melded
    if len(_POINTS_KEPT) >= _MOST_POINTS_KEPT:
        _POINTS_KEPT.clear()
    found = _POINTS_KEPT[key] = (points, deck, tuple(table))
    return found[2]
