"""The plays that put cards of one rank in one place, counted by shape and worked out once.

The legal-action list (`legal.Candidates`) holds, for each rank and place (a new meld or one
of the side's melds), every play some rule could allow: a count of naturals with a run of
twos and jokers. Which counts those are follows from a few small numbers only (the cards
held, the meld's cards, the variant's size and wild-card limits, the points a first meld
needs), so each answer is worked out once and kept, and every deal after reads it.
"""

from __future__ import annotations

from typing import Final, TypeVar

from .cards import FACE_COUNT, Face

Shape = tuple[int, int, int, int, int, int, int]
"""Plays of one count of naturals: naturals, least and most twos, least jokers, jokers held,
room, and how many plays. With each count of twos the jokers run from the least to the jokers
held or the room the twos leave, whichever is fewer; the shape ends at the first count of
twos that leaves no room for the least jokers."""

Shapes = tuple[tuple[Shape, ...], int]
"""The shapes of one rank in one place, and how many plays they hold together."""

Context = tuple[
    int | None,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    float,
    int,
    tuple[int, ...] | None,
    Face | None,
    int | None,
    int | None,
]
"""What every rank and place of one hand share: the largest meld (None: no limit), the wild
limit's naturals a wild card and extra naturals, the melded points of a two and of a joker,
the twos and jokers held, the least twos and jokers a play must hold, the least points a
play must be worth, the least naturals (of the top card of the pile taken), the melded
points of each face where a play's points count (None once the side has opened), the
rank whose melds stay clean, the largest meld of a rank with a wild card and the most wild
cards such a meld may hold (None: no limit of its own)."""

Place = tuple[int, int, int, int, bool, bool, int]
"""One rank in one place: naturals held, least naturals, the meld's naturals and wild cards
(0 for a new meld), whether the meld stays clean, whether the wild limit applies, and the
points of a natural."""

_MOST_CONTEXTS: Final = 4096
"""Contexts kept at most; past it the kept answers are dropped and worked out again."""


Segment = tuple[int, ...]
"""The plays of one rank in one place, as numbers only: how many plays they hold (0: none),
then the seven numbers of each shape (`Shape`). Kept and shared: never changed; the same
for every place alike (the list of candidates says which rank and place it is for).

Numbers in a tuple rather than an object: the collector stops tracking a tuple of numbers,
so the many answers kept do not make every full collection longer."""

SEGMENT_HEAD: Final = 1
"""Where a segment's first shape starts."""

SHAPE_SIZE: Final = 7
"""The numbers of one shape in a segment."""


_MOST_SEGMENTS: Final = 4096
"""Distinct segments kept at most; past it they are made anew (those kept stay valid)."""

_SEGMENTS: Final[dict[Segment, Segment]] = {}
"""Each segment made, once: the answers kept for every context share a few hundred of them,
which stay in the processor's cache where copies scattered through memory would not."""


def segment_of(shapes: Shapes) -> Segment:
    """The segment of the plays of one rank in one place."""
    found, plays = shapes
    flat: list[int] = [plays]
    for shape in found:
        flat.extend(shape)
    segment = tuple(flat)
    if len(_SEGMENTS) >= _MOST_SEGMENTS:
        _SEGMENTS.clear()
    return _SEGMENTS.setdefault(segment, segment)


class Kept:
    """The answers kept for one context, filled as they are asked for."""

    __slots__ = ("context", "new_melds", "placed")

    def __init__(self, context: Context) -> None:
        self.context = context
        self.new_melds: list[list[Segment | None]] = [[] for _ in range(FACE_COUNT + 1)]
        """New melds of each rank number (`state.RANK_FACES`), by the naturals held (None:
        not worked out yet). Lists, not a dict: looked up for every rank at every action."""
        self.placed: list[list[list[list[Segment | None]]]] = [[] for _ in range(FACE_COUNT + 1)]
        """Plays of a rank on a meld of the side, by the rank number, the naturals held and
        the meld's naturals and wild cards (see `on_meld`)."""

    def on_meld(self, rank: int, held: int, naturals: int, wilds: int) -> Segment | None:
        """The plays of a rank number on a meld of `naturals` and `wilds`, with `held`
        naturals in hand (None: not worked out yet). Which meld it is does not count: melds
        alike take the same plays.

        Nested lists rather than a dict keyed by one number: such a number, too large for
        the interpreter's kept small numbers, would be made anew at every look-up."""
        by_held = self.placed[rank]
        if held < len(by_held):
            by_naturals = by_held[held]
            if naturals < len(by_naturals):
                by_wilds = by_naturals[naturals]
                if wilds < len(by_wilds):
                    return by_wilds[wilds]
        return None

    def keep_on_meld(
        self, rank: int, held: int, naturals: int, wilds: int, segment: Segment
    ) -> None:
        """Keep what `on_meld` gives."""
        by_naturals = inner_list(self.placed[rank], held)
        keep_at(inner_list(by_naturals, naturals), wilds, segment)


