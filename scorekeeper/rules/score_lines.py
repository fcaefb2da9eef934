"""Every line of a side's deal score, described once.

A `LineSpec` says what a line is called and what it is about, which `SideEntry` fields a
table enters for it, which section of a variant's rules page explains it, whether a variant
has it (read from the variant's data, never from its id) and how it is priced. Scoring builds
its lines from here, and the deal form, breakdowns, scoreboard, score sheets, rules pages,
messages and the CSV export take their keys, labels and fields from here.

A price is one function of the variant, the side's entry and the deal (`DealFacts`), so that a
new rule changes one function. A line's `unit` gives the points of one counted thing, for the
hints beside a field or a row ("500 each").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .cards import NATURAL_RANKS
from .decks import get_deck
from .entry import SIDE_FIELDS, SideEntry
from .terms import N_, Phrase, Term
from .variants import Variant


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What a line's price may depend on besides the side's own entry."""

    number: int = 1
    stock_ran_out: bool = False


def went_out(side: SideEntry, deal: DealFacts) -> bool:
    """Whether the side went out: a deal the stock ended has no side that went out."""
    return side.went_out and not deal.stock_ran_out


def going_out_bonus(variant: Variant, deal: int) -> int:
    """The bonus for going out in deal ``deal``: every layer reads it here."""
    return variant.going_out_bonus_for(deal)


# The plural of each natural rank, for a special book's label ("Clean books of sevens").
RANK_PLURALS: Mapping[str, Term] = dict(
    zip(
        NATURAL_RANKS,
        (
            Term(N_("aces")),
            Term(N_("kings")),
            Term(N_("queens")),
            Term(N_("jacks")),
            Term(N_("tens")),
            Term(N_("nines")),
            Term(N_("eights")),
            Term(N_("sevens")),
            Term(N_("sixes")),
            Term(N_("fives")),
            Term(N_("fours")),
        ),
        strict=True,
    )
)


def rank_plural(rank: str | None) -> Term:
    """The rank's plural in words; a rank of a special deck (numbered 1 to 12) as it is."""
    if rank is None:
        return Term("")
    return RANK_PLURALS.get(rank, Term(rank))


ANY_RANK = Term(N_("the special rank"))
"""A special book's rank where no variant is at hand (a message or export of any game)."""


EXACT_CUT_IN_GENERAL: Mapping[str, str] = {
    N_("Players who cut exactly {cut}"): N_("Players with an exact cut"),
    N_("players who cut exactly {cut}"): N_("players with an exact cut"),
    N_("Cut exactly {cut}"): N_("Exact cut"),
    N_("Each player who cut exactly {cut} cards."): N_(
        "Each player who cut exactly the cards of the deal's hand and foot ({cuts} by deal)."
    ),
}
"""The words of the exact cut where no one number applies (a variant whose hand and foot
change size from deal to deal, outside any one deal; or no variant at hand), by the words
that name the number (``{cut}``)."""


def exact_cut(variant: Variant | None, deal: int | None = None) -> int | None:
    """The cards a player cuts for a hand and a foot: in deal `deal`, or in every deal where
    they are the same; None where no one number applies."""
    if variant is None:
        return None
    if deal is None:
        if variant.sizes_by_deal:
            return None
        deal = 1
    return variant.cut_for(deal)


def exact_cuts(variant: Variant) -> tuple[int, ...]:
    """The cards a player cuts for a hand and a foot in each deal of a game, deal 1 first."""
    return tuple(variant.cut_for(deal) for deal in range(1, variant.deals + 1))


def worded(template: str, variant: Variant | None, deal: int | None = None) -> Phrase:
    """A label or term of the spec for this variant: a special book names its rank, an
    exact cut its number of cards (in deal `deal`, or where every deal cuts the same)."""
    rank = ANY_RANK if variant is None else _special_plural(variant)
    params: dict[str, object] = {"rank": rank}
    if "{cut}" in template:
        cut = exact_cut(variant, deal)
        if cut is None:
            template = EXACT_CUT_IN_GENERAL[template]
            cuts = () if variant is None else exact_cuts(variant)
            params["cuts"] = ", ".join(str(number) for number in cuts)
        else:
            params["cut"] = cut
    return Phrase(template, params)


