"""Stored summaries: each game's summary for the statistics, made for every existing game.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 23:10:00.000000

The summaries are made by the rules core (``store.game_summary.summary_data``, pure Python
over the rules and entries read here), at each game's version, a few hundred games at a time.
Creating a table needs no batch mode on SQLite; the same statements run on PostgreSQL.
"""

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry, SideEntry
from scorekeeper.rules.variants import variant_from_dict
from scorekeeper.store.game_summary import SUMMARY_FORMAT, summary_data

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

CHUNK = 300

_summaries = sa.table(
    "game_summaries",
    sa.column("game_id", sa.Integer()),
    sa.column("version", sa.Integer()),
    sa.column("format", sa.Integer()),
    sa.column("summary", sa.JSON()),
)


def upgrade() -> None:
    op.create_table(
        "game_summaries",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_game_summaries_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_summaries")),
    )
    connection = op.get_bind()
    ids = connection.execute(sa.text("SELECT id FROM game ORDER BY id")).scalars().all()
    for chunk in _chunks(ids, CHUNK):
        rows = list(_summaries_of(connection, chunk))
        if rows:
            connection.execute(_summaries.insert(), rows)


def downgrade() -> None:
    op.drop_table("game_summaries")


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _summaries_of(connection: sa.Connection, ids: Sequence[int]) -> Iterator[dict[str, Any]]:
    """Each game's summary row, from its rows as this revision finds them."""
    games = sa.table(
        "game",
        sa.column("id"),
        sa.column("version"),
        sa.column("rules", sa.JSON()),
        sa.column("players"),
    )
    sides = sa.table("game_side", sa.column("game_id"), sa.column("position"), sa.column("name"))
    found = connection.execute(
        sa.select(games.c.id, games.c.version, games.c.rules, games.c.players).where(
            games.c.id.in_(ids)
        )
    ).all()
    names: dict[int, list[str]] = {}
    for game_id, name in connection.execute(
        sa.select(sides.c.game_id, sides.c.name)
        .where(sides.c.game_id.in_(ids))
        .order_by(sides.c.game_id, sides.c.position)
    ):
        names.setdefault(game_id, []).append(name)
    entries = _entries(connection, ids)
    for game_id, version, rules, players in found:
        try:
            variant = variant_from_dict(rules)
        except (KeyError, TypeError, ValueError):
            # Rules the rules core cannot read: no summary stored; the page that reads the
            # game meets them as it did before this revision.
            continue
        made = [
            DealEntry(
                variant=variant,
                deal=number,
                sides=tuple(entered),
                players=players,
                stock_ran_out=ran_out,
            )
            for number, ran_out, entered in entries.get(game_id, [])
        ]
        data = summary_data(variant, rules, names.get(game_id, []), made)
        yield {"game_id": game_id, "version": version, "format": SUMMARY_FORMAT, "summary": data}


def _entries(
    connection: sa.Connection, ids: Sequence[int]
) -> dict[int, list[tuple[int, bool, list[SideEntry]]]]:
    """game id -> (deal number, stock ran out, its sides' entries), in deal order. A field
    this revision's ``deal_side`` has no column for yet is left at the entry's default."""
    present = {column["name"] for column in sa.inspect(connection).get_columns("deal_side")}
    fields = [name for name in SIDE_FIELDS if name in present]
    deal = sa.table(
        "deal",
        sa.column("id"),
        sa.column("game_id"),
        sa.column("number"),
        sa.column("stock_ran_out", sa.Boolean()),
    )
    side = sa.table(
        "deal_side",
        sa.column("deal_id"),
        sa.column("position"),
        *(sa.column(name) for name in fields),
    )
    rows = connection.execute(
        sa.select(
            deal.c.game_id, deal.c.number, deal.c.stock_ran_out, *(side.c[name] for name in fields)
        )
        .join(side, side.c.deal_id == deal.c.id)
        .where(deal.c.game_id.in_(ids))
        .order_by(deal.c.game_id, deal.c.number, side.c.position)
    )
    found: dict[int, list[tuple[int, bool, list[SideEntry]]]] = {}
    for row in rows:
        deals = found.setdefault(row.game_id, [])
        if not deals or deals[-1][0] != row.number:
            deals.append((row.number, bool(row.stock_ran_out), []))
        deals[-1][2].append(SideEntry(**{name: row._mapping[name] for name in fields}))
    return found
