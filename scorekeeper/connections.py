"""How the app uses its database connections.

SQLite: every connection checks foreign keys and writes through the write-ahead log.

PostgreSQL, where every round trip to the server counts once many phones share it:

- A pooled connection is tested with a ping before use only when it has been idle for a while
  (``DATABASE_PING_AFTER_IDLE_SECONDS``): that is when a server or a firewall drops it. A
  connection that failed its ping is replaced before the request uses it. A busy worker reuses
  its connection within milliseconds, and pays no ping.
- A GET or HEAD request only reads. Its queries run without BEGIN and ROLLBACK: under READ
  COMMITTED each statement sees its own snapshot in a transaction too, so they read the same.
  A flush in such a request is refused (``ReadOnlyRequest``): a page that wrote would write
  without a transaction.
- A view marked ``writes_in_one_statement`` (the deal form's save) reads, then writes with a
  single statement, which is atomic by itself: it too runs without BEGIN and COMMIT. An ORM
  flush, which may take several statements, is refused in it on every database
  (``SeveralStatementWrite``), so that what holds on SQLite's transaction holds here too.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, TypeVar

from flask import Config, Flask, current_app, has_request_context, request
from sqlalchemy import event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from scorekeeper.extensions import db

PING_AFTER_IDLE_SECONDS = 10.0
READING_METHODS = frozenset({"GET", "HEAD"})
_LAST_USED = "scorekeeper_last_used"
_LENT_IN_AUTOCOMMIT = "scorekeeper_lent_in_autocommit"
_ONE_STATEMENT = "scorekeeper_writes_in_one_statement"

F = TypeVar("F")


class ReadOnlyRequest(RuntimeError):
    """A GET or HEAD request tried to write to the database."""


class SeveralStatementWrite(RuntimeError):
    """A view marked ``writes_in_one_statement`` tried an ORM flush."""


def writes_in_one_statement(view: F) -> F:
    """Mark a view whose only write to the database is one statement (see the module's
    docstring). It goes below the route decorator; ``functools.wraps`` carries the mark
    through other decorators."""
    setattr(view, _ONE_STATEMENT, True)
    return view


def _configure_sqlite(dbapi_connection: Any, connection_record: Any) -> None:
    """Foreign keys checked and the write-ahead log on, for every SQLite connection.

    SQLite leaves foreign keys unchecked unless each connection asks. The write-ahead log lets
    readers go on while a deal is saved, and a process killed mid-write leaves the last
    committed state; ``synchronous`` stays FULL, so each commit is on disk before it returns.
    The journal mode is kept in the database file: setting it again is a no-op.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()


def init_app(app: Flask) -> None:
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _configure_sqlite)
    if engine.dialect.name == "postgresql":
        _watch_postgresql_pool(engine, app.config)
    if not event.contains(db.session, "before_flush", _refuse_flush_outside_transaction):
        event.listen(db.session, "before_flush", _refuse_flush_outside_transaction)


def reading_request() -> bool:
    return has_request_context() and request.method in READING_METHODS


def one_statement_request() -> bool:
    """Whether the current request's view is marked ``writes_in_one_statement``."""
    if not has_request_context() or request.endpoint is None:
        return False
    view = current_app.view_functions.get(request.endpoint)
    return getattr(view, _ONE_STATEMENT, False)


def _watch_postgresql_pool(engine: Engine, config: Config) -> None:
    dialect = engine.dialect

    def connected(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[_LAST_USED] = time.monotonic()

    def checked_out(
        dbapi_connection: Any, record: ConnectionPoolEntry, proxy: PoolProxiedConnection
    ) -> None:
        ping_after_idle = config.get("DATABASE_PING_AFTER_IDLE_SECONDS", PING_AFTER_IDLE_SECONDS)
        if time.monotonic() - record.info.get(_LAST_USED, 0.0) > ping_after_idle:
            try:
                dialect.do_ping(dbapi_connection)
            except dialect.loaded_dbapi.Error as error:
                # The pool drops this connection and hands out a new one.
                raise exc.DisconnectionError("the idle connection no longer answers") from error
        if reading_request() or one_statement_request():
            dbapi_connection.autocommit = True
            record.info[_LENT_IN_AUTOCOMMIT] = True

    def checked_in(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[_LAST_USED] = time.monotonic()
        lent_in_autocommit = record.info.pop(_LENT_IN_AUTOCOMMIT, False)
        # A connection found dead comes back invalidated: without its DBAPI connection.
        if lent_in_autocommit and dbapi_connection is not None and not dbapi_connection.closed:
            dbapi_connection.autocommit = False

    event.listen(engine, "connect", connected)
    event.listen(engine, "checkout", checked_out)
    event.listen(engine, "checkin", checked_in)


def _refuse_flush_outside_transaction(session: Session, flush_context: Any, instances: Any) -> None:
    if not (session.new or session.dirty or session.deleted):
        return
    if reading_request():
        raise ReadOnlyRequest(f"a {request.method} request may not write to the database")
    if one_statement_request():
        raise SeveralStatementWrite(
            f"{request.endpoint} writes in one statement, not with the ORM's flush"
        )
