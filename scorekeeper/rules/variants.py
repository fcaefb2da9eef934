"""The rule variants as data: one place says what each variant is.

Scoring, validation, forms, sheets, rules pages and the engine all read a `Variant`; none of
them branches on a variant's id. Values that no source states are named in `Variant.inferred`
so that every page can show them as defaults a table may change.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum, StrEnum
from functools import cache
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from .cards import BOOK_SIZE, CardKind, CardPoints

DEALS_PER_GAME = 4
"""The usual number of deals in a game; a table may play from 1 to `MAX_DEALS`."""
MAX_DEALS = 12
"""The most deals a game may have: where a game ends at a target score, the deal after which
it ends at the latest."""

_T = TypeVar("_T")

ONE_FOR_EVERY_DEAL = "one_for_every_deal"
"""A per-deal field's metadata (`dataclasses.field`): variant JSON may give it as one number,
every deal's value, and a house-rules change may set it in every deal at once."""


class PilePickup(StrEnum):
    """How much of the discard pile a player may take."""

    TOP_SEVEN = "top-seven"
    """The top seven cards, or the whole pile when it holds fewer."""
    TOP_SEVEN_FROM_FULL = "top-seven-from-full"
    """Exactly the top seven cards, and only while the pile holds seven or more."""
    WHOLE_PILE = "whole-pile"


class WildDiscard(StrEnum):
    """What a wild card discarded onto the pile does."""

    NEEDS_MATCHING_WILDS = "needs-matching-wilds"
    """The next player may take the pile only with two wilds of the same kind."""
    NEVER_TAKEN = "never-taken"
    """A two, three or joker on top can never be taken."""
    FREEZES_PILE = "freezes-pile"
    """A discarded joker or two freezes the pile: it is set aside and a new pile starts."""


PILE_TAKE = BOOK_SIZE
"""Where only the top of the discard pile is taken, it is the top seven cards."""

DRAW_COUNT = 2
"""Cards drawn from the stock each turn, where the rules do not give a number by deal."""

MATCHING_TO_TAKE = 2
"""Cards of the top card's face a player must hold to take the discard pile."""


class ConcealedOpening(StrEnum):
    """What a side's first meld needs in a deal that asks for a concealed book."""

    INSTEAD_OF_POINTS = "instead_of_points"
    """The concealed book replaces the deal's minimum points."""
    WITH_POINTS = "with_points"
    """Both: a concealed book, and the deal's minimum points."""


class BookRole(StrEnum):
    """What a black-three book or a special book counts as toward going out."""

    CLEAN = "clean"
    DIRTY = "dirty"
    NONE = "none"
    """It counts toward no kind of book (only toward the books of any kind)."""


class RankMelds(StrEnum):
    """How many melds of one rank a side may have on the table."""

    ONE_UNFINISHED = "one-unfinished"
    """A new meld of a rank may start only once the old one is a book."""
    ONE = "one"
    """Never two melds of one rank."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table size the variant allows: sides, players, and the decks they play with."""

    sides: int
    players: int
    decks: int

    @property
    def players_per_side(self) -> int:
        return self.players // self.sides

    @property
    def is_partnership(self) -> bool:
        return self.players > self.sides

    @property
    def red_threes(self) -> int:
        return 2 * self.decks

    @property
    def black_threes(self) -> int:
        return 2 * self.decks

    @property
    def wilds(self) -> int:
        return 6 * self.decks


@dataclass(frozen=True, slots=True)
class BookBonus:
    """The bonus for each kind of completed book; None where the variant has no such book."""

    clean: int
    dirty: int
    wild: int | None = None
    black_three: int | None = None
    special: int | None = None
    """The bonus of a clean book of `special_rank` (sevens worth 1,000, say), in place of the
    clean book bonus; None where the variant has no such book."""
    special_rank: str | None = None
    """The natural rank ("7") whose clean book earns `special`; such a book may not be dirty."""
    red_three: int | None = None
    """The bonus of a book of red threes; None where red threes never make a book."""
    lady: int | None = None
    """The bonus of each red three added to a clean book, where the deck's red threes may
    join books (the HANDnFOOT pack's ladies); None where they never do."""


