"""The database underneath: SQLite's settings, and migrations that build the models' schema.

The migration tests run on SQLite and, when the suite runs against PostgreSQL
(SCOREKEEPER_TEST_DATABASE_URL), on PostgreSQL too.
"""

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import inspect, text

from scorekeeper import config as settings
from scorekeeper.extensions import db
from scorekeeper.live import feed


@pytest.mark.sqlite
def test_sqlite_runs_with_the_write_ahead_log_and_foreign_keys(app: Flask) -> None:
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


@pytest.mark.sqlite
def test_sqlite_waits_for_a_busy_writer_instead_of_failing(app: Flask) -> None:
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["timeout"] >= 5


def test_postgresql_connections_are_pooled_and_renewed_hourly() -> None:
    options = settings.engine_options("postgresql+psycopg://scorer@127.0.0.1/scores")

    assert options == {"pool_recycle": 3600, "connect_args": {"prepare_threshold": None}}


def test_migrations_build_exactly_the_models_schema_on_an_empty_database(empty_app) -> None:
    runner = empty_app.test_cli_runner()

    result = runner.invoke(args=["db", "upgrade"])

    assert result.exit_code == 0, result.output
    with empty_app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        tables = set(inspect(connection).get_table_names())
    assert differences == []
    assert set(db.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_migrations_go_down_to_nothing_and_up_again(empty_app) -> None:
    runner = empty_app.test_cli_runner()

    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    down = runner.invoke(args=["db", "downgrade", "base"])
    assert down.exit_code == 0, down.output
    with empty_app.app_context(), db.engine.connect() as connection:
        left = set(inspect(connection).get_table_names()) - {"alembic_version"}
    assert left == set()
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0, up.output


def game_triggers(app: Flask) -> list[str]:
    with app.app_context(), db.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'game'::regclass"
                " AND NOT tgisinternal"
            )
        )
        return [name for (name,) in rows]


def notify_function(app: Flask) -> str:
    """The body of the function the trigger runs."""
    with app.app_context(), db.engine.connect() as connection:
        return connection.execute(
            text("SELECT prosrc FROM pg_proc WHERE proname = :name"),
            {"name": feed.NOTIFY_FUNCTION},
        ).scalar_one()


def same_sql(a: str, b: str) -> bool:
    return a.split() == b.split()


FEED_FUNCTION_BODY = feed.CREATE_FUNCTION.split("$$")[1]


@pytest.mark.postgresql
def test_the_migrations_make_games_notify_their_changes_and_take_that_back(empty_app) -> None:
    runner = empty_app.test_cli_runner()

    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    assert game_triggers(empty_app) == [feed.TRIGGER]
    assert "NEW.version" in notify_function(empty_app)
    assert runner.invoke(args=["db", "downgrade", "0004"]).exit_code == 0
    assert game_triggers(empty_app) == [feed.TRIGGER]
    assert "NEW.version" not in notify_function(empty_app)
    assert runner.invoke(args=["db", "downgrade", "0003"]).exit_code == 0
    assert game_triggers(empty_app) == []


@pytest.mark.postgresql
def test_the_migrations_notify_as_the_app_expects(empty_app) -> None:
    assert empty_app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0

    assert same_sql(notify_function(empty_app), FEED_FUNCTION_BODY)


@pytest.mark.postgresql
def test_tables_made_from_the_models_notify_too(app: Flask) -> None:
    assert game_triggers(app) == [feed.TRIGGER]
    assert same_sql(notify_function(app), FEED_FUNCTION_BODY)


def test_games_and_house_rules_made_before_tables_are_kept_in_one_table(empty_app) -> None:
    runner = empty_app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "0005"]).exit_code == 0
    with empty_app.app_context(), db.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO game (name, variant_id, rules, players, created_at, updated_at,"
                " version, view_token, view_token_hash, edit_token_hash)"
                " VALUES ('Friday', 'pagat', '{}', 4, '2026-11-01 20:00:00',"
                " '2026-11-01 20:00:00', 1, 'v', 'vh', 'eh')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO house_variant (slug, name, summary, based_on, changes, version,"
                " created_at, updated_at) VALUES ('ours', 'Ours', '', 'pagat', '{}', 1,"
                " '2026-11-01 20:00:00', '2026-11-01 20:00:00')"
            )
        )

    up = runner.invoke(args=["db", "upgrade"])

    assert up.exit_code == 0, up.output
    with empty_app.app_context(), db.engine.connect() as connection:
        tables = connection.execute(text("SELECT id, name FROM card_table")).all()
        games = connection.execute(text("SELECT name, table_id FROM game")).all()
        rules = connection.execute(text("SELECT slug, table_id FROM house_variant")).all()
    assert [name for _id, name in tables] == ["Games and rules from before tables"]
    assert games == [("Friday", tables[0][0])] and rules == [("ours", tables[0][0])]


def test_an_empty_database_gets_no_table_from_the_migrations(empty_app) -> None:
    runner = empty_app.test_cli_runner()

    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0

    with empty_app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM card_table")).scalar_one() == 0
