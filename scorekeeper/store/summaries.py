"""Each game of a table reduced to what its history and statistics read, through the rules core.

A ``GameSummary`` is made from the game's stored entries by the rules core (every deal scored
with the game's frozen rules), and stored with the game (``StoredSummary``, table
``game_summaries``): every change to a game writes its summary again in the same transaction
(``summary_writes``), at the game's new version. The statistics page reads the stored
summaries and scores no game. A summary whose version or format differs from its game's (a
game written by other means, a summary from before a change of its shape) is not trusted: it
is made again from the game's deals when read, counted (``rebuilt_summaries``), and kept in
memory by (game id, version) so that a process makes it once.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from threading import Lock
from typing import Any

from sqlalchemy import Text, bindparam, cast, select

from scorekeeper.extensions import db
from scorekeeper.operations import metrics
from scorekeeper.store.game_service import games_newest_first
from scorekeeper.store.game_summary import (
    BOOK_KINDS,
    LINE_GROUPS,
    SUMMARY_FORMAT,
    GameSummary,
    SideSummary,
    from_stored,
    summarize,
)
from scorekeeper.store.games import Game, GameSide, StoredSummary
from scorekeeper.store.players import Seat

CACHE_SIZE = 20_000
LOAD_CHUNK = 400

log = logging.getLogger(__name__)

__all__ = [
    "BOOK_KINDS",
    "LINE_GROUPS",
    "GameSummary",
    "SideSummary",
    "rebuilt_summaries",
    "summaries",
    "table_seats",
    "table_summaries",
    "table_summaries_read",
    "table_versions",
    "table_versions_read",
]
"""What the pages read from here; the summaries themselves are made in ``game_summary``."""


class SummaryCache:
    """Summaries by (game id, version), the least recently used dropped first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[tuple[int, int], GameSummary] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[int, int]) -> GameSummary | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, summary: GameSummary) -> None:
        with self._lock:
            self._items[(summary.game_id, summary.version)] = summary
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


summaries = SummaryCache()


Versions = tuple[tuple[int, int], ...]
SeatRows = tuple[tuple[int, int, int], ...]


def table_versions(table_id: int) -> Versions:
    """(game id, version) of every game of the table, newest first."""
    return table_versions_read(table_id)[0]


def table_versions_read(table_id: int) -> tuple[Versions, bool]:
    """(game id, version) of every game of the table, newest first, and whether every one of
    them has its stored summary current (made at its version, in today's format)."""
    rows = db.session.execute(
        select(Game.id, Game.version, StoredSummary.version, StoredSummary.format)
        .outerjoin(StoredSummary, StoredSummary.game_id == Game.id)
        .where(Game.table_id == table_id)
        .order_by(Game.created_at.desc(), Game.id.desc())
    ).all()
    current = all(
        stored == version and made == SUMMARY_FORMAT for _id, version, stored, made in rows
    )
    return tuple((game_id, version) for game_id, version, _stored, _made in rows), current


_STORED = (
    select(
        Game.id,
        Game.version,
        Game.created_at,
        Game.name,
        Game.variant_id,
        Game.players,
        StoredSummary.version.label("stored_version"),
        StoredSummary.format,
        # As text: all of them are parsed at once (``_parsed``), much quicker than one by one.
        cast(StoredSummary.summary, Text).label("summary"),
    )
    .outerjoin(StoredSummary, StoredSummary.game_id == Game.id)
    .where(Game.table_id == bindparam("table_id"))
    .order_by(Game.created_at.desc(), Game.id.desc())
)


class _Rebuilds:
    """Summaries made again on a read since the process started (see the module's docstring)."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = Lock()

    def add(self, made: int) -> None:
        with self._lock:
            self.count += made
        for _ in range(made):
            metrics.count("summaries_rebuilt")


rebuilt_summaries = _Rebuilds()


def table_summaries(table_id: int, versions: Versions | None = None) -> list[GameSummary]:
    """Every game of the table, newest first, from the stored summaries; one not current is
    made again from the game's deals (``versions`` is no longer needed: the stored summaries
    carry theirs)."""
    return table_summaries_read(table_id)[0]


def table_summaries_read(table_id: int) -> tuple[list[GameSummary], Versions | None]:
    """``table_summaries``, and the (game id, version) of the games when every summary was
    current as stored (None when one was made again)."""
    rows = db.session.execute(_STORED, {"table_id": table_id}).all()
    current = [row.stored_version == row.version and row.format == SUMMARY_FORMAT for row in rows]
    parsed = iter(_parsed([row.summary for row, ok in zip(rows, current, strict=True) if ok]))
    found: list[GameSummary | None] = []
    missing: dict[int, int] = {}
    for row, ok in zip(rows, current, strict=True):
        if ok:
            found.append(from_stored(row, row.id, row.version, next(parsed)))
            continue
        kept = summaries.get((row.id, row.version))
        if kept is None:
            missing[row.id] = len(found)
        found.append(kept)
    if missing or not all(current):
        if missing:
            _rebuild(missing, found)
        return [summary for summary in found if summary is not None], None
    return [summary for summary in found if summary is not None], tuple(
        (row.id, row.version) for row in rows
    )


def _parsed(texts: list[str]) -> list[Any]:
    """Stored summaries (JSON text), parsed in one call."""
    return json.loads("[" + ",".join(texts) + "]") if texts else []


def _rebuild(missing: dict[int, int], found: list[GameSummary | None]) -> None:
    """Make the summaries of the games ``missing`` (game id -> place in ``found``) again."""
    made = 0
    for chunk in _chunks(list(missing), LOAD_CHUNK):
        for game in games_newest_first(Game.id.in_(chunk)):
            summary = summarize(game)
            summaries.put(summary)
            found[missing[game.id]] = summary
            made += 1
    rebuilt_summaries.add(made)
    log.info("summaries made again on reading: %d", made)


def _chunks(items: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def seat_rows(table_id: int) -> SeatRows:
    """(game id, side position, player id) of every seat at the table's games."""
    rows = db.session.execute(
        select(GameSide.game_id, GameSide.position, Seat.player_id)
        .join(Seat, Seat.side_id == GameSide.id)
        .join(Game, Game.id == GameSide.game_id)
        .where(Game.table_id == table_id)
        .order_by(GameSide.game_id, GameSide.position, Seat.position)
    )
    return tuple((game_id, position, player_id) for game_id, position, player_id in rows)


def table_seats(table_id: int, rows: SeatRows | None = None) -> dict[int, list[list[int]]]:
    """The player ids seated on each side of each of the table's games: game id -> sides."""
    rows = rows if rows is not None else seat_rows(table_id)
    seats: dict[int, list[list[int]]] = {}
    for game_id, position, player_id in rows:
        sides = seats.setdefault(game_id, [])
        while len(sides) <= position:
            sides.append([])
        sides[position].append(player_id)
    return seats
