"""The engine plays going out as the house rules say: what a black-three book and a special
book count as, the books of any kind and the special book going out needs, a player who runs
out of cards and waits, and a first meld that needs a book."""

from __future__ import annotations

from engine_helpers import meld, refused, table

from scorekeeper.engine import (
    AskToGoOut,
    DealEnd,
    DealState,
    Discard,
    Draw,
    Face,
    HeuristicBot,
    Meld,
    Phase,
    Play,
    apply,
    is_legal,
)
from scorekeeper.engine.going_out import can_go_out
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import Variant, get_variant

K = Face.KING
A = Face.ACE
FIVE = Face.FIVE


def house(based_on: str = "brouillette-low", **changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


def goes_out(variant: Variant, books: list, plays: tuple[Play, ...] = (Play(K, 3),)) -> bool:
    """Whether player 1, in the foot with three kings, goes out melding `plays` beside the
    side's `books` (Brouillette's deal 1 asks one clean and one dirty book)."""
    state = table(variant, ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds={0: books})
    apply(state, Meld(plays))
    return state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT


def refusal_of(variant: Variant, books: list, plays: tuple[Play, ...] = (Play(K, 3),)) -> str:
    state = table(variant, ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds={0: books})
    return refused(state, Meld(plays))


def kept(why: str) -> str:
    """The refusal of plays that would empty the foot of a player who may not go out yet."""
    return (
        f"That would leave you 0 card(s) from your foot, but you may not go out yet: {why} "
        "Keep at least two cards, one to discard and one to hold."
    )


BLACK_AND_CLEAN = [meld("B3", 7), meld("Q", 7)]
BLACK_AND_DIRTY = [meld("B3", 7), meld("Q", 6, 1)]


def test_a_black_three_book_counted_as_dirty_is_the_dirty_book_to_go_out() -> None:
    dirty = house(black_three_book_goes_out_as="dirty")

    assert goes_out(dirty, BLACK_AND_CLEAN)
    assert "your side has 2 dirty books" in refusal_of(dirty, BLACK_AND_DIRTY)
    assert "your side has 2 clean books" in refusal_of(
        get_variant("brouillette-low"), BLACK_AND_CLEAN
    )


def test_a_black_three_book_counted_as_neither_does_not_help_to_go_out() -> None:
    neither = house(black_three_book_goes_out_as="none")

    message = refusal_of(neither, BLACK_AND_DIRTY)

    assert message == kept(
        "Going out in deal 1 needs 1 clean book and 1 dirty book; your side has 1 dirty book."
    )


SEVENS = {"book_bonus.special_rank": "7", "book_bonus.special": 1500}
SEVENS_AND_DIRTY = [meld("7", 7), meld("Q", 6, 1)]


def test_a_special_book_counted_as_neither_does_not_help_to_go_out() -> None:
    assert goes_out(house(**SEVENS), SEVENS_AND_DIRTY)
    assert "your side has 1 dirty book" in refusal_of(
        house(**SEVENS, special_book_goes_out_as="none"), SEVENS_AND_DIRTY
    )


def test_going_out_waits_for_the_books_of_any_kind() -> None:
    three = house(going_out_any_books=3)
    two_books = [meld("Q", 7), meld("J", 6, 1)]
    and_kings = [*two_books, meld("K", 4)]

    assert refusal_of(three, two_books) == kept(
        "Going out needs at least 3 books of any kind; your side has 2."
    )
    assert goes_out(three, and_kings, (Play(K, 3, onto=2),))


def test_going_out_waits_for_the_special_book() -> None:
    needed = house(**SEVENS, going_out_needs_special_book=True)

    assert refusal_of(needed, [meld("Q", 7), meld("J", 6, 1)]) == kept(
        "Going out needs a special book among your side's books."
    )
    assert goes_out(needed, SEVENS_AND_DIRTY)


def test_a_player_who_may_run_out_of_cards_waits_for_the_deal_to_end() -> None:
    books = {0: [meld("Q", 6, 1)]}
    plain = table(
        get_variant("brouillette-low"), ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds=books
    )
    state = table(
        house(players_may_run_out=True), ["K K K", "5 5", "5 5"], feet=[None, "5", "5"], melds=books
    )

    assert "Going out in deal 1 needs 1 clean book and 1 dirty book" in refused(
        plain, Meld((Play(K, 3),))
    )
    apply(state, Meld((Play(K, 3),)))
    assert state.outcome is None
    assert (state.current, state.phase) == (1, Phase.DRAW)
    for _player in (1, 2):
        apply(state, Draw())
        apply(state, Discard(FIVE))
    assert (state.current, state.phase) == (1, Phase.DRAW)


def test_the_deal_ends_with_nobody_out_once_every_player_waits() -> None:
    books = {0: [meld("Q", 6, 1)]}
    state = table(
        house(players_may_run_out=True),
        ["K K K", ""],
        feet=[None, None],
        melds=books,
    )

    apply(state, Meld((Play(K, 3),)))

    assert state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT


OPENING = "K K K A A A 5 6"
"""Three kings and three aces, 90 points: deal 2's minimum, but no book."""
OPENING_WITH_BOOK = "K K K K K K K A A A 5 6"


def test_a_first_meld_needs_a_book_in_the_deals_the_rules_say() -> None:
    variant = house(book_first_meld_deals=[2])
    plays = (Play(K, 3), Play(A, 3))

    def laid(hand: str, deal: int, kings: int = 3) -> DealState:
        state = table(variant, [hand, "5 5"], deal=deal)
        apply(state, Meld((Play(K, kings), Play(A, 3))))
        return state

    message = refused(table(variant, [OPENING, "5 5"], deal=2), Meld(plays))

    assert message.endswith(
        "In deal 2 your side's first meld must hold a book: a meld of seven cards or more, "
        "with the discard pile or without."
    )
    assert laid(OPENING, deal=1).opened[0]
    assert laid(OPENING_WITH_BOOK, deal=2, kings=7).opened[0]


def test_the_bot_opens_deal_two_only_with_a_book() -> None:
    variant = house(book_first_meld_deals=[2])
    without = table(variant, [OPENING, "5 5"], deal=2)
    with_book = table(variant, [OPENING_WITH_BOOK, "5 5"], deal=2)

    assert not isinstance(HeuristicBot().choose(without), Meld)
    chosen = HeuristicBot().choose(with_book)
    assert isinstance(chosen, Meld)
    assert any(play.size >= 7 for play in chosen.plays)


# --- a partner's yes obliges only where the books count -----------------------------------------

PAGAT_SEVENS = {"book_bonus.special_rank": "7", "book_bonus.special": 1000}
WITH_SEVENS = [meld("A", 7), meld("7", 7), meld("Q", 6, 1), meld("J", 5, 2), meld(None, 0, 5, 2)]
"""A clean book, a book of sevens, two dirty books and a wild book."""


def told_yes(variant: Variant, books: list, hand: str = "9 9 9 5") -> DealState:
    """Player 1 plays from the foot, partner 3 has played from theirs; player 1 asked."""
    state = table(
        variant,
        [hand, "5 6 7 9", "5 6 7 9", "5 6 7 9"],
        feet=[None, "5", None, "5"],
        foot_played=[2],
        melds={0: books},
    )
    apply(state, AskToGoOut())
    return state


def test_a_yes_binds_where_a_book_of_sevens_counts_as_clean() -> None:
    state = told_yes(house("pagat", **PAGAT_SEVENS), WITH_SEVENS)

    assert can_go_out(state, 0)
    assert refused(state, Discard(FIVE)) == (
        "Your partner said yes, so you go out this turn: meld all your cards, or all but one "
        "and discard it."
    )


def test_a_yes_does_not_bind_where_the_book_of_sevens_counts_as_neither() -> None:
    state = told_yes(house("pagat", **PAGAT_SEVENS, special_book_goes_out_as="none"), WITH_SEVENS)

    assert not can_go_out(state, 0)
    apply(state, Discard(FIVE))
    assert state.outcome is None and state.current == 1


def test_a_yes_does_not_bind_before_the_books_of_any_kind_are_on_the_table() -> None:
    variant = house("pagat", going_out_any_books=6)
    state = told_yes(variant, [meld("A", 7), meld("K", 7), *WITH_SEVENS[2:]])

    assert not can_go_out(state, 0)
    assert is_legal(state, Discard(FIVE))
