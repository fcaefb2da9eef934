"""Going out with a partner as the sources say: in pagat and the rule sets built on it a
partner's yes obliges the player to go out that turn; a player in the foot may take a small
discard pile, ask, and go out on the discard; and a side of partners who must wait for a
partner's foot never goes out concealed."""

from __future__ import annotations

import random
from typing import Any

from engine_helpers import meld, refused, table

from scorekeeper.engine import (
    AskToGoOut,
    DealEnd,
    DealState,
    Discard,
    Draw,
    Face,
    Meld,
    Phase,
    PickUpFoot,
    Play,
    TakePile,
    apply,
    arrange,
    is_legal,
    legal_actions,
    side_entries,
)
from scorekeeper.engine.going_out import can_go_out
from scorekeeper.engine.melds import TableMeld
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.variants import RankMelds, Variant, get_variant

PAGAT = get_variant("pagat")
GAMERULES = get_variant("gamerules")
SASKATCHEWAN = get_variant("saskatchewan")
PARTNERS = get_variant("brouillette-partners-low")
EIGHT, KING, NINE, FIVE = Face.EIGHT, Face.KING, Face.NINE, Face.FIVE
OTHERS = "5 6 7 9"
BOOKS = [meld("A", 7), meld("K", 7), meld("Q", 6, 1), meld("J", 5, 2), meld(None, 0, 5, 2)]
"""Two clean, two dirty and a wild book: enough to go out in pagat's deal 1."""

MUST_GO_OUT = (
    "Your partner said yes, so you go out this turn: meld all your cards, or all but one and "
    "discard it."
)


def partner_in_foot(variant: Variant, hand: str, **options: Any) -> DealState:
    """Player 1 plays from the foot; partner 3 has picked up the foot and played from it."""
    options.setdefault("melds", {0: list(BOOKS)})
    return table(
        variant,
        [hand, OTHERS, OTHERS, OTHERS],
        feet=[None, "5", None, "5"],
        foot_played=[2],
        **options,
    )


def went_out(state: DealState, player: int = 0) -> bool:
    return (
        state.outcome is not None
        and state.outcome.end is DealEnd.WENT_OUT
        and (state.outcome.player == player)
    )


# --- a partner's yes obliges the player to go out that turn -------------------------------------


def test_the_pagat_family_is_bound_by_a_yes_and_brouillettes_partners_are_not() -> None:
    bound = [v.id for v in (PAGAT, GAMERULES, SASKATCHEWAN, PARTNERS) if v.partner_yes_binds]

    assert bound == ["pagat", "gamerules", "saskatchewan"]


def test_told_yes_a_player_may_not_discard_and_play_on() -> None:
    state = partner_in_foot(PAGAT, "9 9 9 5")
    apply(state, AskToGoOut())

    assert refused(state, Discard(FIVE)) == MUST_GO_OUT
    assert Discard(FIVE) not in legal_actions(state)
    apply(state, Meld((Play(NINE, 3),)))
    apply(state, Discard(FIVE))
    assert went_out(state)


def test_told_yes_a_player_may_not_meld_their_going_out_away() -> None:
    # One clean book short: a king on the six kings makes it; a two on them would make the
    # book dirty and leave the king with nowhere to go.
    books = [meld("A", 7), meld("Q", 6, 1), meld("J", 5, 2), meld(None, 0, 5, 2), meld("K", 6)]
    state = partner_in_foot(PAGAT, "K 2 9 9 9", melds={0: books})
    apply(state, AskToGoOut())

    assert refused(state, Meld((Play(KING, 0, twos=1, onto=4),))) == MUST_GO_OUT
    apply(state, Meld((Play(NINE, 3),)))
    apply(state, Meld((Play(KING, 1, onto=4),)))
    apply(state, Discard(Face.TWO))
    assert went_out(state)


def test_a_yes_obliges_only_while_going_out_is_within_reach() -> None:
    state = partner_in_foot(PAGAT, "9 9 9 5 6")
    apply(state, AskToGoOut())

    assert not can_go_out(state, 0)
    apply(state, Discard(FIVE))
    assert state.current == 1 and state.outcome is None


