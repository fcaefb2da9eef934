"""One description of every rule parameter: the spec each layer reads.

Each `Param` says its key (``"book_bonus.wild"``, ``"first_meld.2"``...), the values it takes
(`Kind`, range, choices and each choice's words), its label and help, the group it sits in on
the house-rules form and the rules-page section that explains it. JSON reading and writing,
house-rules changes, the house-rules form, the handbook's comparison, the OpenAPI schema and
share links all read this module instead of listing parameters again.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any, TypeGuard

from .cards import BOOK_SIZE, CardKind
from .decks import DECKS
from .messages import N_, Phrase, Problem, Term
from .phrases import (
    Amount,
    Said,
    books_by_deal,
    first_meld_by_deal,
    pile_pickup_words,
    wild_discard_words,
    wild_limit_with_book,
)
from .variants import (
    BUILT_IN,
    EVERY_DEAL_FIELDS,
    MAX_DEALS,
    BookRole,
    ConcealedOpening,
    PilePickup,
    RankMelds,
    Variant,
    WildDiscard,
)

MAX_NAME = 60
MAX_TEXT = 500
MAX_ID = 64
MAX_POINTS = 100_000
MAX_SIDES = 12
MAX_PLAYERS = 12
MAX_DECKS = 16
MAX_TABLES = 16
MAX_PACKET = 30
MAX_DRAW = 10
MAX_TAKE = 20
MAX_BOOKS = 40
MAX_WILD_RATIO = 6
MOST_WILDS_CAP = 6
MAX_THRESHOLDS = 8
POINT_STEP = 5

SPECIAL_RANKS = tuple(dict.fromkeys(card.symbol for d in DECKS.values() for card in d.naturals))
"""Every natural rank of every deck: a special book's rank must also be one of the deck's."""

ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
VARIANT_FIELDS = ("deals", *(f.name for f in fields(Variant)))


class Kind(StrEnum):
    """What values a parameter takes."""

    CARD = "card"
    """A card's points: a multiple of 5, at least 5."""
    POINTS = "points"
    """Points that may be negative: a multiple of 5."""
    BONUS = "bonus"
    """A bonus, a minimum, or a card that may be worth nothing (a black three): a multiple
    of 5, not below 0."""
    OPTIONAL_CARD = "optional-card"
    """A card's points, or null where the card scores as the others of its kind."""
    OPTIONAL_BONUS = "optional-bonus"
    """A bonus, or null where the variant has no such thing (no wild books...)."""
    OPTIONAL_POINTS = "optional-points"
    """Points that may be negative, or null where the variant has no such thing."""
    COUNT = "count"
    """A whole number from `low` to `high`."""
    CHOICE = "choice"
    """One of `choices`."""
    FLAG = "flag"
    """True or false."""
    DEALS = "deals"
    """A list of deal numbers, each once."""
    TABLES = "tables"
    """A list of tables: sides, players and decks."""
    THRESHOLDS = "thresholds"
    """A list of running scores and the first meld each one needs, lowest score first."""
    SIZES = "sizes"
    """A whole number for each deal, from `low` to `high`, deal 1 first; an empty list: the
    same in every deal."""
    CARD_KINDS = "card-kinds"
    """A list of card kinds (`CardKind` values), each once."""
    RULE = "rule"
    """A rule that several parameters make together (the first meld deal by deal, the
    wild-card limit, the end of the stock): shown on the rules pages, set by its parts."""


class Group(StrEnum):
    """Where a parameter sits on the house-rules form."""

    GAME = "game"
    CARDS = "cards"
    BOOKS = "books"
    RED_THREES = "red-threes"
    BONUSES = "bonuses"
    FIRST_MELD = "first-meld"
    GOING_OUT = "going-out"
    MELDS = "melds"
    TABLE = "table"
    PILE = "pile"


GROUP_TERMS: Mapping[Group, Term] = {
    Group.GAME: Term(N_("Deals in a game")),
    Group.CARDS: Term(N_("Card values")),
    Group.BOOKS: Term(N_("Book bonuses")),
    Group.RED_THREES: Term(N_("Red threes")),
    Group.BONUSES: Term(N_("Going out and other bonuses")),
    Group.FIRST_MELD: Term(N_("Minimum first meld")),
    Group.GOING_OUT: Term(N_("Books needed to go out")),
    Group.MELDS: Term(N_("Melds and wild cards")),
    Group.TABLE: Term(N_("Players, decks and packets")),
    Group.PILE: Term(N_("The discard pile")),
}


SECTION_OF_FIELD: Mapping[str, str] = {
    "deals": "setup",
    "target_score": "setup",
    "tables": "setup",
    "deck": "setup",
    "hand_size": "setup",
    "foot_size": "setup",
    "hand_size_by_deal": "setup",
    "foot_size_by_deal": "setup",
    "stock_piles": "setup",
    "cut_for_packets": "setup",
    "first_discard_turned": "setup",
    "first_discard_buried": "setup",
    "card_points": "card-values",
    "book_bonus": "books",
    "red_three": "red-threes",
    "going_out_bonus": "going-out",
    "going_out_concealed_bonus": "going-out",
    "exact_22_bonus": "scoring",
    "failed_pickup_penalty": "scoring",
    "first_meld": "first-meld",
    "first_meld_by_score": "first-meld",
    "concealed_book_first_meld_deals": "first-meld",
    "concealed_opening": "first-meld",
    "book_first_meld_deals": "first-meld",
    "first_meld_waived_to_empty_hand": "first-meld",
    "going_out": "going-out",
    "must_discard_to_go_out": "going-out",
    "going_out_by_melding_only": "going-out",
    "going_out_needs_partner_in_foot": "going-out",
    "going_out_asks_partner": "going-out",
    "black_three_book_goes_out_as": "going-out",
    "special_book_goes_out_as": "going-out",
    "going_out_any_books": "going-out",
    "going_out_needs_special_book": "going-out",
    "players_may_run_out": "going-out",
    "max_meld_size": "melds",
    "max_dirty_meld_size": "melds",
    "rank_melds": "melds",
    "wild_limit": "wilds",
    "wild_discard": "wilds",
    "pile_pickup": "turn",
    "pile_take_by_deal": "turn",
    "draw_count_by_deal": "turn",
    "black_three_pair_takes_pile": "threes",
    "stock_end": "end-of-deal",
}
"""The rules-page section (its anchor) that explains each field of a variant, and each rule
that several fields make (`SHOWN_RULES`)."""


