"""The rules of play: which actions are legal in a deal, and what each one does.

`refusal` is the one place that decides whether an action is legal; `is_legal`, `apply` and
`legal_actions` all go through it. `apply` changes the state in place (like pushing a move on
a board) after checking the action, and raises `IllegalAction` naming the broken rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from typing import Final, overload

from ..rules.cards import BOOK_SIZE
from ..rules.validation import partner_melds_before_going_out
from ..rules.variants import BookCount, ConcealedOpening, WildDiscard
from . import reasons
from .actions import (
    Action,
    AddRedThree,
    AskToGoOut,
    Discard,
    Draw,
    LayRedThrees,
    Meld,
    PickUpFoot,
    Play,
    TakePile,
)
from .cards import (
    BLACK_RANK,
    FACES,
    JOKER_RANK,
    RED_RANK,
    TWO_RANK,
    Face,
    cards_held,
    cards_held_up_to,
    holds_cards,
)
from .conventions import MATCHING_TO_TAKE, MIN_MELD
from .errors import IllegalAction, Reason
from .going_out import can_go_out
from .melds import MeldKind, TableMeld, meld_kind, rank_reason
from .play_shapes import (
    SEGMENT_HEAD,
    SHAPE_SIZE,
    Context,
    Kept,
    KeptByHand,
    Place,
    Segment,
    inner_list,
    keep_at,
    kept_for,
    segment_of,
    shapes_of,
)
from .state import (
    ALL_WILD,
    NEW_ONLY,
    NO_MELDS,
    RANK_FACES,
    DealEnd,
    DealState,
    MeldsByRank,
    Outcome,
    Phase,
    count_books,
    rank_number,
    recycle_set_aside,
)

_BOOK_SIZE: Final = BOOK_SIZE
"""The rules core's size of a book, held by this compiled module: a name imported from the
rules core is looked up by name at each use."""

_MELD_TOO_SMALL: Final = reasons.meld_too_small(MIN_MELD)
"""The refusal random play meets most (a new meld of one or two cards), made once."""

_RED: Final = Face.RED_THREE
_BLACK: Final = Face.BLACK_THREE
_TWO: Final = Face.TWO
_JOKER: Final = Face.JOKER


class _Laid:
    """The outcome of checking plays against a hand: what the table would look like after."""

    __slots__ = ("changed", "existing", "new", "points")

    def __init__(self) -> None:
        self.changed: dict[int, list[int]] = {}
        """Meld index -> [naturals, twos, jokers] after the plays (new melds included)."""
        self.new: list[Face | None] = []
        """Ranks of the new melds, in order; their indexes follow the side's melds."""
        self.existing = 0
        """How many melds the side had before the plays."""
        self.points = 0

    def new_book(self) -> bool:
        """Whether a meld started by these plays is already a book (a concealed book)."""
        changed = self.changed
        for index in range(self.existing, self.existing + len(self.new)):
            counts = changed[index]
            if counts[0] + counts[1] + counts[2] >= _BOOK_SIZE:
                return True
        return False


def _lay(state: DealState, side: int, plays: tuple[Play, ...], hand: list[int]) -> Reason | _Laid:
    """Check `plays` against `hand` (which loses the cards) and the side's melds.

    Legality depends on the table the plays leave, never on the order they are listed in:
    the cards of each play are checked as they are read, then every meld they touched is
    checked as it ends (its size, its wild cards), and so is the rule on melds of one rank.
    A play may add to a new meld listed after it: new melds take their indexes in order.
    """
    if not plays:
        return reasons.empty_play()
    melds = state.melds[side]
    existing = len(melds)
    points = state.melded_points
    laid = _Laid()
    laid.existing = existing
    changed = laid.changed
    new = laid.new
    for play in plays:
        if play.onto is None:
            new.append(play.rank)
    started = existing
    for play in plays:
        problem = _cards_refusal(state, play, hand)
        if problem is not None:
            return problem
        rank = play.rank
        naturals = play.naturals
        twos = play.twos
        jokers = play.jokers
        count = naturals + twos + jokers
        if naturals:
            assert rank is not None
            number: int = rank
            # Not `-=`: on a list's item, the compiled code would subtract as the
            # interpreter does.
            hand[number] = hand[number] - naturals
            laid.points += points[number] * naturals
        if twos:
            hand[TWO_RANK] = hand[TWO_RANK] - twos
            laid.points += points[TWO_RANK] * twos
        if jokers:
            hand[JOKER_RANK] = hand[JOKER_RANK] - jokers
            laid.points += points[JOKER_RANK] * jokers
        target = play.onto
        if target is None:
            if count < MIN_MELD:
                return _MELD_TOO_SMALL
            target = started
            started += 1
        else:
            if target < 0 or target >= existing + len(new):
                return reasons.no_such_meld(target)
            target_rank = melds[target].rank if target < existing else new[target - existing]
            if target_rank is not rank:
                return reasons.wrong_rank(rank, target_rank)
            if (twos or jokers) and target < existing and melds[target].red_threes:
                return reasons.book_with_red_three_stays_clean()
        found = changed.get(target)
        if found is not None:
            found[0] = found[0] + naturals
            found[1] = found[1] + twos
            found[2] = found[2] + jokers
        elif target < existing:
            meld = melds[target]
            changed[target] = [meld.naturals + naturals, meld.twos + twos, meld.jokers + jokers]
        else:
            changed[target] = [naturals, twos, jokers]
    problem = _ends_refusal(state, melds, laid)
    if problem is None and new:
        problem = _rank_clash(state, melds, state.melds_by_rank(side), laid)
    return laid if problem is None else problem


def _cards_refusal(state: DealState, play: Play, hand: list[int]) -> Reason | None:
    """Why one play's cards cannot come from `hand`: counts below zero or no card, a rule
    of the play's rank, or cards not held."""
    rank = play.rank
    naturals = play.naturals
    twos = play.twos
    jokers = play.jokers
    if naturals < 0 or twos < 0 or jokers < 0:
        return reasons.negative_count()
    if naturals + twos + jokers == 0:
        return reasons.empty_play()
    number = rank_number(rank)  # compared as a number: faces compare through the interpreter
    if number >= TWO_RANK or rank is state.special:  # ranks with rules of their own
        problem = rank_reason(state.variant, rank, naturals, twos + jokers)
        if problem is not None:
            return problem
    if naturals:
        assert rank is not None
        if hand[number] < naturals:
            return reasons.not_held(rank)
    if twos and hand[TWO_RANK] < twos:
        return reasons.not_held(_TWO)
    if jokers and hand[JOKER_RANK] < jokers:
        return reasons.not_held(_JOKER)
    return None


