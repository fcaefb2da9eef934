"""How requests use database connections (``scorekeeper.connections``).

On PostgreSQL: a connection idle for long is pinged, and replaced when its server side is gone;
GET and HEAD requests, and the deal form's save, run outside a transaction. Everywhere: a GET
that writes is refused, and so is an ORM flush in a view that writes in one statement.
"""

import re
from pathlib import Path

import pytest
from flask import Flask
from game_helpers import save, start_game
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.pool import NullPool

from scorekeeper.connections import ReadOnlyRequest, SeveralStatementWrite
from scorekeeper.extensions import db
from scorekeeper.store.games import Game


@pytest.fixture
def pinging_app(app: Flask) -> Flask:
    """The app, pinging every pooled connection before use (idle limit 0 s)."""
    app.config["DATABASE_PING_AFTER_IDLE_SECONDS"] = 0
    return app


def backend_pid(app: Flask) -> int:
    with app.app_context():
        pid = db.session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        db.session.remove()
    return pid


def terminate(app: Flask, pid: int) -> None:
    """End one server process from outside, as a server restart or a firewall would."""
    with app.app_context():
        url = db.engine.url
    engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with engine.connect() as connection:
        ended = connection.execute(select(text("pg_terminate_backend(:pid)")), {"pid": pid})
        assert ended.scalar_one() is True
    engine.dispose()


def new_game() -> Game:
    return Game(
        variant_id="pagat",
        rules={},
        players=4,
        view_token="v" * 43,
        view_token_hash="a" * 64,
        edit_token_hash="b" * 64,
    )


def transaction_status(app: Flask, method: str) -> str:
    with app.test_request_context("/", method=method):
        db.session.execute(select(Game.id)).all()
        raw = db.session.connection().connection.dbapi_connection
        status = raw.info.transaction_status.name
        db.session.remove()
    return status


@pytest.mark.postgresql
def test_a_dead_idle_connection_is_replaced_before_a_request_uses_it(pinging_app: Flask) -> None:
    pid = backend_pid(pinging_app)
    terminate(pinging_app, pid)

    response = pinging_app.test_client().get("/")

    assert response.status_code == 200
    assert backend_pid(pinging_app) != pid


@pytest.mark.postgresql
def test_a_connection_used_moments_ago_is_reused_without_a_ping(app: Flask) -> None:
    first = backend_pid(app)

    assert app.test_client().get("/").status_code == 200
    assert backend_pid(app) == first


@pytest.mark.postgresql
def test_get_and_head_requests_read_outside_a_transaction(app: Flask) -> None:
    assert transaction_status(app, "GET") == "IDLE"
    assert transaction_status(app, "HEAD") == "IDLE"
    assert transaction_status(app, "POST") == "INTRANS"


@pytest.mark.postgresql
def test_a_connection_lent_to_a_get_request_comes_back_transactional(app: Flask) -> None:
    transaction_status(app, "GET")

    with app.app_context():
        db.session.execute(select(Game.id)).all()
        raw = db.session.connection().connection.dbapi_connection
        assert raw.autocommit is False
        assert raw.info.transaction_status.name == "INTRANS"
        db.session.remove()


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_reading_request_that_writes_is_refused_and_writes_nothing(
    app: Flask, method: str
) -> None:
    with app.test_request_context("/", method=method):
        db.session.add(new_game())
        with pytest.raises(ReadOnlyRequest, match=f"a {method} request may not write"):
            db.session.flush()
        db.session.rollback()

    with app.app_context():
        assert db.session.scalars(select(Game)).all() == []


def test_a_post_request_writes(app: Flask) -> None:
    with app.test_request_context("/", method="POST"):
        db.session.add(new_game())
        db.session.commit()

    with app.app_context():
        assert [game.variant_id for game in db.session.scalars(select(Game))] == ["pagat"]


