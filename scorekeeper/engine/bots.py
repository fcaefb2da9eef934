"""Players for simulated games: a heuristic bot that plays sensibly, and a random one.

A bot picks the current player's next action from a `DealState` and answers a partner who
asks to go out. Bots only read the state; every action they return is checked by the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Protocol

from ..rules.cards import BOOK_SIZE
from ..rules.variants import ConcealedOpening
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
from .cards import FACES, Face, cards_held, holds_cards
from .chance import below
from .conventions import MIN_MELD
from .legal import Candidates, refusal
from .state import DealState, Phase

_BOOK_SIZE: Final = BOOK_SIZE
"""The rules core's size of a book, held by this compiled module: a name imported from the
rules core is looked up by name at each use."""

_RED: Final = Face.RED_THREE
_BLACK: Final = Face.BLACK_THREE
_TWO: Final = Face.TWO
_JOKER: Final = Face.JOKER
_NO_LIMIT: Final = 1 << 30
_DISCARDS: Final = tuple(Discard(face) for face in FACES)
"""The actions the bot returns most, made once: actions are values."""


class Bot(Protocol):
    def choose(self, state: DealState) -> Action:
        """The current player's next action."""
        ...

    def allows_going_out(self, state: DealState, player: int) -> bool:
        """The answer to `player`, a partner, asking whether they may go out."""
        ...


class RandomBot:
    """Picks uniformly among the listed legal actions (`legal_actions`), odd ones included;
    says yes to half the questions.

    It draws candidates in a random order and takes the first legal one, which is a uniform
    pick among the legal ones without checking every candidate.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.draw = self.rng.getrandbits
        """The generator's bits, taken once (see `below`)."""
        self.candidates = Candidates()
        """The list chosen from, renewed at each choice."""

    def choose(self, state: DealState) -> Action:
        candidates = self.candidates
        candidates.renew(state)
        count = candidates.total
        draw = self.draw
        if count:  # the first pick, most often legal, taken without the list below
            index = below(draw, count)
            action = candidates.playable_at(index)
            if action is not None and refusal(state, action) is None:
                return action
            tried = [index]
        else:
            tried = []
        # The picks tried, in a list: a few at most, where a set would cost more to make.
        while len(tried) < count:
            index = below(draw, count)
            if index in tried:
                continue
            tried.append(index)
            action = candidates.playable_at(index)
            if action is not None and refusal(state, action) is None:
                return action
        raise RuntimeError(f"no legal action in {state!r}")  # every turn has one: a bug

    def allows_going_out(self, state: DealState, player: int) -> bool:
        return self.rng.random() < 0.5


def _bit(rank: Face | None) -> int:
    """A rank as one bit of a set of ranks held in a number (all wild: the bit above the
    faces)."""
    return 1 << (len(FACES) if rank is None else rank)


