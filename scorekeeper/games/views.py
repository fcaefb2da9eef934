"""The games blueprint: the list of games, a new game, the deal form and the scoreboard."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

from babel.lists import format_list
from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import format_date, format_decimal, get_locale, ngettext
from flask_babel import gettext as _
from werkzeug.wrappers import Response
from wtforms import Form, FormField

from scorekeeper.access import can_edit, current_grant, edit_only, pull_token, push_token
from scorekeeper.connections import writes_in_one_statement
from scorekeeper.extensions import db
from scorekeeper.games import forms
from scorekeeper.games.concurrency import (
    conditional_page,
    deal_conflict,
    deal_version,
    posted_version,
)
from scorekeeper.games.forms import (
    COUNTER_TARGETS,
    LEFT,
    MELDED,
    STOCK_RAN_OUT,
    ConfirmForm,
    CounterKind,
    DealForm,
    NewGameForm,
    counter_kinds,
    counter_labels,
    deal_form,
    entry_fields,
    table_key,
)
from scorekeeper.games.kept_totals import kept_deal_prices
from scorekeeper.games.rule_links import rule_topic, rule_url
from scorekeeper.games.turns import deal_turn
from scorekeeper.games.undo import (
    forget_saved,
    keep_undone,
    remember_saved,
    saved_offer,
    take_undone,
    undo_offer,
)
from scorekeeper.limits import GAMES, limited
from scorekeeper.operations import metrics
from scorekeeper.rules.book_supply import supply_of
from scorekeeper.rules.entry import POINT_FIELDS, DealEntry
from scorekeeper.rules.game import GameScore
from scorekeeper.rules.messages import Problem
from scorekeeper.rules.score_lines import EntryField, LineSpec, shown_specs, special_rank_words
from scorekeeper.rules.scoring import score_deal, shown_line_keys, shown_lines
from scorekeeper.rules.validation import Report, validate_deal
from scorekeeper.rules.variants import MAX_DEALS, ConcealedOpening, Variant
from scorekeeper.signals import last_deal_saved
from scorekeeper.store.catalogue import variants
from scorekeeper.store.deal_writes import (
    DealChanged,
    GameChanged,
    delete_deal,
    undo_deal,
    write_deal,
)
from scorekeeper.store.deal_writes import delete_game as delete_game_row
from scorekeeper.store.export import csv_response, game_csv
from scorekeeper.store.game_service import load_game, start_game_at
from scorekeeper.store.games import Deal, Game
from scorekeeper.store.holdings import held_tables, visible_games
from scorekeeper.store.people import known_player_names
from scorekeeper.store.scores import (
    deal_entry,
    game_score,
    game_variant,
    running_scores_before,
    with_running_scores,
)
from scorekeeper.store.table_service import mark_used, table_for_new
from scorekeeper.variant_texts import table_label, variant_text
from scorekeeper.wording.breakdown import count_label, field_labels, line_labels

bp = Blueprint("games", __name__)
# Game addresses carry a view or edit token (/g/<token>/...); the views get ``game_id``.
bp.url_value_preprocessor(pull_token)
bp.url_defaults(push_token)

bp.add_app_template_global(rule_url, "rule_url")
bp.add_app_template_global(rule_topic, "rule_topic")
bp.add_app_template_global(deal_turn, "deal_turn")


def game_title(game: Game) -> str:
    if game.name:
        return game.name
    return _(
        "%(variant)s, %(date)s",
        variant=variant_text(game.rules.get("name", game.variant_id)),
        date=format_date(game.created_at, "medium"),
    )


def table_summary(game: Game, variant: Variant) -> str:
    table = variant.table_for(len(game.sides), game.players)
    label = table_label(len(game.sides), game.players)
    if table is None:
        return label
    decks = ngettext("%(num)s deck", "%(num)s decks", table.decks)
    return _("%(table)s, %(decks)s", table=label, decks=decks)


def names_of(indexes: Iterable[int], names: Sequence[str]) -> str:
    """The named sides as one phrase: "Ann, Bob and Cy"."""
    return format_list([names[i] for i in indexes], locale=get_locale() or "en")


@bp.app_context_processor
def _games_context() -> dict[str, object]:
    return {
        "game_title": game_title,
        "names_of": names_of,
        "format_number": format_decimal,
    }


def _get_game(game_id: int) -> Game:
    game = load_game(game_id)
    if game is None:
        abort(404)
    return game


# --- the list of games and a new game ------------------------------------------------------


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
        game = start_game_at(
            owner,
            form.chosen_variant(),
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
    offered = variants()
    variant_tables = {v.id: " ".join(table_key(t) for t in v.tables) for v in offered}
    return render_template(
        "games/new.html",
        form=form,
        variants={v.id: v for v in offered},
        variant_tables=variant_tables,
        allowed_tables={table_key(t) for t in form.chosen_variant().tables},
        sides=table.sides,
        partnership=table.is_partnership,
        per_side=table.players_per_side,
        per_side_most=forms.most_per_side(),
        known_players=known_player_names(form.tables_offered),
        side_label=forms.side_label,
    )


# --- the scoreboard ------------------------------------------------------------------------


@bp.get("/g/<token>")
def scoreboard(game_id: int) -> Response:
    return conditional_page(lambda: _get_game(game_id), _render_scoreboard)


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
        labels=line_labels(variant),
        table=table_summary(game, variant),
        ending=_deal_endings(score),
        delete_form=ConfirmForm() if can_edit() else None,  # only the keeper deletes deals
        owner=held_tables().get(game.table_id) if game.table_id is not None else None,
        undo=undo_offer(game) if can_edit() else None,
    )


@bp.get("/g/<token>/export.csv")
def export_csv(game_id: int) -> Response:
    """The game's deals as CSV, one row per side per deal (``store.export``)."""
    return csv_response(game_csv(_get_game(game_id)), f"game-{game_id}.csv")


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


