"""Keeping a game through the API: who may write, its versions as ETags, the bodies read, the
answers written. The views (``api.views``) put these together; the rules core checks the deals
and the store writes them, as for the pages.

Who may write: a game's edit link, or the edit link of the card table that keeps it, sent as
``Authorization: Bearer <token>``. No credential is 401; a token that opens neither this game
nor its table is 404, as an unknown address is on the pages (a stranger learns nothing); the
game's view token is 403, as the pages answer a view link on an edit page: whoever sends it can
see the game already, so the refusal hides nothing.

Versions: every answer about a game carries its version as the ETag (``"g<id>-v<version>"``).
A write with ``If-Match`` changes the game only at that version (the store checks it under the
game's lock), else 412 with the current version; a write without ``If-Match`` is made on the
version it finds.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import Response, g, jsonify, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.capabilities import Role
from scorekeeper.extensions import db
from scorekeeper.problem_details import ApiProblem
from scorekeeper.rules.dealing import Dealing, seat_player, turn
from scorekeeper.rules.entry import SIDE_FIELDS, DealEntry
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.json_entry import BOOL_FIELDS, read_object, read_sides
from scorekeeper.rules.messages import N_, Problem
from scorekeeper.rules.names import clean_name, refused_characters
from scorekeeper.rules.terms import Plurals
from scorekeeper.rules.variants import Table, Variant
from scorekeeper.store.game_service import Place
from scorekeeper.store.games import NAME_LENGTH, SIDE_NAME_LENGTH, Deal, Game
from scorekeeper.store.links import Grant, resolve
from scorekeeper.store.people import seated_names
from scorekeeper.store.players import names_repeat, players_repeat
from scorekeeper.store.scores import game_score, game_variant
from scorekeeper.store.table_service import resolve_table
from scorekeeper.store.tables import CardTable

ETAG_PREFIX = "g"
PAGE_SIZE = 20
"""Games in a page of ``GET /api/v1/games`` when the request names no ``limit``."""
MOST_PAGE_SIZE = 100
"""The largest ``limit`` a page of games may have."""
DEAL_FIELDS = ("stock_ran_out", "sides", "accept_warnings")
NEW_GAME_FIELDS = ("variant", "players", "name", "sides")
SIDE_KEYS = ("name", "players")


# --- who may write -------------------------------------------------------------------------


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>``, if the request sends one."""
    credentials = request.authorization
    if credentials is None or credentials.type != "bearer" or not credentials.token:
        return None
    return credentials.token


def _needs_credential() -> ApiProblem:
    return ApiProblem(401, headers=[("WWW-Authenticate", 'Bearer realm="scorekeeper"')])


def _view_only() -> ApiProblem:
    return ApiProblem(
        403,
        _(
            "This link shows the game but cannot change it. Ask the keeper of the "
            "game for the edit link."
        ),
    )


def readable_game(token: str) -> Grant:
    """What the address's token opens (the view link reads), or 404."""
    grant = resolve(token, read_game=True)
    if grant is None:
        raise ApiProblem(404)
    g.grant = grant  # an edit token in the address: the answer is never stored
    return grant


def writable_game(token: str) -> Grant:
    """The game of the address, once the request's credential allows changing it."""
    grant = readable_game(token)
    credential = bearer_token()
    if credential is None:
        raise _needs_credential()
    role = _role_for(credential, grant)
    if role is None:
        raise ApiProblem(404)
    if role is not Role.EDIT:
        raise _view_only()
    writer = grant if grant.can_edit else grant.upgraded()
    g.grant = writer
    return writer


def _role_for(credential: str, grant: Grant) -> Role | None:
    """What a credential may do with the game: its own link's role, or its card table's."""
    own = resolve(credential)
    if own is not None:
        return own.role if own.game_id == grant.game_id else None
    held = resolve_table(credential)
    if held is not None and grant.table_id is not None and held.table.id == grant.table_id:
        return held.role
    return None


def writable_table(token: str) -> CardTable:
    """The card table of the address, once the request's credential is its edit link."""
    held = resolve_table(token)
    if held is None:
        raise ApiProblem(404)
    credential = bearer_token()
    if credential is None:
        raise _needs_credential()
    own = resolve_table(credential)
    if own is None or own.table.id != held.table.id:
        raise ApiProblem(404)
    if not own.can_edit:
        raise ApiProblem(403)
    return own.table


