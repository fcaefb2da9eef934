"""The house blueprint: a table's own rules, made from a built-in variant, shared and imported.

/house/                     the list, a new variant from a base, and the import form
/house/new?base=<id>        the form for new rules
/house/new?published=<slug> the form for new rules made from ready-made ones (rules/gallery.py)
/house/<slug>               the rules: what differs from the base, export and share link
/house/<slug>/edit          the form: the changes first, every other rule folded away
/house/<slug>/export        the rules as a small JSON file
/house/<slug>/delete        (POST) games keep their own copy of the rules
/house/import               (POST) a rules file or pasted JSON
/house/shared?rules=<token> the rules a share link carries, to look at and save
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.datastructures import FileStorage
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.house.forms import (
    BaseForm,
    ConfirmForm,
    ImportForm,
    SharedForm,
    base_choices,
    changes_over,
    house_form,
    read_values,
    rows,
    shown_value,
    words,
)
from scorekeeper.limits import HOUSE_RULES, limited
from scorekeeper.rules import gallery
from scorekeeper.rules.house_rules import (
    HOUSE_PREFIX,
    Difference,
    HouseRules,
    RulesSource,
    diff_from_base,
    typed_differences,
)
from scorekeeper.rules.messages import Problem
from scorekeeper.rules.params import (
    GROUP_TERMS,
    PARAM_BY_KEY,
    VariantRejected,
    param_value,
    params_for,
)
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.variant_json import MAX_FILE_BYTES, read_house_file
from scorekeeper.rules.variants import BUILT_IN, MAX_DEALS, Variant
from scorekeeper.store import house_rules as store
from scorekeeper.store.holdings import editable_tables, held_tables
from scorekeeper.store.house import HouseVariant
from scorekeeper.store.table_service import mark_used, table_for_new
from scorekeeper.variant_texts import variant_text

bp = Blueprint("house", __name__, url_prefix="/house")

RESERVED_SLUGS = frozenset({"new", "import", "shared", "changes"})
"""Slugs a house variant never gets: they are this blueprint's own addresses."""


@bp.context_processor
def _house_context() -> dict[str, object]:
    return {"words": words, "shown_value": shown_value, "group_terms": GROUP_TERMS}


def _row_or_404(slug: str) -> HouseVariant:
    """The rules of this id, when this browser holds a link to their card table (else 404)."""
    row = store.find_row(slug)
    if row is None:
        abort(404)
    return row


def _row_to_change(slug: str) -> HouseVariant:
    """The rules of this id, when this browser holds their card table's edit link."""
    row = _row_or_404(slug)
    if not store.may_change(row):
        abort(
            403,
            description=_(
                "Only the members of the table these rules belong to can change them: ask one "
                "of them for the table's edit link, or save a copy of the rules from their "
                "share link."
            ),
        )
    return row


def _base_of(rules: HouseRules) -> Variant:
    base = BUILT_IN.get(rules.based_on)
    if base is None:
        abort(404)
    return base


def _link(endpoint: str, **values: Any) -> str | None:
    """The address of another blueprint's page, or None when that blueprint is not there."""
    if endpoint.split(".")[0] not in current_app.blueprints:
        return None
    return url_for(endpoint, **values)


def _share_url(rules: HouseRules) -> str:
    return url_for(".shared", rules=link_token(rules), _external=True)


def _differences(rules: HouseRules) -> list[dict[str, str]]:
    """What the rules set differently from their base, in words, for the pages."""
    return _in_words(diff_from_base(rules.variant(), _base_of(rules)))


def _in_words(differences: Iterable[Difference]) -> list[dict[str, str]]:
    return [
        {
            "label": words(d.param.label),
            "base": shown_value(d.param, d.base),
            "value": shown_value(d.param, d.value),
        }
        for d in differences
    ]


# --- the list -----------------------------------------------------------------------------


@bp.get("/")
def index() -> str:
    return _render_index(ImportForm(), [])


