"""House rules: a table's own variant, made by changing a built-in variant's parameters.

A house variant is a base variant (``based_on``) and a set of changes, each keyed by the
parameter it sets (``"book_bonus.wild"``, ``"first_meld.2"``, ``"going_out.4.clean"``...).
Applied, the changes give an ordinary `Variant`, which every layer reads like a built-in one.

This module also reads variants that come from outside (a shared file, a link, an inline
``"variant": {...}`` in a score request) strictly: unknown keys, wrong types and values a game
cannot have are refused with problems naming the field, never with another exception.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from .book_supply import Short, book_shortages, supply_of
from .cards import BOOK_SIZE, NATURAL_RANKS, CardKind
from .decks import DECKS
from .json_numbers import read_json_number
from .messages import N_, Phrase, Problem, Term
from .names import clean_name, refused_characters
from .variants import (
    BUILT_IN,
    DEALS_PER_GAME,
    PAGAT,
    BookCount,
    ConcealedOpening,
    PilePickup,
    RankMelds,
    Table,
    UnknownVariant,
    Variant,
    WildDiscard,
    get_variant,
    variant_from_dict,
)

HOUSE_PREFIX = "house-"
FORMAT = "hand-and-foot-house-rules"
FORMAT_VERSION = 1

MAX_FILE_BYTES = 16 * 1024
"""A shared file's size limit: a house variant's file is well under 2 KB."""
MAX_LINK_CHARS = 4096
MAX_NAME = 60
MAX_TEXT = 500
MAX_ID = 64
MAX_POINTS = 100_000
MAX_SIDES = 12
MAX_PLAYERS = 12
MAX_DECKS = 16
MAX_TABLES = 16
MAX_PACKET = 30
MAX_BOOKS = 40
MAX_WILD_RATIO = 6
MAX_THRESHOLDS = 8
POINT_STEP = 5

_ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_VARIANT_FIELDS = tuple(f.name for f in fields(Variant))


class Kind(StrEnum):
    """What values a parameter takes."""

    CARD = "card"
    """A card's points: a multiple of 5, at least 5."""
    POINTS = "points"
    """Points that may be negative: a multiple of 5."""
    BONUS = "bonus"
    """A bonus or a minimum: a multiple of 5, not below 0."""
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


