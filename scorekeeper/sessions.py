"""The session cookie, encrypted: it carries the links a browser holds, and no one who sees the
cookie (a shared computer's cookie store, a log of headers) can read them.

Flask's own session is signed, not encrypted. This one is sealed with Fernet (AES in CBC mode
with an HMAC, from ``cryptography``) under a key derived from SECRET_KEY, and still expires
after the session's lifetime. A cookie signed in the old way is read once and sealed again, so
that browsers keep the links they held.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from flask import Flask
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

KEY_LABEL = b"scorekeeper session cookie encryption"


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
        return self.fernet.encrypt(self.json.dumps(value).encode("utf-8")).decode("ascii")

    def loads(self, value: str, max_age: int | None = None) -> dict[str, Any]:
        try:
            plain = self.fernet.decrypt(value.encode("ascii"), ttl=max_age)
        except (InvalidToken, UnicodeEncodeError, ValueError):
            if self.legacy is None:
                raise BadSignature("unreadable session") from None
            loaded: dict[str, Any] = self.legacy.loads(value, max_age=max_age)
            self.read_legacy = True
            return loaded
        result: dict[str, Any] = self.json.loads(plain.decode("utf-8"))
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


def init_app(app: Flask) -> None:
    app.session_interface = EncryptedSessionInterface()
