"""The meld checker: one meld, judged under a variant and a deal."""

from __future__ import annotations

import pytest

from scorekeeper.engine import MeldKind, check_meld
from scorekeeper.rules.variants import Variant, get_variant

PAGAT = get_variant("pagat")
SASKATCHEWAN = get_variant("saskatchewan")
SIMPSON = get_variant("simpson")
BROUILLETTE = get_variant("brouillette-low")


def test_a_small_dirty_meld_is_legal_and_worth_its_cards() -> None:
    check = check_meld(PAGAT, 1, "K", naturals=3, twos=1)

    assert check.legal and check.reasons == ()
    assert check.kind is MeldKind.DIRTY and check.points == 50 and not check.is_book
    assert check.meets_first_meld and check.first_meld_minimum == 50


def test_a_first_meld_short_of_the_minimum_is_refused_only_as_a_first_meld() -> None:
    assert check_meld(PAGAT, 2, "K", naturals=3, twos=1).legal
    check = check_meld(PAGAT, 2, "K", naturals=3, twos=1, first_meld=True)

    assert not check.legal and not check.meets_first_meld
    assert "at least 90 points" in check.reasons[0].message


@pytest.mark.parametrize(
    "variant, rank, naturals, twos, jokers, rule",
    [
        (PAGAT, "K", 3, 2, 0, "too-many-wilds"),
        (SASKATCHEWAN, "K", 2, 2, 0, "too-many-wilds"),
        (PAGAT, "K", 8, 0, 0, "meld-too-big"),
        (PAGAT, "K", 2, 0, 0, "meld-too-small"),
        (SIMPSON, None, 0, 3, 1, "no-wild-melds"),
        (PAGAT, None, 1, 3, 0, "wild-meld-naturals"),
        (PAGAT, "3", 3, 0, 0, "black-three-meld"),
        (BROUILLETTE, "3", 3, 1, 0, "black-three-wilds"),
        (PAGAT, "Q", -1, 3, 0, "negative-count"),
    ],
)
def test_an_illegal_meld_names_the_rule(
    variant: Variant, rank: str | None, naturals: int, twos: int, jokers: int, rule: str
) -> None:
    check = check_meld(variant, 1, rank, naturals, twos, jokers)

    assert not check.legal
    assert rule in [reason.rule for reason in check.reasons]


def test_books_by_kind() -> None:
    assert check_meld(PAGAT, 1, "A", 7).kind is MeldKind.CLEAN
    assert check_meld(PAGAT, 1, "A", 5, 2).is_book
    wild = check_meld(PAGAT, 1, None, 0, 4, 3)
    assert wild.kind is MeldKind.WILD and wild.points == 230 and wild.is_book
    black = check_meld(BROUILLETTE, 1, "3", 7)
    assert black.legal and black.kind is MeldKind.BLACK_THREE and black.points == -35
    assert check_meld(SASKATCHEWAN, 1, "K", 6, 3).legal  # canastas grow past seven


def test_saskatchewans_last_deal_opens_with_a_book() -> None:
    check = check_meld(SASKATCHEWAN, 4, "A", 5, 0, 1, first_meld=True)

    assert not check.meets_first_meld and check.concealed_book_needed
    assert check_meld(SASKATCHEWAN, 4, "A", 5, 0, 2, first_meld=True).legal


def test_the_answer_is_ready_for_json() -> None:
    data = check_meld(PAGAT, 1, "10", 4, 0, 1).to_dict()

    assert data["rank"] == "10" and data["kind"] == "dirty" and data["points"] == 90
    assert data["legal"] is True and data["reasons"] == []


def test_a_rank_that_is_not_one_is_an_input_error() -> None:
    with pytest.raises(ValueError):
        check_meld(PAGAT, 1, "2", 3)
    with pytest.raises(ValueError):
        check_meld(PAGAT, 5, "K", 3)
