"""Who deals a deal and who plays first, in words, for the game's pages (``rules.dealing``)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from scorekeeper.rules.dealing import Dealing, Seated, Turn, seat_player, turn
from scorekeeper.rules.variants import Variant
from scorekeeper.store.games import Game
from scorekeeper.store.people import seated_names


@dataclass(frozen=True, slots=True)
class TurnWords:
    number: int
    dealer: str
    first: str
    note: str
    """How the turn moves on, and what is only a default a table may change."""


def _seat_words(
    turn_: Turn, seat: int, names: tuple[str, ...], players: int, seated: Seated = ()
) -> str:
    side = names[seat % turn_.sides]
    if players > turn_.sides:
        player = seat_player(turn_, seat, seated)
        if player is not None:
            return _("%(player)s, of %(team)s", player=player, team=side)
        return _("a player of %(team)s", team=side)
    return side


def _first_words(turn_: Turn, names: tuple[str, ...], players: int, seated: Seated) -> str:
    if turn_.dealing is Dealing.OWN_PACKETS:
        return _seat_words(turn_, turn_.first_seat, names, players, seated)
    if players > turn_.sides:
        player = seat_player(turn_, turn_.first_seat, seated)
        if player is not None:
            return _(
                "%(player)s, of %(team)s, on the dealer's left",
                player=player,
                team=names[turn_.first_side],
            )
        return _("the player of %(team)s on the dealer's left", team=names[turn_.first_side])
    return _("%(name)s, on the dealer's left", name=names[turn_.first_side])


def _dealer_note(first_dealer: str, partnership: bool) -> str:
    if partnership:
        return _(
            "The deal passes to the left after each deal, so the teams take turns. Who deals "
            "first is up to the table: by default a player of %(team)s deals the first deal. "
            "A table may agree otherwise.",
            team=first_dealer,
        )
    return _(
        "The deal passes to the left after each deal. Who deals first is up to the table: by "
        "default %(name)s deals the first deal, and the seats follow the order the names were "
        "entered, going left. A table may agree otherwise.",
        name=first_dealer,
    )


def deal_turn(game: Game, variant: Variant, number: int) -> TurnWords:
    """Who deals deal `number` of `game` and who plays first, with the defaults said."""
    names = game.side_names
    players = game.players
    seated = seated_names(game)
    now = turn(variant, len(names), players, number)
    first_deal = turn(variant, len(names), players, 1)
    if now.dealing is Dealing.OWN_PACKETS:
        dealer = _("nobody: every player cuts their own cards")
        note = _(
            "The rules do not say who plays first. By default %(first)s starts the first "
            "deal, then the start passes to the left, in the order the names were entered. "
            "A table may agree otherwise.",
            first=_seat_words(first_deal, first_deal.first_seat, names, players, seated),
        )
    else:
        assert now.dealer_seat is not None and first_deal.dealer_seat is not None
        dealer = _seat_words(now, now.dealer_seat, names, players, seated)
        note = _dealer_note(names[first_deal.dealer_seat % len(names)], players > len(names))
    return TurnWords(number, dealer, _first_words(now, names, players, seated), note)