@dataclass(frozen=True, slots=True)
class RedThreeScore:
    """Points for each red three: laid down on the table, or still held at the end.

    `down` is None where red threes are never laid down: a red three is got rid of by
    discarding it, and one still held at the end costs `held`.
    """

    down: int | None
    held: int
    down_not_out: int | None = None
    """Each red three laid down by a side that did not go out; None: the same as `down`."""

    def down_for(self, went_out: bool) -> int | None:
        """Points of each red three laid down by a side that went out or not."""
        if went_out or self.down_not_out is None:
            return self.down
        return self.down_not_out


@dataclass(frozen=True, slots=True)
class BookCount:
    """A number of books by kind: the going-out requirement of one deal."""

    clean: int = 0
    dirty: int = 0
    wild: int = 0

    def __iter__(self) -> Iterator[tuple[str, int]]:
        yield "clean", self.clean
        yield "dirty", self.dirty
        yield "wild", self.wild


@dataclass(frozen=True, slots=True)
class WildLimit:
    """How many wild cards a meld of naturals may hold: naturals >= per_wild * wilds + extra."""

    per_wild: int
    extra: int
    most: int | None = None
    """The most wild cards any meld may hold, whatever its naturals (three at some tables);
    None: as many as the ratio allows."""

    def allows(self, naturals: int, wilds: int) -> bool:
        if wilds == 0:
            return True
        if self.most is not None and wilds > self.most:
            return False
        return naturals >= self.per_wild * wilds + self.extra

    def most_wilds(self, size: int) -> int:
        """The most wilds a meld of `size` cards may hold (at least one natural kept)."""
        return max((w for w in range(size) if self.allows(size - w, w)), default=0)


