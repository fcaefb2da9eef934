"""The server operator's commands: ``flask --app scorekeeper tables list | edit-link | export |
prune``. They see every card table, which no page does."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import click
from flask.cli import AppGroup
from sqlalchemy import delete, func, select

from scorekeeper.extensions import db
from scorekeeper.operator_links import renew_edit_link
from scorekeeper.store.game_service import games_newest_first
from scorekeeper.store.games import Game, GameSide
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.players import Player
from scorekeeper.store.tables import CardTable
from scorekeeper.store.transfer import export_games

tables_cli = AppGroup("tables", help="List, export and prune the card tables of this server.")


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _last_change(table_id: int | None) -> datetime | None:
    """When anything of the card table (or, for None, of the games without one) last changed."""
    games = db.session.scalar(select(func.max(Game.updated_at)).where(Game.table_id == table_id))
    if table_id is None:
        return games
    table = db.session.get(CardTable, table_id)
    rules = db.session.scalar(
        select(func.max(HouseVariant.updated_at)).where(HouseVariant.table_id == table_id)
    )
    moments = [moment for moment in (games, rules, table.updated_at if table else None) if moment]
    return max(moments) if moments else None


def _count(model: type[Game] | type[HouseVariant], table_id: int | None) -> int:
    return (
        db.session.scalar(select(func.count()).select_from(model).where(model.table_id == table_id))
        or 0
    )


def _players(table_id: int) -> str:
    """Who plays at the table, to tell tables of one name apart: its players by name, else the
    names of its games' sides; "-" for a table with neither."""
    names = list(
        db.session.scalars(
            select(Player.name).where(Player.table_id == table_id).order_by(Player.id)
        )
    )
    if not names:
        sides = db.session.scalars(
            select(GameSide.name)
            .join(Game, GameSide.game_id == Game.id)
            .where(Game.table_id == table_id)
            .order_by(GameSide.id)
        )
        names = list(dict.fromkeys(sides))
    return ", ".join(names) or "-"


def _moment(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M}" if moment else "-"


@tables_cli.command("list")
def list_command() -> None:
    """Every card table: id, made, last change, games, house rules, name, players."""
    click.echo("id\tmade\tlast change\tgames\trules\tname\tplayers")
    for table in db.session.scalars(select(CardTable).order_by(CardTable.id)):
        click.echo(
            f"{table.id}\t{_moment(table.created_at)}\t{_moment(_last_change(table.id))}\t"
            f"{_count(Game, table.id)}\t{_count(HouseVariant, table.id)}\t{table.name!r}\t"
            f"{_players(table.id)}"
        )
    alone = _count(Game, None)
    if alone:
        click.echo(f"-\t-\t{_moment(_last_change(None))}\t{alone}\t0\t(games without a table)")


@tables_cli.command("edit-link")
@click.argument("table_id", type=int)
def edit_link_command(table_id: int) -> None:
    """Make a new edit link for a card table (the old one stops working) and print its
    address."""
    renew_edit_link(CardTable, table_id, "table", "/t/")


@tables_cli.command("export")
@click.argument("table_id", type=int)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of standard output.",
)
def export_command(table_id: int, output: Path | None) -> None:
    """Export a card table's games as one import file (as /games/export.json makes)."""
    if db.session.get(CardTable, table_id) is None:
        raise click.ClickException(f"There is no table {table_id}.")
    games = games_newest_first(Game.table_id == table_id)
    text = json.dumps(export_games(games, _now()), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"{len(games)} games written to {output}.")


@tables_cli.command("prune")
@click.option(
    "--idle-days",
    type=click.IntRange(min=1),
    required=True,
    help="Delete what has not changed for this many days.",
)
@click.option("--yes", is_flag=True, help="Delete; without it, only list what would go.")
def prune_command(idle_days: int, yes: bool) -> None:
    """Delete card tables (with their games and house rules), and games without a table, that
    have not changed for IDLE_DAYS days."""
    cutoff = _now() - timedelta(days=idle_days)
    idle_tables = [
        table
        for table in db.session.scalars(select(CardTable).order_by(CardTable.id))
        if (_last_change(table.id) or table.created_at) < cutoff
    ]
    idle_games = list(
        db.session.scalars(select(Game.id).where(Game.table_id.is_(None), Game.updated_at < cutoff))
    )
    for table in idle_tables:
        click.echo(f"table {table.id} {table.name!r}: {_count(Game, table.id)} games")
    click.echo(
        f"{len(idle_tables)} tables and {len(idle_games)} games without a table idle "
        f"since {cutoff:%Y-%m-%d}."
    )
    if not yes:
        click.echo("Nothing deleted: add --yes to delete them.")
        return
    table_ids = [table.id for table in idle_tables]
    db.session.execute(delete(Game).where(Game.table_id.in_(table_ids)))
    db.session.execute(delete(Game).where(Game.id.in_(idle_games)))
    db.session.execute(delete(CardTable).where(CardTable.id.in_(table_ids)))
    db.session.commit()
    click.echo("Deleted.")
