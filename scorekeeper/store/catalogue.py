"""The variants a browser may play: the built-in ones, then the house rules of the card tables
it holds a link to. Every page that offers a variant, and the score API, ask here; the pure
``rules.variants`` knows only the built-in ones.
"""

from __future__ import annotations

from flask import g, has_request_context
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.variants import BUILT_IN, UnknownVariant, Variant
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.house_rules import CACHE_KEY, house_rows, playable


def house_variants() -> tuple[Variant, ...]:
    """The house rules this browser sees, as variants (read once a request)."""
    if not has_request_context():
        return ()
    cached: tuple[Variant, ...] | None = g.get(CACHE_KEY)
    if cached is None:
        made = (playable(row) for row in house_rows())
        cached = tuple(
            variant for variant in made if variant is not None and variant.id not in BUILT_IN
        )
        setattr(g, CACHE_KEY, cached)
    return cached


def variants() -> tuple[Variant, ...]:
    """The variants this browser may play: the built-in ones, then its house rules."""
    return (*BUILT_IN.values(), *house_variants())


def find_variant(variant_id: object) -> Variant:
    """The variant of this id among those this browser may play; UnknownVariant if none."""
    if isinstance(variant_id, str):
        if variant_id in BUILT_IN:
            return BUILT_IN[variant_id]
        for variant in house_variants():
            if variant.id == variant_id:
                return variant
    raise UnknownVariant(variant_id)


def table_variant(table_id: int, variant_id: object) -> Variant:
    """The variant of this id among those a new game at the card table may be played by: the
    built-in ones, then the table's house rules (whatever this browser holds, as for the API's
    callers, who send the table's link rather than a session)."""
    if isinstance(variant_id, str):
        if variant_id in BUILT_IN:
            return BUILT_IN[variant_id]
        rows = db.session.scalars(select(HouseVariant).where(HouseVariant.table_id == table_id))
        for row in rows:
            variant = playable(row)
            if variant is not None and variant.id == variant_id:
                return variant
    raise UnknownVariant(variant_id)
