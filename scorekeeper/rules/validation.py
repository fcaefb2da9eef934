"""Checks one deal (all sides together) against what its variant makes possible.

Errors are entries the rules make impossible: the deal is refused. Warnings are possible but
unusual: the table is asked to confirm. Every problem names the side and the field it is
about. Validation never raises: whatever the numbers, it answers with problems.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .book_supply import Short, book_shortages, supply_of
from .cards import BOOK_SIZE, SMALLEST_CARD_POINTS
from .decks import CardType, Supply, get_deck
from .entry import COUNT_FIELDS, POINT_FIELDS, DealEntry, SideEntry
from .messages import FIELD_TERMS, N_, Problem, Severity, Term
from .phrases import BOOK_KINDS
from .score_lines import exact_cut
from .terms import NP_, Plural
from .variants import ConcealedOpening, RankMelds, Table, Variant

ANY_BOOKS = NP_("%(num)s book", "%(num)s books")
"""A number of books of any kind."""
PLAYERS = NP_("%(num)s player", "%(num)s players")


@dataclass(frozen=True, slots=True)
class Report:
    """The problems found in one deal."""

    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        return not self.errors

    def for_side(self, side: int) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.side == side)


@dataclass(frozen=True, slots=True)
class _Deal:
    """An entry whose deal number and table are known to be valid, with the side names."""

    entry: DealEntry
    table: Table
    names: tuple[str, ...]

    @property
    def variant(self) -> Variant:
        return self.entry.variant

    @property
    def number(self) -> int:
        return self.entry.deal

    def sides(self) -> Iterator[tuple[int, str, SideEntry]]:
        for index, side in enumerate(self.entry.sides):
            yield index, self.names[index], side

    def total(self, field: str) -> int:
        return sum(int(getattr(side, field)) for side in self.entry.sides)

    def each(self, count: Callable[[SideEntry], int]) -> str:
        """What each side has of a table-wide total, named: "Us 11, Them 10"."""
        return ", ".join(f"{name} {count(side)}" for _index, name, side in self.sides())

    @property
    def supply(self) -> Supply:
        return supply_of(self.variant, self.table)


def _error(side: int | None, field: str | None, template: str, /, **params: object) -> Problem:
    return Problem(side, field, template, params, Severity.ERROR)


def _warning(side: int | None, field: str | None, template: str, /, **params: object) -> Problem:
    return Problem(side, field, template, params, Severity.WARNING)


def default_side_names(count: int) -> tuple[str, ...]:
    return tuple(f"Side {number}" for number in range(1, count + 1))


def validate_deal(entry: DealEntry, side_names: Sequence[str] | None = None) -> Report:
    """Every problem with the entry; an empty report means the deal can be saved."""
    names = tuple(side_names or ()) + default_side_names(len(entry.sides))[len(side_names or ()) :]
    shape = list(_check_shape(entry, names))
    table = entry.table
    if shape or table is None:
        return Report(tuple(shape))
    deal = _Deal(entry, table, names)
    problems = [problem for check in RULE_CHECKS for problem in check(deal)]
    return Report(tuple(problems))


# --- the shape of the entry: numbers in range, a deal and table the variant allows ----------


def _check_shape(entry: DealEntry, names: tuple[str, ...]) -> Iterator[Problem]:
    variant = entry.variant
    if not 1 <= entry.deal <= entry.variant.deals:
        yield _error(
            None,
            "deal",
            N_("The deal must be a number from 1 to {last}, not {value}."),
            last=variant.deals,
            value=entry.deal,
        )
    scores = entry.running_scores
    if (
        scores is not None
        and variant.target_score is not None
        and 1 < entry.deal <= variant.deals
        and variant.reached_target(scores)
    ):
        yield _error(
            None,
            "deal",
            N_(
                "The game ended before deal {deal}: a side reached the target score of "
                "{target}, so no further deal is played."
            ),
            deal=entry.deal,
            target=variant.target_score,
        )
    if scores is not None and len(scores) != len(entry.sides):
        yield _error(
            None,
            "running_scores",
            N_("The running scores must give one score per side ({count}), not {value}."),
            count=len(entry.sides),
            value=len(scores),
        )
    counts = variant.side_counts
    if len(entry.sides) not in counts:
        yield _error(
            None,
            "sides",
            N_("{variant} is played by {allowed} sides, not {value}."),
            variant=Term(variant.name),
            allowed=_or_list(counts),
            value=len(entry.sides),
        )
    elif entry.players is not None and entry.table is None:
        allowed = [t.players for t in variant.tables if t.sides == len(entry.sides)]
        yield _error(
            None,
            "players",
            N_("{variant} with {sides} sides is played by {allowed} players, not {value}."),
            variant=Term(variant.name),
            sides=len(entry.sides),
            allowed=_or_list(allowed),
            value=entry.players,
        )
    for index, side in enumerate(entry.sides):
        yield from _check_side_ranges(variant, index, names[index], side)


def _may_be_negative(variant: Variant, field: str) -> bool:
    """Melded points may end below 0 where melded black threes count against the side."""
    return field == "meld_points" and _melded_black_three(variant) < 0


def _melded_black_three(variant: Variant) -> int:
    """What one melded black three is worth; 0 where black threes are never melded."""
    return variant.card_points.black_three_melded if variant.black_three_books else 0


def _check_side_ranges(
    variant: Variant, index: int, name: str, side: SideEntry
) -> Iterator[Problem]:
    for field in COUNT_FIELDS:
        value = getattr(side, field)
        if value < 0 and not _may_be_negative(variant, field):
            yield _error(
                index,
                field,
                N_("{side}: {field} cannot be below 0 (entered {value})."),
                side=name,
                field=FIELD_TERMS[field],
                value=value,
            )
        elif field in POINT_FIELDS and value % SMALLEST_CARD_POINTS:
            yield _error(
                index,
                field,
                N_("{side}: {field} must be a multiple of 5, as every card is (entered {value})."),
                side=name,
                field=FIELD_TERMS[field],
                value=value,
            )


def _or_list(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# --- the rules: what the cards in play and the variant make possible --------------------------


_BOOKS_A_VARIANT_MAY_LACK: tuple[tuple[str, Callable[[Variant], bool], str], ...] = (
    (
        "wild_books",
        lambda v: v.wild_books,
        N_("{side}: {variant} has no wild books, so none can be scored."),
    ),
    (
        "black_three_books",
        lambda v: v.black_three_books,
        N_("{side}: {variant} has no black-three books, so none can be scored."),
    ),
    (
        "special_books",
        lambda v: v.book_bonus.special is not None,
        N_("{side}: {variant} has no special books, so none can be scored."),
    ),
    (
        "red_three_books",
        lambda v: v.book_bonus.red_three is not None,
        N_("{side}: {variant} has no red-three books, so none can be scored."),
    ),
    (
        "ladies_in_books",
        lambda v: v.book_bonus.lady is not None,
        N_(
            "{side}: {variant} has no bonus for red threes added to clean books, so "
            "none can be scored."
        ),
    ),
)
"""Each kind of book some variants have, whether this one has it, and the refusal if not."""


def _check_book_kinds(deal: _Deal) -> Iterator[Problem]:
    """A variant without a kind of book (wild, black-three, special...) takes none (fact 10)."""
    for index, name, side in deal.sides():
        for field, has, template in _BOOKS_A_VARIANT_MAY_LACK:
            if getattr(side, field) and not has(deal.variant):
                yield _error(index, field, template, side=name, variant=Term(deal.variant.name))


def _check_exact_22(deal: _Deal) -> Iterator[Problem]:
    for index, name, side in deal.sides():
        if side.exact_22 and deal.variant.exact_22_bonus is None:
            yield _error(
                index,
                "exact_22",
                N_("{side}: {variant} has no bonus for an exact cut."),
                side=name,
                variant=Term(deal.variant.name),
            )
        elif side.exact_22 > deal.table.players_per_side:
            yield _error(
                index,
                "exact_22",
                N_("{side}: only {most} on this side could cut exactly {cut} cards, not {value}."),
                side=name,
                most=Plural(*PLAYERS, count=deal.table.players_per_side),
                cut=exact_cut(deal.variant, deal.number),
                value=side.exact_22,
            )


def _check_failed_pickups(deal: _Deal) -> Iterator[Problem]:
    for index, name, side in deal.sides():
        if side.failed_pickups and deal.variant.failed_pickup_penalty is None:
            yield _error(
                index,
                "failed_pickups",
                N_("{side}: {variant} has no penalty for a failed pickup of the discard pile."),
                side=name,
                variant=Term(deal.variant.name),
            )
        elif side.failed_pickups > MAX_FAILED_PICKUPS:
            yield _error(
                index,
                "failed_pickups",
                N_("{side}: {value} failed pickups in one deal is more than any table sees."),
                side=name,
                value=side.failed_pickups,
            )


def _check_going_out(deal: _Deal) -> Iterator[Problem]:
    """At most one side goes out, none when the stock ran out, one otherwise (fact 6)."""
    out = [index for index, _, side in deal.sides() if side.went_out]
    if deal.entry.stock_ran_out:
        for index in out:
            yield _error(
                index,
                "went_out",
                N_(
                    "{side} cannot have gone out: the stock ran out, which ends the deal "
                    "with nobody going out."
                ),
                side=deal.names[index],
            )
    elif len(out) > 1:
        yield _error(
            None,
            "went_out",
            N_("Only one side can go out in a deal; {count} are marked ({names})."),
            count=len(out),
            names=", ".join(deal.names[i] for i in out),
        )
    elif not out:
        yield _error(
            None,
            "went_out",
            N_(
                "A deal ends when a side goes out or the stock runs out: mark the side "
                "that went out, or mark that the stock ran out."
            ),
        )


def _check_going_out_books(deal: _Deal) -> Iterator[Problem]:
    """The side that went out has the books this deal asks for (fact 7)."""
    out = [index for index, _, side in deal.sides() if side.went_out]
    if deal.entry.stock_ran_out or len(out) != 1:
        return
    variant = deal.variant
    needed = variant.going_out_for(deal.number)
    for index, name, side in deal.sides():
        if index not in out:
            continue
        # Black-three books and special books hold no wild card: they count as the variant
        # says (clean books unless it says otherwise). A red-three book is a bonus, not a
        # meld: it never counts.
        books = variant.books_toward_going_out(
            side.clean_books,
            side.dirty_books,
            side.wild_books,
            side.black_three_books,
            side.special_books,
        )
        for kind, count in needed:
            have = getattr(books, kind)
            if have < count:
                yield _error(
                    index,
                    f"{kind}_books",
                    N_(
                        "{side} went out with {books}, but going out in deal {deal} "
                        "needs at least {count}."
                    ),
                    side=name,
                    books=Plural(*BOOK_KINDS[kind].counted, count=have),
                    deal=deal.number,
                    count=count,
                )


def _check_going_out_other_books(deal: _Deal) -> Iterator[Problem]:
    """The side that went out has the books of any kind, and the special book, that going
    out needs besides the books of each kind."""
    variant = deal.variant
    if deal.entry.stock_ran_out:
        return
    for index, name, side in deal.sides():
        if not side.went_out:
            continue
        books = side.books() - side.red_three_books
        if books < variant.going_out_any_books:
            yield _error(
                index,
                "clean_books",
                N_(
                    "{side} went out with {books} in all, but going out needs at least "
                    "{needed} of any kind."
                ),
                side=name,
                books=Plural(*ANY_BOOKS, count=books),
                needed=Plural(*ANY_BOOKS, count=variant.going_out_any_books),
            )
        if variant.going_out_needs_special_book and not side.special_books:
            yield _error(
                index,
                "special_books",
                N_("{side} went out with no special book, but going out needs one."),
                side=name,
            )


def _first_meld_minimum(variant: Variant, deal: int, running_score: int | None = None) -> int:
    """The points a side's first meld must reach in the deal (by deal, or by its running
    score where the variant has thresholds); 0 where a concealed book replaces them."""
    if (
        deal in variant.concealed_book_first_meld_deals
        and variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
    ):
        return 0
    return variant.first_meld_for_score(deal, running_score)


def _running_score(deal: _Deal, side: int) -> int | None:
    scores = deal.entry.running_scores
    return scores[side] if scores is not None else None


def _check_first_meld(deal: _Deal) -> Iterator[Problem]:
    """A side that melded at all reached its minimum first meld (fact 8).

    Where melded black threes count against the side, wherever they lie, every black three
    in play may have been melded after the first meld: the end total may sit below it. Where
    a first meld that lays down a whole hand needs no minimum, the side melded at least the
    cheapest such hand instead.
    """
    lowered = _black_threes_against(deal.variant, deal.table)
    by_score = bool(deal.variant.first_meld_by_score)
    whole_hand = _least_whole_hand_points(deal)
    for index, name, side in deal.sides():
        score = _running_score(deal, index)
        minimum = min(_first_meld_minimum(deal.variant, deal.number, score), whole_hand)
        if not side.has_melded() or side.meld_points >= minimum + lowered:
            continue
        if minimum == whole_hand:
            yield _error(
                index,
                "meld_points",
                N_(
                    "{side}: {points} melded card points is below even a first meld that "
                    "lays down a whole hand in deal {deal}, which holds at least {minimum}."
                ),
                side=name,
                points=side.meld_points,
                deal=deal.number,
                minimum=minimum,
            )
        elif by_score and score is not None:
            yield _error(
                index,
                "meld_points",
                N_(
                    "{side}: {points} melded card points is below the first meld of a side "
                    "at {score} points, which alone must reach {minimum}."
                ),
                side=name,
                points=side.meld_points,
                score=score,
                minimum=minimum,
            )
        else:
            yield _error(
                index,
                "meld_points",
                N_(
                    "{side}: {points} melded card points is below the first meld of deal "
                    "{deal}, which alone must reach {minimum}."
                ),
                side=name,
                points=side.meld_points,
                deal=deal.number,
                minimum=minimum,
            )


def _least_whole_hand_points(deal: _Deal) -> int:
    """The fewest card points a first meld laying down a whole hand can hold, where the
    variant waives the minimum for one (else more than any minimum).

    The player holds at least one card more than the hand dealt (the turn's draw, less the
    discards of earlier turns), all laid down: the cheapest natural and wild cards the decks
    hold (black threes are melded only to go out).
    """
    variant = deal.variant
    if not variant.first_meld_waived_to_empty_hand:
        return sys.maxsize
    supply = supply_of(variant, deal.table)
    cards = [
        *supply.natural_points(variant.card_points),
        *supply.wild_points(variant.card_points),
    ]
    return _cheapest(cards, variant.hand_size_for(deal.number) + 1)[0]


MAX_FAILED_PICKUPS = 50
"""More pickups given back than this in one deal is a slip of the finger, not a deal."""

_CONCEALED_OPENING = N_(
    "{side}: the first meld of deal {deal} must include a concealed book, so a side that "
    "melded has at least one book (entered {points} melded card points and no book)."
)
_BOOK_OPENING = N_(
    "{side}: the first meld of deal {deal} must hold a book, so a side that melded has at "
    "least one book (entered {points} melded card points and no book)."
)


def _check_opening_book(deal: _Deal) -> Iterator[Problem]:
    """Where the deal's first meld needs a book (a concealed one, or any), a side that melded
    holds one."""
    variant = deal.variant
    if deal.number in variant.concealed_book_first_meld_deals:
        message = _CONCEALED_OPENING
    elif deal.number in variant.book_first_meld_deals:
        message = _BOOK_OPENING
    else:
        return
    for index, name, side in deal.sides():
        if side.has_melded() and side.books() == side.red_three_books:
            yield _error(
                index,
                "meld_points",
                message,
                side=name,
                deal=deal.number,
                points=side.meld_points,
            )


def _black_threes_against(variant: Variant, table: Table) -> int:
    """How far melded black threes may lower a side's melded points: all of them, melded."""
    return min(0, _melded_black_three(variant)) * supply_of(variant, table).black_threes


