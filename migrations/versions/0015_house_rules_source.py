"""House rules keep the published rules they were made from: author, title and address.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 04:40:00.000000

Rules made before keep no source (NULL): a table made them itself, or the source is unknown.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("house_variant") as batch_op:
        batch_op.add_column(sa.Column("source", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("house_variant") as batch_op:
        batch_op.drop_column("source")
