"""Every change to a game's deals as the database sees it: a deal saved (new or edited) or
deleted, and a game deleted. Each writes the deal, its sides and the game's version together
or not at all, and is the only place that counts the game's version for it.

Nothing is read first: the writes check the version themselves. An edit or a deletion changes
the deal only while it is at the version the form was made from; a new deal cannot be added
twice. Either refusal raises ``DealChanged`` (the caller rolls back).

A deal's version is the game's version its save was made on, read under the game's lock: the
game's version grows with every change, so a deal's versions never repeat, not even for a deal
deleted and entered again. An edit made on a version of the deal from before it was deleted
(a queued offline save, an old tab) can then never be taken for an edit of the new one.

One lock order: every change locks the game's row first, then the deal's. Two changes of the
same game (a save and a deletion of one deal, a save and the game's deletion) then wait for
each other; locked in opposite orders they would deadlock, and one of them fail.

On PostgreSQL a save is one statement (the game's lock, the deal's write, then its sides and
the game's version in the same WITH), which is atomic by itself: the save needs no transaction
around it (``connections.writes_in_one_statement``), and costs one round trip to the server.
SQLite has no writes inside WITH: there the save is three statements in the request's
transaction, the game's version first.

Every change also writes the game's stored summary (``summary_writes``) with it: a save in the
same statement or transaction, from the deals read before it; a deletion or an undo in its
transaction, after it. So does the game's part in its table's statistics
(``table_statistics.follow``) when the change touches a finished game (or finishes one): on
PostgreSQL such a save is not the one statement but the statements SQLite runs, in a
transaction of their own when the request has none (a save answered in one statement).
The one statement writes only while the game is at the version its deals were read at, so
that what it skipped of the statistics still holds; else the save is made the other way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import sqlalchemy
from sqlalchemy import (
    Connection,
    Select,
    bindparam,
    delete,
    exists,
    func,
    literal,
    select,
    true,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db, table_of
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry
from scorekeeper.store.games import Deal, DealSide, Game, utcnow
from scorekeeper.store.summary_writes import (
    read_states,
    refresh_summaries,
    store_summaries,
    summary_upsert,
    summary_values,
)
from scorekeeper.store.table_statistics import counts, follow, game_rows

_GAMES = table_of(Game)
_DEALS = table_of(Deal)
_DEAL_SIDES = table_of(DealSide)

# The parameters of a save. Their names differ from the columns': in an UPDATE, SQLAlchemy
# takes a parameter named like a column for a value to SET.
_GAME = bindparam("of_game", type_=_DEALS.c.game_id.type)
_NUMBER = bindparam("deal_number", type_=_DEALS.c.number.type)
_BASED_ON = bindparam("based_on", type_=_DEALS.c.version.type)
_RAN_OUT = bindparam("ran_out", type_=_DEALS.c.stock_ran_out.type)
_NOW = bindparam("now", type_=_DEALS.c.updated_at.type)
_SIDE_COLUMNS = ("position", *SIDE_FIELDS)
"""A side's row: its place at the table, then what was entered for it."""
_SAVED_ON = bindparam("saved_on", type_=_DEALS.c.version.type)
_SUMMARY_READ_AT = bindparam("summary_read_at", type_=_GAMES.c.version.type)
"""The game's version the deals its summary is made of were read at."""
"""The game's version a save is made on: the deal's version once saved."""
_NEW_DEAL = {
    "game_id": _GAME,
    "number": _NUMBER,
    "version": _SAVED_ON,
    "stock_ran_out": _RAN_OUT,
    "created_at": _NOW,
    "updated_at": _NOW,
}


ANY_VERSION = -1
"""``game_at`` of a change that holds whatever the game's version (the pages': they check the
deal's version only)."""
_GAME_AT = bindparam("game_at", type_=_GAMES.c.version.type)
"""The game's version a change must find (an API client's If-Match), or ``ANY_VERSION``."""


