"""Going out concealed where it cannot happen: where a partner must have picked up the foot
before a side may go out, the partner got there by melding, so a side of two or more players
always has melds down before it goes out. The check reads the rule, not the variant's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.support import Translations

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import least_book_points, validate_deal
from scorekeeper.rules.variants import BUILT_IN, Table, Variant

TRANSLATIONS = Path(__file__).resolve().parents[3] / "scorekeeper" / "translations"


def house(based_on: str, **changes: object) -> Variant:
    rules = HouseRules(name=f"Concealed on {based_on}", based_on=based_on, changes=changes)
    assert rules.problems() == []
    return rules.variant()


def impossible(side: str, variant: Variant) -> str:
    return (
        f"{side} cannot have gone out concealed: in {variant.name} a side goes out only once a "
        f"partner has picked up the foot, which takes melding, so the side had melds on the "
        f"table before it went out."
    )


def going_out_deal(variant: Variant, table: Table, concealed: bool) -> DealEntry:
    """Deal 1 of `table`: side 1 went out with the books the deal asks for, in its last turn
    alone or not; every other side holds a card for each of its players."""
    needed = variant.going_out_for(1)
    books = SideEntry(clean_books=needed.clean, dirty_books=needed.dirty, wild_books=needed.wild)
    least = max(least_book_points(variant, table, books), variant.first_meld_for(1))
    partners = table.players_per_side - 1
    out = SideEntry(
        meld_points=least,
        clean_books=needed.clean,
        dirty_books=needed.dirty,
        wild_books=needed.wild,
        cards_left_points=5 * partners,
        went_out=True,
        went_out_concealed=concealed,
    )
    caught = SideEntry(cards_left_points=5 * table.players_per_side)
    sides = (out, *[caught] * (table.sides - 1))
    return DealEntry(variant, 1, sides, players=table.players)


def error_messages(entry: DealEntry) -> list[str]:
    return [problem.message for problem in validate_deal(entry).errors]


CASES = [
    (variant_id, table) for variant_id, variant in BUILT_IN.items() for table in variant.tables
]


@pytest.mark.parametrize(
    ("variant_id", "table"), CASES, ids=[f"{v}-{t.sides}x{t.players}" for v, t in CASES]
)
def test_every_built_in_rule_set_refuses_it_where_a_partner_must_be_in_the_foot(
    variant_id: str, table: Table
) -> None:
    variant = house(variant_id, going_out_concealed_bonus=100)
    assert error_messages(going_out_deal(variant, table, concealed=False)) == []

    concealed = going_out_deal(variant, table, concealed=True)

    if variant.going_out_needs_partner_in_foot and table.players_per_side > 1:
        (problem,) = validate_deal(concealed).errors
        assert (problem.side, problem.field) == (0, "went_out_concealed")
        assert problem.message == impossible("Side 1", variant)
    else:
        assert error_messages(concealed) == []
        assert score_deal(concealed)[0].breakdown["going_out_concealed"] == 100


@pytest.mark.parametrize(
    ("variant_id", "table"), CASES, ids=[f"{v}-{t.sides}x{t.players}" for v, t in CASES]
)
def test_the_built_in_rule_sets_still_say_they_pay_nothing_for_it(
    variant_id: str, table: Table
) -> None:
    variant = BUILT_IN[variant_id]

    messages = error_messages(going_out_deal(variant, table, concealed=True))

    assert messages == [f"Side 1: {variant.name} has no bonus for going out concealed."]


def test_the_pagat_family_is_the_one_whose_partner_must_be_in_the_foot() -> None:
    assert [v.id for v in BUILT_IN.values() if v.going_out_needs_partner_in_foot] == [
        "pagat",
        "gamerules",
        "saskatchewan",
    ]


def test_the_rule_is_read_not_the_name() -> None:
    waits = house(
        "brouillette-partners-low",
        going_out_concealed_bonus=100,
        going_out_needs_partner_in_foot=True,
    )
    free = house("pagat", going_out_concealed_bonus=100, going_out_needs_partner_in_foot=False)
    teams = Table(2, 4, 5)

    assert error_messages(going_out_deal(waits, teams, concealed=True)) == [
        impossible("Side 1", waits)
    ]
    assert error_messages(going_out_deal(free, teams, concealed=True)) == []


def test_a_house_rule_on_a_house_rule_refuses_it_too() -> None:
    base = HouseRules(name="Ours", based_on="gamerules", changes={"going_out_concealed_bonus": 250})
    entry = going_out_deal(base.variant(), Table(2, 4, 5), concealed=True)

    assert error_messages(entry) == [impossible("Side 1", base.variant())]


def test_the_refusal_is_translated() -> None:
    variant = house("pagat", going_out_concealed_bonus=100)
    (problem,) = validate_deal(going_out_deal(variant, Table(2, 4, 5), concealed=True)).errors

    def said(lang: str) -> str:
        return problem.render(Translations.load(str(TRANSLATIONS), [lang]).gettext)

    assert said("fr") == (
        "Side 1 : une sortie sans avoir posé est impossible. Dans Concealed on pagat, un camp ne "
        "sort qu'une fois qu'un partenaire a pris son pied, ce qui demande de poser des "
        "combinaisons ; le camp avait donc des combinaisons sur la table avant de sortir."
    )
    assert "Concealed on pagat" in said("it") and "Concealed on pagat" in said("de")
    assert "Concealed on pagat" in said("ja")
    assert all(said(lang) != problem.message for lang in ("fr", "it", "de", "ja"))
