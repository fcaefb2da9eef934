"""The two capability tokens of a game: the view link's and the edit link's.

Tokens are made and compared as ``scorekeeper.capabilities`` says. The edit token is not stored
at all: whoever holds the edit link has the only copy (this browser's encrypted session keeps
the links it has used, ``scorekeeper.keyring``, so the list of games can link to them). The
view token is stored too, because editors are shown the view link to share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from flask import g, has_request_context
from sqlalchemy import Row, bindparam, inspect, or_, select
from sqlalchemy.orm import joinedload

from scorekeeper.capabilities import (
    Role,
    digest,
    is_token,
    issue_edit_token,
    issue_view_token,
    role_of,
)
from scorekeeper.extensions import db
from scorekeeper.keyring import remember_game
from scorekeeper.store.games import Game
from scorekeeper.store.tables import CardTable


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token from an address allows: which game, and whether it may be changed."""

    game_id: int
    role: Role
    token: str
    version: int
    """The game's version when the token was looked up."""
    table_id: int | None = None
    """The card table that owns the game, if any."""
    by_table: bool = False
    """Whether the edit role comes from the table's edit link, the address being the view
    link's."""
    game: Game | None = field(default=None, compare=False, repr=False)
    """The game itself when it was read with the token (``resolve(read_game=True)``); this
    reference also keeps it in the session, which holds its objects weakly."""

    @property
    def can_edit(self) -> bool:
        return self.role is Role.EDIT

    def upgraded(self) -> Grant:
        """The same grant with the edit role (its table's edit link opens the game too)."""
        return Grant(
            self.game_id, Role.EDIT, self.token, self.version, self.table_id, True, self.game
        )


def issue_tokens(game: Game) -> str:
    """Both tokens of a new game; returns the edit token.

    In a request, the game is also noted as made by this browser: once committed, its edit
    link goes into the session (``remember_new_games``) and ``url_for`` links to it.
    """
    issue_view_token(game)
    token = issue_edit_token(game)
    if has_request_context():
        g.setdefault("new_games", []).append((game, token))
    return token


def new_game_tokens() -> dict[int, str]:
    """Game id -> edit token of the games this request made and committed."""
    made = {}
    for game, token in g.get("new_games", []):
        state = inspect(game)
        if state.persistent and not state.deleted and game.id is not None:
            made[game.id] = token
    return made


def remember_new_games() -> None:
    for game_id, token in new_game_tokens().items():
        remember_game(game_id, token)


# Built once: the look-up runs on nearly every request of a game, and most of all on polls.
_BY_DIGEST = or_(
    Game.edit_token_hash == bindparam("digest"), Game.view_token_hash == bindparam("digest")
)
_GRANT_BY_DIGEST = select(
    Game.id, Game.view_token_hash, Game.edit_token_hash, Game.version, Game.table_id
).where(_BY_DIGEST)
_GAME_BY_DIGEST = select(Game).options(joinedload(Game.sides)).where(_BY_DIGEST)


def resolve(token: str, *, read_game: bool = False) -> Grant | None:
    """The game and role a token from an address opens, or None.

    With ``read_game``, the same query reads the whole game row and its sides into the session,
    so that loading the game afterwards (``store.game_service.load_game``) only reads its deals.
    """
    if not is_token(token):
        return None
    wanted = digest(token)
    game = None
    row: tuple[int, str, str, int, int | None] | Row[int, str, str, int, int | None] | None
    if read_game:
        game = db.session.scalars(_GAME_BY_DIGEST, {"digest": wanted}).unique().first()
        if game is None:
            return None
        row = (game.id, game.view_token_hash, game.edit_token_hash, game.version, game.table_id)
    else:
        row = db.session.connection().execute(_GRANT_BY_DIGEST, {"digest": wanted}).first()
        if row is None:
            return None
    game_id, view_hash, edit_hash, version, table_id = row
    role = role_of(wanted, view_hash, edit_hash)
    if role is None:
        return None
    return Grant(game_id, role, token, version, table_id, game=game)


Linked = TypeVar("Linked", CardTable, Game)
"""A row that has view and edit links."""


def renew_edit_token(model: type[Linked], row_id: int) -> str | None:
    """A new edit token for the game or card table (its old one stops working), or None when
    there is no such row."""
    row = db.session.get(model, row_id)
    if row is None:
        return None
    token = issue_edit_token(row)
    db.session.commit()
    return token
