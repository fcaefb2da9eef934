"""A save and a deletion of the same deal, or of its game, at the very same moment.

Every change to a deal or a game locks the game's row first, and only then the deal's
(``store.deal_writes``): two such changes wait for each other instead of deadlocking, and the one
that comes second is answered 409 (the deal changed) or 404 (it is gone), never 500.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from functools import partial

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, save, start_game
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from scorekeeper.extensions import db

RACES = 100


def deal_version(app: Flask, links: Links, number: int = 1) -> int:
    """The stored version of the deal, 0 when there is none."""
    with app.app_context():
        version = db.session.execute(
            text("SELECT version FROM deal WHERE game_id = :g AND number = :n"),
            {"g": links.game_id, "n": number},
        ).scalar_one_or_none()
        db.session.remove()
    return version or 0


def race(*requests: Callable[[], int]) -> list[int]:
    """Send the requests at the same moment, each from its own thread; their statuses."""
    barrier = threading.Barrier(len(requests))
    statuses: list[int] = []

    def send(request: Callable[[], int]) -> None:
        barrier.wait()
        try:
            statuses.append(request())
        except Exception:  # noqa: BLE001 - the test app lets a 500's exception through
            statuses.append(500)

    threads = [threading.Thread(target=send, args=(request,)) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(statuses) == len(requests), "a request never came back"
    return statuses


def save_deal(client: FlaskClient, links: Links, version: int) -> int:
    return save(client, links, 1, version).status_code


def delete_deal(client: FlaskClient, links: Links, version: int) -> int:
    return client.post(
        f"{links.edit_path}/deals/1/delete", data={"version": str(version)}
    ).status_code


def delete_game(client: FlaskClient, links: Links, version: int) -> int:
    return client.post(f"{links.edit_path}/delete", data={"version": str(version)}).status_code


def test_a_save_and_a_delete_of_one_deal_at_once_never_fail(app: Flask, client: FlaskClient):
    """One wins (303); the other finds the deal changed or gone (409), never a deadlock."""
    links = start_game(app, client)
    for _ in range(RACES):
        version = deal_version(app, links)
        if version == 0:
            assert save(client, links, 1, 0).status_code == 303
            version = deal_version(app, links)
        statuses = race(
            partial(save_deal, client, links, version), partial(delete_deal, client, links, version)
        )
        assert sorted(statuses) in ([303, 404], [303, 409]), statuses


def test_a_save_and_the_game_deleted_at_once_never_fail(app: Flask, client: FlaskClient):
    for _ in range(RACES // 4):
        links = start_game(app, client)
        assert save(client, links, 1, 0).status_code == 303
        statuses = race(
            partial(save_deal, client, links, 1), partial(delete_game, client, links, 2)
        )
        assert sorted(statuses) in ([303, 404], [303, 409]), statuses


# --- the order of the locks ----------------------------------------------------------------


def locked_elsewhere(app: Flask) -> tuple[Connection, Callable[[], None]]:
    """A connection of another server process, and a way to close it."""
    with app.app_context():
        url = db.engine.url
    engine = create_engine(url, poolclass=NullPool)
    connection = engine.connect()

    def close() -> None:
        connection.rollback()
        connection.close()
        engine.dispose()

    return connection, close


def waits_for_a_lock(connection: Connection, seconds: float = 10.0) -> bool:
    query = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + seconds
    while connection.execute(query).scalar_one() == 0:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def deal_row_is_free(connection: Connection, links: Links) -> bool:
    """Whether the deal's row can be locked at once (no other change holds it)."""
    connection.execute(text("SAVEPOINT probe"))
    try:
        connection.execute(
            text("SELECT id FROM deal WHERE game_id = :g AND number = 1 FOR UPDATE NOWAIT"),
            {"g": links.game_id},
        )
    except Exception:  # noqa: BLE001 - psycopg's LockNotAvailable, wrapped by SQLAlchemy
        connection.execute(text("ROLLBACK TO SAVEPOINT probe"))
        return False
    connection.execute(text("RELEASE SAVEPOINT probe"))
    return True


CHANGES = {
    "a new deal": (0, lambda client, links: save(client, links, 1, 0)),
    "an edited deal": (1, lambda client, links: save(client, links, 1, 1)),
    "a deleted deal": (
        1,
        lambda client, links: client.post(
            f"{links.edit_path}/deals/1/delete", data={"version": "1"}
        ),
    ),
    "a deleted game": (
        1,
        lambda client, links: client.post(f"{links.edit_path}/delete", data={"version": "2"}),
    ),
}


@pytest.mark.postgresql
@pytest.mark.parametrize("change", list(CHANGES))
def test_every_change_locks_the_game_before_the_deal(
    app: Flask, client: FlaskClient, change: str
) -> None:
    """While another process holds the game's row, a change waits for it having locked
    nothing else: the deal's row is still free. Once the game is let go, the change is made."""
    deals_before, send = CHANGES[change]
    links = start_game(app, client)
    if deals_before:
        assert save(client, links, 1, 0).status_code == 303
    other, close = locked_elsewhere(app)
    answers = []
    try:
        other.execute(text("SELECT id FROM game WHERE id = :g FOR UPDATE"), {"g": links.game_id})
        waiting = threading.Thread(target=lambda: answers.append(send(client, links)))
        waiting.start()
        assert waits_for_a_lock(other), "the change did not wait for the game's row"
        assert deal_row_is_free(other, links)
    finally:
        close()
    waiting.join(timeout=10)
    assert [response.status_code for response in answers] == [303]


GAME_FIRST = re.compile(
    r"(UPDATE game SET|DELETE FROM game WHERE"
    r"|WITH locked AS \s*\(SELECT game\.id AS id, .*?FROM game\s+WHERE .*? FOR NO KEY UPDATE\))",
    re.DOTALL,
)


@pytest.mark.parametrize("change", list(CHANGES))
def test_the_first_statement_of_every_change_locks_the_game(
    app: Flask, client: FlaskClient, change: str
) -> None:
    """The same order on every database: the game's row is written or locked by the first
    statement that writes, before any deal's row."""
    deals_before, send = CHANGES[change]
    links = start_game(app, client)
    if deals_before:
        assert save(client, links, 1, 0).status_code == 303
    writes: list[str] = []

    def note(connection, cursor, statement, parameters, context, executemany):
        if not statement.startswith("SELECT"):
            writes.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        assert send(client, links).status_code == 303
    finally:
        event.remove(engine, "before_cursor_execute", note)

    assert writes, "the change wrote nothing"
    assert GAME_FIRST.match(writes[0]), writes[0]