class Group(StrEnum):
    """Where a parameter sits on the house-rules form."""

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


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter a house variant may change."""

    key: str
    group: Group
    kind: Kind
    label: Term | Phrase
    low: int = 0
    high: int = 0
    choices: tuple[Any, ...] = ()
    deal: int | None = None
    """The deal a per-deal parameter is about."""
    help: Term | None = None
    """A hint shown beside the field on the form."""

    @property
    def field(self) -> str:
        """The top-level `Variant` field this parameter is part of."""
        return self.key.split(".")[0]


_CHOICE_TERMS: Mapping[tuple[str, Any], Term] = {
    ("max_meld_size", BOOK_SIZE): Term(N_("7 cards: a book is exactly seven")),
    ("max_meld_size", None): Term(N_("no limit: a book is seven or more")),
    ("stock_piles", 1): Term(N_("one")),
    ("stock_piles", 2): Term(N_("two")),
    ("rank_melds", RankMelds.ONE_UNFINISHED.value): Term(
        N_("one unfinished meld of a rank at a time")
    ),
    ("rank_melds", RankMelds.ONE.value): Term(N_("never two melds of one rank")),
    ("pile_pickup", PilePickup.TOP_SEVEN.value): Term(
        N_("the top seven cards, or all if fewer")
    ),
    ("pile_pickup", PilePickup.TOP_SEVEN_FROM_FULL.value): Term(
        N_("the top seven, only from a pile of seven or more")
    ),
    ("pile_pickup", PilePickup.WHOLE_PILE.value): Term(N_("the whole pile")),
    ("wild_discard", WildDiscard.NEEDS_MATCHING_WILDS.value): Term(
        N_("the pile needs two matching wild cards")
    ),
    ("wild_discard", WildDiscard.NEVER_TAKEN.value): Term(N_("the pile cannot be taken")),
    ("wild_discard", WildDiscard.FREEZES_PILE.value): Term(N_("the pile is frozen")),
    ("concealed_opening", ConcealedOpening.INSTEAD_OF_POINTS.value): Term(
        N_("a concealed book instead of the minimum points")
    ),
    ("concealed_opening", ConcealedOpening.WITH_POINTS.value): Term(
        N_("a concealed book and the minimum points")
    ),
}


def choice_term(key: str, value: Any) -> Term:
    """The words for one choice of a parameter."""
    return _CHOICE_TERMS.get((key, value), Term(str(value)))


def _deal_params() -> Iterator[Param]:
    for deal in range(1, DEALS_PER_GAME + 1):
        yield Param(
            f"first_meld.{deal}",
            Group.FIRST_MELD,
            Kind.BONUS,
            Phrase(N_("Minimum first meld, deal {deal}"), {"deal": deal}),
            deal=deal,
        )
    for deal in range(1, DEALS_PER_GAME + 1):
        labels = {
            "clean": Phrase(N_("Clean books to go out, deal {deal}"), {"deal": deal}),
            "dirty": Phrase(N_("Dirty books to go out, deal {deal}"), {"deal": deal}),
            "wild": Phrase(N_("Wild books to go out, deal {deal}"), {"deal": deal}),
        }
        for kind, label in labels.items():
            yield Param(
                f"going_out.{deal}.{kind}", Group.GOING_OUT, Kind.COUNT, label,
                high=MAX_BOOKS, deal=deal,
            )


def _choices(enum: type[Enum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


PARAMS: tuple[Param, ...] = (
    Param("card_points.joker", Group.CARDS, Kind.CARD, Term(N_("Points of a joker"))),
    Param("card_points.two", Group.CARDS, Kind.CARD, Term(N_("Points of a two"))),
    Param("card_points.ace", Group.CARDS, Kind.CARD, Term(N_("Points of an ace"))),
    Param(
        "card_points.high", Group.CARDS, Kind.CARD, Term(N_("Points of a king down to an eight"))
    ),
    Param("card_points.low", Group.CARDS, Kind.CARD, Term(N_("Points of a seven down to a four"))),
    Param(
        "card_points.black_three", Group.CARDS, Kind.CARD,
        Term(N_("Points of a black three left in hand or foot")),
    ),
    Param(
        "card_points.black_three_melded", Group.CARDS, Kind.POINTS,
        Term(N_("Points of a black three in a black-three book")),
        help=Term(N_("Negative where melded black threes still count against the side.")),
    ),
    Param("book_bonus.clean", Group.BOOKS, Kind.BONUS, Term(N_("Clean book bonus"))),
    Param("book_bonus.dirty", Group.BOOKS, Kind.BONUS, Term(N_("Dirty book bonus"))),
    Param(
        "book_bonus.wild", Group.BOOKS, Kind.OPTIONAL_BONUS,
        Term(N_("Wild book bonus")),
        help=Term(N_("Empty: wild books are not allowed.")),
    ),
    Param(
        "book_bonus.black_three", Group.BOOKS, Kind.OPTIONAL_BONUS,
        Term(N_("Black-three book bonus")),
        help=Term(N_("Empty: black-three books are not allowed.")),
    ),
    Param(
        "book_bonus.special_rank", Group.BOOKS, Kind.CHOICE,
        Term(N_("Rank of the special book")),
        choices=(None, *NATURAL_RANKS),
        help=Term(N_("Empty: no special book. A special book is always clean.")),
    ),
    Param(
        "book_bonus.special", Group.BOOKS, Kind.OPTIONAL_BONUS,
        Term(N_("Special book bonus")),
        help=Term(N_("Instead of the clean book bonus, for a clean book of that rank.")),
    ),
    Param(
        "book_bonus.red_three", Group.BOOKS, Kind.OPTIONAL_BONUS,
        Term(N_("Red-three book bonus")),
        help=Term(N_("Empty: red threes never make a book.")),
    ),
    Param("red_three.down", Group.RED_THREES, Kind.OPTIONAL_POINTS,
        Term(N_("Each red three laid down")),
        help=Term(N_("Plus and minus: 100 here and -100 below. Empty: red threes are never "
                "laid down, they are discarded, and each one still held costs the value "
                "below."))),
    Param(
        "red_three.down_not_out", Group.RED_THREES, Kind.OPTIONAL_POINTS,
        Term(N_("Each red three laid down by a side that did not go out")),
        help=Term(N_("Empty: the same as for a side that went out.")),
    ),
    Param(
        "red_three.held", Group.RED_THREES, Kind.POINTS,
        Term(N_("Each red three still in hand or foot")),
    ),
    Param("going_out_bonus", Group.BONUSES, Kind.BONUS, Term(N_("Going-out bonus"))),
    Param(
        "going_out_concealed_bonus", Group.BONUSES, Kind.BONUS,
        Term(N_("Extra bonus for going out concealed")),
        help=Term(N_("For a side that goes out with no meld on the table before.")),
    ),
    Param(
        "exact_22_bonus", Group.BONUSES, Kind.OPTIONAL_BONUS,
        Term(N_("Bonus for cutting exactly 22 cards")),
        help=Term(N_("Empty: no such bonus. Needs players who cut their own cards.")),
    ),
    *_deal_params(),
    Param(
        "first_meld_by_score", Group.FIRST_MELD, Kind.THRESHOLDS,
        Term(N_("Minimum first meld by running score")),
        help=Term(N_("Empty: by deal, as above.")),
    ),
    Param(
        "concealed_book_first_meld_deals", Group.FIRST_MELD, Kind.DEALS,
        Term(N_("Deals whose first meld needs a concealed book")),
    ),
    Param(
        "concealed_opening", Group.FIRST_MELD, Kind.CHOICE,
        Term(N_("A first meld that needs a concealed book")),
        choices=_choices(ConcealedOpening),
    ),
    Param(
        "must_discard_to_go_out", Group.GOING_OUT, Kind.FLAG,
        Term(N_("A player must end on a discard to go out")),
    ),
    Param(
        "going_out_needs_partner_in_foot", Group.GOING_OUT, Kind.FLAG,
        Term(N_("A partner must have reached the foot before going out")),
    ),
    Param(
        "going_out_asks_partner", Group.GOING_OUT, Kind.FLAG,
        Term(N_("Ask the partner before going out")),
    ),
    Param(
        "max_meld_size", Group.MELDS, Kind.CHOICE, Term(N_("Largest meld")),
        choices=(BOOK_SIZE, None),
    ),
    Param(
        "wild_limit.per_wild", Group.MELDS, Kind.COUNT,
        Term(N_("Natural cards per wild card in a meld")),
        low=1, high=MAX_WILD_RATIO,
    ),
    Param(
        "wild_limit.extra", Group.MELDS, Kind.COUNT,
        Term(N_("Natural cards beyond that ratio")),
        help=Term(N_("A meld needs at least (natural cards per wild card × wild cards) + this "
                "many natural cards.")),
        high=MAX_WILD_RATIO,
    ),
    Param(
        "rank_melds", Group.MELDS, Kind.CHOICE, Term(N_("Melds of one rank")),
        choices=_choices(RankMelds),
    ),
    Param("tables", Group.TABLE, Kind.TABLES, Term(N_("Decks for each table"))),
    Param("deck", Group.TABLE, Kind.CHOICE, Term(N_("Cards")), choices=tuple(DECKS)),
    Param(
        "hand_size", Group.TABLE, Kind.COUNT, Term(N_("Cards in the hand")),
        low=1, high=MAX_PACKET,
    ),
    Param(
        "foot_size", Group.TABLE, Kind.COUNT, Term(N_("Cards in the foot")),
        low=1, high=MAX_PACKET,
    ),
    Param(
        "stock_piles", Group.TABLE, Kind.CHOICE, Term(N_("Stock piles")), choices=(1, 2)
    ),
    Param(
        "cut_for_packets", Group.TABLE, Kind.FLAG,
        Term(N_("Players cut 22 cards for their hand and foot")),
    ),
    Param(
        "pile_pickup", Group.PILE, Kind.CHOICE, Term(N_("Taking the discard pile")),
        choices=_choices(PilePickup),
    ),
    Param(
        "wild_discard", Group.PILE, Kind.CHOICE, Term(N_("After a wild card is discarded")),
        choices=_choices(WildDiscard),
    ),
    Param(
        "black_three_pair_takes_pile", Group.PILE, Kind.FLAG,
        Term(N_("A pair of black threes may take the pile")),
    ),
)

PARAM_BY_KEY: Mapping[str, Param] = {param.key: param for param in PARAMS}

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


def label_of(key: str) -> Term | Phrase:
    """The words for a parameter or a variant's own field, by key."""
    param = PARAM_BY_KEY.get(key)
    if param is not None:
        return param.label
    return META_TERMS.get(key, Term(key))


