"""The Flask extensions, created here and bound to an app in ``create_app``."""

from typing import TYPE_CHECKING

from flask import g, has_request_context, request
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, Table
from sqlalchemy.dialects import postgresql, sqlite
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
LANGUAGE_CHOSEN = "language_chosen"
"""Set in ``g`` once a request's language is chosen: its answer varies with it (``caching``)."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
"""The base class of every model. At run time it is ``db.Model``, which Flask-SQLAlchemy makes
from ``Base`` and its own mixins; a type checker sees only an attribute there, not a class it
can subclass, so it reads the declarative ``Base`` the mapping comes from."""


def table_of(model: type[Base]) -> Table:
    """The table a model is mapped to. SQLAlchemy types ``__table__`` as any FROM clause; a
    model of ours always has a table of its own."""
    table = model.__table__
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not mapped to a table of its own")
    return table


migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()


def insert_into(dialect: str, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT in the database's own dialect (``dialect``: its name), which can say what to do
    with a row already there (``on_conflict_do_nothing``, ``on_conflict_do_update``): the
    app runs on PostgreSQL and SQLite, which both can."""
    if dialect == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def select_locale() -> str:
    """The ``lang`` cookie when it names a supported language, else the browser's choice."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    setattr(g, LANGUAGE_CHOSEN, True)
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in SUPPORTED_LANGUAGES:
        return chosen
    return request.accept_languages.best_match(SUPPORTED_LANGUAGES, default=DEFAULT_LANGUAGE)
