"""The games that changed, told to every process as they change (PostgreSQL only).

A trigger on the ``game`` table sends a notification whenever a game's row is updated (every
deal saved, edited or deleted bumps the game's version; a new link rewrites a token digest) or
deleted. Its payload is ``<id>:<version>`` when the game's links are unchanged, else ``<id>``.
Each app process listens, in a thread of its own, and tells its poll cache
(``live.poll.PollCache``): the game's new version, or that the game is to be forgotten. So,
while the process listens, a watcher's poll is answered from memory, the poll that follows a
change included: many tables at once, many processes, nearly no database reads.

When the connection is lost, the cache is emptied and falls back to keeping each entry for a
second; the thread connects again after a pause. On SQLite nothing listens.

The listener trusts no LISTEN on its word: it sends itself a probe through a connection of its
own, at the start and every ``HEARTBEAT_SECONDS``, and counts as listening only while the probe
comes back. Behind a transaction-pooling PgBouncer a LISTEN succeeds and then hears nothing:
there the probe goes unheard, and polls fall back to reading the game's version (at most once
a second per process and game) while the feed tries again every ``DEAF_RETRY_SECONDS``. A
direct or session-pooled connection for the listener alone (``SCOREKEEPER_FEED_DATABASE_URL``)
brings the notifications back.
"""

from __future__ import annotations

import logging
import os
import secrets
import select
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
from flask import Flask
from sqlalchemy import DDL, Connection, Table, event, make_url

from scorekeeper.extensions import db, table_of
from scorekeeper.store.games import Game

CHANNEL = "scorekeeper_game_changed"
NOTIFY_FUNCTION = "scorekeeper_notify_game_changed"
TRIGGER = "game_changed_notify"

CREATE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION {NOTIFY_FUNCTION}() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.view_token_hash = OLD.view_token_hash
            AND NEW.edit_token_hash = OLD.edit_token_hash THEN
        PERFORM pg_notify('{CHANNEL}', NEW.id || ':' || NEW.version);
    ELSE
        PERFORM pg_notify('{CHANNEL}', COALESCE(NEW.id, OLD.id)::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""
CREATE_TRIGGER = f"""
CREATE TRIGGER {TRIGGER} AFTER UPDATE OR DELETE ON game
FOR EACH ROW EXECUTE FUNCTION {NOTIFY_FUNCTION}()
"""

APPLICATION_NAME = "scorekeeper-game-feed"
"""How the listening connections name themselves to the server (pg_stat_activity)."""
WAKE_SECONDS = 1.0
"""How long the listener waits for notifications before it looks whether to stop."""
HEARTBEAT_SECONDS = 30.0
"""How often the listener checks, with a probe, that notifications still reach it."""
PROBE_SECONDS = 5.0
"""How long the listener waits for its probe to come back."""
PROBE_PREFIX = "probe:"
DEAF_RETRY_SECONDS = 60.0
"""The pause before trying again after a probe went unheard."""
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0)
"""Pauses between attempts to connect again, the last one repeated."""

log = logging.getLogger(__name__)


class FeedUnheard(Exception):
    """The listener's probe did not come back: notifications do not reach it."""


def _notify_on_change(game_table: Table) -> None:
    """Make ``metadata.create_all`` create the trigger too, on PostgreSQL (the migrations
    create it on their own). Once per process, whatever the number of apps."""
    if event.contains(game_table, "after_create", _create_trigger):
        return
    event.listen(game_table, "after_create", _create_trigger)


def _create_trigger(target: Table, connection: Connection, **kw: Any) -> None:
    if connection.dialect.name == "postgresql":
        for statement in (CREATE_FUNCTION, CREATE_TRIGGER):
            connection.execute(DDL(statement))


def init_app(app: Flask) -> None:
    """Tables made from the models (the tests', ``db.create_all``) notify as migrated ones do."""
    _notify_on_change(table_of(Game))


