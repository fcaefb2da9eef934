"""A card table's statistics over all its games (``table_statistics``), kept up to date by
every change to its games, in the change's own transaction: the statistics page reads one row
and no game's summary.

- A deal saved, edited, deleted or undone, a game deleted (``store.deal_writes``), a game
  imported with the table (``new_games``, after the flush that adds it): the game's part is
  taken out of the table's numbers as it was and put in as it is now (``store.tallies``).
  Only finished games count: a change to a game still being played before and after it (a
  deal of it saved, a game started) writes nothing here. The rules a table played, which
  the filter lists, are read from its games (``played_rules``), not from here.
- Players merged: the table's numbers are made again from its games (``remake``).
- A player renamed changes nothing here: the page reads the players' names as they are now.

Two changes to games of one table at once both count: each takes the row's lock (``SELECT
... FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time) before it reads the numbers,
so the second reads them with the first's change. A table without a row (or with a row of an
older shape) gets its numbers made from all its games under the same lock; when two changes
both find none, the second one's INSERT waits for the first's, finds the row, and changes it.
The page never writes the row: a table without one is counted from its games' summaries
until its next change (migration 0015 made one for every table).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Connection, ForeignKey, Integer, event, func, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from scorekeeper.extensions import Model, db, insert_into, table_of
from scorekeeper.store.game_summary import SUMMARY_FORMAT, GameSummary, from_stored
from scorekeeper.store.games import Game, GameSide, StoredSummary
from scorekeeper.store.players import Seat
from scorekeeper.store.summary_writes import read_states
from scorekeeper.store.tallies import STORED_FORMAT, Tallies, from_stored_data, stored_data, tallies


class StoredStatistics(Model):
    """A table's numbers over all its games (``store.tallies``), in the shape ``format``."""

    __tablename__ = "table_statistics"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), primary_key=True
    )
    format: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


STATISTICS = table_of(StoredStatistics)


def stored_statistics(table_id: int) -> Tallies | None:
    """The table's numbers as stored, or None when it has none of today's shape."""
    data = db.session.execute(
        select(StoredStatistics.data).where(
            StoredStatistics.table_id == table_id, StoredStatistics.format == STORED_FORMAT
        )
    ).scalar_one_or_none()
    return None if data is None else from_stored_data(data)


@dataclass(slots=True)
class GameRow:
    """What a game's part in its table's numbers is made of, besides its summary."""

    game_id: int
    table_id: int | None
    created_at: datetime
    name: str
    variant_id: str
    players: int
    sides: list[list[int]]

    def part(self, data: list[Any]) -> GamePart:
        """The game's part with the summary ``data`` (as ``summary_data`` makes it)."""
        return GamePart(self.table_id, from_stored(self, self.game_id, 0, data), self.sides)


@dataclass(frozen=True, slots=True)
class GamePart:
    table_id: int | None
    summary: GameSummary
    sides: list[list[int]]


Change = tuple[GamePart | None, GamePart | None]
"""A game's part before a change and after it (None: no game, or no table's)."""


def game_rows(connection: Connection, game_ids: Collection[int]) -> dict[int, GameRow]:
    """The games as this transaction sees them, with the players on each of their sides."""
    ids = list(game_ids)
    sides: dict[int, list[list[int]]] = {}
    for game_id, position, player_id in connection.execute(
        select(GameSide.game_id, GameSide.position, Seat.player_id)
        .join(Seat, Seat.side_id == GameSide.id)
        .where(GameSide.game_id.in_(ids))
        .order_by(GameSide.game_id, GameSide.position, Seat.position)
    ):
        seated = sides.setdefault(game_id, [])
        while len(seated) <= position:
            seated.append([])
        seated[position].append(player_id)
    return {
        row.id: GameRow(
            row.id,
            row.table_id,
            row.created_at,
            row.name,
            row.variant_id,
            row.players,
            sides.get(row.id, []),
        )
        for row in connection.execute(
            select(
                Game.id, Game.table_id, Game.created_at, Game.name, Game.variant_id, Game.players
            ).where(Game.id.in_(ids))
        )
    }


def finished(data: list[Any] | None) -> bool:
    """Whether a game's summary data (``summary_data``) is of a finished game."""
    return bool(data is not None and data[3])


def counts(before: list[Any] | None, after: list[Any] | None) -> bool:
    """Whether a change to a game's deals, from summary ``before`` to ``after``, changes what
    its table's statistics count (not when the game is still being played after it)."""
    return finished(before) or finished(after)


def follow(connection: Connection, changes: Iterable[Change]) -> None:
    """Change the numbers of the games' tables as the games changed (in the change's
    transaction, after it is written)."""
    by_table: dict[int, list[Change]] = {}
    for before, after in changes:
        if not _counted(before) and not _counted(after):
            continue
        for part in (before, after):
            if part is not None and part.table_id is not None:
                table_changes = by_table.setdefault(part.table_id, [])
                if not table_changes or table_changes[-1] != (before, after):
                    table_changes.append((before, after))
    for table_id, table_changes in sorted(by_table.items()):
        found = _locked(connection, table_id)
        if found is None:
            continue  # made from the games as they are now, this change with them
        for before, after in table_changes:
            if before is not None and before.table_id == table_id:
                found.take_out(before.summary, before.sides)
            if after is not None and after.table_id == table_id:
                found.put_in(after.summary, after.sides)
        _write(connection, table_id, found)


