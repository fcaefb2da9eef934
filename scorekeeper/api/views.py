"""/api/v1: score a deal, list the variants, export and import games, keep a game (start it at
a card table, add, change and delete its deals, undo the last save, read its scoreboard), and
the OpenAPI document that describes them all. Errors are problem details
(``scorekeeper.problem_details``); keeping a game is explained in ``api.keeping``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, jsonify, request, stream_with_context, url_for
from flask_babel import gettext as _

from scorekeeper.api import events, keeping
from scorekeeper.api.keeping import (
    current_version,
    json_body,
    readable_game,
    stale,
    wanted_version,
    with_version,
    writable_game,
    writable_table,
)
from scorekeeper.api.meld_check import answer_meld_check
from scorekeeper.api.openapi import openapi_document
from scorekeeper.extensions import csrf, db
from scorekeeper.limits import GAMES, IMPORTS, accepts_import, limited
from scorekeeper.operations import metrics
from scorekeeper.problem_details import ApiProblem, field_error, problem_response
from scorekeeper.rules.game import after_the_end, ends_game
from scorekeeper.rules.json_entry import answer
from scorekeeper.rules.validation import Report, validate_deal
from scorekeeper.rules.variant_json import resolve_variant
from scorekeeper.rules.variants import MAX_DEALS
from scorekeeper.signals import last_deal_saved
from scorekeeper.store import catalogue
from scorekeeper.store.deal_writes import (
    ANY_VERSION,
    DealChanged,
    GameChanged,
    delete_deal,
    undo_deal,
    write_deal,
)
from scorekeeper.store.game_service import load_game, start_game_at, undoable_deal
from scorekeeper.store.games import Game
from scorekeeper.store.holdings import visible_games
from scorekeeper.store.links import Grant, new_game_tokens
from scorekeeper.store.scores import game_score, game_variant, with_running_scores
from scorekeeper.store.transfer import ImportRefused, export_games, import_games, read_file

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


@bp.post("/score")
def score() -> tuple[dict[str, Any], int] | Response:
    data = json_body()
    result = answer(data, lambda raw: resolve_variant(raw, catalogue.find_variant), field_error)
    if not result.accepted:
        return problem_response(422, field_errors=result.body["errors"])
    return result.body, 200


@bp.post("/check-meld")
def check_meld() -> tuple[dict[str, Any], int] | Response:
    data = json_body()
    body, readable = answer_meld_check(data, field_error)
    if not readable:
        return problem_response(422, field_errors=body["errors"])
    return body, 200


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
def export_all_games() -> Response:
    """The games the caller holds a link to (through its session), newest first, as one export
    file, a page at a time: ``limit`` games (at most ``keeping.MOST_PAGE_SIZE``). The next
    page's address, with its ``cursor``, is in the ``Link`` header (``rel="next"``), so that
    each page stays an export file that imports as it is."""
    after, limit = keeping.page_request()
    games = visible_games(after=after, limit=limit + 1)
    page = games[:limit]
    response = jsonify(export_games(page, _now()))
    if len(games) > limit:
        following = url_for(
            ".export_all_games", cursor=keeping.cursor_of(page[-1]), limit=limit, _external=True
        )
        response.headers["Link"] = f'<{following}>; rel="next"'
    return response


@bp.get("/games/<token>")
def export_one_game(token: str) -> Response:
    """One game, by its view or edit token, as an export file."""
    grant = readable_game(token)
    if _unchanged(grant):
        return with_version({}, grant.game_id, grant.version)
    game = _load(grant)
    return with_version(export_games([game], _now()), game.id, game.version)


@bp.post("/games")
@limited(IMPORTS)
@accepts_import
def import_games_file() -> tuple[dict[str, Any], int]:
    """Import an export file: all its games or, when one value is refused, none."""
    data = json_body()
    try:
        rows = read_file(data)
    except ImportRefused as refusal:
        raise ApiProblem(422, problems=refusal.problems) from None
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


# --- keeping a game ------------------------------------------------------------------------


def _load(grant: Grant) -> Game:
    game = load_game(grant.game_id)
    if game is None:
        raise ApiProblem(404)
    return game


def _unchanged(grant: Grant) -> bool:
    """Whether a GET can be answered 304 from the version read with the token alone."""
    return keeping.etag_of(grant.game_id, grant.version) in request.if_none_match


@bp.post("/tables/<token>/games")
@limited(GAMES)
def start_game(token: str) -> Response:
    """Start a game kept with the card table, its sides and players named: 201 with its
    scoreboard, its links (the edit link once: it is stored nowhere) and its version."""
    table = writable_table(token)
    new = keeping.read_new_game(
        json_body(), lambda variant_id: catalogue.table_variant(table.id, variant_id)
    )
    game = start_game_at(table, new.variant, new.table, new.side_names, new.players, new.name)
    db.session.commit()
    edit_token = new_game_tokens()[game.id]
    started = load_game(game.id)
    assert started is not None
    body = keeping.scoreboard_body(started)
    body["links"]["edit_url"] = url_for("games.scoreboard", token=edit_token, _external=True)
    body["links"]["edit_token"] = edit_token
    response = with_version(body, started.id, started.version, status=201)
    response.headers["Location"] = body["links"]["scoreboard"]
    return response


@bp.get("/games/<token>/scoreboard")
def game_scoreboard(token: str) -> Response:
    """Each side's total, the leaders, every deal, and who deals next."""
    grant = readable_game(token)
    if _unchanged(grant):
        return with_version({}, grant.game_id, grant.version)
    game = _load(grant)
    return with_version(keeping.scoreboard_body(game), game.id, game.version)


