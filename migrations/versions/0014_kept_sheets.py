"""Kept sheets: a game's printed sheet, made once and sent by every server on the database.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 02:20:00.000000

A cache (``scorekeeper.store.kept_sheets``): nothing to fill in for existing games.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_sheets",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("pdf", sa.LargeBinary(), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_kept_sheets_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_kept_sheets")),
    )
    op.create_index(op.f("ix_kept_sheets_game_id"), "kept_sheets", ["game_id"], unique=False)
    op.create_index(op.f("ix_kept_sheets_made_at"), "kept_sheets", ["made_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_kept_sheets_made_at"), table_name="kept_sheets")
    op.drop_index(op.f("ix_kept_sheets_game_id"), table_name="kept_sheets")
    op.drop_table("kept_sheets")