@dataclass(frozen=True, slots=True)
class Param:
    """One rule parameter: what a variant, a house-rules change and every page say of it."""

    key: str
    group: Group
    kind: Kind
    label: Term | Phrase
    low: int = 0
    high: int = 0
    choices: tuple[Any, ...] = ()
    """The values a `Kind.CHOICE` parameter takes (JSON-ready)."""
    choice_words: tuple[Term, ...] = ()
    """The words for each of `choices`, in the same order (none: the value itself)."""
    empty_words: Term = Term(N_("none"))
    """The words for an optional parameter left empty (null)."""
    deal: int | None = None
    """The deal a per-deal parameter is about."""
    help: Term | None = None
    """A hint shown beside the field on the form, and the API's description."""
    ranks_of_deck: bool = False
    """Each choice is a natural rank of some deck: a form offers only the chosen deck's."""
    optional_in_whole: bool = False
    """A whole variant's JSON may leave it out (files written before it existed): it then
    has the partnership game's value."""
    empty_shown: bool = False
    """The rules pages say `empty_words` for an empty value, where others show a dash."""
    signed: bool = False
    """The pages show its sign (+100, −500): a bonus or a penalty, per deal where it varies."""
    against: bool = False
    """Points that count against the side: the pages show them negative (−5)."""
    worded: Callable[[Any], Said] | None = None
    """How the rules pages word its value (`value_in`), where its kind and `choice_words` do
    not: a phrase of the rules core (``rules.phrases``) the pages render in their own voice.
    For a rule that several fields make (the books to go out, deal by deal) or a choice worded
    with the numbers it holds (the top seven cards). The pages still say an empty value
    (`empty_words`) and a moot rule (`moot_words`) themselves."""
    shown_value: Callable[[Variant], Any] | None = None
    """What the rules pages show, where it is not the variant's own value: a rule that is moot
    in some variants, or one that several fields make."""
    shown_when: Callable[[Variant], bool] | None = None
    """Where the rule applies: elsewhere it is moot and the rules pages show a dash, or
    `moot_words` (its value still tells variants apart)."""
    moot_words: Term | None = None
    """What the rules pages say where the rule is moot (`shown_when`); none: a dash."""
    shown_inferred: Callable[[Variant], bool] | None = None
    """Whether the shown value is a default a table may change, where the fields do not say."""

    @property
    def field(self) -> str:
        """The top-level `Variant` field this parameter is part of."""
        return self.key.split(".")[0]

    @property
    def every_deal(self) -> bool:
        """Sets its field's value in every deal at once: the parameter of a whole per-deal
        field that variant JSON may give as one number (``going_out_bonus``, declared so by
        the `Variant` field's metadata, `ONE_FOR_EVERY_DEAL`); the per-deal parameters
        (``going_out_bonus.2``) then change single deals."""
        return self.key in EVERY_DEAL_FIELDS

    @property
    def section(self) -> str | None:
        """The rules-page section that explains this parameter."""
        return SECTION_OF_FIELD.get(self.field)

    def value_in(self, variant: Variant) -> Any:
        """Its value in a variant as the rules pages show it (an enum, a record...)."""
        if self.shown_value is not None:
            return self.shown_value(variant)
        value = getattr(variant, self.field)
        part = self.key.partition(".")[2]
        return getattr(value, part) if part else value

    def is_inferred_in(self, variant: Variant) -> bool:
        """Whether its shown value is a default a table may change; never an empty value,
        which states no value at all."""
        if self.shown_inferred is not None:
            return self.shown_inferred(variant)
        return self.value_in(variant) is not None and variant.is_inferred(self.field)

    def words_for(self, value: Any) -> Term:
        """The words for one of this parameter's choices (as stored, or as a variant's enum)."""
        if isinstance(value, Enum):
            value = value.value
        for choice, words in zip(self.choices, self.choice_words, strict=False):
            if same_value(value, choice):
                return words
        return Term("none" if value is None else str(value))

    def description(self) -> str:
        """The label and help in English: the API's description of this parameter."""
        label = self.label.render(str) if isinstance(self.label, Phrase) else str(self.label)
        return f"{label}. {self.help}" if self.help else f"{label}."

    def built_in_values(self) -> dict[str, Any]:
        """Its value (JSON-ready) in each built-in variant, by variant id."""
        return {
            variant.id: param_value(variant, self.key)
            for variant in BUILT_IN.values()
            if (self.deal or 0) <= variant.deals
        }


def pair_of_black_threes_takes_pile(variant: Variant) -> bool:
    """Whether a pair of black threes may take a black three on top of the pile.

    Only where black threes are melded can a three on top be taken at all; elsewhere the
    field's value is moot and the answer is no.
    """
    return variant.black_three_books and variant.black_three_pair_takes_pile


def needs_concealed_book(variant: Variant) -> bool:
    """Whether the first meld of some deal needs a concealed book."""
    return bool(variant.concealed_book_first_meld_deals)


def takes_top_of_pile(variant: Variant) -> bool:
    """Whether a pickup takes the top cards of the discard pile, not the whole pile."""
    return variant.pile_pickup is not PilePickup.WHOLE_PILE


def pays_going_out_concealed(variant: Variant) -> bool:
    """Whether going out concealed earns a bonus of its own (elsewhere the rule is moot)."""
    return variant.going_out_concealed_bonus > 0