# --- entering and editing a deal -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """A problem as the form shows it: its words, and the element it is about."""

    severity: str
    message: str
    target: str


class Problems:
    """The problems of one submit, placed next to the fields they are about.

    A form's own refusal of a field names the side and the field. A problem of all sides
    together (the decks' cards bound the table, not one side) marks its field on every side.
    """

    def __init__(
        self,
        form: DealForm,
        report: Report | None,
        fields: Sequence[str],
        names: Sequence[str],
        labels: Mapping[str, str],
    ) -> None:
        self.errors: list[Shown] = []
        self.warnings: list[Shown] = []
        self._at: dict[tuple[int | None, str | None], list[Shown]] = defaultdict(list)
        for index, side_form in enumerate(form.sides):
            for field in side_form.form:
                key = field.name.rsplit("-", 1)[-1]
                label = labels.get(key) or str(field.label.text)
                for message in field.errors:
                    named = _(
                        "%(side)s, %(field)s: %(problem)s",
                        side=names[index],
                        field=label,
                        problem=message,
                    )
                    self._add(index, key, "error", named, field.id)
        for message in form.went_out.errors:
            self._add(None, "went_out", "error", message, "went-out")
        if report is not None:
            for problem in report.problems:
                self._add_problem(form, problem, fields)

    def _add_problem(self, form: DealForm, problem: Problem, fields: Sequence[str]) -> None:
        message = problem.render(_)
        severity = problem.severity.value
        if problem.field in ("went_out", "stock_ran_out", "went_out_concealed"):
            self._add(None, "went_out", severity, message, "went-out")
        elif problem.field is not None and problem.field in fields and problem.side is None:
            self._add_to_every_side(form, problem.field, severity, message)
        elif problem.side is not None and problem.field in fields:
            target = form.sides[problem.side][problem.field].id
            self._add(problem.side, problem.field, severity, message, target)
        else:
            self._add(None, None, severity, message, "")

    def _add_to_every_side(
        self, form: DealForm, field: str, severity: str, message: str
    ) -> None:
        """One problem listed once, shown beside the field on each side; its link goes to
        the first side's field."""
        shown = Shown(severity, message, form.sides[0][field].id)
        (self.errors if severity == "error" else self.warnings).append(shown)
        for index in range(len(form.sides)):
            self._at[(index, field)].append(shown)

    def _add(
        self, side: int | None, field: str | None, severity: str, message: str, target: str
    ) -> None:
        shown = Shown(severity, message, target)
        (self.errors if severity == "error" else self.warnings).append(shown)
        self._at[(side, field)].append(shown)

    def at(self, side: int | None, field: str | None) -> list[Shown]:
        return self._at.get((side, field), [])


def warnings_key(warnings: Iterable[Problem]) -> str:
    """A short fingerprint of the warnings shown, so "Save anyway" accepts exactly those."""
    text = "\n".join(sorted(problem.message for problem in warnings))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _form_data(variant: Variant, deal: Deal) -> dict[str, object]:
    """A stored deal as the deal form's data, for editing."""
    fields = entry_fields(variant)
    out = next((str(row.position) for row in deal.sides if row.went_out), None)
    return {
        "went_out": STOCK_RAN_OUT if deal.stock_ran_out else out,
        "went_out_concealed": any(row.went_out_concealed for row in deal.sides),
        "sides": [{name: getattr(row, name) for name in fields} for row in deal.sides],
    }


