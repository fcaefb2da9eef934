"""What this browser holds: the card tables and games whose links it keeps, checked against the
database once a request.

Everything a stranger could list (the list of games, the exports, the games API, house rules,
the variants offered) is drawn from here, so a browser sees only what it was given a link to:
a card table's games and house rules through that table's link, a game through its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from flask import g
from sqlalchemy import or_, select

from scorekeeper.capabilities import Role, digest, is_token, role_of
from scorekeeper.extensions import db
from scorekeeper.keyring import (
    forget_game,
    forget_table,
    remembered_games,
    remembered_tables,
)
from scorekeeper.store.game_service import Place, games_newest_first
from scorekeeper.store.games import Game
from scorekeeper.store.tables import CardTable


@dataclass(frozen=True, slots=True)
class HeldTable:
    table: CardTable
    role: Role
    token: str

    @property
    def can_edit(self) -> bool:
        return self.role is Role.EDIT


Row = TypeVar("Row", Game, CardTable)


def _opened(model: type[Row], tokens: dict[int, str]) -> dict[int, tuple[Row, Role]]:
    """Row id -> the row and the role its remembered token opens, in one query."""
    wanted = {row_id: digest(token) for row_id, token in tokens.items() if is_token(token)}
    if not wanted:
        return {}
    digests = list(wanted.values())
    query = select(model).where(
        model.id.in_(wanted),
        or_(model.view_token_hash.in_(digests), model.edit_token_hash.in_(digests)),
    )
    opened = {}
    for row in db.session.scalars(query):
        role = role_of(wanted[row.id], row.view_token_hash, row.edit_token_hash)
        if role is not None:
            opened[row.id] = (row, role)
    return opened


def held_tables() -> dict[int, HeldTable]:
    """Card table id -> what this browser holds of it, newest first; read once a request."""
    held: dict[int, HeldTable] | None = g.get("held_tables")
    if held is None:
        tokens = remembered_tables()
        opened = _opened(CardTable, tokens)
        for table_id in tokens.keys() - opened.keys():
            forget_table(table_id)
        held = {
            table_id: HeldTable(*opened[table_id], tokens[table_id])
            for table_id in reversed(list(tokens))
            if table_id in opened
        }
        g.held_tables = held
    return held


def forget_held_tables() -> None:
    """Read the tables again (one was joined or made in this request)."""
    g.pop("held_tables", None)


def table_role(table_id: int | None) -> Role | None:
    if table_id is None:
        return None
    held = held_tables().get(table_id)
    return held.role if held is not None else None


def editable_tables() -> list[CardTable]:
    """The card tables this browser may add games and rules to, newest first."""
    return [held.table for held in held_tables().values() if held.can_edit]


def held_game_ids() -> set[int]:
    """Games this browser keeps a link of its own to (not through a card table)."""
    tokens = remembered_games()
    opened = _opened(Game, tokens)
    for game_id in tokens.keys() - opened.keys():
        forget_game(game_id)
    return set(opened)


def visible_games(*, after: Place | None = None, limit: int | None = None) -> list[Game]:
    """Every game this browser holds, through a card table or its own link, newest first,
    with sides and deals loaded; ``after`` and ``limit`` make a page of them."""
    game_ids = held_game_ids()
    table_ids = list(held_tables())
    if not game_ids and not table_ids:
        return []
    held = or_(Game.id.in_(game_ids), Game.table_id.in_(table_ids))
    return games_newest_first(held, after=after, limit=limit)