class _Planner:
    """Plays being built for one side from a working copy of a hand."""

    __slots__ = (
        "state",
        "rule_one",
        "most",
        "dirty_most",
        "ranks",
        "melded",
        "sizes",
        "hand",
        "plays",
        "points",
        "special",
    )

    def __init__(self, state: DealState, side: int, hand: list[int]) -> None:
        self.state = state
        self.rule_one = state.one_meld_a_rank
        self.most = state.most_cards or _NO_LIMIT
        self.dirty_most = state.most_dirty_cards or _NO_LIMIT
        melds = state.melds[side]
        self.ranks: list[Face | None] = [meld.rank for meld in melds]
        melded = 0
        for rank in self.ranks:
            melded |= _bit(rank)
        self.melded: int = melded
        """The ranks of `ranks` as bits (`_bit`), to tell at once that the side has no meld
        of a rank."""
        self.sizes: list[list[int]] = [[m.naturals, m.twos, m.jokers] for m in melds]
        self.hand = hand
        self.plays: list[Play] = []
        self.points = 0
        self.special = state.special
        """The rank whose melds stay clean (special books), if any."""

    def takes_wilds(self, rank: Face | None) -> bool:
        """Whether wild cards may join a meld of `rank` (all-wild melds aside)."""
        return rank is not None and rank is not _BLACK and rank is not self.special

    def size(self, index: int) -> int:
        counts = self.sizes[index]
        return counts[0] + counts[1] + counts[2]

    def largest(self, index: int) -> int:
        """The most cards the meld may hold: fewer once it is dirty, where the rules say so."""
        counts = self.sizes[index]
        dirty = self.ranks[index] is not None and counts[1] + counts[2] > 0
        return self.dirty_most if dirty else self.most

    def growing(self, rank: Face | None) -> int | None:
        """The meld of `rank` that new cards of that rank should join, if any."""
        if not self.melded & _bit(rank):
            return None
        fallback = None
        sizes = self.sizes
        for index, meld_rank in enumerate(self.ranks):
            if meld_rank is rank:
                naturals, twos, jokers = sizes[index]
                size = naturals + twos + jokers
                if size >= self.most or (
                    rank is not None and twos + jokers and size >= self.dirty_most
                ):
                    continue
                if self.rule_one or size < _BOOK_SIZE:
                    return index
                fallback = index
        return fallback

    def may_start(self, rank: Face | None) -> bool:
        if not self.melded & _bit(rank):
            return True
        for index, meld_rank in enumerate(self.ranks):
            if meld_rank is rank and (self.rule_one or self.size(index) < _BOOK_SIZE):
                return False
        return True

    def add(
        self, rank: Face | None, naturals: int, twos: int, jokers: int, onto: int | None
    ) -> None:
        hand = self.hand
        table = self.state.melded_points
        if naturals:
            assert rank is not None
            hand[rank] -= naturals
            self.points += table[rank] * naturals
        hand[_TWO] -= twos
        hand[_JOKER] -= jokers
        self.points += table[_TWO] * twos + table[_JOKER] * jokers
        if onto is None:
            self.plays.append(Play(rank, naturals, twos, jokers))
            self.ranks.append(rank)
            self.melded |= _bit(rank)
            self.sizes.append([naturals, twos, jokers])
        else:
            self.plays.append(Play(rank, naturals, twos, jokers, onto))
            counts = self.sizes[onto]
            counts[0] += naturals
            counts[1] += twos
            counts[2] += jokers

    def wilds(self, count: int) -> tuple[int, int]:
        """Which wild cards to use for `count` of them: twos first, keeping jokers."""
        twos = min(count, self.hand[_TWO])
        return twos, count - twos

    def naturals(self, rank: Face) -> None:
        """Meld every card of `rank` that can go down without wild cards."""
        held = self.hand[rank]
        if not held:
            return
        target = self.growing(rank)
        if target is not None:
            count = min(held, self.largest(target) - self.size(target))
            if count:
                self.add(rank, count, 0, 0, target)
                held -= count
        while held >= MIN_MELD and self.may_start(rank):
            count = min(held, self.most)
            self.add(rank, count, 0, 0, None)
            held -= count

    def allows(self, naturals: int, wilds: int) -> bool:
        return self.state.variant.wild_limit.allows(naturals, wilds)

    def wild_meld(self, keep: int = 0) -> None:
        """Put wild cards into the side's all-wild meld, keeping `keep` back."""
        spare = self.hand[_TWO] + self.hand[_JOKER] - keep
        target = self.growing(None)
        if target is not None:
            count = min(spare, self.most - self.size(target))
            if count > 0:
                self.add(None, 0, *self.wilds(count), target)
        elif spare >= MIN_MELD and self.may_start(None):
            self.add(None, 0, *self.wilds(min(spare, self.most)), None)

    def finish_books(self, keep: int) -> None:
        """Use spare wild cards to turn unfinished melds into (dirty) books."""
        if self.hand[_TWO] + self.hand[_JOKER] - keep < 1:
            return  # no meld is finished without a wild card
        special = self.special
        for index, rank in enumerate(self.ranks):
            if rank is None or rank is _BLACK or rank is special:  # takes no wild cards
                continue
            naturals, twos, jokers = self.sizes[index]
            size = naturals + twos + jokers
            short = _BOOK_SIZE - size
            if short <= 0 or size >= self.most:
                continue
            spare = self.hand[_TWO] + self.hand[_JOKER] - keep
            if short <= spare and self.allows(naturals, twos + jokers + short):
                self.add(rank, 0, *self.wilds(short), index)

    def dirty_one(self, keep: int) -> bool:
        """Add one wild card to the biggest clean unfinished meld; True if one was added."""
        if self.hand[_TWO] + self.hand[_JOKER] - keep < 1:
            return False
        best = None
        for index, rank in enumerate(self.ranks):
            if not self.takes_wilds(rank):
                continue
            naturals, twos, jokers = self.sizes[index]
            size = naturals + twos + jokers
            if twos + jokers or size >= _BOOK_SIZE or size >= self.most:
                continue
            if self.allows(naturals, 1) and (best is None or size > self.size(best)):
                best = index
        if best is None:
            return False
        self.add(self.ranks[best], 0, *self.wilds(1), best)
        return True

    def pairs(self, keep: int) -> None:
        """Start melds from pairs with one wild card each, best ranks first."""
        for rank in self.state.natural_faces:
            if self.hand[_TWO] + self.hand[_JOKER] - keep < 1:
                return
            if (
                self.hand[rank] == 2
                and self.may_start(rank)
                and self.takes_wilds(rank)
                and self.allows(2, 1)
            ):
                self.add(rank, 2, *self.wilds(1), None)


