"""A finished deal read off the table: the score sheet's entries, and the engine's own totals.

`side_entries` fills in what a table writes down (the score API's `SideEntry` fields);
`deal_totals` adds the score up straight from the cards on the table, without going through
those entries, so the two can be checked against each other.
"""

from __future__ import annotations

from ..rules.entry import DealEntry, SideEntry
from .cards import FACE_COUNT, Face
from .melds import MeldKind
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


def side_entries(state: DealState) -> tuple[SideEntry, ...]:
    """Each side's score-sheet entry for the deal as it stands (normally once it is over)."""
    out_side = _went_out_side(state)
    entries = []
    for side in range(state.sides):
        counts = dict.fromkeys(MeldKind, 0)
        meld_points = 0
        for meld in state.melds[side]:
            meld_points += meld.points(state.melded_points)
            if meld.is_book:
                counts[meld.kind] += 1
        red_held = 0
        left = 0
        players = state.side_players(side)
        for player in players:
            held = _held(state, player)
            red_held += held[Face.RED_THREE]
            points = zip(held, state.held_points, strict=True)
            left += sum(count * value for count, value in points)
        entries.append(
            SideEntry(
                meld_points=meld_points,
                clean_books=counts[MeldKind.CLEAN],
                dirty_books=counts[MeldKind.DIRTY],
                wild_books=counts[MeldKind.WILD],
                black_three_books=counts[MeldKind.BLACK_THREE],
                red_threes_down=sum(state.red_threes_down[p] for p in players),
                red_threes_held=red_held,
                cards_left_points=left,
                went_out=side == out_side,
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
    """Each side's score for the deal, counted card by card from the table."""
    variant = state.variant
    bonus = variant.book_bonus
    book_bonus = {
        MeldKind.CLEAN: bonus.clean,
        MeldKind.DIRTY: bonus.dirty,
        MeldKind.WILD: bonus.wild or 0,
        MeldKind.BLACK_THREE: bonus.black_three or 0,
    }
    out_side = _went_out_side(state)
    totals = []
    for side in range(state.sides):
        total = 0
        for meld in state.melds[side]:
            total += meld.points(state.melded_points)
            if meld.is_book:
                total += book_bonus[meld.kind]
        for player in state.side_players(side):
            held = _held(state, player)
            for face in range(FACE_COUNT):
                total -= held[face] * state.held_points[face]
            total += held[Face.RED_THREE] * variant.red_three.held
            total += state.red_threes_down[player] * (variant.red_three.down or 0)
            if state.exact_22[player] and variant.exact_22_bonus is not None:
                total += variant.exact_22_bonus
        if side == out_side:
            total += variant.going_out_bonus_for(state.deal)
        totals.append(total)
    return tuple(totals)
