"""An accepted deal pushed one step past a physical limit is refused, with the exact words.

The deals are built the way real ones end (one side out with its books, or the stock gone)
and checked to be accepted; then one number is pushed where no table can reach: one red three
more than the decks hold, one wild book more than the wild cards allow, one natural book too
many, one black-three book too many, a red three kept by a team that went out, a card too few.
"""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import BOOK_SIZE, NATURAL_RANKS
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import least_book_points, validate_deal
from scorekeeper.rules.variants import RankMelds, all_variants

LIMITS = settings(deadline=None, max_examples=80)
"""Tables of up to twelve sides make some deals slow to build on a loaded machine."""
ANY_VARIANT = st.sampled_from(all_variants())


@st.composite
def accepted_deals(draw, variants=ANY_VARIANT):
    """A deal every check accepts, at any table its variant allows."""
    variant = draw(variants)
    table = draw(st.sampled_from(variant.tables))
    deal = draw(st.integers(1, 4))
    stock_ran_out = draw(st.booleans())
    out_side = None if stock_ran_out else draw(st.integers(0, table.sides - 1))
    concealed = deal in variant.concealed_book_first_meld_deals
    needed = variant.going_out_for(deal)
    red_left = table.red_threes
    sides = []
    for index in range(table.sides):
        out = index == out_side
        fewest_clean = max(needed.clean if out else 0, int(concealed))
        clean = draw(st.integers(fewest_clean, fewest_clean + 1))
        fewest_dirty = needed.dirty if out else 0
        dirty = draw(st.integers(fewest_dirty, fewest_dirty + 1))
        wild = needed.wild if out and variant.wild_books else 0
        holders = table.players_per_side - (1 if out else 0)
        keeps_red = holders > 0 and not (
            out and variant.red_threes_laid_down and variant.going_out_needs_partner_in_foot
        )
        red = min(red_left, draw(st.integers(0, 1)))
        red_left -= red
        held = red if keeps_red and draw(st.booleans()) else 0
        down = red - held if variant.red_threes_laid_down else 0
        side = SideEntry(
            clean_books=clean,
            dirty_books=dirty,
            wild_books=wild,
            red_threes_down=down,
            red_threes_held=held,
            cards_left_points=5 * holders * draw(st.integers(1, 4)),
            went_out=out,
            exact_22=draw(st.integers(0, table.players_per_side))
            if variant.exact_22_bonus is not None
            else 0,
        )
        floor = least_book_points(variant, table, side)
        sides.append(
            replace(
                side,
                meld_points=floor + variant.first_meld_for(deal) + 5 * draw(st.integers(0, 10)),
            )
        )
    accepted = DealEntry(variant, deal, tuple(sides), table.players, stock_ran_out)
    report = validate_deal(accepted)
    assert report.ok, [p.message for p in report.errors]
    return accepted


def pushed(deal, index, **changes):
    sides = list(deal.sides)
    sides[index] = replace(sides[index], **changes)
    return replace(deal, sides=tuple(sides))


def messages(deal):
    return [problem.message for problem in validate_deal(deal).errors]


def still_playing(deal):
    """A side that did not go out: every one of its players still holds cards."""
    return next(
        index
        for index, side in enumerate(deal.sides)
        if not (side.went_out and not deal.stock_ran_out)
    )


@LIMITS
@given(accepted_deals())
def test_one_red_three_more_than_the_decks_hold_is_refused(deal):
    table = deal.table
    entered = sum(s.red_threes_down + s.red_threes_held for s in deal.sides)
    index = still_playing(deal)
    extra = table.red_threes + 1 - entered
    side = deal.sides[index]
    over = pushed(deal, index, red_threes_held=side.red_threes_held + extra)
    each = ", ".join(
        f"Side {i + 1} {s.red_threes_down + s.red_threes_held}" for i, s in enumerate(over.sides)
    )
    assert messages(over) == [
        f"Together, the sides have {table.red_threes + 1} red threes ({each}), but "
        f"{table.decks} decks hold only {table.red_threes}."
    ]


@LIMITS
@given(accepted_deals(st.sampled_from([v for v in all_variants() if v.wild_books])))
def test_one_wild_book_more_than_the_wild_cards_allow_is_refused(deal):
    table = deal.table
    most = table.wilds // BOOK_SIZE
    others = sum(s.wild_books for s in deal.sides[1:])
    over = pushed(deal, 0, wild_books=most + 1 - others)
    assert (
        f"{most + 1} wild books need {(most + 1) * BOOK_SIZE} wild cards, but {table.decks} "
        f"decks hold only {table.wilds}."
    ) in messages(over)