def _ends_refusal(state: DealState, melds: list[TableMeld], laid: _Laid) -> Reason | None:
    """Whether every meld the plays touched ends within the size and wild-card limits."""
    most = state.most_cards
    dirty_most = state.most_dirty_cards
    per_wild = state.naturals_per_wild
    extra = state.extra_naturals
    most_wilds = state.most_wilds
    existing = laid.existing
    for index, counts in laid.changed.items():
        naturals = counts[0]
        wilds = counts[1] + counts[2]
        if most is not None and naturals + wilds > most:
            return reasons.meld_too_big(most)
        rank = melds[index].rank if index < existing else laid.new[index - existing]
        if not wilds or rank is None:
            continue
        if dirty_most is not None and naturals + wilds > dirty_most:
            return reasons.dirty_meld_too_big(dirty_most)
        if naturals < per_wild * wilds + extra or (most_wilds is not None and wilds > most_wilds):
            return reasons.wild_limit_broken(state.wild_limit, wilds)
    return None


def _rank_clash(
    state: DealState,
    melds: list[TableMeld],
    melds_of_rank: MeldsByRank,
    laid: _Laid,
) -> Reason | None:
    """Whether the new melds keep the variant's rule on melds of one rank, once the plays
    are down: where a rank is melded once, a new meld is the only one of its rank; elsewhere
    the side's older melds of the rank are books by then, and at most one meld of the rank
    is left unfinished. `melds_of_rank`: the side's melds by rank (`melds_by_rank`)."""
    only_one = state.one_meld_a_rank
    existing = laid.existing
    new = laid.new
    for rank in dict.fromkeys(new) if len(new) > 1 else new:
        same = melds_of_rank.places[rank_number(rank)]
        if only_one:
            if len(same) > 1 or new.count(rank) > 1:
                return reasons.one_meld_per_rank(rank)
            continue
        for number in same:
            if number is not None and _size_after(melds, laid, number) < _BOOK_SIZE:
                return reasons.one_unfinished_per_rank(rank)
        if len(new) > 1:
            started = [existing + k for k, new_rank in enumerate(new) if new_rank is rank]
            unfinished = sum(1 for i in started if _size_after(melds, laid, i) < _BOOK_SIZE)
            if unfinished > 1:
                return reasons.one_unfinished_per_rank(rank)
    return None


def _size_after(melds: list[TableMeld], laid: _Laid, index: int) -> int:
    """The cards of the side's meld at `index` once `laid` is on the table."""
    counts = laid.changed.get(index)
    if counts is None:
        meld = melds[index]
        return meld.naturals + meld.twos + meld.jokers
    return counts[0] + counts[1] + counts[2]


def _books_after(state: DealState, side: int, laid: _Laid | None) -> BookCount:
    if laid is None or not laid.changed:
        return state.books(side)
    return count_books(state.variant, state.special, _books_made_after(state.melds[side], laid))


def _books_made_after(
    melds: Sequence[TableMeld], laid: _Laid
) -> Iterator[tuple[Face | None, MeldKind]]:
    """The rank and kind of every book the side would have once `laid` is on the table."""
    existing = len(melds)
    for index in range(existing + len(laid.new)):
        counts = laid.changed.get(index)
        if counts is None:
            meld = melds[index]
            if meld.is_book:
                yield meld.rank, meld.kind
            continue
        naturals, twos, jokers = counts
        if naturals + twos + jokers >= _BOOK_SIZE:
            rank = melds[index].rank if index < existing else laid.new[index - existing]
            yield rank, meld_kind(rank, twos + jokers)


def _other_books_refusal(state: DealState, side: int, laid: _Laid | None) -> Reason | None:
    """Why the side's books, besides those of each kind, are not enough to go out: too few
    books of any kind, or no special book where one is needed."""
    variant = state.variant
    if not variant.going_out_any_books and not variant.going_out_needs_special_book:
        return None
    if laid is None or not laid.changed:
        made = [(meld.rank, meld.kind) for meld in state.melds[side] if meld.is_book]
    else:
        made = list(_books_made_after(state.melds[side], laid))
    if len(made) < variant.going_out_any_books:
        return reasons.books_of_any_kind_to_go_out(variant.going_out_any_books, len(made))
    special = state.special
    if variant.going_out_needs_special_book and not any(
        rank is special and kind is MeldKind.CLEAN for rank, kind in made
    ):
        return reasons.special_book_to_go_out()
    return None


def going_out_refusal(
    state: DealState, player: int, laid: _Laid | None = None, ask_later: bool = False
) -> Reason | None:
    """Why `player` may not go out now (None if they may), counting plays being checked;
    with `ask_later`, leaving aside the partner's leave, which is still to be asked."""
    variant = state.variant
    needed = state.books_to_go_out
    have = _books_after(state, state.side_of[player], laid)
    if have.clean < needed.clean or have.dirty < needed.dirty or have.wild < needed.wild:
        return reasons.books_to_go_out(state.deal, needed, have)
    other = _other_books_refusal(state, state.side_of[player], laid)
    if other is not None:
        return other
    partners = state.teammates[player]
    if variant.going_out_needs_partner_in_foot:
        for partner in partners:
            if not state.foot_played[partner]:
                return reasons.partner_not_in_foot()
    side = state.side_of[player]
    if partner_melds_before_going_out(variant, state.table) and not state.melded_before_turn(side):
        return reasons.no_concealed_going_out()
    if variant.going_out_asks_partner and partners and not ask_later:
        if not state.asked:
            return reasons.ask_partner_first()
        if not state.permission:
            return reasons.partner_said_no()
    return None


