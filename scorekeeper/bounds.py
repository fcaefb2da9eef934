"""Whole numbers from addresses and forms, bounded where they enter.

Ids, deal numbers and versions are 32-bit integers in the database on every engine: a larger
one would fail in the query (PostgreSQL refuses it, SQLite's driver overflows past 2^63)
instead of matching nothing. Each is bounded before any query reads it: an address's
``<int:...>`` part above the bound matches no route (404), a posted id above it is no id.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.routing import IntegerConverter, Map

MAX_ID = 2**31 - 1
"""The largest id, deal number or version a row can have."""
MAX_ID_DIGITS = len(str(MAX_ID))


class BoundedInt(IntegerConverter):
    """``<int:...>`` in every route: a whole number from 0 to MAX_ID (unless the rule says
    less)."""

    # The arguments of IntegerConverter, named as a rule gives them: ``<int(max=9):n>``.
    def __init__(  # noqa: A002
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int = MAX_ID,
        signed: bool = False,
    ) -> None:
        super().__init__(map, fixed_digits, min, MAX_ID if max > MAX_ID else max, signed)


def init_app(app: Flask) -> None:
    """Bound ``<int:...>``: before any blueprint adds a route."""
    app.url_map.converters["int"] = BoundedInt


def whole_number(raw: str | None, *, least: int = 1, most: int = MAX_ID) -> int | None:
    """A typed whole number from ``least`` to ``most``, or None for anything else."""
    text = (raw or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_ID_DIGITS:
        return None
    number = int(text)
    return number if least <= number <= most else None


def posted_id(name: str) -> int | None:
    """The id a posted form names in field ``name``, or None when it names none."""
    return whole_number(request.form.get(name))