@LIMITS
@given(accepted_deals(st.sampled_from([v for v in all_variants() if v.wild_books])))
def test_one_dirty_book_more_than_the_wild_cards_left_allow_is_refused(deal):
    table = deal.table
    wild = sum(s.wild_books for s in deal.sides)
    others = sum(s.dirty_books for s in deal.sides[1:])
    dirty = table.wilds - wild * BOOK_SIZE + 1
    over = pushed(deal, 0, dirty_books=dirty - others)
    assert (
        f"{wild} wild books and {dirty} dirty books need at least {table.wilds + 1} wild "
        f"cards, but {table.decks} decks hold only {table.wilds}."
    ) in messages(over)


@LIMITS
@given(
    accepted_deals(st.sampled_from([v for v in all_variants() if v.rank_melds is RankMelds.ONE]))
)
def test_one_natural_book_too_many_where_a_rank_is_melded_once_is_refused(deal):
    side = deal.sides[0]
    over = pushed(deal, 0, clean_books=len(NATURAL_RANKS) + 1 - side.dirty_books)
    assert (
        f"Side 1: {deal.variant.name} allows one meld of each rank, so a side has at most "
        f"{len(NATURAL_RANKS)} clean and dirty books together (A, K ... 4), not "
        f"{len(NATURAL_RANKS) + 1}."
    ) in messages(over)


@LIMITS
@given(accepted_deals(st.sampled_from([v for v in all_variants() if v.black_three_books])))
def test_one_black_three_book_more_than_the_black_threes_allow_is_refused(deal):
    table = deal.table
    count = table.black_threes // BOOK_SIZE + 1
    over = pushed(deal, 0, black_three_books=count)
    each = ", ".join(f"Side {i + 1} {s.black_three_books}" for i, s in enumerate(over.sides))
    assert (
        f"Together, the sides have {count} black-three books ({each}), which need "
        f"{count * BOOK_SIZE} black threes, but {table.decks} decks hold only "
        f"{table.black_threes}."
    ) in messages(over)


@LIMITS
@given(accepted_deals(st.sampled_from([v for v in all_variants() if v.black_three_books])))
def test_a_second_black_three_book_for_one_side_is_refused(deal):
    over = pushed(deal, 0, black_three_books=2)
    assert (
        f"Side 1: {deal.variant.name} allows one meld of each rank, so a side has at most "
        f"one black-three book, not 2."
    ) in messages(over)


@LIMITS
@given(
    accepted_deals(
        st.sampled_from(
            [
                v
                for v in all_variants()
                if v.red_threes_laid_down and v.going_out_needs_partner_in_foot
            ]
        )
    )
)
def test_a_red_three_kept_by_a_team_that_went_out_is_refused(deal):
    out = [i for i, s in enumerate(deal.sides) if s.went_out and not deal.stock_ran_out]
    if not out or deal.table.players_per_side == 1:
        return
    over = pushed(deal, out[0], red_threes_held=1)
    assert (
        f"Side {out[0] + 1} went out, so its partner had picked up the foot, and in "
        f"{deal.variant.name} every red three found is laid down at once: no red three can "
        f"still be held (entered 1)."
    ) in messages(over)


@LIMITS
@given(accepted_deals())
def test_a_card_too_few_for_a_player_still_playing_is_refused(deal):
    index = still_playing(deal)
    side = deal.sides[index]
    holders = deal.table.players_per_side - (1 if side.went_out and not deal.stock_ran_out else 0)
    over = pushed(deal, index, red_threes_held=0, cards_left_points=5 * holders - 5)
    name = f"Side {index + 1}"
    if holders > 1:
        expected = (
            f"{name}: {holders} player(s) still hold at least one card each, so the cards left "
            f"are worth at least {5 * holders}, not {5 * holders - 5}."
        )
    elif side.went_out and not deal.stock_ran_out:
        expected = (
            f"{name} went out, but a partner plays on until then and still holds at least one "
            "card: the points of cards left cannot be 0."
        )
    else:
        expected = (
            f"{name} did not go out, so each of its players still holds at least one card: the "
            "points of cards left cannot be 0."
        )
    assert messages(over) == [expected]


@LIMITS
@given(accepted_deals())
def test_every_accepted_deal_scores_a_multiple_of_five(deal):
    assert all(score.total % 5 == 0 for score in score_deal(deal))