def _cheapest(supply: Sequence[tuple[int, int]], count: int) -> tuple[int, list[tuple[int, int]]]:
    """The points of the `count` cheapest cards of `supply` ((points, cards) pairs), and
    what is left of the supply. Takes what exists when the supply is short."""
    total = 0
    left = []
    for each, cards in sorted(supply):
        taken = min(cards, count)
        total += taken * each
        count -= taken
        if cards > taken:
            left.append((each, cards - taken))
    return total, left


def least_book_points(variant: Variant, table: Table, side: SideEntry) -> int:
    """The fewest card points the books of `side` can hold, from the cards the decks hold.

    Every book has seven cards (fact 5). A clean book takes seven naturals, a wild book seven
    wilds, a dirty book at least one wild and as many naturals as the wild limit asks; its
    other cards may be either. The cheapest naturals and wilds go first: once the twos are
    used up, a wild is a joker.
    """
    points = variant.card_points
    supply = supply_of(variant, table)
    special = _special_card(variant)
    naturals = supply.without_rank(variant.book_bonus.special_rank).natural_points(points)
    wilds = supply.wild_points(points)
    most_wilds = max(1, variant.wild_limit.most_wilds(BOOK_SIZE))
    natural_points, naturals = _cheapest(
        naturals, BOOK_SIZE * side.clean_books + (BOOK_SIZE - most_wilds) * side.dirty_books
    )
    wild_points, wilds = _cheapest(wilds, BOOK_SIZE * side.wild_books + side.dirty_books)
    either_points, _left = _cheapest(naturals + wilds, (most_wilds - 1) * side.dirty_books)
    black_three_points = BOOK_SIZE * side.black_three_books * max(0, _melded_black_three(variant))
    each_special = special.points_in(points) if special is not None else 0
    special_points = BOOK_SIZE * side.special_books * each_special
    return natural_points + wild_points + either_points + black_three_points + special_points


