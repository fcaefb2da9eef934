"""The table during one deal, and the deal itself: shuffling, packets, stock and first discard.

`DealState` is the one object that holds a deal. It changes only through
`scorekeeper.engine.legal.apply`, which checks every action first; the helpers here read it.
Hands and feet are lists of counts indexed by `Face`; the stock piles and the discard pile
are lists of faces with the top card last.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..rules.cards import BOOK_SIZE
from ..rules.variants import BookCount, PilePickup, RankMelds, Table, Variant, WildDiscard
from .actions import Action, Meld, TakePile
from .cards import (
    FACE_COUNT,
    FACES,
    Face,
    cards_held,
    counts_of,
    deck_of,
    faces_of,
    held_points,
    melded_points,
    natural_faces,
    natural_ranks,
    shuffled_shoe,
)
from .chance import shuffle
from .conventions import CUT_REACH, CUT_SPREAD
from .melds import MeldKind, TableMeld, meld_kind, special_face
from .play_shapes import KeptByHand

_BOOK_SIZE: Final = BOOK_SIZE
"""The rules core's size of a book, held by this compiled module: a name imported from the
rules core is looked up by name at each use."""

PartnerAnswer = Callable[["DealState", int], bool]
"""Asked by `player` whether they may go out: True for yes."""


def always_yes(state: DealState, player: int) -> bool:
    return True


_WHOLE_PILE: Final = PilePickup.WHOLE_PILE
_TOP_SEVEN_FROM_FULL: Final = PilePickup.TOP_SEVEN_FROM_FULL


class Phase(StrEnum):
    DRAW = "draw"
    """The current player has not drawn yet."""
    PLAY = "play"
    """The current player has drawn: meld, then discard."""
    OVER = "over"


class DealEnd(StrEnum):
    WENT_OUT = "went-out"
    STOCK_RAN_OUT = "stock-ran-out"


@dataclass(frozen=True, slots=True)
class Outcome:
    end: DealEnd
    player: int | None = None
    """Who went out (None when the stock ran out)."""


class DealState:
    """One deal at one table: every card's place, whose turn it is, and what has happened."""

    __slots__ = (
        "variant",
        "table",
        "deal",
        "players",
        "side_of",
        "teammates",
        "hands",
        "feet",
        "foot_played",
        "stock",
        "pile",
        "set_aside",
        "melds",
        "book_cache",
        "opened",
        "red_threes_down",
        "exact_22",
        "dealer",
        "current",
        "phase",
        "asked",
        "permission",
        "outcome",
        "turn",
        "turn_start",
        "history",
        "passed",
        "passed_at",
        "rng",
        "answer",
        "held_points",
        "melded_points",
        "_running_scores",
        "natural_faces",
        "natural_ranks",
        "special",
        "lays_red_threes",
        "draw_count",
        "pile_take",
        "pile_pickup",
        "first_melds",
        "wild_books",
        "black_three_books",
        "books_to_go_out",
        "one_meld_a_rank",
        "most_cards",
        "most_dirty_cards",
        "ladies_on_books",
        "wild_limit",
        "naturals_per_wild",
        "extra_naturals",
        "most_wilds",
        "rank_index",
        "plays_kept",
    )

    def __init__(
        self,
        variant: Variant,
        table: Table,
        deal: int,
        *,
        hands: Sequence[list[int]],
        feet: Sequence[list[int] | None],
        stock: Sequence[list[Face]],
        pile: list[Face],
        rng: random.Random,
        dealer: int = 0,
        current: int | None = None,
        exact_22: Sequence[bool] | None = None,
        answer: PartnerAnswer = always_yes,
        running_scores: Sequence[int] | None = None,
    ) -> None:
        players = table.players
        if len(hands) != players or len(feet) != players:
            raise ValueError(f"a {players}-player table needs {players} hands and feet")
        if len(stock) != variant.stock_piles:
            raise ValueError(f"{variant.name} plays with {variant.stock_piles} stock pile(s)")
        self.variant = variant
        self.table = table
        self.deal = deal
        self.players = players
        self.side_of: tuple[int, ...] = tuple(p % table.sides for p in range(players))
        self.teammates: tuple[tuple[int, ...], ...] = tuple(
            tuple(q for q in range(players) if q != p and q % table.sides == p % table.sides)
            for p in range(players)
        )
        self.hands: list[list[int]] = [list(hand) for hand in hands]
        self.feet: list[list[int] | None] = [None if f is None else list(f) for f in feet]
        self.foot_played: list[bool] = [False] * players
        self.stock: list[list[Face]] = [list(s) for s in stock]
        self.pile: list[Face] = list(pile)
        self.set_aside: list[Face] = []
        """Cards of a frozen pile, waiting to go under the stock should it run short."""
        self.melds: list[list[TableMeld]] = [[] for _ in range(table.sides)]
        self.book_cache: list[BookCount | None] = [None] * table.sides
        """Each side's books, counted when first asked; cleared whenever its melds change."""
        self.opened: list[bool] = [False] * table.sides
        self.red_threes_down: list[int] = [0] * players
        self.exact_22: tuple[bool, ...] = tuple(exact_22 or (False,) * players)
        self.dealer = dealer
        self.current = (dealer + 1) % players if current is None else current
        self.phase = Phase.DRAW
        self.asked = False
        self.permission = False
        self.outcome: Outcome | None = None
        self.turn = 0
        self.history: list[Action] = []
        self.turn_start = 0
        """The length of `history` when the current turn began."""
        self.passed: Action | None = None
        self.passed_at = -1
        """The action `refusal` last found legal (`passed`) and the length of the history
        then: `apply` need not check that action again while no other has been applied
        since. Two fields, not a pair: a pair would be made at every check."""
        self.rng = rng
        self.answer = answer
        deck = deck_of(variant)
        self.held_points = held_points(variant.card_points, deck)
        self.melded_points = melded_points(variant.card_points, deck)
        self.natural_faces = natural_faces(deck)
        """The natural faces the variant's deck deals, highest first."""
        self.natural_ranks = natural_ranks(deck)
        """The same faces by number, to index a hand in compiled code (see `RANK_FACES`)."""
        self.special = special_face(variant)
        """The rank whose melds stay clean (special books), if any."""
        self.lays_red_threes = variant.red_threes_laid_down
        """Whether red threes are laid down at once (read at every action)."""
        self.draw_count = variant.draw_count_for(deal)
        """The cards a draw takes from the stock in this deal (read at every draw)."""
        self.pile_take = variant.pile_take_for(deal)
        """The cards a pickup takes from the top of the discard pile in this deal."""
        self.pile_pickup = variant.pile_pickup
        """Whether a pickup takes the whole pile or its top cards (read at every pickup check)."""
        # What the variant says that play reads at nearly every action, read from it once.
        self.wild_books = variant.wild_books
        self.black_three_books = variant.black_three_books
        self.books_to_go_out = variant.going_out_for(deal)
        """The books of each kind going out needs in this deal."""
        self.one_meld_a_rank = variant.rank_melds is RankMelds.ONE
        """Whether a side melds each rank once only (no second meld of a rank, ever)."""
        self.most_cards = variant.max_meld_size
        """The most cards a meld may hold (None: no limit)."""
        self.most_dirty_cards = variant.largest_meld(dirty=True)
        """The most cards a meld with a wild card may hold (None: no limit)."""
        self.ladies_on_books = variant.book_bonus.lady is not None
        """Whether a red three from the hand may go onto a clean book for a bonus."""
        self.wild_limit = variant.wild_limit
        limit = self.wild_limit
        self.naturals_per_wild = limit.per_wild
        self.extra_naturals = limit.extra
        self.most_wilds = limit.most
        """The wild limit's numbers (see `WildLimit`), read at every meld checked."""
        self.rank_index = [NO_MELDS] * table.sides
        """Each side's melds by rank, as `melds_by_rank` last found them."""
        self.plays_kept: KeptByHand | None = None
        """The plays worked out for this variant's hands (`legal` fills it on first use)."""
        self.first_melds: tuple[int, ...] = ()
        """The points each side's first meld must reach in this deal."""
        self.running_scores = None if running_scores is None else tuple(running_scores)

    # --- reading the table ----------------------------------------------------------------------

    @property
    def running_scores(self) -> tuple[int, ...] | None:
        """Each side's game score before the deal (None: not known, as when a deal is played
        alone); the first meld follows it where the variant sets it by running score."""
        return self._running_scores

    @running_scores.setter
    def running_scores(self, scores: tuple[int, ...] | None) -> None:
        self._running_scores = scores
        variant, deal = self.variant, self.deal
        self.first_melds = tuple(
            variant.first_meld_for_score(deal, None if scores is None else scores[side])
            for side in range(self.table.sides)
        )

    @property
    def sides(self) -> int:
        return self.table.sides

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def stock_size(self) -> int:
        size = 0
        for pile in self.stock:
            size += len(pile)
        return size

    def in_foot(self, player: int) -> bool:
        """Whether the player has picked up their foot."""
        return self.feet[player] is None

    def hand_size(self, player: int) -> int:
        return cards_held(self.hands[player])

    def pile_take_count(self) -> int | None:
        """How many cards a pickup takes from the discard pile now, or None if none may be."""
        size = len(self.pile)
        if size == 0:
            return None
        pickup = self.pile_pickup
        if pickup is _WHOLE_PILE:
            return size
        take = self.pile_take
        if pickup is _TOP_SEVEN_FROM_FULL:
            return take if size >= take else None
        return min(take, size)

    def first_meld_for(self, side: int) -> int:
        """The points the side's first meld must reach: by deal, or by its running score."""
        return self.first_melds[side]

    def side_players(self, side: int) -> tuple[int, ...]:
        return tuple(p for p in range(self.players) if self.side_of[p] == side)

    def books(self, side: int) -> BookCount:
        """The side's books by what they count as toward going out.

        A black-three book or a special book holds no wild card: it counts as the variant
        says (``black_three_book_goes_out_as``, ``special_book_goes_out_as``).
        """
        cached = self.book_cache[side]
        if cached is not None:
            return cached
        made = [
            (meld.rank, meld_kind(meld.rank, meld.twos + meld.jokers))
            for meld in self.melds[side]
            if meld.naturals + meld.twos + meld.jokers >= _BOOK_SIZE
        ]
        books = count_books(self.variant, self.special, made)
        self.book_cache[side] = books
        return books

    def melds_by_rank(self, side: int) -> MeldsByRank:
        """The side's melds by rank, kept while they are the same list, and brought up to
        date as melds are added to it."""
        melds = self.melds[side]
        kept = self.rank_index[side]
        if kept.melds is melds:
            if kept.count != len(melds):
                kept.index_new_melds()
            return kept
        kept = self.rank_index[side] = MeldsByRank(melds)
        return kept

    def melds_started_this_turn(self) -> int:
        """How many new melds the current player has started this turn."""
        return sum(
            1
            for action in self.history[self.turn_start :]
            if isinstance(action, Meld | TakePile)
            for play in action.plays
            if play.onto is None
        )

    def melded_before_turn(self, side: int) -> bool:
        """Whether the side had a meld on the table when the current turn began (melds are
        never taken back)."""
        return len(self.melds[side]) > self.melds_started_this_turn()

    def card_counts(self) -> list[int]:
        """How many cards of each face are anywhere at the table: the conservation check."""
        counts = [0] * FACE_COUNT
        for hand in self.hands:
            for face in range(FACE_COUNT):
                counts[face] += hand[face]
        for foot in self.feet:
            if foot is not None:
                for face in range(FACE_COUNT):
                    counts[face] += foot[face]
        for cards in (*self.stock, self.pile, self.set_aside):
            for face in cards:
                counts[face] += 1
        for side_melds in self.melds:
            for meld in side_melds:
                if meld.rank is not None:
                    counts[meld.rank] += meld.naturals
                counts[Face.TWO] += meld.twos
                counts[Face.JOKER] += meld.jokers
                counts[Face.RED_THREE] += meld.red_threes
        counts[Face.RED_THREE] += cards_held(self.red_threes_down)
        return counts

    def copy(self) -> DealState:
        """An independent copy (the random generator is copied too)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = DealState(
            self.variant,
            self.table,
            self.deal,
            hands=self.hands,
            feet=self.feet,
            stock=self.stock,
            pile=self.pile,
            rng=rng,
            dealer=self.dealer,
            current=self.current,
            exact_22=self.exact_22,
            answer=self.answer,
            running_scores=self.running_scores,
        )
        twin.foot_played = list(self.foot_played)
        twin.set_aside = list(self.set_aside)
        twin.melds = [list(m) for m in self.melds]
        twin.book_cache = list(self.book_cache)
        twin.opened = list(self.opened)
        twin.red_threes_down = list(self.red_threes_down)
        twin.phase = self.phase
        twin.asked = self.asked
        twin.permission = self.permission
        twin.outcome = self.outcome
        twin.turn = self.turn
        twin.turn_start = self.turn_start
        twin.history = list(self.history)
        twin.passed = self.passed
        twin.passed_at = self.passed_at
        twin.plays_kept = self.plays_kept
        return twin

    def __repr__(self) -> str:
        return (
            f"<DealState {self.variant.id} deal {self.deal}: player {self.current + 1} "
            f"to {self.phase.value}, stock {self.stock_size}, pile {len(self.pile)}>"
        )


ALL_WILD: Final = FACE_COUNT
"""The rank number of melds of wild cards alone, after the faces' numbers."""
RANK_FACES: Final[tuple[Face | None, ...]] = (*FACES, None)
"""The rank of each rank number: a face, or None for melds of wild cards alone."""
NEW_ONLY: Final[list[int | None]] = [None]
"""The places of a rank the side has no meld of: a new meld only (shared, never changed)."""


