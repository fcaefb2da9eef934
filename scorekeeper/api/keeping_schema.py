"""The OpenAPI paths and schemas of keeping a game (``api.keeping``): starting one at a card
table, its deals, the undo and the scoreboard, and the paged list of games."""

from __future__ import annotations

from typing import Any

from scorekeeper.api.keeping import MOST_PAGE_SIZE, PAGE_SIZE
from scorekeeper.rules.entry import SIDE_FIELDS
from scorekeeper.rules.variants import MAX_DEALS
from scorekeeper.store.games import NAME_LENGTH, SIDE_NAME_LENGTH

Schema = dict[str, Any]
JSON = "application/json"
PROBLEM_JSON = "application/problem+json"
EDIT_LINK = "editLink"
TOKEN_PATTERN = "^[A-Za-z0-9_-]{43}$"


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _problem(description: str) -> Schema:
    content = {PROBLEM_JSON: {"schema": _ref("ProblemDetails")}}
    return {"description": description, "content": content}


ETAG_HEADER: Schema = {
    "ETag": {
        "description": 'The game\'s version, such as "g12-v7": send it as If-Match to change '
        "the game only at that version, or as If-None-Match to be answered 304 while it holds.",
        "schema": {"type": "string"},
    }
}


def _answer(description: str, schema: str) -> Schema:
    return {
        "description": description,
        "headers": ETAG_HEADER,
        "content": {JSON: {"schema": _ref(schema)}},
    }


def _token(about: str) -> Schema:
    return {
        "name": "token",
        "in": "path",
        "required": True,
        "description": about,
        "schema": {"type": "string", "pattern": TOKEN_PATTERN},
    }


GAME_TOKEN = _token("The game's view token or edit token (from its links).")
TABLE_TOKEN = _token("The card table's view token or edit token (from its links).")
DEAL_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The deal's number, from 1 to the game's number of deals.",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_DEALS},
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of the game's version the change is made from: 412 when the game "
    "has changed since. Without it the change is made on the version it finds.",
    "schema": {"type": "string", "maxLength": 200},
}
SECURED: list[dict[str, list[str]]] = [{EDIT_LINK: []}]

_NAME = {"type": "string", "maxLength": SIDE_NAME_LENGTH}
_STATUSES = {
    "400": "The body is not JSON.",
    "401": "No edit link was sent (Authorization: Bearer <token>).",
    "403": "The token sent is the game's (or its table's) view link, which reads only.",
    "404": "No game (or card table) has this token, or the token sent opens neither it nor "
    "its table, or there is no such deal.",
    "409": "The change clashes with another made at the same moment, or (undo) the game's "
    "last change was not a new deal; current_version says the game's version now.",
    "412": "If-Match names a version the game is no longer at; current_version and etag "
    "say the version now.",
    "413": "The body is larger than the app accepts.",
    "422": "A value cannot be read, or the deal is impossible under the rules (or has "
    "warnings not accepted): field_errors name each, with its code.",
    "429": "Too many games started from this client; Retry-After gives the seconds to wait.",
    "503": "The server holds as many event streams as it may; Retry-After gives the wait.",
}


def _errors(*statuses: str) -> dict[str, Schema]:
    return {status: _problem(_STATUSES[status]) for status in statuses}