def _special_card(variant: Variant) -> CardType | None:
    """The card of the variant's special rank in its deck, if it has one."""
    rank = variant.book_bonus.special_rank
    if rank is None:
        return None
    try:
        return get_deck(variant.deck).natural(rank)
    except ValueError:
        return None


def _check_book_points(deal: _Deal) -> Iterator[Problem]:
    """Melded card points hold at least the cards of the books scored (fact 5)."""
    lowered = _black_threes_against(deal.variant, deal.table)
    for index, name, side in deal.sides():
        floor = least_book_points(deal.variant, deal.table, side) + lowered
        if side.meld_points < floor:
            yield _error(
                index,
                "meld_points",
                N_(
                    "{side}: {points} melded card points is too few for the books entered, "
                    "whose cards alone are worth at least {floor}."
                ),
                side=name,
                points=side.meld_points,
                floor=floor,
            )


def _check_card_points_in_play(deal: _Deal) -> Iterator[Problem]:
    """Melded and left-over points together cannot exceed the points in the decks."""
    most = deal.supply.total_points(deal.variant.card_points)
    too_many = [
        _error(
            index,
            field,
            N_("{side}: {value} {field} is more than all {decks} decks hold ({most})."),
            side=name,
            value=getattr(side, field),
            field=FIELD_TERMS[field],
            decks=deal.table.decks,
            most=most,
        )
        for field in POINT_FIELDS
        for index, name, side in deal.sides()
        if getattr(side, field) > most
    ]
    yield from too_many
    together = deal.total("meld_points") + deal.total("cards_left_points")
    if not too_many and together > most:
        yield _error(
            None,
            "meld_points",
            N_(
                "All sides together have {value} card points melded and left over, more than "
                "all {decks} decks hold ({most})."
            ),
            value=together,
            decks=deal.table.decks,
            most=most,
        )


