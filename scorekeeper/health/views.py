"""``/healthz``, ``/readyz`` and ``/metrics``: what a container's HEALTHCHECK, a load balancer,
an orchestrator or Prometheus asks a server.

- ``/healthz``: the process answers requests. Nothing else is looked at, so that a database
  outage does not get every server restarted.
- ``/readyz``: the server can serve: its database answers and has every migration the code
  expects (503 otherwise), so that a proxy sends no request to a server started before its
  migrations or cut off from the database.

Both are cheap (at most two small queries), open no session and set no cookie: they answer
the same to anyone, and say nothing but their state.

- ``/metrics``: the counters for Prometheus (``operations.metrics``): 404 while metrics are
  off, 401 without the bearer token.
"""

from __future__ import annotations

import logging

from flask import Blueprint, Response, abort, current_app, request
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db
from scorekeeper.health.schema import missing_migrations
from scorekeeper.operations import metrics

bp = Blueprint("health", __name__)
logger = logging.getLogger(__name__)

NOT_READY = 503


def _plain(text: str, status: int = 200) -> Response:
    response = Response(text + "\n", status=status, mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    return _plain("ok")


@bp.get("/readyz")
def readyz() -> Response:
    try:
        with db.engine.connect() as connection:
            behind = missing_migrations(connection)
    except SQLAlchemyError as error:
        logger.warning("not ready: the database does not answer (%s)", type(error).__name__)
        return _plain("database unreachable", NOT_READY)
    if behind:
        return _plain("migrations not applied", NOT_READY)
    return _plain("ready")


@bp.get("/metrics")
def prometheus_metrics() -> Response:
    found = metrics.of(current_app)
    if found is None:
        abort(404)
    if not found.allows(request.headers.get("Authorization")):
        return Response(
            "A bearer token is needed.\n",
            401,
            {"WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store"},
            mimetype="text/plain",
        )
    body, content_type = found.exposition()
    return Response(body, 200, {"Cache-Control": "no-store"}, content_type=content_type)