@pytest.mark.postgresql
@pytest.mark.parametrize("version", [0, 1], ids=["new deal", "edited deal"])
def test_a_deal_save_is_reads_and_one_write_outside_a_transaction(app: Flask, version: int) -> None:
    client = app.test_client()
    game = start_game(app, client)
    if version:
        assert save(client, game, 1, 0).status_code == 303
    sent: list[tuple[str, bool]] = []

    def note(connection, cursor, statement, parameters, context, executemany):
        autocommit = connection.connection.dbapi_connection.autocommit
        sent.append((statement.split(None, 1)[0], autocommit))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        response = save(client, game, 1, version)
    finally:
        event.remove(engine, "before_cursor_execute", note)

    assert response.status_code == 303
    # Reads: the game, and its deals for the summary written with the deal (summary_writes).
    assert sent == [("SELECT", True)] * 4 + [("WITH", True)]
    with app.app_context():
        stored = db.session.execute(
            text("SELECT d.version, g.version FROM deal d JOIN game g ON g.id = d.game_id")
        ).one()
    assert tuple(stored) == (version + 1, version + 2)


def test_an_orm_flush_in_a_view_that_writes_in_one_statement_is_refused(app: Flask) -> None:
    address = "/g/" + "A" * 43 + "/deals/1"
    with app.test_request_context(address, method="POST"):
        db.session.add(new_game())
        with pytest.raises(SeveralStatementWrite, match=re.escape("games.deal writes in one")):
            db.session.flush()
        db.session.rollback()

    with app.app_context():
        assert db.session.scalars(select(Game)).all() == []


# --- a database that went away ----------------------------------------------------------------


UNAVAILABLE = "The app could not reach its database, so nothing was saved from this request."


def assert_unavailable(response, *, json: bool) -> None:
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    if json:
        message = UNAVAILABLE + " Try again in a few seconds."
        assert response.content_type == "application/problem+json"
        assert response.json["status"] == 503 and response.json["detail"] == message
        assert response.json["errors"] == [{"side": None, "field": None, "message": message}]
    else:
        page = response.get_data(as_text=True)
        assert "Try again in a moment" in page and UNAVAILABLE in page


@pytest.mark.postgresql
@pytest.mark.parametrize("path, json", [("/", False), ("/api/v1/games", True)])
def test_a_connection_cut_mid_use_answers_503_and_the_next_request_works(
    app: Flask, path: str, json: bool
) -> None:
    client = app.test_client()
    start_game(app, client)
    terminate(app, backend_pid(app))

    assert_unavailable(client.get(path), json=json)
    assert client.get(path).status_code == 200


@pytest.mark.postgresql
def test_a_save_on_a_cut_connection_answers_503_and_saves_nothing(app: Flask) -> None:
    client = app.test_client()
    game = start_game(app, client)
    terminate(app, backend_pid(app))

    assert_unavailable(save(client, game, 1, 0), json=False)
    assert save(client, game, 1, 0).status_code == 303


@pytest.mark.sqlite
def test_a_sqlite_file_that_cannot_be_opened_answers_503_until_it_is_back(app: Flask) -> None:
    client = app.test_client()
    game = start_game(app, client)
    with app.app_context():
        path = Path(db.engine.url.database)
        db.engine.dispose()
    kept = path.rename(path.with_suffix(".away"))
    path.mkdir()  # what stands at the database's path is no database
    try:
        assert_unavailable(client.get(game.edit_path), json=False)
        assert_unavailable(client.get("/api/v1/games"), json=True)
    finally:
        path.rmdir()
        kept.rename(path)

    assert client.get(game.edit_path).status_code == 200


def test_a_request_finding_every_pooled_connection_taken_answers_503_then_the_next_works(
    make_app,
):
    """Under gunicorn's threads, a worker's requests share its pool: one that waits past the
    pool's timeout is told to try again, and saved nothing."""
    app = make_app(
        SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.2}
    )
    client = app.test_client()
    game = start_game(app, client)
    with app.app_context():
        other_thread = db.engine.connect()  # the pool's only connection, taken
        try:
            busy = client.post(f"{game.edit_path}/deals/1", data={"version": "0"})
        finally:
            other_thread.close()

    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "5"
    assert "The app is busy with other tables." in busy.get_data(as_text=True)
    assert save(client, game, 1, 0).status_code == 303
