"""Undo of the deal just saved: offered to the phone that saved it, until the game changes.

The session keeps the last new deal this browser saved, with the game's version right after
the save and the deal's own version. The scoreboard offers Undo while the game is still at that
version (no save, edit or deletion since, from any phone); the undo deletes that deal only at
both versions (``writes.undo_deal``), so it can never take away a later change. What was taken
back goes into the deal's form again, so that a table undoing a slip corrects one number
instead of typing the deal anew.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from flask import session

from scorekeeper.store.games import Game

SESSION_KEY = "undo"
UNDONE_KEY = "undone"


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
    if not (
        isinstance(kept, list)
        and len(kept) == len(fields(UndoOffer))
        and all(type(n) is int for n in kept)
    ):
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


def keep_undone(game_id: int, number: int, data: dict[str, object]) -> None:
    """The form data of a deal just taken back, for its form to show once."""
    session[UNDONE_KEY] = {"game_id": game_id, "number": number, "data": data}


def take_undone(game_id: int, number: int) -> dict[str, object] | None:
    """The data of this deal taken back by this browser, once; None if there is none."""
    kept = session.get(UNDONE_KEY)
    if not isinstance(kept, dict) or (kept.get("game_id"), kept.get("number")) != (
        game_id,
        number,
    ):
        return None
    session.pop(UNDONE_KEY)
    data = kept.get("data")
    return data if isinstance(data, dict) else None