def test_a_no_lets_play_go_on() -> None:
    state = partner_in_foot(PAGAT, "9 9 9 5")
    state.answer = lambda state, player: False
    apply(state, AskToGoOut())

    apply(state, Discard(FIVE))

    assert state.current == 1 and state.outcome is None


def test_brouillettes_partners_may_hear_yes_and_still_play_on() -> None:
    books = [meld("A", 7), meld("K", 7), meld("Q", 6, 1), meld("J", 6, 1)]
    state = partner_in_foot(PARTNERS, "9 9 9 5", melds={0: books})
    apply(state, AskToGoOut())

    apply(state, Discard(FIVE))

    assert state.current == 1 and state.outcome is None


def test_told_yes_every_listed_action_keeps_the_way_out_open() -> None:
    state = partner_in_foot(PAGAT, "9 9 9 9 2 JK 5 5 5 6")
    apply(state, AskToGoOut())

    while state.outcome is None:
        assert state.current == 0, "the turn ends only by going out"
        actions = legal_actions(state)
        assert actions and can_go_out(state, 0)
        apply(state, actions[-1])

    assert went_out(state)


# --- taking a small pile in the foot, then asking and going out ---------------------------------


def pile_of_one_eight(variant: Variant, hand: str = "8 8 5") -> DealState:
    return partner_in_foot(variant, hand, pile="8", phase=Phase.DRAW)


def test_a_player_in_the_foot_takes_a_single_eight_asks_and_goes_out_in_pagat() -> None:
    state = pile_of_one_eight(PAGAT)

    apply(state, TakePile((Play(EIGHT, 3),)))
    assert state.hand_size(0) == 1
    assert refused(state, Discard(FIVE)).endswith("Ask your partner whether you may go out first.")
    apply(state, AskToGoOut())
    apply(state, Discard(FIVE))

    assert went_out(state)
    assert side_entries(state)[0].went_out


def test_the_same_pickup_and_going_out_in_gamerules_and_saskatchewan() -> None:
    for variant in (GAMERULES, SASKATCHEWAN):
        state = pile_of_one_eight(variant)

        apply(state, TakePile((Play(EIGHT, 3),)))
        apply(state, AskToGoOut())
        apply(state, Discard(FIVE))

        assert went_out(state), variant.id


def test_told_no_after_the_pickup_the_player_keeps_the_card_and_the_turn_passes() -> None:
    state = pile_of_one_eight(PAGAT)
    state.answer = lambda state, player: False
    apply(state, TakePile((Play(EIGHT, 3),)))

    apply(state, AskToGoOut())

    assert state.outcome is None
    assert (state.current, state.phase) == (1, Phase.DRAW)
    assert state.hands[0][FIVE] == 1 and state.hand_size(0) == 1
    assert is_legal(state, Draw())


def test_the_pickup_still_keeps_a_card_to_discard() -> None:
    state = pile_of_one_eight(PAGAT, hand="8 8")

    assert refused(state, TakePile((Play(EIGHT, 3),))) == (
        "That would leave you 0 card(s) from your foot, but you may not go out yet: Ask your "
        "partner whether you may go out first. Keep at least two cards, one to discard and one "
        "to hold."
    )


def test_the_pickup_to_one_card_still_needs_the_books_and_the_partners_foot() -> None:
    short = pile_of_one_eight(PAGAT)
    short.melds[0] = [meld("A", 7)]
    short.book_cache[0] = None
    assert "Going out in deal 1 needs 2 clean books" in refused(short, TakePile((Play(EIGHT, 3),)))

    waiting = pile_of_one_eight(PAGAT)
    waiting.foot_played[2] = False
    assert "Your partner must pick up their foot" in refused(waiting, TakePile((Play(EIGHT, 3),)))


# --- partners never go out concealed ----------------------------------------------------------


def one_book_to_go_out() -> Variant:
    rules = HouseRules(
        name="One clean book",
        based_on="pagat",
        changes={
            "going_out_concealed_bonus": 100,
            "going_out.1.clean": 1,
            "going_out.1.dirty": 0,
            "going_out.1.wild": 0,
        },
    )
    return rules.variant()


