"""Whether a variant can be played: every check of a whole variant, each naming its field.

`validate_variant` reads every parameter's value against the spec (``rules.params``), then
checks what no single value can say: tables against decks, going out against the cards.
"""

from __future__ import annotations

from collections.abc import Iterator

from .book_supply import Short, book_shortages, most_books, supply_of
from .cards import BOOK_SIZE
from .decks import get_deck
from .messages import N_, Problem, Term
from .names import refused_characters
from .params import (
    ID_PATTERN,
    MAX_DECKS,
    MAX_ID,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SIDES,
    MAX_TEXT,
    SIZES_BY_DEAL,
    VARIANT_FIELDS,
    check_value,
    field_problem,
    has_type,
    params_for,
    quoted,
    value_at,
)
from .variants import BUILT_IN, BookCount, Table, Variant


def validate_variant(variant: Variant) -> list[Problem]:
    """Every reason the variant cannot be played; empty when a table can play it.

    Each problem names the parameter (``"book_bonus.wild"``, ``"going_out.4.clean"``,
    ``"tables"``...). Every built-in variant passes.
    """
    problems = list(_check_identity(variant))
    data = variant.to_dict()
    params = [param for param in params_for(variant.deals) if not param.every_deal]
    for param in params:
        problems += check_value(param, value_at(data, param.key))
    if not all(has_type(param, value_at(data, param.key)) for param in params):
        return problems
    problems += _check_deal_numbers(variant)
    problems += _check_target_score(variant)
    problems += _check_sizes_by_deal(variant)
    problems += _check_last_card(variant)
    problems += _check_threshold_order(variant)
    problems += _check_tables(variant)
    problems += _check_red_threes(variant)
    problems += _check_new_scoring_rules(variant)
    problems += _check_lady_bonus(variant)
    problems += _check_cutting(variant)
    if not any(p.field == "tables" for p in problems):
        problems += _check_going_out_possible(variant)
    return problems


def _check_target_score(variant: Variant) -> list[Problem]:
    """A target score more than 0 (one below 0 is refused by its kind)."""
    if variant.target_score != 0:
        return []
    return [
        field_problem(
            "target_score",
            N_("{field} must be more than 0, or empty (entered {value})."),
            value=variant.target_score,
        )
    ]


def _check_deal_numbers(variant: Variant) -> Iterator[Problem]:
    for name in ("concealed_book_first_meld_deals", "book_first_meld_deals"):
        late = [deal for deal in sorted(getattr(variant, name)) if deal > variant.deals]
        if late:
            yield field_problem(
                name,
                N_("{field}: deal {deal} is past the last deal of a game of {deals} deals."),
                deal=late[0],
                deals=variant.deals,
            )


def _check_last_card(variant: Variant) -> Iterator[Problem]:
    if variant.going_out_by_melding_only and variant.must_discard_to_go_out:
        yield field_problem(
            "going_out_by_melding_only",
            N_(
                "{field}: a player cannot both end on a discard and go out only by melding; "
                "choose one."
            ),
        )


def _check_sizes_by_deal(variant: Variant) -> Iterator[Problem]:
    for key in SIZES_BY_DEAL:
        sizes = getattr(variant, key)
        if sizes and len(sizes) != variant.deals:
            yield field_problem(
                key,
                N_(
                    "{field} must give one number for each of the {deals} deals, or none "
                    "(entered {count})."
                ),
                deals=variant.deals,
                count=len(sizes),
            )


def _largest_deal(variant: Variant) -> int:
    """The deal whose hands and feet take the most cards (the first of several)."""
    deals = range(1, variant.deals + 1)
    return max(deals, key=lambda deal: (_dealt_each(variant, deal), -deal))


def _dealt_each(variant: Variant, deal: int) -> int:
    return variant.hand_size_for(deal) + variant.foot_size_for(deal)


