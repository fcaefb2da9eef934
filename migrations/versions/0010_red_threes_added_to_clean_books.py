"""Each side's red threes added to clean books (the HANDnFOOT pack's ladies).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 19:45:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deal_side") as batch:
        batch.add_column(
            sa.Column("ladies_in_books", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("deal_side") as batch:
        batch.drop_column("ladies_in_books")