def _cards_left_refusal(
    state: DealState, player: int, left: int, laid: _Laid | None, ask_later: bool = False
) -> Reason | None:
    """Playing from the foot, a player may run down to one card or none only to go out.

    With `ask_later` (taking the discard pile, before the partner can be asked), a player
    may run down to one card where the partner's leave is all that is missing: they ask
    next, then discard that card and go out.
    """
    if left > 1 or state.feet[player] is not None or state.variant.players_may_run_out:
        # Where a player may run out of cards, one who cannot go out yet simply waits.
        return None
    if left == 0 and state.variant.must_discard_to_go_out:
        return reasons.discard_to_go_out()
    if left == 1 and state.variant.going_out_by_melding_only:
        return reasons.meld_to_go_out()
    why = going_out_refusal(state, player, laid, ask_later=ask_later and left == 1)
    if why is not None:
        return reasons.keep_cards(left, why)
    return None


def _first_meld_refusal(
    state: DealState, side: int, laid: _Laid, from_pile: bool, empties_hand: bool = False
) -> Reason | None:
    """Why a first meld falls short, or None; `empties_hand`: it lays down the last card of
    the player's hand while the foot is still to come (the minimum is then waived where the
    variant says so)."""
    if state.opened[side]:
        return None
    deal = state.deal
    variant = state.variant
    if empties_hand and variant.first_meld_waived_to_empty_hand:
        return None
    if deal in variant.concealed_book_first_meld_deals:
        if from_pile:
            return reasons.concealed_book_not_from_pile(deal)
        if not laid.new_book():
            return reasons.concealed_book_needed(deal)
        if variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS:
            return None
    elif deal in variant.book_first_meld_deals and not _opens_with_book(laid):
        return reasons.book_needed(deal)
    minimum = state.first_meld_for(side)
    if laid.points < minimum:
        if from_pile:
            return reasons.first_meld_short_from_pile(deal, minimum, laid.points)
        return reasons.first_meld_short(deal, minimum, laid.points)
    return None


def _opens_with_book(laid: _Laid) -> bool:
    """Whether the plays of a first meld make a book (the side's melds are all new)."""
    return any(sum(counts) >= _BOOK_SIZE for counts in laid.changed.values())


# --- the checks, one per action ----------------------------------------------------------------


def refusal(state: DealState, action: Action) -> Reason | None:
    """Why `action` is illegal now, or None if it is legal."""
    problem = _refusal(state, action)
    if problem is None:
        state.passed = action
        state.passed_at = len(state.history)
    return problem


def _refusal(state: DealState, action: Action) -> Reason | None:
    if state.phase is Phase.OVER:
        return reasons.deal_over()
    player = state.current
    hand = state.hands[player]
    kind = type(action)
    if not state.lays_red_threes:
        if kind is LayRedThrees:
            return reasons.red_threes_never_laid_down()
    elif hand[RED_RANK]:
        if isinstance(action, AddRedThree):
            return _add_red_three_refusal(state, player, action)
        return None if kind is LayRedThrees else reasons.red_threes_first()
    elif type(action) is LayRedThrees:
        return reasons.no_red_threes()
    if state.feet[player] is not None and not holds_cards(hand):
        return None if kind is PickUpFoot else reasons.foot_first()
    if kind is PickUpFoot:
        if state.feet[player] is None:
            return reasons.foot_already_taken()
        return reasons.hand_not_empty()
    if state.phase is Phase.DRAW:
        if type(action) is Draw:
            return _draw_refusal(state, action)
        if type(action) is TakePile:
            return _take_refusal(state, player, action)
        return reasons.draw_first()
    if type(action) is Discard:
        return _discard_refusal(state, player, action)
    if type(action) is Meld:
        return _meld_refusal(state, player, action)
    if type(action) is AddRedThree:
        return _add_red_three_refusal(state, player, action)
    if kind is AskToGoOut:
        return _ask_refusal(state, player)
    return reasons.already_drawn()


def _draw_refusal(state: DealState, action: Draw) -> Reason | None:
    stock = state.stock
    count = state.draw_count
    if not action.piles and len(stock) == 1:  # the usual draw: one stock pile
        return None
    piles = _drawn_from(action, count)
    for index in piles:
        if not 0 <= index < len(stock):
            return reasons.no_such_stock_pile(index)
    if len(piles) != count:
        return reasons.draw_count(count)
    if state.stock_size < count:
        return None  # legal: the stock cannot supply the draw, so the deal ends
    for index in piles:
        taken = 0
        for other in piles:
            if other == index:
                taken += 1
        if len(stock[index]) < taken:
            return reasons.stock_pile_short()
    return None


def _drawn_from(action: Draw, count: int) -> tuple[int, ...]:
    """The stock pile of each card a draw takes (an empty `piles`: all from the first)."""
    return action.piles or (0,) * count


def _pile_top_refusal(state: DealState, hand: list[int]) -> Reason | None:
    """Whether the top card of the pile may be taken with the cards held."""
    variant = state.variant
    pile = state.pile
    if not pile:
        return reasons.pile_empty()
    if state.pile_take_count() is None:
        return reasons.pile_too_small(state.pile_take)
    top = pile[-1]
    if top is _BLACK:
        if not state.black_three_books:
            return reasons.black_three_blocks()
        if not variant.black_three_pair_takes_pile:
            return reasons.black_three_pair_refused()
    elif top is _RED:
        return reasons.red_three_on_top()
    elif top is _TWO or top is _JOKER:
        rule = variant.wild_discard
        if rule is WildDiscard.NEVER_TAKEN:
            return reasons.wild_never_taken(top)
        if rule is WildDiscard.FREEZES_PILE:
            return reasons.pile_frozen()
        if hand[top] < MATCHING_TO_TAKE:
            return reasons.matching_wilds_needed(top)
        return None
    if hand[top] < MATCHING_TO_TAKE:
        return reasons.pair_needed(top)
    return None


