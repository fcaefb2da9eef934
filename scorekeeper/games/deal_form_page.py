"""The deal form as a page: a deal of a game, its form and its problems, in the reader's words.

Everything the page says about the rules comes from the variant's `DealFormDescription`,
worked out once per variant; only the first meld that follows each side's running score is
asked of the game itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from flask import abort, render_template
from flask_babel import gettext as _
from markupsafe import Markup
from wtforms import Form, FormField

from scorekeeper.games.deal_description import (
    FORM_VOICE,
    DealFormDescription,
    DealRules,
    describe_deal_form,
    field_hints_shown,
    field_labels,
)
from scorekeeper.games.deal_problems import Problems
from scorekeeper.games.forms import COUNTER_TARGETS, STOCK_RAN_OUT, CounterKind, Counters, DealForm
from scorekeeper.games.kept_totals import kept_deal_prices
from scorekeeper.rules.entry import POINT_FIELDS
from scorekeeper.rules.phrases import first_meld_by_side, say
from scorekeeper.rules.validation import Report, partner_melds_before_going_out
from scorekeeper.rules.variants import Variant
from scorekeeper.store.games import Deal, Game
from scorekeeper.store.scores import game_variant, running_scores_before


@dataclass(frozen=True, slots=True)
class DealAt:
    """Deal ``number`` of a game, with the game's rules and their deal form."""

    game: Game
    variant: Variant
    description: DealFormDescription
    number: int

    @property
    def rules(self) -> DealRules:
        return self.description.deal(self.number)

    @property
    def concealed_possible(self) -> bool:
        """Whether a side at this game's table can go out concealed (the form asks it only
        then): not where a partner must have melded the hand away first."""
        table = self.variant.table_for(len(self.game.sides), self.game.players)
        return table is None or not partner_melds_before_going_out(self.variant, table)


def deal_at(game: Game, number: int) -> DealAt:
    """Deal ``number`` of ``game``; 404 past the game's last deal."""
    variant = game_variant(game)
    if number > variant.deals:
        abort(404)
    return DealAt(game, variant, describe_deal_form(variant), number)


def form_data(fields: Iterable[str], deal: Deal) -> dict[str, object]:
    """A stored deal as the deal form's data, for editing."""
    out = next((str(row.position) for row in deal.sides if row.went_out), None)
    return {
        "went_out": STOCK_RAN_OUT if deal.stock_ran_out else out,
        "went_out_concealed": any(row.went_out_concealed for row in deal.sides),
        "sides": [{name: getattr(row, name) for name in fields} for row in deal.sides],
    }


def render_deal_form(
    at: DealAt,
    form: DealForm,
    report: Report | None,
    editing: bool,
    version: int = 0,
    counting: str | None = None,
) -> str:
    """The deal form with what the rules say of this deal, and the problems of a submit;
    ``counting`` names the card counter to show open ("<side>-<meld|left>", from a side's
    counter button, where the page's script is not there to show it)."""
    description, rules, game = at.description, at.rules, at.game
    labels = field_labels(description, at.number)
    return render_template(
        "games/deal.html",
        game=game,
        variant=at.variant,
        number=at.number,
        form=form,
        names=game.side_names,
        fields=description.fields,
        labels=labels,
        hints=field_hints_shown(rules),
        limits=description.limits_at(len(game.sides), game.players),
        point_fields=POINT_FIELDS,
        counters=dict(description.counters),
        count_rows=_count_rows(description.counters, description.counter_labels),
        counter_targets=COUNTER_TARGETS,
        counter_used=_counter_used,
        first_meld=rules.first_meld,
        first_meld_by_side=_first_meld_by_side(at),
        first_meld_concealed=rules.first_meld_concealed,
        first_meld_book=rules.first_meld_book,
        going_out=say(rules.going_out, FORM_VOICE),
        going_out_books=rules.going_out_books,
        # Shown where the table can go out concealed, or where a deal says it did (refused).
        concealed_asked=form.concealed_asked
        and (at.concealed_possible or bool(form.went_out_concealed.data)),
        problems=Problems(form, report, description.fields, game.side_names, labels),
        confirming=bool(form.confirm.data),
        editing=editing,
        version=version,
        counting=counting,
        kept_prices=kept_deal_prices(at.variant, at.number),
    )


def _count_rows(
    counters: Counters, labels: Mapping[str, str]
) -> dict[str, list[tuple[str, Markup]]]:
    """Each card counter's rows, where -> (field name, label): the label (the card's name and
    its points each) worded once for every side's counter. The points of one card reach the
    page's script once, in the form's kept prices (``kept_totals``)."""
    return {
        where: [
            (
                kind.field_name(where),
                Markup('{} <span class="each">{}</span>').format(
                    labels[kind.kind], _("%(points)s each", points=kind.points)
                ),
            )
            for kind in kinds
        ]
        for where, kinds in counters
    }


def _counter_used(side_form: FormField[Form], kinds: Iterable[CounterKind], where: str) -> bool:
    """Whether any card kind was counted: the counter then stays open."""
    for kind in kinds:
        raw = side_form.form[kind.field_name(where)].raw_data
        if raw and raw[0].strip():
            return True
    return False


def _first_meld_by_side(at: DealAt) -> str | None:
    """Where the first meld follows the running score: each side's minimum, as a phrase."""
    if not at.rules.first_meld_by_score:
        return None
    scores = running_scores_before(at.game, at.variant, at.number)
    minimums = [at.variant.first_meld_for_score(at.number, score) for score in scores]
    return say(first_meld_by_side(at.game.side_names, minimums), FORM_VOICE)
