"""The watchers' poll answered from memory, before Flask builds a request.

Polls are most of what a server hears: every phone at every table asks every few seconds
whether its game changed. When memory vouches for the game's version (``known_version`` of
``poll.Poll``, which this module knows only as ``KnownVersions``), this WSGI layer answers
with the very response the ``sharing.version`` view would give: 304 when the phone already
holds that version, else 200 with it. Anything else (a version memory cannot vouch for, an
unknown link, another address or method) goes on to the app unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from werkzeug.http import parse_etags

from scorekeeper.operations.requests import mark_endpoint
from scorekeeper.security import security_headers

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

POLL_CACHE_CONTROL = "private, no-cache"
POLL_MIMETYPE = "application/json"
POLL_PATH = re.compile(r"/g/([^/]+)/version")
"""The address of the ``sharing.version`` view (``Poll.known_version`` checks the token)."""
POLL_ENDPOINT = "sharing.version"


class KnownVersions(Protocol):
    """What the layer asks memory: ``poll.Poll`` answers it."""

    def known_version(self, token: str) -> tuple[int, int] | None:
        """(game id, version) of the game a link opens, when memory vouches for it; else None."""
        ...


def poll_etag(game_id: int, version: int) -> str:
    """The poll's entity tag (unquoted): it names the game and its version."""
    return f"g{game_id}v{version}"


def poll_body(version: int) -> bytes:
    return f'{{"version": {version}}}'.encode("ascii")


def poll_headers(etag: str, config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The headers of every answer to a poll, 200 or 304."""
    return [
        ("ETag", f'"{etag}"'),
        ("Cache-Control", POLL_CACHE_CONTROL),
        *security_headers(config),
    ]


class PollsFromMemory:
    """WSGI middleware in front of the app: see the module's docstring."""

    def __init__(
        self, app: WSGIApplication, poll: KnownVersions, config: Mapping[str, Any]
    ) -> None:
        self.app = app
        self.poll = poll
        self.config = config

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        address = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
        known = None
        if address is not None and method in ("GET", "HEAD"):
            known = self.poll.known_version(address.group(1))
        if known is None:
            return self.app(environ, start_response)
        mark_endpoint(environ, POLL_ENDPOINT)
        etag = poll_etag(*known)
        headers = poll_headers(etag, self.config)
        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and etag in parse_etags(held):
            start_response("304 NOT MODIFIED", headers)
            return []
        body = poll_body(known[1])
        headers += [("Content-Type", POLL_MIMETYPE), ("Content-Length", str(len(body)))]
        start_response("200 OK", headers)
        return [] if method == "HEAD" else [body]


def install(app: Flask, poll: KnownVersions) -> None:
    """Put the layer in front of the app's WSGI callable."""
    app.wsgi_app = PollsFromMemory(app.wsgi_app, poll, app.config)  # type: ignore[method-assign]