def _check_threes(deal: _Deal) -> Iterator[Problem]:
    """Two red and two black threes a deck, for the whole table (fact 2).

    The decks bound the sides together: each message says so and gives each side's count.
    """
    supply = deal.supply
    red = deal.total("red_threes_down") + deal.total("red_threes_held")
    red_books = deal.total("red_three_books")
    ladies = deal.total("ladies_in_books")

    def reds(side: SideEntry) -> int:
        return (
            side.red_threes_down
            + side.red_threes_held
            + side.ladies_in_books
            + BOOK_SIZE * side.red_three_books
        )

    if ladies and red + ladies + BOOK_SIZE * red_books > supply.red_threes:
        yield _error(
            None,
            "ladies_in_books",
            N_(
                "Together, the sides have {count} red threes ({sides}), {ladies} of them "
                "added to clean books, but {decks} decks hold only {most}."
            ),
            count=red + ladies + BOOK_SIZE * red_books,
            sides=deal.each(reds),
            ladies=ladies,
            decks=deal.table.decks,
            most=supply.red_threes,
        )
    elif red + BOOK_SIZE * red_books > supply.red_threes:
        yield _error(
            None,
            "red_three_books" if red_books else _most_entered(deal, _RED_THREE_FIELDS),
            N_(
                "Together, the sides have {count} red threes ({sides}), but {decks} decks "
                "hold only {most}."
            )
            if not red_books
            else N_(
                "Together, the sides have {count} red threes ({sides}), counting seven in "
                "each red-three book, but {decks} decks hold only {most}."
            ),
            count=red + BOOK_SIZE * red_books,
            sides=deal.each(reds),
            decks=deal.table.decks,
            most=supply.red_threes,
        )
    black_books = deal.total("black_three_books")
    if black_books * BOOK_SIZE > supply.black_threes:
        yield _error(
            None,
            "black_three_books",
            N_(
                "Together, the sides have {count} black-three books ({sides}), which need "
                "{needed} black threes, but {decks} decks hold only {most}."
            ),
            count=black_books,
            sides=deal.each(lambda side: side.black_three_books),
            needed=black_books * BOOK_SIZE,
            decks=deal.table.decks,
            most=supply.black_threes,
        )


