"""Whether the cards a table plays with can make a number of books: the one place that says so.

Validation asks it of the books entered for a deal (all sides together), the house rules of
the books a side needs to go out; each words the answer for its reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import BOOK_SIZE
from .decks import Supply, get_deck
from .variants import Table, Variant, WildLimit


def supply_of(variant: Variant, table: Table) -> Supply:
    """The cards `table` plays with under `variant`: its decks of the variant's deck."""
    return get_deck(variant.deck).supply(table.decks)


class Short(Enum):
    """Which cards run short."""

    WILDS_FOR_WILD_BOOKS = "wild_books"
    """Wild books take seven wild cards each."""
    WILDS_FOR_DIRTY_BOOKS = "dirty_books"
    """Wild books take seven wild cards, dirty books at least one more each."""
    CLEAN_BOOKS = "clean_books"
    """Each rank has room for so many clean books."""
    NATURALS = "naturals"
    """Clean books take seven natural cards, dirty books as many as the wild limit asks."""


@dataclass(frozen=True, slots=True)
class Shortage:
    """Books the cards cannot make: what runs short, the cards needed and the most there are
    (for clean books: the most books, and `each` the most of one rank)."""

    short: Short
    needed: int
    most: int
    each: int = 0


def book_shortages(
    supply: Supply, wild_limit: WildLimit, clean: int, dirty: int, wild: int
) -> list[Shortage]:
    """What keeps `clean`, `dirty` and `wild` books from being made of `supply`'s cards:
    at most one shortage of wild cards, then at most one of natural cards."""
    found: list[Shortage] = []
    wilds_needed = wild * BOOK_SIZE
    if wilds_needed > supply.wilds:
        found.append(Shortage(Short.WILDS_FOR_WILD_BOOKS, wilds_needed, supply.wilds))
    elif wilds_needed + dirty > supply.wilds:
        found.append(Shortage(Short.WILDS_FOR_DIRTY_BOOKS, wilds_needed + dirty, supply.wilds))
    fewest_naturals = BOOK_SIZE - wild_limit.most_wilds(BOOK_SIZE)
    naturals_needed = clean * BOOK_SIZE + dirty * fewest_naturals
    if clean > supply.most_clean_books:
        each = max(supply.clean_books_per_rank)
        found.append(Shortage(Short.CLEAN_BOOKS, clean, supply.most_clean_books, each))
    elif naturals_needed > supply.naturals:
        found.append(Shortage(Short.NATURALS, naturals_needed, supply.naturals))
    return found


def most_books(supply: Supply, variant: Variant) -> int:
    """The most books of any kind `supply`'s cards can make: seven cards a book, of the
    naturals, the wild cards and, where they are melded, the black threes."""
    cards = supply.naturals + supply.wilds
    if variant.black_three_books:
        cards += supply.black_threes
    return cards // BOOK_SIZE