def test_partners_never_go_out_with_nothing_on_the_table_before_the_turn() -> None:
    # An impossible position (the partner is in the foot with nothing melded), laid out by
    # hand: the engine still refuses to go out concealed from it.
    state = table(
        one_book_to_go_out(),
        ["K K K K K K K Q Q", OTHERS, OTHERS, OTHERS],
        feet=["4 4 4 4 4 4 4 J", "5", None, "5"],
        foot_played=[2],
        stock="4 5 6 8 9 Q Q",
        phase=Phase.DRAW,
    )
    apply(state, Draw())
    apply(state, Meld((Play(KING, 7), Play(Face.QUEEN, 4))))
    apply(state, PickUpFoot())
    apply(state, AskToGoOut())

    assert refused(state, Meld((Play(Face.FOUR, 7),))) == (
        "That would leave you 1 card(s) from your foot, but you may not go out yet: Your side "
        "had no meld on the table before this turn, but a partner reaches the foot only by "
        "melding: with partners who must be in the foot, a side never goes out concealed. Keep "
        "at least two cards, one to discard and one to hold."
    )
    assert not can_go_out(state, 0)


# --- whether going out is within reach, against a search of the listed actions ----------------


def _reachable(state: DealState, seen: dict[tuple[object, ...], bool]) -> bool:
    """Whether listed melds, then a discard of the last card, take player 1 out this turn."""
    if state.outcome is not None:
        return went_out(state)
    key = (tuple(state.hands[0]), tuple(state.melds[0]))
    if key not in seen:
        seen[key] = False
        seen[key] = any(
            _reachable(_after(state, action), seen)
            for action in legal_actions(state)
            if isinstance(action, Meld) or (isinstance(action, Discard) and state.hand_size(0) == 1)
        )
    return seen[key]


def _after(state: DealState, action: Meld | Discard) -> DealState:
    twin = state.copy()
    apply(twin, action)
    return twin


def _random_position(rng: random.Random, variant: Variant) -> DealState:
    """Player 1 in the foot, partner in the foot, the side's books mostly made."""
    needed = variant.going_out_for(1)
    spare = [Face.ACE, Face.JACK, Face.TEN, Face.SEVEN, Face.SIX, Face.FOUR]
    rng.shuffle(spare)
    melds = [TableMeld(spare.pop(), 7) for _ in range(needed.clean - rng.randint(0, 1))]
    melds += [TableMeld(spare.pop(), 5, 1, 1) for _ in range(needed.dirty - rng.randint(0, 1))]
    if needed.wild and rng.random() < 0.8:
        melds.append(TableMeld(None, 0, 4, 3))
    for _ in range(rng.randint(0, 3)):
        rank = rng.choice(RANKS)
        if all(m.rank is not rank for m in melds):
            melds.append(TableMeld(rank, rng.randint(3, 6), rng.randint(0, 1)))
    ranks = [m.rank for m in melds if m.rank is not None] + [*RANKS[:2], Face.TWO, Face.JOKER]
    hand = [rng.choice(ranks) for _ in range(rng.randint(1, 8))]
    others = [Face.FIVE] * 3
    state = arrange(
        variant,
        hands=[hand, others, others, others],
        feet=[None, [Face.FIVE], None, [Face.FIVE]],
        melds={0: melds},
        foot_played=[2],
        stock=[[Face.FIVE] * 10],
        phase=Phase.PLAY,
    )
    return state


RANKS = [Face.KING, Face.QUEEN, Face.NINE, Face.EIGHT, Face.FIVE]
UNASKED = [
    PAGAT.with_changes(going_out_asks_partner=False),
    GAMERULES.with_changes(going_out_asks_partner=False),
    SASKATCHEWAN.with_changes(going_out_asks_partner=False),
    PAGAT.with_changes(
        id="one-a-rank", rank_melds=RankMelds.ONE, max_meld_size=None, going_out_asks_partner=False
    ),
]
"""The pagat family with the question left out: the listed actions alone say whether the
player can go out."""


def test_going_out_is_within_reach_exactly_when_the_listed_actions_get_there() -> None:
    rng = random.Random(7)
    reachable = 0
    for _ in range(60):
        state = _random_position(rng, rng.choice(UNASKED))

        expected = _reachable(state, {})

        assert can_go_out(state, 0) == expected, (state.variant.id, state.hands[0], state.melds[0])
        reachable += expected
    assert reachable >= 12