def black_threes_melded(variant: Variant) -> bool:
    return variant.black_three_books


def has_special_books(variant: Variant) -> bool:
    """Whether the variant has special books (a rank whose clean books earn their own bonus)."""
    return variant.book_bonus.special_rank is not None


def needs_books_of_any_kind(variant: Variant) -> bool:
    return variant.going_out_any_books > 0


def _book_roles(*roles: BookRole) -> dict[str, Any]:
    """The choices of what a book counts as toward going out, with their words."""
    words = {
        BookRole.CLEAN: Term(N_("a clean book")),
        BookRole.DIRTY: Term(N_("a dirty book")),
        BookRole.NONE: Term(N_("neither: only as a book of any kind")),
    }
    return _choose(*((role.value, words[role]) for role in roles))


def first_discard_turned(variant: Variant) -> bool:
    return variant.first_discard_turned


def frozen_piles_return(variant: Variant) -> bool:
    """Whether piles set aside by a wild discard go back under a stock that runs short."""
    return variant.wild_discard is WildDiscard.FREEZES_PILE


def silent_source(variant: Variant) -> bool:
    """Whether the variant's source says nothing of who deals, who starts and the stock's end.

    Where each player cuts their own packets (Simpson's game and Brouillette's variations),
    the source describes no dealer and no end of the stock: the pages fill those in from the
    partnership game, as defaults a table may change.
    """
    return variant.cut_for_packets


def stock_end_is_default(variant: Variant) -> bool:
    """Whether the end of the stock is a default filled in from the partnership game."""
    return silent_source(variant) and not frozen_piles_return(variant)


def _choose(*pairs: tuple[Any, Term]) -> dict[str, Any]:
    """A choice parameter's values and their words, as `Param` keyword arguments."""
    return {
        "choices": tuple(value for value, _ in pairs),
        "choice_words": tuple(words for _, words in pairs),
    }


def choice_term(key: str, value: Any) -> Term:
    """The words for one choice of a parameter."""
    return PARAM_BY_KEY[key].words_for(value) if key in PARAM_BY_KEY else Term(str(value))


def _deal_params() -> Iterator[Param]:
    for deal in range(1, MAX_DEALS + 1):
        yield Param(
            f"going_out_bonus.{deal}",
            Group.BONUSES,
            Kind.BONUS,
            Phrase(N_("Going-out bonus, deal {deal}"), {"deal": deal}),
            deal=deal,
        )
    for deal in range(1, MAX_DEALS + 1):
        yield Param(
            f"first_meld.{deal}",
            Group.FIRST_MELD,
            Kind.BONUS,
            Phrase(N_("Minimum first meld, deal {deal}"), {"deal": deal}),
            deal=deal,
        )
    for deal in range(1, MAX_DEALS + 1):
        labels = {
            "clean": Phrase(N_("Clean books to go out, deal {deal}"), {"deal": deal}),
            "dirty": Phrase(N_("Dirty books to go out, deal {deal}"), {"deal": deal}),
            "wild": Phrase(N_("Wild books to go out, deal {deal}"), {"deal": deal}),
        }
        for kind, label in labels.items():
            yield Param(
                f"going_out.{deal}.{kind}",
                Group.GOING_OUT,
                Kind.COUNT,
                label,
                high=MAX_BOOKS,
                deal=deal,
            )


