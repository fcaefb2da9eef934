"""Games, their sides, their deals and each side's entry for a deal.

Revision ID: 0001
Revises:
Create Date: 2026-11-23 12:31:51.729806

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# One integer column per count or points field of rules.entry.SideEntry.
SIDE_ENTRY_COUNTS = (
    "meld_points",
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "red_threes_down",
    "red_threes_held",
    "cards_left_points",
)


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("variant_id", sa.String(length=64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_created_at"), ["created_at"], unique=False)

    op.create_table(
        "game_side",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_game_side_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_side")),
        sa.UniqueConstraint("game_id", "position", name=op.f("uq_game_side_game_id")),
    )

    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("stock_ran_out", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("number BETWEEN 1 AND 4", name=op.f("ck_deal_number_range")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_deal_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal")),
        sa.UniqueConstraint("game_id", "number", name=op.f("uq_deal_game_id")),
    )

    op.create_table(
        "deal_side",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in SIDE_ENTRY_COUNTS),
        sa.Column("went_out", sa.Boolean(), nullable=False),
        sa.Column("exact_22", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"], ["deal.id"], name=op.f("fk_deal_side_deal_id_deal"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal_side")),
        sa.UniqueConstraint("deal_id", "position", name=op.f("uq_deal_side_deal_id")),
    )


def downgrade() -> None:
    op.drop_table("deal_side")
    op.drop_table("deal")
    op.drop_table("game_side")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_created_at"))
    op.drop_table("game")
