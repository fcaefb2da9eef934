"""A game's stored summary (``game_summaries``), written in the transaction of every change to
the game, so that the statistics read it and score no game.

- A game started or imported gets its summary row with it (``new_summary``), in the same flush.
- A deal saved (``deal_writes.write_deal``) has its game's summary made before the write, from
  the deals stored then and the deal being saved, and written by the same statement (PostgreSQL)
  or transaction (SQLite), only where the game was still at the version those deals were read
  at: the write counts the game's version under the game's lock and returns the version it
  found, so a save that came in between leaves nothing wrong behind. Then, rarely, the summary
  is made again from what is stored (``refresh_summaries``).
- A deal deleted or undone: ``refresh_summaries`` after the write, in the same transaction,
  which holds the game's lock.
- The table's statistics follow the summaries in the same transactions
  (``table_statistics``).
- Players merged: the games' versions move on and nothing of their summaries changes but
  their version (``summary_follows_version``).
- A player renamed changes no game (the statistics read the players' names as they are now),
  and no game is renamed once started: neither writes a summary.

Every write is a guarded upsert: a summary is stored only with the version of the game it was
made at (the game still at that version when the statement runs), and never replaces one of a
later version. A summary can then be missing or behind (the read makes it again), never
wrong for the version it carries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    ScalarSelect,
    bindparam,
    exists,
    select,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from scorekeeper.extensions import db, table_of
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry, SideEntry
from scorekeeper.rules.variants import Variant, variant_from_dict
from scorekeeper.store.game_summary import SUMMARY_FORMAT, summary_data
from scorekeeper.store.games import Deal, DealSide, Game, GameSide, StoredSummary
from scorekeeper.store.scores import deal_entry, game_variant

SUMMARIES = table_of(StoredSummary)
READ_CHUNK = 400


@dataclass(slots=True)
class GameState:
    """A game's deals as stored, with the game's version read before them."""

    version: int
    variant: Variant
    rules: dict[str, Any]
    players: int
    side_names: tuple[str, ...]
    entries: dict[int, DealEntry]

    def summary_after(self, entry: DealEntry | None = None) -> list[Any]:
        """The summary of the game with ``entry`` saved (stored as a deal row would read)."""
        entries = dict(self.entries)
        if entry is not None:
            entries[entry.deal] = replace(
                entry, variant=self.variant, players=self.players, running_scores=None
            )
        return summary_data(self.variant, self.rules, self.side_names, list(entries.values()))


def new_summary(game: Game) -> StoredSummary:
    """The summary row of a game made through the ORM (started, imported), from the deals it
    is made with; added with the game."""
    variant = game_variant(game)
    entries = [deal_entry(game, deal, variant) for deal in game.deals]
    data = summary_data(variant, game.rules, game.side_names, entries)
    return StoredSummary(version=game.version, format=SUMMARY_FORMAT, summary=data)


def read_states(connection: Connection, game_ids: Collection[int]) -> dict[int, GameState]:
    """The games' stored deals. Each game's version is read first: a change that comes between
    the reads moves it on, and the summary made from them is then not stored at it."""
    ids = list(game_ids)
    games = connection.execute(
        select(Game.id, Game.version, Game.rules, Game.players).where(Game.id.in_(ids))
    ).all()
    names: dict[int, list[str]] = {}
    for game_id, name in connection.execute(
        select(GameSide.game_id, GameSide.name)
        .where(GameSide.game_id.in_(ids))
        .order_by(GameSide.game_id, GameSide.position)
    ):
        names.setdefault(game_id, []).append(name)
    states = {
        row.id: GameState(
            row.version,
            variant_from_dict(row.rules),
            row.rules,
            row.players,
            tuple(names.get(row.id, ())),
            {},
        )
        for row in games
        if row.id in names  # a game without sides was deleted since its row was read
    }
    _read_entries(connection, ids, states)
    return states


_DEAL_ROWS = (
    select(
        Deal.game_id,
        Deal.number,
        Deal.stock_ran_out,
        *(getattr(DealSide, name) for name in SIDE_FIELDS),
    )
    .join(DealSide, DealSide.deal_id == Deal.id)
    .where(Deal.game_id.in_(bindparam("ids", expanding=True)))
    .order_by(Deal.game_id, Deal.number, DealSide.position)
)


def _read_entries(connection: Connection, ids: list[int], states: dict[int, GameState]) -> None:
    sides: dict[tuple[int, int], list[SideEntry]] = {}
    ran_out: dict[tuple[int, int], bool] = {}
    for row in connection.execute(_DEAL_ROWS, {"ids": ids}):
        key = (row.game_id, row.number)
        side = SideEntry(**{name: row._mapping[name] for name in SIDE_FIELDS})
        sides.setdefault(key, []).append(side)
        ran_out[key] = row.stock_ran_out
    for (game_id, number), entered in sides.items():
        state = states.get(game_id)
        if state is not None:
            state.entries[number] = DealEntry(
                variant=state.variant,
                deal=number,
                sides=tuple(entered),
                players=state.players,
                stock_ran_out=ran_out[(game_id, number)],
            )


def summary_values(game_id: int, version: int, data: list[Any]) -> dict[str, Any]:
    """The parameters of ``store_summary`` (and of the deal save's statement)."""
    return {
        "summary_game": game_id,
        "summary_version": version,
        "summary_format": SUMMARY_FORMAT,
        "summary_data": data,
    }


SUMMARY_DATA = bindparam("summary_data", type_=JSON)


def summary_upsert(dialect: str, made_at: ScalarSelect[Any] | Any, where: Any) -> Any:
    """INSERT the summary made at version ``made_at`` (a column or parameter) of game
    ``:summary_game`` where ``where`` holds, or UPDATE the stored one when it is not of a
    later version."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    row = select(
        bindparam("summary_game", type_=SUMMARIES.c.game_id.type),
        made_at,
        bindparam("summary_format", type_=SUMMARIES.c.format.type),
        type_coerce(SUMMARY_DATA, JSON),
    ).where(where)
    statement = insert(SUMMARIES).from_select(["game_id", "version", "format", "summary"], row)
    return statement.on_conflict_do_update(
        index_elements=[SUMMARIES.c.game_id],
        set_={
            "version": statement.excluded.version,
            "format": statement.excluded.format,
            "summary": statement.excluded.summary,
        },
        where=SUMMARIES.c.version <= statement.excluded.version,
    )


_SUMMARY_VERSION = bindparam("summary_version", type_=SUMMARIES.c.version.type)
_GAME_AT_VERSION = exists().where(
    Game.id == bindparam("summary_game", type_=SUMMARIES.c.game_id.type),
    Game.version == _SUMMARY_VERSION,
)
_STORE = {
    dialect: summary_upsert(dialect, _SUMMARY_VERSION, _GAME_AT_VERSION)
    for dialect in ("postgresql", "sqlite")
}


def store_summaries(connection: Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Store summaries (``summary_values``), each only while its game is at its version."""
    if rows:
        connection.execute(_STORE[connection.dialect.name], list(rows))


def refresh_summaries(game_ids: Iterable[int]) -> dict[int, list[Any]]:
    """Score the games as this transaction sees them, and store their summaries, which are
    returned (game id -> summary data). Called after a change, in its transaction (which holds
    the games' rows), it always stores them."""
    connection = db.session.connection()
    ids = list(dict.fromkeys(game_ids))
    made: dict[int, list[Any]] = {}
    for start in range(0, len(ids), READ_CHUNK):
        states = read_states(connection, ids[start : start + READ_CHUNK])
        found = {game_id: state.summary_after() for game_id, state in states.items()}
        store_summaries(
            connection,
            [
                summary_values(game_id, states[game_id].version, data)
                for game_id, data in found.items()
            ],
        )
        made.update(found)
    return made


def summary_follows_version(changed: Any) -> None:
    """The summaries of the games ``changed`` (a subquery of game ids) move on with the games'
    versions, which are about to be counted one more: call before the games' update. What
    they hold does not change (a merge changes who sat, which summaries do not hold); a
    summary already behind its game stays behind."""
    db.session.execute(
        update(StoredSummary)
        .where(
            StoredSummary.game_id.in_(changed),
            StoredSummary.version
            == select(Game.version).where(Game.id == StoredSummary.game_id).scalar_subquery(),
        )
        .values(version=StoredSummary.version + 1),
        execution_options={"synchronize_session": False},
    )