def keeping_schemas() -> dict[str, Schema]:
    side_entry = {"type": "object", "properties": {f: {} for f in SIDE_FIELDS}}
    seat = {
        "type": ["object", "null"],
        "properties": {
            "side": {"type": "integer", "minimum": 0},
            "side_name": {"type": "string"},
            "player": {"type": ["string", "null"]},
        },
        "required": ["side", "side_name", "player"],
    }
    deal = {
        "type": "object",
        "description": "One deal saved: each side's entry, score and running total.",
        "properties": {
            "number": {"type": "integer"},
            "version": {"type": "integer"},
            "stock_ran_out": {"type": "boolean"},
            "sides": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "entry": side_entry,
                        "total": {"type": "integer"},
                        "breakdown": {
                            "type": "object",
                            "additionalProperties": {"type": "integer"},
                        },
                        "running_total": {"type": "integer"},
                    },
                    "required": ["name", "entry", "total", "breakdown", "running_total"],
                },
            },
            "totals": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["number", "version", "stock_ran_out", "sides"],
    }
    scoreboard = {
        "type": "object",
        "description": "A game as its scoreboard shows it.",
        "properties": {
            "name": {"type": "string"},
            "variant": {"type": "string"},
            "players": {"type": "integer"},
            "version": {"type": "integer"},
            "deals_in_game": {
                "type": "integer",
                "description": "The most deals of the game: where it has a target score, the "
                "deal after which it ends if no side reached the target before.",
            },
            "target_score": {
                "type": ["integer", "null"],
                "description": "The score at which the game ends, after the deal in which a "
                "side reaches it; null: the game is deals_in_game deals.",
            },
            "finished": {"type": "boolean"},
            "sides": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "total": {"type": "integer"},
                    },
                    "required": ["name", "players", "total"],
                },
            },
            "leaders": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "The sides (from 0) with the highest total; more than one on "
                "a tie; none before the first deal.",
            },
            "winners": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "The leaders once the game has ended (its last deal is in, or a "
                "side reached the target score).",
            },
            "deals": {"type": "array", "items": _ref("GameDeal")},
            "next_deal": {
                "type": ["object", "null"],
                "description": "Who deals the next deal and who plays first (null once every "
                "deal is in); a player where the side's players were named.",
                "properties": {
                    "number": {"type": "integer"},
                    "dealing": {"enum": ["one-dealer", "own-packets"]},
                    "dealer": seat,
                    "first": seat,
                },
                "required": ["number", "dealing", "dealer", "first"],
            },
            "links": {
                "type": "object",
                "properties": {
                    "view_url": {"type": "string"},
                    "scoreboard": {"type": "string"},
                    "edit_url": {"type": "string"},
                    "edit_token": {
                        "type": "string",
                        "description": "Only in the answer to starting the game: the edit "
                        "link is stored nowhere else.",
                    },
                },
                "required": ["view_url", "scoreboard"],
            },
            "undone": _ref("GameDeal"),
        },
        "required": [
            "name",
            "variant",
            "players",
            "version",
            "sides",
            "leaders",
            "deals",
            "next_deal",
        ],
    }
    new_game = {
        "type": "object",
        "description": "A game to start: its rules, its table (sides and players) and the "
        "names of its sides and of their players.",
        "properties": {
            "variant": {
                "type": "string",
                "description": "A built-in variant's id, or the id of the table's house rules.",
            },
            "players": {"type": "integer", "minimum": 1, "maximum": 100},
            "name": {"type": "string", "maxLength": NAME_LENGTH},
            "sides": {
                "type": "array",
                "minItems": 1,
                "maxItems": 12,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {**_NAME, "minLength": 1},
                        "players": {"type": "array", "maxItems": 3, "items": _NAME},
                    },
                    "required": ["name"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["variant", "sides"],
        "additionalProperties": False,
    }
    deal_body = {
        "type": "object",
        "description": "A deal as the deal form takes it; checked by the rules core.",
        "properties": {
            "sides": {"type": "array", "minItems": 1, "items": _ref("SideEntry")},
            "stock_ran_out": {"type": "boolean"},
            "accept_warnings": {
                "type": "boolean",
                "description": "Save a deal with warnings as it is (the form's Save anyway).",
            },
        },
        "required": ["sides"],
        "additionalProperties": False,
    }
    return {"GameDeal": deal, "Scoreboard": scoreboard, "NewGame": new_game, "DealBody": deal_body}


def keeping_paths() -> dict[str, Any]:
    return {
        "/tables/{token}/games": {
            "post": {
                "operationId": "startGame",
                "summary": "Start a game at a card table, its sides and players named.",
                "parameters": [TABLE_TOKEN],
                "security": SECURED,
                "requestBody": {"required": True, "content": {JSON: {"schema": _ref("NewGame")}}},
                "responses": {
                    "201": _answer("The game started, with its links.", "Scoreboard"),
                    **_errors("400", "401", "403", "404", "413", "422", "429"),
                },
            }
        },
        "/games/{token}/scoreboard": {
            "get": {
                "operationId": "gameScoreboard",
                "summary": "A game's totals, leaders, deals, and who deals next.",
                "parameters": [GAME_TOKEN],
                "responses": {
                    "200": _answer("The scoreboard.", "Scoreboard"),
                    **_errors("404"),
                },
            }
        },
        "/games/{token}/events": {
            "get": {
                "operationId": "gameEvents",
                "summary": "The game's changes as they happen, as Server-Sent Events.",
                "description": (
                    "Each event is named by its kind (version, added, changed, deleted, gone),"
                    " its id is the game's version and its data a JSON object: version, kind and"
                    " the deal's number. A stream ends after about 25 seconds and the client"
                    " reconnects, sending the last id it heard as Last-Event-ID."
                ),
                "parameters": [
                    GAME_TOKEN,
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string", "maxLength": 20},
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The stream of events.",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **_errors("404", "503"),
                },
            }
        },
        "/games/{token}/deals/{number}": {
            "get": {
                "operationId": "getDeal",
                "summary": "One deal of a game.",
                "parameters": [GAME_TOKEN, DEAL_NUMBER],
                "responses": {"200": _answer("The deal.", "GameDeal"), **_errors("404")},
            },
            "put": {
                "operationId": "putDeal",
                "summary": "Add the deal or change it, checked by the rules as the deal form.",
                "parameters": [GAME_TOKEN, DEAL_NUMBER, IF_MATCH],
                "security": SECURED,
                "requestBody": {"required": True, "content": {JSON: {"schema": _ref("DealBody")}}},
                "responses": {
                    "200": _answer("The deal changed, and the game's totals.", "GameDeal"),
                    "201": _answer("The deal added, and the game's totals.", "GameDeal"),
                    **_errors("400", "401", "403", "404", "409", "412", "413", "422"),
                },
            },
            "delete": {
                "operationId": "deleteDeal",
                "summary": "Delete the deal.",
                "parameters": [GAME_TOKEN, DEAL_NUMBER, IF_MATCH],
                "security": SECURED,
                "responses": {
                    "200": _answer("The scoreboard without the deal.", "Scoreboard"),
                    **_errors("401", "403", "404", "409", "412"),
                },
            },
        },
        "/games/{token}/undo": {
            "post": {
                "operationId": "undoLastSave",
                "summary": "Take back the deal saved last, while it is the game's last change.",
                "parameters": [GAME_TOKEN, IF_MATCH],
                "security": SECURED,
                "responses": {
                    "200": _answer(
                        "The scoreboard without the deal, which is in undone.", "Scoreboard"
                    ),
                    **_errors("401", "403", "404", "409", "412"),
                },
            }
        },
    }


PAGE_PARAMETERS = [
    {
        "name": "limit",
        "in": "query",
        "required": False,
        "description": f"Games in the page ({PAGE_SIZE} when not given).",
        "schema": {"type": "integer", "minimum": 1, "maximum": MOST_PAGE_SIZE},
    },
    {
        "name": "cursor",
        "in": "query",
        "required": False,
        "description": "Where the page starts: the cursor of the previous page's Link header.",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,80}$"},
    },
]
NEXT_PAGE_HEADER = {
    "Link": {
        "description": 'The next page\'s address, as <...>; rel="next"; absent on the last page.',
        "schema": {"type": "string"},
    }
}