def rank_number(rank: Face | None) -> int:
    """A meld's rank by number (`RANK_FACES`)."""
    return ALL_WILD if rank is None else rank


class MeldsByRank:
    """A side's melds by rank number, where the plays of each rank may go."""

    __slots__ = ("melds", "count", "places", "melded")

    def __init__(self, melds: list[TableMeld]) -> None:
        self.melds = melds
        """The side's list of melds, of which the first `count` are indexed."""
        self.places: list[list[int | None]] = [NEW_ONLY] * len(RANK_FACES)
        """By rank number: None (a new meld), then the indexes of the side's melds of it."""
        self.melded: list[int] = []
        """The rank numbers the side has melds of, in the order of their first meld."""
        self.count = 0
        self.index_new_melds()

    def index_new_melds(self) -> None:
        """Index the melds added to the list since it was last indexed: a meld, once down,
        keeps its rank and its place, and new melds are added at the end."""
        melds = self.melds
        places = self.places
        for index in range(self.count, len(melds)):
            rank = rank_number(melds[index].rank)
            found = places[rank]
            if found is NEW_ONLY:
                places[rank] = [None, index]
                self.melded.append(rank)
            else:
                found.append(index)
        self.count = len(melds)

    def has(self, rank: int) -> bool:
        """Whether the side has a meld of the rank number."""
        return self.places[rank] is not NEW_ONLY


