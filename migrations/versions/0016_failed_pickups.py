"""Each side's pickups of the discard pile given back, where the rules cost points for one.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 05:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deal_side") as batch:
        batch.add_column(
            sa.Column("failed_pickups", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("deal_side") as batch:
        batch.drop_column("failed_pickups")
