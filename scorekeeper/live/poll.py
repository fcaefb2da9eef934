"""What the watchers' poll asks: the version a game is at, kept in each process's memory.

Phones poll every few seconds, many games at once, so the version read for a token is kept.
Without more, an entry is trusted for a second (config ``POLL_FRESH_SECONDS``). On PostgreSQL
the process also listens for changed games (``feed.GameFeed``; config ``POLL_FEED = False``
turns it off): an entry read while listening is trusted until its game changes, and forgotten
the moment it does.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app

from scorekeeper.capabilities import digest, is_token
from scorekeeper.live import poll_front
from scorekeeper.live.feed import GameFeed, conninfo_of
from scorekeeper.store.links import resolve

POLL_FRESH_SECONDS = 1.0
POLL_CACHE_SIZE = 10_000
EXTENSION = "scorekeeper.poll"


@dataclass(frozen=True, slots=True)
class Entry:
    read_at: float
    game_id: int
    version: int
    heard: bool
    """Read while the feed listened, with no change of the game heard since: kept until one is."""


class PollCache:
    """Token digest -> the game's id and version; at most ``size`` entries.

    ``changed`` and ``reset`` (from the feed) count changes, so that a version read from the
    database while its game was changing is not trusted beyond its second. A version told by
    the feed is the latest committed one (notifications arrive in commit order), so it replaces
    the game's entries, and no read that was under way may take it back.
    """

    def __init__(self, size: int = POLL_CACHE_SIZE) -> None:
        self.size = size
        self._entries: dict[str, Entry] = {}
        self._by_game: dict[int, set[str]] = {}
        self._changes = 0
        self._changed_at: dict[int, int] = {}
        self._reset_at = 0
        self._lock = threading.Lock()

    def get(self, token: str, fresh: float, listening: bool) -> tuple[int, int] | None:
        """The game id and version for a token (None: no such game); ``listening``: whether
        the feed listens now."""
        if not is_token(token):
            return None
        key = digest(token)
        known = self._vouched(key, fresh, listening)
        if known is not None:
            return known
        before = self._changes
        grant = resolve(token)
        if grant is None:
            return None
        self._keep(key, grant.game_id, grant.version, listening, before)
        return grant.game_id, grant.version

    def peek(self, token: str, fresh: float, listening: bool) -> tuple[int, int] | None:
        """The game id and version if memory still vouches for them; None: ask ``get``."""
        return self._vouched(digest(token), fresh, listening)

    def _vouched(self, key: str, fresh: float, listening: bool) -> tuple[int, int] | None:
        entry = self._entries.get(key)
        if entry is not None and (
            (entry.heard and listening) or time.monotonic() - entry.read_at < fresh
        ):
            return entry.game_id, entry.version
        return None

    def changed(self, game_id: int, version: int | None) -> None:
        """The game is at ``version`` now; None: forget it (a new link, or deleted)."""
        with self._lock:
            self._changes += 1
            if len(self._changed_at) >= self.size:
                self._changed_at.clear()
                self._reset_at = self._changes
            self._changed_at[game_id] = self._changes
            if version is None:
                for key in self._by_game.pop(game_id, ()):
                    self._entries.pop(key, None)
                return
            told = Entry(time.monotonic(), game_id, version, heard=True)
            for key in self._by_game.get(game_id, ()):
                self._entries[key] = told

    def reset(self) -> None:
        with self._lock:
            self._changes += 1
            self._reset_at = self._changes
            self._changed_at.clear()
            self._entries.clear()
            self._by_game.clear()

    def _keep(self, key: str, game_id: int, version: int, listening: bool, before: int) -> None:
        with self._lock:
            unchanged = self._reset_at <= before and self._changed_at.get(game_id, 0) <= before
            known = self._entries.get(key)
            if known is not None and known.heard and known.version > version:
                return  # the feed told of a newer version while this one was read
            if len(self._entries) >= self.size:
                self._entries.clear()
                self._by_game.clear()
            self._entries[key] = Entry(time.monotonic(), game_id, version, listening and unchanged)
            self._by_game.setdefault(game_id, set()).add(key)


class Poll:
    """The app's poll cache, and on PostgreSQL the feed that keeps it current."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.cache = PollCache()
        self.feed: GameFeed | None = None
        self._checked = False
        self._lock = threading.Lock()

    def version(self, token: str) -> tuple[int, int] | None:
        return self.cache.get(token, self._fresh(), self._listening())

    def known_version(self, token: str) -> tuple[int, int] | None:
        """The version from memory alone (a valid token, still vouched for), else None."""
        if not is_token(token):
            return None
        return self.cache.peek(token, self._fresh(), self._listening())

    def _fresh(self) -> float:
        fresh: float = self.app.config.get("POLL_FRESH_SECONDS", POLL_FRESH_SECONDS)
        return fresh

    def _listening(self) -> bool:
        if not self._checked:
            with self._lock:
                if not self._checked:
                    self.feed = self._make_feed()
                    self._checked = True
        if self.feed is None:
            return False
        self.feed.ensure_started()
        return self.feed.listening.is_set()

    def _make_feed(self) -> GameFeed | None:
        conninfo = conninfo_of(self.app)
        if conninfo is None or not self.app.config.get("POLL_FEED", True):
            return None
        return GameFeed(conninfo, self.cache.changed, self.cache.reset)

    def stop(self) -> None:
        if self.feed is not None:
            self.feed.stop()


def init_app(app: Flask) -> None:
    poll = app.extensions[EXTENSION] = Poll(app)
    poll_front.install(app, poll)


def current_poll() -> Poll:
    poll: Poll = current_app.extensions[EXTENSION]
    return poll


def stop(app: Flask) -> None:
    """Stop the app's feed thread (an app that is done with, as in the tests)."""
    poll: Poll | None = app.extensions.get(EXTENSION)
    if poll is not None:
        poll.stop()