def _game_is_at() -> sqlalchemy.ColumnElement[bool]:
    return sqlalchemy.or_(_GAME_AT < 0, _GAMES.c.version == _GAME_AT)


class DealChanged(Exception):
    """The deal is not at the version a change was made from: another phone changed or deleted
    it first (or deleted the game)."""


class GameChanged(Exception):
    """The game is not at the version its deletion was made from, or is gone already."""


def write_deal(game: Game, entry: DealEntry, based_on: int, game_at: int = ANY_VERSION) -> None:
    """Store ``entry`` as deal ``entry.deal`` of the game, made from version ``based_on`` of
    that deal (0: not saved yet) while the game is at version ``game_at`` (any by default), or
    raise ``DealChanged``. The caller commits.

    The game's summary is made from the deals stored and this one, and written with the deal
    (``summary_writes``)."""
    connection = db.session.connection()
    values: dict[str, Any] = {
        "game_at": game_at,
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
        if connection.dialect.name == "postgresql" and _in_one_statement(
            connection, values, sides, entry
        ):
            return
        with _transaction(connection):
            if not _statement_by_statement(connection, values, sides, entry):
                raise DealChanged
    except IntegrityError as error:  # the deal was added meanwhile, or the game deleted
        raise DealChanged from error


@contextmanager
def _transaction(connection: Connection) -> Iterator[None]:
    """A transaction around the statements of a save, where the request's connection has
    none (a PostgreSQL connection in autocommit: ``connections.writes_in_one_statement``);
    rolled back when the save is refused."""
    raw = connection.connection.driver_connection
    in_autocommit = connection.dialect.name == "postgresql" and getattr(raw, "autocommit", False)
    with raw.transaction() if in_autocommit else nullcontext():  # type: ignore[union-attr]
        yield


# --- PostgreSQL: one statement -------------------------------------------------------------


def _in_one_statement(
    connection: Connection, values: dict[str, Any], sides: list[dict[str, Any]], entry: DealEntry
) -> bool:
    """Whether the deal was written in one statement. Its game's summary is made before, from
    the deals read then, and written by the same statement, which writes nothing unless the
    game is still at the version read with them. Not tried (False) when the save changes what
    the table's statistics count: the caller then saves statement by statement."""
    game_id = values["of_game"]
    before = read_states(connection, [game_id]).get(game_id)
    if before is None:  # the game is gone: the other way says so
        return False
    after = before.summary_after(entry)
    if counts(before.summary_after(), after):
        return False
    summary = summary_values(game_id, before.version + 1, after)
    statement = _ADD_IN_ONE if values["based_on"] == 0 else _EDIT_IN_ONE
    columns = {f"side_{name}": [side[name] for side in sides] for name in _SIDE_COLUMNS}
    parameters = {**values, **columns, **summary, "summary_read_at": before.version}
    row = connection.execute(statement, parameters).first()
    if row is None:
        return False
    if not row.summarized:
        refresh_summaries([game_id])
    return True


def _one_statement(*, new: bool) -> Select[tuple[int, int]]:
    """WITH written (the deal's row), its sides, the game's version, the game's summary:
    SELECT the deal's id, and whether the summary was written.

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
    locked = _game_locked().where(_GAMES.c.version == _SUMMARY_READ_AT).cte("locked")
    if new:
        row = {**_NEW_DEAL, "game_id": locked.c.id, "version": locked.c.version}
        written = (
            postgresql.insert(_DEALS)
            .from_select(list(row), select(*(_as_value(v) for v in row.values())))
            .on_conflict_do_nothing(index_elements=[_DEALS.c.game_id, _DEALS.c.number])
            .returning(_DEALS.c.id)
            .cte("written")
        )
        rows = select(written.c.id, *(entered.c[name] for name in _SIDE_COLUMNS))
        sides: sqlalchemy.Insert | sqlalchemy.Update = _DEAL_SIDES.insert().from_select(
            ["deal_id", *_SIDE_COLUMNS], rows.select_from(written.join(entered, true()))
        )
    else:
        written = _edited_deal(select(locked.c.version).scalar_subquery()).cte("written")
        sides = (
            update(_DEAL_SIDES)
            .where(
                _DEAL_SIDES.c.deal_id == written.c.id,
                _DEAL_SIDES.c.position == entered.c.position,
            )
            .values({name: entered.c[name] for name in SIDE_FIELDS})
        )
    game = _game_changed().where(exists(select(written.c.id))).cte("game_changed")
    # The version the game's update found: the summary is of the deals read at that version.
    summary = (
        summary_upsert("postgresql", game.c.saved_on + 1, game.c.saved_on == _SUMMARY_READ_AT)
        .returning(literal(1).label("one"))
        .cte("summary_written")
    )
    summarized = select(func.count()).select_from(summary).scalar_subquery()
    return select(written.c.id, summarized.label("summarized")).add_cte(
        locked, written, sides.cte("sides"), game, summary
    )


def _as_value(value: object) -> Any:
    return value if isinstance(value, sqlalchemy.ColumnElement) else literal(value)


def _game_locked() -> Select[tuple[int, int]]:
    """The game's row, locked as an UPDATE of it would (see the module's docstring), with the
    version the save is made on: read once the lock is held, it is the newest."""
    return (
        select(_GAMES.c.id, _GAMES.c.version)
        .where(_GAMES.c.id == _GAME, _game_is_at())
        .with_for_update(key_share=True)
    )


def _edited_deal(saved_on: sqlalchemy.ColumnElement[int]) -> sqlalchemy.Update:
    """The deal's row at version ``saved_on``, while it is at the version the form was made
    from; returns the deal's id. A NULL ``saved_on`` (no game) matches no row."""
    return (
        update(_DEALS)
        .where(
            _DEALS.c.game_id == _GAME,
            _DEALS.c.number == _NUMBER,
            _DEALS.c.version == _BASED_ON,
            saved_on.is_not(None),
        )
        .values(version=saved_on, stock_ran_out=_RAN_OUT, updated_at=_NOW)
        .returning(_DEALS.c.id)
    )


