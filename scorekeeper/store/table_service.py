"""Card tables: made, found by a link, chosen for a new game or new house rules.

Callers commit. A table made in a request is remembered by the browser that made it once the
request's changes are committed (``remember_new_tables``), as a new game is.
"""

from __future__ import annotations

from functools import cache

from flask import g
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import bindparam, inspect, or_, select

from scorekeeper.capabilities import digest, is_token, issue_edit_token, issue_view_token, role_of
from scorekeeper.extensions import SUPPORTED_LANGUAGES, db
from scorekeeper.keyring import remember_table
from scorekeeper.store.holdings import HeldTable, editable_tables, forget_held_tables, held_tables
from scorekeeper.store.tables import NAME_LENGTH, CardTable

_TABLE_BY_DIGEST = select(CardTable).where(
    or_(
        CardTable.edit_token_hash == bindparam("digest"),
        CardTable.view_token_hash == bindparam("digest"),
    )
)


def new_table(name: str) -> tuple[CardTable, str]:
    """A new card table with both links, and its edit token; the browser of the request keeps
    the edit link once the table is committed."""
    table = CardTable(name=name.strip()[:NAME_LENGTH] or default_name())
    issue_view_token(table)
    token = issue_edit_token(table)
    db.session.add(table)
    g.setdefault("new_tables", []).append((table, token))
    return table, token


def default_name() -> str:
    """The name a table gets when nobody names it, in the language of the request."""
    return _("Our table")


@cache
def _default_names() -> frozenset[str]:
    """The default name in every language the app speaks (the catalogs are read once, at
    start)."""
    names = set()
    for language in SUPPORTED_LANGUAGES:
        with force_locale(language):
            names.add(default_name())
    return frozenset(names)


def table_name(table: CardTable) -> str:
    """A table's name as a page shows it: a table still under its default name, made in
    whatever language, is called that name in the reader's language."""
    if table.name in _default_names():
        return default_name()
    return table.name


def remember_new_tables() -> None:
    """The browser keeps the edit link of each card table this request made and committed."""
    for table, token in g.get("new_tables", []):
        state = inspect(table)
        if state.persistent and not state.deleted and table.id is not None:
            remember_table(table.id, token)
            forget_held_tables()


def resolve_table(token: str) -> HeldTable | None:
    """The card table and role a link's token opens, or None."""
    if not is_token(token):
        return None
    wanted = digest(token)
    table = db.session.scalars(_TABLE_BY_DIGEST, {"digest": wanted}).first()
    if table is None:
        return None
    role = role_of(wanted, table.view_token_hash, table.edit_token_hash)
    return HeldTable(table, role, token) if role is not None else None


def table_for_new(wanted_id: int | None = None) -> CardTable:
    """Where a new game or new house rules go: the chosen card table when this browser may
    add to it, else its newest such table, else a new one."""
    editable = editable_tables()
    for table in editable:
        if table.id == wanted_id:
            return table
    if editable:
        return editable[0]
    table, _token = new_table(default_name())
    return table


def mark_used(table: CardTable) -> None:
    """Make the table this browser's newest, so that the next new game goes there too."""
    held = held_tables().get(table.id)
    if held is not None:
        remember_table(table.id, held.token)
