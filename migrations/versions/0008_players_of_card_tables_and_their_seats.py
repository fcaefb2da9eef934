"""Players of card tables, and the seats they take on a game's sides.

A card table's games are read side by side to find its people: a player alone is the side's
name; a team's name is split where it joins its players ("Ann & Bob", "Ann and Bob", "Ann/Bob",
"Ann, Bob", "Ann + Bob") when that gives exactly the team's number of players. Names the app
gave by default ("Team 2", "Joueur 1") name nobody, nor does a team name that does not split
so. One name at one table, whatever its case and spacing, is one player. Games without a table
have no players.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 16:00:00.000000

"""

import re
import unicodedata
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

NAME_LENGTH = 40
DEFAULT_NAME = re.compile(
    r"^(?:Team|Player|Équipe|Joueur|Squadra|Giocatore|Spieler|チーム|プレイヤー) ?\d+$"
)
JOINS = re.compile(r"\s*(?:&|/|\+|,|\band\b|\bet\b|\be\b|\bund\b|・)\s*")


def _key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def people_of(side_name: str, per_side: int) -> list[str]:
    """The people a side's name stands for (nobody when it cannot be told)."""
    name = " ".join(side_name.split())
    if not name or DEFAULT_NAME.match(name):
        return []
    if per_side == 1:
        return [name[:NAME_LENGTH]]
    parts = [part for part in JOINS.split(name) if part]
    if len(parts) != per_side or any(DEFAULT_NAME.match(part) for part in parts):
        return []
    return [part[:NAME_LENGTH] for part in parts]


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["card_table.id"],
            name=op.f("fk_player_table_id_card_table"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("table_id", "key", name=op.f("uq_player_table_id")),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_seat_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["side_id"],
            ["game_side.id"],
            name=op.f("fk_seat_side_id_game_side"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("side_id", "position", name=op.f("uq_seat_side_id")),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_player_id"), ["player_id"], unique=False)
    _seat_earlier_games()


def _seat_earlier_games() -> None:
    connection = op.get_bind()
    player = sa.table(
        "player",
        sa.column("id", sa.Integer()),
        sa.column("table_id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("key", sa.String()),
        sa.column("created_at", sa.DateTime()),
    )
    seat = sa.table(
        "seat",
        sa.column("side_id", sa.Integer()),
        sa.column("position", sa.Integer()),
        sa.column("player_id", sa.Integer()),
    )
    sides = connection.execute(
        sa.text(
            "SELECT game.table_id, game.id, game.players, game_side.id, game_side.name,"
            " (SELECT COUNT(*) FROM game_side AS other WHERE other.game_id = game.id)"
            " FROM game JOIN game_side ON game_side.game_id = game.id"
            " WHERE game.table_id IS NOT NULL ORDER BY game.created_at, game.id, game_side.position"
        )
    ).all()
    now = datetime.now(UTC).replace(tzinfo=None)
    known: dict[tuple[int, str], int] = {}
    taken: set[tuple[int, int]] = set()
    for table_id, game_id, players, side_id, side_name, side_count in sides:
        for position, name in enumerate(people_of(side_name, max(1, players // side_count))):
            key = (table_id, _key(name))
            if key not in known:
                connection.execute(
                    player.insert().values(table_id=table_id, name=name, key=key[1], created_at=now)
                )
                known[key] = connection.execute(
                    sa.select(player.c.id).where(
                        player.c.table_id == table_id, player.c.key == key[1]
                    )
                ).scalar_one()
            if (game_id, known[key]) in taken:
                continue  # one person twice in a game: the second is someone else
            taken.add((game_id, known[key]))
            connection.execute(
                seat.insert().values(side_id=side_id, position=position, player_id=known[key])
            )


def downgrade() -> None:
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_player_id"))
    op.drop_table("seat")
    op.drop_table("player")