class VariantRejected(ValueError):
    """A variant that cannot be read or cannot be played; `problems` names every field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)


def _problem(key: str | None, template: str, /, **params: object) -> Problem:
    return Problem(None, key, template, params)


def _field_problem(key: str, template: str, /, **params: object) -> Problem:
    """A problem about `key`, whose words fill the message's ``{field}``."""
    return Problem(None, key, template, {"field": label_of(key), **params})


# --- reading and writing a parameter in a variant's JSON-ready data --------------------------


def _step(node: Any, part: str) -> Any:
    return node[int(part) - 1] if part.isdigit() else node[part]


def value_at(data: Mapping[str, Any], key: str) -> Any:
    """A parameter's value in `Variant.to_dict()` data (deal numbers count from 1)."""
    node: Any = data
    for part in key.split("."):
        node = _step(node, part)
    return node


def _set_at(data: dict[str, Any], key: str, value: Any) -> None:
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


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same(value: object, choice: object) -> bool:
    return type(value) is type(choice) and value == choice


def check_value(param: Param, value: object) -> list[Problem]:
    """Problems with one value for `param`: its type, its range, multiples of 5."""
    key = param.key
    kind = param.kind
    if kind is Kind.OPTIONAL_BONUS:
        return [] if value is None else check_value(_as_kind(param, Kind.BONUS), value)
    if kind is Kind.OPTIONAL_POINTS:
        return [] if value is None else check_value(_as_kind(param, Kind.POINTS), value)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS):
        return _check_points(param, value)
    if kind is Kind.COUNT:
        if not _is_int(value):
            return [_field_problem(key, N_("{field} must be a whole number."))]
        if not param.low <= value <= param.high:  # type: ignore[operator]
            return [
                _field_problem(
                    key, N_("{field} must be from {low} to {high} (entered {value})."),
                    low=param.low, high=param.high, value=value,
                )
            ]
        return []
    if kind is Kind.CHOICE:
        if any(_same(value, choice) for choice in param.choices):
            return []
        allowed = ", ".join("none" if c is None else str(c) for c in param.choices)
        return [
            _field_problem(
                key, N_("{field} must be one of {allowed} (entered {value})."),
                allowed=allowed, value=_quoted(value),
            )
        ]
    if kind is Kind.FLAG:
        if isinstance(value, bool):
            return []
        return [_field_problem(key, N_("{field} must be true or false."))]
    if kind is Kind.DEALS:
        return _check_deals(param, value)
    if kind is Kind.THRESHOLDS:
        return _check_thresholds(param, value)
    return _check_tables_shape(param, value)


def has_type(param: Param, value: object) -> bool:
    """Whether `value` is of the type `param` takes (its range aside)."""
    kind = param.kind
    if kind in (Kind.OPTIONAL_BONUS, Kind.OPTIONAL_POINTS):
        return value is None or _is_int(value)
    if kind in (Kind.CARD, Kind.POINTS, Kind.BONUS, Kind.COUNT):
        return _is_int(value)
    if kind is Kind.FLAG:
        return isinstance(value, bool)
    if kind is Kind.THRESHOLDS:
        return not _check_thresholds(param, value)
    return not check_value(param, value) if kind is not Kind.TABLES else (
        not _check_tables_shape(param, value)
    )


def _as_kind(param: Param, kind: Kind) -> Param:
    return replace(param, kind=kind)


def _check_points(param: Param, value: object) -> list[Problem]:
    key = param.key
    if not _is_int(value):
        return [_field_problem(key, N_("{field} must be a whole number."))]
    assert isinstance(value, int)
    if abs(value) > MAX_POINTS:
        return [
            _field_problem(
                key, N_("{field} must be from {low} to {high} (entered {value})."),
                low=-MAX_POINTS if param.kind is Kind.POINTS else 0, high=MAX_POINTS,
                value=value,
            )
        ]
    if value % POINT_STEP:
        return [
            _field_problem(
                key, N_("{field} must be a multiple of 5, as every score is (entered {value})."),
                value=value,
            )
        ]
    if param.kind is Kind.CARD and value < POINT_STEP:
        return [
            _field_problem(
                key, N_("{field} must be worth at least 5: every card counts (entered {value})."),
                value=value,
            )
        ]
    if param.kind is Kind.BONUS and value < 0:
        return [
            _field_problem(key, N_("{field} cannot be below 0 (entered {value})."), value=value)
        ]
    return []