class GameFeed:
    """Listens for changed games in a daemon thread, started once per process."""

    def __init__(
        self,
        conninfo: str,
        changed: Callable[[int, int | None], None],
        reset: Callable[[], None],
    ) -> None:
        self.conninfo = conninfo
        self.changed = changed
        """Called with a game's id and new version when it changed; the version is None when
        its links changed or it was deleted."""
        self.reset = reset
        """Called when notifications may have been missed (at every connection and loss)."""
        self.listening = threading.Event()
        """Set while notifications are known to arrive (the last probe came back)."""
        self.unheard = threading.Event()
        """Set when a probe went unheard, until one comes back."""
        self.listen_statement = f"LISTEN {CHANNEL}"
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def ensure_started(self) -> None:
        """Start the thread in this process (a forked worker starts its own)."""
        if self._pid == os.getpid() or self._stop.is_set():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self.listening.clear()
            self._thread = threading.Thread(target=self._run, name="game-feed", daemon=True)
            self._thread.start()
            self._pid = os.getpid()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._pid == os.getpid():
            self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            pause = RETRY_SECONDS[0]
            try:
                self._listen()
                failures = 0
            except psycopg.Error as error:
                log.warning("the game feed lost its connection: %s", error)
                failures += 1
                pause = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
            except FeedUnheard:
                if not self.unheard.is_set():
                    log.warning(
                        "the game feed hears no notifications (a transaction-pooling "
                        "PgBouncer?): polls read the game's version from the database; set "
                        "SCOREKEEPER_FEED_DATABASE_URL to a direct or session-pooled "
                        "connection for the listener"
                    )
                self.unheard.set()
                pause = DEAF_RETRY_SECONDS
            self.listening.clear()
            self.reset()
            self._stop.wait(pause)

    def _listen(self) -> None:
        with psycopg.connect(
            self.conninfo, autocommit=True, connect_timeout=5, application_name=APPLICATION_NAME
        ) as connection:
            connection.execute(self.listen_statement)
            self.reset()  # whatever changed before this moment was not heard
            while not self._stop.is_set():
                if not self._probe(connection):
                    if self._stop.is_set():
                        return
                    raise FeedUnheard
                self.listening.set()
                self.unheard.clear()
                self._receive(connection, HEARTBEAT_SECONDS)

    def _probe(self, connection: psycopg.Connection[Any]) -> bool:
        """Send a probe from another connection, as the app's writes do; True once it comes
        back on ``connection`` (False after ``PROBE_SECONDS``, or when stopping)."""
        probe = f"{PROBE_PREFIX}{os.getpid()}:{secrets.token_hex(8)}"
        with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as sender:
            sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, probe))
        return self._receive(connection, PROBE_SECONDS, probe)

    def _receive(
        self, connection: psycopg.Connection[Any], seconds: float, probe: str | None = None
    ) -> bool:
        """Pass on the changes heard for ``seconds``; True as soon as ``probe`` is heard."""
        deadline = time.monotonic() + seconds
        while not self._stop.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            # Asleep until the server sends something: the thread takes no turn from the
            # requests of its process while nothing changes.
            ready, _, _ = select.select([connection.fileno()], [], [], min(remaining, WAKE_SECONDS))
            if not ready:
                continue
            heard = False
            for notice in connection.notifies(timeout=0):
                if notice.payload == probe:
                    heard = True
                    continue
                change = parse_change(notice.payload)
                if change is not None:
                    self.changed(*change)
            if heard:
                return True
        return False


def parse_change(payload: str) -> tuple[int, int | None] | None:
    """``"12:5"`` -> (12, 5); ``"12"`` -> (12, None); anything else -> None."""
    game_id, colon, version = payload.partition(":")
    if not game_id.isdigit():
        return None
    if not colon:
        return int(game_id), None
    return (int(game_id), int(version)) if version.isdigit() else None


def conninfo_of(app: Flask) -> str | None:
    """The psycopg connection string the listener uses (``FEED_DATABASE_URL``, else the app's
    database), or None when the app's database is not PostgreSQL."""
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() != "postgresql":
        return None
    if app.config.get("FEED_DATABASE_URL"):
        url = make_url(app.config["FEED_DATABASE_URL"])
    return url.set(drivername="postgresql").render_as_string(hide_password=False)
