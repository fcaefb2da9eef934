"""Undo of the deal just saved: offered to the phone that saved it, until the game changes.

The session keeps the last new deal this browser saved, with the game's version right after
the save and the deal's own version. The scoreboard offers Undo while the game is still at that
version (no save, edit or deletion since, from any phone); the undo deletes that deal only at
both versions (``writes.undo_deal``), so it can never take away a later change.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import session

from .models import Game

SESSION_KEY = "undo"


@dataclass(frozen=True, slots=True)
class UndoOffer:
    game_id: int
    number: int
    game_version: int
    deal_version: int


def remember_saved(game_id: int, number: int, game_version: int, deal_version: int) -> None:
    session[SESSION_KEY] = [game_id, number, game_version, deal_version]


def forget_saved() -> None:
    session.pop(SESSION_KEY, None)


def saved_offer(game_id: int) -> UndoOffer | None:
    """What this browser saved last in this game, whatever happened since (None if nothing)."""
    kept = session.get(SESSION_KEY)
    if not (isinstance(kept, list) and len(kept) == 4 and all(type(n) is int for n in kept)):
        return None
    offer = UndoOffer(*kept)
    return offer if offer.game_id == game_id else None


def undo_offer(game: Game) -> UndoOffer | None:
    """The Undo to show on the game's page: the deal this browser saved last, while the game
    has not changed since."""
    offer = saved_offer(game.id)
    if offer is None or offer.game_version != game.version or game.deal(offer.number) is None:
        return None
    return offer
