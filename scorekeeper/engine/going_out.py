"""Whether a player can still go out this turn, from the cards they hold and the side's melds.

Where a partner's yes obliges the player to go out that turn, the engine refuses a discard or
a meld that would leave the turn without going out while going out is still within reach. It
is within reach when the cards held (all of them, or all but one kept to discard) can join
the side's melds or make new ones, the table they leave is one the rules allow, and the side
then has the books the deal asks for.

The answer errs only towards no: a yes is given only where the player can get there one
listed play at a time (one play to each meld, the additions to old melds first, then the new
melds, books first), so that a player told yes is never left without a legal action.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ..rules.cards import BOOK_SIZE
from ..rules.validation import partner_melds_before_going_out
from ..rules.variants import BookCount, BookRole
from .cards import BLACK_RANK, FACES, JOKER_RANK, RED_RANK, TWO_RANK, Face
from .conventions import MIN_MELD
from .melds import TableMeld
from .state import DealState

_BOOK_SIZE: Final = BOOK_SIZE
"""The rules core's size of a book, held by this compiled module: a name imported from the
rules core is looked up by name at each use."""

_RED: Final = Face.RED_THREE
_BLACK: Final = Face.BLACK_THREE
_TWO: Final = Face.TWO
_JOKER: Final = Face.JOKER

_Old = tuple[tuple[int, int, bool], ...]
"""A rank's melds on the table: naturals, wild cards, whether a red three lies on it."""
_ANY: Final = (1 << 30, 1 << 30)
"""No bound on the next new meld's (size, wild cards)."""
_Outcome = tuple[int, int, int, bool]
"""What one rank's melds come to: clean books, dirty books (both capped at what the deal
asks), melds that receive cards (capped at 2), and whether one receives two cards or more."""


@dataclass(frozen=True, slots=True, eq=False)
class _Limits:
    """The rules a rank's melds keep, as plain values (a cache key).

    `_limits` makes one object for each set of values, so the cache of `_rank_outcomes`
    compares them by identity rather than field by field.
    """

    most: int | None
    per_wild: int
    extra: int
    one_per_rank: bool
    takes_wilds: bool
    clean_cap: int
    dirty_cap: int
    counts_as: BookRole = BookRole.CLEAN
    """What the rank's clean books count as toward going out (black threes, special books)."""
    dirty_most: int | None = None
    """The largest meld with a wild card, where it is smaller than `most`."""
    most_wilds: int | None = None
    """The most wild cards a meld may hold, whatever its naturals."""


def can_go_out(
    state: DealState,
    player: int,
    hand: Sequence[int] | None = None,
    melds: Sequence[TableMeld] | None = None,
) -> bool:
    """Whether `player`, in the foot and told yes, can go out this turn holding `hand`, with
    the side's melds `melds` (by default, as they are now)."""
    variant = state.variant
    side = state.side_of[player]
    if state.feet[player] is not None or not state.opened[side]:
        return False
    if variant.going_out_needs_partner_in_foot and not all(
        state.foot_played[partner] for partner in state.teammates[player]
    ):
        return False
    if partner_melds_before_going_out(variant, state.table) and not state.melded_before_turn(side):
        return False
    held = list(state.hands[player] if hand is None else hand)
    table = list(state.melds[side] if melds is None else melds)
    if not _other_books_met(state, table):
        return False
    if not variant.must_discard_to_go_out and _placeable(state, held, table, last_card=False):
        return True
    if variant.going_out_by_melding_only:
        return False
    for face in FACES:
        if held[face]:
            held[face] -= 1
            found = _placeable(state, held, table, last_card=True)
            held[face] += 1
            if found:
                return True
    return False


def _other_books_met(state: DealState, melds: Sequence[TableMeld]) -> bool:
    """Whether the books on the table already hold the books of any kind, and the special
    book, that going out needs. Plays only add books, so where they do the answer is the
    same after them; where they do not, the search below does not look for them, and the
    answer errs towards no."""
    variant = state.variant
    books = [meld for meld in melds if meld.is_book]
    if len(books) < variant.going_out_any_books:
        return False
    special = state.special
    return not variant.going_out_needs_special_book or any(
        meld.rank is special and not meld.wilds for meld in books
    )