PARAMS: tuple[Param, ...] = (
    Param(
        "deals",
        Group.GAME,
        Kind.COUNT,
        Term(N_("Deals in a game")),
        low=1,
        high=MAX_DEALS,
        help=Term(
            N_(
                "A deal added takes the last deal's first meld, books and bonus until "
                "you change them."
            )
        ),
    ),
    Param(
        "target_score",
        Group.GAME,
        Kind.OPTIONAL_BONUS,
        Term(N_("Target score")),
        help=Term(
            N_(
                "Empty: the game is its number of deals. With a target, the game ends after "
                "the deal in which a side reaches it, or after the last deal above at the "
                "latest."
            )
        ),
        empty_words=Term(N_("none: the game is its number of deals")),
        empty_shown=True,
        optional_in_whole=True,
    ),
    Param("card_points.joker", Group.CARDS, Kind.CARD, Term(N_("Points of a joker"))),
    Param("card_points.two", Group.CARDS, Kind.CARD, Term(N_("Points of a two"))),
    Param("card_points.ace", Group.CARDS, Kind.CARD, Term(N_("Points of an ace"))),
    Param(
        "card_points.high", Group.CARDS, Kind.CARD, Term(N_("Points of a king down to an eight"))
    ),
    Param("card_points.low", Group.CARDS, Kind.CARD, Term(N_("Points of a seven down to a four"))),
    Param(
        "card_points.nine",
        Group.CARDS,
        Kind.OPTIONAL_CARD,
        Term(N_("Points of a nine")),
        help=Term(N_("Empty: a nine is worth what a king is worth.")),
        empty_words=Term(N_("as a king")),
        empty_shown=True,
        optional_in_whole=True,
    ),
    Param(
        "card_points.eight",
        Group.CARDS,
        Kind.OPTIONAL_CARD,
        Term(N_("Points of an eight")),
        help=Term(N_("Empty: an eight is worth what a king is worth.")),
        empty_words=Term(N_("as a king")),
        empty_shown=True,
        optional_in_whole=True,
    ),
    Param(
        "card_points.black_three",
        Group.CARDS,
        Kind.BONUS,
        Term(N_("Points of a black three left in hand or foot")),
        help=Term(N_("0 where black threes cost nothing.")),
        against=True,
    ),
    Param(
        "card_points.black_three_melded",
        Group.CARDS,
        Kind.POINTS,
        Term(N_("Points of a black three in a black-three book")),
        help=Term(N_("Negative where melded black threes still count against the side.")),
        shown_when=black_threes_melded,
    ),
    Param("book_bonus.clean", Group.BOOKS, Kind.BONUS, Term(N_("Clean book bonus"))),
    Param("book_bonus.dirty", Group.BOOKS, Kind.BONUS, Term(N_("Dirty book bonus"))),
    Param(
        "book_bonus.wild",
        Group.BOOKS,
        Kind.OPTIONAL_BONUS,
        Term(N_("Wild book bonus")),
        help=Term(N_("Empty: wild books are not allowed.")),
        empty_words=Term(N_("not allowed")),
    ),
    Param(
        "book_bonus.black_three",
        Group.BOOKS,
        Kind.OPTIONAL_BONUS,
        Term(N_("Black-three book bonus")),
        help=Term(N_("Empty: black-three books are not allowed.")),
        empty_words=Term(N_("not allowed")),
    ),
    Param(
        "book_bonus.special_rank",
        Group.BOOKS,
        Kind.CHOICE,
        Term(N_("Rank of the special book")),
        **_choose((None, Term(N_("none"))), *((rank, Term(rank)) for rank in SPECIAL_RANKS)),
        help=Term(N_("Empty: no special book. A special book is always clean.")),
        ranks_of_deck=True,
    ),
    Param(
        "book_bonus.special",
        Group.BOOKS,
        Kind.OPTIONAL_BONUS,
        Term(N_("Special book bonus")),
        help=Term(N_("Instead of the clean book bonus, for a clean book of that rank.")),
        empty_words=Term(N_("not allowed")),
    ),
    Param(
        "book_bonus.red_three",
        Group.BOOKS,
        Kind.OPTIONAL_BONUS,
        Term(N_("Red-three book bonus")),
        help=Term(N_("Empty: red threes never make a book.")),
        empty_words=Term(N_("not allowed")),
    ),
    Param(
        "book_bonus.lady",
        Group.BOOKS,
        Kind.OPTIONAL_BONUS,
        Term(N_("Bonus for each red three added to a clean book")),
        help=Term(
            N_(
                "Only with a deck whose red threes may join a book (the HANDnFOOT "
                "pack's ladies); empty: no bonus. Choosing such a deck sets the deck's "
                "own value."
            )
        ),
        empty_words=Term(N_("not allowed")),
        optional_in_whole=True,
    ),
    Param(
        "red_three.down",
        Group.RED_THREES,
        Kind.OPTIONAL_POINTS,
        Term(N_("Each red three laid down")),
        help=Term(
            N_(
                "Plus and minus: 100 here and -100 below. Empty: red threes are never "
                "laid down, they are discarded, and each one still held costs the value "
                "below."
            )
        ),
        empty_words=Term(N_("never laid down")),
        empty_shown=True,
        signed=True,
    ),
    Param(
        "red_three.down_not_out",
        Group.RED_THREES,
        Kind.OPTIONAL_POINTS,
        Term(N_("Each red three laid down by a side that did not go out")),
        help=Term(N_("Empty: the same as for a side that went out.")),
        empty_words=Term(N_("as for a side that went out")),
        empty_shown=True,
        signed=True,
    ),
    Param(
        "red_three.held",
        Group.RED_THREES,
        Kind.POINTS,
        Term(N_("Each red three still in hand or foot")),
        signed=True,
    ),
    Param(
        "going_out_bonus",
        Group.BONUSES,
        Kind.BONUS,
        Term(N_("Going-out bonus")),
        help=Term(N_("Sets every deal; change a single deal below.")),
        signed=True,
    ),
    Param(
        "going_out_concealed_bonus",
        Group.BONUSES,
        Kind.BONUS,
        Term(N_("Extra bonus for going out concealed")),
        help=Term(N_("For a side that goes out with no meld on the table before.")),
        optional_in_whole=True,
        signed=True,
        shown_when=pays_going_out_concealed,
    ),
    Param(
        "exact_22_bonus",
        Group.BONUSES,
        Kind.OPTIONAL_BONUS,
        Term(N_("Bonus for cutting exactly the cards of a hand and foot")),
        help=Term(N_("Empty: no such bonus. Needs players who cut their own cards.")),
        signed=True,
    ),
    Param(
        "failed_pickup_penalty",
        Group.BONUSES,
        Kind.OPTIONAL_BONUS,
        Term(N_("Penalty for a failed pickup of the discard pile")),
        help=Term(
            N_(
                "Empty: no such penalty. Points a side loses each time a player takes the "
                "discard pile, cannot meld its top card as the rules ask and puts the cards back."
            )
        ),
        against=True,
        optional_in_whole=True,
    ),
    *_deal_params(),
    Param(
        "first_meld_by_score",
        Group.FIRST_MELD,
        Kind.THRESHOLDS,
        Term(N_("Minimum first meld by running score")),
        help=Term(N_("Empty: by deal, as above.")),
        optional_in_whole=True,
    ),
    Param(
        "concealed_book_first_meld_deals",
        Group.FIRST_MELD,
        Kind.DEALS,
        Term(N_("Deals whose first meld needs a concealed book")),
    ),
    Param(
        "concealed_opening",
        Group.FIRST_MELD,
        Kind.CHOICE,
        Term(N_("A first meld that needs a concealed book")),
        **_choose(
            (
                ConcealedOpening.INSTEAD_OF_POINTS.value,
                Term(N_("a concealed book instead of the minimum points")),
            ),
            (
                ConcealedOpening.WITH_POINTS.value,
                Term(N_("a concealed book and the minimum points")),
            ),
        ),
        optional_in_whole=True,
        shown_when=needs_concealed_book,
    ),
    Param(
        "book_first_meld_deals",
        Group.FIRST_MELD,
        Kind.DEALS,
        Term(N_("Deals whose first meld needs a book")),
        help=Term(
            N_(
                "Any book: made in the hand or with the discard pile. The minimum points "
                "still apply."
            )
        ),
        optional_in_whole=True,
    ),
    Param(
        "first_meld_waived_to_empty_hand",
        Group.FIRST_MELD,
        Kind.FLAG,
        Term(N_("A first meld that empties the hand needs no minimum")),
    ),
    Param(
        "must_discard_to_go_out",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("A player must end on a discard to go out")),
    ),
    Param(
        "going_out_by_melding_only",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("A player goes out only by melding the last card, never on a discard")),
    ),
    Param(
        "going_out_needs_partner_in_foot",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("A partner must have reached the foot before going out")),
    ),
    Param(
        "going_out_asks_partner",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("Ask the partner before going out")),
    ),
    Param(
        "black_three_book_goes_out_as",
        Group.GOING_OUT,
        Kind.CHOICE,
        Term(N_("Toward going out, a black-three book counts as")),
        **_book_roles(BookRole.CLEAN, BookRole.DIRTY, BookRole.NONE),
        optional_in_whole=True,
        shown_when=black_threes_melded,
    ),
    Param(
        "special_book_goes_out_as",
        Group.GOING_OUT,
        Kind.CHOICE,
        Term(N_("Toward going out, a special book counts as")),
        **_book_roles(BookRole.CLEAN, BookRole.DIRTY, BookRole.NONE),
        optional_in_whole=True,
        shown_when=has_special_books,
    ),
    Param(
        "going_out_any_books",
        Group.GOING_OUT,
        Kind.COUNT,
        Term(N_("Books of any kind to go out")),
        high=MAX_BOOKS,
        help=Term(
            N_(
                "In every deal, besides the books of each kind above; every book counts "
                "but a red-three book. 0: no such rule."
            )
        ),
        optional_in_whole=True,
        shown_when=needs_books_of_any_kind,
    ),
    Param(
        "going_out_needs_special_book",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("A special book is needed to go out")),
        help=Term(N_("Needs a rank of the special book.")),
        optional_in_whole=True,
        shown_when=has_special_books,
    ),
    Param(
        "players_may_run_out",
        Group.GOING_OUT,
        Kind.FLAG,
        Term(N_("A player may run out of cards without going out")),
        help=Term(
            N_(
                "The player then waits for the end of the deal, so a side that did not go "
                "out may end with no cards left."
            )
        ),
        optional_in_whole=True,
    ),
    Param(
        "max_meld_size",
        Group.MELDS,
        Kind.CHOICE,
        Term(N_("Largest meld")),
        **_choose(
            (BOOK_SIZE, Term(N_("7 cards: a book is exactly seven"))),
            (None, Term(N_("no limit: a book is seven or more"))),
        ),
        empty_words=Term(N_("no limit")),
        empty_shown=True,
        worded=Amount,
    ),
    Param(
        "max_dirty_meld_size",
        Group.MELDS,
        Kind.CHOICE,
        Term(N_("Largest meld with a wild card")),
        **_choose(
            (None, Term(N_("as any meld"))),
            (BOOK_SIZE, Term(N_("7 cards: a dirty book is closed at seven"))),
        ),
        help=Term(
            N_("Some tables let a clean book grow past seven cards but close a dirty one at seven.")
        ),
        empty_words=Term(N_("as any meld")),
        empty_shown=True,
        worded=Amount,
    ),
    Param(
        "wild_limit.per_wild",
        Group.MELDS,
        Kind.COUNT,
        Term(N_("Natural cards per wild card in a meld")),
        low=1,
        high=MAX_WILD_RATIO,
    ),
    Param(
        "wild_limit.extra",
        Group.MELDS,
        Kind.COUNT,
        Term(N_("Natural cards beyond that ratio")),
        help=Term(
            N_(
                "A meld needs at least (natural cards per wild card × wild cards) + this "
                "many natural cards."
            )
        ),
        high=MAX_WILD_RATIO,
    ),
    Param(
        "wild_limit.most",
        Group.MELDS,
        Kind.CHOICE,
        Term(N_("Most wild cards in a dirty meld")),
        **_choose(
            (None, Term(N_("as many as the natural cards allow"))),
            *((count, Term(str(count))) for count in range(1, MOST_WILDS_CAP + 1)),
        ),
        empty_words=Term(N_("as many as the natural cards allow")),
        empty_shown=True,
        worded=Amount,
    ),
    Param(
        "rank_melds",
        Group.MELDS,
        Kind.CHOICE,
        Term(N_("Melds of one rank")),
        **_choose(
            (RankMelds.ONE_UNFINISHED.value, Term(N_("one unfinished meld of a rank at a time"))),
            (RankMelds.ONE.value, Term(N_("never two melds of one rank"))),
        ),
    ),
    Param("tables", Group.TABLE, Kind.TABLES, Term(N_("Players and decks"))),
    Param(
        "deck",
        Group.TABLE,
        Kind.CHOICE,
        Term(N_("Cards")),
        **_choose(
            ("standard", Term(N_("standard decks of 54 cards"))),
            ("handnfoot", Term(N_("the special HANDnFOOT deck of 262 cards"))),
        ),
        optional_in_whole=True,
    ),
    Param(
        "hand_size",
        Group.TABLE,
        Kind.COUNT,
        Term(N_("Cards in the hand")),
        low=1,
        high=MAX_PACKET,
    ),
    Param(
        "foot_size",
        Group.TABLE,
        Kind.COUNT,
        Term(N_("Cards in the foot")),
        low=1,
        high=MAX_PACKET,
    ),
    Param(
        "hand_size_by_deal",
        Group.TABLE,
        Kind.SIZES,
        Term(N_("Cards in the hand, deal by deal")),
        low=1,
        high=MAX_PACKET,
        help=Term(N_("Empty: the same in every deal, as above.")),
        optional_in_whole=True,
    ),
    Param(
        "foot_size_by_deal",
        Group.TABLE,
        Kind.SIZES,
        Term(N_("Cards in the foot, deal by deal")),
        low=1,
        high=MAX_PACKET,
        help=Term(N_("Empty: the same in every deal, as above.")),
        optional_in_whole=True,
    ),
    Param(
        "stock_piles",
        Group.TABLE,
        Kind.CHOICE,
        Term(N_("Stock piles")),
        **_choose((1, Term(N_("one"))), (2, Term(N_("two")))),
    ),
    Param(
        "draw_count_by_deal",
        Group.TABLE,
        Kind.SIZES,
        Term(N_("Cards drawn from the stock each turn, deal by deal")),
        low=1,
        high=MAX_DRAW,
        help=Term(N_("Empty: two in every deal.")),
        optional_in_whole=True,
    ),
    Param(
        "cut_for_packets",
        Group.TABLE,
        Kind.FLAG,
        Term(N_("Players cut the cards of their own hand and foot")),
    ),
    Param(
        "pile_pickup",
        Group.PILE,
        Kind.CHOICE,
        Term(N_("Taking the discard pile")),
        **_choose(
            (PilePickup.TOP_SEVEN.value, Term(N_("the top seven cards, or all if fewer"))),
            (
                PilePickup.TOP_SEVEN_FROM_FULL.value,
                Term(N_("the top seven, only from a pile of seven or more")),
            ),
            (PilePickup.WHOLE_PILE.value, Term(N_("the whole pile"))),
        ),
        worded=pile_pickup_words,
    ),
    Param(
        "pile_take_by_deal",
        Group.PILE,
        Kind.SIZES,
        Term(N_("Cards taken from the top of the discard pile, deal by deal")),
        low=1,
        high=MAX_TAKE,
        help=Term(N_("Empty: seven in every deal. Ignored where the whole pile is taken.")),
        optional_in_whole=True,
        shown_when=takes_top_of_pile,
    ),
    Param(
        "wild_discard",
        Group.PILE,
        Kind.CHOICE,
        Term(N_("After a wild card is discarded")),
        **_choose(
            (
                WildDiscard.NEEDS_MATCHING_WILDS.value,
                Term(N_("the pile needs two matching wild cards")),
            ),
            (WildDiscard.NEVER_TAKEN.value, Term(N_("the pile cannot be taken"))),
            (WildDiscard.FREEZES_PILE.value, Term(N_("the pile is frozen"))),
        ),
        worded=wild_discard_words,
    ),
    Param(
        "black_three_pair_takes_pile",
        Group.PILE,
        Kind.FLAG,
        Term(N_("A pair of black threes may take the pile")),
        shown_value=pair_of_black_threes_takes_pile,
        shown_when=black_threes_melded,
        moot_words=Term(N_("no: a three on top is never taken")),
    ),
    Param(
        "first_discard_turned",
        Group.PILE,
        Kind.FLAG,
        Term(N_("A card from the stock starts the discard pile")),
        help=Term(N_("Off: the pile starts empty.")),
        optional_in_whole=True,
    ),
    Param(
        "first_discard_buried",
        Group.PILE,
        Kind.CARD_KINDS,
        Term(N_("Buried if turned up to start the pile")),
        optional_in_whole=True,
        shown_when=first_discard_turned,
    ),
)

