"""Games through the ORM: start one, and load games for their pages.

Deals are saved and deleted, and games deleted, without the ORM, by ``writes``: the one place
that counts a game's version for them and locks in one order.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.extensions import db
from scorekeeper.rules.variants import Table, Variant
from scorekeeper.store.games import Deal, Game, GameSide
from scorekeeper.store.links import issue_tokens


def start_game(variant: Variant, table: Table, side_names: Sequence[str], name: str = "") -> Game:
    """A new game of `variant` at `table`, keeping a frozen copy of the variant's rules.

    The game gets its view and edit links; whoever started it in a request gets the edit link
    (see ``links.issue_tokens``).
    """
    if len(side_names) != table.sides:
        raise ValueError(f"{table.sides} side names are needed, not {len(side_names)}")
    game = Game(
        name=name,
        variant_id=variant.id,
        rules=variant.to_dict(),
        players=table.players,
        sides=[GameSide(position=i, name=side) for i, side in enumerate(side_names)],
    )
    issue_tokens(game)
    db.session.add(game)
    return game


def games_newest_first(where: ColumnElement[bool]) -> list[Game]:
    """The games ``where`` picks, with their sides and deals loaded, newest first."""
    query = (
        select(Game)
        .where(where)
        .options(
            selectinload(Game.sides),
            selectinload(Game.deals).selectinload(Deal.sides),
        )
        .order_by(Game.created_at.desc(), Game.id.desc())
    )
    return list(db.session.scalars(query))


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
