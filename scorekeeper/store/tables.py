"""What the app keeps of a card table: its name and the digests of its two links.

A card table is the group of people who play together (not to be confused with
``rules.variants.Table``, the seating a variant allows). Its games (``Game.table_id``) and
house rules (``HouseVariant.table_id``) are seen only by whoever holds one of its links: the
view link shows them, the edit link also changes them. Like a game's, the edit token itself
is never stored.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model

NAME_LENGTH = 80
TOKEN_COLUMN_LENGTH = 64


def utcnow() -> datetime:
    """The current time in UTC, without a zone, as SQLite stores it."""
    return datetime.now(UTC).replace(tzinfo=None)


class CardTable(Model):
    __tablename__ = "card_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    view_token: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    """The secret of the view link, kept so that members can be shown that link."""
    view_token_hash: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    edit_token_hash: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    """SHA-256 of the edit link's secret; the secret itself is never stored."""

    def __repr__(self) -> str:
        return f"<CardTable {self.id}>"
