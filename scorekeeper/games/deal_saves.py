"""Writing a deal: saving it, answering a save made from an older version, taking a deal back
(Undo) and deleting it."""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.access import edit_only
from scorekeeper.extensions import db
from scorekeeper.games.blueprint import bp, get_game
from scorekeeper.games.concurrency import deal_conflict, posted_version
from scorekeeper.games.deal_description import field_labels
from scorekeeper.games.deal_form_page import DealAt, deal_at, form_data
from scorekeeper.games.forms import ConfirmForm
from scorekeeper.games.undo import forget_saved, keep_undone, remember_saved, saved_offer
from scorekeeper.operations import metrics
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.game import ends_game
from scorekeeper.signals import last_deal_saved
from scorekeeper.store.deal_writes import (
    DealChanged,
    GameChanged,
    delete_deal,
    undo_deal,
    write_deal,
)
from scorekeeper.store.scores import deal_entry


def save_deal(at: DealAt, entry: DealEntry, version: int) -> Response | tuple[str, int]:
    """Write the deal made from ``version``; a new deal can be undone from the scoreboard.

    A write moves the game one version on, so the Undo is offered at the version read with the
    game plus one, with no read after the write; the new deal's own version is the one read.
    Had another phone written in between, the stored version is further on and the
    scoreboard never shows that Undo.
    """
    game_id = at.game.id  # read before the write: the game may be gone after a refusal
    saved_on = at.game.version
    try:
        write_deal(at.game, entry, based_on=version)
        db.session.commit()
    except DealChanged:
        db.session.rollback()
        return stale_save(replace(at, game=get_game(game_id)), entry, version)
    metrics.count("saves")
    if version == 0 and ends_game(entry):  # it may have finished the game
        last_deal_saved.send(game_id=game_id)
    return _saved(game_id, at.number, version, saved_on + 1, deal_version=saved_on)


def _saved(
    game_id: int, number: int, based_on: int, game_version: int, deal_version: int
) -> Response:
    """The scoreboard after a save: "Deal N saved" with its Undo for a new deal, "Deal N
    updated" at the deal for an edit."""
    if based_on != 0:
        forget_saved()
        flash(_("Deal %(number)s updated.", number=number), "success")
        return redirect(url_for(".scoreboard", game_id=game_id, _anchor=f"deal-{number}"), 303)
    remember_saved(game_id, number, game_version, deal_version=deal_version)
    return redirect(url_for(".scoreboard", game_id=game_id), code=303)


def stale_save(at: DealAt, entry: DealEntry, version: int) -> Response | tuple[str, int]:
    """A deal posted from an older version than the stored one.

    When the stored deal holds exactly what was posted, the same save arrived twice (a phone
    sending again a save kept offline whose answer the network lost): it is answered as saved,
    as the first time, and nothing is written. Otherwise the conflict page.
    """
    stored = at.game.deal(at.number)
    if stored is not None and _same_deal(deal_entry(at.game, stored, at.variant), entry):
        return _saved(at.game.id, at.number, version, at.game.version, stored.version)
    return _conflict_page(at, entry, version)


def _same_deal(stored: DealEntry, posted: DealEntry) -> bool:
    return stored.sides == posted.sides and stored.stock_ran_out == posted.stock_ran_out


def _conflict_page(at: DealAt, entry: DealEntry, version: int) -> tuple[str, int]:
    """409: both versions of the deal side by side, and nothing saved."""
    conflict = deal_conflict(at.game, at.variant, at.number, entry, version)
    page = render_template(
        "games/conflict.html",
        conflict=conflict,
        variant=at.variant,
        names=at.game.side_names,
        fields=at.description.fields,
        labels=field_labels(at.description, at.number),
    )
    return page, 409


@bp.post("/g/<token>/deals/<int:number>/undo")
@edit_only
def undo_deal_view(game_id: int, number: int) -> Response:
    """Take back the deal this browser just saved, while nobody changed the game since."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    offer = saved_offer(game_id)
    posted = posted_version(required=True)
    if offer is None or offer.number != number or posted != offer.game_version:
        _not_undone(number)
    taken_back = _taken_back(game_id, number)
    try:
        undo_deal(game_id, number, offer.game_version, offer.deal_version)
        db.session.commit()
    except GameChanged:
        db.session.rollback()
        _not_undone(number)
    forget_saved()
    if taken_back is not None:
        keep_undone(game_id, number, taken_back)
    flash(
        _(
            "Deal %(number)s was taken back: its numbers are in the form, to correct and save.",
            number=number,
        ),
        "success",
    )
    return redirect(url_for(".deal", game_id=game_id, number=number), code=303)


def _taken_back(game_id: int, number: int) -> dict[str, object] | None:
    """The stored deal as the form's data, put back in the form once it is undone."""
    game = get_game(game_id)
    stored = game.deal(number)
    if stored is None:
        return None
    return form_data(deal_at(game, number).description.fields, stored)


def _not_undone(number: int) -> NoReturn:
    abort(
        409,
        description=_(
            "Deal %(number)s cannot be undone any more: the game was changed since it was "
            "saved. Look at the scoreboard, and delete or edit the deal there if need be.",
            number=number,
        ),
    )


@bp.post("/g/<token>/deals/<int:number>/delete")
@edit_only
def delete_deal_view(game_id: int, number: int) -> Response:
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    version = posted_version(required=True)
    if version is None:
        _not_deleted(game_id, number)
    try:
        delete_deal(game_id, number, based_on=version)
        db.session.commit()
    except DealChanged:
        db.session.rollback()
        _not_deleted(game_id, number)
    flash(_("Deal %(number)s deleted.", number=number), "success")
    return redirect(url_for(".scoreboard", game_id=game_id), code=303)


def _not_deleted(game_id: int, number: int) -> NoReturn:
    """404 when the deal (or its game) is gone, else 409: it changed since the page."""
    if get_game(game_id).deal(number) is None:
        abort(404)
    abort(
        409,
        description=_(
            "Deal %(number)s was changed on another phone since this page was loaded, so it "
            "was not deleted. Look at the scoreboard again before deleting it.",
            number=number,
        ),
    )