NO_MELDS: Final = MeldsByRank([])
"""No side's melds indexed yet: its list is no side's."""


def count_books(
    variant: Variant, special: Face | None, books: Iterable[tuple[Face | None, MeldKind]]
) -> BookCount:
    """The books that count toward going out, given the rank and kind of each finished book.

    A black-three book and a clean book of the `special` rank (the variant's
    `special_face`) count as the variant says.
    """
    clean = dirty = wild = black = specials = 0
    for rank, kind in books:
        if kind is MeldKind.BLACK_THREE:
            black += 1
        elif kind is MeldKind.CLEAN:
            if rank is not None and rank is special:
                specials += 1
            else:
                clean += 1
        elif kind is MeldKind.DIRTY:
            dirty += 1
        elif kind is MeldKind.WILD:
            wild += 1
    if not black and not specials:
        # Only black-three and special books count as the variant says.
        return _book_count(clean, dirty, wild)
    return variant.books_toward_going_out(clean, dirty, wild, black, specials)


_BOOK_COUNTS: Final[dict[int, BookCount]] = {}
"""Each count of books made once (a side's books are counted again at every meld)."""


def _book_count(clean: int, dirty: int, wild: int) -> BookCount:
    key = clean << 16 | dirty << 8 | wild
    found = _BOOK_COUNTS.get(key)
    if found is None:
        found = _BOOK_COUNTS[key] = BookCount(clean, dirty, wild)
    return found