PARAM_BY_KEY: Mapping[str, Param] = {param.key: param for param in PARAMS}
assert {param.key for param in PARAMS if param.every_deal} == set(EVERY_DEAL_FIELDS), (
    "a per-deal field that variant JSON may give as one number has a parameter of its own"
)


def sets_every_deal(key: str) -> bool:
    """Whether the parameter of `key` sets its field in every deal at once (`Param.every_deal`):
    variant JSON may then give it as one number."""
    param = PARAM_BY_KEY.get(key)
    return param is not None and param.every_deal


SHOWN_BY_PART = frozenset({"card_points", "book_bonus", "red_three"})
"""Fields whose parameters the rules pages show one row each; any other field is one row."""


def params_for(deals: int) -> tuple[Param, ...]:
    """The parameters of a game of `deals` deals: per-deal ones up to its last deal."""
    return tuple(param for param in PARAMS if param.deal is None or param.deal <= deals)


META_TERMS: Mapping[str, Term] = {
    "id": Term(N_("id")),
    "name": Term(N_("name")),
    "summary": Term(N_("summary")),
    "source": Term(N_("source")),
    "inferred": Term(N_("inferred")),
    "based_on": Term(N_("based on")),
    "changes": Term(N_("changes")),
    "format": Term(N_("format")),
    "version": Term(N_("version")),
    "variant": Term(N_("variant")),
}


