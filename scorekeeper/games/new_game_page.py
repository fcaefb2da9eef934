"""The new-game page: the rules, the table, the sides' and players' names."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.games import forms
from scorekeeper.games.blueprint import bp
from scorekeeper.games.forms import NewGameForm, table_key
from scorekeeper.limits import GAMES, limited
from scorekeeper.store.game_service import start_game_at
from scorekeeper.store.house_rules import house_rules_at
from scorekeeper.store.people import known_player_names
from scorekeeper.store.table_service import mark_used, table_for_new


@bp.route("/games/new", methods=["GET", "POST"])
@limited(GAMES)
def new_game() -> str | Response | tuple[str, int]:
    form = NewGameForm(at=request.args.get("at", type=int), variant=request.args.get("variant"))
    if form.is_submitted() and form.refresh.data:
        # The rules or table changed without JavaScript: show the tables the rules allow and
        # the name fields of the table, keeping what was typed.
        if form.chosen_table() is None:
            form.table.data = table_key(form.chosen_variant().tables[0])
        return render_new_game(form)
    if form.validate_on_submit():
        table = form.chosen_table()
        assert table is not None
        owner = table_for_new(form.at.data)
        variant = form.chosen_variant()
        entry = form.chosen_published()
        if entry is not None:
            # Ready-made rules become the table's own house rules, which its games are played by.
            variant = house_rules_at(entry.house_rules(_(entry.name), _(entry.summary)), owner)
        game = start_game_at(
            owner,
            variant,
            table,
            form.names(),
            form.players(),
            form.name.data or "",
        )
        mark_used(owner)
        db.session.commit()
        flash(_("Game started. Enter deal 1 when it is over."), "success")
        return redirect(url_for(".deal", game_id=game.id, number=1), code=303)
    if form.is_submitted():
        return render_new_game(form), 422
    return render_new_game(form)


def render_new_game(form: NewGameForm) -> str:
    table = form.chosen_table() or form.chosen_variant().tables[0]
    offered = form.offered
    variant_tables = {key: " ".join(table_key(t) for t in v.tables) for key, v in offered.items()}
    return render_template(
        "games/new.html",
        form=form,
        variants=offered,
        variant_tables=variant_tables,
        allowed_tables={table_key(t) for t in form.chosen_variant().tables},
        sides=table.sides,
        partnership=table.is_partnership,
        per_side=table.players_per_side,
        per_side_most=forms.most_per_side(),
        known_players=known_player_names(form.tables_offered),
        side_label=forms.side_label,
    )
