"""Who deals each deal and who plays first, from the variant's data."""

from __future__ import annotations

import pytest

from scorekeeper.rules.dealing import Dealing, dealing, turn
from scorekeeper.rules.variants import BUILT_IN, GAMERULES, PAGAT, SASKATCHEWAN, SIMPSON


@pytest.mark.parametrize("variant_id", sorted(BUILT_IN))
def test_one_player_deals_unless_every_player_cuts_their_own_packets(variant_id):
    variant = BUILT_IN[variant_id]

    expected = Dealing.OWN_PACKETS if variant.cut_for_packets else Dealing.ONE_DEALER
    assert dealing(variant) is expected


def test_the_partnership_families_have_a_dealer_and_simpsons_has_none():
    assert {dealing(v) for v in (PAGAT, GAMERULES, SASKATCHEWAN)} == {Dealing.ONE_DEALER}
    assert dealing(SIMPSON) is Dealing.OWN_PACKETS


@pytest.mark.parametrize(
    ("deal", "dealer_seat", "dealer_side", "first_seat", "first_side"),
    [(1, 0, 0, 1, 1), (2, 1, 1, 2, 0), (3, 2, 0, 3, 1), (4, 3, 1, 0, 0)],
)
def test_in_a_four_player_partnership_the_deal_passes_left_and_the_teams_take_turns(
    deal, dealer_seat, dealer_side, first_seat, first_side
):
    result = turn(PAGAT, sides=2, players=4, deal=deal)

    assert (result.dealer_seat, result.dealer_side) == (dealer_seat, dealer_side)
    assert (result.first_seat, result.first_side) == (first_seat, first_side)


def test_three_players_each_deal_once_and_the_fourth_deal_comes_back_to_the_first():
    seats = [
        (turn(PAGAT, 3, 3, deal).dealer_seat, turn(PAGAT, 3, 3, deal).first_seat)
        for deal in range(1, 5)
    ]

    assert seats == [(0, 1), (1, 2), (2, 0), (0, 1)]


def test_six_players_in_two_teams_sit_alternately():
    result = turn(PAGAT, sides=2, players=6, deal=4)

    assert (result.dealer_seat, result.dealer_side) == (3, 1)
    assert (result.first_seat, result.first_side) == (4, 0)


def test_where_everyone_cuts_nobody_deals_and_the_start_passes_left_by_default():
    starts = [turn(SIMPSON, 5, 5, deal) for deal in range(1, 5)]

    assert [t.dealer_seat for t in starts] == [None] * 4
    assert [t.dealer_side for t in starts] == [None] * 4
    assert [t.first_seat for t in starts] == [0, 1, 2, 3]


def test_a_table_that_chose_another_first_dealer_moves_every_deal_with_it():
    assert turn(PAGAT, 2, 4, deal=1, first_seat=3).dealer_seat == 3
    assert turn(PAGAT, 2, 4, deal=2, first_seat=3).dealer_seat == 0
    assert turn(PAGAT, 2, 4, deal=2, first_seat=3).first_side == 1


@pytest.mark.parametrize(("deal", "players", "sides"), [(0, 4, 2), (1, 0, 2), (1, 4, 0)])
def test_no_turn_without_a_deal_players_or_sides(deal, players, sides):
    with pytest.raises(ValueError, match=f"no deal {deal} for {players} players"):
        turn(PAGAT, sides, players, deal)
