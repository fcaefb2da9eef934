"""Card kinds, their points, and the standard 54-card deck (`rules.decks` lists every deck)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class CardKind(Enum):
    """The groups of cards that score alike."""

    JOKER = "joker"
    TWO = "two"
    ACE = "ace"
    HIGH = "high"  # K, Q, J, 10, 9, 8
    LOW = "low"  # 7, 6, 5, 4
    BLACK_THREE = "black_three"
    RED_THREE = "red_three"


NATURAL_RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
"""Ranks that can be melded: ace down to four."""

CARDS_PER_RANK_PER_DECK = 4
WILDS_PER_DECK = 6  # four twos and two jokers
TWOS_PER_DECK = 4
RED_THREES_PER_DECK = 2
BLACK_THREES_PER_DECK = 2
CARDS_PER_DECK = 54
BOOK_SIZE = 7
SMALLEST_CARD_POINTS = 5


def kind_of_rank(rank: str) -> CardKind:
    """The scoring kind of a natural rank ("A", "K", ... "4")."""
    if rank == "A":
        return CardKind.ACE
    if rank in ("K", "Q", "J", "10", "9", "8"):
        return CardKind.HIGH
    if rank in ("7", "6", "5", "4"):
        return CardKind.LOW
    raise ValueError(f"{rank!r} is not a natural rank")


@dataclass(frozen=True, slots=True)
class CardPoints:
    """What one card is worth, melded or left in hand (left cards count against)."""

    joker: int = 50
    two: int = 20
    ace: int = 20
    high: int = 10
    low: int = 5
    black_three: int = 5
    """Counted against the side when left in hand or foot."""
    black_three_melded: int = 0
    """A black three inside a black-three book; negative where it still counts against."""
    nine: int | None = None
    """A nine's points where nines are priced apart from the other natural cards (worth 5
    with the fours to sevens, say); None: as its kind (a king's)."""
    eight: int | None = None
    """An eight's points where eights are priced apart; None: as its kind (a king's)."""

    def of(self, kind: CardKind) -> int:
        """Points of a card of `kind` left in hand (red threes score by their own rule)."""
        if kind is CardKind.RED_THREE:
            return 0
        return int(getattr(self, kind.value))

    @property
    def ranks_apart(self) -> tuple[str, ...]:
        """The natural ranks priced apart from their kind ("9", "8"), highest first."""
        return tuple(rank for rank, name in PRICED_APART.items() if getattr(self, name) is not None)

    def of_rank(self, symbol: str, kind: CardKind) -> int:
        """Points of the natural card written `symbol` of scoring kind `kind`: a nine or an
        eight priced apart, else its kind's points."""
        own = PRICED_APART.get(symbol) if kind in (CardKind.HIGH, CardKind.LOW) else None
        value = getattr(self, own) if own is not None else None
        return int(value) if value is not None else self.of(kind)


PRICED_APART: dict[str, str] = {"9": "nine", "8": "eight"}
"""The natural ranks a table may price apart from their kind, and their `CardPoints` field."""