@bp.get("/games/<token>/events")
def game_events(token: str) -> Response:
    """The game's changes as they happen, as Server-Sent Events (``api.events``)."""
    stream = events.open_stream(token, request.headers.get("Last-Event-ID"))
    response = Response(stream_with_context(stream), mimetype="text/event-stream")
    response.call_on_close(events.close_stream)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _deal_number(game: Game, number: int) -> int:
    if not 1 <= number <= min(MAX_DEALS, game_variant(game).deals):
        raise ApiProblem(404)
    return number


@bp.get("/games/<token>/deals/<int:number>")
def get_deal(token: str, number: int) -> Response:
    grant = readable_game(token)
    game = _load(grant)
    stored = game.deal(_deal_number(game, number))
    if stored is None:
        raise ApiProblem(404)
    body = keeping.deal_body(game, stored, game_score(game))
    return with_version(body, game.id, game.version)


@bp.put("/games/<token>/deals/<int:number>")
def put_deal(token: str, number: int) -> Response:
    """Add deal ``number`` or change it, checked by the rules core as the deal form is: 422
    naming each field for an impossible deal, and for one with warnings unless
    ``accept_warnings`` (the form's "Save anyway")."""
    grant = writable_game(token)
    wanted = wanted_version(grant)
    game = _load(grant)
    variant = game_variant(game)
    posted = keeping.read_deal(json_body(), game, variant, _deal_number(game, number))
    entry = with_running_scores(game, variant, posted.entry)
    report = validate_deal(entry, game.side_names)
    if variant.target_score is not None:
        entered = (deal.number for deal in game.deals)
        report = Report(report.problems + after_the_end(entry, entered))
    if not report.ok:
        raise ApiProblem(422, problems=report.errors)
    if report.warnings and not posted.accept_warnings:
        raise ApiProblem(
            422,
            _(
                "The deal has warnings: send it again with accept_warnings true to save it as "
                "it is."
            ),
            problems=report.warnings,
        )
    stored = game.deal(number)
    based_on = stored.version if stored is not None else 0
    try:
        write_deal(game, entry, based_on, wanted if wanted is not None else ANY_VERSION)
        db.session.commit()
    except DealChanged:
        db.session.rollback()
        raise _not_written(grant, wanted, number) from None
    metrics.count("saves")
    if stored is None and ends_game(entry):
        last_deal_saved.send(game_id=grant.game_id)
    return _deal_answer(grant.game_id, number, status=201 if stored is None else 200)


def _deal_answer(game_id: int, number: int, status: int) -> Response:
    game = load_game(game_id)
    stored = game.deal(number) if game is not None else None
    if game is None or stored is None:
        raise ApiProblem(404)
    body = keeping.deal_body(game, stored, game_score(game))
    body["totals"] = list(game_score(game).totals)
    return with_version(body, game.id, game.version, status=status)


def _not_written(grant: Grant, wanted: int | None, number: int) -> ApiProblem:
    """Why a write found the game changed: 412 against ``If-Match``, 404 when the game is
    gone, else 409 (a save of the same deal came first)."""
    version = current_version(grant.game_id)
    if version is None:
        return ApiProblem(404)
    if wanted is not None:
        return stale(grant.game_id, version)
    return ApiProblem(
        409,
        _(
            "Deal %(number)s was saved meanwhile by someone else, so this one was not. Read "
            "the game again.",
            number=number,
        ),
        extra={"current_version": version},
    )


@bp.delete("/games/<token>/deals/<int:number>")
def remove_deal(token: str, number: int) -> Response:
    grant = writable_game(token)
    wanted = wanted_version(grant)
    game = _load(grant)
    stored = game.deal(_deal_number(game, number))
    if stored is None:
        raise ApiProblem(404)
    try:
        delete_deal(game.id, number, stored.version, wanted if wanted is not None else ANY_VERSION)
        db.session.commit()
    except DealChanged:
        db.session.rollback()
        raise _not_written(grant, wanted, number) from None
    return _game_answer(grant.game_id)


def _game_answer(game_id: int, **more: Any) -> Response:
    """The game's scoreboard after a change, with ``more`` said about the change."""
    game = load_game(game_id)
    if game is None:
        raise ApiProblem(404)
    return with_version({**keeping.scoreboard_body(game), **more}, game.id, game.version)


@bp.post("/games/<token>/undo")
def undo_last_save(token: str) -> Response:
    """Take back the last deal saved, as the scoreboard's Undo does: only while the game's
    last change is that new deal (409 otherwise). The answer holds the game and the deal
    taken back, to correct and save again."""
    grant = writable_game(token)
    wanted = wanted_version(grant)
    game = _load(grant)
    if wanted is not None and game.version != wanted:
        raise stale(game.id, game.version)
    last = undoable_deal(game)
    if last is None:
        raise _nothing_to_undo(game.version)
    taken_back = keeping.deal_body(game, last, game_score(game))
    try:
        undo_deal(game.id, last.number, game.version, last.version)
        db.session.commit()
    except GameChanged:
        db.session.rollback()
        version = current_version(grant.game_id)
        if version is None:
            raise ApiProblem(404) from None
        if wanted is not None:
            raise stale(grant.game_id, version) from None
        raise _nothing_to_undo(version) from None
    return _game_answer(grant.game_id, undone=taken_back)


def _nothing_to_undo(version: int) -> ApiProblem:
    return ApiProblem(
        409,
        _("Nothing can be undone: the game's last change was not a new deal."),
        extra={"current_version": version},
    )
