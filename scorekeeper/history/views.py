"""The history blueprint: a card table's games, players and statistics, and their exports.

/t/<token>/history              the table's games, newest first; "Play again" for members
/t/<token>/stats                standings per player and per team, charts; ?rules= &from= &to=
/t/<token>/players              the table's players; rename and merge (edit link)
/t/<token>/again/<game_id>      POST (edit link): a new game like that one
/t/<token>/history.csv          every deal of every game, one row per side
/t/<token>/season.pdf           the season summary: standings and charts
/g/<token>/export.csv           one game's deals (a view of the games blueprint, see there)
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial

from flask import (
    Blueprint,
    Response,
    abort,
    after_this_request,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_date, format_percent
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.bounds import posted_id
from scorekeeper.extensions import db
from scorekeeper.forms import PageForm
from scorekeeper.history import pages
from scorekeeper.history.season import season_pdf
from scorekeeper.keyring import remember_table
from scorekeeper.limits import GAMES, limited
from scorekeeper.rules.game import GameScore
from scorekeeper.store import export
from scorekeeper.store.game_service import start_game
from scorekeeper.store.games import Game
from scorekeeper.store.holdings import HeldTable, forget_held_tables, held_tables
from scorekeeper.store.people import (
    PlayerRefused,
    hold_people,
    merge,
    player_of,
    players_with_games,
    rename,
    seat_players,
    seats_of,
)
from scorekeeper.store.scores import game_variant
from scorekeeper.store.summaries import GameSummary, table_summaries
from scorekeeper.store.table_service import mark_used, resolve_table
from scorekeeper.variant_texts import table_label, variant_text

bp = Blueprint("history", __name__)

GAMES_PER_PAGE = 50


class ButtonForm(PageForm):
    """A button that changes something: the form carries only the CSRF token."""


def _held(token: str, edit: bool = False) -> HeldTable:
    """The table the address opens (404 if none; 403 when it must be the edit link)."""
    held = resolve_table(token)
    if held is None:
        abort(404)
    if edit and not held.can_edit:
        abort(
            403,
            description=_(
                "This link shows the table but cannot change it. Ask a member of the table "
                "for its edit link."
            ),
        )
    remembered = held_tables().get(held.table.id)
    if remembered is None or not (remembered.token == held.token or remembered.can_edit):
        remember_table(held.table.id, held.token)
        forget_held_tables()
    return held


@bp.app_template_global()
def running_chart(score: GameScore) -> Markup:
    """A game's running totals deal by deal, for its scoreboard (nothing before deal 1)."""
    if not score.deals:
        return Markup("")
    return pages.running_chart(score)


@bp.get("/t/<token>/history")
def games(token: str) -> str:
    held = _held(token)
    summaries = table_summaries(held.table.id)
    page = max(1, request.args.get("page", 1, type=int) or 1)
    shown = summaries[(page - 1) * GAMES_PER_PAGE : page * GAMES_PER_PAGE]
    if page > 1 and not shown:
        abort(404)
    return render_template(
        "history/games.html",
        held=held,
        table=held.table,
        games=shown,
        view_tokens=_view_tokens([summary.game_id for summary in shown]),
        table_label=table_label,
        page=page,
        more=len(summaries) > page * GAMES_PER_PAGE,
        again_form=ButtonForm() if held.can_edit else None,
    )


def _view_tokens(game_ids: list[int]) -> dict[int, str]:
    """The view link of each game, which opens everything for a member of its table."""
    if not game_ids:
        return {}
    rows = db.session.execute(select(Game.id, Game.view_token).where(Game.id.in_(game_ids)))
    return {game_id: token for game_id, token in rows}


@bp.get("/t/<token>/stats")
def stats(token: str) -> tuple[str, int] | str:
    held = _held(token)
    view = pages.stats_view(held.table.id, request.args, page=True)
    books = pages.book_labels()

    def render_body(shown: pages.StatsView) -> str:
        return render_template("history/_stats_body.html", view=shown, books=books)

    page = render_template(
        "history/stats.html", held=held, table=held.table, view=view, render_body=render_body
    )
    keeping = view.keeping()
    if keeping is not None:
        after_this_request(partial(_on_close, keeping))
    return (page, 422) if view.errors else page


def _on_close(work: Callable[[], None], response: Response) -> Response:
    """``work`` done once the response is sent (when the server closes it)."""
    response.call_on_close(work)
    return response


