"""A deal save as the database sees it: the deal, its sides and the game's version, written
together or not at all.

Nothing is read first: the writes check the version themselves. An edit changes the deal only
while it is at the version the form was made from; a new deal cannot be added twice. Either
refusal raises ``DealChanged``.

On PostgreSQL the whole save is one statement (the deal's write, then its sides and the game's
version in the same WITH), which is atomic by itself: the save needs no transaction around it
(``connections.writes_in_one_statement``), and costs one round trip to the server. SQLite has
no writes inside WITH: there the save is three statements in the request's transaction.
"""

from __future__ import annotations

from typing import Any, cast

import sqlalchemy
from sqlalchemy import Connection, Select, bindparam, exists, func, select, true, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry

from .models import Deal, DealSide, Game, utcnow

_GAMES = cast(sqlalchemy.Table, Game.__table__)
_DEALS = cast(sqlalchemy.Table, Deal.__table__)
_DEAL_SIDES = cast(sqlalchemy.Table, DealSide.__table__)

# The parameters of a save. Their names differ from the columns': in an UPDATE, SQLAlchemy
# takes a parameter named like a column for a value to SET.
_GAME = bindparam("of_game", type_=_DEALS.c.game_id.type)
_NUMBER = bindparam("deal_number", type_=_DEALS.c.number.type)
_BASED_ON = bindparam("based_on", type_=_DEALS.c.version.type)
_RAN_OUT = bindparam("ran_out", type_=_DEALS.c.stock_ran_out.type)
_NOW = bindparam("now", type_=_DEALS.c.updated_at.type)
_SIDE_COLUMNS = ("position", *SIDE_FIELDS)
"""A side's row: its place at the table, then what was entered for it."""
_NEW_DEAL = {
    "game_id": _GAME,
    "number": _NUMBER,
    "version": 1,
    "stock_ran_out": _RAN_OUT,
    "created_at": _NOW,
    "updated_at": _NOW,
}


class DealChanged(Exception):
    """The deal is not at the version a save was made from: another phone saved it first."""


def write_deal(game: Game, entry: DealEntry, based_on: int) -> None:
    """Store ``entry`` as deal ``entry.deal`` of the game, made from version ``based_on`` of
    that deal (0: not saved yet), or raise ``DealChanged``. The caller commits."""
    connection = db.session.connection()
    values: dict[str, Any] = {
        "of_game": game.id,
        "deal_number": entry.deal,
        "based_on": based_on,
        "ran_out": entry.stock_ran_out,
        "now": utcnow(),
    }
    sides = [
        {"position": position, **{name: getattr(side, name) for name in SIDE_FIELDS}}
        for position, side in enumerate(entry.sides)
    ]
    try:
        if connection.dialect.name == "postgresql":
            written = _in_one_statement(connection, values, sides)
        else:
            written = _statement_by_statement(connection, values, sides)
    except IntegrityError as error:  # the deal was added meanwhile, or the game deleted
        raise DealChanged from error
    if not written:
        raise DealChanged


# --- PostgreSQL: one statement -------------------------------------------------------------


def _in_one_statement(
    connection: Connection, values: dict[str, Any], sides: list[dict[str, Any]]
) -> bool:
    statement = _ADD_IN_ONE if values["based_on"] == 0 else _EDIT_IN_ONE
    columns = {f"side_{name}": [side[name] for side in sides] for name in _SIDE_COLUMNS}
    return connection.execute(statement, {**values, **columns}).first() is not None


def _one_statement(*, new: bool) -> Select[tuple[int]]:
    """WITH written (the deal's row), its sides, the game's version: SELECT the deal's id.

    The sides come as one array a column, made into rows by ``unnest``: one statement, cached
    once, serves any number of sides. The sides and the game are written only where the deal's
    own write happened (an edit at a stale version, or a deal added twice, writes nothing).
    """
    entered = (
        func.unnest(
            *(
                bindparam(f"side_{name}", type_=postgresql.ARRAY(_DEAL_SIDES.c[name].type))
                for name in _SIDE_COLUMNS
            )
        )
        .table_valued(*_SIDE_COLUMNS, name="entered")
        .render_derived()
    )
    if new:
        written = (
            postgresql.insert(_DEALS)
            .values(_NEW_DEAL)
            .on_conflict_do_nothing(index_elements=[_DEALS.c.game_id, _DEALS.c.number])
            .returning(_DEALS.c.id)
            .cte("written")
        )
        rows = select(written.c.id, *(entered.c[name] for name in _SIDE_COLUMNS))
        sides: sqlalchemy.Insert | sqlalchemy.Update = _DEAL_SIDES.insert().from_select(
            ["deal_id", *_SIDE_COLUMNS], rows.select_from(written.join(entered, true()))
        )
    else:
        written = _edited_deal().cte("written")
        sides = (
            update(_DEAL_SIDES)
            .where(
                _DEAL_SIDES.c.deal_id == written.c.id,
                _DEAL_SIDES.c.position == entered.c.position,
            )
            .values({name: entered.c[name] for name in SIDE_FIELDS})
        )
    game = _game_changed().where(exists(select(written.c.id)))
    return select(written.c.id).add_cte(sides.cte("sides"), game.cte("game_changed"))


def _edited_deal() -> sqlalchemy.Update:
    """The deal's row at its next version, while it is at the version the form was made from;
    returns the deal's id."""
    return (
        update(_DEALS)
        .where(
            _DEALS.c.game_id == _GAME, _DEALS.c.number == _NUMBER, _DEALS.c.version == _BASED_ON
        )
        .values(version=_BASED_ON + 1, stock_ran_out=_RAN_OUT, updated_at=_NOW)
        .returning(_DEALS.c.id)
    )


def _game_changed() -> sqlalchemy.Update:
    """One more version of the game, counted by the database (two saves at once both count)."""
    return (
        update(_GAMES)
        .where(_GAMES.c.id == _GAME)
        .values(version=_GAMES.c.version + 1, updated_at=_NOW)
    )


_ADD_IN_ONE = _one_statement(new=True)
_EDIT_IN_ONE = _one_statement(new=False)


# --- elsewhere: statement by statement, in the request's transaction ----------------------


_ADD_DEAL = _DEALS.insert().values(_NEW_DEAL).returning(_DEALS.c.id)
_EDIT_DEAL = _edited_deal()
_ADD_SIDE = _DEAL_SIDES.insert()
_EDIT_SIDE = update(_DEAL_SIDES).where(
    _DEAL_SIDES.c.deal_id == bindparam("of_deal"), _DEAL_SIDES.c.position == bindparam("at")
)
_GAME_CHANGED = _game_changed()


def _statement_by_statement(
    connection: Connection, values: dict[str, Any], sides: list[dict[str, Any]]
) -> bool:
    if values["based_on"] == 0:
        deal_id = connection.execute(_ADD_DEAL, values).scalar_one()
        connection.execute(_ADD_SIDE, [{"deal_id": deal_id, **side} for side in sides])
    else:
        deal_id = connection.execute(_EDIT_DEAL, values).scalar_one_or_none()
        if deal_id is None:
            return False
        rows = [
            {"of_deal": deal_id, "at": side["position"], **{n: side[n] for n in SIDE_FIELDS}}
            for side in sides
        ]
        connection.execute(_EDIT_SIDE, rows)
    connection.execute(_GAME_CHANGED, values)
    return True