def _check_deals(param: Param, value: object) -> list[Problem]:
    if (
        isinstance(value, list)
        and all(_is_int(n) and 1 <= n <= DEALS_PER_GAME for n in value)
        and len(set(value)) == len(value)
    ):
        return []
    return [
        _field_problem(
            param.key, N_("{field} must be a list of deal numbers from 1 to {last}, each once."),
            last=DEALS_PER_GAME,
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
            and all(_is_int(n) and abs(n) <= MAX_POINTS for n in item.values())
            and item["minimum"] >= 0
            for item in value
        )
        and [item["from_score"] for item in value] == sorted({i["from_score"] for i in value})
    ):
        return []
    return [
        _field_problem(
            param.key,
            N_("{field} must be a list of at most {most} running scores, lowest first, each "
               "with the first meld it needs."),
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
            and all(_is_int(n) for n in table.values())
            for table in value
        )
    ):
        return []
    return [
        _field_problem(
            param.key,
            N_("{field} must be a list of 1 to {most} tables, each with whole numbers of "
               "sides, players and decks."),
            most=MAX_TABLES,
        )
    ]


def _quoted(value: object) -> str:
    text = json.dumps(value) if _json_ready(value) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _json_ready(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


# --- the variant as a whole -----------------------------------------------------------------


def validate_variant(variant: Variant) -> list[Problem]:
    """Every reason the variant cannot be played; empty when a table can play it.

    Each problem names the parameter (``"book_bonus.wild"``, ``"going_out.4.clean"``,
    ``"tables"``...). Every built-in variant passes.
    """
    problems = list(_check_identity(variant))
    data = variant.to_dict()
    for param in PARAMS:
        problems += check_value(param, value_at(data, param.key))
    if not all(has_type(param, value_at(data, param.key)) for param in PARAMS):
        return problems
    problems += _check_tables(variant)
    problems += _check_red_threes(variant)
    problems += _check_cutting(variant)
    if not any(p.field == "tables" for p in problems):
        problems += _check_going_out_possible(variant)
    return problems


def _check_identity(variant: Variant) -> Iterator[Problem]:
    if not _ID_PATTERN.fullmatch(variant.id) or len(variant.id) > MAX_ID:
        yield _field_problem(
            "id",
            N_("The {field} must be lowercase letters, digits and single dashes, at most "
               "{most} characters (entered {value})."),
            most=MAX_ID, value=_quoted(variant.id),
        )
    yield from _check_name(variant.name)
    for key in ("summary", "source"):
        if len(getattr(variant, key)) > MAX_TEXT:
            yield _field_problem(
                key, N_("The {field} can be at most {most} characters."), most=MAX_TEXT
            )
        elif refused_characters(getattr(variant, key)):
            yield _field_problem(key, N_("The {field} cannot hold control characters."))
    for name in sorted(variant.inferred - set(_VARIANT_FIELDS)):
        yield _field_problem(
            "inferred", N_("{field} names {value}, which is not a rule of a variant."),
            value=_quoted(name),
        )


def _check_name(name: str) -> Iterator[Problem]:
    if not name.strip():
        yield _field_problem("name", N_("The {field} cannot be empty."))
    elif refused_characters(name):
        yield _field_problem("name", N_("The {field} cannot hold control characters."))
    elif len(name) > MAX_NAME:
        yield _field_problem(
            "name", N_("The {field} can be at most {most} characters."), most=MAX_NAME
        )


def _check_tables(variant: Variant) -> Iterator[Problem]:
    seen: set[tuple[int, int]] = set()
    dealt_each = variant.hand_size + variant.foot_size
    for table in variant.tables:
        where = {"players": table.players, "sides": table.sides}
        if not 2 <= table.sides <= MAX_SIDES:
            yield _field_problem(
                "tables", N_("{field}: a table has from 2 to {most} sides (entered {value})."),
                most=MAX_SIDES, value=table.sides,
            )
        elif not table.sides <= table.players <= MAX_PLAYERS:
            yield _field_problem(
                "tables",
                N_("{field}: {sides} sides need from {sides} to {most} players "
                   "(entered {value})."),
                sides=table.sides, most=MAX_PLAYERS, value=table.players,
            )
        elif table.players % table.sides:
            yield _field_problem(
                "tables",
                N_("{field}: {players} players cannot make {sides} sides of equal size."),
                **where,
            )
        elif (table.sides, table.players) in seen:
            yield _field_problem(
                "tables", N_("{field}: {players} players in {sides} sides are listed twice."),
                **where,
            )
        elif not 1 <= table.decks <= MAX_DECKS:
            yield _field_problem(
                "tables",
                N_("{field}: {players} players in {sides} sides play with 1 to {most} decks "
                   "(entered {value})."),
                most=MAX_DECKS, value=table.decks, **where,
            )
        elif table.players * dealt_each >= supply_of(variant, table).cards:
            yield _field_problem(
                "tables",
                N_("{field}: dealing {players} players a hand of {hand} and a foot of {foot} "
                   "takes {needed} cards, which leaves no stock from {decks} × {size} = {cards} "
                   "cards."),
                players=table.players, hand=variant.hand_size, foot=variant.foot_size,
                needed=table.players * dealt_each, decks=table.decks,
                size=supply_of(variant, table).deck.size, cards=supply_of(variant, table).cards,
            )
        seen.add((table.sides, table.players))


def _check_red_threes(variant: Variant) -> Iterator[Problem]:
    red = variant.red_three
    if red.held > 0:
        yield _field_problem(
            "red_three.held",
            N_("{field} must be 0 or less: a red three left in hand or foot never scores "
               "for its side (entered {value})."),
            value=red.held,
        )
    elif red.down is not None and red.held > red.down:
        yield _field_problem(
            "red_three.held",
            N_("{field} ({value}) cannot be worth more than a red three laid down ({down})."),
            value=red.held, down=red.down,
        )


def _check_cutting(variant: Variant) -> Iterator[Problem]:
    if variant.exact_22_bonus is not None and not variant.cut_for_packets:
        yield _field_problem(
            "exact_22_bonus",
            N_("{field}: only a game where players cut their own 22 cards can have it."),
        )
    total = variant.hand_size + variant.foot_size
    if variant.cut_for_packets and total != 22:
        yield _field_problem(
            "cut_for_packets",
            N_("{field}: the cut 22 cards make the hand and the foot, so they must add up "
               "to 22 (now {hand} + {foot} = {total})."),
            hand=variant.hand_size, foot=variant.foot_size, total=total,
        )


def _check_going_out_possible(variant: Variant) -> Iterator[Problem]:
    """Each deal's going-out books can be made with the cards of every allowed table."""
    most_wilds = variant.wild_limit.most_wilds(BOOK_SIZE)
    for deal in range(1, DEALS_PER_GAME + 1):
        books = variant.going_out_for(deal)
        key = f"going_out.{deal}"
        if books.wild and not variant.wild_books:
            yield _field_problem(
                f"{key}.wild",
                N_("{field}: this variant has no wild books, so going out cannot need "
                   "{count}."),
                count=books.wild,
            )
            continue
        if books.dirty and most_wilds == 0:
            yield _field_problem(
                "wild_limit.per_wild",
                N_("{field}: going out in deal {deal} needs dirty books, but this limit lets "
                   "no wild card into a book of seven."),
                deal=deal,
            )
            continue
        for table in sorted(variant.tables, key=lambda t: t.decks):
            problem = _going_out_shortage(variant, table, deal, books)
            if problem is not None:
                yield problem
                break


def _going_out_shortage(
    variant: Variant, table: Table, deal: int, books: BookCount
) -> Problem | None:
    """Why the going-out books of `deal` cannot be made of `table`'s cards (None if they can)."""
    shortages = book_shortages(
        supply_of(variant, table), variant.wild_limit, books.clean, books.dirty, books.wild
    )
    if not shortages:
        return None
    shortage = shortages[0]
    key = f"going_out.{deal}"
    where = {"deal": deal, "players": table.players, "decks": table.decks}
    if shortage.short is Short.WILDS_FOR_WILD_BOOKS:
        return _field_problem(
            f"{key}.wild",
            N_("{field}: {count} wild books need {needed} wild cards, but {players} "
               "players play with {decks} decks, which hold only {most}."),
            count=books.wild, needed=shortage.needed, most=shortage.most, **where,
        )
    if shortage.short is Short.WILDS_FOR_DIRTY_BOOKS:
        return _field_problem(
            f"{key}.dirty",
            N_("{field}: {wild} wild and {dirty} dirty books need at least {needed} "
               "wild cards, but {players} players play with {decks} decks, which "
               "hold only {most}."),
            wild=books.wild, dirty=books.dirty, needed=shortage.needed, most=shortage.most,
            **where,
        )
    if shortage.short is Short.CLEAN_BOOKS:
        return _field_problem(
            f"{key}.clean",
            N_("{field}: {players} players play with {decks} decks, which allow at "
               "most {most} clean books ({each} of each rank), not {count}."),
            count=books.clean, most=shortage.most, each=shortage.each, **where,
        )
    return _field_problem(
        f"{key}.dirty",
        N_("{field}: {clean} clean and {dirty} dirty books need more natural "
           "cards than the {decks} decks of {players} players hold."),
        clean=books.clean, dirty=books.dirty, **where,
    )


# --- house rules: a base and its changes ------------------------------------------------------


def slugify(text: str) -> str:
    """Lowercase ASCII letters and digits joined by single dashes ("" when none are left)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = "-".join(words)[: MAX_ID - len(HOUSE_PREFIX)]
    return slug.strip("-")


def house_id(name: str, slug: str = "") -> str:
    return HOUSE_PREFIX + (slugify(slug) or slugify(name) or "rules")


@dataclass(frozen=True)
class HouseRules:
    """A table's own rules: a built-in variant and the parameters it changes."""

    name: str
    based_on: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    """Parameter key -> JSON-ready value; only what differs from the base."""
    summary: str = ""
    slug: str = ""
    """The id's own part ("house-<slug>"); made from the name when empty."""

    def __post_init__(self) -> None:
        # Every way in (the form, a file, a link, the score API) names rules by one rule.
        for key in ("name", "summary"):
            if isinstance(getattr(self, key), str):
                object.__setattr__(self, key, clean_name(getattr(self, key)))
        object.__setattr__(self, "slug", house_id(self.name, self.slug)[len(HOUSE_PREFIX):])

    @property
    def id(self) -> str:
        return HOUSE_PREFIX + self.slug

    @property
    def base(self) -> Variant:
        """The built-in variant the rules start from; raises UnknownVariant."""
        try:
            return BUILT_IN[self.based_on]
        except (KeyError, TypeError):
            raise UnknownVariant(self.based_on) from None

    def variant(self) -> Variant:
        """The variant these rules make (not validated: see `problems`).

        Raises UnknownVariant for an unknown base and VariantRejected for changes that
        cannot be read.
        """
        changes, problems = read_changes(self.changes)
        if problems:
            raise VariantRejected(problems)
        return self._build(changes)

    def _build(self, changes: Mapping[str, Any]) -> Variant:
        base = self.base
        data = copy.deepcopy(base.to_dict())
        for key, value in changes.items():
            _set_at(data, key, copy.deepcopy(value))
        touched = {PARAM_BY_KEY[key].field for key in changes}
        data.update(
            id=self.id,
            name=self.name,
            summary=self.summary or f"House rules based on {base.name}.",
            source=f"House rules, based on {base.name} ({base.id}).",
            inferred=sorted(base.inferred - touched),
        )
        return variant_from_dict(data)

    def problems(self) -> list[Problem]:
        """Every reason these rules cannot be played, each naming its field."""
        if self.based_on not in BUILT_IN:
            return [_unknown_base(self.based_on)]
        _, unread = read_changes(self.changes)
        if not isinstance(self.changes, Mapping):
            return unread
        typed = {
            key: value
            for key, value in self.changes.items()
            if key in PARAM_BY_KEY and has_type(PARAM_BY_KEY[key], value)
        }
        variant = self._build(typed)
        problems = validate_variant(variant) + list(_check_known_tables(variant))
        seen = {(p.field, p.message) for p in problems}
        return [p for p in unread if (p.field, p.message) not in seen] + problems

    def checked_variant(self) -> Variant:
        """The variant, or VariantRejected naming every problem."""
        problems = self.problems()
        if problems:
            raise VariantRejected(problems)
        return self.variant()

    def with_changes(self, changes: Mapping[str, Any]) -> HouseRules:
        return HouseRules(self.name, self.based_on, dict(changes), self.summary, self.slug)

    def to_json(self) -> dict[str, Any]:
        """The shareable form: small, and read back by `house_rules_from_json`."""
        ordered = {p.key: self.changes[p.key] for p in PARAMS if p.key in self.changes}
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "based_on": self.based_on,
            "changes": ordered,
        }