def _check_threshold_order(variant: Variant) -> Iterator[Problem]:
    scores = [threshold.from_score for threshold in variant.first_meld_by_score]
    if len(set(scores)) != len(scores):
        yield field_problem(
            "first_meld_by_score", N_("{field}: each running score can be listed only once.")
        )


def _check_identity(variant: Variant) -> Iterator[Problem]:
    if not ID_PATTERN.fullmatch(variant.id) or len(variant.id) > MAX_ID:
        yield field_problem(
            "id",
            N_(
                "The {field} must be lowercase letters, digits and single dashes, at most "
                "{most} characters (entered {value})."
            ),
            most=MAX_ID,
            value=quoted(variant.id),
        )
    yield from _check_name(variant.name)
    for key in ("summary", "source"):
        if len(getattr(variant, key)) > MAX_TEXT:
            yield field_problem(
                key, N_("The {field} can be at most {most} characters."), most=MAX_TEXT
            )
        elif refused_characters(getattr(variant, key)):
            yield field_problem(key, N_("The {field} cannot hold control characters."))
    for name in sorted(variant.inferred - set(VARIANT_FIELDS)):
        yield field_problem(
            "inferred",
            N_("{field} names {value}, which is not a rule of a variant."),
            value=quoted(name),
        )


def _check_name(name: str) -> Iterator[Problem]:
    if not name.strip():
        yield field_problem("name", N_("The {field} cannot be empty."))
    elif refused_characters(name):
        yield field_problem("name", N_("The {field} cannot hold control characters."))
    elif len(name) > MAX_NAME:
        yield field_problem(
            "name", N_("The {field} can be at most {most} characters."), most=MAX_NAME
        )


def _check_tables(variant: Variant) -> Iterator[Problem]:
    seen: set[tuple[int, int]] = set()
    largest = _largest_deal(variant)
    dealt_each = _dealt_each(variant, largest)
    for table in variant.tables:
        where = {"players": table.players, "sides": table.sides}
        if not 2 <= table.sides <= MAX_SIDES:
            yield field_problem(
                "tables",
                N_("{field}: a table has from 2 to {most} sides (entered {value})."),
                most=MAX_SIDES,
                value=table.sides,
            )
        elif not table.sides <= table.players <= MAX_PLAYERS:
            yield field_problem(
                "tables",
                N_("{field}: {sides} sides need from {sides} to {most} players (entered {value})."),
                sides=table.sides,
                most=MAX_PLAYERS,
                value=table.players,
            )
        elif table.players % table.sides:
            yield field_problem(
                "tables",
                N_("{field}: {players} players cannot make {sides} sides of equal size."),
                **where,
            )
        elif (table.sides, table.players) in seen:
            yield field_problem(
                "tables",
                N_("{field}: {players} players in {sides} sides are listed twice."),
                **where,
            )
        elif not 1 <= table.decks <= MAX_DECKS:
            yield field_problem(
                "tables",
                N_(
                    "{field}: {players} players in {sides} sides play with 1 to {most} decks "
                    "(entered {value})."
                ),
                most=MAX_DECKS,
                value=table.decks,
                **where,
            )
        elif table.players * dealt_each >= supply_of(variant, table).cards:
            yield field_problem(
                "tables",
                N_(
                    "{field}: dealing {players} players a hand of {hand} and a foot of {foot} "
                    "in deal {deal} takes {needed} cards, which leaves no stock from {decks} × "
                    "{size} = {cards} cards."
                )
                if variant.sizes_by_deal
                else N_(
                    "{field}: dealing {players} players a hand of {hand} and a foot of {foot} "
                    "takes {needed} cards, which leaves no stock from {decks} × {size} = {cards} "
                    "cards."
                ),
                players=table.players,
                deal=largest,
                hand=variant.hand_size_for(largest),
                foot=variant.foot_size_for(largest),
                needed=table.players * dealt_each,
                decks=table.decks,
                size=supply_of(variant, table).deck.size,
                cards=supply_of(variant, table).cards,
            )
        seen.add((table.sides, table.players))


