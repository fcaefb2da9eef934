"""/api/v1: score a deal, list the variants."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from ..extensions import csrf
from ..rules.json_entry import answer
from ..rules.variants import all_variants

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def _errors(status: int, message: str) -> tuple[dict[str, Any], int]:
    return {"errors": [{"side": None, "field": None, "message": message}]}, status


@bp.post("/score")
def score() -> tuple[dict[str, Any], int]:
    data = request.get_json(silent=True)
    if data is None:
        return _errors(400, "The request body must be a JSON object (Content-Type: application/json).")
    result = answer(data)
    return result.body, 200 if result.accepted else 422


@bp.get("/variants")
def variants() -> dict[str, Any]:
    return {"variants": [variant.to_dict() for variant in all_variants()]}