KNOWN_TABLES: frozenset[tuple[int, int]] = frozenset(
    (table.sides, table.players) for variant in BUILT_IN.values() for table in variant.tables
)
"""(sides, players) of every table a built-in variant allows: the games, forms and sheets
are laid out for these, so house rules choose among them (with any number of decks)."""


def _check_known_tables(variant: Variant) -> Iterator[Problem]:
    for table in variant.tables:
        if (table.sides, table.players) not in KNOWN_TABLES:
            yield _field_problem(
                "tables",
                N_("{field}: {players} players in {sides} sides is not a table this app "
                   "lays out; house rules keep to the tables of the built-in variants."),
                players=table.players, sides=table.sides,
            )


def _unknown_base(value: object) -> Problem:
    return _field_problem(
        "based_on",
        N_("{field} must be the id of a built-in variant ({known}), not {value}."),
        known=", ".join(BUILT_IN), value=_quoted(value),
    )


def read_changes(raw: object) -> tuple[dict[str, Any], list[Problem]]:
    """Changes read strictly: known parameter keys only, each value of its kind."""
    if not isinstance(raw, Mapping):
        return {}, [_field_problem("changes", N_("{field} must be a JSON object."))]
    if len(raw) > len(PARAMS):
        return {}, [
            _field_problem(
                "changes", N_("{field} can hold at most {most} parameters."), most=len(PARAMS)
            )
        ]
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, value in raw.items():
        param = PARAM_BY_KEY.get(key) if isinstance(key, str) else None
        if param is None:
            problems.append(
                _problem(
                    "changes", N_("changes: unknown parameter {value}."), value=_quoted(key)
                )
            )
            continue
        found = check_value(param, value)
        if found:
            problems += found
        else:
            changes[key] = _normalised(param, value)
    return changes, problems