_RED_THREE_FIELDS = ("red_threes_down", "red_threes_held")


def _most_entered(deal: _Deal, fields: Sequence[str]) -> str:
    """Of fields that add up to one total, the one with the most entered (the first on a tie):
    the field a table-wide message is shown beside."""
    return max(fields, key=lambda field: (deal.total(field), -fields.index(field)))


def _check_books_supply(deal: _Deal) -> Iterator[Problem]:
    """The decks hold the wild and natural cards of every book entered (facts 3 and 4).

    The special rank makes special books only: clean and dirty books are of the other ranks.
    """
    clean = deal.total("clean_books")
    dirty = deal.total("dirty_books")
    wild = deal.total("wild_books")
    decks = deal.table.decks
    supply = deal.supply.without_rank(deal.variant.book_bonus.special_rank)
    for shortage in book_shortages(supply, deal.variant.wild_limit, clean, dirty, wild):
        if shortage.short is Short.WILDS_FOR_WILD_BOOKS:
            yield _error(
                None,
                "wild_books",
                N_(
                    "{count} wild books need {needed} wild cards, but {decks} decks hold only "
                    "{most}."
                ),
                count=wild,
                needed=shortage.needed,
                decks=decks,
                most=shortage.most,
            )
        elif shortage.short is Short.WILDS_FOR_DIRTY_BOOKS:
            yield _error(
                None,
                "dirty_books",
                N_(
                    "{wild} wild books and {dirty} dirty books need at least {needed} wild cards, "
                    "but {decks} decks hold only {most}."
                ),
                wild=wild,
                dirty=dirty,
                needed=shortage.needed,
                decks=decks,
                most=shortage.most,
            )
        elif shortage.short is Short.CLEAN_BOOKS:
            yield _error(
                None,
                "clean_books",
                N_(
                    "Together, the sides have {count} clean books ({sides}), but {decks} "
                    "decks allow at most {most} ({each} of each rank)."
                ),
                count=clean,
                sides=deal.each(lambda side: side.clean_books),
                decks=decks,
                most=shortage.most,
                each=shortage.each,
            )
        else:
            yield _error(
                None,
                "dirty_books",
                N_(
                    "{clean} clean and {dirty} dirty books need more natural cards than "
                    "{decks} decks hold."
                ),
                clean=clean,
                dirty=dirty,
                decks=decks,
            )


