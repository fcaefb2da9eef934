"""A game's changes for programs: ``GET /api/v1/games/<token>/events``, Server-Sent Events.

The stream reads the version the pages' poll reads (``live.poll``: kept in memory, and on
PostgreSQL made current by the feed of changed games), every ``API_EVENTS_STEP_SECONDS``. When
the version moves, one read of the game's deals says what changed: each deal added, changed or
deleted (an undo deletes), as an event named by its kind with the deal's number and the game's
new version; the event's id is that version, so a client that reconnects sends it back as
``Last-Event-ID`` and hears at once if the game moved meanwhile.

A stream is bounded, so that it never holds a server for long: it ends after
``API_EVENTS_SECONDS`` (EventSource reconnects by itself, after the ``retry`` it was given), it
holds a thread of its worker (gthread), never a worker, and no database connection between reads,
and a process keeps at most ``API_EVENTS_STREAMS`` open at once: one more is 503 with
Retry-After, until one ends.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping

from flask import current_app
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.live.poll import current_poll
from scorekeeper.problem_details import ApiProblem
from scorekeeper.store.games import Deal

STREAM_SECONDS = 25.0
STEP_SECONDS = 0.5
MOST_STREAMS = 16
KEEP_ALIVE_SECONDS = 10.0
RETRY_MS = 1000

_open = threading.BoundedSemaphore(MOST_STREAMS)


def deal_versions(game_id: int) -> dict[int, int]:
    """Each deal's number and version; the session's connection is given back at once."""
    rows = db.session.execute(select(Deal.number, Deal.version).where(Deal.game_id == game_id))
    found = {number: version for number, version in rows}
    db.session.rollback()
    return found


def changes(before: Mapping[int, int], after: Mapping[int, int]) -> list[tuple[str, int]]:
    """What happened to each deal between two readings, by deal number."""
    found = []
    for number in sorted(set(before) | set(after)):
        if number not in before:
            found.append(("added", number))
        elif number not in after:
            found.append(("deleted", number))
        elif before[number] != after[number]:
            found.append(("changed", number))
    return found


def event(version: int, kind: str, deal: int | None = None) -> str:
    data = {"version": version, "kind": kind, "deal": deal}
    return f"id: {version}\nevent: {kind}\ndata: {json.dumps(data)}\n\n"


def _version(token: str) -> tuple[int, int] | None:
    found = current_poll().version(token)
    db.session.rollback()
    return found


def open_stream(token: str, last_event_id: str | None) -> Iterator[str]:
    """The stream's events, or 404 for a link that opens no game, or 503 when the process
    holds as many streams as it may: checked before the first byte is sent. The caller calls
    ``close_stream`` when the answer is closed, whether it was read or not."""
    found = _version(token)
    if found is None:
        raise ApiProblem(404)
    if not _open.acquire(blocking=False):
        raise ApiProblem(503, headers=[("Retry-After", "5")])
    return _stream(token, *found, last_event_id)


def close_stream() -> None:
    _open.release()


def _stream(token: str, game_id: int, version: int, last_event_id: str | None) -> Iterator[str]:
    config = current_app.config
    seconds: float = config.get("API_EVENTS_SECONDS", STREAM_SECONDS)
    step: float = config.get("API_EVENTS_STEP_SECONDS", STEP_SECONDS)
    known = deal_versions(game_id)
    yield f"retry: {RETRY_MS}\n\n"
    if last_event_id != str(version):
        yield event(version, "version")
    deadline = time.monotonic() + seconds
    quiet = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(step)
        found = _version(token)
        if found is None:
            yield event(version, "gone")
            return
        if found[1] != version:
            version, now = found[1], deal_versions(game_id)
            moved = changes(known, now)
            for kind, number in moved:
                yield event(version, kind, number)
            if not moved:  # the game changed, none of its deals: players merged, say
                yield event(version, "version")
            known, quiet = now, time.monotonic()
        elif time.monotonic() - quiet >= KEEP_ALIVE_SECONDS:
            yield ": still here\n\n"
            quiet = time.monotonic()
