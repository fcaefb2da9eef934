"""The database's schema revision against the migrations the app ships with.

The head revisions are read once from the migration scripts; a readiness check then costs one
query, the database's ``alembic_version``.
"""

from __future__ import annotations

from functools import lru_cache

from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy import text
from sqlalchemy.engine import Connection


def migrations_folder() -> str:
    """The folder of the app's migrations, as Flask-Migrate knows it."""
    return str(current_app.extensions["migrate"].directory)


@lru_cache(maxsize=4)
def head_revisions(folder: str) -> frozenset[str]:
    """The revisions at the head of the migrations in ``folder``."""
    return frozenset(ScriptDirectory(folder).get_heads())


def applied_revisions(connection: Connection) -> frozenset[str]:
    """The revisions the database is at; empty when no migration was ever applied."""
    if not connection.dialect.has_table(connection, "alembic_version"):
        return frozenset()
    rows = connection.execute(text("SELECT version_num FROM alembic_version"))
    return frozenset(row[0] for row in rows)


def missing_migrations(connection: Connection) -> bool:
    """Whether the database is at another revision than the migrations' head."""
    return applied_revisions(connection) != head_revisions(migrations_folder())
