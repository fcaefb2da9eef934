"""One test per rule of play: the engine refuses what the rule forbids, and says which rule."""

from __future__ import annotations

from typing import Any

from engine_helpers import cards, meld, refused, table

from scorekeeper.engine import (
    AskToGoOut,
    DealEnd,
    DealState,
    Discard,
    Draw,
    Face,
    LayRedThrees,
    Meld,
    Phase,
    PickUpFoot,
    Play,
    TakePile,
    apply,
    is_legal,
    legal_actions,
    to_deal_entry,
)
from scorekeeper.engine.cards import counts_of
from scorekeeper.rules.variants import ConcealedOpening, Variant, get_variant

PAGAT = get_variant("pagat")
SASKATCHEWAN = get_variant("saskatchewan")
SIMPSON = get_variant("simpson")
BROUILLETTE = get_variant("brouillette-low")
PARTNERS = get_variant("brouillette-partners-low")

K, Q, A, EIGHT = Face.KING, Face.QUEEN, Face.ACE, Face.EIGHT
PAGAT_BOOKS = [
    meld("A", 7),
    meld("K", 7),
    meld("Q", 6, 1),
    meld("J", 5, 2),
    meld(None, 0, 5, 2),
]
"""Enough for a pagat side to go out: two clean, two dirty and a wild book."""


def hands(first: str, others: int = 3) -> list[str]:
    return [first] + ["5 6 7 9"] * others


# --- red threes ---------------------------------------------------------------------------------


def test_a_red_three_held_must_be_laid_down_before_drawing() -> None:
    state = table(PAGAT, hands("R3 K K"), phase=Phase.DRAW)

    assert "Lay down your red threes" in refused(state, Draw())


def test_red_threes_are_replaced_from_the_stock_until_none_is_held() -> None:
    state = table(PAGAT, hands("R3 K K"), phase=Phase.DRAW, stock="9 7 R3")

    apply(state, LayRedThrees())

    assert state.red_threes_down[0] == 2
    assert state.hands[0] == counts_of(cards("K K 7"))
    assert is_legal(state, Draw())


def test_laying_red_threes_needs_one_to_lay() -> None:
    state = table(PAGAT, hands("K K"), phase=Phase.DRAW)

    assert refused(state, LayRedThrees()) == "You hold no red three to lay down."


def test_a_red_three_that_cannot_be_replaced_ends_the_deal() -> None:
    state = table(PAGAT, hands("R3 K"), phase=Phase.DRAW, stock="")

    apply(state, LayRedThrees())

    assert state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT


def test_red_threes_are_never_melded() -> None:
    state = table(PAGAT, hands("K K K"), opened=[0])

    assert "Red threes are never melded" in refused(state, Meld((Play(Face.RED_THREE, 3),)))


# --- drawing ------------------------------------------------------------------------------------


def test_a_turn_starts_with_a_draw() -> None:
    state = table(PAGAT, hands("K K K"), phase=Phase.DRAW, opened=[0])

    assert "Start your turn by drawing" in refused(state, Meld((Play(K, 3),)))


def test_a_draw_takes_the_top_two_stock_cards() -> None:
    state = table(PAGAT, hands("K"), phase=Phase.DRAW, stock="4 9 J")

    apply(state, Draw())

    assert state.hands[0] == counts_of(cards("K 9 J"))
    assert state.stock == [cards("4")]
    assert state.phase is Phase.PLAY


def test_only_one_draw_a_turn() -> None:
    state = table(PAGAT, hands("K"))

    assert refused(state, Draw()) == "You have already drawn this turn."


def test_two_stock_piles_give_one_card_each_or_two_from_one() -> None:
    state = table(SIMPSON, hands("K"), phase=Phase.DRAW, stock=["9", "8 7"])

    assert "That stock pile does not hold enough cards" in refused(state, Draw((0, 0)))
    apply(state, Draw((0, 1)))

    assert state.hands[0] == counts_of(cards("K 9 7"))


