"""The session cookie, encrypted: it carries the links a browser holds, and no one who sees the
cookie (a shared computer's cookie store, a log of headers) can read them.

Flask's own session is signed, not encrypted. This one is sealed with Fernet (AES in CBC mode
with an HMAC, from ``cryptography``) under a key derived from SECRET_KEY, and still expires
after the session's lifetime. A cookie signed in the old way is read once and sealed again, so
that browsers keep the links they held.

The cookie stays under the 4 KB browsers keep, whatever the browser holds: the links are sealed
as bytes (``keyring.pack``), and only the newest ``MAX_FLASHES`` messages are kept, so that a
client that never shows them (one that does not follow redirects) cannot pile them up.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from flask import Flask
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

from scorekeeper import keyring

KEY_LABEL = b"scorekeeper session cookie encryption"
FLASHES_KEY = "_flashes"
MAX_FLASHES = 3
"""Messages waiting to be shown, at most: the newest are kept."""
PACKED_SEPARATOR = b"\0"
"""Between the JSON and the packed keyring: JSON never holds a raw NUL byte."""


def fernet_for(secret_key: str | bytes) -> Fernet:
    """The cipher of one secret key: a key of its own, derived so that signing keys and
    encryption keys never coincide."""
    secret = secret_key.encode("utf-8") if isinstance(secret_key, str) else secret_key
    derived = hmac.new(secret, KEY_LABEL, hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


class SealedSerializer:
    """dumps/loads as Flask's session interface calls them, sealing the JSON it signs."""

    def __init__(self, fernet: Fernet, json_serializer: Any, legacy: Any) -> None:
        self.fernet = fernet
        self.json = json_serializer
        self.legacy = legacy
        self.read_legacy = False

    def dumps(self, value: dict[str, Any]) -> str:
        rest, packed = keyring.pack(value)
        plain = self.json.dumps(rest).encode("utf-8")
        if packed:
            plain += PACKED_SEPARATOR + packed
        return self.fernet.encrypt(plain).decode("ascii")

    def loads(self, value: str, max_age: int | None = None) -> dict[str, Any]:
        try:
            plain = self.fernet.decrypt(value.encode("ascii"), ttl=max_age)
        except (InvalidToken, UnicodeEncodeError, ValueError):
            if self.legacy is None:
                raise BadSignature("unreadable session") from None
            loaded: dict[str, Any] = self.legacy.loads(value, max_age=max_age)
            self.read_legacy = True
            return loaded
        text, separator, packed = plain.partition(PACKED_SEPARATOR)
        result: dict[str, Any] = self.json.loads(text.decode("utf-8"))
        if separator:
            result.update(keyring.unpack(packed))
        return result


class EncryptedSessionInterface(SecureCookieSessionInterface):
    def get_signing_serializer(self, app: Flask) -> SealedSerializer | None:  # type: ignore[override]
        if not app.secret_key:
            return None
        legacy = super().get_signing_serializer(app)
        return SealedSerializer(fernet_for(app.secret_key), self.serializer, legacy)

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data = serializer.loads(value, max_age=max_age)
        except BadSignature:
            return self.session_class()
        opened = self.session_class(data)
        if serializer.read_legacy:
            opened.modified = True  # sealed again in the answer
        return opened

    def save_session(self, app: Flask, session: SessionMixin, response: Any) -> None:
        bound_flashes(session)
        super().save_session(app, session, response)


def bound_flashes(session: SessionMixin) -> None:
    """Keep the newest ``MAX_FLASHES`` messages waiting to be shown, each once."""
    flashes = session.get(FLASHES_KEY)
    if not isinstance(flashes, list) or len(flashes) <= 1:
        return
    kept: list[Any] = []
    for flash in reversed(flashes):
        if flash not in kept:
            kept.insert(0, flash)
        if len(kept) == MAX_FLASHES:
            break
    if kept != flashes:
        session[FLASHES_KEY] = kept


def init_app(app: Flask) -> None:
    app.session_interface = EncryptedSessionInterface()
