"""An index on each game's table, rules and id: the rules a table played are found in it.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 09:30:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_game_table_rules", "game", ["table_id", "variant_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_game_table_rules", table_name="game")
