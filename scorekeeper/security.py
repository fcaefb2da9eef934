"""Response headers that keep every page locked down.

Also: JSON bodies too deeply nested to decode are refused as bad requests, not crashes.

The Content-Security-Policy allows scripts, styles and images from this site only, so no inline
``<script>`` or ``style=""`` runs; the service worker and the web app manifest come from this
site too; pages cannot be framed, forms post only here, and no address
(which may hold a game's edit token) leaks to other sites through the Referer header.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app
from flask.json.provider import DefaultJSONProvider

from scorekeeper.rules.json_numbers import read_json_number

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "worker-src 'self'",
        "manifest-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    )
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# Browsers keep to HTTPS for a year once they have seen this over HTTPS.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


def security_headers(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The headers every response carries, HSTS included where cookies are HTTPS-only."""
    headers = list(SECURITY_HEADERS.items())
    if config.get("SESSION_COOKIE_SECURE"):
        headers.append(("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY))
    return headers


def set_security_headers(response: Response) -> Response:
    """Add the headers to every response; a view that set one of them keeps its own value."""
    present = {name.lower() for name, _value in response.headers}
    response.headers.extend(
        [
            (name, value)
            for name, value in security_headers(current_app.config)
            if name.lower() not in present
        ]
    )
    return response


class GuardedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, except that a document nested too deeply to decode is a ValueError.

    Python's decoder raises RecursionError on deep nesting (a 1 MB body of "[" does it);
    as a ValueError it becomes a 400 (``get_json``) or None (``get_json(silent=True)``).
    Whole numbers written as ``4.0`` are read as ints (``read_json_number``).
    """

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        kwargs.setdefault("parse_float", read_json_number)
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("The JSON document is nested too deeply.") from None


def init_app(app: Flask) -> None:
    app.json = GuardedJSONProvider(app)
    app.after_request(set_security_headers)