def _take_refusal(state: DealState, player: int, action: TakePile) -> Reason | None:
    hand = state.hands[player]
    problem = _pile_top_refusal(state, hand)
    if problem is not None:
        return problem
    side = state.side_of[player]
    pile = state.pile
    top = pile[-1]
    work = hand[:]
    work[top] += 1
    laid = _lay(state, side, action.plays, work)
    if not isinstance(laid, _Laid):  # a refusal (a native class is checked quicker)
        return laid
    if _top_used(action.plays, top) < MIN_MELD:
        return reasons.top_card_not_melded(top)
    problem = _first_meld_refusal(state, side, laid, from_pile=True)
    if problem is not None:
        return problem
    taken = state.pile_take_count() or 0
    return _cards_left_refusal(state, player, cards_held(work) + taken - 1, laid, ask_later=True)


def _top_used(plays: tuple[Play, ...], top: Face) -> int:
    if top is _TWO:
        return sum(play.twos for play in plays)
    if top is _JOKER:
        return sum(play.jokers for play in plays)
    return sum(play.naturals for play in plays if play.rank is top)


def _meld_refusal(state: DealState, player: int, action: Meld) -> Reason | None:
    plays = action.plays
    if len(plays) == 1 and plays[0].onto is None and plays[0].size < MIN_MELD:
        # What `_lay` finds first, without a copy of the hand: the refusal random play
        # meets most, a new meld of one or two cards.
        problem = _cards_refusal(state, plays[0], state.hands[player])
        return _MELD_TOO_SMALL if problem is None else problem
    side = state.side_of[player]
    work = state.hands[player][:]
    laid = _lay(state, side, action.plays, work)
    if not isinstance(laid, _Laid):  # a refusal (a native class is checked quicker)
        return laid
    left = cards_held_up_to(work, 2)  # one card or none is all the rules below ask about
    if not state.opened[side]:
        empties_hand = not left and state.feet[player] is not None
        problem = _first_meld_refusal(state, side, laid, False, empties_hand)
        if problem is not None:
            return problem
    problem = _cards_left_refusal(state, player, left, laid)
    if problem is not None or not left or not _bound_to_go_out(state):
        return problem
    if can_go_out(state, player) and not can_go_out(
        state, player, work, _melds_after(state, side, laid)
    ):
        return reasons.must_go_out()
    return None


def _bound_to_go_out(state: DealState) -> bool:
    """Whether the current player's partner said yes where a yes obliges them to go out."""
    return state.permission and state.variant.partner_yes_binds


def _melds_after(state: DealState, side: int, laid: _Laid) -> list[TableMeld]:
    """The side's melds once `laid` is on the table."""
    melds = state.melds[side]
    after = []
    for index in range(laid.existing + len(laid.new)):
        counts = laid.changed.get(index)
        if counts is None:
            after.append(melds[index])
            continue
        rank = melds[index].rank if index < laid.existing else laid.new[index - laid.existing]
        red = melds[index].red_threes if index < laid.existing else 0
        after.append(TableMeld(rank, counts[0], counts[1], counts[2], red))
    return after


def _add_red_three_refusal(state: DealState, player: int, action: AddRedThree) -> Reason | None:
    """A red three from the hand onto one of the side's clean books, where the rules pay a
    bonus for it; from the foot, only if the player may be left with what remains."""
    if not state.ladies_on_books:
        return reasons.no_red_three_bonus()
    hand = state.hands[player]
    if hand[RED_RANK] < 1:
        return reasons.not_held(_RED)
    melds = state.melds[state.side_of[player]]
    if not 0 <= action.onto < len(melds):
        return reasons.no_such_meld(action.onto)
    if not melds[action.onto].takes_red_three:
        return reasons.not_a_clean_book(action.onto)
    return _cards_left_refusal(state, player, cards_held(hand) - 1, None)


def _discard_refusal(state: DealState, player: int, action: Discard) -> Reason | None:
    hand = state.hands[player]
    face = action.face
    number: int = face
    if hand[number] < 1:
        return reasons.not_held_discard(face)
    if state.feet[player] is None and cards_held(hand) == 1:
        if state.variant.going_out_by_melding_only and not state.variant.players_may_run_out:
            return reasons.meld_to_go_out()
        why = going_out_refusal(state, player)
        if why is not None and not state.variant.players_may_run_out:
            return reasons.cannot_go_out(why)
    elif _bound_to_go_out(state) and can_go_out(state, player):
        return reasons.must_go_out()
    return None


def _ask_refusal(state: DealState, player: int) -> Reason | None:
    if not state.variant.going_out_asks_partner or not state.teammates[player]:
        return reasons.no_partner_to_ask()
    if state.feet[player] is not None:
        return reasons.not_in_foot_to_ask()
    if state.asked:
        return reasons.already_asked()
    return None


def is_legal(state: DealState, action: Action) -> bool:
    return refusal(state, action) is None


# --- applying actions ---------------------------------------------------------------------------


def apply(state: DealState, action: Action) -> None:
    """Check `action` and carry it out on `state`; raise IllegalAction if it breaks a rule.

    An action `refusal` has just passed (the same object, no action applied since), as a bot's
    choice often is, is not checked twice.
    """
    if state.passed is not action or state.passed_at != len(state.history):
        problem = _refusal(state, action)
        if problem is not None:
            raise IllegalAction(action, problem)
    state.history.append(action)
    player = state.current
    if type(action) is Discard:
        _do_discard(state, player, action.face)
    elif type(action) is Draw:
        _do_draw(state, player, _drawn_from(action, state.draw_count))
    elif type(action) is Meld:
        _do_plays(state, player, action.plays)
        _after_play(state, player)
    elif type(action) is TakePile:
        _do_take(state, player, action.plays)
    elif type(action) is LayRedThrees:
        _do_red_threes(state, player)
    elif type(action) is AddRedThree:
        _do_add_red_three(state, player, action.onto)
    elif type(action) is PickUpFoot:
        foot = state.feet[player]
        assert foot is not None
        state.hands[player] = foot
        state.feet[player] = None
    else:
        _ask(state, player)
    if state.set_aside and state.stock_size < state.draw_count and state.phase is not Phase.OVER:
        recycle_set_aside(state)


def _ask(state: DealState, player: int) -> None:
    """Ask the partner for leave to go out.

    A player who took the discard pile down to a single card, and is told no, can neither
    discard it (that would be going out) nor keep two cards: they keep it, and the turn
    passes without a discard.
    """
    state.asked = True
    state.permission = bool(state.answer(state, player))
    if not state.permission and cards_held(state.hands[player]) <= 1:
        _next_turn(state, player)