def _check_special_supply(deal: _Deal) -> Iterator[Problem]:
    """The special rank has as many cards as any rank: its books, table-wide, are bounded."""
    card = _special_card(deal.variant)
    special = deal.total("special_books")
    if card is None:
        return
    cards = deal.supply.of_rank(card)
    if special > cards // BOOK_SIZE:
        yield _error(
            None,
            "special_books",
            N_(
                "Together, the sides have {count} special books ({sides}), but {decks} decks "
                "hold {cards} cards of rank {rank}: at most {most} books."
            ),
            count=special,
            sides=deal.each(lambda side: side.special_books),
            decks=deal.table.decks,
            cards=cards,
            rank=card.symbol,
            most=cards // BOOK_SIZE,
        )


def _check_cards_left(deal: _Deal) -> Iterator[Problem]:
    """Everyone but the player who went out still holds a card (fact 9).

    A card held is worth at least 5, but where red threes are never laid down a player may
    end holding only red threes, which score on their own line.
    """
    for index, name, side in deal.sides():
        out = side.went_out and not deal.entry.stock_ran_out
        holders = deal.table.players_per_side - (1 if out else 0)
        if holders == 0 or deal.variant.players_may_run_out:
            # Where a player may run out of cards and wait, any player may hold none.
            continue
        only_red = 0 if deal.variant.red_threes_laid_down else side.red_threes_held
        least = least_held_points(deal.variant, deal.table, max(0, holders - only_red))
        if side.cards_left_points >= least:
            if side.cards_left_points == 0:
                yield _warning(
                    index,
                    "cards_left_points",
                    N_(
                        "{side}: with no points of cards left, every player still holding "
                        "cards holds only red threes. Is that right?"
                    )
                    if least_held_points(deal.variant, deal.table, 1)
                    else N_(
                        "{side}: no points of cards left means that every player still "
                        "holding cards holds only black or red threes, worth nothing here. "
                        "Is that right?"
                    ),
                    side=name,
                )
            continue
        if only_red:
            yield _error(
                index,
                "cards_left_points",
                N_(
                    "{side}: {holders} player(s) still hold at least one card each and only "
                    "{red} red three(s) are held, so the cards left are worth at least {least}, "
                    "not {value}."
                ),
                side=name,
                holders=holders,
                red=only_red,
                least=least,
                value=side.cards_left_points,
            )
        elif side.cards_left_points == 0:
            template = (
                N_(
                    "{side} went out, but a partner plays on until then and still holds at "
                    "least one card: the points of cards left cannot be 0."
                )
                if out
                else N_(
                    "{side} did not go out, so each of its players still holds at least one "
                    "card: the points of cards left cannot be 0."
                )
            )
            yield _error(index, "cards_left_points", template, side=name)
        else:
            yield _error(
                index,
                "cards_left_points",
                N_(
                    "{side}: {holders} player(s) still hold at least one card each, so the "
                    "cards left are worth at least {least}, not {value}."
                ),
                side=name,
                holders=holders,
                least=least,
                value=side.cards_left_points,
            )