@bp.get("/t/<token>/players")
def players(token: str) -> str:
    held = _held(token)
    return render_template(
        "history/players.html",
        held=held,
        table=held.table,
        players=players_with_games(held.table.id),
        form=ButtonForm() if held.can_edit else None,
    )


def _back_to_players(token: str) -> BaseResponse:
    return redirect(url_for(".players", token=token), code=303)


@bp.post("/t/<token>/players/<int:player_id>/name")
def rename_player(token: str, player_id: int) -> BaseResponse:
    held = _held(token, edit=True)
    hold_people(held.table.id)
    player = player_of(held.table.id, player_id)
    if player is None:
        abort(404)
    name, problem = pages.posted_name(request.form.get("name"))
    if not ButtonForm().validate_on_submit():
        problem = _("The form was damaged. Reload the page and try again.")
    if problem is None:
        try:
            rename(player, name)
        except PlayerRefused as refused:
            problem = str(refused)
    if problem is not None:
        db.session.rollback()
        flash(_("%(field)s: %(message)s", field=_("Name"), message=problem), "error")
        return _back_to_players(token)
    db.session.commit()
    flash(_("The player is renamed."), "success")
    return _back_to_players(token)


@bp.post("/t/<token>/players/merge")
def merge_players(token: str) -> BaseResponse:
    held = _held(token, edit=True)
    hold_people(held.table.id)
    typo_id, kept_id = posted_id("typo"), posted_id("kept")
    typo = player_of(held.table.id, typo_id) if typo_id is not None else None
    kept = player_of(held.table.id, kept_id) if kept_id is not None else None
    if not ButtonForm().validate_on_submit():
        abort(400)
    if typo is None or kept is None:
        flash(
            _(
                "%(field)s: %(message)s",
                field=_("Merge"),
                message=_("Choose two different players of this table."),
            ),
            "error",
        )
        return _back_to_players(token)
    kept_name = kept.name
    try:
        merge(typo, kept)
    except PlayerRefused as refused:
        db.session.rollback()
        flash(_("%(field)s: %(message)s", field=_("Merge"), message=str(refused)), "error")
        return _back_to_players(token)
    db.session.commit()
    flash(_("Their games are now %(name)s’s.", name=kept_name), "success")
    return _back_to_players(token)


@bp.post("/t/<token>/again/<int:game_id>")
@limited(GAMES)
def play_again(token: str, game_id: int) -> BaseResponse:
    """A new game with the same players, rules and table as ``game_id``."""
    held = _held(token, edit=True)
    if not ButtonForm().validate_on_submit():
        abort(400)
    hold_people(held.table.id)  # its players are read from the old game's seats
    old = db.session.get(Game, game_id)
    if old is None or old.table_id != held.table.id:
        abort(404)
    variant = game_variant(old)
    table = variant.table_for(len(old.sides), old.players)
    if table is None:
        abort(404)
    seated = [[player.name for player in side] for side in seats_of(old)]
    game = start_game(variant, table, old.side_names)
    game.card_table = held.table
    seat_players(game, held.table, seated)
    mark_used(held.table)
    db.session.commit()
    flash(_("Game started. Enter deal 1 when it is over."), "success")
    return redirect(url_for("games.deal", game_id=game.id, number=1), code=303)


@bp.get("/t/<token>/history.csv")
def history_csv(token: str) -> Response:
    held = _held(token)
    return export.csv_response(export.table_rows(held.table.id), f"table-{held.table.id}.csv")


@bp.get("/t/<token>/season.pdf")
def season(token: str) -> Response:
    held = _held(token)
    view = pages.stats_view(held.table.id, request.args)
    if view.errors:
        abort(422, description=" ".join(view.errors.values()))
    body = season_pdf(held.table, view)
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = (
        f'inline; filename="season-{held.table.id}-{date.today():%Y-%m-%d}.pdf"'
    )
    return response


@bp.app_template_global()
def history_game_title(summary: GameSummary) -> str:
    """A summary's title as the list of games shows a game's: its name, else rules and date."""
    if summary.name:
        return summary.name
    return _(
        "%(variant)s, %(date)s",
        variant=variant_text(summary.variant_name),
        date=format_date(summary.created_at, "medium"),
    )


@bp.context_processor
def _numbers() -> dict[str, object]:
    """Dates and numbers as the reader's language writes them."""
    number = pages.reader_numbers()  # the language looked up once for the page's many numbers
    return {
        "format_date": format_date,
        "format_decimal": lambda value: number(round(value, 1)),
        "format_percent": lambda value: format_percent(value),
    }