@dataclass(frozen=True, slots=True)
class ScoreThreshold:
    """From a running score up: the first meld a side needs (by score instead of by deal)."""

    from_score: int
    minimum: int


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything that sets one rule variant apart, as plain values."""

    id: str
    name: str
    summary: str
    source: str
    tables: tuple[Table, ...]
    hand_size: int
    foot_size: int
    card_points: CardPoints
    book_bonus: BookBonus
    red_three: RedThreeScore
    going_out_bonus: tuple[int, ...] = field(metadata={ONE_FOR_EVERY_DEAL: True})
    """The going-out bonus of each deal."""
    exact_22_bonus: int | None
    first_meld: tuple[int, ...]
    """The first meld's minimum points in each deal."""
    going_out: tuple[BookCount, ...]
    """The books a side needs to go out in each deal."""
    max_meld_size: int | None
    wild_limit: WildLimit
    pile_pickup: PilePickup
    wild_discard: WildDiscard
    rank_melds: RankMelds
    must_discard_to_go_out: bool
    going_out_needs_partner_in_foot: bool
    going_out_asks_partner: bool
    black_three_pair_takes_pile: bool = True
    concealed_book_first_meld_deals: frozenset[int] = frozenset()
    stock_piles: int = 1
    cut_for_packets: bool = False
    concealed_opening: ConcealedOpening = ConcealedOpening.INSTEAD_OF_POINTS
    first_discard_turned: bool = True
    """False where no card is turned up: the discard pile starts empty."""
    first_discard_buried: frozenset[CardKind] = frozenset(
        {CardKind.RED_THREE, CardKind.TWO, CardKind.JOKER}
    )
    """Cards that, turned up to start the discard pile, are buried in the stock instead."""
    going_out_concealed_bonus: int = 0
    """Added to the going-out bonus for a side that goes out with no meld on the table before."""
    first_meld_by_score: tuple[ScoreThreshold, ...] = ()
    """Where not empty, a side's first meld follows its running score instead of the deal:
    the minimum of the highest threshold at or below that score."""
    deck: str = "standard"
    """The cards played with: "standard" decks of 54, or a special deck (see ``rules.decks``)."""
    hand_size_by_deal: tuple[int, ...] = ()
    """The cards of the hand in each deal, deal 1 first, where they change from deal to deal
    (11, 13, 15, 17); empty: `hand_size` in every deal."""
    foot_size_by_deal: tuple[int, ...] = ()
    """The cards of the foot in each deal, as `hand_size_by_deal`; empty: `foot_size`."""
    draw_count_by_deal: tuple[int, ...] = ()
    """The cards drawn from the stock each turn in each deal, deal 1 first (3, 3, 4, 5 at
    some tables); empty: `DRAW_COUNT` in every deal."""
    pile_take_by_deal: tuple[int, ...] = ()
    """Where the top of the discard pile is taken, how many cards in each deal, deal 1 first
    (3, 4, 5 at some tables); empty: `PILE_TAKE` in every deal."""
    black_three_book_goes_out_as: BookRole = BookRole.CLEAN
    """What a black-three book counts as toward the books needed to go out."""
    special_book_goes_out_as: BookRole = BookRole.CLEAN
    """What a special book (``book_bonus.special_rank``) counts as toward going out."""
    going_out_any_books: int = 0
    """The books of any kind (red-three books aside) a side needs to go out, in every deal,
    besides the books of each kind the deal asks for."""
    going_out_needs_special_book: bool = False
    """Whether going out needs a special book among the side's books."""
    going_out_by_melding_only: bool = False
    """Whether a player goes out only by melding the last card, never on a discard (the
    opposite of `must_discard_to_go_out`)."""
    players_may_run_out: bool = False
    """Whether a player may meld every card without going out, and wait for the deal's end."""
    book_first_meld_deals: frozenset[int] = frozenset()
    """Deals whose first meld must hold a book (concealed or not), besides its points."""
    target_score: int | None = None
    """Where set, the game ends after the deal in which a side's total reaches it (first to
    10,000), or after deal `deals` at the latest; None: the game is `deals` deals."""
    first_meld_waived_to_empty_hand: bool = False
    """Where True, a side's first meld below the minimum is allowed when it lays down every
    card of the player's hand (the hand, not the foot): the "Marva rule" of some tables."""
    failed_pickup_penalty: int | None = None
    """The points a side loses for each pickup of the discard pile that failed (the player
    could not meld the top card as the rules ask, and put the cards back); None: no such line."""
    max_dirty_meld_size: int | None = None
    """The most cards of a meld that holds a wild card: where set, a dirty book is closed at
    that size while a clean one may grow to `max_meld_size`; None: as `max_meld_size`."""
    inferred: frozenset[str] = field(default_factory=frozenset)
    """Names of the fields whose values no source states: defaults a table may change."""

    def __post_init__(self) -> None:
        by_score = tuple(sorted(self.first_meld_by_score, key=lambda t: t.from_score))
        object.__setattr__(self, "first_meld_by_score", by_score)
        deals = len(self.first_meld)
        if not 1 <= deals <= MAX_DEALS or not (
            len(self.going_out) == len(self.going_out_bonus) == deals
        ):
            raise ValueError(
                f"first_meld, going_out and going_out_bonus need one value per deal (1 to "
                f"{MAX_DEALS} deals), not {deals}, {len(self.going_out)} and "
                f"{len(self.going_out_bonus)}"
            )

    @property
    def deals(self) -> int:
        """The number of deals in a game."""
        return len(self.first_meld)

    def reached_target(self, totals: tuple[int, ...] | list[int]) -> bool:
        """Whether a side with one of these game totals has reached the target score."""
        return self.target_score is not None and any(t >= self.target_score for t in totals)

    @property
    def wild_books(self) -> bool:
        return self.book_bonus.wild is not None

    @property
    def black_three_books(self) -> bool:
        return self.book_bonus.black_three is not None

    @property
    def red_threes_laid_down(self) -> bool:
        return self.red_three.down is not None

    @property
    def partner_yes_binds(self) -> bool:
        """Whether a partner's yes obliges the player to go out that very turn.

        The sources that make a partner's foot a condition of going out, and ask the partner
        (pagat and the game-rules pages), say that a player told yes must meld all their
        cards, or all but one and discard it. Brouillette's partnership game asks without
        that condition and says only that a no lets play go on.
        """
        return self.going_out_asks_partner and self.going_out_needs_partner_in_foot

    @property
    def side_counts(self) -> tuple[int, ...]:
        return tuple(sorted({table.sides for table in self.tables}))

    def table_for(self, sides: int, players: int | None = None) -> Table | None:
        """The table of `sides` sides (and `players` players, when given), if allowed."""
        for table in self.tables:
            if table.sides == sides and (players is None or table.players == players):
                return table
        return None

    def first_meld_for(self, deal: int) -> int:
        return self.first_meld[deal - 1]

    def first_meld_for_score(self, deal: int, running_score: int | None) -> int:
        """The first meld of a side with `running_score` points in the game before the deal.

        Without thresholds, the deal's own minimum. With them, the minimum of the highest
        threshold at or below the score; a score below every threshold takes the lowest one.
        An unknown score (None) takes the smallest minimum of the table, so that a deal is
        never refused for a score nobody gave.
        """
        thresholds = self.first_meld_by_score
        if not thresholds:
            return self.first_meld_for(deal)
        if running_score is None:
            return min(threshold.minimum for threshold in thresholds)
        ordered = sorted(thresholds, key=lambda threshold: threshold.from_score)
        reached = [t.minimum for t in ordered if t.from_score <= running_score]
        return reached[-1] if reached else ordered[0].minimum

    def hand_size_for(self, deal: int) -> int:
        """The cards of each player's hand in deal `deal`."""
        return _of_deal(self.hand_size_by_deal, deal, self.hand_size)

    def foot_size_for(self, deal: int) -> int:
        """The cards of each player's foot in deal `deal`."""
        return _of_deal(self.foot_size_by_deal, deal, self.foot_size)

    def cut_for(self, deal: int) -> int:
        """The cards a player cuts for a hand and a foot in deal `deal` (22 in Simpson's
        rules; 22, 26, 30 and 34 where the packets grow by two cards a deal)."""
        return self.hand_size_for(deal) + self.foot_size_for(deal)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """The cards of the hand in each deal, deal 1 first."""
        return tuple(self.hand_size_for(deal) for deal in range(1, self.deals + 1))

    def draw_count_for(self, deal: int) -> int:
        """The cards drawn from the stock each turn in deal `deal`."""
        return _of_deal(self.draw_count_by_deal, deal, DRAW_COUNT)

    def pile_take_for(self, deal: int) -> int:
        """The cards taken from the top of the discard pile in deal `deal` (a whole-pile
        pickup takes them all whatever this says)."""
        return _of_deal(self.pile_take_by_deal, deal, PILE_TAKE)

    @property
    def foot_sizes(self) -> tuple[int, ...]:
        """The cards of the foot in each deal, deal 1 first."""
        return tuple(self.foot_size_for(deal) for deal in range(1, self.deals + 1))

    @property
    def sizes_by_deal(self) -> bool:
        """Whether the hand or the foot changes size from deal to deal."""
        return any(
            (self.hand_size_for(deal), self.foot_size_for(deal))
            != (self.hand_size_for(1), self.foot_size_for(1))
            for deal in range(2, self.deals + 1)
        )

    def largest_meld(self, dirty: bool) -> int | None:
        """The most cards a meld may hold, dirty (with a wild card) or clean; None: no limit."""
        most = self.max_meld_size
        if dirty and self.max_dirty_meld_size is not None:
            return self.max_dirty_meld_size if most is None else min(most, self.max_dirty_meld_size)
        return most

    def going_out_for(self, deal: int) -> BookCount:
        return self.going_out[deal - 1]

    def books_toward_going_out(
        self, clean: int, dirty: int, wild: int, black_three: int = 0, special: int = 0
    ) -> BookCount:
        """A side's books by what they count as toward going out: black-three books and
        special books count as the variant says (clean, dirty, or neither)."""
        counts = {"clean": clean, "dirty": dirty}
        for role, books in (
            (self.black_three_book_goes_out_as, black_three),
            (self.special_book_goes_out_as, special),
        ):
            if role is not BookRole.NONE:
                counts[role.value] += books
        return BookCount(counts["clean"], counts["dirty"], wild)

    def going_out_bonus_for(self, deal: int) -> int:
        return self.going_out_bonus[deal - 1]

    def is_inferred(self, name: str) -> bool:
        return name in self.inferred

    def to_dict(self) -> dict[str, Any]:
        """The variant as JSON-ready data (enums by value, sets as sorted lists).

        ``deals`` is there too, to be read and changed like any rule (``rules.params``).
        """
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        return {"deals": self.deals, **data}

    def with_changes(self, **changes: Any) -> Variant:
        return replace(self, **changes)


