"""Game links and versions: the view and edit tokens of each game, and a game version.

Games started before this revision get a view link and a game version of 1. Their edit token
is new and random, so nobody holds it: ``flask --app scorekeeper games edit-link GAME_ID``
makes one and prints it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 13:30:00.000000

"""

import hashlib
import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TOKEN_BYTES = 32


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("view_token", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("view_token_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("edit_token_hash", sa.String(length=64), nullable=True))

    connection = op.get_bind()
    game = sa.table(
        "game",
        sa.column("id", sa.Integer()),
        sa.column("version", sa.Integer()),
        sa.column("view_token", sa.String()),
        sa.column("view_token_hash", sa.String()),
        sa.column("edit_token_hash", sa.String()),
    )
    for (game_id,) in connection.execute(sa.select(game.c.id)).all():
        view = secrets.token_urlsafe(TOKEN_BYTES)
        connection.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(
                version=1,
                view_token=view,
                view_token_hash=_digest(view),
                edit_token_hash=_digest(secrets.token_urlsafe(TOKEN_BYTES)),
            )
        )

    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("version", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("view_token", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("view_token_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("edit_token_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_game_view_token"), ["view_token"])
        batch_op.create_unique_constraint(
            batch_op.f("uq_game_view_token_hash"), ["view_token_hash"]
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_game_edit_token_hash"), ["edit_token_hash"]
        )


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_game_edit_token_hash"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_game_view_token_hash"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_game_view_token"), type_="unique")
        batch_op.drop_column("edit_token_hash")
        batch_op.drop_column("view_token_hash")
        batch_op.drop_column("view_token")
        batch_op.drop_column("version")
