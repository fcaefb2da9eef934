"""The people of a card table, and the seats they took in its games.

A ``Player`` belongs to one card table: "Ann" typed again at the same table, whatever its case
and spacing, is the same person (``Player.key``). A ``Seat`` puts a player on one side of one
game: two seats for a team of two, one for a player alone. The side keeps its own name, so a
game reads the same whatever later happens to its players (renamed, merged).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.store.games import SIDE_NAME_LENGTH, GameSide
from scorekeeper.store.tables import CardTable, utcnow

PLAYER_NAME_LENGTH = SIDE_NAME_LENGTH
KEY_LENGTH = 4 * PLAYER_NAME_LENGTH
"""Case folding may lengthen a name (ß folds to ss): room for the longest fold."""


def player_key(name: str) -> str:
    """What makes two typed names the same person: case, width and spacing aside."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def names_repeat(names: Sequence[str]) -> bool:
    """Whether two of the sides' names are the same, case aside (a new game refuses it)."""
    folded = [name.casefold() for name in names]
    return len(set(folded)) != len(folded)


def players_repeat(players: Sequence[Sequence[str]]) -> bool:
    """Whether one person is named twice among the sides' players (``player_key``)."""
    keys = [player_key(name) for side in players for name in side]
    return len(set(keys)) != len(keys)


class Player(Model):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("table_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_table.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_LENGTH))
    key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    card_table: Mapped[CardTable] = relationship()

    def __repr__(self) -> str:
        return f"<Player {self.id}>"


class Seat(Model):
    """One player on one side of a game (``position``: 0 for the side's first player)."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("side_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("game_side.id", ondelete="CASCADE"))
    position: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"), index=True)

    side: Mapped[GameSide] = relationship(
        backref=backref("seats", order_by="Seat.position", passive_deletes=True)
    )
    player: Mapped[Player] = relationship()