def _of_deal(values: tuple[int, ...], deal: int, every_deal: int) -> int:
    """A per-deal value given for some deals (a deal past the last one given takes the last
    one's), or `every_deal` where none is given."""
    if not values:
        return every_deal
    return values[min(max(deal, 1), len(values)) - 1]


EVERY_DEAL_FIELDS = tuple(f.name for f in fields(Variant) if f.metadata.get(ONE_FOR_EVERY_DEAL))
"""The per-deal fields that variant JSON may give as one number, every deal's."""


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def _individual(players: range, decks: int | None = None) -> tuple[Table, ...]:
    """One player a side; `decks` fixed, or players + 1 when None."""
    return tuple(Table(n, n, decks if decks is not None else n + 1) for n in players)


_STANDARD_FIRST_MELD = (50, 90, 120, 150)


def _every_deal(value: _T) -> tuple[_T, ...]:
    return (value,) * DEALS_PER_GAME


PAGAT = Variant(
    id="pagat",
    name="Partnership (pagat.com)",
    summary="The common four-player partnership game: books of exactly seven, "
    "a wild book needed to go out.",
    source="pagat.com, Hand and Foot: partnership rules contributed by Bill Whitnack "
    "(seed 000). Its tables of card values and bonuses are lost, so the card values, the book "
    "bonuses (500 clean, 300 dirty, 1500 wild) and the going-out bonus (100) come from the "
    "game-rules pages (seeds 001, 002 and 004).",
    tables=(
        Table(2, 4, 5),
        Table(2, 6, 7),
        *_individual(range(2, 7)),
    ),
    hand_size=13,
    foot_size=13,
    card_points=CardPoints(),
    book_bonus=BookBonus(clean=500, dirty=300, wild=1500),
    red_three=RedThreeScore(down=100, held=-100),
    going_out_bonus=_every_deal(100),
    exact_22_bonus=None,
    first_meld=_STANDARD_FIRST_MELD,
    going_out=_every_deal(BookCount(clean=2, dirty=2, wild=1)),
    max_meld_size=BOOK_SIZE,
    wild_limit=WildLimit(per_wild=2, extra=0),
    pile_pickup=PilePickup.TOP_SEVEN,
    wild_discard=WildDiscard.NEEDS_MATCHING_WILDS,
    rank_melds=RankMelds.ONE_UNFINISHED,
    must_discard_to_go_out=False,
    going_out_needs_partner_in_foot=True,
    going_out_asks_partner=True,
)

