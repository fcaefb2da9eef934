"""Every request's id, and its count and time by endpoint: a WSGI layer around the whole app.

The id is the proxy's ``X-Request-ID`` when a trusted proxy (``TRUSTED_PROXIES``) sent a sane
one (1 to 128 letters, digits and ``._:-``), else a new random one. It is sent back as
``X-Request-ID`` and carried by every log line the request writes (``logs``). The endpoint is
told by the app (``mark_endpoint``) or by a layer that answered before it (the poll from
memory); a request no view took is counted as ``none``.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from flask import Flask, request
from werkzeug.wsgi import ClosingIterator

from scorekeeper.operations import metrics

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

HEADER = "X-Request-ID"
ENVIRON_HEADER = "HTTP_X_REQUEST_ID"
ENDPOINT_KEY = "scorekeeper.endpoint"
"""Where the endpoint that answered a request is left in its WSGI environ."""
NO_ENDPOINT = "none"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)
"""The id of the request this thread serves, until its answer is closed: gunicorn writes the
access log line before it closes the answer, so that line has it too."""


def request_id_for(environ: WSGIEnvironment, trust_proxy: bool) -> str:
    offered = environ.get(ENVIRON_HEADER, "")
    if trust_proxy and SANE_ID.fullmatch(offered):
        return str(offered)
    return uuid.uuid4().hex


def mark_endpoint(environ: WSGIEnvironment, endpoint: str) -> None:
    """Name the endpoint that answers the request (for a layer that answers before Flask)."""
    environ[ENDPOINT_KEY] = endpoint


def _forget_request_id() -> None:
    current_request_id.set(None)


def _mark_flask_endpoint() -> None:
    request.environ[ENDPOINT_KEY] = request.endpoint or NO_ENDPOINT


def _method(environ: WSGIEnvironment) -> str:
    """The request's method, or ``other``: a label must not take any word a client sends."""
    method = str(environ.get("REQUEST_METHOD", ""))
    return method if method in METHODS else "other"


class RequestLayer:
    """WSGI middleware: see the module's docstring."""

    def __init__(self, wsgi_app: WSGIApplication, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.trust_proxy = bool(app.config["TRUSTED_PROXIES"])
        self.metrics = metrics.of(app)
        # First of the hooks: a hook before it may answer (a 429) and skip the rest.
        app.before_request_funcs.setdefault(None, []).insert(0, _mark_flask_endpoint)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        request_id = request_id_for(environ, self.trust_proxy)
        current_request_id.set(request_id)
        started = time.perf_counter()
        status = ["500"]

        def start(status_line: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            status[0] = status_line.split(" ", 1)[0]
            headers.append((HEADER, request_id))
            return start_response(status_line, headers, *exc_info)

        try:
            return ClosingIterator(self.wsgi_app(environ, start), _forget_request_id)
        finally:
            if self.metrics is not None:
                self.metrics.observe_request(
                    str(environ.get(ENDPOINT_KEY, NO_ENDPOINT)),
                    _method(environ),
                    status[0],
                    time.perf_counter() - started,
                )
