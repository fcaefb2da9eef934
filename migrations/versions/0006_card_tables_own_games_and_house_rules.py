"""Card tables own games and house rules.

A card table is the group of people who play together, reached through its own view and edit
links. House rules always belong to one; a game may (games imported through the API stand
alone). Games and house rules made before this revision are kept in one card table, made only
when there is anything to keep: its edit token is new and random, so nobody holds it until the
server's operator makes a link with ``flask --app scorekeeper tables edit-link TABLE_ID``.
Browsers keep the game links they remembered.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 14:00:00.000000

"""

import hashlib
import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TOKEN_BYTES = 32
EARLIER_TABLE_NAME = "Games and rules from before tables"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def upgrade() -> None:
    op.create_table(
        "card_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("view_token_hash", sa.String(length=64), nullable=False),
        sa.Column("edit_token_hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_table")),
        sa.UniqueConstraint("view_token", name=op.f("uq_card_table_view_token")),
        sa.UniqueConstraint("view_token_hash", name=op.f("uq_card_table_view_token_hash")),
        sa.UniqueConstraint("edit_token_hash", name=op.f("uq_card_table_edit_token_hash")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_table_id"), ["table_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_game_table_id_card_table"),
            "card_table",
            ["table_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("house_variant", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_id", sa.Integer(), nullable=True))

    earlier = _earlier_table()
    if earlier is not None:
        op.execute(sa.text("UPDATE game SET table_id = :id").bindparams(id=earlier))
        op.execute(sa.text("UPDATE house_variant SET table_id = :id").bindparams(id=earlier))

    with op.batch_alter_table("house_variant", schema=None) as batch_op:
        batch_op.alter_column("table_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f("ix_house_variant_table_id"), ["table_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_house_variant_table_id_card_table"),
            "card_table",
            ["table_id"],
            ["id"],
            ondelete="CASCADE",
        )


def _earlier_table() -> int | None:
    """The card table that keeps what was made before tables; None when nothing was."""
    connection = op.get_bind()
    games = connection.execute(sa.text("SELECT COUNT(*) FROM game")).scalar_one()
    rules = connection.execute(sa.text("SELECT COUNT(*) FROM house_variant")).scalar_one()
    if not games and not rules:
        return None
    view = secrets.token_urlsafe(TOKEN_BYTES)
    now = datetime.now(UTC).replace(tzinfo=None)
    card_table = sa.table(
        "card_table",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("created_at", sa.DateTime()),
        sa.column("updated_at", sa.DateTime()),
        sa.column("view_token", sa.String()),
        sa.column("view_token_hash", sa.String()),
        sa.column("edit_token_hash", sa.String()),
    )
    connection.execute(
        card_table.insert().values(
            name=EARLIER_TABLE_NAME,
            created_at=now,
            updated_at=now,
            view_token=view,
            view_token_hash=_digest(view),
            edit_token_hash=_digest(secrets.token_urlsafe(TOKEN_BYTES)),
        )
    )
    return connection.execute(
        sa.select(card_table.c.id).where(card_table.c.view_token == view)
    ).scalar_one()


def downgrade() -> None:
    with op.batch_alter_table("house_variant", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_house_variant_table_id_card_table"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_house_variant_table_id"))
        batch_op.drop_column("table_id")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_game_table_id_card_table"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_game_table_id"))
        batch_op.drop_column("table_id")
    op.drop_table("card_table")