# --- versions ------------------------------------------------------------------------------


def etag_of(game_id: int, version: int) -> str:
    return f"{ETAG_PREFIX}{game_id}-v{version}"


def wanted_version(grant: Grant) -> int | None:
    """The game's version an ``If-Match`` write must find (the one read with the token), or
    None without ``If-Match``; 412 when it names another version already."""
    if not request.if_match:
        return None
    current = etag_of(grant.game_id, grant.version)
    if request.if_match.star_tag or request.if_match.contains(current):
        return grant.version
    raise stale(grant.game_id, grant.version)


def stale(game_id: int, version: int) -> ApiProblem:
    """412: the game is at ``version``, which the body and the ETag give."""
    return ApiProblem(
        412,
        extra={"current_version": version, "etag": f'"{etag_of(game_id, version)}"'},
        headers=[("ETag", f'"{etag_of(game_id, version)}"')],
    )


def current_version(game_id: int) -> int | None:
    version: int | None = db.session.scalar(select(Game.version).where(Game.id == game_id))
    return version


def with_version(body: dict[str, Any], game_id: int, version: int, status: int = 200) -> Response:
    """A game's or a deal's answer with the game's version as its ETag. To the view link, a
    GET answer may be kept and revalidated (304 while the game is unchanged); an answer with
    the edit link never is (``scorekeeper.caching``)."""
    etag = etag_of(game_id, version)
    grant = g.get("grant")
    if request.method == "GET" and etag in request.if_none_match:
        response = Response(status=304)
    else:
        response = jsonify(body)
        response.status_code = status
    response.set_etag(etag)
    if request.method == "GET" and grant is not None and not grant.can_edit:
        response.headers["Cache-Control"] = "private, no-cache"
    return response


# --- paging --------------------------------------------------------------------------------


def page_request() -> tuple[Place | None, int]:
    """The ``cursor`` and ``limit`` of a list request, or 422 naming the parameter."""
    problems: list[Problem] = []
    limit = PAGE_SIZE
    raw_limit = request.args.get("limit")
    if raw_limit is not None:
        if raw_limit.isascii() and raw_limit.isdigit() and 1 <= int(raw_limit) <= MOST_PAGE_SIZE:
            limit = int(raw_limit)
        else:
            problems.append(
                _about(
                    "limit",
                    N_("{field} must be a whole number from 1 to {most}."),
                    field="limit",
                    most=MOST_PAGE_SIZE,
                )
            )
    after = None
    raw_cursor = request.args.get("cursor")
    if raw_cursor is not None:
        after = read_cursor(raw_cursor)
        if after is None:
            problems.append(
                _about("cursor", N_("{field} is not a cursor this list gave."), field="cursor")
            )
    if problems:
        raise ApiProblem(422, problems=problems)
    return after, limit


def cursor_of(game: Game) -> str:
    """Where the next page starts: after this game (opaque to clients)."""
    raw = f"{game.created_at.isoformat()}|{game.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_cursor(cursor: str) -> Place | None:
    if not cursor.isascii() or len(cursor) > 80:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        made, game_id = raw.split("|")
        return datetime.fromisoformat(made), int(game_id)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None


# --- bodies --------------------------------------------------------------------------------


def json_body() -> object:
    data = request.get_json(silent=True)
    if data is None:
        raise ApiProblem(
            400, _("The request body must be a JSON object (Content-Type: application/json).")
        )
    return data


@dataclass(frozen=True, slots=True)
class PostedDeal:
    entry: DealEntry
    accept_warnings: bool


