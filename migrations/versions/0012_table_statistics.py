"""Table statistics: each card table's statistics over all its games, as last made.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 02:10:00.000000

The rows are made by the statistics page (``store.table_statistics``) from the games' stored
summaries, the first time it is read after a change: a new table starts empty, and every
existing table has its row made at the first read, then read by every process.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_statistics",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_table.id"],
            name=op.f("fk_table_statistics_table_id_card_table"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_statistics")),
    )


def downgrade() -> None:
    op.drop_table("table_statistics")