def _end(state: DealState, end: DealEnd, player: int | None = None) -> None:
    state.outcome = Outcome(end, player)
    state.phase = Phase.OVER


def _do_draw(state: DealState, player: int, piles: tuple[int, ...]) -> None:
    stock = state.stock
    if (len(stock[0]) if len(stock) == 1 else state.stock_size) < len(piles):
        _end(state, DealEnd.STOCK_RAN_OUT)
        return
    hand = state.hands[player]
    for index in piles:
        face: int = stock[index].pop()  # a number indexes the hand in compiled code
        hand[face] = hand[face] + 1  # not `+=`: see `_lay`
    if state.feet[player] is None:
        state.foot_played[player] = True
    state.phase = Phase.PLAY


def _do_red_threes(state: DealState, player: int) -> None:
    hand = state.hands[player]
    while hand[RED_RANK]:
        count = hand[RED_RANK]
        hand[RED_RANK] = 0
        state.red_threes_down[player] += count
        for _ in range(count):
            if state.stock_size == 0:
                recycle_set_aside(state)
            if state.stock_size == 0:
                _end(state, DealEnd.STOCK_RAN_OUT)
                return
            pile = max(state.stock, key=len)
            hand[pile.pop()] += 1


def _do_add_red_three(state: DealState, player: int, onto: int) -> None:
    state.hands[player][RED_RANK] -= 1
    melds = state.melds[state.side_of[player]]
    book = melds[onto]
    melds[onto] = TableMeld(book.rank, book.naturals, book.twos, book.jokers, book.red_threes + 1)
    if state.feet[player] is None:
        state.foot_played[player] = True
    _after_play(state, player)


def _do_plays(state: DealState, player: int, plays: tuple[Play, ...]) -> None:
    """Put the cards of `plays` on the table (already checked) and take them from the hand."""
    side = state.side_of[player]
    melds = state.melds[side]
    hand = state.hands[player]
    # New melds first: a play may add to a new meld listed after it.
    ordered = plays if len(plays) == 1 else tuple(sorted(plays, key=_adds_to_a_meld))
    for play in ordered:
        if play.naturals:
            assert play.rank is not None
            rank: int = play.rank
            hand[rank] = hand[rank] - play.naturals  # not `-=`: see `_lay`
        hand[TWO_RANK] = hand[TWO_RANK] - play.twos
        hand[JOKER_RANK] = hand[JOKER_RANK] - play.jokers
        if play.onto is None:
            melds.append(TableMeld(play.rank, play.naturals, play.twos, play.jokers))
        else:
            meld = melds[play.onto]
            melds[play.onto] = TableMeld(
                meld.rank,
                meld.naturals + play.naturals,
                meld.twos + play.twos,
                meld.jokers + play.jokers,
                meld.red_threes,
            )
    state.opened[side] = True
    state.book_cache[side] = None
    if state.feet[player] is None:
        state.foot_played[player] = True


def _adds_to_a_meld(play: Play) -> bool:
    """Whether a play adds to a meld rather than starting one (a key that sorts new melds
    first; a function of its own, where a lambda would make its closure at every call)."""
    return play.onto is not None


def _after_play(state: DealState, player: int) -> None:
    """A player who has played every card of their foot has gone out; where a player may
    run out of cards without going out, one not allowed to go out (or who must end on a
    discard) waits instead, and the turn passes."""
    if state.feet[player] is None and not holds_cards(state.hands[player]):
        if not state.variant.players_may_run_out or (
            not state.variant.must_discard_to_go_out and going_out_refusal(state, player) is None
        ):
            _end(state, DealEnd.WENT_OUT, player)
        else:
            _next_turn(state, player)


def _do_take(state: DealState, player: int, plays: tuple[Play, ...]) -> None:
    pile = state.pile
    count = state.pile_take_count() or 0
    taken = pile[-count:]
    del pile[-count:]
    hand = state.hands[player]
    for card in taken:
        face: int = card
        hand[face] = hand[face] + 1  # not `+=`: see `_lay`
    _do_plays(state, player, plays)
    state.phase = Phase.PLAY
    _after_play(state, player)


def _do_discard(state: DealState, player: int, face: Face) -> None:
    hand = state.hands[player]
    number: int = face
    hand[number] = hand[number] - 1  # not `-=`: see `_lay`
    if (face is _TWO or face is _JOKER) and (
        state.variant.wild_discard is WildDiscard.FREEZES_PILE
    ):
        state.set_aside.extend(state.pile)
        state.set_aside.append(face)
        state.pile = []
    else:
        state.pile.append(face)
    if state.feet[player] is None:
        state.foot_played[player] = True
        if not holds_cards(hand) and _may_go_out_now(state, player):
            _end(state, DealEnd.WENT_OUT, player)
            return
    _next_turn(state, player)


def _may_go_out_now(state: DealState, player: int) -> bool:
    """Whether a player whose discard emptied their foot went out: always, unless players may
    run out of cards without going out, where only a player allowed to go out did."""
    return not state.variant.players_may_run_out or going_out_refusal(state, player) is None


def _holds_cards(state: DealState, player: int) -> bool:
    return state.feet[player] is not None or holds_cards(state.hands[player])


def _next_turn(state: DealState, player: int) -> None:
    """The turn passes to the next player who still holds cards; a player who ran out of
    cards without going out waits. Where every player has, the deal ends with nobody out,
    as when the stock runs out."""
    players = state.players
    feet = state.feet
    hands = state.hands
    current = player
    for _ in range(players):
        current = current + 1 if current + 1 < players else 0
        if feet[current] is not None or holds_cards(hands[current]):
            break
    else:
        _end(state, DealEnd.STOCK_RAN_OUT)
        return
    state.current = current
    state.phase = Phase.DRAW
    state.asked = False
    state.permission = False
    state.turn += 1
    state.turn_start = len(state.history)


# --- generating legal actions ---------------------------------------------------------------------


