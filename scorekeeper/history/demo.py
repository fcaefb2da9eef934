"""A season for trying: the demo bots play games at a card table, stored like any other.

Each game seats players drawn from a pool of names (the table's players, by name), and the
games are spread back over the days before now, one every ``days_apart`` days, so that the
season's charts have a time axis. The bench stores a thousand games this way, repeating the
deals of ``distinct`` played games (a bot game takes a tenth of a second).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta

import click
from flask.cli import with_appcontext

from scorekeeper.engine.game import DemoGame, default_table, play_game
from scorekeeper.extensions import db
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import UnknownVariant, Variant, get_variant
from scorekeeper.store.deal_writes import write_deal
from scorekeeper.store.game_service import start_game
from scorekeeper.store.people import seat_players
from scorekeeper.store.tables import CardTable, utcnow

DEFAULT_NAMES = ("Ann", "Bob", "Chloé", "Dieter", "Emi", "Francesca", "Ginny", "Hugo")


def store_season(
    table: CardTable,
    variant: Variant,
    games: int,
    seed: int = 1,
    names: Sequence[str] = DEFAULT_NAMES,
    days_apart: float = 3.0,
    distinct: int | None = None,
) -> int:
    """Play (or repeat) ``games`` bot games at the table and store them; commits as it goes."""
    rng = random.Random(seed)
    played: list[DemoGame] = []
    start = utcnow() - timedelta(days=days_apart * games)
    for number in range(games):
        if distinct is None or len(played) < distinct:
            demo = play_game(variant, seed + number)
            for entry in demo.entries:
                if not validate_deal(entry).ok:
                    raise ValueError(f"the bots played an invalid deal (seed {seed + number})")
            played.append(demo)
        else:
            demo = played[number % distinct]
        _store(table, demo, rng, names, start + timedelta(days=days_apart * number))
        if number % 50 == 49:
            db.session.commit()
    db.session.commit()
    return games


def _store(
    table: CardTable, demo: DemoGame, rng: random.Random, names: Sequence[str], when: datetime
) -> None:
    seated = rng.sample(list(names), demo.table.players)
    sides = [
        [seated[p] for p in range(demo.table.players) if p % demo.table.sides == side]
        for side in range(demo.table.sides)
    ]
    side_names = [" & ".join(side) if len(side) > 1 else side[0] for side in sides]
    game = start_game(demo.variant, demo.table, side_names)
    game.card_table = table
    game.created_at = when
    seat_players(game, table, sides)
    db.session.flush()
    for entry in demo.entries:
        write_deal(game, entry, based_on=0)


@click.command("demo-season")
@click.argument("table_id", type=int)
@click.option("--games", type=click.IntRange(1, 5000), default=100, show_default=True)
@click.option("--variant", default="pagat", show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--names",
    default=",".join(DEFAULT_NAMES),
    show_default=True,
    help="The pool of players, comma-separated (at least as many as a game seats).",
)
@with_appcontext
def demo_season_command(table_id: int, games: int, variant: str, seed: int, names: str) -> None:
    """Bots play GAMES games at card table TABLE_ID, stored like any other (a season to try)."""
    table = db.session.get(CardTable, table_id)
    if table is None:
        raise click.ClickException(f"There is no table {table_id}.")
    try:
        rules = get_variant(variant)
    except UnknownVariant:
        raise click.ClickException(f"Unknown variant {variant!r}.") from None
    pool = [name.strip() for name in names.split(",") if name.strip()]
    seats = default_table(rules).players
    if len(set(pool)) < seats:
        raise click.ClickException(f"A game of {variant} seats {seats}: name at least {seats}.")
    stored = store_season(table, rules, games, seed, pool)
    click.echo(f"{stored} games stored at table {table_id}.")