def _normalised(param: Param, value: Any) -> Any:
    if param.kind is Kind.DEALS:
        return sorted(value)
    if param.kind is Kind.TABLES:
        return [{k: table[k] for k in ("sides", "players", "decks")} for table in value]
    return value


@dataclass(frozen=True, slots=True)
class Difference:
    """One parameter whose value differs from the base variant's."""

    param: Param
    base: Any
    value: Any

    @property
    def key(self) -> str:
        return self.param.key


def diff_from_base(variant: Variant, base: Variant) -> tuple[Difference, ...]:
    """The parameters `variant` sets differently from `base`, in form order."""
    mine, theirs = variant.to_dict(), base.to_dict()
    differences = []
    for param in PARAMS:
        value, base_value = value_at(mine, param.key), value_at(theirs, param.key)
        if value != base_value:
            differences.append(Difference(param, base_value, value))
    return tuple(differences)


def typed_differences(base: Variant, values: Mapping[str, Any]) -> tuple[Difference, ...]:
    """The parameters `values` (JSON-ready, by key) sets differently from `base`, in form order.

    Unlike `diff_from_base`, the values need not make a playable variant yet: this is what a
    form being edited changes so far.
    """
    theirs = base.to_dict()
    differences = []
    for param in PARAMS:
        if param.key in values and values[param.key] != value_at(theirs, param.key):
            differences.append(Difference(param, value_at(theirs, param.key), values[param.key]))
    return tuple(differences)


def changes_from(variant: Variant, base: Variant) -> dict[str, Any]:
    return {d.key: d.value for d in diff_from_base(variant, base)}


def nearest_base(variant: Variant) -> Variant:
    """The built-in variant that differs from `variant` in the fewest parameters."""
    return min(BUILT_IN.values(), key=lambda base: len(diff_from_base(variant, base)))


def house_rules_of(variant: Variant, base: Variant | None = None) -> HouseRules:
    """A variant expressed as house rules over `base` (the nearest built-in by default)."""
    base = base if base is not None else nearest_base(variant)
    slug = variant.id[len(HOUSE_PREFIX):] if variant.id.startswith(HOUSE_PREFIX) else ""
    summary = "" if variant.summary == f"House rules based on {base.name}." else variant.summary
    return HouseRules(variant.name, base.id, changes_from(variant, base), summary, slug)


# --- reading a variant from outside: inline, a shared file, a link ----------------------------

