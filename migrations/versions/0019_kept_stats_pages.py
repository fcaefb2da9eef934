"""Kept statistics pages: a table's numbers as its statistics page shows them, drawn once and
read by every server on the database.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 21:50:00.000000

A cache (``scorekeeper.store.kept_pages``): nothing to fill in for existing tables.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_stats_pages",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_table.id"],
            name=op.f("fk_kept_stats_pages_table_id_card_table"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_kept_stats_pages")),
    )
    op.create_index(
        op.f("ix_kept_stats_pages_table_id"), "kept_stats_pages", ["table_id"], unique=False
    )
    op.create_index(
        op.f("ix_kept_stats_pages_made_at"), "kept_stats_pages", ["made_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_kept_stats_pages_made_at"), table_name="kept_stats_pages")
    op.drop_index(op.f("ix_kept_stats_pages_table_id"), table_name="kept_stats_pages")
    op.drop_table("kept_stats_pages")