def legal_actions(state: DealState) -> list[Action]:
    """The legal actions now.

    Every legal draw, pickup of the foot, red-three laying, question and discard is listed,
    and every legal meld or pickup of the discard pile that puts its cards in one place.
    Actions that combine several plays (an opening reached only by two melds together, or a
    book finished and a new meld started at once) are legal when `is_legal` says so but are
    not listed: their number grows too fast to be worth listing.
    """
    return [action for action in Candidates(state) if refusal(state, action) is None]


_DISCARDS: Final = tuple(Discard(face) for face in FACES)
"""One discard of each face, made once: actions are values."""


_DRAWS: Final[list[list[tuple[Draw, ...] | None]]] = []
"""The draws of each count of stock piles, by the cards drawn: lists, not a dict, as looked
up at every draw."""


def _draws(piles: int, count: int) -> tuple[Draw, ...]:
    """Every draw of `count` cards from `piles` stock piles, made once for each pair."""
    if piles < len(_DRAWS):
        by_count = _DRAWS[piles]
        if count < len(by_count):
            found = by_count[count]
            if found is not None:
                return found
    if piles == 1:
        made: tuple[Draw, ...] = (Draw(),)
    else:
        combos = combinations_with_replacement(range(piles), count)
        made = tuple(Draw(combo) for combo in combos)
    keep_at(inner_list(_DRAWS, piles), count, made)
    return made


class Candidates(Sequence[Action]):
    """The actions `legal_actions` chooses from, each legal or not as `refusal` says.

    Discards are kept as the faces held, and plays in shapes whose sizes are counted, not
    listed; an action is made only when asked for by its index, so a random pick among many
    candidates does not build them all.
    """

    __slots__ = (
        "fixed",
        "fixed_count",
        "hand",
        "discard_count",
        "segments",
        "places",
        "segment_count",
        "by_rank",
        "take",
        "total",
        "kept",
        "kept_key",
        "kept_from",
    )

    def __init__(self, state: DealState | None = None) -> None:
        self.fixed: list[Action] = []
        self.fixed_count = 0
        """The fixed actions: the first `fixed_count` of the list (see `renew`)."""
        self.hand: list[int] = []
        self.discard_count = 0
        """The discards, after the fixed actions: one of each face `hand` holds (the
        player's own list, unchanged until an action is applied), counted, not listed."""
        self.segments: list[Segment] = []
        """The plays, after the fixed actions, in segments of one rank in one place: the
        first `segment_count` of the list."""
        self.places: list[int] = []
        """The rank and place of each segment, in one number (`_place_number`)."""
        self.segment_count = 0
        self.by_rank = NO_MELDS
        """The side's melds the places point into."""
        self.take = False
        """Whether the plays take the discard pile (else they are melds)."""
        self.total = 0
        """How many candidates there are."""
        self.kept: Kept | None = None
        self.kept_key = -1
        self.kept_from: KeptByHand | None = None
        """The answers last read for a hand (`kept`), by its key (`_hand_key`) in the
        variant's answers (`kept_from`): a player's hand often keeps its key from one
        action to the next."""
        if state is not None:
            self.renew(state)

    def renew(self, state: DealState) -> None:
        """Hold the candidates of `state` instead, written over those held: a bot that
        chooses at every action keeps one object, and its lists keep their room, where
        emptied lists would give it up and grow again at each choice."""
        self.fixed_count = self.segment_count = self.discard_count = 0
        self.take = False
        plays = self._gather(state)
        self.total = self.fixed_count + self.discard_count + plays

    def add_fixed(self, action: Action) -> None:
        """Add a fixed action (see `renew`)."""
        count = self.fixed_count
        if count < len(self.fixed):
            self.fixed[count] = action
        else:
            self.fixed.append(action)
        self.fixed_count = count + 1

    def add_segment(self, segment: Segment, place: int) -> None:
        """Add the segment of a rank and place (see `renew`)."""
        count = self.segment_count
        if count < len(self.segments):
            self.segments[count] = segment
            self.places[count] = place
        else:
            self.segments.append(segment)
            self.places.append(place)
        self.segment_count = count + 1

    def _gather(self, state: DealState) -> int:
        """Fill the fixed actions and the segments; return how many plays these hold."""
        if state.phase is Phase.OVER:
            return 0
        player = state.current
        hand = state.hands[player]
        if hand[RED_RANK]:
            if state.ladies_on_books:
                melds = state.melds[state.side_of[player]]
                for index, meld in enumerate(melds):
                    if meld.takes_red_three:
                        self.add_fixed(AddRedThree(index))
            if state.lays_red_threes:
                self.add_fixed(_LAY_RED_THREES)
                return 0
        if state.feet[player] is not None and not holds_cards(hand):
            self.add_fixed(_PICK_UP_FOOT)
            return 0
        if state.phase is Phase.DRAW:
            for draw in _draws(len(state.stock), state.draw_count):
                self.add_fixed(draw)
            if state.pile and _pile_top_takes(state, hand):
                top = state.pile[-1]
                work = hand[:]
                work[top] += 1
                self.take = True
                return _play_segments(state, work, top, MIN_MELD, self)
            return 0
        self.add_fixed(_ASK)
        count = 0
        for held in hand:  # read in turn, where indexing checks each
            if held:
                count += 1
        self.hand = hand
        self.discard_count = count
        return _play_segments(state, hand, None, 1, self)

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if not isinstance(index, int):  # a slice (looking `slice` up by name costs more)
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < self.total:
            raise IndexError(index)
        return self.action_at(index)

    def action_at(self, index: int) -> Action:
        """The candidate at `index`, which must be one (`__getitem__` checks it): called
        from compiled code, the index is passed as a number, not as an object."""
        action = self._action_at(index, False)
        assert action is not None
        return action

    def playable_at(self, index: int) -> Action | None:
        """The candidate at `index`, as `action_at` gives it, or None where it would start a
        meld of fewer cards than any meld holds (`MIN_MELD`). Every rule refuses such a
        play, so a random pick passes over it without making it; the list holds it all
        the same, as the picks follow the list."""
        return self._action_at(index, True)

    def _action_at(self, index: int, playable_only: bool) -> Action | None:
        if index < self.fixed_count:
            return self.fixed[index]
        offset = index - self.fixed_count
        if offset < self.discard_count:
            return _DISCARDS[_nth_held_face(self.hand, offset)]
        offset -= self.discard_count
        segments = self.segments
        number = 0
        while True:  # a few dozen segments at most: read in turn
            segment = segments[number]
            plays = segment[0]
            if offset < plays:
                break
            offset -= plays
            number += 1
        start = SEGMENT_HEAD
        while True:
            plays = segment[start + SHAPE_SIZE - 1]
            if offset < plays:
                break
            offset -= plays
            start += SHAPE_SIZE
        twos = segment[start + 1]
        first = segment[start + 3]
        held_jokers = segment[start + 4]
        room = segment[start + 5]
        while True:
            width = min(held_jokers, room - twos) - first + 1
            if offset < width:
                break
            offset -= width
            twos += 1
        place = self.places[number]
        naturals = segment[start]
        jokers = first + offset
        if playable_only and place >> _RANK_BITS == 0 and naturals + twos + jokers < MIN_MELD:
            return None  # a new meld too small
        rank, target = self._rank_and_place(place)
        play = Play(rank, naturals, twos, jokers, target)
        return TakePile((play,)) if self.take else Meld((play,))

    def __iter__(self) -> Iterator[Action]:
        yield from self.fixed[: self.fixed_count]
        if self.discard_count:  # else `hand` is an earlier action's
            for face, held in enumerate(self.hand):
                if held:
                    yield _DISCARDS[face]
        wrap = TakePile if self.take else Meld
        for number in range(self.segment_count):
            segment = self.segments[number]
            rank, target = self._rank_and_place(self.places[number])
            for start in range(SEGMENT_HEAD, len(segment), SHAPE_SIZE):
                naturals, least_twos, most_twos, first, held_jokers, room = segment[
                    start : start + SHAPE_SIZE - 1
                ]
                for twos in range(least_twos, most_twos + 1):
                    last = min(held_jokers, room - twos)
                    if last < first:
                        break
                    for jokers in range(first, last + 1):
                        yield wrap((Play(rank, naturals, twos, jokers, target),))

    def _rank_and_place(self, number: int) -> tuple[Face | None, int | None]:
        """The rank and the meld joined (None: a new one) of `_place_number`."""
        rank = number & _RANK_MASK
        return RANK_FACES[rank], self.by_rank.places[rank][number >> _RANK_BITS]


