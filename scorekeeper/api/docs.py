"""/api/: the API's docs page for a person, Swagger UI over the OpenAPI document.

Swagger UI is vendored under ``static/vendor/swagger-ui/`` (its version and licence beside it)
and served by the app, so the page keeps the site's Content-Security-Policy: no script or style
from elsewhere, no inline script. The older guesses at a docs address lead here.
"""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.wrappers import Response

bp = Blueprint("api_docs", __name__)

EXAMPLE_DEAL = {
    "variant": "pagat",
    "deal": 1,
    "players": 4,
    "sides": [
        {
            "meld_points": 1210,
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes_down": 2,
            "cards_left_points": 15,
            "went_out": True,
        },
        {
            "meld_points": 600,
            "clean_books": 1,
            "dirty_books": 1,
            "red_threes_down": 1,
            "red_threes_held": 1,
            "cards_left_points": 120,
        },
    ],
}
"""A deal of pagat's rules for two teams, as the docs page scores it with curl."""

EXAMPLE_GAME = {
    "variant": "pagat",
    "players": 4,
    "sides": [
        {"name": "Us", "players": ["Ann", "Bob"]},
        {"name": "Them", "players": ["Cy", "Di"]},
    ],
}
"""The game the docs page starts at a card table with curl, before saving that deal in it."""


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@bp.get("/api/")
def docs() -> str:
    return render_template(
        "api/docs.html",
        example_deal=_compact(EXAMPLE_DEAL),
        example_game=_compact(EXAMPLE_GAME),
        example_sides=_compact({"sides": EXAMPLE_DEAL["sides"]}),
        api_url=url_for("api.score", _external=True).removesuffix("/score"),
        score_url=url_for("api.score", _external=True),
        document_url=url_for("api.openapi", _external=True),
        document_path=url_for("api.openapi"),
    )


@bp.get("/docs")
@bp.get("/api/v1/docs")
@bp.get("/redoc")
def elsewhere() -> Response:
    return redirect(url_for(".docs"), 301)
