"""The decks a table may play with: every card a deck holds, its kind, points and count.

One vocabulary for the rules core and the engine. A deck lists its natural ranks (highest
first: the ranks that form melds), its two wild cards (the cheaper first), its black three
and its red three. Validation counts against these cards; the engine deals them, putting a
deck's n-th natural rank on its n-th natural face.

`Table.decks` counts decks of the variant's own deck: standard decks of 54 cards, or
HANDnFOOT packs of 262 cards (a pack stands for five standard decks: four players play with
one pack where they would play with five decks).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import (
    BLACK_THREES_PER_DECK,
    BOOK_SIZE,
    CARDS_PER_DECK,
    CARDS_PER_RANK_PER_DECK,
    NATURAL_RANKS,
    RED_THREES_PER_DECK,
    TWOS_PER_DECK,
    WILDS_PER_DECK,
    CardKind,
    CardPoints,
    kind_of_rank,
)
from .terms import N_


@dataclass(frozen=True, slots=True)
class CardType:
    """One sort of card in a deck, as the rules see it."""

    symbol: str
    """How the card is written ("A", "10", "JK"; "12" or "LD" for a HANDnFOOT card)."""
    name: str
    """The card in words, marked for translation ("ace", "lord")."""
    plural: str
    kind: CardKind
    """The rule the card follows: a natural rank's scoring kind, a wild, or a three."""
    per_deck: int
    """How many one deck holds."""
    points: int | None = None
    """The card's own points where the deck prints them (a jester: 25); None: by its kind."""

    def points_in(self, card_points: CardPoints) -> int:
        """What one card is worth under a variant's card points."""
        if self.points is not None:
            return self.points
        return card_points.of_rank(self.symbol, self.kind)


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck a table plays with, as counts of each sort of card."""

    id: str
    name: str
    naturals: tuple[CardType, ...]
    wilds: tuple[CardType, CardType]
    """The two wild cards, the one that stands for a two first, then the joker."""
    black_three: CardType
    red_three: CardType
    stands_for: int = 1
    """How many standard decks one deck replaces at a table."""
    black_three_rank: str = "3"
    """How a meld of black threes gives its rank (a pack has a numbered 3, so its villains
    go by their own symbol)."""
    inferred: tuple[str, ...] = ()
    """What no source gives about the deck (card points the table may change), in words."""
    red_three_book_bonus: int | None = None
    """Where the deck's red threes may be added to a clean book, the bonus for each one a
    variant takes when it chooses the deck (``book_bonus.lady``); None: they never join a
    book."""

    @property
    def red_threes_join_books(self) -> bool:
        """Whether a red three of this deck may be added to a clean book for a bonus."""
        return self.red_three_book_bonus is not None

    @property
    def cards(self) -> tuple[CardType, ...]:
        return (*self.naturals, *self.wilds, self.black_three, self.red_three)

    @property
    def size(self) -> int:
        """The cards in one deck."""
        return sum(card.per_deck for card in self.cards)

    @property
    def rank_symbols(self) -> tuple[str, ...]:
        return tuple(card.symbol for card in self.naturals)

    def natural(self, symbol: str) -> CardType:
        """The natural rank written `symbol`; ValueError when the deck has none."""
        for card in self.naturals:
            if card.symbol == symbol:
                return card
        raise ValueError(f"{symbol!r} is not a natural rank of the {self.id} deck")

    def supply(self, decks: int) -> Supply:
        """The cards of `decks` such decks together."""
        return Supply(self, decks)


@dataclass(frozen=True, slots=True)
class Supply:
    """The cards a table plays with: `decks` decks of one kind."""

    deck: Deck
    decks: int

    @property
    def cards(self) -> int:
        return self.deck.size * self.decks

    @property
    def red_threes(self) -> int:
        return self.deck.red_three.per_deck * self.decks

    @property
    def black_threes(self) -> int:
        return self.deck.black_three.per_deck * self.decks

    @property
    def wilds(self) -> int:
        return sum(card.per_deck for card in self.deck.wilds) * self.decks

    @property
    def naturals(self) -> int:
        """Natural cards of every rank together."""
        return sum(card.per_deck for card in self.deck.naturals) * self.decks

    def of_rank(self, card: CardType) -> int:
        return card.per_deck * self.decks

    @property
    def most_clean_books(self) -> int:
        """Clean books the naturals allow: seven cards of one rank each."""
        return sum(self.of_rank(card) // BOOK_SIZE for card in self.deck.naturals)

    @property
    def clean_books_per_rank(self) -> tuple[int, ...]:
        """Clean books each rank allows, fewest first (the same for every rank of a
        standard deck)."""
        return tuple(sorted({self.of_rank(card) // BOOK_SIZE for card in self.deck.naturals}))

    def natural_points(self, points: CardPoints) -> list[tuple[int, int]]:
        """(points, cards) of every natural rank."""
        return [(card.points_in(points), self.of_rank(card)) for card in self.deck.naturals]

    def wild_points(self, points: CardPoints) -> list[tuple[int, int]]:
        """(points, cards) of each wild card."""
        return [(card.points_in(points), self.of_rank(card)) for card in self.deck.wilds]

    def without_rank(self, symbol: str | None) -> Supply:
        """The supply less one natural rank (that of special books, which no other book
        holds); the same supply for None or a rank the deck does not have."""
        naturals = tuple(card for card in self.deck.naturals if card.symbol != symbol)
        if symbol is None or len(naturals) == len(self.deck.naturals):
            return self
        return Supply(replace(self.deck, naturals=naturals), self.decks)

    def total_points(self, points: CardPoints) -> int:
        """All card points in the supply, red threes aside."""
        black = self.black_threes * points.black_three
        return (
            sum(each * cards for each, cards in self.natural_points(points))
            + sum(each * cards for each, cards in self.wild_points(points))
            + black
        )


def _card(symbol: str, name: str, plural: str, kind: CardKind, per_deck: int) -> CardType:
    return CardType(symbol, name, plural, kind, per_deck)


_STANDARD_NAMES: dict[str, tuple[str, str]] = {
    "A": (N_("ace"), N_("aces")),
    "K": (N_("king"), N_("kings")),
    "Q": (N_("queen"), N_("queens")),
    "J": (N_("jack"), N_("jacks")),
    "10": (N_("ten"), N_("tens")),
    "9": (N_("nine"), N_("nines")),
    "8": (N_("eight"), N_("eights")),
    "7": (N_("seven"), N_("sevens")),
    "6": (N_("six"), N_("sixes")),
    "5": (N_("five"), N_("fives")),
    "4": (N_("four"), N_("fours")),
}

STANDARD = Deck(
    id="standard",
    name=N_("standard decks of 54 cards"),
    naturals=tuple(
        _card(rank, *_STANDARD_NAMES[rank], kind_of_rank(rank), CARDS_PER_RANK_PER_DECK)
        for rank in NATURAL_RANKS
    ),
    wilds=(
        _card("2", N_("two"), N_("twos"), CardKind.TWO, TWOS_PER_DECK),
        _card("JK", N_("joker"), N_("jokers"), CardKind.JOKER, WILDS_PER_DECK - TWOS_PER_DECK),
    ),
    black_three=_card(
        "B3", N_("black three"), N_("black threes"), CardKind.BLACK_THREE, BLACK_THREES_PER_DECK
    ),
    red_three=_card(
        "R3", N_("red three"), N_("red threes"), CardKind.RED_THREE, RED_THREES_PER_DECK
    ),
)
assert STANDARD.size == CARDS_PER_DECK

_NUMBERED_HIGH = tuple(range(12, 6, -1))
_NUMBERED_LOW = tuple(range(6, 0, -1))

HANDNFOOT = Deck(
    id="handnfoot",
    name=N_("HANDnFOOT packs of 262 cards"),
    naturals=(
        _card("LD", N_("lord"), N_("lords"), CardKind.ACE, 20),
        *(_card(str(n), str(n), str(n), CardKind.HIGH, 16) for n in _NUMBERED_HIGH),
        *(_card(str(n), str(n), str(n), CardKind.LOW, 16) for n in _NUMBERED_LOW),
    ),
    wilds=(
        CardType("JS", N_("jester"), N_("jesters"), CardKind.TWO, 20, points=25),
        _card("JK", N_("joker"), N_("jokers"), CardKind.JOKER, 10),
    ),
    black_three=_card("VL", N_("villain"), N_("villains"), CardKind.BLACK_THREE, 10),
    red_three=_card("LY", N_("lady"), N_("ladies"), CardKind.RED_THREE, 10),
    stands_for=5,
    black_three_rank="VL",
    inferred=(
        N_(
            "Numbered cards 7 to 12 score like high cards (K to 8), 1 to 6 like low cards "
            "(7 to 4): the pack does not say."
        ),
        N_(
            "A lady added to a clean book earns 100 unless the table sets its own bonus: the "
            "pack does not say how much."
        ),
    ),
    red_three_book_bonus=100,
)

DECKS: dict[str, Deck] = {deck.id: deck for deck in (STANDARD, HANDNFOOT)}


def get_deck(deck_id: str) -> Deck:
    """The deck named `deck_id`; ValueError for an unknown one."""
    try:
        return DECKS[deck_id]
    except KeyError:
        raise ValueError(f"{deck_id!r} is not a deck ({', '.join(DECKS)})") from None
