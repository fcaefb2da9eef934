"""Melds on the table, and the meld checker: is this group of cards a legal meld, and what is it?"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Final

from ..rules.cards import BOOK_SIZE
from ..rules.decks import get_deck
from ..rules.variants import ConcealedOpening, Variant
from . import reasons
from .cards import Face, deck_of, deck_rank_face, melded_points
from .conventions import MIN_MELD
from .errors import Reason
from .values import Value

_BOOK_SIZE: Final = BOOK_SIZE
_BLACK_THREE: Final = Face.BLACK_THREE
"""The rules core's size of a book, held by this compiled module: a name imported from the
rules core is looked up by name at each use."""


class MeldKind(StrEnum):
    CLEAN = "clean"
    """Natural cards only."""
    DIRTY = "dirty"
    """Natural cards with at least one wild card."""
    WILD = "wild"
    """Twos and jokers only."""
    BLACK_THREE = "black-three"
    """Black threes only, where the variant melds them."""


class TableMeld(Value):
    """A meld on the table: its rank (None for all wild) and how many of each card it holds.

    `red_threes`: red threes added to the book for their bonus (``book_bonus.lady``), not
    cards of the meld, so they count neither in its size nor in its points.
    """

    __slots__ = ("rank", "naturals", "twos", "jokers", "red_threes")

    def __init__(
        self,
        rank: Face | None,
        naturals: int,
        twos: int = 0,
        jokers: int = 0,
        red_threes: int = 0,
    ) -> None:
        self.rank: Final = rank
        self.naturals: Final = naturals
        self.twos: Final = twos
        self.jokers: Final = jokers
        self.red_threes: Final = red_threes

    def fields(self) -> tuple[object, ...]:
        return (self.rank, self.naturals, self.twos, self.jokers, self.red_threes)

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    @property
    def is_book(self) -> bool:
        return self.naturals + self.twos + self.jokers >= _BOOK_SIZE

    @property
    def kind(self) -> MeldKind:
        return meld_kind(self.rank, self.twos + self.jokers)

    @property
    def takes_red_three(self) -> bool:
        """Whether a red three may be added to it: a clean book of a natural rank (the
        `kind` CLEAN, read without making it: asked of every meld at every action)."""
        rank = self.rank
        return (
            rank is not None
            and rank is not _BLACK_THREE
            and not self.twos
            and not self.jokers
            and self.naturals >= _BOOK_SIZE
        )

    def points(self, table: tuple[int, ...]) -> int:
        """Card points of the meld, given the melded points of each face."""
        natural = table[self.rank] * self.naturals if self.rank is not None else 0
        return natural + table[Face.TWO] * self.twos + table[Face.JOKER] * self.jokers

    def __str__(self) -> str:
        name = "wild" if self.rank is None else self.rank.symbol
        extra = f" + {self.twos}x2" if self.twos else ""
        extra += f" + {self.jokers}xJK" if self.jokers else ""
        extra += f" + {self.red_threes}xR3" if self.red_threes else ""
        book = f" ({self.kind.value} book)" if self.is_book else ""
        return f"{name}: {self.naturals}{extra}{book}"


def special_face(variant: Variant) -> Face | None:
    """The rank whose clean books are special books (``book_bonus.special_rank``), if any."""
    return _face_of_rank(variant.deck, variant.book_bonus.special_rank)


@cache
def _face_of_rank(deck_id: str, rank: str | None) -> Face | None:
    """The face of the rank in the deck; None where the deck has no such rank."""
    if rank is None:
        return None
    try:
        return deck_rank_face(get_deck(deck_id), rank)
    except ValueError:
        return None


def meld_kind(rank: Face | None, wilds: int) -> MeldKind:
    if rank is None:
        return MeldKind.WILD
    if rank is Face.BLACK_THREE:
        return MeldKind.BLACK_THREE
    return MeldKind.DIRTY if wilds else MeldKind.CLEAN


def rank_reason(variant: Variant, rank: Face | None, naturals: int, wilds: int) -> Reason | None:
    """Whether a meld of this rank may exist in the variant, and hold these cards at all."""
    if rank is None:
        if not variant.wild_books:
            return reasons.no_wild_melds()
        if naturals:
            return reasons.wild_meld_has_naturals()
        return None
    if rank is Face.BLACK_THREE:
        if not variant.black_three_books:
            return reasons.black_threes_not_melded()
        if wilds:
            return reasons.black_threes_clean_only()
        return None
    if rank is Face.RED_THREE:
        return reasons.red_three_not_melded()
    if rank is Face.TWO or rank is Face.JOKER:
        return reasons.wild_is_not_a_rank()
    if wilds and rank is special_face(variant):
        return reasons.special_rank_clean_only(rank)
    return None


def size_reasons(variant: Variant, rank: Face | None, naturals: int, wilds: int) -> list[Reason]:
    """What is wrong with the size and wild cards of a whole meld (empty when nothing is)."""
    found = []
    size = naturals + wilds
    if size < MIN_MELD:
        found.append(reasons.meld_too_small(MIN_MELD))
    most = variant.max_meld_size
    natural = rank is not None and rank is not Face.BLACK_THREE
    if most is not None and size > most:
        found.append(reasons.meld_too_big(most))
    elif natural and wilds:
        dirty_most = variant.largest_meld(dirty=True)
        if dirty_most is not None and size > dirty_most:
            found.append(reasons.dirty_meld_too_big(dirty_most))
    if natural and wilds and not variant.wild_limit.allows(naturals, wilds):
        found.append(reasons.wild_limit_broken(variant.wild_limit, wilds))
    return found


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The meld checker's answer for one meld under one variant and deal."""

    variant: str
    deal: int
    rank: str | None
    naturals: int
    twos: int
    jokers: int
    legal: bool
    reasons: tuple[Reason, ...]
    kind: MeldKind
    size: int
    points: int
    is_book: bool
    first_meld: bool
    first_meld_minimum: int
    meets_first_meld: bool
    """Worth the deal's minimum first meld on its own (and a book where one must open)."""
    concealed_book_needed: bool
    first_meld_points_needed: bool = True
    """False where a concealed book opens the deal in place of the minimum points."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "deal": self.deal,
            "rank": self.rank,
            "naturals": self.naturals,
            "twos": self.twos,
            "jokers": self.jokers,
            "legal": self.legal,
            "reasons": [reason.message for reason in self.reasons],
            "rules": [reason.rule for reason in self.reasons],
            "kind": self.kind.value,
            "size": self.size,
            "points": self.points,
            "is_book": self.is_book,
            "first_meld": self.first_meld,
            "first_meld_minimum": self.first_meld_minimum,
            "meets_first_meld": self.meets_first_meld,
            "concealed_book_needed": self.concealed_book_needed,
        }


def _read_rank(variant: Variant, rank: str | None) -> tuple[Face | None, str | None]:
    """The face of a rank written as the variant's deck writes it, and that symbol."""
    if rank is None:
        return None, None
    text = rank.strip().upper()
    deck = deck_of(variant)
    if text == deck.black_three_rank:
        return Face.BLACK_THREE, text
    return deck_rank_face(deck, text), text