def special_rank_words(variant: Variant) -> str:
    """The special rank's plural in English words ("sevens", "lords"), to translate."""
    return str(_special_plural(variant))


def _special_plural(variant: Variant) -> Term:
    """The special rank's plural as the variant's deck names it ("sevens", "lords")."""
    rank = variant.book_bonus.special_rank
    if rank is not None and rank not in RANK_PLURALS:
        try:
            return Term(get_deck(variant.deck).natural(rank).plural)
        except ValueError:
            pass
    return rank_plural(rank)


@dataclass(frozen=True, slots=True)
class EntryField:
    """A `SideEntry` field as a table enters it."""

    name: str
    label: str
    """What the deal form asks ("Clean books"); ``{rank}`` stands for the special rank,
    ``{cut}`` for the cards of an exact cut (`EXACT_CUT_IN_GENERAL`)."""
    term: str
    """The field inside a sentence ("clean books"), for messages that name it."""
    section: str
    """The section of the rules page that explains it."""
    flag: bool = False
    """A yes or no asked once for the whole deal (who went out), not counted per side."""

    def label_for(self, variant: Variant | None, deal: int | None = None) -> Phrase:
        return worded(self.label, variant, deal)


Count = Callable[[SideEntry, DealFacts], int | None]
Price = Callable[[Variant, SideEntry, DealFacts], int]
Unit = Callable[[Variant, bool, int], int | None]
"""The points of one counted thing, given whether the side went out and the deal number."""


@dataclass(frozen=True, slots=True)
class LineSpec:
    """One line of a side's deal score, for every layer that shows or scores it."""

    key: str
    label: str
    """The line's name on breakdowns, sheets and rules pages; ``{rank}`` as in `EntryField`."""
    help: str
    """What the line counts, in one sentence."""
    section: str
    fields: tuple[EntryField, ...]
    has: Callable[[Variant], bool]
    count: Count
    price: Price
    unit: Unit | None = None
    """None for a line of card points (melded cards, cards left), whose count is its points."""
    against: bool = False
    """Counted against the side (cards left)."""
    parts: tuple[LineSpec, ...] = ()
    """Lines worth telling apart inside this one (red threes laid down and still held)."""
    params: tuple[str, ...] = ()
    """The `Variant` fields the line is priced from (a rules page marks them when inferred)."""
    counts: str = ""
    """What a breakdown calls the things counted ("books", "laid_down", "held", "players");
    empty where the points alone tell the line (melded cards, going out, cards left)."""
    group: str = ""
    """The line a statistics chart adds this one to ("books" for every kind of book, going
    out for going out concealed); empty: the line is a group of its own."""

    @property
    def chart_group(self) -> str:
        return self.group or self.key

    def label_for(self, variant: Variant, deal: int | None = None) -> Phrase:
        return worded(self.label, variant, deal)

    def help_for(self, variant: Variant, deal: int | None = None) -> Phrase:
        return worded(self.help, variant, deal)


# --- the entry fields --------------------------------------------------------------------


def _field(name: str, label: str, term: str, section: str, flag: bool = False) -> EntryField:
    return EntryField(name, label, term, section, flag)