def _game_changed() -> sqlalchemy.Update:
    """One more version of the game, counted by the database (two saves at once both count);
    returns the version the change was made on."""
    return (
        update(_GAMES)
        .where(_GAMES.c.id == _GAME, _game_is_at())
        .values(version=_GAMES.c.version + 1, updated_at=_NOW)
        .returning((_GAMES.c.version - 1).label("saved_on"))
    )


_ADD_IN_ONE = _one_statement(new=True)
_EDIT_IN_ONE = _one_statement(new=False)


# --- elsewhere: statement by statement, in the request's transaction ----------------------


_ADD_DEAL = _DEALS.insert().values(_NEW_DEAL).returning(_DEALS.c.id)
_EDIT_DEAL = _edited_deal(_SAVED_ON)
_ADD_SIDE = _DEAL_SIDES.insert()
_EDIT_SIDE = update(_DEAL_SIDES).where(
    _DEAL_SIDES.c.deal_id == bindparam("of_deal"), _DEAL_SIDES.c.position == bindparam("at")
)
_GAME_CHANGED = _game_changed()


def _statement_by_statement(
    connection: Connection, values: dict[str, Any], sides: list[dict[str, Any]], entry: DealEntry
) -> bool:
    """The game's version first (which locks the game), then the deal and the game's summary,
    made from the deals read under that lock: the caller rolls the version back with
    everything else when the deal's write is refused."""
    saved_on = connection.execute(_GAME_CHANGED, values).scalar_one_or_none()
    if saved_on is None:
        return False
    game_id = values["of_game"]
    before = read_states(connection, [game_id])[game_id]
    was, now = before.summary_after(), before.summary_after(entry)
    summary = summary_values(game_id, before.version, now)
    values = {**values, "saved_on": saved_on}
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
    store_summaries(connection, [summary])
    if counts(was, now):
        game = game_rows(connection, [game_id])[game_id]
        follow(connection, [(game.part(was), game.part(now))])
    return True