def check_meld(
    variant: Variant,
    deal: int,
    rank: str | None,
    naturals: int = 0,
    twos: int = 0,
    jokers: int = 0,
    *,
    first_meld: bool = False,
    running_score: int | None = None,
) -> MeldCheck:
    """Check one whole meld: `rank` is "A", "K" ... "4", "3" for black threes, None for wild.

    Raises ValueError for a rank that is not one of those, or a deal outside the game. Every rule
    the meld breaks is listed in `reasons`; with `first_meld`, falling short of the deal's
    minimum (or of a concealed book where one must open) makes it illegal too, although in
    play several melds laid down together may reach the minimum. `running_score`: the side's
    game score before the deal, where the first meld follows it.
    """
    if not 1 <= deal <= len(variant.first_meld):
        raise ValueError(f"deal must be 1 to {len(variant.first_meld)}, not {deal}")
    face, symbol = _read_rank(variant, rank)
    found: list[Reason] = []
    if min(naturals, twos, jokers) < 0:
        found.append(reasons.negative_count())
    wilds = twos + jokers
    problem = rank_reason(variant, face, naturals, wilds)
    if problem is not None:
        found.append(problem)
    found.extend(size_reasons(variant, face, naturals, wilds))
    table = melded_points(variant.card_points, deck_of(variant))
    meld = TableMeld(face, max(naturals, 0), max(twos, 0), max(jokers, 0))
    points = meld.points(table)
    minimum = variant.first_meld_for_score(deal, running_score)
    concealed = deal in variant.concealed_book_first_meld_deals
    book_needed = concealed or deal in variant.book_first_meld_deals
    points_needed = not concealed or variant.concealed_opening is ConcealedOpening.WITH_POINTS
    meets = (points >= minimum or not points_needed) and (meld.is_book or not book_needed)
    if first_meld and not found:
        if points_needed and points < minimum:
            found.append(reasons.first_meld_short(deal, minimum, points))
        if concealed and not meld.is_book:
            found.append(reasons.concealed_book_needed(deal))
        elif book_needed and not meld.is_book:
            found.append(reasons.book_needed(deal))
    return MeldCheck(
        variant=variant.id,
        deal=deal,
        rank=symbol,
        naturals=naturals,
        twos=twos,
        jokers=jokers,
        legal=not found,
        reasons=tuple(found),
        kind=meld.kind,
        size=naturals + twos + jokers,
        points=points,
        is_book=meld.is_book,
        first_meld=first_meld,
        first_meld_minimum=minimum,
        meets_first_meld=meets,
        concealed_book_needed=concealed,
        first_meld_points_needed=points_needed,
    )
