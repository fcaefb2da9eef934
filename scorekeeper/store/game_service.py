"""Games through the ORM: start one, and load games for their pages.

Deals are saved and deleted, and games deleted, without the ORM, by ``writes``: the one place
that counts a game's version for them and locks in one order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.extensions import db
from scorekeeper.rules.variants import Table, Variant
from scorekeeper.store.games import Deal, Game, GameSide
from scorekeeper.store.links import issue_tokens
from scorekeeper.store.people import seat_players
from scorekeeper.store.summary_writes import new_summary
from scorekeeper.store.tables import CardTable

Place = tuple[datetime, int]
"""Where a game stands in the newest-first order: when it was made, and its id."""


def start_game(variant: Variant, table: Table, side_names: Sequence[str], name: str = "") -> Game:
    """A new game of `variant` at `table`, keeping a frozen copy of the variant's rules.

    The game gets its view and edit links; whoever started it in a request gets the edit link
    (see ``links.issue_tokens``), and its summary (no deal yet), added with it.
    """
    if len(side_names) != table.sides:
        raise ValueError(f"{table.sides} side names are needed, not {len(side_names)}")
    game = Game(
        name=name,
        variant_id=variant.id,
        rules=variant.to_dict(),
        players=table.players,
        version=1,
        sides=[GameSide(position=i, name=side) for i, side in enumerate(side_names)],
    )
    game.stored_summary = new_summary(game)
    issue_tokens(game)
    db.session.add(game)
    return game


def start_game_at(
    owner: CardTable,
    variant: Variant,
    table: Table,
    side_names: Sequence[str],
    players: Sequence[Sequence[str]],
    name: str = "",
) -> Game:
    """A new game kept with the card table ``owner``, its named people seated on its sides
    (``players[i]``: side i's). The new-game page and the API both start games so."""
    game = start_game(variant, table, side_names, name)
    game.card_table = owner
    seat_players(game, owner, players)
    return game


def games_newest_first(
    where: ColumnElement[bool], *, after: Place | None = None, limit: int | None = None
) -> list[Game]:
    """The games ``where`` picks, with their sides and deals loaded, newest first; with
    ``after``, only those after that place (a page of a list), at most ``limit``."""
    if after is not None:
        made, game_id = after
        where = and_(
            where,
            or_(Game.created_at < made, and_(Game.created_at == made, Game.id < game_id)),
        )
    query = (
        select(Game)
        .where(where)
        .options(
            selectinload(Game.sides),
            selectinload(Game.deals).selectinload(Deal.sides),
        )
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(limit)
    )
    return list(db.session.scalars(query))


def table_game_count(table_id: int) -> int:
    return db.session.scalar(select(func.count(Game.id)).where(Game.table_id == table_id)) or 0


def table_games_page(table_id: int, skip: int, count: int) -> list[Game]:
    """``count`` games of the table after the ``skip`` newest, newest first, with their sides
    and deals loaded."""
    query = (
        select(Game)
        .where(Game.table_id == table_id)
        .options(
            selectinload(Game.sides),
            selectinload(Game.deals).selectinload(Deal.sides),
        )
        .order_by(Game.created_at.desc(), Game.id.desc())
        .offset(skip)
        .limit(count)
    )
    return list(db.session.scalars(query))


def undoable_deal(game: Game) -> Deal | None:
    """The deal that can be undone: the game's last change, a new deal saved (not an edit);
    None when the game changed otherwise since (a deal edited or deleted). As the pages offer
    the Undo: the game moved one version on by the save, which the deal keeps as its own."""
    if not game.deals:
        return None
    last = max(game.deals, key=lambda deal: deal.version)
    if last.version + 1 != game.version or last.created_at != last.updated_at:
        return None
    return last


# Built once: nearly every request of a game loads it.
_WITH_SIDES = [joinedload(Game.sides)]
_DEALS_OF_GAME = (
    select(Deal)
    .where(Deal.game_id == bindparam("game_id"))
    .options(joinedload(Deal.sides))
    .order_by(Deal.number)
)


def load_game(game_id: int) -> Game | None:
    """One game with everything the scoreboard reads: the game and its sides (read already
    when the address's token was looked up, see ``links.resolve``), then its deals
    with their sides, in one query."""
    game = db.session.get(Game, game_id, options=_WITH_SIDES)
    if game is None:
        return None
    deals = db.session.scalars(_DEALS_OF_GAME, {"game_id": game_id}).unique()
    set_committed_value(game, "deals", list(deals))
    return game