def _counted(part: GamePart | None) -> bool:
    """Whether the game counts in its table's numbers: finished (the rules played are read
    from the games themselves: ``played_rules``)."""
    return part is not None and part.table_id is not None and part.summary.finished


def played_rules(table_id: int) -> list[tuple[str, str]]:
    """(id, name) of every rules the table played, by name: the name its first game of those
    rules froze with them (as its summary names them: ``summary_data``)."""
    first = (
        select(func.min(Game.id))
        .where(Game.table_id == table_id)
        .group_by(Game.variant_id)
        .scalar_subquery()
    )
    rows = db.session.execute(select(Game.variant_id, Game.rules).where(Game.id.in_(first)))
    found = [(variant_id, str(rules.get("name", variant_id))) for variant_id, rules in rows]
    return sorted(found, key=lambda item: item[1].casefold())


def remake(connection: Connection, table_id: int) -> None:
    """Make the table's numbers again from all its games, under the row's lock."""
    if _locked(connection, table_id) is not None:
        _write(connection, table_id, made_from_games(connection, table_id))


def _locked(connection: Connection, table_id: int) -> Tallies | None:
    """The table's numbers, its row locked; None when there were none to change: then they
    are made from the games as this transaction sees them, and stored."""
    data = _lock(connection, table_id)
    if data is not None:
        return data
    made = stored_data(made_from_games(connection, table_id))
    inserted = connection.execute(
        insert_into(connection.dialect.name, STATISTICS)
        .values(table_id=table_id, format=STORED_FORMAT, data=made)
        .on_conflict_do_nothing(index_elements=[STATISTICS.c.table_id])
        .returning(STATISTICS.c.table_id)
    ).first()
    if inserted is not None:
        return None
    # Another change made the row meanwhile, without this one: change it as it is.
    return _lock(connection, table_id)


def _lock(connection: Connection, table_id: int) -> Tallies | None:
    row = connection.execute(
        select(STATISTICS.c.format, STATISTICS.c.data)
        .where(STATISTICS.c.table_id == table_id)
        .with_for_update()
    ).first()
    if row is None:
        return None
    if row.format != STORED_FORMAT:
        _write(connection, table_id, made_from_games(connection, table_id))
        return _lock(connection, table_id)
    return from_stored_data(row.data)


def _write(connection: Connection, table_id: int, found: Tallies) -> None:
    connection.execute(
        update(STATISTICS)
        .where(STATISTICS.c.table_id == table_id)
        .values(format=STORED_FORMAT, data=stored_data(found))
    )


def made_from_games(connection: Connection, table_id: int) -> Tallies:
    """The table's numbers made from its games' summaries as this transaction sees them (a
    summary not of its game's version is made again from the game's deals)."""
    rows = connection.execute(
        select(
            Game.id,
            Game.version,
            StoredSummary.version.label("stored_version"),
            StoredSummary.format,
            StoredSummary.summary,
        )
        .outerjoin(StoredSummary, StoredSummary.game_id == Game.id)
        .where(Game.table_id == table_id)
    ).all()
    data = {
        row.id: row.summary
        for row in rows
        if row.stored_version == row.version and row.format == SUMMARY_FORMAT
    }
    for game_id in [row.id for row in rows if row.id not in data]:
        try:
            states = read_states(connection, [game_id])
        except (KeyError, TypeError, ValueError):
            continue  # rules the rules core cannot read (see migration 0011): not counted
        for state in states.values():
            data[game_id] = state.summary_after()
    games = game_rows(connection, list(data))
    parts = [games[game_id].part(data[game_id]) for game_id in data if game_id in games]
    parts.sort(key=lambda part: (part.summary.created_at, part.summary.game_id), reverse=True)
    seats = {part.summary.game_id: part.sides for part in parts}
    return tallies([part.summary for part in parts], seats)


def new_games(session: Session, flush_context: Any) -> None:
    """After a flush: finished games it added with a table (imported) count in its numbers."""
    added = [
        obj.id
        for obj in session.new
        if isinstance(obj, Game)
        and obj.table_id is not None
        and obj.stored_summary is not None
        and finished(obj.stored_summary.summary)
    ]
    if not added:
        return
    connection = session.connection()
    rows = game_rows(connection, added)
    stored: dict[int, list[Any]] = dict(
        connection.execute(
            select(StoredSummary.game_id, StoredSummary.summary).where(
                StoredSummary.game_id.in_(added)
            )
        ).all()
    )
    follow(
        connection,
        [(None, rows[game_id].part(stored[game_id])) for game_id in rows if game_id in stored],
    )


event.listen(Session, "after_flush", new_games)


def parts_of(rows: dict[int, GameRow], data: dict[int, list[Any]]) -> dict[int, GamePart]:
    return {game_id: rows[game_id].part(made) for game_id, made in data.items() if game_id in rows}


__all__: Sequence[str] = [
    "GamePart",
    "GameRow",
    "StoredStatistics",
    "counts",
    "follow",
    "game_rows",
    "made_from_games",
    "new_games",
    "parts_of",
    "remake",
    "stored_statistics",
]