def test_a_draw_names_an_existing_stock_pile() -> None:
    state = table(PAGAT, hands("K"), phase=Phase.DRAW)

    assert refused(state, Draw((0, 1))) == "There is no stock pile number 2."


def test_a_stock_too_small_to_draw_from_ends_the_deal() -> None:
    state = table(PAGAT, hands("K"), phase=Phase.DRAW, stock="9")

    apply(state, Draw())

    assert state.outcome is not None and state.outcome.end is DealEnd.STOCK_RAN_OUT
    entry = to_deal_entry(state)
    assert entry.stock_ran_out and not any(side.went_out for side in entry.sides)
    assert refused(state, Draw()) == "The deal is over."


# --- taking the discard pile ----------------------------------------------------------------------


def test_a_black_three_on_top_blocks_the_pile() -> None:
    state = table(PAGAT, hands("K K 5"), phase=Phase.DRAW, pile="K K B3", opened=[0])

    message = refused(state, TakePile((Play(Face.BLACK_THREE, 3),)))
    assert "A black three on top blocks the discard pile" in message


def test_taking_the_pile_needs_two_natural_cards_of_the_top_rank() -> None:
    state = table(PAGAT, hands("K 2 5"), phase=Phase.DRAW, pile="9 K", opened=[0])

    message = refused(state, TakePile((Play(K, 2, 1),)))
    assert "you must hold two natural kings" in message


def test_the_top_card_is_melded_with_the_two_held_cards() -> None:
    state = table(PAGAT, hands("K K Q Q Q"), phase=Phase.DRAW, pile="9 K", opened=[0])

    message = refused(state, TakePile((Play(Q, 3),)))
    assert "melding its top king at once with two kings from your hand" in message


def test_a_wild_card_on_top_can_never_be_taken_in_simpsons_game() -> None:
    state = table(SIMPSON, hands("2 2 K"), phase=Phase.DRAW, pile="K K K K K K 2", opened=[0])

    message = refused(state, TakePile((Play(K, 3, 1),)))
    assert message == "A 2 on top of the discard pile can never be taken: draw from the stock."


def test_a_wild_card_on_top_is_taken_only_with_two_matching_wild_cards() -> None:
    state = table(PAGAT, hands("2 JK K Q J"), phase=Phase.DRAW, pile="9 2")

    message = refused(state, TakePile((Play(None, 0, 2, 1),)))
    assert "To take a 2 from the pile you must hold two more twos" in message


def test_two_matching_wild_cards_take_a_wild_card_into_a_wild_meld() -> None:
    state = table(PAGAT, hands("2 2 K Q J"), phase=Phase.DRAW, pile="9 2")

    apply(state, TakePile((Play(None, 0, 3),)))

    assert state.melds[0][0].rank is None and state.melds[0][0].twos == 3
    assert state.hands[0] == counts_of(cards("9 K Q J"))


def test_the_pile_gives_its_top_seven_cards_at_most() -> None:
    state = table(PAGAT, hands("K K A"), phase=Phase.DRAW, pile="4 5 6 7 8 9 10 J Q K", opened=[0])

    apply(state, TakePile((Play(K, 3),)))

    assert state.pile == cards("4 5 6")
    assert state.hands[0] == counts_of(cards("A 7 8 9 10 J Q"))


def test_saskatchewan_takes_the_whole_pile() -> None:
    state = table(
        SASKATCHEWAN, hands("K K A"), phase=Phase.DRAW, pile="4 5 6 7 8 9 10 J Q K", opened=[0]
    )

    apply(state, TakePile((Play(K, 3),)))

    assert state.pile == []
    assert sum(state.hands[0]) == 10


def test_simpsons_pile_is_taken_only_when_it_holds_seven() -> None:
    state = table(SIMPSON, hands("K K 9"), phase=Phase.DRAW, pile="4 5 6 7 8 K", opened=[0])

    message = refused(state, TakePile((Play(K, 3),)))
    assert message == "The discard pile may be taken only when it holds at least 7 cards."