def _render_index(import_form: ImportForm, problems: list[Problem]) -> str:
    base_form = BaseForm(formdata=None)
    base_form.base.choices = base_choices()
    entries = [
        {
            "row": row,
            "playable": store.playable(row) is not None,
            "base": BUILT_IN.get(row.based_on),
            "changes": len(row.changes),
        }
        for row in store.house_rows()
    ]
    return render_template(
        "house/index.html",
        tables=editable_tables(),
        entries=entries,
        published=[
            {"entry": entry, "name": _(entry.name), "summary": _(entry.summary)}
            for entry in gallery.GALLERY
        ],
        base_form=base_form,
        import_form=import_form,
        import_problems=[p.render(_) for p in problems],
    )


# --- new and edited rules -------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@limited(HOUSE_RULES)
def new() -> str | Response | tuple[str, int]:
    entry = gallery.published(request.values.get("published", ""))
    if entry is not None:
        # Ready-made rules: the form starts from them, named in the reader's language.
        start = entry.variant().with_changes(name=_(entry.name)[:60], summary=_(entry.summary))
        return _edit(None, BUILT_IN[entry.based_on], start, entry.source)
    base = BUILT_IN.get(request.values.get("base", ""))
    if base is None:
        base = next(iter(BUILT_IN.values()))
    start = base.with_changes(
        name=_("Our %(variant)s", variant=variant_text(base.name))[:60],
        summary=_("House rules based on %(variant)s.", variant=variant_text(base.name)),
    )
    return _edit(None, base, start)


@bp.route("/<string(maxlength=64):slug>/edit", methods=["GET", "POST"])
def edit(slug: str) -> str | Response | tuple[str, int]:
    row = _row_to_change(slug)
    base = _base_of(row.rules)
    current = store.playable(row)
    if current is None:
        flash(
            _("These rules can no longer be played as saved: check the fields marked."), "warning"
        )
        current = _best_effort(row.rules, base)
    return _edit(row, base, current, row.made_from)


def _best_effort(rules: HouseRules, base: Variant) -> Variant:
    """The saved rules as far as they can be read, to fill the form."""
    try:
        return rules.variant()
    except (VariantRejected, KeyError, TypeError, ValueError):
        return base.with_changes(name=rules.name, summary=rules.summary)


def _edit(
    row: HouseVariant | None, base: Variant, current: Variant, source: RulesSource | None = None
) -> str | Response | tuple[str, int]:
    """The house-rules form, and its rules saved when they can be played. Rules made from
    published ones keep naming their source (``source``) through every edit."""
    form = house_form(current)
    problems: list[Problem] = []
    values = {param.key: param_value(current, param.key) for param in params_for(current.deals)}
    if form.is_submitted():
        form.validate()
        values, _readable = read_values(form, current)
        rules = HouseRules(
            form.name.data or "",
            base.id,
            changes_over(base, values),
            form.summary.data or "",
            row.slug if row is not None else "",
            source,
        )
        problems = rules.problems()
        if not form.errors and not problems:
            return _save(row, rules)
    grouped = rows(form, base, values, problems)
    page = render_template(
        "house/edit.html",
        form=form,
        row=row,
        base=base,
        source=source,
        grouped=grouped,
        differences=_in_words(typed_differences(base, values)),
        changed=[r for group in grouped.values() for r in group if r.changed or r.problems],
        name_problems=[p.render(_) for p in problems if p.field == "name"],
        other_problems=[
            p.render(_) for p in problems if p.field not in PARAM_BY_KEY and p.field != "name"
        ],
        any_problem=bool(problems or form.errors),
        max_deals=MAX_DEALS,
    )
    return (page, 422) if form.is_submitted() else page


@bp.post("/changes")
def changes() -> str:
    """The "your changes" summary of the form as it stands, shown while the rules are edited.

    The form posts itself here as it changes (``?base=`` names the base variant); nothing is
    saved, and the summary is worded by the same code as the saved rules' page.
    """
    base = BUILT_IN.get(request.args.get("base", ""))
    if base is None:
        abort(404)
    form = house_form(base)
    form.validate()
    values, _readable = read_values(form, base)
    return render_template(
        "house/_changes.html", base=base, differences=_in_words(typed_differences(base, values))
    )