# --- dealing ------------------------------------------------------------------------------------


def first_player(deal: int, players: int) -> tuple[int, int]:
    """The dealer of a deal (passing to the left each deal) and the player who starts."""
    dealer = (deal - 1) % players
    return dealer, (dealer + 1) % players


def new_deal(
    variant: Variant,
    deal: int,
    table: Table,
    rng: random.Random,
    answer: PartnerAnswer = always_yes,
    running_scores: Sequence[int] | None = None,
) -> DealState:
    """Shuffle, deal the hands and feet (or let each player cut), form the stock, and turn
    up the first discard where the variant turns one. `running_scores`: each side's game
    score before the deal, where first melds follow it."""
    players = table.players
    hand_size, foot_size = variant.hand_size_for(deal), variant.foot_size_for(deal)
    dealt = players * (hand_size + foot_size)
    deck = deck_of(variant)
    if dealt >= table.decks * deck.size:
        raise ValueError(
            f"{table.decks} decks cannot deal {players} players a hand of {hand_size} "
            f"and a foot of {foot_size} and still leave a stock"
        )
    faces = shuffled_shoe(table.decks, rng, deck)
    dealer, starter = first_player(deal, players)
    if variant.cut_for_packets:
        stock, hands, feet, exact = _cut_packets(variant, deal, players, starter, faces, rng)
    else:
        stock, hands, feet = _deal_packets(variant, deal, players, starter, faces)
        exact = [False] * players
    pile: list[Face] = []
    if variant.first_discard_turned:
        buried = faces_of(variant.first_discard_buried, deck)
        pile.append(_turn_first_discard(stock[0], buried, rng))
    return DealState(
        variant,
        table,
        deal,
        hands=hands,
        feet=feet,
        stock=stock,
        pile=pile,
        rng=rng,
        dealer=dealer,
        exact_22=exact,
        answer=answer,
        running_scores=running_scores,
    )


