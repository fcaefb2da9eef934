"""/healthz and /readyz, and the migrations applied at start under a lock.

Run on SQLite and, with SCOREKEEPER_TEST_DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from flask import Flask
from game_helpers import start_game
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorekeeper.extensions import db
from scorekeeper.health import upgrade as locked_upgrade
from scorekeeper.health.schema import head_revisions, migrations_folder


def upgraded(app: Flask) -> Flask:
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    return app


def test_healthz_answers_ok_without_a_cookie(app: Flask) -> None:
    client = app.test_client()

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok\n"
    assert "Set-Cookie" not in response.headers
    assert response.headers["Cache-Control"] == "no-store"


def test_readyz_is_ready_once_every_migration_is_applied(empty_app: Flask) -> None:
    client = upgraded(empty_app).test_client()

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ready\n"
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.vary


def test_readyz_sets_no_cookie_even_for_a_browser_that_holds_a_session(empty_app: Flask) -> None:
    client = upgraded(empty_app).test_client()
    start_game(empty_app, client)
    assert client.get_cookie(empty_app.config.get("SESSION_COOKIE_NAME", "session")) is not None

    for path in ("/healthz", "/readyz"):
        response = client.get(path)
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers, path


def test_readyz_is_not_ready_before_the_migrations(empty_app: Flask) -> None:
    response = empty_app.test_client().get("/readyz")

    assert response.status_code == 503
    assert response.get_data(as_text=True) == "migrations not applied\n"


def test_readyz_is_not_ready_one_migration_behind(empty_app: Flask) -> None:
    runner = upgraded(empty_app).test_cli_runner()
    assert runner.invoke(args=["db", "downgrade"]).exit_code == 0

    response = empty_app.test_client().get("/readyz")

    assert response.status_code == 503
    assert response.get_data(as_text=True) == "migrations not applied\n"


def test_readyz_is_not_ready_when_the_database_does_not_answer(make_app) -> None:
    # A PostgreSQL server that refuses connections: nothing listens on port 9 of the loopback.
    app = make_app(
        tables=False,
        SQLALCHEMY_DATABASE_URI="postgresql+psycopg://postgres@127.0.0.1:9/none",
        SQLALCHEMY_ENGINE_OPTIONS={"connect_args": {"connect_timeout": 3}},
    )
    client = app.test_client()

    ready = client.get("/readyz")
    healthy = client.get("/healthz")

    assert ready.status_code == 503
    assert ready.get_data(as_text=True) == "database unreachable\n"
    assert healthy.status_code == 200


def test_the_head_is_the_newest_migration_file(app: Flask) -> None:
    with app.app_context():
        folder = migrations_folder()
    newest = max(Path(folder, "versions").glob("0*.py")).name.split("_")[0]

    assert head_revisions(folder) == {newest}


def test_the_locked_upgrade_brings_an_empty_database_to_the_head(empty_app: Flask) -> None:
    runner = empty_app.test_cli_runner()

    first = runner.invoke(args=["db-upgrade-locked"])
    again = runner.invoke(args=["db-upgrade-locked"])

    with empty_app.app_context():
        head = head_revisions(migrations_folder())
    assert first.exit_code == 0, first.output
    assert again.exit_code == 0, again.output
    said = "database at revision " + ", ".join(sorted(head))
    assert first.output.splitlines()[-1] == said
    assert "Running upgrade" in first.output
    assert again.output.splitlines()[-1] == said
    assert "Running upgrade" not in again.output
    assert empty_app.test_client().get("/readyz").status_code == 200


class _Waiting(logging.Handler):
    """Set once the upgrade says that it waits for the lock."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == locked_upgrade.WAITING:
            self.seen.set()


def test_a_server_waits_for_another_servers_migrations_then_applies_none(
    empty_app: Flask,
) -> None:
    """A second server starts while the first holds the lock: it waits, and once the first has
    upgraded the database and let go, it finds nothing to apply."""
    waiting = _Waiting()
    locked_upgrade.logger.addHandler(waiting)
    locked_upgrade.logger.setLevel(logging.INFO)
    outcome: dict[str, object] = {}

    def second_server() -> None:
        try:
            with empty_app.app_context():
                outcome["revisions"] = locked_upgrade.upgrade_locked()
        except BaseException as error:  # reported by the assertion below
            outcome["error"] = error

    try:
        with empty_app.app_context():
            engine = db.engine
            head = head_revisions(migrations_folder())
            with locked_upgrade.migration_lock(engine):
                thread = threading.Thread(target=second_server)
                thread.start()
                assert waiting.seen.wait(timeout=60), "the second server did not wait"
                assert "revisions" not in outcome
                upgraded(empty_app)
            thread.join(timeout=120)
    finally:
        locked_upgrade.logger.removeHandler(waiting)

    assert not thread.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["revisions"] == head


@pytest.mark.postgresql
def test_the_postgresql_lock_is_held_by_a_connection_of_its_own(empty_app: Flask) -> None:
    with empty_app.app_context():
        engine = db.engine
        url = engine.url
        with locked_upgrade.migration_lock(engine):
            watcher = create_engine(make_url(url))
            with watcher.connect() as connection:
                held = connection.execute(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                        " AND database = (SELECT oid FROM pg_database"
                        " WHERE datname = current_database())"
                    )
                ).scalar()
            watcher.dispose()
    assert held == 1