def least_held_points(variant: Variant, table: Table, players: int) -> int:
    """The fewest card points `players` players can hold, one card each, from the cards the
    decks hold (red threes aside): 5 each with the usual values, fewer where black threes
    are worth nothing."""
    supply = supply_of(variant, table)
    cards = [
        *supply.natural_points(variant.card_points),
        *supply.wild_points(variant.card_points),
        (variant.card_points.black_three, supply.black_threes),
    ]
    return _cheapest(cards, players)[0]


def _check_rank_melds(deal: _Deal) -> Iterator[Problem]:
    """Where a rank is melded only once, a side has a book of each rank at most."""
    if deal.variant.rank_melds is not RankMelds.ONE:
        return
    most = len(get_deck(deal.variant.deck).naturals)
    for index, name, side in deal.sides():
        natural = side.clean_books + side.dirty_books + side.special_books
        if natural > most:
            yield _error(
                index,
                "clean_books",
                N_(
                    "{side}: {variant} allows one meld of each rank, so a side has at most "
                    "{most} clean and dirty books together (A, K ... 4), not {count}."
                ),
                side=name,
                variant=Term(deal.variant.name),
                most=most,
                count=natural,
            )
        if side.black_three_books > 1:
            yield _error(
                index,
                "black_three_books",
                N_(
                    "{side}: {variant} allows one meld of each rank, so a side has at most "
                    "one black-three book, not {count}."
                ),
                side=name,
                variant=Term(deal.variant.name),
                count=side.black_three_books,
            )
        if side.special_books > 1:
            yield _error(
                index,
                "special_books",
                N_(
                    "{side}: {variant} allows one meld of each rank, so a side has at most "
                    "one special book, not {count}."
                ),
                side=name,
                variant=Term(deal.variant.name),
                count=side.special_books,
            )


def _check_red_threes_laid_down(deal: _Deal) -> Iterator[Problem]:
    """Red threes are laid down only where the variant lays them down."""
    if deal.variant.red_threes_laid_down:
        return
    for index, name, side in deal.sides():
        if side.red_threes_down:
            yield _error(
                index,
                "red_threes_down",
                N_(
                    "{side}: in {variant} red threes are never laid down, only discarded, so "
                    "red threes laid down must be 0 (entered {value}); count the ones still "
                    "held at the end instead."
                ),
                side=name,
                variant=Term(deal.variant.name),
                value=side.red_threes_down,
            )


def _check_red_threes_after_going_out(deal: _Deal) -> Iterator[Problem]:
    """Where partners must be in their foot to go out and red threes go down at once, the
    side that went out holds none: every red three its players found is on the table."""
    variant = deal.variant
    if not (variant.red_threes_laid_down and variant.going_out_needs_partner_in_foot):
        return
    out = [index for index, _, side in deal.sides() if side.went_out]
    if deal.entry.stock_ran_out or len(out) != 1 or deal.table.players_per_side == 1:
        return
    for index, name, side in deal.sides():
        if index in out and side.red_threes_held:
            yield _error(
                index,
                "red_threes_held",
                N_(
                    "{side} went out, so its partner had picked up the foot, and in {variant} "
                    "every red three found is laid down at once: no red three can still be "
                    "held (entered {value})."
                ),
                side=name,
                variant=Term(variant.name),
                value=side.red_threes_held,
            )


