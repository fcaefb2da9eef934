"""``flask --app scorekeeper db-upgrade-locked``: the migrations applied at a server's start,
one server at a time.

Every container of a deployment runs it before it serves. When several start at once on one
database, the first takes a lock and applies the migrations; the others wait for the lock, then
find the database at its head and apply nothing. PostgreSQL: an advisory lock, held by a
connection of its own for the whole upgrade (released by the server if the process dies).
SQLite: an exclusive ``flock`` on a file beside the database (released by the system if the
process dies); the servers share that folder, as they share the database.
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

import click
from flask.cli import with_appcontext
from flask_migrate import upgrade
from sqlalchemy import text
from sqlalchemy.engine import Engine

from scorekeeper.extensions import db
from scorekeeper.health.schema import applied_revisions

logger = logging.getLogger(__name__)

ADVISORY_LOCK_KEY = 0x5C0BE_4EE9E
"""The PostgreSQL advisory lock of the migrations: any number no other code of the database's
users locks."""
SQLITE_LOCK_SUFFIX = ".migrate-lock"
WAITING = "another server is applying the migrations: waiting for it"


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Held by one process at a time across every server on this database."""
    if engine.dialect.name == "postgresql":
        with _advisory_lock(engine):
            yield
    elif engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        with _file_lock(str(engine.url.database) + SQLITE_LOCK_SUFFIX):
            yield
    else:
        yield


@contextmanager
def _advisory_lock(engine: Engine) -> Iterator[None]:
    with engine.connect() as connection:
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        key = {"key": ADVISORY_LOCK_KEY}
        if not connection.execute(text("SELECT pg_try_advisory_lock(:key)"), key).scalar():
            logger.info(WAITING)
            connection.execute(text("SELECT pg_advisory_lock(:key)"), key)
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), key)


@contextmanager
def _file_lock(path: str) -> Iterator[None]:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.info(WAITING)
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
    finally:
        os.close(descriptor)


def upgrade_locked() -> frozenset[str]:
    """Apply the missing migrations under the lock; the revisions the database is then at."""
    engine = db.engine
    with migration_lock(engine):
        upgrade()
    with engine.connect() as connection:
        return applied_revisions(connection)


@click.command("db-upgrade-locked")
@with_appcontext
def db_upgrade_locked_command() -> None:
    """Apply the migrations, one server at a time (run by each server before it serves)."""
    revisions = upgrade_locked()
    click.echo("database at revision " + ", ".join(sorted(revisions)))
