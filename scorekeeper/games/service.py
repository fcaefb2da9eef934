"""Changes to stored games through the ORM: start one, save a deal (new or edited), delete;
and loading a game for its pages.

Callers validate first (``rules.validation.validate_deal``); these only store entries and
leave the session for the caller to commit. The deal form's save, which many phones make at
once, writes without the ORM: see ``writes``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry
from scorekeeper.rules.variants import Table, Variant

from .links import issue_tokens
from .models import Deal, DealSide, Game, GameSide, utcnow


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


def save_deal(game: Game, entry: DealEntry) -> Deal:
    """Store the entry as deal `entry.deal` of the game: a new deal, or an edit of it."""
    deal = game.deal(entry.deal)
    if deal is None:
        deal = Deal(number=entry.deal, version=1)
        game.deals.append(deal)
        deal.sides = [DealSide(position=i) for i in range(len(entry.sides))]
    else:
        deal.version += 1
        deal.updated_at = utcnow()
    deal.stock_ran_out = entry.stock_ran_out
    for row, side in zip(deal.sides, entry.sides, strict=True):
        for name in SIDE_FIELDS:
            setattr(row, name, getattr(side, name))
    game.updated_at = utcnow()
    changed(game)
    return deal


def delete_deal(game: Game, deal: Deal) -> None:
    game.deals.remove(deal)
    game.updated_at = utcnow()
    changed(game)


def changed(game: Game) -> None:
    """One more game version, counted in the database (two saves at once both count)."""
    if inspect(game).persistent:
        game.version = Game.version + 1
    else:  # not written yet: counted here, written with the game
        game.version = (game.version or 1) + 1


def games_newest_first() -> list[Game]:
    """Every game with its sides and deals loaded, newest first."""
    query = (
        select(Game)
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
