"""Stored house rules: read, made, changed, deleted; and known to every layer as variants.

`stored_variants` is registered as a variant source (``rules.variants.add_variant_source``):
``get_variant("house-...")`` and ``all_variants()`` then find the stored house rules wherever
they are asked inside the app, so the new-game form, the sheets, the score API, the rules
pages and the engine's pages read them like the built-in variants. Callers commit.
"""

from __future__ import annotations

from flask import g, has_app_context
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.rules.house import HouseRules, VariantRejected
from scorekeeper.rules.variants import UnknownVariant, Variant, add_variant_source

from .models import SLUG_LENGTH, HouseVariant, utcnow

_CACHE = "house_variants"


def house_rows() -> list[HouseVariant]:
    """Every stored house variant, by name."""
    with db.session.no_autoflush:
        query = select(HouseVariant).order_by(HouseVariant.name, HouseVariant.id)
        return list(db.session.scalars(query))


def find_row(slug: str) -> HouseVariant | None:
    with db.session.no_autoflush:
        return db.session.scalars(
            select(HouseVariant).where(HouseVariant.slug == slug)
        ).first()


def playable(row: HouseVariant) -> Variant | None:
    """The variant a row makes, or None when its rules can no longer be played."""
    try:
        return row.rules.checked_variant()
    except (VariantRejected, UnknownVariant):
        return None


def stored_variants() -> tuple[Variant, ...]:
    """The stored house rules as variants (once a request); nothing outside an app."""
    if not has_app_context():
        return ()
    cached: tuple[Variant, ...] | None = g.get(_CACHE)
    if cached is None:
        made = (playable(row) for row in house_rows())
        cached = tuple(variant for variant in made if variant is not None)
        setattr(g, _CACHE, cached)
    return cached


def _forget() -> None:
    g.pop(_CACHE, None)


add_variant_source(stored_variants)


def free_slug(wanted: str, keep: HouseVariant | None = None) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`... whichever no other house variant has."""
    base = wanted[:SLUG_LENGTH]
    taken = {
        slug
        for slug in db.session.scalars(
            select(HouseVariant.slug).where(HouseVariant.slug.startswith(base[:40]))
        )
        if keep is None or slug != keep.slug
    }
    slug, number = base, 1
    while slug in taken:
        number += 1
        suffix = f"-{number}"
        slug = base[: SLUG_LENGTH - len(suffix)] + suffix
    return slug


def create(rules: HouseRules) -> HouseVariant:
    """Store checked rules under a free id (the rules' own when it is free)."""
    row = HouseVariant(
        slug=free_slug(rules.slug),
        name=rules.name,
        summary=rules.summary,
        based_on=rules.based_on,
        changes=dict(rules.changes),
        version=1,
    )
    db.session.add(row)
    _forget()
    return row


def update(row: HouseVariant, rules: HouseRules) -> bool:
    """Store new rules in the row (same id); True when anything changed."""
    before = (row.name, row.summary, row.based_on, row.changes)
    after = (rules.name, rules.summary, rules.based_on, dict(rules.changes))
    if before == after:
        return False
    row.name, row.summary, row.based_on, row.changes = after
    row.version += 1
    row.updated_at = utcnow()
    _forget()
    return True


def delete(row: HouseVariant) -> None:
    db.session.delete(row)
    _forget()