def _split(faces: list[Face], piles: int) -> list[list[Face]]:
    size = len(faces) // piles
    parts = [faces[i * size : (i + 1) * size] for i in range(piles - 1)]
    parts.append(faces[(piles - 1) * size :])
    return parts


def _deal_packets(
    variant: Variant, deal: int, players: int, starter: int, faces: list[Face]
) -> tuple[list[list[Face]], list[list[int]], list[list[int] | None]]:
    hands: list[list[int]] = [[] for _ in range(players)]
    feet: list[list[int] | None] = [None] * players
    for offset in range(players):
        player = (starter + offset) % players
        hands[player] = counts_of(_take(faces, variant.hand_size_for(deal)))
    for offset in range(players):
        player = (starter + offset) % players
        feet[player] = counts_of(_take(faces, variant.foot_size_for(deal)))
    return _split(faces, variant.stock_piles), hands, feet


def _take(faces: list[Face], count: int) -> list[Face]:
    taken = faces[-count:]
    del faces[-count:]
    return taken


def _cut_packets(
    variant: Variant,
    deal: int,
    players: int,
    starter: int,
    faces: list[Face],
    rng: random.Random,
) -> tuple[list[list[Face]], list[list[int]], list[list[int] | None], list[bool]]:
    """Each player cuts about a hand and a foot from a stock pile and counts it out.

    A cut of exactly the target is noted (the exact-22 bonus); a short cut is made up from
    the same pile, and extra cards go back on it. The second packet is the foot of the
    player to the right.
    """
    stock = _split(faces, variant.stock_piles)
    target = variant.cut_for(deal)
    hand_size = variant.hand_size_for(deal)
    hands: list[list[int]] = [[] for _ in range(players)]
    feet: list[list[int] | None] = [None] * players
    exact = [False] * players
    for offset in range(players):
        player = (starter + offset) % players
        pile = max(stock, key=len)
        cut = round(rng.gauss(target, CUT_SPREAD))
        cut = max(1, target - CUT_REACH, min(target + CUT_REACH, cut, len(pile)))
        exact[player] = cut == target
        packet = _take(pile, cut)
        if cut > target:
            pile.extend(packet[: cut - target])
            packet = packet[cut - target :]
        while len(packet) < target:
            pile = max(stock, key=len)
            packet = _take(pile, min(target - len(packet), len(pile))) + packet
        packet.reverse()
        hands[player] = counts_of(packet[:hand_size])
        feet[(player - 1) % players] = counts_of(packet[hand_size:target])
    return stock, hands, feet, exact