_RANK_BITS: Final = 5
_RANK_MASK: Final = (1 << _RANK_BITS) - 1


def _place_number(rank: int, place: int) -> int:
    """A rank number and where its plays go, in one number: the place is the index among
    the places of the rank (`MeldsByRank.places`; 0: a new meld). Small, as a number the
    interpreter keeps made once, where the meld's own index could be large."""
    return place << _RANK_BITS | rank


_ASK: Final = AskToGoOut()
_LAY_RED_THREES: Final = LayRedThrees()
_PICK_UP_FOOT: Final = PickUpFoot()


def _nth_held_face(hand: list[int], number: int) -> int:
    """The number of the `number`-th face `hand` holds (from 0, in face order)."""
    for face, held in enumerate(hand):
        if held:
            if number == 0:
                return face
            number -= 1
    raise IndexError(number)


_MOST_KEPT: Final = 4096
"""Answers kept at most for one variant's state (`DealState.plays_kept`); past it they are
dropped and looked up again."""


def _pile_top_takes(state: DealState, hand: list[int]) -> bool:
    """Whether the top card of the pile may be taken with the cards held: as
    `_pile_top_refusal` finds no refusal, without wording one."""
    pile = state.pile
    if not pile:
        return False
    variant = state.variant
    if state.pile_take_count() is None:
        return False
    top = pile[-1]
    if top is _BLACK:
        if not state.black_three_books or not variant.black_three_pair_takes_pile:
            return False
    elif top is _RED:
        return False
    elif top is _TWO or top is _JOKER:
        rule = variant.wild_discard
        if rule is WildDiscard.NEVER_TAKEN or rule is WildDiscard.FREEZES_PILE:
            return False
    return hand[top] >= MATCHING_TO_TAKE


def _play_segments(
    state: DealState,
    hand: list[int],
    must_use: Face | None,
    least: int,
    candidates: Candidates,
) -> int:
    """Plays putting cards in one place, by rank and place, added to the segments of
    `candidates`; returns how many plays they hold. With `must_use`, at least `least` of
    that face.

    Only plays that some rule could allow are listed: never more wild cards than the wild
    limit lets a meld hold, no wild card in a meld of black threes, and, before the side's
    first meld, none worth less than the deal asks for. Each rank and place is looked up
    among the answers kept for the context, and worked out only the first time.
    """
    side = state.side_of[state.current]
    natural_top = must_use is not None and (must_use.is_natural or must_use is _BLACK)
    least_naturals = least if natural_top else 0
    least_points = -math.inf if state.opened[side] else _least_single_play_points(state, side)
    kept_here = state.plays_kept
    if kept_here is None:
        kept_here = state.plays_kept = _kept_of_variant(state)
    hand_key = _hand_key(hand[TWO_RANK], hand[JOKER_RANK], must_use, least, least_points)
    kept = candidates.kept
    if kept is None or candidates.kept_key != hand_key or candidates.kept_from is not kept_here:
        found = kept_here.get(hand_key)
        if found is None:
            if len(kept_here) >= _MOST_KEPT:
                kept_here.clear()
            context = _context(state, hand, must_use, least, least_points)
            found = kept_here[hand_key] = kept_for(context)
        kept = candidates.kept = found
        candidates.kept_key = hand_key
        candidates.kept_from = kept_here
    plays = 0
    by_rank = candidates.by_rank = state.melds_by_rank(side)
    if natural_top:
        assert must_use is not None
        top: int = must_use
        held = hand[top]
        if held and (must_use is not _BLACK or state.black_three_books):
            plays = _rank_segments(
                state, kept, hand, by_rank, top, held, least_naturals, candidates, plays
            )
        return plays
    # The ranks a play may have, in this order: natural ranks held, ranks of melds wild
    # cards alone may join, black threes and wild cards where they form melds.
    for rank in state.natural_ranks:
        held = hand[rank]
        if held:
            plays = _rank_segments(state, kept, hand, by_rank, rank, held, 0, candidates, plays)
    if hand[TWO_RANK] or hand[JOKER_RANK]:
        # Wild cards alone may join a meld of a rank no longer held (a natural rank: one
        # below the two).
        for rank in by_rank.melded:
            if rank < TWO_RANK and not hand[rank]:
                plays = _rank_segments(state, kept, hand, by_rank, rank, 0, 0, candidates, plays)
    held = hand[BLACK_RANK]
    if state.black_three_books and held:
        plays = _rank_segments(state, kept, hand, by_rank, BLACK_RANK, held, 0, candidates, plays)
    if state.wild_books:
        plays = _rank_segments(state, kept, hand, by_rank, ALL_WILD, 0, 0, candidates, plays)
    return plays