MELD_POINTS = _field(
    "meld_points", N_("Melded cards (points)"), N_("melded card points"), "card-values"
)
CLEAN_BOOKS = _field("clean_books", N_("Clean books"), N_("clean books"), "books")
DIRTY_BOOKS = _field("dirty_books", N_("Dirty books"), N_("dirty books"), "books")
WILD_BOOKS = _field("wild_books", N_("Wild books"), N_("wild books"), "books")
BLACK_THREE_BOOKS = _field(
    "black_three_books", N_("Black-three books"), N_("black-three books"), "books"
)
SPECIAL_BOOKS = _field(
    "special_books", N_("Clean books of {rank}"), N_("clean books of {rank}"), "books"
)
RED_THREE_BOOKS = _field(
    "red_three_books", N_("Red-three books"), N_("red-three books"), "red-threes"
)
LADIES_IN_BOOKS = _field(
    "ladies_in_books",
    N_("Red threes added to clean books"),
    N_("red threes added to clean books"),
    "books",
)
RED_THREES_DOWN = _field(
    "red_threes_down", N_("Red threes laid down"), N_("red threes laid down"), "red-threes"
)
RED_THREES_HELD = _field(
    "red_threes_held", N_("Red threes still held"), N_("red threes still held"), "red-threes"
)
WENT_OUT = _field("went_out", N_("Went out"), N_("went out"), "going-out", flag=True)
WENT_OUT_CONCEALED = _field(
    "went_out_concealed",
    N_("Went out concealed"),
    N_("went out concealed"),
    "going-out",
    flag=True,
)
EXACT_22 = _field(
    "exact_22", N_("Players who cut exactly {cut}"), N_("players who cut exactly {cut}"), "scoring"
)
CARDS_LEFT_POINTS = _field(
    "cards_left_points", N_("Cards left (points)"), N_("points of cards left"), "end-of-deal"
)
FAILED_PICKUPS = _field("failed_pickups", N_("Failed pickups"), N_("failed pickups"), "scoring")

ENTRY_FIELDS: Mapping[str, EntryField] = {
    field.name: field
    for field in (
        MELD_POINTS,
        CLEAN_BOOKS,
        DIRTY_BOOKS,
        WILD_BOOKS,
        BLACK_THREE_BOOKS,
        SPECIAL_BOOKS,
        RED_THREE_BOOKS,
        LADIES_IN_BOOKS,
        RED_THREES_DOWN,
        RED_THREES_HELD,
        CARDS_LEFT_POINTS,
        WENT_OUT,
        WENT_OUT_CONCEALED,
        EXACT_22,
        FAILED_PICKUPS,
    )
}
assert set(ENTRY_FIELDS) == set(SIDE_FIELDS), "every SideEntry field is described once"


# --- counts, units and prices, one function each -------------------------------------------


def _count_of(field: EntryField) -> Count:
    def count(side: SideEntry, deal: DealFacts) -> int:
        return int(getattr(side, field.name))

    return count


def _no_count(side: SideEntry, deal: DealFacts) -> None:
    return None


