"""Game change notifications: on PostgreSQL, every update or deletion of a game notifies.

The app's processes listen (``scorekeeper.live.feed``) and forget the versions they keep for
the watchers' polls as soon as a game changes. Nothing changes on SQLite.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 16:10:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

CREATE_FUNCTION = """
CREATE OR REPLACE FUNCTION scorekeeper_notify_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('scorekeeper_game_changed', COALESCE(NEW.id, OLD.id)::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""
CREATE_TRIGGER = """
CREATE TRIGGER game_changed_notify AFTER UPDATE OR DELETE ON game
FOR EACH ROW EXECUTE FUNCTION scorekeeper_notify_game_changed()
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(CREATE_FUNCTION)
    op.execute(CREATE_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS game_changed_notify ON game")
    op.execute("DROP FUNCTION IF EXISTS scorekeeper_notify_game_changed()")