def test_an_opening_from_the_pile_counts_only_the_top_card_and_own_cards() -> None:
    state = table(PAGAT, hands("K K 5"), phase=Phase.DRAW, pile="A A A A JK K")

    message = refused(state, TakePile((Play(K, 3),)))
    assert "counting only the top card of the pile and your own cards; these make 30" in message


def test_a_pair_of_black_threes_never_takes_the_pile_in_brouillettes_game() -> None:
    state = table(
        BROUILLETTE, hands("B3 B3 K"), phase=Phase.DRAW, pile="4 5 6 7 8 9 B3", opened=[0]
    )

    message = refused(state, TakePile((Play(Face.BLACK_THREE, 3),)))
    assert "A pair of black threes never takes the discard pile" in message


def test_a_discarded_wild_card_freezes_the_pile_in_brouillettes_game() -> None:
    state = table(BROUILLETTE, hands("2 K Q"), pile="4 5 6", stock="9")

    apply(state, Discard(Face.TWO))

    assert state.pile == []
    assert state.set_aside == []  # the stock was short, so the frozen cards went under it
    assert sorted(state.stock[0] + state.stock[1]) == sorted(cards("9 4 5 6 2"))


def test_a_frozen_pile_waits_aside_while_the_stock_lasts() -> None:
    state = table(BROUILLETTE, hands("JK K Q"), pile="4 5 6")

    apply(state, Discard(Face.JOKER))

    assert state.pile == [] and sorted(state.set_aside) == sorted(cards("4 5 6 JK"))


# --- melds ----------------------------------------------------------------------------------------


def test_a_new_meld_holds_at_least_three_cards() -> None:
    state = table(PAGAT, hands("K K Q"), opened=[0])

    assert refused(state, Meld((Play(K, 2),))) == "A new meld needs at least 3 cards."


def test_pagat_needs_twice_as_many_naturals_as_wild_cards() -> None:
    state = table(PAGAT, hands("K K K 2 2 5"), opened=[0])

    message = refused(state, Meld((Play(K, 3, 2),)))
    assert message == (
        "Too many wild cards: a meld must have at least twice as many natural cards as wild cards."
    )


def test_saskatchewan_needs_more_naturals_than_wild_cards() -> None:
    state = table(SASKATCHEWAN, hands("K K K 2 2 5"), opened=[0])

    assert "more natural cards than wild cards" in refused(state, Meld((Play(K, 2, 2),)))
    assert is_legal(state, Meld((Play(K, 3, 2),)))


def test_pagat_melds_stop_at_seven_cards() -> None:
    state = table(PAGAT, hands("K Q Q 5"), melds={0: [meld("K", 7)]})

    assert "at most 7 cards" in refused(state, Meld((Play(K, 1, onto=0),)))


def test_saskatchewan_canastas_grow_past_seven() -> None:
    state = table(SASKATCHEWAN, hands("K Q Q 5"), melds={0: [meld("K", 7)]})

    apply(state, Meld((Play(K, 1, onto=0),)))

    assert state.melds[0][0].size == 8


def test_all_wild_melds_only_where_wild_books_exist() -> None:
    state = table(SIMPSON, hands("2 2 JK 5"), opened=[0])

    assert "This variant has no all-wild melds" in refused(state, Meld((Play(None, 0, 2, 1),)))
    assert is_legal(table(PAGAT, hands("2 2 JK 5"), opened=[0]), Meld((Play(None, 0, 2, 1),)))


def test_black_threes_are_melded_only_where_they_make_books() -> None:
    black = Face.BLACK_THREE
    state = table(PAGAT, hands("B3 B3 B3 5"), opened=[0])

    assert "Black threes cannot be melded" in refused(state, Meld((Play(black, 3),)))
    assert is_legal(table(BROUILLETTE, hands("B3 B3 B3 5"), opened=[0]), Meld((Play(black, 3),)))


