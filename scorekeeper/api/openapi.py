"""The OpenAPI 3.1 document of /api/v1, served at /api/v1/openapi.json.

The schemas are built from the rules core (the side fields of ``SideEntry``, the variant ids,
the deals per game), so the document cannot drift from what the API reads.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from scorekeeper.api.keeping_schema import (
    ETAG_HEADER,
    NEXT_PAGE_HEADER,
    PAGE_PARAMETERS,
    keeping_paths,
    keeping_schemas,
)
from scorekeeper.api.variant_schema import (
    NAME_PATTERN,
    TEXT_PATTERN,
    variant_choice_schema,
    whole_variant_schema,
)
from scorekeeper.config import MAX_UPLOAD_BYTES
from scorekeeper.rules.cards import SMALLEST_CARD_POINTS
from scorekeeper.rules.entry import POINT_FIELDS, SIDE_FIELDS, SideEntry
from scorekeeper.rules.json_entry import MOST_RUNNING_SCORE
from scorekeeper.rules.variants import MAX_DEALS

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.1.0"
JSON = "application/json"
PROBLEM_JSON = "application/problem+json"
EDIT_LINK = "editLink"
"""The security scheme of every write to a game: an edit link's token as a Bearer token."""

Schema = dict[str, Any]

# An export file's texts as ``store.transfer`` reads them (the name rule, ``rules.names``);
# a side's name more than spaces. Its times as it writes them; its players as it bounds them.
EXPORT_TEXT_PATTERN = TEXT_PATTERN
EXPORT_NAME_PATTERN = NAME_PATTERN
EXPORT_TIME_PATTERN = (
    "^(?!0000)[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    "T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,6})?$"
)
EXPORT_MOST_PLAYERS = 100


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _json_content(schema: Schema) -> Schema:
    return {JSON: {"schema": schema}}


def _side_entry_schema(most: int | None = None) -> Schema:
    """As ``rules.validation`` reads a side: counts from 0, card points in fives; ``most``: the
    largest number (an export file's)."""
    types = {f.name: f.type for f in fields(SideEntry)}
    properties: dict[str, Schema] = {}
    for name in SIDE_FIELDS:
        if types[name] in (bool, "bool"):
            properties[name] = {"type": "boolean"}
            continue
        number: Schema = {"type": "integer", "minimum": 0}
        if name == "meld_points":
            # Melded black threes may count against the side (Brouillette): below 0 is
            # possible there, and the rules decide how far.
            number = {"type": "integer"}
            if most is not None:
                number["minimum"] = -most
        if most is not None:
            number["maximum"] = most
        if name in POINT_FIELDS:
            number["multipleOf"] = SMALLEST_CARD_POINTS
        properties[name] = number
    return {
        "type": "object",
        "description": "One side's numbers for one deal; a missing field counts as 0 (false).",
        "properties": properties,
        "additionalProperties": False,
    }


def _deal_number_schema() -> Schema:
    return {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_DEALS,
        "description": f"From 1 to the variant's number of deals (its deals: 1 to {MAX_DEALS}).",
    }


def _deal_entry_schema() -> Schema:
    return {
        "type": "object",
        "description": "What a table writes down for one deal.",
        "properties": {
            "variant": variant_choice_schema(),
            "deal": _deal_number_schema(),
            "players": {"type": ["integer", "null"], "minimum": 1},
            "stock_ran_out": {"type": "boolean"},
            "sides": {"type": "array", "minItems": 1, "items": _ref("SideEntry")},
            "running_scores": {
                "type": ["array", "null"],
                "description": (
                    "Each side's game score before this deal, in the order of sides. Read "
                    "where the variant sets the first meld by running score "
                    "(first_meld_by_score): each side's first meld must then reach the minimum "
                    "of the highest threshold at or below its score (the lowest threshold "
                    "below them all). Absent or null: each side needs only the smallest "
                    "minimum of the table."
                ),
                "items": {
                    "type": "integer",
                    "minimum": -MOST_RUNNING_SCORE,
                    "maximum": MOST_RUNNING_SCORE,
                },
            },
        },
        "required": ["variant", "deal", "sides"],
        "additionalProperties": False,
    }


