"""Each side's special books, red-three books, and whether it went out concealed; games of
up to eight deals.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 18:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_COUNTS = ("special_books", "red_three_books")


def upgrade() -> None:
    with op.batch_alter_table("deal_side") as batch:
        for name in _COUNTS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("went_out_concealed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("deal") as batch:
        batch.drop_constraint(op.f("ck_deal_number_range"), type_="check")
        batch.create_check_constraint(op.f("ck_deal_number_range"), "number BETWEEN 1 AND 8")


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_constraint(op.f("ck_deal_number_range"), type_="check")
        batch.create_check_constraint(op.f("ck_deal_number_range"), "number BETWEEN 1 AND 4")
    with op.batch_alter_table("deal_side") as batch:
        batch.drop_column("went_out_concealed")
        for name in reversed(_COUNTS):
            batch.drop_column(name)