def _counter_used(side_form: FormField[Form], kinds: Iterable[CounterKind], where: str) -> bool:
    """Whether any card kind was counted: the counter then stays open."""
    for kind in kinds:
        raw = side_form.form[kind.field_name(where)].raw_data
        if raw and raw[0].strip():
            return True
    return False


@bp.route("/g/<token>/deals/<int:number>", methods=["GET", "POST"])
@writes_in_one_statement
@edit_only
def deal(game_id: int, number: int) -> str | Response | tuple[str, int]:
    if not 1 <= number <= MAX_DEALS:
        abort(404)
    if request.method == "POST":
        return _post_deal(game_id, number)
    game = _get_game(game_id)
    variant = game_variant(game)
    if number > variant.deals:
        abort(404)
    stored = game.deal(number)
    data = _form_data(variant, stored) if stored is not None else take_undone(game_id, number)
    form = deal_form(variant, game.side_names, data=data)
    return render_deal_form(
        game, variant, number, form, None, editing=stored is not None, version=deal_version(stored)
    )


@dataclass(frozen=True, slots=True)
class Checked:
    """A posted deal read once: the game, its rules, the form, the entry and the verdict.

    ``entry`` and ``report`` are None when the form itself was refused (a field that is not
    a whole number, a choice not offered): the rules core is not asked then.
    """

    game: Game
    variant: Variant
    form: DealForm
    entry: DealEntry | None
    report: Report | None

    @property
    def confirmed(self) -> bool:
        """Valid, and its warnings (if any) are those the table accepted with "Save anyway"."""
        report = self.report
        if report is None or not report.ok:
            return False
        return not report.warnings or self.form.confirm.data == warnings_key(report.warnings)


def _check_posted(game_id: int, number: int) -> Checked:
    """The posted deal through the form and the rules core, each once.

    The deals already saved are not read: the game and its sides are those the address's
    token read.
    """
    game = _game_with_sides(game_id)
    variant = game_variant(game)
    if number > variant.deals:
        abort(404)
    form = deal_form(variant, game.side_names)
    if not form.validate_on_submit():
        form.apply_counters(variant)
        return Checked(game, variant, form, None, None)
    entry = form.entry(variant, number, game.players)
    entry = with_running_scores(game, variant, entry)
    return Checked(game, variant, form, entry, validate_deal(entry, game.side_names))


def _post_deal(game_id: int, number: int) -> str | Response | tuple[str, int]:
    """Save a posted deal that is valid, and confirmed if it has warnings; else show the form
    again with its problems (or the conflict page when the deal changed meanwhile).

    The write itself refuses a deal that changed since the form was made (see
    ``writes.write_deal``); only when a deal is not saved is the stored deal read.
    """
    checked = _check_posted(game_id, number)
    version = posted_version(required=False)
    assert version is not None
    game, variant, form, entry = checked.game, checked.variant, checked.form, checked.entry
    if entry is not None and checked.confirmed:
        return _save(game, variant, number, entry, version)
    stored = game.deal(number)
    if entry is not None and version != deal_version(stored):
        return _stale_save(game, variant, number, entry, version)
    report = checked.report
    if report is not None:
        form.confirm.data = warnings_key(report.warnings) if report.ok else ""
    page = render_deal_form(
        game, variant, number, form, report, editing=stored is not None, version=version
    )
    return page, 200 if report is not None and report.ok else 422


def _save(
    game: Game, variant: Variant, number: int, entry: DealEntry, version: int
) -> Response | tuple[str, int]:
    """Write the deal made from ``version``; a new deal can be undone from the scoreboard.

    A write moves the game one version on, so the Undo is offered at the version read with the
    game plus one, with no read after the write; the new deal's own version is the one read.
    Had another phone written in between, the stored version is further on and the
    scoreboard never shows that Undo.
    """
    game_id = game.id  # read before the write: the game may be gone after a refusal
    saved_on = game.version
    after_write = saved_on + 1
    try:
        write_deal(game, entry, based_on=version)
        db.session.commit()
    except DealChanged:
        db.session.rollback()
        return _stale_save(_get_game(game_id), variant, number, entry, version)
    metrics.count("saves")
    if version == 0 and number == variant.deals:  # it may have finished the game
        last_deal_saved.send(game_id=game_id)
    return _saved(game_id, number, version, after_write, deal_version=saved_on)


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


