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

    def of(self, kind: CardKind) -> int:
        """Points of a card of `kind` left in hand (red threes score by their own rule)."""
        if kind is CardKind.RED_THREE:
            return 0
        return int(getattr(self, kind.value))