def test_black_three_melds_are_clean() -> None:
    state = table(BROUILLETTE, hands("B3 B3 B3 2 5"), opened=[0])

    message = refused(state, Meld((Play(Face.BLACK_THREE, 3, 1),)))
    assert "A meld of black threes must be clean" in message


def test_twos_and_jokers_are_not_a_rank_of_their_own() -> None:
    state = table(SIMPSON, hands("2 2 2 5"), opened=[0])

    assert "Twos and jokers are wild" in refused(state, Meld((Play(Face.TWO, 3),)))


def test_no_second_unfinished_meld_of_a_rank() -> None:
    state = table(PAGAT, hands("8 8 8 2 K"), melds={0: [meld("8", 5)]})

    message = refused(state, Meld((Play(EIGHT, 3),)))
    assert "already has an unfinished meld of eights" in message


def test_finishing_a_book_lets_a_new_meld_of_its_rank_start_at_once() -> None:
    state = table(
        PAGAT, hands("8 8 8 2 Q"), phase=Phase.DRAW, pile="9 8", melds={0: [meld("8", 5)]}
    )

    apply(state, TakePile((Play(EIGHT, 2, onto=0), Play(EIGHT, 2, 1))))

    assert [m.size for m in state.melds[0]] == [7, 3]
    assert state.hands[0] == counts_of(cards("9 Q"))


def test_simpsons_game_never_has_two_melds_of_a_rank() -> None:
    state = table(SIMPSON, hands("K K K Q"), melds={0: [meld("K", 7)]})

    message = refused(state, Meld((Play(K, 3),)))
    assert "already has a meld of kings: add to it" in message


def test_cards_join_only_a_meld_of_their_rank() -> None:
    state = table(PAGAT, hands("Q Q A"), melds={0: [meld("K", 3)]})

    assert "cannot join a meld of kings: they are queens" in refused(
        state, Meld((Play(Q, 1, onto=0),))
    )
    assert refused(state, Meld((Play(Q, 1, onto=5),))) == "Your side has no meld number 6."


def test_only_cards_held_are_melded() -> None:
    state = table(PAGAT, hands("A A K K"), opened=[0])

    assert refused(state, Meld((Play(A, 3),))) == "You do not hold enough aces for that."


# --- the first meld -------------------------------------------------------------------------------


def test_the_first_meld_must_reach_the_deals_minimum() -> None:
    state = table(PAGAT, hands("A A A K K K 5"), deal=2)

    assert refused(state, Meld((Play(A, 3),))) == (
        "Your side's first meld in deal 2 must be worth at least 90 points in cards; these make 60."
    )
    apply(state, Meld((Play(A, 3), Play(K, 3))))

    assert state.opened[0]


def test_saskatchewans_last_deal_opens_with_a_concealed_canasta_instead_of_the_points() -> None:
    state = table(SASKATCHEWAN, hands("A A A A A A A K K K 5 5"), deal=4)

    assert "In deal 4 your side opens with a concealed book" in refused(
        state, Meld((Play(A, 6), Play(K, 3)))
    )
    assert is_legal(state, Meld((Play(A, 7),)))  # 140 points, under deal 4's 150
    apply(state, Meld((Play(A, 7),)))
    assert state.opened[0]


def test_saskatchewans_last_deal_may_ask_for_the_canasta_and_the_points() -> None:
    both = SASKATCHEWAN.with_changes(concealed_opening=ConcealedOpening.WITH_POINTS)
    state = table(both, hands("A A A A A A A K K K 5 5"), deal=4)

    assert refused(state, Meld((Play(A, 7),))) == (
        "Your side's first meld in deal 4 must be worth at least 150 points in cards; "
        "these make 140."
    )
    assert "In deal 4 your side opens with a concealed book" in refused(
        state, Meld((Play(A, 6), Play(K, 3)))
    )
    assert is_legal(state, Meld((Play(A, 7), Play(K, 3))))


