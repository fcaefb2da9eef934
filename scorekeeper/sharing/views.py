"""Sharing a game: the change poll, new links, export and import.

/g/<token>/version      the game's version, with an ETag: watchers poll it, mostly for a 304
/g/<token>/qr.svg       the QR code of the link itself, for other phones to scan
/g/<token>/links        POST (edit link only): a new view link or a new edit link
/g/<token>/export.json  one game as an export file (either link)
/games/export.json      every game as one export file
/games/import           a form to import an export file
"""

from __future__ import annotations

from datetime import UTC, datetime

import click
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SubmitField

from scorekeeper.access import edit_only, pull_token, push_token
from scorekeeper.capabilities import Role, issue_edit_token, issue_view_token
from scorekeeper.extensions import db
from scorekeeper.forms import NewLinkForm, PageForm
from scorekeeper.keyring import remember_game
from scorekeeper.limits import IMPORTS, accepts_import, limited
from scorekeeper.live import poll
from scorekeeper.live.poll_front import POLL_CACHE_CONTROL, POLL_MIMETYPE, poll_body, poll_etag
from scorekeeper.operator_links import renew_edit_link
from scorekeeper.qr import qr_cache_control, qr_svg
from scorekeeper.store.game_service import load_game
from scorekeeper.store.games import Game
from scorekeeper.store.holdings import visible_games
from scorekeeper.store.links import resolve
from scorekeeper.store.table_service import mark_used, table_for_new
from scorekeeper.store.transfer import (
    ImportRefused,
    export_games,
    import_games,
    parse_file,
    read_file,
)

bp = Blueprint("sharing", __name__, cli_group="games")
bp.url_value_preprocessor(pull_token)
bp.url_defaults(push_token)


@bp.cli.command("edit-link")
@click.argument("game_id", type=int)
def edit_link_command(game_id: int) -> None:
    """Make a new edit link for a game (the old one stops working) and print its address."""
    renew_edit_link(Game, game_id, "game", "/g/")


class ImportForm(PageForm):
    file = FileField(validators=[FileRequired()])
    submit = SubmitField()


@bp.get("/g/<poll_token>/version")
def version(poll_token: str) -> Response:
    """The game's version: clients send If-None-Match and get a 304 until it changes.

    Many phones poll many games every few seconds: the version comes from the process's
    memory (``poll``), and from the database only when the game may have changed. Most polls
    never reach this view: ``poll_front`` answers those memory can in front of the app.
    """
    found = poll.current_poll().version(poll_token)
    if found is None:
        abort(404)
    game_id, current = found
    etag = poll_etag(game_id, current)
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        response = Response(poll_body(current), mimetype=POLL_MIMETYPE)
    response.set_etag(etag)
    response.headers["Cache-Control"] = POLL_CACHE_CONTROL
    return response


@bp.get("/g/<link_token>/qr.svg")
def qr_code(link_token: str) -> Response:
    """The QR code of the link ``link_token`` opens: the view link's, or the edit link's.

    The token is looked up alone (not the game), so that an image costs no more than it must.
    The view link's code is kept by phones for good; the edit link's is the edit link itself,
    so it is never stored (``qr_cache_control``).
    """
    grant = resolve(link_token)
    if grant is None:
        abort(404)
    url = url_for("games.scoreboard", token=link_token, _external=True)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = qr_cache_control(grant.can_edit)
    return response


@bp.post("/g/<token>/links")
@edit_only
def rotate(game_id: int) -> BaseResponse:
    """Replace the view link or the edit link; the old one stops working at once."""
    form = NewLinkForm()
    if not form.validate_on_submit():
        return redirect(url_for("games.scoreboard", game_id=game_id, _anchor="share"), code=303)
    game = db.session.get(Game, game_id)
    assert game is not None
    if form.which.data == Role.EDIT.value:
        token = issue_edit_token(game)
        db.session.commit()
        remember_game(game_id, token)
        flash(_("This is the game's new edit link. The old one no longer works."), "success")
        return redirect(url_for("games.scoreboard", token=token, _anchor="share"), code=303)
    issue_view_token(game)
    db.session.commit()
    flash(_("The game has a new view link. The old one no longer works."), "success")
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor="share"), code=303)


def _download(document: dict[str, object], filename: str) -> Response:
    response = jsonify(document)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@bp.get("/g/<token>/export.json")
def export_one(game_id: int) -> Response:
    game = load_game(game_id)
    assert game is not None
    return _download(export_games([game], _now()), f"hand-and-foot-game-{game_id}.json")


@bp.get("/games/export.json")
def export_all() -> Response:
    """Every game this browser holds a link to (the list of games shows the same)."""
    return _download(export_games(visible_games(), _now()), "hand-and-foot-games.json")


@bp.route("/games/import", methods=["GET", "POST"])
@limited(IMPORTS)
@accepts_import
def import_file() -> str | BaseResponse | tuple[str, int]:
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            rows = read_file(parse_file(form.file.data.read()))
        except ImportRefused as refusal:
            problems = refusal.messages(_, ngettext)
        else:
            owner = table_for_new()
            made = import_games(rows, owner)
            mark_used(owner)
            db.session.commit()
            for item in made:
                remember_game(item.game.id, item.edit_token)
            flash(
                ngettext("%(num)s game imported.", "%(num)s games imported.", len(made)),
                "success",
            )
            return redirect(url_for("games.index"), code=303)
    status = 422 if form.is_submitted() else 200
    return render_template("sharing/import.html", form=form, problems=problems), status
