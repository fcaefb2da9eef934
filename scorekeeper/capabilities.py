"""Capability links: a long random token in an address opens a game or a card table.

A token is 32 random bytes, URL-safe (43 characters). The database keeps the SHA-256 digest of
each, and a row is found by digest, so the secret itself is never compared in a query; the role
(view or edit) is then decided with ``hmac.compare_digest``. Games and card tables both have a
view link and an edit link of this kind.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from enum import StrEnum
from typing import Protocol

TOKEN_BYTES = 32
TOKEN_LENGTH = 43
TOKEN_RE = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}")


class Role(StrEnum):
    VIEW = "view"
    EDIT = "edit"


class HasLinks(Protocol):
    """A row with a view link and an edit link (a game, a card table)."""

    view_token: str
    view_token_hash: str
    edit_token_hash: str


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def is_token(text: str) -> bool:
    return TOKEN_RE.fullmatch(text) is not None


def issue_view_token(row: HasLinks) -> str:
    token = new_token()
    row.view_token = token
    row.view_token_hash = digest(token)
    return token


def issue_edit_token(row: HasLinks) -> str:
    """A new edit token for the row; the old one stops working. Returns the only copy."""
    token = new_token()
    row.edit_token_hash = digest(token)
    return token


def role_of(token_digest: str, view_hash: str, edit_hash: str) -> Role | None:
    """Which of the two links a token's digest is, compared in constant time."""
    if hmac.compare_digest(token_digest, edit_hash):
        return Role.EDIT
    if hmac.compare_digest(token_digest, view_hash):
        return Role.VIEW
    return None