# --- deleting, in the request's transaction on every database -----------------------------


_DELETE_DEAL = (
    delete(_DEALS)
    .where(_DEALS.c.game_id == _GAME, _DEALS.c.number == _NUMBER, _DEALS.c.version == _BASED_ON)
    .returning(_DEALS.c.id)
)
_DELETE_GAME = (
    delete(_GAMES).where(_GAMES.c.id == _GAME, _GAMES.c.version == _BASED_ON).returning(_GAMES.c.id)
)


def delete_deal(game_id: int, number: int, based_on: int, game_at: int = ANY_VERSION) -> None:
    """Delete deal ``number`` of the game while it is at version ``based_on`` and the game at
    ``game_at`` (any by default), or raise ``DealChanged``: the caller then rolls back (the
    game's version was counted first)."""
    connection = db.session.connection()
    values = {
        "game_at": game_at,
        "of_game": game_id,
        "deal_number": number,
        "based_on": based_on,
        "now": utcnow(),
    }
    if connection.execute(_GAME_CHANGED, values).first() is None:
        raise DealChanged
    was = _summary_now(connection, game_id)
    if connection.execute(_DELETE_DEAL, values).first() is None:
        raise DealChanged
    _follow_refresh(connection, game_id, was)


_UNDONE_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == _GAME, _GAMES.c.version == _BASED_ON)
    .values(version=_GAMES.c.version + 1, updated_at=_NOW)
)
_UNDONE_DEAL = (
    delete(_DEALS)
    .where(
        _DEALS.c.game_id == _GAME,
        _DEALS.c.number == _NUMBER,
        _DEALS.c.version == bindparam("deal_version", type_=_DEALS.c.version.type),
    )
    .returning(_DEALS.c.id)
)


def undo_deal(game_id: int, number: int, game_version: int, deal_version: int) -> None:
    """Delete the deal just saved while the game is still at ``game_version`` and the deal at
    ``deal_version`` (nothing changed since the save), or raise ``GameChanged``: the caller
    then rolls back."""
    connection = db.session.connection()
    values = {
        "of_game": game_id,
        "deal_number": number,
        "based_on": game_version,
        "deal_version": deal_version,
        "now": utcnow(),
    }
    if connection.execute(_UNDONE_GAME, values).rowcount == 0:
        raise GameChanged
    was = _summary_now(connection, game_id)
    if connection.execute(_UNDONE_DEAL, values).first() is None:
        raise GameChanged
    _follow_refresh(connection, game_id, was)


def _summary_now(connection: Connection, game_id: int) -> list[Any] | None:
    """The game's summary made from its deals as this transaction sees them (under the game's
    lock, taken by the change's first write)."""
    state = read_states(connection, [game_id]).get(game_id)
    return None if state is None else state.summary_after()


def _follow_refresh(connection: Connection, game_id: int, was: list[Any] | None) -> None:
    """After a deal's deletion: the game's summary written again, and its table's statistics
    changed with it."""
    now = refresh_summaries([game_id]).get(game_id)
    if counts(was, now):
        game = game_rows(connection, [game_id]).get(game_id)
        if game is not None:
            before = None if was is None else game.part(was)
            follow(connection, [(before, None if now is None else game.part(now))])


def delete_game(game_id: int, based_on: int) -> None:
    """Delete the game, its sides and its deals (the foreign keys cascade, after the game's
    row is locked) while it is at version ``based_on``, or raise ``GameChanged``."""
    connection = db.session.connection()
    locked = connection.execute(
        select(_GAMES.c.id)
        .where(_GAMES.c.id == game_id, _GAMES.c.version == based_on)
        .with_for_update()
    ).first()
    if locked is None:
        raise GameChanged
    was = _summary_now(connection, game_id)
    game = game_rows(connection, [game_id]).get(game_id)
    if connection.execute(_DELETE_GAME, {"of_game": game_id, "based_on": based_on}).first() is None:
        raise GameChanged
    if game is not None and was is not None:
        follow(connection, [(game.part(was), None)])
