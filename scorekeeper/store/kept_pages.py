"""A table's statistics, as its page shows them, kept in the database where every server finds
them.

Drawing a table's numbers (its standings, its charts) is most of the statistics page's work,
and each worker of each server would draw them again after it starts. The part of the page
that shows them is kept by the digest of everything it is made of (``page_key``): the table's
games at their versions, its players' names, the reader's language, and the templates, code
and catalogues that draw it, so that a game changed, a player renamed or a new release is
another key. A table deleted takes its pages with it. At most ``MOST_KEPT_A_TABLE`` pages of a
table and ``MOST_KEPT`` in all are kept, the oldest dropped first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Engine, ForeignKey, Integer, String, Text, select
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model, db, table_of
from scorekeeper.store.games import utcnow
from scorekeeper.store.kept_rows import keep_by_key

KEY_LENGTH = 32
MOST_KEPT = 400
MOST_KEPT_A_TABLE = 8
"""A few languages and names at the table's present state: older states are never asked for
again (a change to a game gives it a new version)."""

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
DRAWN_BY = (
    "templates/history/_stats_body.html",
    "templates/history/_standings.html",
    "scorekeeper/history/pages.py",
    "scorekeeper/history/charts.py",
    "scorekeeper/history/stats.py",
    "scorekeeper/history/views.py",
    "scorekeeper/store/tallies.py",
    "scorekeeper/variant_texts.py",
)
"""The files that draw the kept part, besides the catalogues of the languages."""


class KeptStatsPage(Model):
    """The numbers part of one table's statistics page, as one reader sees it."""

    __tablename__ = "kept_stats_pages"

    key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), index=True
    )
    games: Mapped[int] = mapped_column(Integer)
    rules: Mapped[list[Any]] = mapped_column(JSON)
    body: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


@dataclass(frozen=True, slots=True)
class KeptPage:
    games: int
    """Finished games counted."""
    rules: list[tuple[str, str]]
    """(id, name) of every rules the table played, for the page's filter."""
    body: str
    """The rendered part of the page that shows the numbers."""


def page_key(table_id: int, made_of: Iterable[object], locale: str) -> str:
    """The digest of a table's page: ``made_of`` (its games' versions, its players' names,
    ...), the reader's language and the files that draw it."""
    digest = hashlib.sha256(_drawing_digest().encode())
    digest.update(repr((table_id, tuple(made_of), locale)).encode())
    return digest.hexdigest()[:KEY_LENGTH]


@cache
def _drawing_digest() -> str:
    digest = hashlib.sha256()
    catalogues = sorted((PROJECT_ROOT / "scorekeeper" / "translations").glob("*/*/*.mo"))
    for path in [*(PROJECT_ROOT / name for name in DRAWN_BY), *catalogues]:
        digest.update(str(path.relative_to(PROJECT_ROOT)).encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def kept_stats_page(key: str) -> KeptPage | None:
    """The page kept under ``key``, if one is."""
    with db.engine.connect() as connection:
        row = connection.execute(
            select(KeptStatsPage.games, KeptStatsPage.rules, KeptStatsPage.body).where(
                KeptStatsPage.key == key
            )
        ).one_or_none()
    if row is None:
        return None
    games, rules, body = row
    return KeptPage(games, [(rule_id, name) for rule_id, name in rules], body)


def keep_stats_page(engine: Engine, key: str, table_id: int, page: KeptPage) -> None:
    """Keep the table's page under ``key`` (the first one kept stays: the same key is the same
    page), in a transaction of its own on ``engine`` (the app's: this may run once the page
    is sent, outside the app's context); drop the table's oldest beyond ``MOST_KEPT_A_TABLE``
    and the oldest of all beyond ``MOST_KEPT``."""
    table = table_of(KeptStatsPage)
    row = {
        "key": key,
        "table_id": table_id,
        "games": page.games,
        "rules": _rules_data(page.rules),
        "body": page.body,
        "made_at": utcnow(),
    }
    keep_by_key(engine, table, row, MOST_KEPT, (table.c.table_id == table_id, MOST_KEPT_A_TABLE))


def _rules_data(rules: Sequence[tuple[str, str]]) -> list[list[str]]:
    return [[rule_id, name] for rule_id, name in rules]
