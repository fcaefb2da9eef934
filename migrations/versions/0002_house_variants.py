"""House variants: a table's own rules, a built-in base and the parameters it changes.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 13:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "house_variant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=58), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("summary", sa.String(length=500), nullable=False),
        sa.Column("based_on", sa.String(length=64), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_house_variant")),
        sa.UniqueConstraint("slug", name=op.f("uq_house_variant_slug")),
    )


def downgrade() -> None:
    op.drop_table("house_variant")