def _turn_first_discard(stock: list[Face], buried: frozenset[Face], rng: random.Random) -> Face:
    """Turn the top stock card; one of the `buried` faces goes back into the stock at a random
    place, and the next is turned."""
    while True:
        face = stock.pop()
        if face not in buried or not stock:
            return face
        stock.insert(rng.randrange(len(stock)), face)


# --- a table laid out by hand (tests, examples, puzzles) ------------------------------------------


def arrange(
    variant: Variant,
    *,
    deal: int = 1,
    players: int | None = None,
    sides: int | None = None,
    hands: Sequence[Iterable[Face]],
    feet: Sequence[Iterable[Face] | None] | None = None,
    stock: Sequence[Iterable[Face]] = (),
    pile: Iterable[Face] = (),
    melds: Mapping[int, Sequence[TableMeld]] | None = None,
    opened: Iterable[int] = (),
    red_threes_down: Sequence[int] | None = None,
    foot_played: Iterable[int] = (),
    current: int = 0,
    phase: Phase = Phase.DRAW,
    seed: int = 0,
) -> DealState:
    """A deal in a chosen position. `stock` lists the stock piles (top card last); a foot
    given as None has been picked up, and feet left out are empty but still on the table.
    `sides` chooses between tables of as many players (teams, or each for themselves)."""
    count = players if players is not None else len(hands)
    table = variant.table_for(sides if sides is not None else _sides(variant, count), count)
    if table is None:
        raise ValueError(f"{variant.name} has no table for {count} players")
    foot_counts: list[list[int] | None] = []
    for player in range(count):
        given = feet[player] if feet is not None else ()
        foot_counts.append(None if given is None else counts_of(given))
    stock_piles = [list(part) for part in stock]
    while len(stock_piles) < variant.stock_piles:
        stock_piles.append([])
    state = DealState(
        variant,
        table,
        deal,
        hands=[counts_of(hand) for hand in hands],
        feet=foot_counts,
        stock=stock_piles,
        pile=list(pile),
        rng=random.Random(seed),
        dealer=(current - 1) % count,
        current=current,
    )
    for side, side_melds in (melds or {}).items():
        state.melds[side] = list(side_melds)
        state.book_cache[side] = None
        if side_melds:
            state.opened[side] = True
    for side in opened:
        state.opened[side] = True
    if red_threes_down is not None:
        state.red_threes_down = list(red_threes_down)
    for player in foot_played:
        state.foot_played[player] = True
    state.phase = phase
    return state


def _sides(variant: Variant, players: int) -> int:
    for table in variant.tables:
        if table.players == players:
            return table.sides
    raise ValueError(f"{variant.name} has no table for {players} players")


def recycle_set_aside(state: DealState) -> None:
    """Shuffle a frozen pile's cards under the stock once the stock cannot supply a draw."""
    if not state.set_aside or state.variant.wild_discard is not WildDiscard.FREEZES_PILE:
        return
    cards = state.set_aside
    state.set_aside = []
    shuffle(cards, state.rng)
    parts = _split(cards, len(state.stock))
    for pile, part in zip(state.stock, parts, strict=True):
        pile[:0] = part
