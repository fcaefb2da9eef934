"""Who deals each deal and who plays first, read from the variant's data.

Seats are numbered from 0 going left (clockwise), in the order the sides' names were entered;
in a partnership the teams sit alternately, so seat ``s`` belongs to side ``s % sides`` (as in
the engine). What the sources say:

- Where one player deals (pagat and its relatives: seed 000, seeds 001, 002, 004), the deal
  passes to the left after each deal and the player on the dealer's left plays first (seeds
  001, 002 and 004 once say that play begins with the dealer, but their section on play says
  the player on the dealer's left, as seed 000 does). Which seat deals the first deal is the
  table's choice: the default here is seat 0.
- Where every player cuts their own packets (``Variant.cut_for_packets``: Simpson and
  Brouillette), nobody deals; the sources do not say who plays first. The default here: seat 0
  in the first deal, then the start passes to the left.

Pages say which of these is only a default a table may change (``games.turns``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .variants import Variant


class Dealing(StrEnum):
    """How the cards reach the players."""

    ONE_DEALER = "one-dealer"
    """One player deals (a partner may deal the feet); the deal passes to the left."""
    OWN_PACKETS = "own-packets"
    """Every player cuts and counts their own hand and foot: there is no dealer."""


def dealing(variant: Variant) -> Dealing:
    return Dealing.OWN_PACKETS if variant.cut_for_packets else Dealing.ONE_DEALER


@dataclass(frozen=True, slots=True)
class Turn:
    """Who deals a deal and who plays first, as seats and as the sides those seats are on."""

    deal: int
    dealing: Dealing
    dealer_seat: int | None
    """None where every player cuts their own packets."""
    first_seat: int
    sides: int

    @property
    def dealer_side(self) -> int | None:
        return None if self.dealer_seat is None else self.dealer_seat % self.sides

    @property
    def first_side(self) -> int:
        return self.first_seat % self.sides


def turn(variant: Variant, sides: int, players: int, deal: int, first_seat: int = 0) -> Turn:
    """Who deals deal number `deal` (from 1) and who plays first, at a table of `players`
    players on `sides` sides whose first deal is dealt (or started) by `first_seat`."""
    if deal < 1 or players < 1 or sides < 1:
        raise ValueError(f"no deal {deal} for {players} players on {sides} sides")
    how = dealing(variant)
    moved = (first_seat + deal - 1) % players
    if how is Dealing.ONE_DEALER:
        return Turn(deal, how, moved, (moved + 1) % players, sides)
    return Turn(deal, how, None, moved, sides)


Seated = Sequence[Sequence[str]]
"""The names of each side's players in the order they were entered, which is the order they
sit in, going left; a side whose players are not all named has none."""


def seat_player(turn_: Turn, seat: int, seated: Seated) -> str | None:
    """The player in `seat`, when the seats say: the seats go round the table a player of
    each side in turn, so seat n is player n // sides of side n % sides."""
    side = seated[seat % turn_.sides] if seat % turn_.sides < len(seated) else ()
    place = seat // turn_.sides
    return side[place] if place < len(side) else None
