"""The meld checker's question and the demo game's choices."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Field, IntegerField, SelectField, SubmitField
from wtforms.validators import NumberRange, Optional, ValidationError

from scorekeeper.forms import PageForm, SelectChoice
from scorekeeper.forms import lazy_gettext as _l
from scorekeeper.rules.decks import STANDARD, Deck, get_deck
from scorekeeper.rules.variants import MAX_DEALS, UnknownVariant, Variant
from scorekeeper.store import catalogue
from scorekeeper.variant_texts import variant_text

ALL_WILD = "wild"
"""The rank choice for a meld of twos and jokers only."""
MOST_CARDS = 40
MOST_SEED = 2**31 - 1


def variant_choices() -> list[SelectChoice]:
    return [
        SelectChoice(variant.id, variant_text(variant.name)) for variant in catalogue.variants()
    ]


def rank_choices(deck: Deck = STANDARD) -> list[SelectChoice]:
    """The ranks a meld of `deck` may have: its natural ranks, its black threes, or none."""
    return [
        *(SelectChoice(rank) for rank in deck.rank_symbols),
        SelectChoice(deck.black_three_rank, str(_l("Black threes"))),
        SelectChoice(ALL_WILD, str(_l("Wild cards only"))),
    ]


def deal_choices() -> list[SelectChoice]:
    """Every deal any game may have; `MeldCheckForm.validate_deal` holds the rules' own."""
    return [SelectChoice(str(n)) for n in range(1, MAX_DEALS + 1)]


class MeldCheckForm(PageForm):
    """Asked by GET: it changes nothing, so it carries no CSRF token."""

    class Meta:
        csrf = False

    variant = SelectField(_l("Rules"), choices=variant_choices, default="pagat")
    deal = SelectField(
        _l("Deal"),
        choices=deal_choices,
        default="1",
    )
    rank = SelectField(_l("Rank"), choices=rank_choices, default="K")
    naturals = IntegerField(
        _l("Cards of the rank"), default=3, validators=[NumberRange(0, MOST_CARDS)]
    )
    twos = IntegerField(_l("Twos"), default=0, validators=[NumberRange(0, MOST_CARDS)])
    jokers = IntegerField(_l("Jokers"), default=0, validators=[NumberRange(0, MOST_CARDS)])
    first_meld = BooleanField(_l("This is our side's first meld of the deal"))

    def __init__(self, formdata: MultiDict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        self.rules = _known_variant(self.variant.data)
        """The rules chosen, looked up once (house rules are read from the database)."""
        self.deck = _deck_of(self.rules)
        deck = self.deck
        self.rank.choices = rank_choices(deck)
        if deck is not STANDARD:
            self.twos.label.text = _(deck.wilds[0].plural).capitalize()
            if not formdata or "rank" not in formdata:
                self.rank.data = deck.rank_symbols[1]  # the pack's own second rank

    def validate_deal(self, field: Field) -> None:
        if self.rules is None:
            return  # the rules field says so
        deals = self.rules.deals
        if int(field.data) > deals:
            raise ValidationError(
                _l(
                    "These rules play %(count)s deals: choose a deal from 1 to %(count)s.",
                    count=deals,
                )
            )

    def chosen_rank(self) -> str | None:
        """The rank as the chosen rules' deck writes it (None for an all-wild meld)."""
        if self.rank.data == ALL_WILD:
            return None
        return str(self.rank.data)

    def validate_rank(self, field: SelectField) -> None:
        """A rank the chosen rules' cards hold (a HANDnFOOT pack has no kings)."""
        deck = self.deck
        if field.data in (ALL_WILD, deck.black_three_rank, *deck.rank_symbols):
            return
        raise ValidationError(_("The cards of these rules have no rank %(rank)s.", rank=field.data))


def _known_variant(variant_id: str | None) -> Variant | None:
    try:
        return catalogue.find_variant(variant_id or "")
    except UnknownVariant:
        return None


def _deck_of(rules: Variant | None) -> Deck:
    """The cards of the rules chosen; standard decks while none is chosen."""
    try:
        return STANDARD if rules is None else get_deck(rules.deck)
    except ValueError:
        return STANDARD


class DemoForm(PageForm):
    variant = SelectField(_l("Rules"), choices=variant_choices, default="pagat")
    seed = IntegerField(
        _l("Seed (the same seed plays the same game)"),
        validators=[Optional(), NumberRange(0, MOST_SEED)],
    )
    play = SubmitField(_l("Play a demo game"))