def _rank_segments(
    state: DealState,
    kept: Kept,
    hand: list[int],
    by_rank: MeldsByRank,
    rank: int,
    held: int,
    least: int,
    candidates: Candidates,
    plays: int,
) -> int:
    """The plays of one rank number, in each place it may go, added to the segments of
    `candidates` as `_play_segments` says; returns `plays` with theirs added. `held`: the
    naturals of the rank held (none for wild cards alone)."""
    by_held = kept.new_melds[rank]
    found = by_held[held] if held < len(by_held) else None
    if found is None:
        found = _segment(state, kept, hand, rank, None, least)
        keep_at(by_held, held, found)
    if found[0]:
        candidates.add_segment(found, rank)
        plays += found[0]
    targets = by_rank.places[rank]
    if targets is NEW_ONLY:
        return plays
    melds = by_rank.melds
    for number in range(1, len(targets)):
        target = targets[number]
        assert target is not None
        meld = melds[target]
        naturals = meld.naturals
        wilds = meld.twos + meld.jokers
        found = kept.on_meld(rank, held, naturals, wilds)
        if found is None:
            found = _segment(state, kept, hand, rank, target, least)
            kept.keep_on_meld(rank, held, naturals, wilds, found)
        if found[0]:
            candidates.add_segment(found, _place_number(rank, number))
            plays += found[0]
    return plays


_KEPT_BY_VARIANT: Final[dict[tuple[object, ...], KeptByHand]] = {}
"""The kept answers of each variant's plays, by what the context takes from the variant."""


def _kept_of_variant(state: DealState) -> KeptByHand:
    """The answers kept for the variant of `state`, by the parts of a context that change
    from hand to hand (`_context` gives the rest from the variant)."""
    variant = state.variant
    limit = variant.wild_limit
    key = (
        state.most_cards,
        limit.per_wild,
        limit.extra,
        state.melded_points,
        state.special,
        variant.max_dirty_meld_size,
        limit.most,
    )
    found = _KEPT_BY_VARIANT.get(key)
    if found is None:
        if len(_KEPT_BY_VARIANT) >= _MOST_KEPT:
            _KEPT_BY_VARIANT.clear()
        found = _KEPT_BY_VARIANT[key] = {}
    return found


def _hand_key(twos: int, jokers: int, must_use: Face | None, least: int, points: float) -> int:
    """What a context takes from the hand, as its answers are kept, in one number: the twos
    and jokers held (each below 256), the face a play must use (0: none, else the face
    from 1), how many of it (below 4), whether a play has no least points, and else those
    points (the bits above, whatever their sign)."""
    face = 0 if must_use is None else must_use + 1
    key = twos | jokers << 8 | face << 16 | least << 21
    if points == -math.inf:
        return key | 1 << 23
    return key | int(points) << 24


def _segment(
    state: DealState, kept: Kept, hand: list[int], rank: int, target: int | None, least: int
) -> Segment:
    """The plays of a rank number in one place."""
    place = _place(state, hand, RANK_FACES[rank], target, least)
    return segment_of(shapes_of(kept.context, place))


def _place(
    state: DealState, hand: list[int], rank: Face | None, target: int | None, least: int
) -> Place:
    """One rank in one place, as `shapes_of` reads it; `least`: the naturals a play must
    hold at least (the top card of the pile taken, and those it pairs with)."""
    if rank is None:
        held = each = 0
        limited = clean_only = False
    else:
        held = hand[rank]
        each = state.melded_points[rank]
        limited = rank is not _BLACK
        clean_only = rank is _BLACK or rank is state.special
    low = 0 if rank is None else (1 if target is None else 0)
    low = max(low, least)
    if target is None:
        return held, low, 0, 0, clean_only, limited, each
    meld = state.melds[state.side_of[state.current]][target]
    return held, low, meld.naturals, meld.twos + meld.jokers, clean_only, limited, each


def _context(
    state: DealState, hand: list[int], must_use: Face | None, least: int, least_points: float
) -> Context:
    """What every rank and place of the plays share (`play_shapes.Context`)."""
    variant = state.variant
    limit = variant.wild_limit
    points = state.melded_points
    return (
        state.most_cards,
        limit.per_wild,
        limit.extra,
        points[TWO_RANK],
        points[JOKER_RANK],
        hand[TWO_RANK],
        hand[JOKER_RANK],
        least if must_use is _TWO else 0,
        least if must_use is _JOKER else 0,
        least_points,
        least if must_use is not None and (must_use.is_natural or must_use is _BLACK) else 0,
        points if least_points != -math.inf else None,
        state.special,
        variant.max_dirty_meld_size,
        limit.most,
    )


def _one_play_empties_hand(state: DealState) -> bool:
    """Whether the player, still to reach the foot, holds cards that one play could lay down
    whole: a single rank of natural cards, with or without wild cards."""
    player = state.current
    if state.feet[player] is None:
        return False
    hand = state.hands[player]
    naturals = [face for face in FACES if hand[face] and face not in (_TWO, _JOKER)]
    return len(naturals) <= 1


def _least_single_play_points(state: DealState, side: int) -> float:
    """Points a play must be worth on its own to be the side's first meld; no floor once the
    side has opened (melded black threes may count against it)."""
    variant = state.variant
    if state.opened[side]:
        return -math.inf
    if variant.first_meld_waived_to_empty_hand and _one_play_empties_hand(state):
        return -math.inf
    if state.deal in variant.concealed_book_first_meld_deals and (
        variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
    ):
        return -math.inf
    return state.first_meld_for(side)