_HOUSE_KEYS = frozenset({"format", "version", "id", "name", "summary", "based_on", "changes"})
_HOUSE_REQUIRED = ("name", "based_on", "changes")
_FULL_OPTIONAL: Mapping[str, Any] = {
    "summary": "",
    "source": "",
    "inferred": [],
    "concealed_opening": PAGAT.concealed_opening.value,
    "first_discard_turned": PAGAT.first_discard_turned,
    "first_discard_buried": sorted(kind.value for kind in PAGAT.first_discard_buried),
    "going_out_concealed_bonus": PAGAT.going_out_concealed_bonus,
    "first_meld_by_score": [],
    "deck": PAGAT.deck,
}


_RULE_FIELDS = frozenset(_VARIANT_FIELDS) - {"id", "name", "summary", "source", "inferred"}


def is_house_form(data: Mapping[str, Any]) -> bool:
    """House form (``based_on`` and ``changes``) unless the data holds a variant's own rules."""
    return "based_on" in data or "changes" in data or not any(k in data for k in _RULE_FIELDS)


def house_rules_from_json(data: object) -> HouseRules:
    """House rules from a shared file's data (house form or a whole variant), checked.

    Raises VariantRejected, naming every field, for anything a table cannot play.
    """
    if not isinstance(data, Mapping):
        raise VariantRejected([_problem(None, N_("The variant must be a JSON object."))])
    if not is_house_form(data):
        variant = _full_variant(data)
        rules = house_rules_of(variant)
        if not variant.id.startswith(HOUSE_PREFIX):
            rules = HouseRules(rules.name, rules.based_on, rules.changes, rules.summary)
        rules.checked_variant()
        return rules
    problems = [
        _problem(key, N_("Unknown field {value}."), value=_quoted(key))
        for key in data
        if key not in _HOUSE_KEYS
    ]
    problems += [
        _problem(key, N_("{key} is required."), key=key)
        for key in _HOUSE_REQUIRED
        if key not in data
    ]
    if "format" in data and data["format"] != FORMAT:
        problems.append(
            _field_problem("format", N_("{field} must be {value}."), value=_quoted(FORMAT))
        )
    if "version" in data and not _same(data["version"], FORMAT_VERSION):
        problems.append(
            _field_problem(
                "version", N_("{field} {value} is not known; this app reads version {known}."),
                value=_quoted(data["version"]), known=FORMAT_VERSION,
            )
        )
    for key in ("id", "name", "summary", "based_on"):
        if key in data and not isinstance(data[key], str):
            problems.append(_problem(key, N_("{key} must be text."), key=key))
    if problems:
        raise VariantRejected(problems)
    slug = ""
    if "id" in data:
        given = data["id"]
        if not given.startswith(HOUSE_PREFIX) or not _ID_PATTERN.fullmatch(given) or (
            len(given) > MAX_ID
        ):
            raise VariantRejected([
                _field_problem(
                    "id",
                    N_("The {field} of house rules starts with {prefix} and holds only "
                       "lowercase letters, digits and single dashes (entered {value})."),
                    prefix=HOUSE_PREFIX, value=_quoted(given),
                )
            ])
        slug = given[len(HOUSE_PREFIX):]
    summary = data.get("summary", "")
    if len(summary) > MAX_TEXT:
        raise VariantRejected(
            [_field_problem("summary", N_("The {field} can be at most {most} characters."),
                            most=MAX_TEXT)]
        )
    rules = HouseRules(data["name"], data["based_on"], data["changes"], summary, slug)
    problems = rules.problems()
    if problems:
        raise VariantRejected(problems)
    changes, _ = read_changes(data["changes"])
    return rules.with_changes(changes)


def variant_from_json(data: object) -> Variant:
    """A variant given inline (a score request's ``"variant": {...}``), checked.

    Takes the house form (``based_on`` and ``changes``) or a whole variant as
    ``GET /api/v1/variants`` lists them. Raises VariantRejected naming every field.
    """
    if not isinstance(data, Mapping):
        raise VariantRejected([_problem(None, N_("The variant must be a JSON object."))])
    if is_house_form(data):
        return house_rules_from_json(data).variant()
    return _full_variant(data)


def _full_variant(data: Mapping[str, Any]) -> Variant:
    problems = [
        _problem(str(key)[:40], N_("Unknown field {value}."), value=_quoted(key))
        for key in data
        if key not in _VARIANT_FIELDS
    ]
    complete = {**_FULL_OPTIONAL, **data}
    problems += [
        _problem(key, N_("{key} is required."), key=key)
        for key in _VARIANT_FIELDS
        if key not in complete
    ]
    if problems:
        raise VariantRejected(problems)
    problems += _check_meta_types(complete)
    problems += _check_nested_shape(complete)
    problems += _check_play_choices(complete)
    if problems:
        raise VariantRejected(problems)
    for param in PARAMS:
        problems += check_value(param, value_at(complete, param.key))
    if problems:
        raise VariantRejected(problems)
    # Names and texts read as every other way in reads them (``names``).
    texts = {key: clean_name(complete[key]) for key in ("name", "summary", "source")}
    variant = variant_from_dict({**complete, **texts})
    problems = validate_variant(variant)
    built_in = BUILT_IN.get(variant.id)
    if built_in is not None and built_in != variant:
        problems.append(
            _field_problem(
                "id",
                N_("The {field} {value} belongs to a built-in variant; give changed rules an "
                   "id of their own."),
                value=_quoted(variant.id),
            )
        )
    if problems:
        raise VariantRejected(problems)
    return variant


def _check_meta_types(data: Mapping[str, Any]) -> Iterator[Problem]:
    for key in ("id", "name", "summary", "source"):
        if not isinstance(data[key], str):
            yield _problem(key, N_("{key} must be text."), key=key)
        elif len(data[key]) > MAX_TEXT:
            yield _field_problem(
                key, N_("The {field} can be at most {most} characters."), most=MAX_TEXT
            )
    inferred = data["inferred"]
    if (
        not isinstance(inferred, list)
        or len(inferred) > len(_VARIANT_FIELDS)
        or not all(isinstance(name, str) for name in inferred)
    ):
        yield _problem("inferred", N_("{key} must be a list of rule names."), key="inferred")