T = TypeVar("T")


def keep_at(items: list[T | None], index: int, item: T) -> None:
    """Keep `item` at `index` of a list of answers, the list grown first where it is shorter
    (None: an answer not worked out yet)."""
    if index >= len(items):
        items.extend([None] * (index + 1 - len(items)))
    items[index] = item


def inner_list(items: list[list[T]], index: int) -> list[T]:
    """The list at `index` of a list of lists, empty ones added up to it where missing."""
    while len(items) <= index:
        items.append([])
    return items[index]


_KEPT: Final[dict[Context, Kept]] = {}

KeptByHand = dict[int, Kept]
"""The answers kept for one variant's contexts, by what changes from hand to hand
(`legal._hand_key`): the twos and jokers held, the face a play must use and how many of
it, and the least points a play must be worth."""


def kept_for(context: Context) -> Kept:
    """The answers kept for one context."""
    kept = _KEPT.get(context)
    if kept is None:
        if len(_KEPT) >= _MOST_CONTEXTS:
            _KEPT.clear()
        kept = _KEPT[context] = Kept(context)
    return kept


def shapes_of(context: Context, place: Place) -> Shapes:
    """Every shape of plays of one rank in one place, and how many plays they hold."""
    most, per_wild, extra, two_points, joker_points, held_twos, held_jokers = context[:7]
    least_twos, least_jokers, least_points = context[7:10]
    dirty_most, most_wilds = context[13:15]
    held, low, meld_naturals, meld_wilds, clean_only, limited, each = place
    base = meld_naturals + meld_wilds
    best_wild = max(two_points, joker_points)
    found: list[Shape] = []
    for naturals in range(low, held + 1):
        room = most - base - naturals if most is not None else held_twos + held_jokers
        if room < 0:
            break
        if clean_only:
            room = 0
        elif limited:
            allowed = (naturals + meld_naturals - extra) // per_wild - meld_wilds
            if most_wilds is not None and most_wilds - meld_wilds < allowed:
                allowed = most_wilds - meld_wilds
            if dirty_most is not None:
                dirty_room = dirty_most - base - naturals
                if dirty_room < 0 and meld_wilds:
                    break
                if dirty_room < allowed:
                    allowed = dirty_room
            if allowed < room:
                room = allowed if allowed > 0 else 0
        natural_points = naturals * each
        if natural_points + room * best_wild < least_points:
            continue
        most_twos = held_twos if held_twos < room else room
        floor = least_points - natural_points
        if naturals and floor <= least_twos * two_points and floor <= most_twos * two_points:
            # Every count of twos meets the first meld: the jokers run from the least.
            if least_jokers <= held_jokers:
                found.append(
                    _shape(naturals, least_twos, most_twos, least_jokers, held_jokers, room)
                )
            continue
        for twos in range(least_twos, most_twos + 1):
            first = _least_jokers(least_jokers, floor - twos * two_points, joker_points)
            if first is None:
                continue
            if naturals + twos == 0:
                first = max(first, 1)
            last = held_jokers if held_jokers < room - twos else room - twos
            if first <= last:  # a shape of one count of twos
                found.append(_shape(naturals, twos, twos, first, last, twos + last))
    shapes = tuple(shape for shape in found if shape[6])
    return shapes, sum(shape[6] for shape in shapes)


def _least_jokers(least: int, short: float, joker_points: int) -> int | None:
    """The least jokers that bring a play `short` points up to the first meld (None: jokers
    are worth nothing, so none can)."""
    if short <= 0:
        return least
    if joker_points <= 0:
        return None
    return max(least, -(-int(short) // joker_points))


def _shape(
    naturals: int, least_twos: int, most_twos: int, first: int, held_jokers: int, room: int
) -> Shape:
    """The shape with its count of plays: a run of jokers for each count of twos, the same
    while every joker held fits, then one fewer each two more."""
    plays = 0
    twos = least_twos
    all_jokers_fit = min(room - held_jokers, most_twos)
    if all_jokers_fit >= twos:
        plays += (all_jokers_fit - twos + 1) * (held_jokers - first + 1)
        twos = all_jokers_fit + 1
    last_twos = min(most_twos, room - first)
    if last_twos >= twos:
        counts = last_twos - twos + 1
        plays += counts * (room - first + 1) - (twos + last_twos) * counts // 2
    return naturals, least_twos, most_twos, first, held_jokers, room, plays