GAMERULES = PAGAT.with_changes(
    id="gamerules",
    name="Game rules (five decks)",
    summary="Five decks for two to seven players, otherwise scored as the partnership game.",
    source="Hand and foot card game rules pages in Italian, German and Japanese "
    "(seeds 001, 002, 004).",
    tables=(Table(2, 4, 5), *_individual(range(2, 8), decks=5)),
    must_discard_to_go_out=True,
    first_discard_buried=frozenset({CardKind.RED_THREE, CardKind.BLACK_THREE, CardKind.JOKER}),
    # The pages describe a game for two teams of two; the rule for a wild card on the pile
    # is the partnership game's.
    inferred=frozenset({"tables", "wild_discard"}),
)

SASKATCHEWAN = PAGAT.with_changes(
    id="saskatchewan",
    name="Saskatchewan",
    summary="Canastas of seven or more, the whole pile taken, and a concealed canasta "
    "to open the last deal.",
    source="pagat.com, Saskatchewan Hand and Foot, from Dave Petrie (seed 000).",
    hand_size=11,
    foot_size=13,
    going_out=_every_deal(BookCount(clean=1, dirty=1, wild=1)),
    max_meld_size=None,
    wild_limit=WildLimit(per_wild=1, extra=1),
    pile_pickup=PilePickup.WHOLE_PILE,
    concealed_book_first_meld_deals=frozenset({4}),
    inferred=frozenset({"book_bonus", "red_three", "going_out_bonus", "rank_melds"}),
)