def _save(row: HouseVariant | None, rules: HouseRules) -> Response:
    if row is None:
        row = _create(rules)
        db.session.commit()
        flash(_("Your rules are saved. Start a game with them from the new-game page."), "success")
    elif store.update(row, rules):
        db.session.commit()
        flash(
            _("Your rules are saved. Games already played keep the rules they were played with."),
            "success",
        )
    else:
        flash(_("Nothing was changed."), "success")
    return redirect(url_for(".show", slug=row.slug), code=303)


def _create(rules: HouseRules) -> HouseVariant:
    """Store new rules at the card table this browser chose (or its newest, or a new one)."""
    slug = rules.slug if rules.slug not in RESERVED_SLUGS else f"{rules.slug}-rules"
    owner = table_for_new(request.values.get("at", type=int))
    mark_used(owner)
    return store.create(
        HouseRules(rules.name, rules.based_on, rules.changes, rules.summary, slug, rules.source),
        owner,
    )


# --- one variant: show, export, delete --------------------------------------------------------


@bp.get("/<string(maxlength=64):slug>")
def show(slug: str) -> str:
    row = _row_or_404(slug)
    rules = row.rules
    base = _base_of(rules)
    variant = store.playable(row)
    return render_template(
        "house/show.html",
        row=row,
        base=base,
        variant=variant,
        differences=_differences(rules) if variant is not None else [],
        share_url=_share_url(rules),
        delete_form=ConfirmForm(),
        can_change=store.may_change(row),
        table_token=held_tables()[row.table_id].token,
        sheet_url=_link("sheets.index", variant=row.variant_id),
        compare_url=_link("handbook.compare"),
        new_game_url=_link("games.new_game", variant=row.variant_id, at=row.table_id),
    )


@bp.get("/<string(maxlength=64):slug>/export")
def export(slug: str) -> Response:
    row = _row_or_404(slug)
    body = json.dumps(row.rules.to_json(), indent=2, ensure_ascii=False) + "\n"
    response: Response = current_app.response_class(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{row.variant_id}.json"'
    return response


@bp.post("/<string(maxlength=64):slug>/delete")
def delete(slug: str) -> Response:
    row = _row_to_change(slug)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    store.delete(row)
    db.session.commit()
    flash(_("The rules are deleted. Games played with them keep their scores."), "success")
    return redirect(url_for(".index"), code=303)


# --- sharing: import a file, open a link ------------------------------------------------------


@bp.post("/import")
@limited(HOUSE_RULES)
def import_rules() -> Response | tuple[str, int]:
    form = ImportForm()
    if not form.validate_on_submit():
        return _render_index(form, []), 400
    upload = form.file.data
    if isinstance(upload, FileStorage) and upload.filename:
        raw: bytes | str = upload.stream.read(MAX_FILE_BYTES + 1)
    elif form.text.data:
        raw = form.text.data
    else:
        form.file.errors = [_("Choose a rules file, or paste the rules.")]
        return _render_index(form, []), 422
    try:
        rules = read_house_file(raw)
    except VariantRejected as refusal:
        return _render_index(form, refusal.problems), 422
    return _keep(rules)


def _keep(rules: HouseRules) -> Response:
    """Store shared rules, unless the very same rules are already here."""
    same = store.find_row(rules.slug)
    if same is not None and same.rules == rules:
        flash(_("You already have these rules."), "success")
        return redirect(url_for(".show", slug=same.slug), code=303)
    row = _create(rules)
    db.session.commit()
    flash(_("The rules are imported as “%(name)s”.", name=row.name), "success")
    return redirect(url_for(".show", slug=row.slug), code=303)


@bp.route("/shared", methods=["GET", "POST"])
def shared() -> Response | str | tuple[str, int]:
    token = request.values.get("rules", "")
    form = SharedForm()
    try:
        rules = rules_from_link(token)
    except VariantRejected as refusal:
        page = render_template(
            "house/shared.html",
            rules=None,
            form=form,
            token="",
            problems=[p.render(_) for p in refusal.problems],
        )
        return page, 400
    if form.validate_on_submit():
        return _keep(rules)
    return render_template(
        "house/shared.html",
        rules=rules,
        base=_base_of(rules),
        differences=_differences(rules),
        form=form,
        token=token,
        problems=[],
        variant_id=HOUSE_PREFIX + rules.slug,
    )
