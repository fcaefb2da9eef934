"""Rows kept by a key in the database for every server (a printed sheet, a statistics page):
the first one kept under a key stays, the oldest beyond a number are dropped."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import ColumnElement, Engine, Table, delete, select

from scorekeeper.extensions import insert_into


def keep_by_key(
    engine: Engine,
    table: Table,
    row: Mapping[str, object],
    most: int,
    most_among: tuple[ColumnElement[bool], int] | None = None,
) -> None:
    """Insert ``row`` into ``table`` (which has a ``key`` and a ``made_at``) unless a row is kept
    under its key already, in a transaction of its own on ``engine``, then drop the oldest
    rows beyond ``most``, and beyond the count of ``most_among`` among the rows its
    condition picks."""
    newest_first = table.c.made_at.desc(), table.c.key
    insert = (
        insert_into(engine.dialect.name, table)
        .values(**row)
        .on_conflict_do_nothing(index_elements=[table.c.key])
    )
    beyond = [select(table.c.key).order_by(*newest_first).offset(most)]
    if most_among is not None:
        among, count = most_among
        beyond.insert(0, select(table.c.key).where(among).order_by(*newest_first).offset(count))
    with engine.begin() as connection:
        connection.execute(insert)
        for older in beyond:
            connection.execute(delete(table).where(table.c.key.in_(older)))