SIMPSON = Variant(
    id="simpson",
    name="Steve Simpson",
    summary="Every player for themselves: cut 22 cards, red threes always cost 500, no wild books.",
    source="pagat.com, Steve Simpson's Hand and Foot rules (seed 000).",
    tables=_individual(range(2, 13)),
    hand_size=11,
    foot_size=11,
    card_points=CardPoints(),
    book_bonus=BookBonus(clean=300, dirty=100),
    red_three=RedThreeScore(down=None, held=-500),
    going_out_bonus=_every_deal(100),
    exact_22_bonus=100,
    first_meld=_STANDARD_FIRST_MELD,
    going_out=_every_deal(BookCount(clean=1, dirty=1)),
    max_meld_size=None,
    wild_limit=WildLimit(per_wild=1, extra=1),
    pile_pickup=PilePickup.TOP_SEVEN_FROM_FULL,
    wild_discard=WildDiscard.NEVER_TAKEN,
    rank_melds=RankMelds.ONE,
    must_discard_to_go_out=True,
    going_out_needs_partner_in_foot=False,
    going_out_asks_partner=False,
    stock_piles=2,
    cut_for_packets=True,
    first_discard_turned=False,
)

BROUILLETTE_LOW = SIMPSON.with_changes(
    id="brouillette-low",
    name="Brian Brouillette (low bonuses)",
    summary="Simpson's game with black-three books, a frozen pile after a wild discard, "
    "and two clean and two dirty books to go out in the last deal.",
    source="pagat.com, Brian Brouillette's variations on Simpson's rules (seed 000).",
    card_points=CardPoints(black_three_melded=-5),
    book_bonus=BookBonus(clean=300, dirty=100, black_three=100),
    going_out=(
        BookCount(clean=1, dirty=1),
        BookCount(clean=1, dirty=1),
        BookCount(clean=1, dirty=1),
        BookCount(clean=2, dirty=2),
    ),
    wild_discard=WildDiscard.FREEZES_PILE,
    black_three_pair_takes_pile=False,
    must_discard_to_go_out=False,
)

BROUILLETTE_HIGH = BROUILLETTE_LOW.with_changes(
    id="brouillette-high",
    name="Brian Brouillette (high bonuses)",
    summary="Brouillette's game with the higher book bonuses: 500 clean, 300 dirty, "
    "300 for black threes.",
    book_bonus=BookBonus(clean=500, dirty=300, black_three=300),
)

