"""A finished deal read off the table: the score sheet's entries, scored by the rules core.

`side_entries` fills in what a table writes down (the score API's `SideEntry` fields), and
`deal_totals` hands them to the rules core's scorer: the engine keeps no count of its own.
"""

from __future__ import annotations

from ..rules.cards import BOOK_SIZE
from ..rules.entry import DealEntry, SideEntry
from ..rules.scoring import score_deal
from ..rules.variants import Variant
from .cards import FACE_COUNT, Face
from .melds import MeldKind, TableMeld, special_face
from .state import DealEnd, DealState


def _went_out_side(state: DealState) -> int | None:
    outcome = state.outcome
    if outcome is None or outcome.end is not DealEnd.WENT_OUT or outcome.player is None:
        return None
    return state.side_of[outcome.player]


def stock_ran_out(state: DealState) -> bool:
    return state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT


def _held(state: DealState, player: int) -> list[int]:
    """Counts of the cards a player still holds in hand and foot."""
    held = list(state.hands[player])
    foot = state.feet[player]
    if foot is not None:
        for face in range(FACE_COUNT):
            held[face] += foot[face]
    return held


def red_three_books(variant: Variant, laid_down: int) -> int:
    """How many books the red threes a side laid down make: seven each, where the variant
    has red-three books (their bonus replaces the points of the red threes in them)."""
    if variant.book_bonus.red_three is None:
        return 0
    return laid_down // BOOK_SIZE


def went_out_concealed(state: DealState) -> bool:
    """Whether the side that went out had no meld on the table before its going-out turn."""
    side = _went_out_side(state)
    return side is not None and not state.melded_before_turn(side)


def _is_special(meld: TableMeld, special: Face | None) -> bool:
    return special is not None and meld.rank is special and meld.kind is MeldKind.CLEAN


def side_entries(state: DealState) -> tuple[SideEntry, ...]:
    """Each side's score-sheet entry for the deal as it stands (normally once it is over)."""
    variant = state.variant
    out_side = _went_out_side(state)
    concealed = bool(variant.going_out_concealed_bonus) and went_out_concealed(state)
    special = special_face(variant)
    entries = []
    for side in range(state.sides):
        counts = dict.fromkeys(MeldKind, 0)
        special_books = 0
        meld_points = 0
        ladies = 0
        for meld in state.melds[side]:
            meld_points += meld.points(state.melded_points)
            ladies += meld.red_threes
            if meld.is_book and _is_special(meld, special):
                special_books += 1
            elif meld.is_book:
                counts[meld.kind] += 1
        red_held = 0
        left = 0
        players = state.side_players(side)
        for player in players:
            held = _held(state, player)
            red_held += held[Face.RED_THREE]
            points = zip(held, state.held_points, strict=True)
            left += sum(count * value for count, value in points)
        red_down = sum(state.red_threes_down[p] for p in players)
        red_books = red_three_books(variant, red_down)
        entries.append(
            SideEntry(
                meld_points=meld_points,
                clean_books=counts[MeldKind.CLEAN],
                dirty_books=counts[MeldKind.DIRTY],
                wild_books=counts[MeldKind.WILD],
                black_three_books=counts[MeldKind.BLACK_THREE],
                special_books=special_books,
                red_three_books=red_books,
                ladies_in_books=ladies,
                red_threes_down=red_down - BOOK_SIZE * red_books,
                red_threes_held=red_held,
                cards_left_points=left,
                went_out=side == out_side,
                went_out_concealed=side == out_side and concealed,
                exact_22=sum(1 for p in players if state.exact_22[p]),
            )
        )
    return tuple(entries)


def to_deal_entry(state: DealState) -> DealEntry:
    """The deal as the score API takes it."""
    return DealEntry(
        variant=state.variant,
        deal=state.deal,
        sides=side_entries(state),
        players=state.players,
        stock_ran_out=stock_ran_out(state),
        running_scores=state.running_scores,
    )


def deal_totals(state: DealState) -> tuple[int, ...]:
    """Each side's score for the deal, as the rules core adds up its entry."""
    return tuple(score.total for score in score_deal(to_deal_entry(state)))
