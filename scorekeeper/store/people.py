"""The players of a card table: found by name, seated in games, renamed and merged.

Callers commit. A name typed at a table is matched to its player by ``player_key`` (case,
width and spacing aside), so "ann " in June is the "Ann" of March.

Every change to a table's players or seats reads first (is the name taken? who sat where?)
and then writes, so two phones changing them at once take turns: each change first holds the
table (``hold_people``) until its transaction ends, and reads only then. The second change
reads what the first wrote: a game naming "Anne" while "Anne" is merged into "Ann" seats
whoever is there when its turn comes, two games naming a new player make that player once,
and of two renames to one name the second is refused with the usual message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import bindparam, delete, exists, func, select, update
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.store.games import Game, GameSide
from scorekeeper.store.players import Player, Seat, player_key
from scorekeeper.store.summary_writes import summary_follows_version
from scorekeeper.store.table_statistics import remake
from scorekeeper.store.tables import CardTable, utcnow


class PlayerRefused(ValueError):
    """A rename or merge that would make no sense: the message says why."""


_HOLD_TABLE = (
    update(CardTable)
    .where(CardTable.id == bindparam("table_id"))
    .values(updated_at=bindparam("now"))
)


def hold_people(table_id: int) -> None:
    """Hold the table's players and seats for this transaction: a change of them elsewhere
    waits until it ends. Call it before reading what the change depends on.

    The hold is a write of the table's row: on PostgreSQL its lock (FOR NO KEY UPDATE, which
    does not wait for the foreign keys' shares of new games and players), on SQLite the
    database's one write lock. The row's ``updated_at`` says the table was used.
    """
    db.session.connection().execute(_HOLD_TABLE, {"table_id": table_id, "now": utcnow()})


def table_players(table_id: int) -> list[Player]:
    """The table's players, by name."""
    query = select(Player).where(Player.table_id == table_id).order_by(Player.key, Player.id)
    return list(db.session.scalars(query))


def find_or_add(table: CardTable, name: str) -> Player:
    """The table's player of this name, made when the name is new at the table."""
    key = player_key(name)
    if table.id is not None:
        found = db.session.scalar(
            select(Player).where(Player.table_id == table.id, Player.key == key)
        )
        if found is not None:
            return found
    for pending in db.session.new:
        if isinstance(pending, Player) and pending.key == key and pending.card_table is table:
            return pending
    player = Player(name=name, key=key, card_table=table)
    db.session.add(player)
    return player


def seat_players(game: Game, table: CardTable, players: Sequence[Sequence[str]]) -> None:
    """Seat the named people on the game's sides (``players[i]``: side i's names)."""
    db.session.flush()
    hold_people(table.id)
    for side, names in zip(game.sides, players, strict=True):
        for position, name in enumerate(names):
            db.session.add(Seat(side=side, position=position, player=find_or_add(table, name)))


def seats_of(game: Game) -> list[list[Player]]:
    """The players seated on each side of the game, read by one query (not side by side)."""
    place = {side.position: index for index, side in enumerate(game.sides)}
    seated: list[list[Player]] = [[] for _side in game.sides]
    rows = db.session.execute(
        select(GameSide.position, Player)
        .join(Seat, Seat.side_id == GameSide.id)
        .join(Player, Player.id == Seat.player_id)
        .where(GameSide.game_id == game.id)
        .order_by(GameSide.position, Seat.position)
    )
    for position, player in rows:
        seated[place[position]].append(player)
    return seated


def seated_names(game: Game) -> list[list[str]]:
    """Each side's players by name when the whole side is named, else nobody."""
    per_side = game.players // max(1, len(game.sides))
    sides = [[player.name for player in side] for side in seats_of(game)]
    return [side if len(side) == per_side else [] for side in sides]


def player_of(table_id: int, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    return player if player is not None and player.table_id == table_id else None


def rename(player: Player, name: str) -> None:
    """Give the player a new name; refused when another player of the table has it. The
    caller holds the table (``hold_people``) since before it found the player."""
    key = player_key(name)
    clash = db.session.scalar(
        select(Player).where(
            Player.table_id == player.table_id, Player.key == key, Player.id != player.id
        )
    )
    if clash is not None:
        raise PlayerRefused(
            _(
                "%(name)s is already a player of this table. To make them one person, merge them.",
                name=clash.name,
            )
        )
    player.name = name
    player.key = key


def merge(typo: Player, kept: Player) -> None:
    """Make two players of the table one person: ``typo``'s games go to ``kept``.

    Refused when both sat in the same game: two people played there. The caller holds the
    table (``hold_people``) since before it found the players.
    """
    if typo.id == kept.id or typo.table_id != kept.table_id:
        raise PlayerRefused(_("Choose two different players of this table."))
    if _played_together(typo.id, kept.id):
        raise PlayerRefused(
            _(
                "%(first)s and %(second)s played in the same game: they are two people.",
                first=typo.name,
                second=kept.name,
            )
        )
    # Who sat in those games changed: a new version for each, so that nothing kept of them
    # (history.pages) is shown again; their stored summaries move on with them.
    changed = (
        select(GameSide.game_id)
        .join(Seat, Seat.side_id == GameSide.id)
        .where(Seat.player_id == typo.id)
        .scalar_subquery()
    )
    summary_follows_version(changed)
    db.session.execute(
        update(Game).where(Game.id.in_(changed)).values(version=Game.version + 1),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(update(Seat).where(Seat.player_id == typo.id).values(player_id=kept.id))
    db.session.execute(delete(Player).where(Player.id == typo.id))
    # Whose numbers the games count changed: the table's statistics are made again.
    remake(db.session.connection(), typo.table_id)
    db.session.expire_all()


def _played_together(first: int, second: int) -> bool:
    other = aliased(Seat)
    other_side = aliased(GameSide)
    query = (
        select(Seat.id)
        .join(GameSide, GameSide.id == Seat.side_id)
        .where(
            Seat.player_id == first,
            exists()
            .where(other.player_id == second)
            .where(other.side_id == other_side.id)
            .where(other_side.game_id == GameSide.game_id),
        )
    )
    return db.session.scalar(query) is not None


@dataclass(frozen=True, slots=True)
class PlayerCount:
    player: Player
    games: int


def players_with_games(table_id: int) -> list[PlayerCount]:
    """The table's players with the number of games each sat in, by name."""
    games = (
        select(func.count(func.distinct(GameSide.game_id)))
        .join(Seat, Seat.side_id == GameSide.id)
        .where(Seat.player_id == Player.id)
        .scalar_subquery()
    )
    query = select(Player, games).where(Player.table_id == table_id).order_by(Player.key, Player.id)
    return [PlayerCount(player, count or 0) for player, count in db.session.execute(query)]


def known_player_names(tables: Sequence[tuple[object, str]]) -> list[str]:
    """The names of the players of the tables offered (``(id, name)`` choices), for hints."""
    ids = [table_id for table_id, _name in tables if isinstance(table_id, int)]
    if not ids:
        return []
    query = select(Player.name, Player.key).where(Player.table_id.in_(ids)).order_by(Player.key)
    return list(dict.fromkeys(name for name, _key in db.session.execute(query)))