PROBLEM_SCHEMA: Schema = {
    "type": "object",
    "description": "One thing wrong or unusual, naming the side (from 0) and the field.",
    "properties": {
        "side": {"type": ["integer", "null"]},
        "field": {"type": ["string", "null"]},
        "message": {"type": "string"},
    },
    "required": ["side", "field", "message"],
}

FIELD_ERROR_SCHEMA: Schema = {
    "type": "object",
    "description": "One thing wrong, naming the side (from 0) and the field, with a stable "
    "machine-readable code: the same rule has the same code in every language.",
    "properties": {
        "side": {"type": ["integer", "null"]},
        "field": {"type": ["string", "null"]},
        "message": {"type": "string"},
        "code": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
    },
    "required": ["side", "field", "message", "code"],
}

PROBLEM_DETAILS_SCHEMA: Schema = {
    "type": "object",
    "description": "An error as RFC 9457 problem details, in the request's language "
    "(Accept-Language). field_errors say each thing wrong with its code; errors are the same "
    "without codes, as earlier versions of the API answered.",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string"},
        "field_errors": {"type": "array", "minItems": 1, "items": _ref("FieldError")},
        "errors": {"type": "array", "minItems": 1, "items": _ref("Problem")},
        "current_version": {
            "type": "integer",
            "description": "On 409 and 412: the game's version now.",
        },
        "etag": {"type": "string", "description": "On 412: the game's ETag now."},
    },
    "required": ["type", "title", "status", "detail", "field_errors", "errors"],
}

ERRORS_SCHEMA: Schema = {
    "type": "object",
    "properties": {"errors": {"type": "array", "minItems": 1, "items": _ref("Problem")}},
    "required": ["errors"],
}

SCORE_SCHEMA: Schema = {
    "type": "object",
    "properties": {
        "variant": {"type": "string"},
        "deal": {"type": "integer"},
        "sides": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "total": {"type": "integer"},
                    "breakdown": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "warnings": {"type": "array", "items": _ref("Problem")},
                },
                "required": ["total", "breakdown", "warnings"],
            },
        },
        "warnings": {"type": "array", "items": _ref("Problem")},
    },
    "required": ["variant", "deal", "sides", "warnings"],
}


def _export_schemas() -> dict[str, Schema]:
    """The export file of games, as ``store.transfer`` writes and reads it."""
    from scorekeeper.store.games import MAX_VERSION, NAME_LENGTH, SIDE_NAME_LENGTH
    from scorekeeper.store.transfer import (
        DEAL_KEYS,
        FILE_KEYS,
        FORMAT,
        FORMAT_VERSION,
        GAME_KEYS,
        MAX_GAMES,
        MAX_INT,
    )

    when = {
        "type": "string",
        "maxLength": 40,
        "pattern": EXPORT_TIME_PATTERN,
        "description": "UTC, ISO 8601, without a zone, as exported (2026-11-23T12:00:00).",
    }
    version = {"type": "integer", "minimum": 1, "maximum": MAX_VERSION}
    entry = {**_side_entry_schema(MAX_INT), "required": list(SIDE_FIELDS)}
    deal = {
        "type": "object",
        "properties": {
            "number": _deal_number_schema(),
            "version": version,
            "stock_ran_out": {"type": "boolean"},
            "created_at": when,
            "updated_at": when,
            "sides": {"type": "array", "items": entry},
        },
        "required": list(DEAL_KEYS),
        "additionalProperties": False,
    }
    game = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": NAME_LENGTH, "pattern": EXPORT_TEXT_PATTERN},
            "variant": {"type": "string", "description": "The id of the game's rules."},
            "rules": _ref("Variant"),
            "players": {"type": "integer", "minimum": 1, "maximum": EXPORT_MOST_PLAYERS},
            "created_at": when,
            "updated_at": when,
            "version": version,
            "sides": {
                "type": "array",
                "items": {
                    "type": "string",
                    "maxLength": SIDE_NAME_LENGTH,
                    "pattern": EXPORT_NAME_PATTERN,
                },
            },
            "deals": {"type": "array", "maxItems": MAX_DEALS, "items": _ref("ExportDeal")},
        },
        "required": list(GAME_KEYS),
        "additionalProperties": False,
    }
    export: Schema = {
        "type": "object",
        "description": "Games without their links: importing gives each game new ones.",
        "properties": {
            "format": {"const": FORMAT},
            "format_version": {"const": FORMAT_VERSION},
            "exported_at": when,
            "games": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_GAMES,
                "items": _ref("ExportGame"),
            },
        },
        "required": list(FILE_KEYS),
        "additionalProperties": False,
    }
    imported = {
        "type": "object",
        "properties": {
            "games": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "view_url": {"type": "string"},
                        "edit_url": {"type": "string"},
                    },
                    "required": ["name", "view_url", "edit_url"],
                },
            }
        },
        "required": ["games"],
    }
    all_games = {
        **export,
        "properties": {
            **export["properties"],
            "games": {"type": "array", "items": _ref("ExportGame")},
        },
    }
    return {
        "ExportDeal": deal,
        "ExportGame": game,
        "ExportFile": export,
        "GamesExport": all_games,
        "Imported": imported,
    }


