"""The two capability tokens of a game: the view link's and the edit link's.

A token is 32 random bytes, URL-safe (43 characters). The database keeps the SHA-256 digest of
each, and the game is found by digest, so the secret itself is never compared in a query;
the role (view or edit) is then decided with ``hmac.compare_digest``. The edit token itself is
not stored at all: whoever holds the edit link has the only copy (this browser's session keeps
a few, so the list of games can link to them). The view token is stored too, because editors
are shown the view link to share.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from enum import StrEnum

from flask import g, has_request_context, session
from sqlalchemy import bindparam, inspect, or_, select
from sqlalchemy.orm import joinedload

from scorekeeper.extensions import db
from scorekeeper.games.models import Game

TOKEN_BYTES = 32
TOKEN_LENGTH = 43
TOKEN_RE = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}")
SESSION_KEY = "edit_links"
REMEMBERED_GAMES = 24
"""Edit links this browser's session remembers, newest first (the session cookie stays small)."""


class Role(StrEnum):
    VIEW = "view"
    EDIT = "edit"


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token from an address allows: which game, and whether it may be changed."""

    game_id: int
    role: Role
    token: str
    version: int
    """The game's version when the token was looked up."""
    game: Game | None = field(default=None, compare=False, repr=False)
    """The game itself when it was read with the token (``resolve(read_game=True)``); this
    reference also keeps it in the session, which holds its objects weakly."""

    @property
    def can_edit(self) -> bool:
        return self.role is Role.EDIT


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def is_token(text: str) -> bool:
    return TOKEN_RE.fullmatch(text) is not None


def issue_view_token(game: Game) -> str:
    token = new_token()
    game.view_token = token
    game.view_token_hash = digest(token)
    return token


def issue_edit_token(game: Game) -> str:
    """A new edit token for the game; the old one stops working. Returns the only copy."""
    token = new_token()
    game.edit_token_hash = digest(token)
    return token


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
        remember_edit_link(game_id, token)


# Built once: the look-up runs on nearly every request of a game, and most of all on polls.
_BY_DIGEST = or_(
    Game.edit_token_hash == bindparam("digest"), Game.view_token_hash == bindparam("digest")
)
_GRANT_BY_DIGEST = select(
    Game.id, Game.view_token_hash, Game.edit_token_hash, Game.version
).where(_BY_DIGEST)
_GAME_BY_DIGEST = select(Game).options(joinedload(Game.sides)).where(_BY_DIGEST)


def resolve(token: str, *, read_game: bool = False) -> Grant | None:
    """The game and role a token from an address opens, or None.

    With ``read_game``, the same query reads the whole game row and its sides into the session,
    so that loading the game afterwards (``games.service.load_game``) only reads its deals.
    """
    if not is_token(token):
        return None
    wanted = digest(token)
    game = None
    if read_game:
        game = db.session.scalars(_GAME_BY_DIGEST, {"digest": wanted}).unique().first()
        if game is None:
            return None
        row = (game.id, game.view_token_hash, game.edit_token_hash, game.version)
    else:
        row = db.session.connection().execute(_GRANT_BY_DIGEST, {"digest": wanted}).first()
        if row is None:
            return None
    game_id, view_hash, edit_hash, version = row
    if hmac.compare_digest(wanted, edit_hash):
        return Grant(game_id, Role.EDIT, token, version, game)
    if hmac.compare_digest(wanted, view_hash):
        return Grant(game_id, Role.VIEW, token, version, game)
    return None


def _remembered() -> list[tuple[int, str]]:
    """The (game id, edit token) pairs of the session, oldest first; anything odd is dropped."""
    pairs = []
    for item in session.get(SESSION_KEY, []):
        if (
            isinstance(item, list | tuple)
            and len(item) == 2
            and isinstance(item[0], int)
            and isinstance(item[1], str)
        ):
            pairs.append((item[0], item[1]))
    return pairs


def remember_edit_link(game_id: int, token: str) -> None:
    """Keep the edit token in this browser's (signed, HttpOnly) session cookie."""
    pairs = [pair for pair in _remembered() if pair[0] != game_id]
    pairs.append((game_id, token))
    session[SESSION_KEY] = [list(pair) for pair in pairs[-REMEMBERED_GAMES:]]


def forget_edit_link(game_id: int) -> None:
    pairs = _remembered()
    kept = [list(pair) for pair in pairs if pair[0] != game_id]
    if len(kept) != len(pairs):
        session[SESSION_KEY] = kept


def remembered_edit_tokens() -> dict[int, str]:
    """Game id -> the edit token this browser keeps for it (checked when used, not here)."""
    return dict(_remembered())