FIELD_TERMS: Mapping[str, Term] = {
    "card_points": Term(N_("Card values")),
    "book_bonus": Term(N_("Book bonuses")),
    "red_three": Term(N_("Red threes")),
    "first_meld": Term(N_("Minimum first meld, deal by deal")),
    "going_out": Term(N_("Books needed to go out, deal by deal")),
    "going_out_bonus": Term(N_("Going-out bonus")),
    "wild_limit": Term(N_("Wild cards allowed in a meld")),
}
"""The words for a field that several parameters make up, said as one rule."""

WHOLE_RULES: Mapping[str, Param] = {
    param.key: param
    for param in (
        Param(
            "first_meld",
            Group.FIRST_MELD,
            Kind.RULE,
            FIELD_TERMS["first_meld"],
            worded=first_meld_by_deal,
        ),
        Param(
            "going_out", Group.GOING_OUT, Kind.RULE, FIELD_TERMS["going_out"], worded=books_by_deal
        ),
        Param(
            "wild_limit",
            Group.MELDS,
            Kind.RULE,
            FIELD_TERMS["wild_limit"],
            worded=wild_limit_with_book,
        ),
    )
}
"""The fields whose parameters the rules pages say as one rule, by field."""

STOCK_END = Param(
    "stock_end",
    Group.PILE,
    Kind.RULE,
    Term(N_("When the stock runs out")),
    shown_value=frozen_piles_return,
    shown_inferred=stock_end_is_default,
    **_choose(
        (True, Term(N_("the frozen piles are shuffled and put under it, and play goes on"))),
        (False, Term(N_("the deal ends, and nobody scores the going-out bonus"))),
    ),
)
"""What happens when the stock runs out: a rule the wild discard decides."""