def _meld_check_schema() -> Schema:
    from scorekeeper.api.meld_check import MOST_CARDS, PACK_RANKS, RANKS

    count = {"type": "integer", "minimum": 0, "maximum": MOST_CARDS}
    return {
        "type": "object",
        "description": "One meld to check against a variant's rules.",
        "properties": {
            "variant": variant_choice_schema(),
            "deal": _deal_number_schema(),
            "rank": {
                "type": ["string", "null"],
                "enum": [*RANKS, None],
                "description": "The meld's rank; 3 for black threes, null for an all-wild meld. "
                "A variant played with HANDnFOOT packs takes the pack's ranks instead, "
                "the last for villains (its black threes): " + ", ".join(PACK_RANKS) + ".",
            },
            "naturals": count,
            "twos": count,
            "jokers": count,
            "first_meld": {"type": "boolean"},
            "running_score": {
                "type": "integer",
                "minimum": -MOST_RUNNING_SCORE,
                "maximum": MOST_RUNNING_SCORE,
                "description": (
                    "The side's game score before the deal, where the variant sets the first "
                    "meld by running score; absent: the smallest minimum of its table."
                ),
            },
        },
        "required": ["variant"],
        "additionalProperties": False,
    }


def _games_paths() -> dict[str, Any]:
    token = {
        "name": "token",
        "in": "path",
        "required": True,
        "description": "The game's view token or edit token (from its links).",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{43}$"},
    }
    return {
        "/games": {
            "get": {
                "operationId": "exportAllGames",
                "summary": "The games this client holds (through its session), newest first, "
                "as one export file (no links in it), a page at a time.",
                "parameters": PAGE_PARAMETERS,
                "responses": {
                    "200": {
                        "description": "A page of games as an export file.",
                        "headers": NEXT_PAGE_HEADER,
                        "content": _json_content(_ref("GamesExport")),
                    },
                    "422": _error_response("limit or cursor cannot be read."),
                },
            },
            "post": {
                "operationId": "importGames",
                "summary": "Import an export file: every game in it, or none when one value "
                "is refused. Each game gets new links.",
                "requestBody": {"required": True, "content": _json_content(_ref("ExportFile"))},
                "responses": {
                    "201": {
                        "description": "The games made, with their new links.",
                        "content": _json_content(_ref("Imported")),
                    },
                    "400": _error_response("The body is not JSON."),
                    "413": _error_response("The body is larger than the app accepts."),
                    "422": _error_response(
                        "A value of the file is refused, or its games do not hold together "
                        "under the rules; nothing imported."
                    ),
                    "429": _error_response(
                        "Too many imports from this client; Retry-After gives the seconds to wait."
                    ),
                },
            },
        },
        "/games/{token}": {
            "get": {
                "operationId": "exportGame",
                "summary": "One game as an export file.",
                "parameters": [token],
                "responses": {
                    "200": {
                        "description": "The export file of the game.",
                        "headers": ETAG_HEADER,
                        "content": _json_content(_ref("ExportFile")),
                    },
                    "404": _error_response("No game has this token."),
                },
            }
        },
    }