def _times_unit(field: EntryField, unit: Unit) -> Price:
    """Price a counted field: the count times the points of one."""

    def price(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
        each = unit(variant, went_out(side, deal), deal.number)
        return int(getattr(side, field.name)) * (each or 0)

    return price


def price_meld_points(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
    return side.meld_points


def price_cards_left(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
    return -side.cards_left_points


def unit_clean(variant: Variant, out: bool, deal: int) -> int:
    return variant.book_bonus.clean


def unit_dirty(variant: Variant, out: bool, deal: int) -> int:
    return variant.book_bonus.dirty


def unit_wild(variant: Variant, out: bool, deal: int) -> int | None:
    return variant.book_bonus.wild


def unit_black_three(variant: Variant, out: bool, deal: int) -> int | None:
    return variant.book_bonus.black_three


def unit_special(variant: Variant, out: bool, deal: int) -> int | None:
    """A clean book of the special rank earns its own bonus instead of the clean one."""
    return variant.book_bonus.special


def unit_red_three_book(variant: Variant, out: bool, deal: int) -> int | None:
    return variant.book_bonus.red_three


def unit_lady(variant: Variant, out: bool, deal: int) -> int | None:
    """Each red three added to a clean book (a HANDnFOOT lady) earns its own bonus."""
    return variant.book_bonus.lady


def unit_red_three_down(variant: Variant, out: bool, deal: int) -> int | None:
    """A laid-down red three may be worth less to a side that did not go out."""
    return variant.red_three.down_for(out)


def unit_red_three_held(variant: Variant, out: bool, deal: int) -> int:
    return variant.red_three.held


def unit_going_out(variant: Variant, out: bool, deal: int) -> int:
    return going_out_bonus(variant, deal)


def unit_concealed(variant: Variant, out: bool, deal: int) -> int:
    return variant.going_out_concealed_bonus


def unit_exact_22(variant: Variant, out: bool, deal: int) -> int | None:
    return variant.exact_22_bonus


def unit_failed_pickup(variant: Variant, out: bool, deal: int) -> int | None:
    penalty = variant.failed_pickup_penalty
    return None if penalty is None else -penalty


def count_going_out(side: SideEntry, deal: DealFacts) -> int:
    return int(went_out(side, deal))


def count_concealed(side: SideEntry, deal: DealFacts) -> int:
    """Going out concealed counts only for the side that went out (not when the stock ran out)."""
    return int(went_out(side, deal) and side.went_out_concealed)


def price_going_out(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
    return count_going_out(side, deal) * going_out_bonus(variant, deal.number)


def price_concealed(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
    return count_concealed(side, deal) * variant.going_out_concealed_bonus


def _always(variant: Variant) -> bool:
    return True


def _counted_line(
    key: str,
    label: str,
    help: str,
    field: EntryField,
    unit: Unit,
    has: Callable[[Variant], bool] = _always,
    counts: str = "books",
    params: tuple[str, ...] = ("book_bonus",),
) -> LineSpec:
    return LineSpec(
        key,
        label,
        help,
        field.section,
        (field,),
        has,
        _count_of(field),
        _times_unit(field, unit),
        unit,
        params=params,
        counts=counts,
        group="books" if counts == "books" else "",
    )


RED_THREES_DOWN_LINE = _counted_line(
    "red_threes_down",
    N_("Red threes laid down"),
    N_("Each red three the side laid down."),
    RED_THREES_DOWN,
    unit_red_three_down,
    lambda v: v.red_three.down is not None,
    counts="laid_down",
    params=("red_three",),
)
RED_THREES_HELD_LINE = _counted_line(
    "red_threes_held",
    N_("Red threes still held"),
    N_("Each red three still in a hand or foot when the deal ended."),
    RED_THREES_HELD,
    unit_red_three_held,
    counts="held",
    params=("red_three",),
)


def count_red_threes(side: SideEntry, deal: DealFacts) -> int:
    return side.red_threes_down + side.red_threes_held


def price_red_threes(variant: Variant, side: SideEntry, deal: DealFacts) -> int:
    return sum(
        part.price(variant, side, deal)
        for part in (RED_THREES_DOWN_LINE, RED_THREES_HELD_LINE)
        if part.has(variant)
    )


LINES: tuple[LineSpec, ...] = (
    LineSpec(
        "meld_points",
        N_("Melded cards"),
        N_("Every melded card, books included."),
        MELD_POINTS.section,
        (MELD_POINTS,),
        _always,
        _no_count,
        price_meld_points,
        params=("card_points",),
    ),
    _counted_line(
        "clean_books", N_("Clean books"), N_("Books with no wild card."), CLEAN_BOOKS, unit_clean
    ),
    _counted_line(
        "dirty_books",
        N_("Dirty books"),
        N_("Books that hold a wild card."),
        DIRTY_BOOKS,
        unit_dirty,
    ),
    _counted_line(
        "wild_books",
        N_("Wild books"),
        N_("Books made of wild cards only."),
        WILD_BOOKS,
        unit_wild,
        lambda v: v.book_bonus.wild is not None,
    ),
    _counted_line(
        "black_three_books",
        N_("Black-three books"),
        N_("Books of black threes."),
        BLACK_THREE_BOOKS,
        unit_black_three,
        lambda v: v.book_bonus.black_three is not None,
    ),
    _counted_line(
        "special_books",
        N_("Clean books of {rank}"),
        N_("Clean books of {rank}: they earn their own bonus, not the clean book bonus."),
        SPECIAL_BOOKS,
        unit_special,
        lambda v: v.book_bonus.special is not None and v.book_bonus.special_rank is not None,
    ),
    _counted_line(
        "red_three_books",
        N_("Red-three books"),
        N_("Books of red threes."),
        RED_THREE_BOOKS,
        unit_red_three_book,
        lambda v: v.book_bonus.red_three is not None,
    ),
    LineSpec(
        "ladies_in_books",
        N_("Red threes added to clean books"),
        N_("Each red three the side added to one of its clean books."),
        LADIES_IN_BOOKS.section,
        (LADIES_IN_BOOKS,),
        lambda v: v.book_bonus.lady is not None,
        _count_of(LADIES_IN_BOOKS),
        _times_unit(LADIES_IN_BOOKS, unit_lady),
        unit_lady,
        params=("book_bonus",),
        group="red_threes",
    ),
    LineSpec(
        "red_threes",
        N_("Red threes"),
        N_("Red threes laid down, and those still held."),
        RED_THREES_DOWN.section,
        (),
        _always,
        count_red_threes,
        price_red_threes,
        parts=(RED_THREES_DOWN_LINE, RED_THREES_HELD_LINE),
        params=("red_three",),
    ),
    LineSpec(
        "going_out",
        N_("Going out"),
        N_("The bonus of the side that went out."),
        WENT_OUT.section,
        (WENT_OUT,),
        _always,
        count_going_out,
        price_going_out,
        unit_going_out,
        params=("going_out_bonus",),
    ),
    LineSpec(
        "going_out_concealed",
        N_("Went out concealed"),
        N_("Went out with no meld on the table before, all in one turn."),
        WENT_OUT_CONCEALED.section,
        (WENT_OUT_CONCEALED,),
        lambda v: v.going_out_concealed_bonus > 0,
        count_concealed,
        price_concealed,
        unit_concealed,
        params=("going_out_concealed_bonus",),
        group="going_out",
    ),
    _counted_line(
        "exact_22",
        N_("Cut exactly {cut}"),
        N_("Each player who cut exactly {cut} cards."),
        EXACT_22,
        unit_exact_22,
        lambda v: v.exact_22_bonus is not None,
        counts="players",
        params=("exact_22_bonus",),
    ),
    _counted_line(
        "failed_pickups",
        N_("Failed pickups"),
        N_("Each pickup of the discard pile a player had to give back."),
        FAILED_PICKUPS,
        unit_failed_pickup,
        lambda v: v.failed_pickup_penalty is not None,
        counts="pickups",
        params=("failed_pickup_penalty",),
    ),
    LineSpec(
        "cards_left",
        N_("Cards left"),
        N_("Cards still in hands and feet: they count against the side."),
        CARDS_LEFT_POINTS.section,
        (CARDS_LEFT_POINTS,),
        _always,
        _no_count,
        price_cards_left,
        against=True,
        params=("card_points",),
    ),
)

LINE_SPECS: Mapping[str, LineSpec] = {
    spec.key: spec for line in LINES for spec in (line, *line.parts)
}
"""Every line by key, the parts of a line included."""


def variant_lines(variant: Variant) -> tuple[LineSpec, ...]:
    """The lines this variant scores, in score-sheet order."""
    return tuple(line for line in LINES if line.has(variant))


def shown_parts(line: LineSpec, variant: Variant) -> tuple[LineSpec, ...]:
    """The line as a breakdown shows it under this variant: its parts, or itself."""
    parts = tuple(part for part in line.parts if part.has(variant))
    return parts or (line,)


def shown_specs(variant: Variant) -> tuple[LineSpec, ...]:
    """The rows of a breakdown under this variant, each line's parts in its place."""
    return tuple(part for line in variant_lines(variant) for part in shown_parts(line, variant))


def entered_fields(variant: Variant) -> tuple[EntryField, ...]:
    """The fields a table enters under this variant, in form order (flags included)."""
    return tuple(field for spec in shown_specs(variant) for field in spec.fields)


def line_label(line: LineSpec, variant: Variant, deal: int | None = None) -> Phrase:
    """A line's name under this variant (in deal `deal`, where it names the deal's exact
    cut): a line shown as one part takes that part's name (red threes where they are never
    laid down: "Red threes still held")."""
    parts = shown_parts(line, variant)
    return parts[0].label_for(variant, deal) if len(parts) == 1 else line.label_for(variant, deal)
