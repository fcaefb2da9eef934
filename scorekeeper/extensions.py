"""The Flask extensions, created here and bound to an app in ``create_app``."""

import sqlite3

from flask import has_request_context, request
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names, so that Alembic revisions can drop and alter them on SQLite too.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Language code -> the language's own name for itself, in the order the switch shows them.
SUPPORTED_LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "it": "Italiano",
    "de": "Deutsch",
    "ja": "日本語",
}
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()


@event.listens_for(Engine, "connect")
def _configure_sqlite(dbapi_connection, connection_record) -> None:
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


def select_locale() -> str:
    """The ``lang`` cookie when it names a supported language, else the browser's choice."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in SUPPORTED_LANGUAGES:
        return chosen
    return request.accept_languages.best_match(SUPPORTED_LANGUAGES, default=DEFAULT_LANGUAGE)
