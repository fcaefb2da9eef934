"""A side's deal total from its price list equals the rules core's, in every variant, deal and
house rule that prices a line differently (red threes worth less when not out, concealed)."""

from __future__ import annotations

from dataclasses import asdict

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.deal_prices import price_list
from scorekeeper.rules.entry import COUNT_FIELDS, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_side
from scorekeeper.rules.variants import Variant, all_variants, get_variant


def _house() -> Variant:
    rules = HouseRules(
        name="Sevens night",
        based_on="pagat",
        changes={
            "book_bonus.special_rank": "7",
            "book_bonus.special": 1000,
            "book_bonus.red_three": 1000,
            "red_three.down_not_out": 50,
            "going_out_concealed_bonus": 200,
        },
    )
    assert rules.problems() == []
    return rules.variant()


VARIANTS = (*all_variants(), _house())


@st.composite
def priced_sides(draw: st.DrawFn) -> tuple[Variant, int, bool, SideEntry]:
    variant = draw(st.sampled_from(VARIANTS))
    deal = draw(st.integers(1, variant.deals))
    stock_ran_out = draw(st.booleans())
    went_out = draw(st.booleans())
    counts = {name: draw(st.integers(0, 12)) for name in COUNT_FIELDS}
    counts["meld_points"] = 5 * draw(st.integers(0, 800))
    counts["cards_left_points"] = 5 * draw(st.integers(0, 60))
    side = SideEntry(**counts, went_out=went_out, went_out_concealed=draw(st.booleans()))
    return variant, deal, stock_ran_out, side


@settings(max_examples=300, deadline=None)
@given(priced_sides())
def test_a_price_list_adds_up_as_the_rules_core_scores(
    priced: tuple[Variant, int, bool, SideEntry],
) -> None:
    variant, deal, stock_ran_out, side = priced
    out = side.went_out and not stock_ran_out
    counts = {name: value for name, value in asdict(side).items() if name in COUNT_FIELDS}
    if out and side.went_out_concealed:
        counts["went_out_concealed"] = 1

    expected = score_side(variant, side, stock_ran_out, deal).total
    assert price_list(variant, deal, out).total(counts) == expected


def test_pagat_prices_books_red_threes_cards_and_the_going_out_bonus() -> None:
    pagat = get_variant("pagat")
    out, stayed_in = price_list(pagat, 1, True), price_list(pagat, 1, False)

    assert out.base == 100 and stayed_in.base == 0
    assert out.prices["clean_books"] == 500 and out.prices["dirty_books"] == 300
    assert out.prices["meld_points"] == 1 and out.prices["cards_left_points"] == -1
    assert stayed_in.prices["red_threes_held"] == out.prices["red_threes_held"]