def _nothing_to_build(state: DealState, side: int, hand: list[int]) -> bool:
    """Whether `HeuristicBot._build` finds no play in the hand of a side that has opened:
    no wild card, no black three it could meld, and no natural rank held three times or
    held at all where the side has a meld of it."""
    if hand[_TWO] or hand[_JOKER] or (hand[_BLACK] and state.black_three_books):
        return False
    melded = state.melds_by_rank(side)
    for rank in state.natural_ranks:
        held = hand[rank]
        if held >= MIN_MELD or (held and melded.has(rank)):
            return False
    return True


class HeuristicBot:
    """Goes for books, saves wild cards for the wild book where going out needs one, takes
    the discard pile when it can meld from it, and goes out as soon as it may."""

    def choose(self, state: DealState) -> Action:
        player = state.current
        hand = state.hands[player]
        if hand[_RED]:
            onto_book = self._red_three_onto_book(state, player)
            if onto_book is not None:
                return onto_book
            if state.lays_red_threes:
                return LayRedThrees()
        if state.feet[player] is not None and not holds_cards(hand):
            return PickUpFoot()
        if state.phase is Phase.DRAW:
            take = self._take(state, player)
            return take if take is not None else self._draw(state)
        meld = self._meld(state, player)
        if meld is not None:
            return meld
        return self._discard(state, player)

    def allows_going_out(self, state: DealState, player: int) -> bool:
        return True

    def _red_three_onto_book(self, state: DealState, player: int) -> AddRedThree | None:
        """A red three held goes onto a clean book of the side, where the rules pay for it."""
        if not state.hands[player][_RED] or not state.ladies_on_books:
            return None
        for index, meld in enumerate(state.melds[state.side_of[player]]):
            action = AddRedThree(index)
            if meld.takes_red_three and refusal(state, action) is None:
                return action
        return None

    # --- drawing -------------------------------------------------------------------------------

    def _draw(self, state: DealState) -> Draw:
        """Cards from each stock pile in turn, the first pile first, skipping a pile run dry
        (two piles of two cards or more: one card from each)."""
        stock = state.stock
        if len(stock) == 1:
            return Draw()
        left = [len(pile) for pile in stock]
        piles: list[int] = []
        for turn in range(state.variant.draw_count_for(state.deal)):
            index = turn % len(stock)
            if not left[index]:
                index = max(range(len(stock)), key=lambda i: left[i])
            left[index] -= 1
            piles.append(index)
        return Draw(tuple(sorted(piles)))

    def _take(self, state: DealState, player: int) -> TakePile | None:
        pile = state.pile
        if not pile:
            return None
        top = pile[-1]
        hand = state.hands[player]
        if not top.is_natural or hand[top] < 2:
            return None
        variant = state.variant
        if state.pile_take_count() is None:
            return None
        side = state.side_of[player]
        opened = state.opened[side]
        if not opened and state.deal in variant.concealed_book_first_meld_deals:
            return None
        work = hand[:]
        work[top] += 1
        planner = _Planner(state, side, work)
        if opened:
            planner.naturals(top)
        elif not self._opening(planner, state, player):
            return None
        if not planner.plays:
            return None
        action = TakePile(tuple(planner.plays))
        return action if refusal(state, action) is None else None

    # --- melding -------------------------------------------------------------------------------

    def _meld(self, state: DealState, player: int) -> Action | None:
        side = state.side_of[player]
        hand = state.hands[player]
        if state.opened[side] and _nothing_to_build(state, side, hand):
            return None
        planner = _Planner(state, side, hand[:])
        if state.opened[side]:
            self._build(planner, state, player)
        elif not self._opening(planner, state, player):
            return None
        plays = planner.plays
        while plays:
            action = Meld(tuple(plays))
            why = refusal(state, action)
            if why is None:
                if self._asks_before_running_out(state, player, plays):
                    return AskToGoOut()
                return action
            if why.rule == "keep-two-cards" and why.params.get("why") is not None:
                inner = why.params["why"]
                if getattr(inner, "rule", None) == "ask-partner" and not state.asked:
                    return AskToGoOut()
            plays.pop()
        return None

    def _asks_before_running_out(
        self, state: DealState, player: int, plays: Sequence[Play]
    ) -> bool:
        """Where a player may run out of cards without going out, ask the partner before
        plays that leave one card or none in the foot: with a yes, the player goes out
        instead of waiting."""
        if not state.variant.players_may_run_out or state.feet[player] is not None:
            return False
        left = cards_held(state.hands[player]) - sum(play.size for play in plays)
        return left <= 1 and refusal(state, AskToGoOut()) is None

    def _needs_wild_book(self, state: DealState, player: int) -> bool:
        if not state.wild_books:
            return False
        needed = state.books_to_go_out.wild
        return state.books(state.side_of[player]).wild < needed

    def _build(self, planner: _Planner, state: DealState, player: int) -> None:
        """Plays for a side that has opened: naturals first, then wild cards where they pay."""
        hand = planner.hand
        for rank in state.natural_faces:
            held = hand[rank]  # fewer than a meld, and no meld to join: nothing to play
            if held >= MIN_MELD or (held and planner.melded & _bit(rank)):
                planner.naturals(rank)
        if state.black_three_books and hand[_BLACK]:
            self._black_threes(planner, state, player)
        if not hand[_TWO] and not hand[_JOKER]:
            return  # what follows plays wild cards only
        if self._needs_wild_book(state, player):
            planner.wild_meld()
            return
        needed = state.books_to_go_out
        books = state.books(state.side_of[player])
        keep = 0 if state.feet[player] is None else 1
        planner.finish_books(keep)
        if books.dirty < needed.dirty:
            planner.dirty_one(keep)
        if state.feet[player] is None:
            planner.pairs(0)

    def _black_threes(self, planner: _Planner, state: DealState, player: int) -> None:
        """Meld black threes for their book, while the side's melded points stay well up."""
        held = planner.hand[_BLACK]
        target = planner.growing(_BLACK)
        if target is None and held < MIN_MELD:
            return
        side = state.side_of[player]
        table = state.melded_points
        points = sum(meld.points(table) for meld in state.melds[side]) + planner.points
        if points + table[_BLACK] * held < state.first_meld_for(side):
            return
        planner.naturals(_BLACK)

    def _opening(self, planner: _Planner, state: DealState, player: int) -> bool:
        """Plays for a side's first meld; False if the hand cannot reach the minimum."""
        variant = state.variant
        hand = planner.hand
        for rank in state.natural_faces:
            if hand[rank] >= MIN_MELD:
                planner.naturals(rank)
        if state.wild_books and hand[_TWO] + hand[_JOKER] >= MIN_MELD:
            planner.wild_meld()
        minimum = state.first_meld_for(state.side_of[player])
        if planner.points < minimum:
            planner.pairs(0)
        if planner.points < minimum:
            self._wilds_for_points(planner, minimum)
        concealed = state.deal in variant.concealed_book_first_meld_deals
        if concealed and variant.concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS:
            minimum = 0
        if planner.points < minimum:
            return False
        if concealed or state.deal in variant.book_first_meld_deals:
            return any(play.onto is None and play.size >= _BOOK_SIZE for play in planner.plays)
        return True

    def _wilds_for_points(self, planner: _Planner, minimum: int) -> None:
        """Add wild cards to the new melds (as the wild limit allows) to reach the minimum."""
        for index in range(len(planner.ranks)):
            rank = planner.ranks[index]
            while planner.points < minimum and planner.takes_wilds(rank):
                if planner.hand[_TWO] + planner.hand[_JOKER] == 0:
                    return
                naturals, twos, jokers = planner.sizes[index]
                if naturals + twos + jokers >= min(planner.most, planner.dirty_most):
                    break
                if not planner.allows(naturals, twos + jokers + 1):
                    break
                joker = planner.hand[_JOKER] > 0
                planner.add(rank, 0, 0 if joker else 1, 1 if joker else 0, index)

    # --- discarding ----------------------------------------------------------------------------

    def _discard(self, state: DealState, player: int) -> Action:
        hand = state.hands[player]
        face = self._worst_card(state, player)
        if state.feet[player] is None and cards_held(hand) == 1 and not state.asked:
            why = refusal(state, _DISCARDS[face])
            if why is not None and why.rule == "cannot-go-out":
                inner = why.params.get("why")
                if getattr(inner, "rule", None) == "ask-partner":
                    return AskToGoOut()
        return _DISCARDS[face]

    def _worst_card(self, state: DealState, player: int) -> Face:
        hand = state.hands[player]
        side = state.side_of[player]
        growing = 0  # the ranks of the side's unfinished melds, as bits (`_bit`)
        for meld in state.melds[side]:
            if meld.naturals + meld.twos + meld.jokers < _BOOK_SIZE:
                growing |= _bit(meld.rank)
        keep_black = state.black_three_books and hand[_BLACK] >= 2
        points = state.held_points
        best = None
        best_score = 0
        for face in FACES:
            count = hand[face]
            if not count:
                continue
            if face is _RED:
                score = -2000
            elif face is _BLACK:
                score = 500 if keep_black else -1000
            elif face is _TWO or face is _JOKER:
                score = 1000 + points[face]
            else:
                score = count * 100 - points[face] + (300 if growing & _bit(face) else 0)
            if best is None or score < best_score:
                best = face
                best_score = score
        assert best is not None
        return best
