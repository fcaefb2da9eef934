"""``/metrics`` for Prometheus: 404 while metrics are off, 401 without the bearer token."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, request

from . import metrics

bp = Blueprint("operations", __name__)


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
