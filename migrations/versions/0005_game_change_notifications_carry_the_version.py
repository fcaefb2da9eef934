"""Game change notifications carry the game's new version when its links are unchanged.

The payload becomes ``<id>:<version>`` for such an update, and stays ``<id>`` for a new link or
a deletion: the app's processes move their poll entries to the new version instead of reading
the game again. Nothing changes on SQLite.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 17:30:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NOTIFY_WITH_VERSION = """
CREATE OR REPLACE FUNCTION scorekeeper_notify_game_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.view_token_hash = OLD.view_token_hash
            AND NEW.edit_token_hash = OLD.edit_token_hash THEN
        PERFORM pg_notify('scorekeeper_game_changed', NEW.id || ':' || NEW.version);
    ELSE
        PERFORM pg_notify('scorekeeper_game_changed', COALESCE(NEW.id, OLD.id)::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""
NOTIFY_ID_ONLY = """
CREATE OR REPLACE FUNCTION scorekeeper_notify_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('scorekeeper_game_changed', COALESCE(NEW.id, OLD.id)::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_WITH_VERSION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_ID_ONLY)