def _stale_save(
    game: Game, variant: Variant, number: int, entry: DealEntry, version: int
) -> Response | tuple[str, int]:
    """A deal posted from an older version than the stored one.

    When the stored deal holds exactly what was posted, the same save arrived twice (a phone
    sending again a save kept offline whose answer the network lost): it is answered as saved,
    as the first time, and nothing is written. Otherwise the conflict page.
    """
    stored = game.deal(number)
    if stored is not None and _same_deal(deal_entry(game, stored, variant), entry):
        return _saved(game.id, number, version, game.version, stored.version)
    return _deal_conflict(game, variant, number, entry, version)


def _same_deal(stored: DealEntry, posted: DealEntry) -> bool:
    return stored.sides == posted.sides and stored.stock_ran_out == posted.stock_ran_out


@bp.post("/g/<token>/deals/<int:number>/preview")
@edit_only
def preview_deal(game_id: int, number: int) -> Response:
    """The deal being typed, scored and checked by the rules core, for the form's live
    totals: each side's total as it stands (None while the form itself refuses a field) and
    the problems, as the form would show them on save. Nothing is saved."""
    if not 1 <= number <= MAX_DEALS:
        abort(404)
    checked = _check_posted(game_id, number)
    if "csrf_token" in checked.form.errors:
        abort(400)
    problems = Problems(
        checked.form,
        checked.report,
        checked.form.entry_fields,
        checked.game.side_names,
        field_labels(checked.variant),
    )
    totals = None
    if checked.entry is not None:
        totals = [side.total for side in score_deal(checked.entry)]
    return jsonify(
        totals=totals,
        errors=[{"message": shown.message, "target": shown.target} for shown in problems.errors],
        warnings=[
            {"message": shown.message, "target": shown.target} for shown in problems.warnings
        ],
    )


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
    game = _get_game(game_id)
    stored = game.deal(number)
    taken_back = _form_data(game_variant(game), stored) if stored is not None else None
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
        _("Deal %(number)s was taken back: its numbers are in the form, to correct and save.",
          number=number),
        "success",
    )
    return redirect(url_for(".deal", game_id=game_id, number=number), code=303)


def _not_undone(number: int) -> NoReturn:
    abort(
        409,
        description=_(
            "Deal %(number)s cannot be undone any more: the game was changed since it was "
            "saved. Look at the scoreboard, and delete or edit the deal there if need be.",
            number=number,
        ),
    )


def _game_with_sides(game_id: int) -> Game:
    """The game and its sides, without its deals: as the address's token read them."""
    grant = current_grant()
    if grant is not None and grant.game is not None and grant.game.id == game_id:
        return grant.game
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


def _deal_conflict(
    game: Game, variant: Variant, number: int, entry: DealEntry, version: int
) -> tuple[str, int]:
    """409: both versions of the deal side by side, and nothing saved."""
    conflict = deal_conflict(game, variant, number, entry, version)
    page = render_template(
        "games/conflict.html",
        conflict=conflict,
        variant=variant,
        names=game.side_names,
        fields=entry_fields(variant),
        labels=field_labels(variant),
    )
    return page, 409


def _each(points: int | None) -> str:
    return _("%(points)s points each", points=f"{points:+d}" if points else 0)


def _unit_hint(spec: LineSpec, field: EntryField, variant: Variant, number: int) -> str:
    """What one counted thing of the line is worth, and for a side that did not go out where
    that differs (red threes laid down); the line's help where it counts points, and with
    its bonus for a yes or no (went out concealed)."""
    if spec.unit is None:
        return spec.help_for(variant).render(_)
    if field.flag:
        return _(
            "%(help)s %(points)s points.",
            help=spec.help_for(variant).render(_),
            points=f"{spec.unit(variant, True, number) or 0:+d}",
        )
    out, not_out = spec.unit(variant, True, number), spec.unit(variant, False, number)
    if out == not_out:
        return _each(out)
    return _(
        "%(each)s; %(points)s for a side that did not go out",
        each=_each(out),
        points=f"{not_out:+d}" if not_out else 0,
    )


def _field_hints(variant: Variant, number: int) -> dict[str, str]:
    """The hint under each entry field: the points of one, read from the line spec; where
    books of a special rank have a line of their own, the clean books' hint says they are not
    counted there, though they count as clean books for going out."""
    hints = {
        field.name: _unit_hint(spec, field, variant, number)
        for spec in shown_specs(variant)
        for field in spec.fields
    }
    if "special_books" in hints and "clean_books" in hints:
        hints["clean_books"] += " " + _(
            "Books of %(rank)s are not counted here but on their own line; for going out, "
            "they count as clean books.",
            rank=_(special_rank_words(variant)),
        )
    return hints


