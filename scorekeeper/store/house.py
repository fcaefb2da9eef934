"""What the app keeps of a table's house rules: the base variant and the changed parameters.

A game never points at this row: it keeps a frozen copy of the rules it started with
(``Game.rules``), so editing or deleting house rules never changes a game's score.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.rules.house_rules import HOUSE_PREFIX, HouseRules, RulesSource
from scorekeeper.rules.params import MAX_ID, MAX_NAME, MAX_TEXT
from scorekeeper.store.tables import CardTable

SLUG_LENGTH = MAX_ID - len(HOUSE_PREFIX)


def utcnow() -> datetime:
    """The current time in UTC, without a zone, as SQLite stores it."""
    return datetime.now(UTC).replace(tzinfo=None)


class HouseVariant(Model):
    __tablename__ = "house_variant"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), index=True
    )
    """The card table that owns the rules: only its links show them, only its edit link
    changes them."""
    card_table: Mapped[CardTable] = relationship()
    slug: Mapped[str] = mapped_column(String(SLUG_LENGTH), unique=True)
    """The variant's id is ``house-<slug>``; it never changes once made."""
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    summary: Mapped[str] = mapped_column(String(MAX_TEXT), default="")
    based_on: Mapped[str] = mapped_column(String(MAX_ID))
    changes: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Parameter key -> value, only where the rules differ from the base variant."""
    source: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    """The published rules these were made from (author, title, address); None for rules
    a table made itself."""
    version: Mapped[int] = mapped_column(default=1)
    """1 when made, one more on each edit."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    @property
    def variant_id(self) -> str:
        return HOUSE_PREFIX + self.slug

    @property
    def rules(self) -> HouseRules:
        return HouseRules(
            self.name, self.based_on, dict(self.changes), self.summary, self.slug, self.made_from
        )

    @property
    def made_from(self) -> RulesSource | None:
        """The published rules these were made from, as the rules core reads them."""
        source = self.source
        if not isinstance(source, dict):
            return None
        parts = [source.get(key) for key in ("author", "title", "address")]
        if not all(isinstance(part, str) for part in parts):
            return None
        return RulesSource(*(str(part) for part in parts))

    def __repr__(self) -> str:
        return f"<HouseVariant {self.variant_id} v{self.version}>"
