"""/meld-checker and /demo: the rules engine answering a question, and playing a game."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.wrappers import Response

from scorekeeper.engine.game import play_game
from scorekeeper.engine.melds import MeldCheck, MeldKind, check_meld
from scorekeeper.extensions import db
from scorekeeper.limits import GAMES, limited
from scorekeeper.play.forms import MOST_SEED, DemoForm, MeldCheckForm
from scorekeeper.rules.validation import validate_deal
from scorekeeper.store import catalogue
from scorekeeper.store.deal_writes import write_deal
from scorekeeper.store.game_service import start_game

bp = Blueprint("play", __name__)

MELD_KIND_NAMES = {
    MeldKind.CLEAN.value: _l("clean"),
    MeldKind.DIRTY.value: _l("dirty"),
    MeldKind.WILD.value: _l("wild"),
    MeldKind.BLACK_THREE.value: _l("black threes"),
}


@bp.get("/meld-checker")
def meld_checker() -> tuple[str, int] | str:
    form = MeldCheckForm(request.args)
    asked = bool(request.args)
    check: MeldCheck | None = None
    if asked and form.validate() and form.rules is not None:
        check = check_meld(
            form.rules,
            int(form.deal.data),
            form.chosen_rank(),
            form.naturals.data or 0,
            form.twos.data or 0,
            form.jokers.data or 0,
            first_meld=form.first_meld.data,
        )
    page = render_template(
        "play/meld_checker.html",
        form=form,
        check=check,
        reasons=[reason.render(_) for reason in check.reasons] if check else [],
        kind_names=MELD_KIND_NAMES,
        variant=form.rules,
    )
    return (page, 422) if asked and form.errors else page


@bp.route("/demo", methods=["GET", "POST"])
@limited(GAMES)
def demo() -> str | Response | tuple[str, int]:
    form = DemoForm()
    if form.validate_on_submit():
        seed = form.seed.data if form.seed.data is not None else secrets.randbelow(MOST_SEED)
        variant = catalogue.find_variant(form.variant.data)
        played = play_game(variant, seed)
        game = start_game(
            variant,
            played.table,
            played.side_names,
            _("Demo game (seed %(seed)s)", seed=seed),
        )
        db.session.flush()  # the game's row, for its deals
        for entry in played.entries:
            if not validate_deal(entry).ok:
                abort(500)  # the engine scores only legal play: this is a bug, save nothing
            write_deal(game, entry, based_on=0)
        db.session.commit()
        flash(
            ngettext(
                "The bots played %(num)s deal. Here is their score.",
                "The bots played %(num)s deals. Here is their score.",
                len(played.deals),
            ),
            "success",
        )
        return redirect(url_for("games.scoreboard", game_id=game.id), code=303)
    page = render_template("play/demo.html", form=form)
    return (page, 422) if form.is_submitted() else page
