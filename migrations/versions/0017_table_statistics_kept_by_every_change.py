"""Table statistics kept by every change: each card table's numbers, changed in the transaction
of every change to its games, made here for every table.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 04:40:00.000000

The rows of 0012 were made by the statistics page and checked against a digest of the games'
versions; they now carry the shape of their numbers (``format``) instead, and each game's
result its game id and best deal, so that a change takes one game's part out and puts it in
again (``store.table_statistics``). The table is made again, and every table's numbers made
from its games' stored summaries (a summary behind its game made again from its deals).
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.store.table_statistics import made_from_games
from scorekeeper.store.tallies import STORED_FORMAT, stored_data

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _create(digest: bool) -> None:
    op.create_table(
        "table_statistics",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False)
        if digest
        else sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_table.id"],
            name=op.f("fk_table_statistics_table_id_card_table"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_statistics")),
    )


def upgrade() -> None:
    op.drop_table("table_statistics")
    _create(digest=False)
    connection = op.get_bind()
    statistics = sa.table(
        "table_statistics",
        sa.column("table_id", sa.Integer()),
        sa.column("format", sa.Integer()),
        sa.column("data", sa.JSON()),
    )
    ids = connection.execute(sa.text("SELECT id FROM card_table ORDER BY id")).scalars().all()
    for table_id in ids:
        data = stored_data(made_from_games(connection, table_id))
        connection.execute(
            statistics.insert().values(table_id=table_id, format=STORED_FORMAT, data=data)
        )


def downgrade() -> None:
    # 0012's rows are made by its page when it finds none.
    op.drop_table("table_statistics")
    _create(digest=True)