def shown_params() -> Iterator[Param]:
    """Every rule as the rules pages show it, one row each, in the spec's order: the parts of
    a record one row each, a per-deal field or the wild-card limit one row, then the rules
    that several fields make."""
    rows: dict[str, Param] = {}
    for param in PARAMS:
        row = param
        if param.field not in SHOWN_BY_PART and param.key != param.field:
            row = PARAM_BY_KEY.get(param.field) or WHOLE_RULES[param.field]
        rows.setdefault(row.key, row)
    yield from rows.values()
    yield STOCK_END


def field_description(name: str) -> str:
    """A field of a whole variant in English, for the API: its words and its parameters."""
    keys = [param.key for param in PARAMS if param.field == name and param.key != name]
    parts = sorted({key.split(".")[-1] for key in keys if not key.split(".")[-1].isdigit()})
    said = str(FIELD_TERMS.get(name, label_of(name)))
    if name in PER_DEAL_FIELDS:
        return f"{said}: one value for each deal, deal 1 first."
    return f"{said}: {', '.join(parts)}." if parts else f"{said}."


def label_of(key: str) -> Term | Phrase:
    """The words for a parameter or a variant's own field, by key."""
    param = PARAM_BY_KEY.get(key)
    if param is not None:
        return param.label
    return FIELD_TERMS.get(key) or META_TERMS.get(key, Term(key))


class VariantRejected(ValueError):
    """A variant that cannot be read or cannot be played; `problems` names every field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)


def problem_at(key: str | None, template: str, /, **params: object) -> Problem:
    return Problem(None, key, template, params)


def field_problem(key: str, template: str, /, **params: object) -> Problem:
    """A problem about `key`, whose words fill the message's ``{field}``."""
    return Problem(None, key, template, {"field": label_of(key), **params})


# --- reading and writing a parameter in a variant's JSON-ready data --------------------------


def _step(node: Any, part: str) -> Any:
    return node[int(part) - 1] if part.isdigit() else node[part]


def value_at(data: Mapping[str, Any], key: str) -> Any:
    """A parameter's value in `Variant.to_dict()` data (deal numbers count from 1).

    A parameter that sets every deal has the deals' common value, or None where they differ.
    """
    param = PARAM_BY_KEY.get(key)
    if param is not None and param.every_deal:
        values = data[key]
        return values[0] if all(value == values[0] for value in values) else None
    node: Any = data
    for part in key.split("."):
        node = _step(node, part)
    return node


PER_DEAL_FIELDS = ("first_meld", "going_out", "going_out_bonus")
SIZES_BY_DEAL = (
    "hand_size_by_deal",
    "foot_size_by_deal",
    "draw_count_by_deal",
    "pile_take_by_deal",
)
"""Per-deal fields that may also be empty (the same value in every deal)."""


def set_deals(data: dict[str, Any], deals: int) -> None:
    """A game of `deals` deals: a deal added takes the last deal's values."""
    for name in PER_DEAL_FIELDS:
        values = data[name]
        data[name] = [copy.deepcopy(values[min(i, len(values) - 1)]) for i in range(deals)]
    for name in SIZES_BY_DEAL:
        sizes = data.get(name) or []
        data[name] = [sizes[min(i, len(sizes) - 1)] for i in range(deals)] if sizes else []
    for name in ("concealed_book_first_meld_deals", "book_first_meld_deals"):
        if name in data:
            data[name] = [deal for deal in data[name] if deal <= deals]
    data["deals"] = deals


def every_deal_values(variant: Variant) -> dict[str, Any]:
    """A variant's `to_dict()` data with a value for every deal a game may have: a deal past
    its last one has the last deal's values, as a deal added would. ``deals`` is unchanged."""
    data = variant.to_dict()
    set_deals(data, MAX_DEALS)
    data["deals"] = variant.deals
    return data


def _set_deck(data: dict[str, Any], deck_id: Any) -> None:
    """A deck chosen brings its own bonus for a red three added to a clean book (none for a
    deck whose red threes never join a book); a table's own value is applied after it."""
    data["deck"] = deck_id
    if deck_id in DECKS:
        data["book_bonus"]["lady"] = DECKS[deck_id].red_three_book_bonus


def set_at(data: dict[str, Any], key: str, value: Any) -> None:
    if key == "deals":
        set_deals(data, value)
        return
    if key == "deck":
        _set_deck(data, value)
        return
    param = PARAM_BY_KEY.get(key)
    if param is not None and param.every_deal:
        data[key] = [value] * len(data[key])
        return
    *path, last = key.split(".")
    node: Any = data
    for part in path:
        node = _step(node, part)
    if last.isdigit():
        node[int(last) - 1] = value
    else:
        node[last] = value


def param_value(variant: Variant, key: str) -> Any:
    """A parameter's value in a variant, JSON-ready (tables as a list of objects)."""
    return value_at(variant.to_dict(), key)


# --- one value against its parameter's kind ---------------------------------------------------


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def same_value(value: object, choice: object) -> bool:
    return type(value) is type(choice) and value == choice


