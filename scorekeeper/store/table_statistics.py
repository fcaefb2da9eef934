"""A card table's statistics over all its games, stored as the statistics page made them last
(``table_statistics``): a new process reads one row instead of every game's summary.

The row carries the digest of what it was made from (``versions_digest``: each game of the
table with its version, and the shape of the stored data): every change to a game (a deal
saved or deleted, a game started, deleted or moved, players merged) counts its version, so a
row made before it no longer matches and is not read. The page then makes the statistics
from the games' stored summaries, and stores them again; every process reads that row until
the next change. Players' names are not stored: the page reads them as they are now.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model, db

DIGEST_LENGTH = 64

log = logging.getLogger(__name__)


class StoredStatistics(Model):
    """A table's statistics as last made, and the digest of the games they were made from."""

    __tablename__ = "table_statistics"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), primary_key=True
    )
    digest: Mapped[str] = mapped_column(String(DIGEST_LENGTH))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


def versions_digest(versions: Iterable[tuple[int, int]], data_format: int) -> str:
    """The digest of a table's games at their versions (game id, version), and of the shape
    ``data_format`` of what is stored."""
    text = f"{data_format};" + ";".join(f"{game_id}:{version}" for game_id, version in versions)
    return hashlib.sha256(text.encode()).hexdigest()


def stored_statistics(table_id: int, digest: str) -> dict[str, Any] | None:
    """The table's stored statistics if they were made at ``digest``, else None."""
    row = db.session.execute(
        select(StoredStatistics.data).where(
            StoredStatistics.table_id == table_id, StoredStatistics.digest == digest
        )
    ).first()
    return None if row is None else dict(row.data)


def store_statistics(table_id: int, digest: str, data: dict[str, Any]) -> None:
    """Store the table's statistics made at ``digest``, in a transaction of their own. A
    database busy with writes (or the table deleted meanwhile) leaves them unstored: they
    are made again at the next read."""
    dialect = db.session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(StoredStatistics).values(table_id=table_id, digest=digest, data=data)
    statement = statement.on_conflict_do_update(
        index_elements=[StoredStatistics.table_id],
        set_={"digest": statement.excluded.digest, "data": statement.excluded.data},
    )
    try:
        db.session.execute(statement)
        db.session.commit()
    except DBAPIError as error:
        db.session.rollback()
        log.info("table statistics not stored: %s", error.__class__.__name__)