def _check_lone_player_out(deal: _Deal) -> Iterator[Problem]:
    """A player alone on a side who went out holds nothing at all."""
    if deal.entry.stock_ran_out or deal.table.players_per_side != 1:
        return
    for index, name, side in deal.sides():
        if not side.went_out:
            continue
        if side.cards_left_points:
            yield _error(
                index,
                "cards_left_points",
                N_("{side} went out, so no cards are left in hand or foot (entered {value})."),
                side=name,
                value=side.cards_left_points,
            )
        if side.red_threes_held:
            yield _error(
                index,
                "red_threes_held",
                N_("{side} went out, so no red three can still be held (entered {value})."),
                side=name,
                value=side.red_threes_held,
            )


def partner_melds_before_going_out(variant: Variant, table: Table) -> bool:
    """Whether a side at this table always has melds down before it goes out: where a partner
    must have picked up the foot first, the partner got there by melding the hand (a hand
    only grows by drawing and discarding), so no side of two or more goes out concealed."""
    return variant.going_out_needs_partner_in_foot and table.players_per_side > 1


def _check_went_out_concealed(deal: _Deal) -> Iterator[Problem]:
    """Going out concealed is a way of going out, scores only where the rules pay it, and
    cannot happen where a partner melds before the side may go out."""
    for index, name, side in deal.sides():
        if not side.went_out_concealed:
            continue
        if not side.went_out:
            yield _error(
                index,
                "went_out_concealed",
                N_("{side} did not go out, so it cannot have gone out concealed."),
                side=name,
            )
        elif not deal.variant.going_out_concealed_bonus:
            yield _error(
                index,
                "went_out_concealed",
                N_("{side}: {variant} has no bonus for going out concealed."),
                side=name,
                variant=Term(deal.variant.name),
            )
        elif partner_melds_before_going_out(deal.variant, deal.table):
            yield _error(
                index,
                "went_out_concealed",
                N_(
                    "{side} cannot have gone out concealed: in {variant} a side goes out only "
                    "once a partner has picked up the foot, which takes melding, so the side "
                    "had melds on the table before it went out."
                ),
                side=name,
                variant=Term(deal.variant.name),
            )


def _check_ladies_have_clean_books(deal: _Deal) -> Iterator[Problem]:
    """A red three is added to one of the side's own clean books: no clean book, none added.

    A clean book of the special rank is a clean book too.
    """
    for index, name, side in deal.sides():
        if side.ladies_in_books and not side.clean_books + side.special_books:
            yield _error(
                index,
                "ladies_in_books",
                N_(
                    "{side}: {value} red threes added to clean books, but the side has no "
                    "clean book to add them to."
                ),
                side=name,
                value=side.ladies_in_books,
            )


def _check_red_three_books_made(deal: _Deal) -> Iterator[Problem]:
    """Where seven red threes make a book, a side never has seven laid down outside one."""
    if deal.variant.book_bonus.red_three is None:
        return
    for index, name, side in deal.sides():
        if side.red_threes_down >= BOOK_SIZE:
            yield _error(
                index,
                "red_threes_down",
                N_(
                    "{side}: in {variant} seven red threes laid down make a red-three book: "
                    "count each seven as a book, and only the others as laid down "
                    "(entered {value})."
                ),
                side=name,
                variant=Term(deal.variant.name),
                value=side.red_threes_down,
            )


RULE_CHECKS: tuple[Callable[[_Deal], Iterator[Problem]], ...] = (
    _check_book_kinds,
    _check_exact_22,
    _check_failed_pickups,
    _check_going_out,
    _check_going_out_books,
    _check_going_out_other_books,
    _check_first_meld,
    _check_opening_book,
    _check_book_points,
    _check_card_points_in_play,
    _check_threes,
    _check_books_supply,
    _check_special_supply,
    _check_cards_left,
    _check_lone_player_out,
    _check_rank_melds,
    _check_red_threes_laid_down,
    _check_red_threes_after_going_out,
    _check_went_out_concealed,
    _check_red_three_books_made,
    _check_ladies_have_clean_books,
)