def _placeable(state: DealState, hand: list[int], melds: list[TableMeld], last_card: bool) -> bool:
    """Whether every card of `hand` can go onto the table, leaving the deal's books; with
    `last_card`, a card is kept to discard after the plays."""
    if hand[RED_RANK] or (hand[BLACK_RANK] and not state.black_three_books):
        return False
    needed = state.books_to_go_out
    wilds = hand[TWO_RANK] + hand[JOKER_RANK]
    special = state.special
    reach: dict[int, set[_Outcome]] = {0: {(0, 0, 0, False)}}
    for rank in _ranks(state, hand, melds):
        old = _old_melds(melds, rank)
        limits = _limits(
            state,
            needed,
            takes_wilds=rank is not _BLACK and rank is not special,
            counts_as=_counts_as(state, rank, special),
        )
        reach = _add_rank(reach, wilds, old, hand[rank], limits)
        if not reach:
            return False
    wild_old = tuple((meld.wilds, 0, False) for meld in melds if meld.rank is None)
    wild_limits = _limits(state, BookCount(clean=needed.wild), takes_wilds=False)
    for used, outcomes in reach.items():
        left = wilds - used
        if left and not state.wild_books:
            continue
        for wild_books, _, wild_targets, wild_multi in _rank_outcomes(
            wild_old, left, 0, wild_limits
        ):
            for clean, dirty, targets, multi in outcomes:
                if clean < needed.clean or dirty < needed.dirty or wild_books < needed.wild:
                    continue
                if last_card or multi or wild_multi or targets + wild_targets <= 1:
                    return True
    return False


def _ranks(state: DealState, hand: list[int], melds: list[TableMeld]) -> Iterator[Face]:
    """The ranks whose melds the plays may touch or whose books count: natural ranks held or
    on the table, and black threes where they are melded."""
    on_table = {meld.rank for meld in melds}
    for face in state.natural_faces:
        if hand[face] or face in on_table:
            yield face
    if state.black_three_books and (hand[BLACK_RANK] or _BLACK in on_table):
        yield _BLACK


def _old_melds(melds: list[TableMeld], rank: Face | None) -> _Old:
    return tuple((m.naturals, m.wilds, bool(m.red_threes)) for m in melds if m.rank is rank)


def _counts_as(state: DealState, rank: Face, special: Face | None) -> BookRole:
    """What a clean book of `rank` counts as toward going out."""
    if rank is _BLACK:
        return state.variant.black_three_book_goes_out_as
    if rank is special:
        return state.variant.special_book_goes_out_as
    return BookRole.CLEAN


def _limits(
    state: DealState, needed: BookCount, takes_wilds: bool, counts_as: BookRole = BookRole.CLEAN
) -> _Limits:
    variant = state.variant
    wild_limit = variant.wild_limit
    key: _LimitsKey = (
        state.most_cards,
        wild_limit.per_wild,
        wild_limit.extra,
        state.one_meld_a_rank,
        takes_wilds,
        needed.clean,
        needed.dirty,
        counts_as,
        variant.max_dirty_meld_size,
        wild_limit.most,
    )
    limits = _LIMITS.get(key)
    if limits is None:
        limits = _LIMITS[key] = _Limits(*key)
    return limits


_LimitsKey = tuple[int | None, int, int, bool, bool, int, int, BookRole, int | None, int | None]
"""The fields of `_Limits`, in order."""

_LIMITS: Final[dict[_LimitsKey, _Limits]] = {}
"""Each set of limits made so far, by its values: a handful for every variant."""


def _add_rank(
    reach: dict[int, set[_Outcome]], wilds: int, old: _Old, naturals: int, limits: _Limits
) -> dict[int, set[_Outcome]]:
    """Each count of wild cards used so far, with what the ranks so far come to, once one
    more rank takes some of the wild cards left."""
    after: dict[int, set[_Outcome]] = {}
    for used, sofar in reach.items():
        for more in range(wilds - used + 1):
            outcomes = _rank_outcomes(old, naturals, more, limits)
            if not outcomes:
                continue
            bucket = after.setdefault(used + more, set())
            for clean, dirty, targets, multi in sofar:
                for add_clean, add_dirty, add_targets, add_multi in outcomes:
                    bucket.add(
                        (
                            clean + add_clean,
                            dirty + add_dirty,
                            min(2, targets + add_targets),
                            multi or add_multi,
                        )
                    )
    return after