def read_deal(data: object, game: Game, variant: Variant, number: int) -> PostedDeal:
    """A deal's body (``stock_ran_out``, ``sides``, ``accept_warnings``) as the rules core's
    entry for deal ``number`` of the game, or 422 naming each field that cannot be read."""
    problems: list[Problem] = []
    values = read_object(
        data,
        DEAL_FIELDS,
        None,
        problems,
        bools=(*BOOL_FIELDS, "accept_warnings"),
        unread=("sides",),
    )
    if isinstance(data, Mapping) and "sides" not in data:
        problems.append(Problem(None, "sides", N_("{field} is required."), {"field": "sides"}))
    sides = read_sides(values["sides"], problems) if "sides" in values else []
    if sides and len(sides) != len(game.sides):
        problems.append(
            Problem(
                None,
                "sides",
                N_("The game has {count} sides, so sides must hold {count} entries, not {value}."),
                {"count": len(game.sides), "value": len(sides)},
            )
        )
    if problems:
        raise ApiProblem(422, problems=problems)
    entry = DealEntry(
        variant=variant,
        deal=number,
        sides=tuple(sides),
        players=game.players,
        stock_ran_out=bool(values.get("stock_ran_out", False)),
    )
    return PostedDeal(entry, bool(values.get("accept_warnings", False)))


@dataclass(frozen=True, slots=True)
class NewGame:
    variant: Variant
    table: Table
    name: str
    side_names: list[str]
    players: list[list[str]]


def _about(field: str, template: str, /, **params: object) -> Problem:
    """A problem of the rules core's wording about a field of the body."""
    return Problem(None, field, template, params)


class _FormProblem(Problem):
    """A problem worded as the pages' forms word it (gettext's ``%(name)s`` fields), so that
    the API and the new-game page say the same things in the same words."""

    __slots__ = ()

    def render(self, translate: Callable[[str], str], plurals: Plurals | None = None) -> str:
        return translate(self.template) % dict(self.params)


def _form_problem(field: str, template: str, /, **params: object) -> Problem:
    return _FormProblem(None, field, template, params)


def read_new_game(data: object, find: Callable[[object], Variant]) -> NewGame:
    """A new game's body, checked as the new-game page checks its form, or 422."""
    problems: list[Problem] = []
    values = read_object(data, NEW_GAME_FIELDS, None, problems, unread=("variant", "name", "sides"))
    if isinstance(data, Mapping):
        for required in ("variant", "sides"):
            if required not in data:
                problems.append(
                    Problem(None, required, N_("{field} is required."), {"field": required})
                )
    variant = None
    if "variant" in values:
        try:
            variant = find(values["variant"])
        except (LookupError, TypeError, ValueError):
            raw = repr(values["variant"])[:80]
            problems.append(_about("variant", N_("Unknown variant {value}."), value=raw))
    name = _read_name(values.get("name", ""), "name", NAME_LENGTH, problems, game_name=True)
    sides = _read_new_sides(values.get("sides"), problems) if "sides" in values else []
    table = None
    if variant is not None and sides:
        players = values.get("players")
        table = variant.table_for(len(sides), players if isinstance(players, int) else None)
        if table is None:
            problems.append(
                _form_problem(
                    "players",
                    "%(variant)s is not played at that table. Choose one of the tables it allows.",
                    variant=variant.name,
                )
            )
    if table is not None:
        _check_people(sides, table, problems)
    if problems or variant is None or table is None:
        raise ApiProblem(422, problems=problems)
    return NewGame(variant, table, name, [side[0] for side in sides], [side[1] for side in sides])


def _read_name(
    raw: object, field: str, most: int, problems: list[Problem], *, game_name: bool = False
) -> str:
    if not isinstance(raw, str):
        problems.append(Problem(None, field, N_("{key} must be text."), {"key": field}))
        return ""
    name = clean_name(raw)
    if len(name) > most:
        template = (
            "Keep the name to %(max)s characters."
            if game_name
            else ("Keep names to %(max)s characters.")
        )
        problems.append(_form_problem(field, template, max=most))
    elif refused_characters(name):
        template = (
            "The game name cannot hold control characters."
            if game_name
            else "Player names cannot hold control characters."
            if ".players" in field
            else "Side names cannot hold control characters."
        )
        problems.append(_form_problem(field, template))
    return name


