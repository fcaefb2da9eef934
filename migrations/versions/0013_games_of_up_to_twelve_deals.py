"""Games of up to twelve deals (a game played to a target score ends by deal 12 at the latest).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 02:40:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_constraint(op.f("ck_deal_number_range"), type_="check")
        batch.create_check_constraint(op.f("ck_deal_number_range"), "number BETWEEN 1 AND 12")


def downgrade() -> None:
    with op.batch_alter_table("deal") as batch:
        batch.drop_constraint(op.f("ck_deal_number_range"), type_="check")
        batch.create_check_constraint(op.f("ck_deal_number_range"), "number BETWEEN 1 AND 8")
