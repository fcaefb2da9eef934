"""The watchers' poll answered "not modified" before Flask builds a request.

Polls are most of what a server hears: every phone at every table asks every few seconds
whether its game changed, and nearly always it has not. When memory vouches for the game's
version (``poll.Poll.known_version``) and the phone already holds it, this WSGI layer answers
304 with the very headers the ``sharing.version`` view would send. Anything else (a first
poll, a changed game, an unknown link, another address) goes on to the app unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from werkzeug.http import parse_etags

from scorekeeper.security import security_headers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

    from .poll import Poll

POLL_CACHE_CONTROL = "private, no-cache"
POLL_PATH = re.compile(r"/g/([^/]+)/version")
"""The address of the ``sharing.version`` view (``Poll.known_version`` checks the token)."""


def poll_etag(game_id: int, version: int) -> str:
    """The poll's entity tag (unquoted): it names the game and its version."""
    return f"g{game_id}v{version}"


def not_modified_headers(etag: str, config: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        ("ETag", f'"{etag}"'),
        ("Cache-Control", POLL_CACHE_CONTROL),
        *security_headers(config),
    ]


class NotModifiedPolls:
    """WSGI middleware in front of the app: see the module's docstring."""

    def __init__(self, app: WSGIApplication, poll: Poll, config: Mapping[str, Any]) -> None:
        self.app = app
        self.poll = poll
        self.config = config

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        etag = self._unchanged(environ)
        if etag is None:
            return self.app(environ, start_response)
        start_response("304 NOT MODIFIED", not_modified_headers(etag, self.config))
        return []

    def _unchanged(self, environ: WSGIEnvironment) -> str | None:
        """The ETag the phone holds, when it is still the game's; None otherwise."""
        held = environ.get("HTTP_IF_NONE_MATCH")
        if not held or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return None
        address = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if address is None:
            return None
        known = self.poll.known_version(address.group(1))
        if known is None:
            return None
        etag = poll_etag(*known)
        return etag if etag in parse_etags(held) else None


def install(app: Flask, poll: Poll) -> None:
    """Put the layer in front of the app's WSGI callable."""
    app.wsgi_app = NotModifiedPolls(app.wsgi_app, poll, app.config)  # type: ignore[method-assign]
