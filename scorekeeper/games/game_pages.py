"""The pages of whole games: the list of games, a game's scoreboard and CSV, deleting a game."""

from __future__ import annotations

from typing import NoReturn

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from scorekeeper.access import can_edit, edit_only
from scorekeeper.extensions import db
from scorekeeper.games.blueprint import bp, game_title, get_game
from scorekeeper.games.concurrency import conditional_page, posted_version
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.undo import undo_offer
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.scoring import shown_line_keys, shown_lines
from scorekeeper.rules.variants import Variant
from scorekeeper.store.deal_writes import GameChanged
from scorekeeper.store.deal_writes import delete_game as delete_game_row
from scorekeeper.store.export import csv_response, game_csv
from scorekeeper.store.games import Game
from scorekeeper.store.holdings import held_tables, visible_games
from scorekeeper.store.scores import game_score, game_variant
from scorekeeper.variant_texts import table_label
from scorekeeper.wording.breakdown import count_label, line_labels


@bp.get("/")
def index() -> str:
    """The card tables and games this browser holds a link to, and nothing else."""
    games = visible_games()
    scored = [(game, game_score(game)) for game in games]
    held = held_tables()
    tables = [
        {"held": table, "games": [pair for pair in scored if pair[0].table_id == table_id]}
        for table_id, table in held.items()
    ]
    own_games = [pair for pair in scored if pair[0].table_id not in held]
    return render_template("games/index.html", tables=tables, own_games=own_games)


def table_summary(game: Game, variant: Variant) -> str:
    table = variant.table_for(len(game.sides), game.players)
    label = table_label(len(game.sides), game.players)
    if table is None:
        return label
    decks = ngettext("%(num)s deck", "%(num)s decks", table.decks)
    return _("%(table)s, %(decks)s", table=label, decks=decks)


@bp.get("/g/<token>")
def scoreboard(game_id: int) -> Response:
    return conditional_page(lambda: get_game(game_id), _render_scoreboard)


def _render_scoreboard(game: Game) -> str:
    variant = game_variant(game)
    score = game_score(game)
    return render_template(
        "games/scoreboard.html",
        game=game,
        variant=variant,
        score=score,
        names=game.side_names,
        keys=shown_line_keys(variant),
        shown_lines=shown_lines,
        count_label=count_label,
        labels={number: line_labels(variant, number) for number in range(1, variant.deals + 1)},
        table=table_summary(game, variant),
        ending=_deal_endings(score),
        delete_form=ConfirmForm() if can_edit() else None,  # only the keeper deletes deals
        owner=held_tables().get(game.table_id) if game.table_id is not None else None,
        undo=undo_offer(game) if can_edit() else None,
    )


@bp.get("/g/<token>/export.csv")
def export_csv(game_id: int) -> Response:
    """The game's deals as CSV, one row per side per deal (``store.export``)."""
    return csv_response(game_csv(get_game(game_id)), f"game-{game_id}.csv")


def _deal_endings(score: GameScore) -> dict[int, str]:
    """How each deal ended, in words: who went out, or that the stock ran out."""
    endings = {}
    for result in score.deals:
        out = [i for i, side in enumerate(result.entry.sides) if side.went_out]
        if result.entry.stock_ran_out or not out:
            endings[result.number] = _("The stock ran out.")
        else:
            endings[result.number] = _("%(side)s went out.", side=score.side_names[out[0]])
    return endings


@bp.route("/g/<token>/delete", methods=["GET", "POST"])
@edit_only
def delete_game(game_id: int) -> str | Response:
    game = get_game(game_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        title = game_title(game)
        version = posted_version(required=True)
        if version is None:
            _game_not_deleted(game_id)
        try:
            delete_game_row(game_id, based_on=version)
            db.session.commit()
        except GameChanged:
            db.session.rollback()
            _game_not_deleted(game_id)
        flash(_("The game %(title)s was deleted.", title=title), "success")
        return redirect(url_for(".index"), code=303)
    return render_template("games/delete.html", game=game, form=form, score=game_score(game))


def _game_not_deleted(game_id: int) -> NoReturn:
    """404 when the game is gone, else 409: it changed since the page was loaded."""
    get_game(game_id)
    abort(
        409,
        description=_(
            "The game was changed on another phone since this page was loaded, so it "
            "was not deleted. Look at the scoreboard again before deleting it."
        ),
    )