def test_saskatchewans_last_deal_cannot_open_from_the_pile() -> None:
    state = table(SASKATCHEWAN, hands("K K A A A"), phase=Phase.DRAW, pile="9 K", deal=4)

    message = refused(state, TakePile((Play(K, 3), Play(A, 3))))
    assert "cannot open by taking the discard pile" in message


def test_partners_share_their_melds_and_their_first_meld() -> None:
    others = "5 6 7"
    state = table(
        PAGAT, [others, others, "K 9 9 9 5", others], melds={0: [meld("K", 4)]}, current=2
    )

    apply(state, Meld((Play(K, 1, onto=0), Play(Face.NINE, 3))))

    assert [m.size for m in state.melds[0]] == [5, 3]


def test_playing_alone_each_player_opens_for_themself() -> None:
    state = table(SIMPSON, ["5 6 7", "K K K 5"], melds={0: [meld("Q", 5)]}, current=1)

    assert "first meld in deal 1 must be worth at least 50" in refused(state, Meld((Play(K, 3),)))


# --- the foot -------------------------------------------------------------------------------------


def test_melding_the_whole_hand_picks_up_the_foot_at_once() -> None:
    state = table(PAGAT, hands("K K K"), feet=["A 9 8", None, None, None], opened=[0])

    apply(state, Meld((Play(K, 3),)))

    assert "pick up your foot" in refused(state, Discard(K))
    apply(state, PickUpFoot())
    assert state.hands[0] == counts_of(cards("A 9 8")) and state.in_foot(0)


def test_discarding_the_last_card_of_the_hand_takes_the_foot_next_turn() -> None:
    state = table(PAGAT, ["", "5 6 7", "5 6 7", "5 6 7"], phase=Phase.DRAW)

    assert "pick up your foot" in refused(state, Draw())
    apply(state, PickUpFoot())
    assert is_legal(state, Draw())


def test_the_foot_is_picked_up_once_the_hand_is_played() -> None:
    state = table(PAGAT, hands("K 5"))

    assert "only once every card of your hand has been played" in refused(state, PickUpFoot())


def test_the_foot_is_picked_up_only_once() -> None:
    state = table(PAGAT, hands("K 5"), feet=[None, "K", "K", "K"])

    assert refused(state, PickUpFoot()) == "You have already picked up your foot."


# --- going out ------------------------------------------------------------------------------------


def going_out_table(variant: Variant = PAGAT, hand: str = "K K K", **options: Any) -> DealState:
    """Player 0 plays from their foot; their side has pagat's books and partner 2 is in foot."""
    options.setdefault("melds", {0: list(PAGAT_BOOKS)})
    options.setdefault("foot_played", [2])
    return table(variant, hands(hand), feet=[None, "5", "5", "5"], **options)


def test_going_out_needs_the_deals_books() -> None:
    state = going_out_table(melds={0: [meld("A", 7), meld("K", 3)]})

    message = refused(state, Meld((Play(K, 3, onto=1),)))
    assert (
        "Going out in deal 1 needs 2 clean books, 2 dirty books and 1 wild book; "
        "your side has 1 clean book"
    ) in message


def test_going_out_waits_for_the_partner_to_play_from_their_foot() -> None:
    state = going_out_table(foot_played=[])

    message = refused(state, Meld((Play(K, 3),)))
    assert "Your partner must pick up their foot and play from it" in message


def test_going_out_asks_the_partner_first() -> None:
    state = going_out_table()

    assert "Ask your partner whether you may go out first." in refused(state, Meld((Play(K, 3),)))
    apply(state, AskToGoOut())
    apply(state, Meld((Play(K, 3),)))

    assert state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT
    assert state.outcome.player == 0
    assert to_deal_entry(state).sides[0].went_out