def _check_red_threes(variant: Variant) -> Iterator[Problem]:
    red = variant.red_three
    if red.held > 0:
        yield field_problem(
            "red_three.held",
            N_(
                "{field} must be 0 or less: a red three left in hand or foot never scores "
                "for its side (entered {value})."
            ),
            value=red.held,
        )
    elif red.down is not None and red.held > red.down:
        yield field_problem(
            "red_three.held",
            N_("{field} ({value}) cannot be worth more than a red three laid down ({down})."),
            value=red.held,
            down=red.down,
        )


def _check_new_scoring_rules(variant: Variant) -> Iterator[Problem]:
    """Special books, red-three books and red threes laid down by a side that did not go out.

    A red three laid down by a side that did not go out may be worth less than one laid down
    by the side that went out (published scorers count 50 instead of 100), never more, and
    never less than one still held.
    """
    bonus = variant.book_bonus
    deck = get_deck(variant.deck)
    if bonus.special_rank is not None and bonus.special_rank not in deck.rank_symbols:
        yield field_problem(
            "book_bonus.special_rank",
            N_("{field}: the cards of these rules have no rank {value} (their ranks: {ranks})."),
            value=bonus.special_rank,
            ranks=", ".join(deck.rank_symbols),
        )
    if (bonus.special is None) != (bonus.special_rank is None):
        missing = "book_bonus.special" if bonus.special is None else "book_bonus.special_rank"
        yield field_problem(
            missing,
            N_("{field} is needed: a special book has both a rank and a bonus, or neither."),
        )
    red = variant.red_three
    if red.down is None:
        if red.down_not_out is not None:
            yield field_problem(
                "red_three.down_not_out",
                N_(
                    "{field}: red threes are never laid down under these rules, so it must "
                    "be empty (entered {value})."
                ),
                value=red.down_not_out,
            )
        if bonus.red_three is not None:
            yield field_problem(
                "book_bonus.red_three",
                N_(
                    "{field}: red threes are never laid down under these rules, so they "
                    "cannot make a book."
                ),
            )
    elif red.down_not_out is not None and not red.held <= red.down_not_out <= red.down:
        yield field_problem(
            "red_three.down_not_out",
            N_(
                "{field} must be from {held} (a red three still held) to {down} (one laid "
                "down by the side that went out), not {value}."
            ),
            held=red.held,
            down=red.down,
            value=red.down_not_out,
        )


def _check_lady_bonus(variant: Variant) -> Iterator[Problem]:
    """A bonus for red threes added to clean books only with a deck whose red threes may
    join a book."""
    if variant.book_bonus.lady is None or get_deck(variant.deck).red_threes_join_books:
        return
    yield field_problem(
        "book_bonus.lady",
        N_(
            "{field}: the red threes of {deck} never join a book, so it must be empty "
            "(entered {value})."
        ),
        deck=Term(get_deck(variant.deck).name),
        value=variant.book_bonus.lady,
    )


def _check_cutting(variant: Variant) -> Iterator[Problem]:
    if variant.exact_22_bonus is not None and not variant.cut_for_packets:
        yield field_problem(
            "exact_22_bonus",
            N_("{field}: only a game where players cut their own hand and foot can have it."),
        )
    hand, foot = variant.hand_size_for(1), variant.foot_size_for(1)
    total = hand + foot
    # Where the packets grow deal by deal, the exact cut is each deal's hand and foot.
    if variant.cut_for_packets and total != 22 and not variant.sizes_by_deal:
        yield field_problem(
            "cut_for_packets",
            N_(
                "{field}: the cut 22 cards make the hand and the foot, so they must add up "
                "to 22 (now {hand} + {foot} = {total})."
            ),
            hand=hand,
            foot=foot,
            total=total,
        )


