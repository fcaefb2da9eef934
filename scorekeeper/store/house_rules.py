"""Stored house rules: read, made, changed, deleted; and the variants a browser may play.

House rules belong to a card table: a browser sees those of the tables it holds a link to,
and changes only those of the tables it holds the edit link of (``catalogue`` offers them as
variants). Callers commit.
"""

from __future__ import annotations

from flask import g, has_request_context
from sqlalchemy import select

from scorekeeper.capabilities import Role
from scorekeeper.extensions import db
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import VariantRejected
from scorekeeper.rules.variants import UnknownVariant, Variant
from scorekeeper.store.holdings import held_tables, table_role
from scorekeeper.store.house import SLUG_LENGTH, HouseVariant, utcnow
from scorekeeper.store.tables import CardTable

CACHE_KEY = "house_variants"
"""Where ``catalogue`` keeps the request's house variants; a change here drops them."""


def house_rows() -> list[HouseVariant]:
    """The house rules of the card tables this browser holds, by name."""
    table_ids = list(held_tables()) if has_request_context() else []
    if not table_ids:
        return []
    with db.session.no_autoflush:
        query = (
            select(HouseVariant)
            .where(HouseVariant.table_id.in_(table_ids))
            .order_by(HouseVariant.name, HouseVariant.id)
        )
        return list(db.session.scalars(query))


def find_row(slug: str) -> HouseVariant | None:
    """The house rules of this id, when this browser holds a link to their card table."""
    with db.session.no_autoflush:
        row = db.session.scalars(select(HouseVariant).where(HouseVariant.slug == slug)).first()
    if row is None or table_role(row.table_id) is None:
        return None
    return row


def may_change(row: HouseVariant) -> bool:
    """Whether this browser holds the edit link of the rules' card table."""
    return table_role(row.table_id) is Role.EDIT


def playable(row: HouseVariant) -> Variant | None:
    """The variant a row makes, or None when its rules can no longer be played."""
    try:
        return row.rules.checked_variant()
    except (VariantRejected, UnknownVariant):
        return None


def _forget() -> None:
    g.pop(CACHE_KEY, None)


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


def create(rules: HouseRules, table: CardTable) -> HouseVariant:
    """Store checked rules at a card table, under a free id (the rules' own when it is free)."""
    row = HouseVariant(
        card_table=table,
        slug=free_slug(rules.slug),
        name=rules.name,
        summary=rules.summary,
        based_on=rules.based_on,
        changes=dict(rules.changes),
        source=rules.source.to_json() if rules.source is not None else None,
        version=1,
    )
    db.session.add(row)
    _forget()
    return row


def house_rules_at(rules: HouseRules, table: CardTable) -> Variant:
    """The variant of these rules kept at the card table: its row of the very same rules
    (name, base and changes), else a new row. Raises VariantRejected for rules that cannot be
    played."""
    variant = rules.checked_variant()
    if table.id is not None:
        same = (rules.name, rules.based_on, dict(rules.changes))
        for row in db.session.scalars(
            select(HouseVariant).where(HouseVariant.table_id == table.id)
        ):
            if (row.name, row.based_on, dict(row.changes)) == same:
                return variant.with_changes(id=row.variant_id)
    row = create(rules, table)
    return variant.with_changes(id=row.variant_id)


def update(row: HouseVariant, rules: HouseRules) -> bool:
    """Store new rules in the row (same id); True when anything changed."""
    source = rules.source.to_json() if rules.source is not None else None
    before = (row.name, row.summary, row.based_on, row.changes, row.source)
    after = (rules.name, rules.summary, rules.based_on, dict(rules.changes), source)
    if before == after:
        return False
    row.name, row.summary, row.based_on, row.changes, row.source = after
    row.version += 1
    row.updated_at = utcnow()
    _forget()
    return True


def delete(row: HouseVariant) -> None:
    db.session.delete(row)
    _forget()
