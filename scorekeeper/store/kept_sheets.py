"""A game's printed sheet kept in the database, where every server on it finds it.

A finished game's sheet is made once, ahead of the print (``sheets.ahead``) or by the first
print, by whichever worker of whichever server; the prints that follow, on any server, send
it as it was made. A sheet is kept by the digest of its page as it reads before it is fitted
to its paper (``sheets.views``): the game at its version, in the reader's language and on
the reader's paper, the release's style sheet address in it. A game changed is another page,
another key; a game deleted takes its sheets with it. At most ``MOST_KEPT`` sheets are kept,
the oldest dropped first.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, LargeBinary, String, select
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model, db, table_of
from scorekeeper.store.games import utcnow
from scorekeeper.store.kept_rows import keep_by_key

KEY_LENGTH = 32
MOST_KEPT = 400


class KeptSheet(Model):
    """One game's sheet PDF, as one reader prints it."""

    __tablename__ = "kept_sheets"

    key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    pdf: Mapped[bytes] = mapped_column(LargeBinary)
    made_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


def kept_sheet(key: str) -> bytes | None:
    """The PDF kept under ``key``, if one is."""
    with db.engine.connect() as connection:
        body = connection.execute(
            select(KeptSheet.pdf).where(KeptSheet.key == key[:KEY_LENGTH])
        ).scalar()
    return bytes(body) if body is not None else None


def keep_sheet(key: str, game_id: int, body: bytes) -> None:
    """Keep the game's PDF under ``key`` (the first one kept stays: the same page is the same
    PDF), in a transaction of its own, and drop the oldest beyond ``MOST_KEPT``."""
    row = {"key": key[:KEY_LENGTH], "game_id": game_id, "pdf": body, "made_at": utcnow()}
    keep_by_key(db.engine, table_of(KeptSheet), row, MOST_KEPT)