def _check_play_choices(data: Mapping[str, Any]) -> Iterator[Problem]:
    """The engine's choices a whole variant may carry: known values only."""
    openings = [choice.value for choice in ConcealedOpening]
    if data["concealed_opening"] not in openings:
        yield _choice_problem("concealed_opening", openings, data["concealed_opening"])
    if not isinstance(data["first_discard_turned"], bool):
        yield _problem(
            "first_discard_turned", N_("{field} must be true or false."),
            field="first_discard_turned",
        )
    buried = data["first_discard_buried"]
    kinds = [kind.value for kind in CardKind]
    if not isinstance(buried, list) or not all(kind in kinds for kind in buried):
        yield _choice_problem("first_discard_buried", kinds, buried)


def _choice_problem(key: str, allowed: Sequence[str], value: object) -> Problem:
    return _problem(
        key, N_("{field} must be one of {allowed} (entered {value})."),
        field=key, allowed=", ".join(allowed), value=_quoted(str(value)[:40]),
    )


def _check_nested_shape(data: Mapping[str, Any]) -> Iterator[Problem]:
    """Objects and per-deal lists hold exactly the keys and items a variant has."""
    template = PAGAT.to_dict()
    for key, expected in template.items():
        value = data[key]
        if isinstance(expected, dict):
            yield from _check_object_keys(key, value, expected)
        elif key in ("first_meld", "going_out"):
            if not isinstance(value, list) or len(value) != DEALS_PER_GAME:
                yield _field_problem(
                    key, N_("{field} must be a list of {count} values, one per deal."),
                    count=DEALS_PER_GAME,
                )
            elif key == "going_out":
                for deal, books in enumerate(value, start=1):
                    yield from _check_object_keys(f"{key}.{deal}", books, expected[0])


def _check_object_keys(key: str, value: object, expected: Mapping[str, Any]) -> Iterator[Problem]:
    if not isinstance(value, Mapping):
        yield _problem(key, N_("{key} must be a JSON object."), key=key)
        return
    for name in value:
        if name not in expected:
            yield _problem(key, N_("{key}: unknown field {value}."), key=key, value=_quoted(name))
    for name in expected:
        if name not in value:
            yield _problem(f"{key}.{name}", N_("{key} is required."), key=f"{key}.{name}")


class _Refused(ValueError):
    """JSON that parses but that this reader refuses, with the problem to report."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _refuse_constant(name: str) -> None:
    raise _Refused(_problem(None, N_("{what} holds {value}, which is not a number."),
                            what=Term(N_("The file")), value=name[:20]))


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(_problem(None, N_("{what} gives the key {value} twice."),
                                    what=Term(N_("The file")), value=_quoted(key)))
        result[key] = value
    return result


def parse_json_text(raw: bytes | str, what: Term | None = None) -> object:
    """JSON read defensively: size-limited, UTF-8, no NaN, no repeated keys, not too deep.

    Raises VariantRejected with a plain message for anything else.
    """
    what = what or Term(N_("The file"))
    if len(raw) > MAX_FILE_BYTES:
        raise VariantRejected([
            _problem(None, N_("{what} is larger than {most} KB; shared rules are far smaller."),
                     what=what, most=MAX_FILE_BYTES // 1024)
        ])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise VariantRejected(
                [_problem(None, N_("{what} is not UTF-8 text."), what=what)]
            ) from None
    try:
        return json.loads(
            raw,
            parse_constant=_refuse_constant,
            parse_float=read_json_number,
            object_pairs_hook=_no_duplicate_keys,
        )
    except json.JSONDecodeError as error:
        raise VariantRejected([
            _problem(None, N_("{what} is not valid JSON (line {line}, column {column})."),
                     what=what, line=error.lineno, column=error.colno)
        ]) from None
    except _Refused as refusal:
        problem = refusal.problem
        params = {**problem.params, "what": what}
        raise VariantRejected([Problem(None, None, problem.template, params)]) from None
    except RecursionError:
        raise VariantRejected(
            [_problem(None, N_("{what} is nested too deeply to be a variant."), what=what)]
        ) from None
    except ValueError:
        raise VariantRejected(
            [_problem(None, N_("{what} is not JSON a variant can be read from."), what=what)]
        ) from None


def read_house_file(raw: bytes | str) -> HouseRules:
    """House rules from a shared file; VariantRejected with a message for anything else."""
    return house_rules_from_json(parse_json_text(raw))


def link_token(rules: HouseRules) -> str:
    """The rules packed into a URL-safe token, for a share link."""
    text = json.dumps(rules.to_json(), separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def rules_from_link(token: str) -> HouseRules:
    """The rules a share link carries; VariantRejected for a damaged or hostile link."""
    what = Term(N_("The link"))
    if len(token) > MAX_LINK_CHARS or not re.fullmatch(r"[A-Za-z0-9_-]*", token):
        raise VariantRejected([_problem(None, N_("{what} is damaged."), what=what)])
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raise VariantRejected([_problem(None, N_("{what} is damaged."), what=what)]) from None
    return house_rules_from_json(parse_json_text(raw, what))


def resolve_variant(raw: object, find: Callable[[str], Variant] = get_variant) -> Variant:
    """A score request's ``variant``: an id ``find`` knows (a built-in one by default), or an
    inline variant object.

    Raises UnknownVariant for an unknown id and VariantRejected for an object that cannot
    be played.
    """
    if isinstance(raw, Mapping):
        return variant_from_json(raw)
    if isinstance(raw, str):
        return find(raw)
    raise UnknownVariant(raw)