def test_a_partner_may_refuse_leave_to_go_out() -> None:
    state = going_out_table()
    state.answer = lambda state, player: False

    apply(state, AskToGoOut())

    assert "Your partner said no" in refused(state, Meld((Play(K, 3),)))
    assert refused(state, AskToGoOut()) == "You have already asked your partner this turn."


def test_going_out_by_discarding_the_last_card() -> None:
    state = going_out_table(hand="K K K 5")
    apply(state, AskToGoOut())
    apply(state, Meld((Play(K, 3),)))

    apply(state, Discard(Face.FIVE))

    assert state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT


def test_the_last_card_is_not_discarded_while_going_out_is_barred() -> None:
    state = going_out_table(hand="5", melds={0: [meld("A", 7)]})

    message = refused(state, Discard(Face.FIVE))
    assert message.startswith("You may not discard your last card yet: Going out in deal 1")


def test_playing_from_the_foot_keep_two_cards_until_going_out_is_allowed() -> None:
    state = going_out_table(hand="K K K 5", melds={0: [meld("A", 7)]})

    message = refused(state, Meld((Play(K, 3),)))
    assert "Keep at least two cards, one to discard and one to hold." in message


def test_simpsons_game_goes_out_only_on_a_discard() -> None:
    books = {0: [meld("A", 7), meld("Q", 6, 1)]}
    state = going_out_table(SIMPSON, melds=books, foot_played=[])

    message = refused(state, Meld((Play(K, 3),)))
    assert "you go out by discarding your last card" in message


def test_brouillettes_game_may_go_out_without_a_discard() -> None:
    books = {0: [meld("A", 7), meld("Q", 6, 1)]}
    state = going_out_table(BROUILLETTE, melds=books, foot_played=[])

    apply(state, Meld((Play(K, 3),)))

    assert state.outcome is not None and state.outcome.end is DealEnd.WENT_OUT


def test_brouillette_partners_ask_but_need_no_partner_in_foot() -> None:
    books = {0: [meld("A", 7), meld("K", 7), meld("Q", 6, 1), meld("J", 6, 1)]}
    state = going_out_table(PARTNERS, hand="9 9 9", melds=books, foot_played=[])

    assert "Ask your partner" in refused(state, Meld((Play(Face.NINE, 3),)))


def test_asking_to_go_out_is_for_a_partner_playing_from_the_foot() -> None:
    state = table(PAGAT, hands("K K K 5"), opened=[0])
    assert "You can only go out from your foot" in refused(state, AskToGoOut())

    alone = going_out_table(SIMPSON, foot_played=[])
    assert refused(alone, AskToGoOut()) == "In this game nobody is asked before going out."


def test_only_a_held_card_is_discarded() -> None:
    state = table(PAGAT, hands("K 5"))

    assert refused(state, Discard(Q)) == "You hold no queen to discard."


# --- the listed actions ---------------------------------------------------------------------------


def test_listed_actions_are_all_legal_and_forced_ones_stand_alone() -> None:
    state = table(PAGAT, hands("K K A A A 2"), phase=Phase.DRAW, pile="9 K", opened=[0])
    actions = legal_actions(state)

    assert Draw() in actions
    assert TakePile((Play(K, 3),)) in actions
    assert all(is_legal(state, action) for action in actions)
    assert legal_actions(table(PAGAT, hands("R3 K"), phase=Phase.DRAW)) == [LayRedThrees()]


def test_listed_melds_cover_single_plays() -> None:
    state = table(PAGAT, hands("K K K 2 5"), opened=[0], melds={0: [meld("5", 3)]})
    actions = legal_actions(state)

    assert Meld((Play(K, 3, 1),)) in actions
    assert Meld((Play(Face.FIVE, 1, onto=0),)) in actions
    assert Meld((Play(K, 2, 2),)) not in actions
    assert Discard(Face.FIVE) in actions