def check_value(param: Param, value: object) -> list[Problem]:
    """Problems with one value for `param`: its type, its range, multiples of 5."""
    key = param.key
    kind = param.kind
    if kind is Kind.OPTIONAL_BONUS:
        return [] if value is None else check_value(_as_kind(param, Kind.BONUS), value)
    if kind is Kind.OPTIONAL_POINTS:
        return [] if value is None else check_value(_as_kind(param, Kind.POINTS), value)
    if kind is Kind.OPTIONAL_CARD:
        return [] if value is None else check_value(_as_kind(param, Kind.CARD), value)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS):
        return _check_points(param, value)
    if kind is Kind.COUNT:
        if not is_int(value):
            return [field_problem(key, N_("{field} must be a whole number."))]
        if not param.low <= value <= param.high:
            return [
                field_problem(
                    key,
                    N_("{field} must be from {low} to {high} (entered {value})."),
                    low=param.low,
                    high=param.high,
                    value=value,
                )
            ]
        return []
    if kind is Kind.CHOICE:
        if any(same_value(value, choice) for choice in param.choices):
            return []
        allowed = ", ".join("none" if c is None else str(c) for c in param.choices)
        return [
            field_problem(
                key,
                N_("{field} must be one of {allowed} (entered {value})."),
                allowed=allowed,
                value=quoted(value),
            )
        ]
    if kind is Kind.FLAG:
        if isinstance(value, bool):
            return []
        return [field_problem(key, N_("{field} must be true or false."))]
    if kind is Kind.DEALS:
        return _check_deals(param, value)
    if kind is Kind.THRESHOLDS:
        return _check_thresholds(param, value)
    if kind is Kind.CARD_KINDS:
        return _check_card_kinds(param, value)
    if kind is Kind.SIZES:
        return _check_sizes(param, value)
    return _check_tables_shape(param, value)


def has_type(param: Param, value: object) -> bool:
    """Whether `value` is of the type `param` takes (its range aside)."""
    kind = param.kind
    if kind in (Kind.OPTIONAL_BONUS, Kind.OPTIONAL_POINTS, Kind.OPTIONAL_CARD):
        return value is None or is_int(value)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS, Kind.COUNT):
        return is_int(value)
    if kind is Kind.FLAG:
        return isinstance(value, bool)
    if kind is Kind.THRESHOLDS:
        return not _check_thresholds(param, value)
    return (
        not check_value(param, value)
        if kind is not Kind.TABLES
        else (not _check_tables_shape(param, value))
    )


def _as_kind(param: Param, kind: Kind) -> Param:
    return replace(param, kind=kind)


def _check_points(param: Param, value: object) -> list[Problem]:
    key = param.key
    if not is_int(value):
        return [field_problem(key, N_("{field} must be a whole number."))]
    assert isinstance(value, int)
    if abs(value) > MAX_POINTS:
        return [
            field_problem(
                key,
                N_("{field} must be from {low} to {high} (entered {value})."),
                low=-MAX_POINTS if param.kind is Kind.POINTS else 0,
                high=MAX_POINTS,
                value=value,
            )
        ]
    if value % POINT_STEP:
        return [
            field_problem(
                key,
                N_("{field} must be a multiple of 5, as every score is (entered {value})."),
                value=value,
            )
        ]
    if param.kind is Kind.CARD and value < POINT_STEP:
        return [
            field_problem(
                key,
                N_("{field} must be worth at least 5: every card counts (entered {value})."),
                value=value,
            )
        ]
    if param.kind is Kind.BONUS and value < 0:
        return [field_problem(key, N_("{field} cannot be below 0 (entered {value})."), value=value)]
    return []


def _check_deals(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and all(is_int(n) and 1 <= n <= MAX_DEALS for n in value)
        and len(set(value)) == len(value)
    ):
        return []
    return [
        field_problem(
            param.key,
            N_("{field} must be a list of deal numbers from 1 to {last}, each once."),
            last=MAX_DEALS,
        )
    ]


def _check_sizes(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and len(value) <= MAX_DEALS
        and all(is_int(n) and param.low <= n <= param.high for n in value)
    ):
        return []
    return [
        field_problem(
            param.key,
            N_(
                "{field} must be a list of at most {most} whole numbers from {low} to {high}, "
                "one for each deal, or an empty list."
            ),
            most=MAX_DEALS,
            low=param.low,
            high=param.high,
        )
    ]


CARD_KIND_VALUES: tuple[str, ...] = tuple(kind.value for kind in CardKind)


def _check_card_kinds(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and all(isinstance(kind, str) and kind in CARD_KIND_VALUES for kind in value)
        and len(set(value)) == len(value)
    ):
        return []
    return [
        field_problem(
            param.key,
            N_("{field} must be a list of card kinds from {allowed}, each once."),
            allowed=", ".join(CARD_KIND_VALUES),
        )
    ]


_TABLE_KEYS = frozenset({"sides", "players", "decks"})
_THRESHOLD_KEYS = frozenset({"from_score", "minimum"})


def _check_thresholds(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and len(value) <= MAX_THRESHOLDS
        and all(
            isinstance(item, Mapping)
            and set(item) == _THRESHOLD_KEYS
            and all(is_int(n) and abs(n) <= MAX_POINTS for n in item.values())
            and item["minimum"] >= 0
            for item in value
        )
    ):
        return [
            field_problem(
                param.key,
                N_(
                    "{field}: the first meld from {score} must be a multiple of 5, as every "
                    "score is (entered {value})."
                ),
                score=item["from_score"],
                value=item["minimum"],
            )
            for item in value
            if item["minimum"] % POINT_STEP
        ][:1]
    return [
        field_problem(
            param.key,
            N_(
                "{field} must be a list of at most {most} running scores, each with the first "
                "meld it needs."
            ),
            most=MAX_THRESHOLDS,
        )
    ]


def _check_tables_shape(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and 1 <= len(value) <= MAX_TABLES
        and all(
            isinstance(table, Mapping)
            and set(table) == _TABLE_KEYS
            and all(is_int(n) for n in table.values())
            for table in value
        )
    ):
        return []
    return [
        field_problem(
            param.key,
            N_(
                "{field} must be a list of 1 to {most} tables, each with whole numbers of "
                "sides, players and decks."
            ),
            most=MAX_TABLES,
        )
    ]


def quoted(value: object) -> str:
    text = json.dumps(value) if _json_ready(value) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _json_ready(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True
