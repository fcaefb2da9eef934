"""What a table writes down for one deal: the input of scoring and validation."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .variants import Table, Variant


@dataclass(frozen=True, slots=True)
class SideEntry:
    """One side's numbers for one deal, as the score sheet records them."""

    meld_points: int = 0
    """Card points of every melded card, books included."""
    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    black_three_books: int = 0
    special_books: int = 0
    """Clean books of the variant's special rank (``book_bonus.special_rank``)."""
    red_three_books: int = 0
    """Books of red threes, where the variant has them (``book_bonus.red_three``)."""
    ladies_in_books: int = 0
    """Red threes added to the side's clean books, where the deck's red threes may join
    books (``book_bonus.lady``: the HANDnFOOT pack's ladies)."""
    red_threes_down: int = 0
    red_threes_held: int = 0
    """Red threes still in a hand or foot when the deal ended."""
    cards_left_points: int = 0
    """Card points still in the side's hands and feet (counted against it)."""
    went_out: bool = False
    went_out_concealed: bool = False
    """The side went out with no meld on the table before, in one go."""
    exact_22: int = 0
    """How many of the side's players cut exactly 22 cards."""
    failed_pickups: int = 0
    """How many pickups of the discard pile the side's players had to give back, where the
    rules cost points for one (``failed_pickup_penalty``)."""

    def has_melded(self) -> bool:
        """Whether the side put melds on the table (a red-three book is laid down, not
        melded)."""
        return self.meld_points != 0 or self.books() > self.red_three_books

    def books(self) -> int:
        return (
            self.clean_books
            + self.dirty_books
            + self.wild_books
            + self.black_three_books
            + self.special_books
            + self.red_three_books
        )


SIDE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SideEntry))
FLAG_FIELDS: tuple[str, ...] = ("went_out", "went_out_concealed")
COUNT_FIELDS: tuple[str, ...] = tuple(name for name in SIDE_FIELDS if name not in FLAG_FIELDS)
LATER_SIDE_FIELDS: tuple[str, ...] = (
    "special_books",
    "red_three_books",
    "ladies_in_books",
    "went_out_concealed",
)
"""Fields that files and requests written before they existed may leave out."""
POINT_FIELDS: tuple[str, ...] = ("meld_points", "cards_left_points")


@dataclass(frozen=True, slots=True)
class DealEntry:
    """All sides' entries for one deal of a game under one variant."""

    variant: Variant
    deal: int
    sides: tuple[SideEntry, ...]
    players: int | None = None
    """Players at the table; None means the variant's usual table for that many sides."""
    stock_ran_out: bool = False
    running_scores: tuple[int, ...] | None = None
    """Each side's game score before this deal, where the first meld follows the score."""

    @property
    def table(self) -> Table | None:
        return self.variant.table_for(len(self.sides), self.players)