def _read_new_sides(raw: object, problems: list[Problem]) -> list[tuple[str, list[str]]]:
    """Each side's name and its players' names."""
    if not isinstance(raw, list) or not raw:
        problems.append(Problem(None, "sides", N_("sides must be a list of side entries.")))
        return []
    sides = []
    for index, item in enumerate(raw):
        where = f"sides[{index}]"
        if not isinstance(item, Mapping):
            problems.append(_about(where, N_("{key} must be a JSON object."), key=where))
            continue
        for key in item:
            if key not in SIDE_KEYS:
                problems.append(
                    _about(f"{where}.{key}", N_("Unknown field {field}."), field=repr(key))
                )
        name = _read_name(item.get("name"), f"{where}.name", SIDE_NAME_LENGTH, problems)
        if isinstance(item.get("name"), str) and not name:
            field = f"{where}.name"
            problems.append(_about(field, N_("{field} is required."), field=field))
        people = item.get("players", [])
        if not isinstance(people, list):
            field = f"{where}.players"
            problems.append(_about(field, N_("{key} must be a list of names."), key=field))
            people = []
        names = [
            _read_name(person, f"{where}.players[{n}]", SIDE_NAME_LENGTH, problems)
            for n, person in enumerate(people)
        ]
        sides.append((name, [person for person in names if person]))
    return sides


def _check_people(
    sides: Sequence[tuple[str, list[str]]], table: Table, problems: list[Problem]
) -> None:
    """As the new-game page: each side's name its own, each player's too, and no more
    players on a side than it seats."""
    if names_repeat([name for name, _players in sides]):
        problems.append(_form_problem("sides", "Give each side a different name."))
    if players_repeat([players for _name, players in sides]):
        problems.append(_form_problem("sides", "Give each player a different name."))
    for index, (_name, players) in enumerate(sides):
        if len(players) > table.players_per_side:
            problems.append(
                Problem(
                    None,
                    f"sides[{index}].players",
                    N_("A side of this table has {most} player(s), not {value}."),
                    {"most": table.players_per_side, "value": len(players)},
                )
            )


# --- answers -------------------------------------------------------------------------------


def links_of(game: Game) -> dict[str, str]:
    return {
        "view_url": url_for("games.scoreboard", token=game.view_token, _external=True),
        "scoreboard": url_for("api.game_scoreboard", token=game.view_token, _external=True),
    }


def deal_body(game: Game, deal: Deal, score: GameScore) -> dict[str, Any]:
    """One stored deal: what was entered for each side, its scores, the totals after it."""
    result = score.deal(deal.number)
    assert result is not None
    return {
        "number": deal.number,
        "version": deal.version,
        "stock_ran_out": deal.stock_ran_out,
        "sides": [
            {
                "name": name,
                "entry": {field: getattr(row, field) for field in SIDE_FIELDS},
                "total": side_score.total,
                "breakdown": side_score.breakdown,
                "running_total": running,
            }
            for name, row, side_score, running in zip(
                game.side_names, deal.sides, result.scores, result.running_totals, strict=True
            )
        ],
    }


def _next_turn(game: Game, variant: Variant, number: int | None) -> dict[str, Any] | None:
    """Who deals the next deal and who plays first, as sides and, where named, players."""
    if number is None:
        return None
    names = game.side_names
    now = turn(variant, len(names), game.players, number)
    seated = seated_names(game)

    def seat(seat_number: int | None) -> dict[str, Any] | None:
        if seat_number is None:
            return None
        side = seat_number % now.sides
        return {
            "side": side,
            "side_name": names[side],
            "player": seat_player(now, seat_number, seated) if game.players > len(names) else None,
        }

    return {
        "number": number,
        "dealing": now.dealing.value,
        "dealer": seat(now.dealer_seat) if now.dealing is Dealing.ONE_DEALER else None,
        "first": seat(now.first_seat),
    }


def scoreboard_body(game: Game) -> dict[str, Any]:
    """A game as its scoreboard shows it: each side's total, the leader, the deals, and who
    deals next."""
    variant = game_variant(game)
    score = game_score(game)
    return {
        "name": game.name,
        "variant": game.variant_id,
        "players": game.players,
        "version": game.version,
        "deals_in_game": variant.deals,
        "target_score": variant.target_score,
        "finished": score.finished,
        "sides": [
            {"name": name, "players": players, "total": total}
            for name, players, total in zip(
                game.side_names, seated_names(game), score.totals, strict=True
            )
        ],
        "leaders": list(score.leaders),
        "winners": list(score.winners),
        "deals": [deal_body(game, deal, score) for deal in game.deals],
        "next_deal": _next_turn(game, variant, score.next_deal),
        "links": links_of(game),
    }
