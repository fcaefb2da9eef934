"""Rate counters: each client's requests of each limited kind in its current window.

Shared by every worker and machine on the database (``scorekeeper.limits.rates``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 13:50:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counter",
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("window_ends", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_counter")),
    )


def downgrade() -> None:
    op.drop_table("rate_counter")