def _check_going_out_possible(variant: Variant) -> Iterator[Problem]:
    """Each deal's going-out books can be made with the cards of every allowed table; the
    books of any kind too, and a special book only where there are special books."""
    if variant.going_out_needs_special_book and variant.book_bonus.special_rank is None:
        yield field_problem(
            "going_out_needs_special_book",
            N_("{field}: choose the rank of the special book first; this variant has none."),
        )
    for table in sorted(variant.tables, key=lambda t: t.decks):
        most = most_books(supply_of(variant, table), variant)
        if variant.going_out_any_books > most:
            yield field_problem(
                "going_out_any_books",
                N_(
                    "{field}: {players} players play with {decks} decks, whose cards make "
                    "at most {most} books, not {count}."
                ),
                players=table.players,
                decks=table.decks,
                most=most,
                count=variant.going_out_any_books,
            )
            break
    most_wilds = variant.wild_limit.most_wilds(BOOK_SIZE)
    for deal in range(1, variant.deals + 1):
        books = variant.going_out_for(deal)
        key = f"going_out.{deal}"
        if books.wild and not variant.wild_books:
            yield field_problem(
                f"{key}.wild",
                N_("{field}: this variant has no wild books, so going out cannot need {count}."),
                count=books.wild,
            )
            continue
        if books.dirty and most_wilds == 0:
            yield field_problem(
                "wild_limit.per_wild",
                N_(
                    "{field}: going out in deal {deal} needs dirty books, but this limit lets "
                    "no wild card into a book of seven."
                ),
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
        return field_problem(
            f"{key}.wild",
            N_(
                "{field}: {count} wild books need {needed} wild cards, but {players} "
                "players play with {decks} decks, which hold only {most}."
            ),
            count=books.wild,
            needed=shortage.needed,
            most=shortage.most,
            **where,
        )
    if shortage.short is Short.WILDS_FOR_DIRTY_BOOKS:
        return field_problem(
            f"{key}.dirty",
            N_(
                "{field}: {wild} wild and {dirty} dirty books need at least {needed} "
                "wild cards, but {players} players play with {decks} decks, which "
                "hold only {most}."
            ),
            wild=books.wild,
            dirty=books.dirty,
            needed=shortage.needed,
            most=shortage.most,
            **where,
        )
    if shortage.short is Short.CLEAN_BOOKS:
        return field_problem(
            f"{key}.clean",
            N_(
                "{field}: {players} players play with {decks} decks, which allow at "
                "most {most} clean books ({each} of each rank), not {count}."
            ),
            count=books.clean,
            most=shortage.most,
            each=shortage.each,
            **where,
        )
    return field_problem(
        f"{key}.dirty",
        N_(
            "{field}: {clean} clean and {dirty} dirty books need more natural "
            "cards than the {decks} decks of {players} players hold."
        ),
        clean=books.clean,
        dirty=books.dirty,
        **where,
    )


TEAMS_OF_TWO: frozenset[tuple[int, int]] = frozenset({(3, 6), (4, 8)})
"""Three or four teams of two partners, seated apart (A1 B1 C1 A2 B2 C2): no built-in variant
plays them, yet house rules may."""

KNOWN_TABLES: frozenset[tuple[int, int]] = (
    frozenset(
        (table.sides, table.players) for variant in BUILT_IN.values() for table in variant.tables
    )
    | TEAMS_OF_TWO
)
"""(sides, players) of every table the games, forms and sheets are laid out for: the tables of
the built-in variants and three or four teams of two, so house rules choose among them (with
any number of decks)."""


def check_known_tables(variant: Variant) -> Iterator[Problem]:
    for table in variant.tables:
        if (table.sides, table.players) not in KNOWN_TABLES:
            yield field_problem(
                "tables",
                N_(
                    "{field}: {players} players in {sides} sides is not a table this app "
                    "lays out; house rules keep to the tables of the built-in variants, or "
                    "three or four teams of two."
                ),
                players=table.players,
                sides=table.sides,
            )