@lru_cache(maxsize=65536)
def _rank_outcomes(old: _Old, naturals: int, wilds: int, limits: _Limits) -> frozenset[_Outcome]:
    """Every way `naturals` cards of one rank and `wilds` wild cards can all go onto that
    rank's melds (`old`) and new ones, as what the rank's melds then come to; empty if they
    cannot. Where wild melds are read as a rank, their cards are given as naturals."""
    if wilds and not limits.takes_wilds:
        return frozenset()
    found: set[_Outcome] = set()
    for finals, targets, multi in _onto_old(old, 0, naturals, wilds, limits):
        naturals_left, wilds_left = finals[-1]
        for new in _new_melds(naturals_left, wilds_left, _ANY, 0, limits):
            outcome = _outcome(old, finals[:-1], new, targets, multi, limits)
            if outcome is not None:
                found.add(outcome)
    return frozenset(found)


def _onto_old(
    old: _Old, index: int, naturals: int, wilds: int, limits: _Limits
) -> Iterator[tuple[tuple[tuple[int, int], ...], int, bool]]:
    """Each way of adding cards to the old melds from `index` on: their final counts, then
    the naturals and wilds left for new melds; how many melds got cards; whether one got two
    or more."""
    if index == len(old):
        yield ((naturals, wilds),), 0, False
        return
    had_naturals, had_wilds, red = old[index]
    for add_naturals in range(naturals + 1):
        for add_wilds in range(0 if red else wilds + 1):
            final = (had_naturals + add_naturals, had_wilds + add_wilds)
            added = add_naturals + add_wilds
            if added and not _fits(final[0], final[1], limits):
                continue
            for rest, targets, multi in _onto_old(
                old, index + 1, naturals - add_naturals, wilds - add_wilds, limits
            ):
                yield (final, *rest), targets + (1 if added else 0), multi or added >= 2


def _fits(naturals: int, wilds: int, limits: _Limits) -> bool:
    """Whether a meld of these cards keeps the size and wild-card limits."""
    if limits.most is not None and naturals + wilds > limits.most:
        return False
    if not wilds:
        return True
    if limits.dirty_most is not None and naturals + wilds > limits.dirty_most:
        return False
    if limits.most_wilds is not None and wilds > limits.most_wilds:
        return False
    return naturals >= limits.per_wild * wilds + limits.extra


def _new_melds(
    naturals: int, wilds: int, largest: tuple[int, int], unfinished: int, limits: _Limits
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Each set of new melds that takes exactly these cards: each meld's (size, wild cards)
    no greater than the one before, so that each set comes once; at most one unfinished, and
    one meld in all where a rank is melded once."""
    if naturals == 0 and wilds == 0:
        yield ()
        return
    cards = naturals + wilds
    most = cards if limits.most is None else min(limits.most, cards)
    if limits.one_per_rank and largest != _ANY:
        return
    for size in range(min(most, largest[0]), MIN_MELD - 1, -1):
        is_book = size >= _BOOK_SIZE
        if not is_book and unfinished:
            continue
        for meld_wilds in range(min(wilds, size), -1, -1):
            meld_naturals = size - meld_wilds
            if not 1 <= meld_naturals <= naturals or (size, meld_wilds) > largest:
                continue
            if not _fits(meld_naturals, meld_wilds, limits):
                continue
            for rest in _new_melds(
                naturals - meld_naturals,
                wilds - meld_wilds,
                (size, meld_wilds),
                unfinished + (0 if is_book else 1),
                limits,
            ):
                yield ((meld_naturals, meld_wilds), *rest)


def _outcome(
    old: _Old,
    finals: tuple[tuple[int, int], ...],
    new: tuple[tuple[int, int], ...],
    targets: int,
    multi: bool,
    limits: _Limits,
) -> _Outcome | None:
    """What the rank's melds come to, or None where the new melds break the rule on melds
    of one rank (one meld a rank; or the old ones books, at most one left unfinished)."""
    if new:
        if limits.one_per_rank and (old or len(new) > 1):
            return None
        if any(naturals + wilds < _BOOK_SIZE for naturals, wilds in finals):
            return None
    clean = dirty = 0
    for naturals, wilds in (*finals, *new):
        if naturals + wilds >= _BOOK_SIZE:
            if wilds:
                dirty += 1
            else:
                clean += 1
    if limits.counts_as is BookRole.DIRTY:
        clean, dirty = 0, dirty + clean
    elif limits.counts_as is BookRole.NONE:
        clean = dirty = 0
    return (
        min(clean, limits.clean_cap),
        min(dirty, limits.dirty_cap),
        min(2, targets + len(new)),
        multi or bool(new),
    )
