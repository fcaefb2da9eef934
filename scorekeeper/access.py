"""Who may do what with a game: the token in the address decides.

Game addresses are /g/<token>/...: the view token opens the scoreboard read-only, the edit
token opens everything, and so does the view token in a browser that holds the edit link of
the card table that owns the game. The games views keep working with ``game_id``: a URL value
preprocessor turns the token into ``game_id`` (404 for an unknown token, 403 when a view
token asks for a view marked ``edit_only``), and ``url_for(..., game_id=...)`` puts the right
token back: the one of the current address for the same game, else this browser's token for
it, else its view token.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import abort, current_app, g
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.capabilities import Role
from scorekeeper.extensions import db
from scorekeeper.keyring import remember_game, remembered_games
from scorekeeper.store.games import Game
from scorekeeper.store.holdings import table_role
from scorekeeper.store.links import Grant, new_game_tokens, resolve

TOKEN_ARG = "token"
GAME_ARG = "game_id"

P = ParamSpec("P")
R = TypeVar("R")


def edit_only(view: Callable[P, R]) -> Callable[P, R]:
    """Mark a game view as one that only the edit link may open."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        grant = current_grant()
        if grant is None or not grant.can_edit:
            abort(
                403,
                description=_(
                    "This link shows the game but cannot change it. Ask the keeper of the "
                    "game for the edit link."
                ),
            )
        return view(*args, **kwargs)

    return wrapper


def current_grant() -> Grant | None:
    grant: Grant | None = g.get("grant")
    return grant


def can_edit() -> bool:
    grant = current_grant()
    return grant is not None and grant.can_edit


def pull_token(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """URL value preprocessor: the address's token becomes ``game_id`` (404 if unknown)."""
    if not values or TOKEN_ARG not in values:
        return
    token = values.pop(TOKEN_ARG)
    grant = resolve(token, read_game=True)
    if grant is None:
        abort(404)
    if not grant.can_edit and table_role(grant.table_id) is Role.EDIT:
        grant = grant.upgraded()
    g.grant = grant
    values[GAME_ARG] = grant.game_id
    if _worth_remembering(grant):
        remember_game(grant.game_id, token)


def _worth_remembering(grant: Grant) -> bool:
    """Whether this browser should keep the address's link: it joins the game by it, unless
    it holds that link already, or a better one, or the game through its card table."""
    held = remembered_games().get(grant.game_id)
    if held == grant.token or table_role(grant.table_id) is not None:
        return False
    if held is None or grant.can_edit:
        return True
    return not _opens_for_edit(held, grant.game_id)


def push_token(endpoint: str, values: dict[str, Any]) -> None:
    """URL defaults: ``game_id`` given to url_for becomes the token that opens that game."""
    if GAME_ARG not in values or not current_app.url_map.is_endpoint_expecting(endpoint, TOKEN_ARG):
        return
    values[TOKEN_ARG] = token_for(int(values.pop(GAME_ARG)))


def token_for(game_id: int) -> str:
    grant = current_grant()
    if grant is not None and grant.game_id == game_id:
        return grant.token
    made = new_game_tokens().get(game_id)
    if made is not None:
        return made
    known: dict[int, str] = g.setdefault("game_tokens", {})
    if game_id not in known:
        remembered = remembered_games().get(game_id)
        if remembered is not None and _opens(remembered, game_id):
            known[game_id] = remembered
        else:
            view = db.session.scalar(select(Game.view_token).where(Game.id == game_id))
            if view is None:
                raise LookupError(f"no game {game_id}")
            known[game_id] = view
    return known[game_id]


def _opens(token: str, game_id: int) -> bool:
    grant = resolve(token)
    return grant is not None and grant.game_id == game_id


def _opens_for_edit(token: str, game_id: int) -> bool:
    grant = resolve(token)
    return grant is not None and grant.game_id == game_id and grant.can_edit
