"""The tables blueprint: a card table's page, reached through its view or edit link.

/t/<token>          the table: its games (newest first, ``GAMES_PER_PAGE`` a page: ?page=N) and
                    house rules, its links (the edit link for members)
/t/<token>/qr.svg   the QR code of the link itself
/t/<token>/name     POST (edit link): rename the table
/t/<token>/links    POST (edit link): a new view link or a new edit link
/t/<token>/forget   POST: this phone forgets the table (the table itself stays)
/tables/new         POST: a new table, kept by this browser
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import StringField, SubmitField
from wtforms.validators import DataRequired, Length

from scorekeeper.capabilities import Role, issue_edit_token, issue_view_token
from scorekeeper.extensions import db
from scorekeeper.forms import NewLinkForm, PageForm, PrintableName, name_filter
from scorekeeper.forms import lazy_gettext as _l
from scorekeeper.keyring import forget_table, remember_table
from scorekeeper.limits import TABLES, limited
from scorekeeper.qr import QR_CACHE_CONTROL, qr_svg
from scorekeeper.store.game_service import table_game_count, table_games_page
from scorekeeper.store.holdings import HeldTable, forget_held_tables, held_tables
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.scores import game_score
from scorekeeper.store.table_service import new_table, resolve_table, table_name
from scorekeeper.store.tables import NAME_LENGTH

bp = Blueprint("tables", __name__)

GAMES_PER_PAGE = 20
PAGE_DIGITS = 9
"""A page number longer than this is refused before it is read as a number."""
bp.add_app_template_global(table_name, "table_name")


class NameForm(PageForm):
    name = StringField(
        _l("Name of the table"),
        filters=[name_filter],
        validators=[
            DataRequired(_l("Give the table a name.")),
            Length(max=NAME_LENGTH, message=_l("Keep the name to %(max)s characters.")),
            PrintableName(_l("A table's name cannot hold control characters.")),
        ],
    )
    submit = SubmitField()


class ForgetForm(PageForm):
    submit = SubmitField()


def _flash_refusal(form: NameForm) -> None:
    """Nothing changed: say why, naming the field."""
    for message in form.name.errors or [_("The form was damaged. Reload the page and try again.")]:
        flash(_("%(field)s: %(message)s", field=form.name.label.text, message=message), "error")


def _held(token: str) -> HeldTable:
    """The table the address opens (404 if none); the browser joins it by this link."""
    held = resolve_table(token)
    if held is None:
        abort(404)
    return held


def _held_for_edit(token: str) -> HeldTable:
    held = _held(token)
    if not held.can_edit:
        abort(
            403,
            description=_(
                "This link shows the table but cannot change it. Ask a member of the table "
                "for its edit link."
            ),
        )
    return held


def _join(held: HeldTable) -> None:
    """Keep the link, unless this browser already holds the table at least as well."""
    remembered = held_tables().get(held.table.id)
    if remembered is not None and (remembered.token == held.token or remembered.can_edit):
        return
    remember_table(held.table.id, held.token)
    forget_held_tables()


def table_url(token: str) -> str:
    return url_for("tables.show", token=token, _external=True)


@bp.get("/t/<token>")
def show(token: str) -> str:
    held = _held(token)
    _join(held)
    table = held.table
    last = max(1, -(-table_game_count(table.id) // GAMES_PER_PAGE))
    page = _page_asked(last)
    shown = table_games_page(table.id, (page - 1) * GAMES_PER_PAGE, GAMES_PER_PAGE)
    games = [(game, game_score(game)) for game in shown]
    rules = list(
        db.session.scalars(
            select(HouseVariant)
            .where(HouseVariant.table_id == table.id)
            .order_by(HouseVariant.name, HouseVariant.id)
        )
    )
    return render_template(
        "tables/show.html",
        held=held,
        table=table,
        games=games,
        page=page,
        more=page < last,
        rules=rules,
        view_url=table_url(table.view_token),
        view_qr=url_for(".qr_code", token=table.view_token),
        edit_url=table_url(held.token) if held.can_edit else None,
        edit_qr=url_for(".qr_code", token=held.token) if held.can_edit else None,
    )


def _page_asked(last: int) -> int:
    """The page of games asked for (``?page=``, 1 when not given), or 400 naming the field."""
    raw = request.args.get("page")
    if raw is None:
        return 1
    raw = raw.strip()
    if raw.isascii() and raw.isdigit() and len(raw) <= PAGE_DIGITS and 1 <= int(raw) <= last:
        return int(raw)
    abort(400, description=_("Page: enter a whole number from 1 to %(last)s.", last=last))


@bp.get("/t/<token>/qr.svg")
def qr_code(token: str) -> Response:
    _held(token)
    response = Response(qr_svg(table_url(token)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = QR_CACHE_CONTROL
    return response


@bp.post("/t/<token>/name")
def rename(token: str) -> Response | tuple[str, int]:
    held = _held_for_edit(token)
    form = NameForm()
    if not form.validate_on_submit():
        _flash_refusal(form)
        return redirect(url_for(".show", token=token), code=303)
    held.table.name = form.name.data or ""
    db.session.commit()
    flash(_("The table is renamed."), "success")
    return redirect(url_for(".show", token=token), code=303)


@bp.post("/t/<token>/links")
def rotate(token: str) -> Response:
    held = _held_for_edit(token)
    form = NewLinkForm()
    if not form.validate_on_submit():
        return redirect(url_for(".show", token=token, _anchor="share"), code=303)
    table = held.table
    if form.which.data == Role.EDIT.value:
        new = issue_edit_token(table)
        db.session.commit()
        remember_table(table.id, new)
        flash(_("This is the table's new edit link. The old one no longer works."), "success")
        return redirect(url_for(".show", token=new, _anchor="share"), code=303)
    issue_view_token(table)
    db.session.commit()
    flash(_("The table has a new view link. The old one no longer works."), "success")
    return redirect(url_for(".show", token=token, _anchor="share"), code=303)


@bp.post("/t/<token>/forget")
def forget(token: str) -> Response:
    held = _held(token)
    if ForgetForm().validate_on_submit():
        forget_table(held.table.id)
        flash(_("This phone no longer shows “%(name)s”.", name=table_name(held.table)), "success")
    return redirect(url_for("games.index"), code=303)


@bp.post("/tables/new")
@limited(TABLES)
def create() -> Response:
    form = NameForm()
    if not form.validate_on_submit():
        _flash_refusal(form)
        return redirect(url_for("games.index"), code=303)
    _table, token = new_table(form.name.data or "")
    db.session.commit()
    flash(_("The table is made. Share its link with the people you play with."), "success")
    return redirect(url_for(".show", token=token, _anchor="share"), code=303)
