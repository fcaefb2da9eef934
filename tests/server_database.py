"""The PostgreSQL database of a test run, shared by the fixtures and the tests that need its
address (a module of its own, so that every test folder imports the same class)."""

from pathlib import Path

from database_use import DatabaseUse
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, Connection
from sqlalchemy.pool import NullPool

from scorekeeper.extensions import db


class ServerDatabase:
    """The PostgreSQL database of this run, or nothing when the run uses SQLite."""

    SQLITE_FILE = "test.sqlite3"
    """A SQLite run's database: this file in the test's own folder."""
    url: URL | None = None
    """The run's own database (None: SQLite)."""
    needs_reset = True
    """True until the current test empties the database."""
    tables_ready = False
    """True while the schema holds exactly the models' tables, as ``db.create_all`` made them:
    emptying them is then enough (and much quicker than a new schema)."""

    @classmethod
    def test_url(cls, tmp_path: Path, *, empty: bool = True) -> str:
        """Where the current test's app keeps its data; empties a server database once a test.

        ``empty``: the test needs a database without tables (to run the migrations on it).
        """
        if cls.url is None:
            return f"sqlite:///{tmp_path / cls.SQLITE_FILE}"
        if cls.needs_reset:
            with DatabaseUse.paused():
                cls.reset(keep_tables=cls.tables_ready and not empty)
            cls.needs_reset = False
        return cls.url.render_as_string(hide_password=False)

    @classmethod
    def reset(cls, *, keep_tables: bool) -> None:
        """Close what earlier tests left open, then empty the tables or make a new schema."""
        assert cls.url is not None
        engine = create_engine(cls.url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        try:
            with engine.connect() as connection:
                connection.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                )
                if keep_tables:
                    cls.empty_tables(connection)
                else:
                    cls.tables_ready = False
                    connection.execute(text("DROP SCHEMA public CASCADE"))
                    connection.execute(text("CREATE SCHEMA public"))
        finally:
            engine.dispose()

    @staticmethod
    def empty_tables(connection: Connection) -> None:
        """Every row deleted, children first, and every sequence started again: what
        ``TRUNCATE ... RESTART IDENTITY`` does, in a few milliseconds instead of the hundreds
        that PostgreSQL takes to give each truncated table new files."""
        for table in reversed(db.metadata.sorted_tables):
            connection.execute(table.delete())
        connection.execute(
            text(
                "SELECT setval(oid::regclass, 1, false) FROM pg_class"
                " WHERE relkind = 'S' AND relnamespace = 'public'::regnamespace"
            )
        )

    @classmethod
    def made_tables(cls) -> None:
        if cls.url is not None:
            cls.tables_ready = True
