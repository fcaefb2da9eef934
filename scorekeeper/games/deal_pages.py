"""Entering and editing a deal: the form, its save and its live preview.

A posted deal goes through the form and the rules core once each (`check_posted`): the
variant's deal form is described once per variant (``deal_description``), so a request asks
the rules core only for the game's variant and the deal's verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, jsonify, render_template, request
from flask_babel import format_decimal, ngettext
from werkzeug.wrappers import Response

from scorekeeper.access import current_grant, edit_only
from scorekeeper.connections import writes_in_one_statement
from scorekeeper.extensions import db
from scorekeeper.games.blueprint import bp, get_game, names_of
from scorekeeper.games.concurrency import deal_version, posted_version
from scorekeeper.games.deal_description import deal_form, field_labels
from scorekeeper.games.deal_form_page import DealAt, deal_at, form_data, render_deal_form
from scorekeeper.games.deal_problems import Problems, warnings_key
from scorekeeper.games.deal_saves import save_deal, stale_save
from scorekeeper.games.forms import DealForm
from scorekeeper.games.undo import take_undone
from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.game import after_the_end
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import Report, validate_deal
from scorekeeper.rules.variants import MAX_DEALS
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score, with_running_scores

# The name of a card counter's button (its value: "<side>-<meld|left>"), sent without script.
COUNT_FIELD = "count"


@bp.route("/g/<token>/deals/<int:number>", methods=["GET", "POST"])
@writes_in_one_statement
@edit_only
def deal(game_id: int, number: int) -> str | Response | tuple[str, int]:
    if not 1 <= number <= MAX_DEALS:
        abort(404)
    if request.method == "POST":
        if COUNT_FIELD in request.form:
            return _show_counter(game_id, number)
        return _post_deal(game_id, number)
    return _show_deal(game_id, number)


def _show_deal(game_id: int, number: int) -> str:
    """The form of a new deal (holding a deal just taken back, if any), or of a stored one.
    A deal past a game that ended at its target score is not played: the page says so, and
    links to the scoreboard (a page, not a redirect with a message, as the phones keep the
    deal forms of a game in advance)."""
    at = deal_at(get_game(game_id), number)
    stored = at.game.deal(number)
    if stored is None:
        ended = _ended_before(at.game, number)
        if ended is not None:
            return render_template("games/over.html", game=at.game, number=number, message=ended)
    fields = at.description.fields
    data = form_data(fields, stored) if stored is not None else take_undone(game_id, number)
    form = deal_form(at.description, at.game.side_names, data=data)
    editing = stored is not None
    return render_deal_form(at, form, None, editing=editing, version=deal_version(stored))


def _ended_before(game: Game, number: int) -> str | None:
    """What to say of deal `number` of a game that ended at its target score before it
    (None while the game goes on, or where the deal is within it)."""
    score = game_score(game)
    ended = score.ended_after
    if ended is None or number <= ended or not score.ended_at_target:
        return None
    return ngettext(
        "The game is over: %(names)s reached the target score of %(target)s in deal "
        "%(deal)s and won, so deal %(number)s is not played.",
        "The game is over: %(names)s reached the target score of %(target)s in deal "
        "%(deal)s and tied for the win, so deal %(number)s is not played.",
        len(score.winners),
        names=names_of(score.winners, score.side_names),
        target=format_decimal(score.variant.target_score or 0),
        deal=ended,
        number=number,
    )


def _show_counter(game_id: int, number: int) -> str:
    """The form as it was posted, with the card counter its button names open: past a score
    pad the page carries a side's counter only once it is used (its script copies the others
    in), and without the script that button asks for it. Nothing is checked or saved."""
    at = deal_at(_game_with_sides(game_id), number)
    form = deal_form(at.description, at.game.side_names)
    version = posted_version(required=False)
    assert version is not None
    editing = at.game.deal(number) is not None
    counting = request.form[COUNT_FIELD]
    return render_deal_form(at, form, None, editing=editing, version=version, counting=counting)


@dataclass(frozen=True, slots=True)
class Checked:
    """A posted deal read once: the deal of the game, the form, the entry and the verdict.

    ``entry`` and ``report`` are None when the form itself was refused (a field that is not
    a whole number, a choice not offered): the rules core is not asked then.
    """

    at: DealAt
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


def check_posted(game_id: int, number: int) -> Checked:
    """The posted deal through the form and the rules core, each once.

    The deals already saved are not read: the game and its sides are those the address's
    token read.
    """
    at = deal_at(_game_with_sides(game_id), number)
    game, variant = at.game, at.variant
    form = deal_form(at.description, game.side_names)
    if not form.validate_on_submit():
        form.apply_counters()
        return Checked(at, form, None, None)
    entry = with_running_scores(game, variant, form.entry(variant, number, game.players))
    report = validate_deal(entry, game.side_names)
    if variant.target_score is not None:
        entered = (deal.number for deal in game.deals)
        report = Report(report.problems + after_the_end(entry, entered))
    return Checked(at, form, entry, report)


def _game_with_sides(game_id: int) -> Game:
    """The game and its sides, without its deals: as the address's token read them."""
    grant = current_grant()
    if grant is not None and grant.game is not None and grant.game.id == game_id:
        return grant.game
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


def _post_deal(game_id: int, number: int) -> str | Response | tuple[str, int]:
    """Save a posted deal that is valid, and confirmed if it has warnings; else show the form
    again with its problems (or the conflict page when the deal changed meanwhile).

    The write itself refuses a deal that changed since the form was made (see
    ``writes.write_deal``); only when a deal is not saved is the stored deal read.
    """
    checked = check_posted(game_id, number)
    version = posted_version(required=False)
    assert version is not None
    at, form, entry, report = checked.at, checked.form, checked.entry, checked.report
    if entry is not None and checked.confirmed:
        return save_deal(at, entry, version)
    stored = at.game.deal(number)
    if entry is not None and version != deal_version(stored):
        return stale_save(at, entry, version)
    if report is not None:
        form.confirm.data = warnings_key(report.warnings) if report.ok else ""
    page = render_deal_form(at, form, report, editing=stored is not None, version=version)
    return page, 200 if report is not None and report.ok else 422


@bp.post("/g/<token>/deals/<int:number>/preview")
@edit_only
def preview_deal(game_id: int, number: int) -> Response:
    """The deal being typed, scored and checked by the rules core, for the form's live
    totals: each side's total as it stands (None while the form itself refuses a field) and
    the problems, as the form would show them on save. Nothing is saved."""
    if not 1 <= number <= MAX_DEALS:
        abort(404)
    checked = check_posted(game_id, number)
    if "csrf_token" in checked.form.errors:
        abort(400)
    description, names = checked.at.description, checked.at.game.side_names
    labels = field_labels(description, number)
    problems = Problems(checked.form, checked.report, description.fields, names, labels)
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