def _error_response(description: str) -> Schema:
    return {
        "description": description,
        "content": {PROBLEM_JSON: {"schema": _ref("ProblemDetails")}},
    }


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Hand & Foot score keeper API",
            "version": API_VERSION,
            "description": "Score a deal of Hand and Foot under any built-in variant, "
            "list the variants with every rule parameter, and export and import games. "
            "The schemas say value by value what the app reads; what they cannot say (a deal "
            "impossible under its variant, house rules a table cannot play, games of a file "
            "that do not hold together) is the rules' verdict, answered 422 naming the field. "
            "A number is whole as JSON Schema counts it (4.0 is 4). Bodies are at most "
            f"{MAX_UPLOAD_BYTES // 1024 // 1024} MB (413 beyond).",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": {
            "/score": {
                "post": {
                    "operationId": "scoreDeal",
                    "summary": "Score one deal: each side's total and breakdown, with warnings.",
                    "requestBody": {"required": True, "content": _json_content(_ref("DealEntry"))},
                    "responses": {
                        "200": {
                            "description": "The deal's score.",
                            "content": _json_content(_ref("Score")),
                        },
                        "400": _error_response("The body is not a JSON object."),
                        "413": _error_response("The body is larger than the app accepts."),
                        "422": _error_response(
                            "The deal is impossible under the rules (or cannot be read)."
                        ),
                    },
                }
            },
            "/variants": {
                "get": {
                    "operationId": "listVariants",
                    "summary": "Every built-in variant with its rule parameters.",
                    "responses": {
                        "200": {
                            "description": "The variants.",
                            "content": _json_content(
                                {
                                    "type": "object",
                                    "properties": {
                                        "variants": {"type": "array", "items": _ref("Variant")}
                                    },
                                    "required": ["variants"],
                                }
                            ),
                        }
                    },
                }
            },
            "/check-meld": {
                "post": {
                    "operationId": "checkMeld",
                    "summary": "Whether a meld is legal under a variant, and why not.",
                    "requestBody": {"required": True, "content": _json_content(_ref("MeldCheck"))},
                    "responses": {
                        "200": {
                            "description": "The verdict on the meld.",
                            "content": _json_content({"type": "object"}),
                        },
                        "400": _error_response("The body is not a JSON object."),
                        "413": _error_response("The body is larger than the app accepts."),
                        "422": _error_response(
                            "The meld cannot be read, or its inline variant cannot be played."
                        ),
                    },
                }
            },
            **_games_paths(),
            **keeping_paths(),
        },
        "components": {
            "securitySchemes": {
                EDIT_LINK: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The token of a game's edit link, or of the edit link of "
                    "the card table that keeps it (the last part of the link's address). The "
                    "view link reads only: sent on a write it is 403. A token that opens "
                    "neither the game nor its table is 404, as an unknown link.",
                }
            },
            "schemas": {
                **_export_schemas(),
                "SideEntry": _side_entry_schema(),
                "DealEntry": _deal_entry_schema(),
                "Problem": PROBLEM_SCHEMA,
                "FieldError": FIELD_ERROR_SCHEMA,
                "ProblemDetails": PROBLEM_DETAILS_SCHEMA,
                **keeping_schemas(),
                "Errors": ERRORS_SCHEMA,
                "Score": SCORE_SCHEMA,
                "Variant": whole_variant_schema(exported=True),
                "MeldCheck": _meld_check_schema(),
            },
        },
    }
