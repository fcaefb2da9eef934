"""/api/v1: score a deal, list the variants, export and import games, and the OpenAPI document
that describes them all."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, request, url_for

from scorekeeper.api.meld_check import answer_meld_check
from scorekeeper.api.openapi import openapi_document
from scorekeeper.extensions import csrf, db
from scorekeeper.limits import IMPORTS, accepts_import, limited
from scorekeeper.rules.json_entry import answer
from scorekeeper.rules.variant_json import resolve_variant
from scorekeeper.store import catalogue
from scorekeeper.store.game_service import load_game
from scorekeeper.store.holdings import visible_games
from scorekeeper.store.links import resolve
from scorekeeper.store.transfer import ImportRefused, export_games, import_games, read_file

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


NOT_JSON = "The request body must be a JSON object (Content-Type: application/json)."


def _errors(status: int, message: str) -> tuple[dict[str, Any], int]:
    return {"errors": [{"side": None, "field": None, "message": message}]}, status


@bp.post("/score")
def score() -> tuple[dict[str, Any], int]:
    data = request.get_json(silent=True)
    if data is None:
        return _errors(
            400, "The request body must be a JSON object (Content-Type: application/json)."
        )
    result = answer(data, lambda raw: resolve_variant(raw, catalogue.find_variant))
    return result.body, 200 if result.accepted else 422


@bp.post("/check-meld")
def check_meld() -> tuple[dict[str, Any], int]:
    data = request.get_json(silent=True)
    if data is None:
        return _errors(
            400, "The request body must be a JSON object (Content-Type: application/json)."
        )
    body, readable = answer_meld_check(data)
    return body, 200 if readable else 422


@bp.get("/variants")
def variants() -> dict[str, Any]:
    """The built-in variants, and the house rules of the card tables the caller holds."""
    return {"variants": [variant.to_dict() for variant in catalogue.variants()]}


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    return openapi_document()


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@bp.get("/games")
def export_all_games() -> dict[str, Any]:
    """Every game the caller holds a link to (through its session), as one export file."""
    return export_games(visible_games(), _now())


@bp.get("/games/<token>")
def export_one_game(token: str) -> dict[str, Any]:
    """One game, by its view or edit token, as an export file."""
    grant = resolve(token, read_game=True)
    game = load_game(grant.game_id) if grant is not None else None
    if game is None:
        abort(404)
    return export_games([game], _now())


@bp.post("/games")
@limited(IMPORTS)
@accepts_import
def import_games_file() -> tuple[dict[str, Any], int]:
    """Import an export file: all its games or, when one value is refused, none."""
    data = request.get_json(silent=True)
    if data is None:
        return _errors(400, NOT_JSON)
    try:
        rows = read_file(data)
    except ImportRefused as refusal:
        return {"errors": [p.to_dict() for p in refusal.problems]}, 422
    made = import_games(rows)
    db.session.commit()
    return {
        "games": [
            {
                "name": item.game.name,
                "view_url": url_for("games.scoreboard", token=item.game.view_token, _external=True),
                "edit_url": url_for("games.scoreboard", token=item.edit_token, _external=True),
            }
            for item in made
        ]
    }, 201
