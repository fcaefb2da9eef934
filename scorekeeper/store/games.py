"""What a game keeps: its frozen rules, its sides, and each deal's entries (never totals).

Totals are always computed by the rules core from the stored entries (see ``scoring.py``), so a
change in how a deal is entered can never leave a stale total behind. The unique constraints
that start with ``game_id`` / ``deal_id`` also index those columns.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model
from scorekeeper.rules.variants import MAX_DEALS
from scorekeeper.store.tables import CardTable

NAME_LENGTH = 80
SIDE_NAME_LENGTH = 40
TOKEN_COLUMN_LENGTH = 64
MAX_VERSION = 2**31 - 1
"""The largest version a game or a deal can reach: the columns are 32-bit integers on every
database, so a larger one is refused before any query (PostgreSQL would fail on it)."""


def utcnow() -> datetime:
    """The current time in UTC, without a zone, as SQLite stores it."""
    return datetime.now(UTC).replace(tzinfo=None)


class Game(Model):
    __tablename__ = "game"
    __table_args__ = (
        # The rules a table played, each by its first game (``played_rules``), read from the
        # index alone: a game's row holds its whole rules document.
        Index("ix_game_table_rules", "table_id", "variant_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("card_table.id", ondelete="SET NULL"), index=True
    )
    """The card table that owns the game; None for a game reached by its own links alone."""
    card_table: Mapped[CardTable | None] = relationship()
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    variant_id: Mapped[str] = mapped_column(String(64))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``Variant.to_dict()`` as it was when the game started: the game is scored by this."""
    players: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(default=1)
    """1 when started, one more on every change to the game or its deals (the live ETag)."""
    view_token: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    """The secret of the view link, kept so that the keeper can be shown that link."""
    view_token_hash: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    edit_token_hash: Mapped[str] = mapped_column(String(TOKEN_COLUMN_LENGTH), unique=True)
    """SHA-256 of the edit link's secret; the secret itself is never stored (games.links)."""

    sides: Mapped[list[GameSide]] = relationship(
        back_populates="game",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="GameSide.position",
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Deal.number",
    )
    stored_summary: Mapped[StoredSummary | None] = relationship(
        cascade="all, delete-orphan", passive_deletes=True
    )
    """What the statistics read of the game, written with every change (``store.summaries``)."""

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(side.name for side in self.sides)

    def deal(self, number: int) -> Deal | None:
        return next((deal for deal in self.deals if deal.number == number), None)

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.variant_id}>"


class GameSide(Model):
    """A team (partnership variants) or a player (individual variants)."""

    __tablename__ = "game_side"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(SIDE_NAME_LENGTH))

    game: Mapped[Game] = relationship(back_populates="sides")


class Deal(Model):
    __tablename__ = "deal"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint(f"number BETWEEN 1 AND {MAX_DEALS}", name="number_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    stock_ran_out: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(default=1)
    """The game's version its last save was made on (``writes``): it grows with each edit and
    never repeats, not even for a deal deleted and entered again."""

    # An UPDATE or DELETE of a deal row names the version it read: when another request
    # changed the deal meanwhile, nothing is written and StaleDataError is raised.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    game: Mapped[Game] = relationship(back_populates="deals")
    sides: Mapped[list[DealSide]] = relationship(
        back_populates="deal",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="DealSide.position",
    )

    def __repr__(self) -> str:
        return f"<Deal {self.number} of game {self.game_id}>"


class DealSide(Model):
    """One side's entry for one deal: the fields of ``rules.entry.SideEntry``, one column each."""

    __tablename__ = "deal_side"
    __table_args__ = (UniqueConstraint("deal_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id", ondelete="CASCADE"))
    position: Mapped[int]
    meld_points: Mapped[int] = mapped_column(default=0)
    clean_books: Mapped[int] = mapped_column(default=0)
    dirty_books: Mapped[int] = mapped_column(default=0)
    wild_books: Mapped[int] = mapped_column(default=0)
    black_three_books: Mapped[int] = mapped_column(default=0)
    special_books: Mapped[int] = mapped_column(default=0)
    red_three_books: Mapped[int] = mapped_column(default=0)
    ladies_in_books: Mapped[int] = mapped_column(default=0)
    red_threes_down: Mapped[int] = mapped_column(default=0)
    red_threes_held: Mapped[int] = mapped_column(default=0)
    cards_left_points: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[bool] = mapped_column(default=False)
    went_out_concealed: Mapped[bool] = mapped_column(default=False)
    exact_22: Mapped[int] = mapped_column(default=0)
    failed_pickups: Mapped[int] = mapped_column(default=0)

    deal: Mapped[Deal] = relationship(back_populates="sides")


class StoredSummary(Model):
    """The game as its history and statistics read it, scored by the rules core when the game
    last changed, and written in the same transaction as that change (``store.summary_writes``).

    ``version`` is the game's version the summary was made at: a summary whose version (or
    ``format``) differs from its game's is not read, but made again (``store.summaries``).

    The summary is one JSON value rather than columns: the statistics page reads it whole and
    never filters or sums by it in SQL, and it is nested (per side: the total of each deal,
    books by kind, points by line group) in ways columns would need two more tables for; a
    thousand of them are read back with one JSON parse (``summaries.table_summaries``). Its
    shape is ``game_summary.summary_data``, format ``SUMMARY_FORMAT``; a change of it gives a
    new format number, and every
    summary of an older format is made again when read (and stored again at its game's next
    change). What the game row holds itself (name, rules' id, players, start) is not copied.
    """

    __tablename__ = "game_summaries"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int]
    format: Mapped[int]
    summary: Mapped[list[Any]] = mapped_column(JSON)
