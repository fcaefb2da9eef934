"""Card values and packet sizes that published rule sets play and the built-in variants do not:
a black three worth nothing, nines and eights priced apart from the kings (the Roth family
values fours to nines at 5), and a hand and a foot that grow deal by deal (11, 13, 15 and 17
cards, a perfect cut of 22, 26, 30 and 34). Each is read, checked and counted to the point."""

import pytest

from scorekeeper.rules.book_supply import supply_of
from scorekeeper.rules.cards import CardKind, kind_of_rank
from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import VariantRejected
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.validation import least_book_points, least_held_points, validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variant_json import variant_from_json
from scorekeeper.rules.variants import BUILT_IN, Variant, get_variant, variant_from_dict


def house(based_on: str = "simpson", **changes: object) -> Variant:
    rules = HouseRules(name="Our table", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


ROTH = house(**{"card_points.nine": 5, "card_points.eight": 5, "card_points.black_three": 0})
"""Fours to nines at 5, tens to kings at 10, a black three worth nothing."""
GROWING = house(**{"hand_size_by_deal": [11, 13, 15, 17], "foot_size_by_deal": [11, 13, 15, 17]})
"""A hand and a foot of 11 cards in deal 1, two more each deal after."""


def refusals(based_on: str, **changes: object) -> list[tuple[str | None, str]]:
    with pytest.raises(VariantRejected) as refused:
        variant_from_json({"name": "Ours", "based_on": based_on, "changes": changes})
    return [(problem.field, problem.message) for problem in refused.value.problems]


# --- card values ------------------------------------------------------------------------------


def test_the_built_in_variants_price_nines_and_eights_as_kings() -> None:
    for variant in BUILT_IN.values():
        assert variant.card_points.nine is None and variant.card_points.eight is None
        assert variant.card_points.ranks_apart == ()
        assert variant.card_points.of_rank("9", CardKind.HIGH) == variant.card_points.high


def test_nines_and_eights_priced_apart_are_worth_their_own_points() -> None:
    points = ROTH.card_points

    assert points.ranks_apart == ("9", "8")
    ranks = ("K", "10", "9", "8", "7")
    assert [points.of_rank(rank, kind_of_rank(rank)) for rank in ranks] == [10, 10, 5, 5, 5]


def test_the_decks_hold_fewer_card_points_where_nines_and_eights_are_low_cards() -> None:
    table = ROTH.table_for(4, 4)
    assert table is not None and table.decks == 5

    # a deck: jokers 100, twos 80, aces 80, K-10 160, nines and eights 40, 7-4 80, black 3s 0
    assert supply_of(ROTH, table).total_points(ROTH.card_points) == 5 * 540 == 2700
    simpson = get_variant("simpson")
    assert supply_of(simpson, table).total_points(simpson.card_points) == 5 * 590 == 2950


def test_more_card_points_than_the_decks_hold_under_the_new_values_are_refused() -> None:
    entry = DealEntry(
        ROTH,
        1,
        (
            SideEntry(meld_points=2705, clean_books=1, dirty_books=1, went_out=True),
            SideEntry(cards_left_points=5),
            SideEntry(cards_left_points=5),
            SideEntry(cards_left_points=5),
        ),
    )

    errors = [problem.message for problem in validate_deal(entry).errors]

    assert errors == ["Side 1: 2705 melded card points is more than all 5 decks hold (2700)."]


def test_books_can_be_made_of_nines_and_eights_at_five_points() -> None:
    table = ROTH.table_for(2, 2)
    assert table is not None and table.decks == 3
    side = SideEntry(clean_books=8)

    # 56 naturals: 3 decks hold 48 fours to sevens, and 24 nines and eights
    assert least_book_points(ROTH, table, side) == 56 * 5 == 280
    assert least_book_points(get_variant("simpson"), table, side) == 48 * 5 + 8 * 10 == 320


def test_a_black_three_worth_nothing_lets_a_player_hold_no_points() -> None:
    table = ROTH.table_for(2, 2)
    assert table is not None

    assert least_held_points(ROTH, table, 1) == 0
    assert least_held_points(ROTH, table, 7) == 6 * 0 + 5  # 3 decks hold 6 black threes
    assert least_held_points(get_variant("simpson"), table, 2) == 10


def _caught_with_nothing(variant: Variant) -> DealEntry:
    return DealEntry(
        variant,
        1,
        (
            SideEntry(meld_points=300, clean_books=1, dirty_books=1, went_out=True),
            SideEntry(meld_points=100, cards_left_points=0),
        ),
    )


def test_a_player_caught_with_only_black_threes_worth_nothing_is_asked_about() -> None:
    report = validate_deal(_caught_with_nothing(ROTH))

    assert report.errors == ()
    assert [problem.message for problem in report.warnings] == [
        "Side 2: no points of cards left means that every player still holding cards holds "
        "only black or red threes, worth nothing here. Is that right?"
    ]


def test_where_every_card_counts_a_player_caught_cannot_hold_no_points() -> None:
    report = validate_deal(_caught_with_nothing(get_variant("simpson")))

    assert [problem.message for problem in report.errors] == [
        "Side 2 did not go out, so each of its players still holds at least one card: the "
        "points of cards left cannot be 0."
    ]


def test_card_values_a_table_cannot_have_are_refused_naming_the_card() -> None:
    assert refusals(
        "pagat",
        **{"card_points.nine": 3, "card_points.eight": 0, "card_points.black_three": -5},
    ) == [
        (
            "card_points.nine",
            "Points of a nine must be a multiple of 5, as every score is (entered 3).",
        ),
        (
            "card_points.eight",
            "Points of an eight must be worth at least 5: every card counts (entered 0).",
        ),
        (
            "card_points.black_three",
            "Points of a black three left in hand or foot cannot be below 0 (entered -5).",
        ),
    ]


def test_a_whole_variant_written_before_nines_and_eights_had_values_still_reads() -> None:
    data = get_variant("pagat").to_dict() | {"id": "old-file"}
    for key in ("nine", "eight"):
        del data["card_points"][key]
    del data["hand_size_by_deal"], data["foot_size_by_deal"]

    variant = variant_from_json(data)

    assert variant.card_points == get_variant("pagat").card_points
    assert variant.hand_sizes == (13, 13, 13, 13)


# --- hand and foot sizes by deal ------------------------------------------------------------


def test_the_hand_and_the_foot_grow_deal_by_deal() -> None:
    assert GROWING.hand_sizes == (11, 13, 15, 17)
    assert GROWING.foot_sizes == (11, 13, 15, 17)
    assert [GROWING.hand_size_for(d) + GROWING.foot_size_for(d) for d in range(1, 5)] == [
        22,
        26,
        30,
        34,
    ]
    assert GROWING.sizes_by_deal
    assert not get_variant("simpson").sizes_by_deal


def test_sizes_by_deal_go_to_json_and_back() -> None:
    data = GROWING.to_dict()

    assert data["hand_size_by_deal"] == [11, 13, 15, 17]
    assert variant_from_dict(data) == GROWING
    assert get_variant("pagat").to_dict()["hand_size_by_deal"] == []


def test_a_deal_added_takes_the_last_deals_sizes() -> None:
    longer = house(**{"deals": 6, "hand_size_by_deal": [11, 13, 15, 17]})

    assert longer.hand_sizes == (11, 13, 15, 17, 17, 17)
    assert longer.foot_sizes == (11,) * 6


def test_sizes_by_deal_a_table_cannot_have_are_refused_naming_the_field() -> None:
    assert refusals("simpson", hand_size_by_deal=[11, 13, 15]) == [
        (
            "hand_size_by_deal",
            "Cards in the hand, deal by deal must give one number for each of the 4 deals, "
            "or none (entered 3).",
        )
    ]
    assert refusals("simpson", foot_size_by_deal=[11, 0, 15, 17]) == [
        (
            "foot_size_by_deal",
            "Cards in the foot, deal by deal must be a list of at most 12 whole numbers from 1 "
            "to 30, one for each deal, or an empty list.",
        )
    ]


def test_the_largest_deal_must_leave_a_stock_at_every_table() -> None:
    problems = refusals(
        "simpson", hand_size_by_deal=[11, 13, 15, 30], foot_size_by_deal=[11, 13, 15, 29]
    )

    assert problems == [
        (
            "tables",
            "Players and decks: dealing 11 players a hand of 30 and a foot of 29 in deal 4 "
            "takes 649 cards, which leaves no stock from 12 × 54 = 648 cards.",
        ),
        (
            "tables",
            "Players and decks: dealing 12 players a hand of 30 and a foot of 29 in deal 4 "
            "takes 708 cards, which leaves no stock from 13 × 54 = 702 cards.",
        ),
    ]


def test_the_exact_cut_follows_each_deals_packets_where_they_grow() -> None:
    assert validate_variant(GROWING) == []
    assert refusals("simpson", hand_size=13) == [
        (
            "cut_for_packets",
            "Players cut the cards of their own hand and foot: the cut 22 cards make the hand and "
            "the foot, so they must add up to 22 (now 13 + 11 = 24).",
        )
    ]


def test_a_share_link_carries_card_values_and_sizes_by_deal() -> None:
    rules = HouseRules(
        name="Roth",
        based_on="simpson",
        changes={
            "card_points.nine": 5,
            "card_points.black_three": 0,
            "hand_size_by_deal": [11, 13, 15, 17],
        },
    )

    back = rules_from_link(link_token(rules))

    assert back.changes == rules.changes
    assert back.variant().card_points.nine == 5
    assert back.variant().hand_sizes == (11, 13, 15, 17)