BROUILLETTE_PARTNERS_LOW = BROUILLETTE_LOW.with_changes(
    id="brouillette-partners-low",
    name="Brouillette partners (low bonuses)",
    summary="Brouillette's game for two teams of two: ask your partner, and more books to go out.",
    source="pagat.com, Brian Brouillette's partnership version (seed 000).",
    tables=(Table(2, 4, 5),),
    going_out=(
        BookCount(clean=2, dirty=2),
        BookCount(clean=2, dirty=2),
        BookCount(clean=2, dirty=2),
        BookCount(clean=4, dirty=4),
    ),
    going_out_asks_partner=True,
    inferred=frozenset({"tables", "hand_size", "foot_size"}),
)

BROUILLETTE_PARTNERS_HIGH = BROUILLETTE_PARTNERS_LOW.with_changes(
    id="brouillette-partners-high",
    name="Brouillette partners (high bonuses)",
    summary="Brouillette's partner version of Simpson's game, with the higher book bonuses: "
    "500 clean, 300 dirty, 300 for black threes.",
    book_bonus=BROUILLETTE_HIGH.book_bonus,
)

BUILT_IN: Mapping[str, Variant] = {
    v.id: v
    for v in (
        PAGAT,
        GAMERULES,
        SASKATCHEWAN,
        SIMPSON,
        BROUILLETTE_LOW,
        BROUILLETTE_HIGH,
        BROUILLETTE_PARTNERS_LOW,
        BROUILLETTE_PARTNERS_HIGH,
    )
}


class UnknownVariant(KeyError):
    """No variant has this id."""


def get_variant(variant_id: str) -> Variant:
    """The built-in variant of this id. House rules are the web app's (``store.house_rules``)."""
    try:
        return BUILT_IN[variant_id]
    except (KeyError, TypeError):
        raise UnknownVariant(variant_id) from None


def all_variants() -> tuple[Variant, ...]:
    """The built-in variants."""
    return tuple(BUILT_IN.values())


def variant_from_dict(data: Mapping[str, Any]) -> Variant:
    """The inverse of `Variant.to_dict`: rebuild a variant from its JSON-ready data.

    Read field by field from the `Variant` dataclass's own types, so a field added there is
    read here too; a field with a default may be left out (copies of a game's rules made
    before it existed). A going-out bonus given once is every deal's. Raises KeyError,
    TypeError or ValueError on data that does not describe a variant.
    """
    values = dict(data)
    deals = len(values["first_meld"])
    if "deals" in values and values.pop("deals") != deals:
        raise ValueError(f"deals is {data['deals']}, but first_meld has {deals} values")
    variant: Variant = _read(Variant, with_every_deal_values(values, deals))
    return variant


def is_one_number(value: object) -> bool:
    """Whether a per-deal value is given as one number for every deal (not one per deal)."""
    return isinstance(value, int) and not isinstance(value, bool)


def with_every_deal_values(data: Mapping[str, Any], deals: int) -> dict[str, Any]:
    """Variant JSON with each per-deal field given as one number (`ONE_FOR_EVERY_DEAL`) made
    one value per deal."""
    values = dict(data)
    for name in EVERY_DEAL_FIELDS:
        if is_one_number(values.get(name)):
            values[name] = [values[name]] * deals
    return values


@cache
def _hints(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


def _read(kind: Any, value: Any) -> Any:
    """A JSON-ready value as the type `kind` says (dataclasses, enums, tuples, sets...);
    plain numbers, texts and flags are kept as they are."""
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = [arg for arg in args if arg is not type(None)]
        return _read(inner, value)
    if origin is tuple:
        return tuple(_read(args[0], item) for item in value)
    if origin is frozenset:
        return frozenset(_read(args[0], item) for item in value)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = _hints(kind)
        unknown = set(value) - set(hints)
        if unknown:
            raise TypeError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}")
        return kind(**{name: _read(hints[name], item) for name, item in value.items()})
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(value)
    if kind in (int, str, bool):
        # Kept as given: a number written as text is the checks' to refuse, by name.
        return value
    raise TypeError(f"cannot read a value of type {kind!r}")