def _going_out_words(variant: Variant, number: int) -> str:
    books = variant.going_out_for(number)
    words = {
        "clean": lambda n: ngettext("%(num)s clean book", "%(num)s clean books", n),
        "dirty": lambda n: ngettext("%(num)s dirty book", "%(num)s dirty books", n),
        "wild": lambda n: ngettext("%(num)s wild book", "%(num)s wild books", n),
    }
    needed = [words[kind](count) for kind, count in books if count]
    if not needed:
        return _("To go out, a side needs no particular books in this deal.")
    books_text = format_list(needed, locale=get_locale() or "en")
    text = _("To go out, a side needs at least %(books)s.", books=books_text)
    if variant.book_bonus.special is not None and variant.book_bonus.special_rank is not None:
        text += " " + _(
            "Books of %(rank)s count as clean books.", rank=_(special_rank_words(variant))
        )
    if len(set(variant.going_out_bonus)) > 1:
        text += " " + _(
            "Going out scores %(bonus)s in this deal.", bonus=variant.going_out_bonus_for(number)
        )
    return text


def _going_out_books(variant: Variant, number: int, fields: Sequence[str]) -> dict[str, int]:
    """The books a side needs at least to go out in this deal, by entry field: the form's
    script fills them in for the side chosen as the one that went out."""
    books = {f"{kind}_books": count for kind, count in variant.going_out_for(number) if count}
    return {name: count for name, count in books.items() if name in fields}


def render_deal_form(
    game: Game,
    variant: Variant,
    number: int,
    form: DealForm,
    report: Report | None,
    editing: bool,
    version: int = 0,
) -> str:
    fields = form.entry_fields
    labels = field_labels(variant)
    table = variant.table_for(len(game.sides), game.players)
    red_threes = supply_of(variant, table).red_threes if table else None
    limits = {
        "red_threes_down": red_threes,
        "red_threes_held": red_threes,
        "ladies_in_books": red_threes,
        "exact_22": table.players_per_side if table else None,
    }
    return render_template(
        "games/deal.html",
        game=game,
        variant=variant,
        number=number,
        form=form,
        names=game.side_names,
        fields=fields,
        labels=labels,
        hints=_field_hints(variant, number),
        limits=limits,
        point_fields=POINT_FIELDS,
        counters={where: counter_kinds(variant, where) for where in (MELDED, LEFT)},
        counter_labels=counter_labels(variant),
        counter_targets=COUNTER_TARGETS,
        counter_used=_counter_used,
        first_meld=_first_meld_points(variant, number),
        first_meld_by_side=_first_meld_by_side(game, variant, number),
        first_meld_concealed=number in variant.concealed_book_first_meld_deals,
        going_out=_going_out_words(variant, number),
        going_out_books=_going_out_books(variant, number, fields),
        concealed_asked=form.concealed_asked,
        problems=Problems(form, report, fields, game.side_names, labels),
        confirming=bool(form.confirm.data),
        editing=editing,
        version=version,
        kept_prices=kept_deal_prices(variant, number),
    )


def _first_meld_points(variant: Variant, number: int) -> int | None:
    """The points deal `number`'s first meld must reach; None if a concealed book replaces
    them, or where each side's running score sets its own (`_first_meld_by_side`)."""
    if _concealed_instead_of_points(variant, number) or variant.first_meld_by_score:
        return None
    return variant.first_meld_for(number)


def _concealed_instead_of_points(variant: Variant, number: int) -> bool:
    return (
        number in variant.concealed_book_first_meld_deals
        and variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
    )


def _first_meld_by_side(game: Game, variant: Variant, number: int) -> str | None:
    """Where the first meld follows the running score: each side's minimum, as a phrase."""
    if not variant.first_meld_by_score or _concealed_instead_of_points(variant, number):
        return None
    scores = running_scores_before(game, variant, number)
    each = [
        _("%(side)s %(points)s", side=name, points=variant.first_meld_for_score(number, score))
        for name, score in zip(game.side_names, scores, strict=True)
    ]
    return format_list(each, locale=get_locale() or "en")


# --- deleting ----------------------------------------------------------------------------


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
    if _get_game(game_id).deal(number) is None:
        abort(404)
    abort(
        409,
        description=_(
            "Deal %(number)s was changed on another phone since this page was loaded, so it "
            "was not deleted. Look at the scoreboard again before deleting it.",
            number=number,
        ),
    )


@bp.route("/g/<token>/delete", methods=["GET", "POST"])
@edit_only
def delete_game(game_id: int) -> str | Response:
    game = _get_game(game_id)
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
    _get_game(game_id)
    abort(
        409,
        description=_(
            "The game was changed on another phone since this page was loaded, so it "
            "was not deleted. Look at the scoreboard again before deleting it."
        ),
    )
