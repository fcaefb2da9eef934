"""What the sources allow at a real table is accepted, and what no table can have is refused.

Each test is a deal worked by hand: the totals and the refusals' exact words.
"""

from dataclasses import replace

import pytest

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import least_book_points, validate_deal
from scorekeeper.rules.variants import ConcealedOpening, Table, Variant, get_variant

PAGAT = get_variant("pagat")
SIMPSON = get_variant("simpson")


def entry(variant: Variant | str, deal: int, *sides: SideEntry, players: int | None = None):
    if isinstance(variant, str):
        variant = get_variant(variant)
    return DealEntry(variant, deal, tuple(sides), players)


def errors(deal_entry: DealEntry) -> list[tuple[int | None, str | None, str]]:
    return [(p.side, p.field, p.message) for p in validate_deal(deal_entry).errors]


def totals(deal_entry: DealEntry) -> list[int]:
    assert errors(deal_entry) == []
    return [score.total for score in score_deal(deal_entry)]


# --- 1. table sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", ["pagat", "saskatchewan"])
def test_pagat_and_saskatchewan_seat_two_to_six_alone_and_two_teams_of_two_or_three(variant_id):
    variant = get_variant(variant_id)
    assert set(variant.tables) == {
        Table(2, 2, 3),
        Table(3, 3, 4),
        Table(4, 4, 5),
        Table(5, 5, 6),
        Table(6, 6, 7),
        Table(2, 4, 5),
        Table(2, 6, 7),
    }
    assert not variant.is_inferred("tables")


@pytest.mark.parametrize("variant_id", ["simpson", "brouillette-low", "brouillette-high"])
def test_simpson_and_brouillette_seat_two_to_twelve_with_a_deck_more_than_players(variant_id):
    tables = get_variant(variant_id).tables
    assert tables == tuple(Table(n, n, n + 1) for n in range(2, 13))


def test_brouillette_partners_is_two_teams_of_two_with_five_decks():
    assert get_variant("brouillette-partners-low").tables == (Table(2, 4, 5),)


def test_four_players_each_for_themselves_play_pagat():
    out = SideEntry(meld_points=900, clean_books=2, dirty_books=2, wild_books=1, went_out=True)
    other = SideEntry(meld_points=120, red_threes_down=1, cards_left_points=40)
    assert totals(entry("pagat", 1, out, other, other, other, players=4)) == [
        900 + 1000 + 600 + 1500 + 100,
        120 + 100 - 40,
        180,
        180,
    ]


def test_twelve_players_each_for_themselves_play_simpson():
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True, exact_22=1)
    other = SideEntry(meld_points=60, red_threes_held=1, cards_left_points=25)
    assert totals(entry("simpson", 1, out, *[other] * 11)) == [
        400 + 300 + 100 + 100 + 100,
        *[60 - 500 - 25] * 11,
    ]


# --- 2. brouillette black threes count -5 wherever they lie -----------------------------------


def test_brouillette_melded_points_may_end_below_the_first_meld():
    # Two players, three decks: opened with 50, then melded all six black threes (-30).
    opened = SideEntry(meld_points=20, cards_left_points=30)
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    assert totals(entry("brouillette-low", 1, out, opened)) == [400 + 300 + 100 + 100, 20 - 30]


def test_brouillette_melded_points_may_end_below_the_least_value_of_the_books():
    # A clean book of fours (35) and three fives (15) opened; six black threes melded since.
    side = SideEntry(meld_points=20, clean_books=1, cards_left_points=10)
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    assert totals(entry("brouillette-high", 1, out, side)) == [400 + 500 + 300 + 100, 20 + 500 - 10]


def test_brouillette_melded_points_may_end_below_zero():
    # Five players, six decks: twelve black threes at -5 after an opening of 50.
    below = SideEntry(meld_points=-10, cards_left_points=15)
    other = SideEntry(meld_points=0, cards_left_points=15)
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    assert totals(entry("brouillette-low", 1, out, below, other, other, other)) == [
        900,
        -25,
        -15,
        -15,
        -15,
    ]


def test_brouillette_melded_points_cannot_go_below_every_black_three_melded():
    too_low = SideEntry(meld_points=-15, cards_left_points=15)
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    other = SideEntry(meld_points=0, cards_left_points=15)
    assert errors(entry("brouillette-low", 1, out, too_low, other, other, other)) == [
        (
            1,
            "meld_points",
            "Side 2: -15 melded card points is below the first meld of deal 1, which alone "
            "must reach 50.",
        ),
    ]


def test_melded_points_below_zero_are_refused_where_black_threes_are_not_melded():
    side = SideEntry(meld_points=-10, cards_left_points=15)
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    assert errors(entry("simpson", 1, out, side)) == [
        (1, "meld_points", "Side 2: melded card points cannot be below 0 (entered -10).")
    ]


# --- 3. the least value of books comes from the wild cards that exist ------------------------


def test_three_wild_books_with_five_decks_hold_a_joker():
    # Twenty twos make two wild books and six cards of the third; its seventh is a joker.
    side = SideEntry(meld_points=420, wild_books=3, cards_left_points=50)
    assert least_book_points(PAGAT, Table(2, 4, 5), side) == 20 * 20 + 50
    out = SideEntry(
        meld_points=1000,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        cards_left_points=10,
        went_out=True,
    )
    assert errors(entry("pagat", 1, out, side)) == [
        (
            1,
            "meld_points",
            "Side 2: 420 melded card points is too few for the books entered, whose cards "
            "alone are worth at least 450.",
        )
    ]
    assert totals(entry("pagat", 1, out, replace(side, meld_points=450))) == [
        1000 + 1000 + 600 + 1500 + 100 - 10,
        450 + 4500 - 50,
    ]


def test_dirty_books_past_the_twos_hold_jokers():
    # Five decks: two wild books take 14 twos, six dirty books the last 6, a seventh a joker.
    side = SideEntry(wild_books=2, dirty_books=7)
    naturals = 7 * 5 * 5 + 7 * 5  # five sevens-to-fours in each, and a sixth card as cheap
    assert least_book_points(PAGAT, Table(2, 4, 5), side) == 20 * 20 + 50 + naturals


# --- 4. one meld of each rank: at most 11 natural books and one black-three book -------------


def test_a_side_has_at_most_eleven_natural_books_where_a_rank_is_melded_once():
    out = SideEntry(
        meld_points=1500, clean_books=7, dirty_books=5, cards_left_points=10, went_out=True
    )
    other = SideEntry(meld_points=100, cards_left_points=50)
    assert errors(entry("brouillette-partners-low", 1, out, other)) == [
        (
            0,
            "clean_books",
            "Side 1: Brouillette partners (low bonuses) allows one meld of each rank, so a "
            "side has at most 11 clean and dirty books together (A, K ... 4), not 12.",
        )
    ]
    eleven = replace(out, dirty_books=4)
    assert totals(entry("brouillette-partners-low", 1, eleven, other)) == [
        1500 + 7 * 300 + 4 * 100 + 100 - 10,
        100 - 50,
    ]


def test_a_side_has_at_most_one_black_three_book_where_a_rank_is_melded_once():
    # Six players, seven decks: fourteen black threes, enough cards for two books.
    out = SideEntry(
        meld_points=400, clean_books=1, dirty_books=1, black_three_books=2, went_out=True
    )
    other = SideEntry(meld_points=0, cards_left_points=20)
    assert errors(entry("brouillette-high", 1, out, *[other] * 5)) == [
        (
            0,
            "black_three_books",
            "Side 1: Brian Brouillette (high bonuses) allows one meld of each rank, so a side "
            "has at most one black-three book, not 2.",
        )
    ]


# --- 5. pagat: the team that went out holds no red three --------------------------------------


def test_a_pagat_team_that_went_out_holds_no_red_three():
    out = SideEntry(
        meld_points=1000,
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes_held=1,
        cards_left_points=10,
        went_out=True,
    )
    other = SideEntry(meld_points=200, red_threes_held=1, cards_left_points=60)
    assert errors(entry("pagat", 1, out, other)) == [
        (
            0,
            "red_threes_held",
            "Side 1 went out, so its partner had picked up the foot, and in Partnership "
            "(pagat.com) every red three found is laid down at once: no red three can still "
            "be held (entered 1).",
        )
    ]
    assert totals(entry("pagat", 1, replace(out, red_threes_held=0), other)) == [
        1000 + 1000 + 600 + 1500 + 100 - 10,
        200 - 100 - 60,
    ]


def test_a_brouillette_partner_may_still_hold_a_red_three_after_the_other_went_out():
    out = SideEntry(
        meld_points=800,
        clean_books=2,
        dirty_books=2,
        red_threes_held=1,
        cards_left_points=20,
        went_out=True,
    )
    other = SideEntry(meld_points=100, cards_left_points=50)
    assert totals(entry("brouillette-partners-low", 1, out, other)) == [
        800 + 600 + 200 - 500 + 100 - 20,
        50,
    ]


# --- 6. every player still playing holds a card -----------------------------------------------


def test_a_simpson_player_holding_only_red_threes_has_no_points_of_cards_left():
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    held = SideEntry(meld_points=100, red_threes_held=2)
    assert totals(entry("simpson", 1, out, held)) == [900, 100 - 1000]


def test_red_threes_held_cover_only_as_many_players_as_there_are_red_threes():
    out = SideEntry(meld_points=800, clean_books=2, dirty_books=2, went_out=True)
    team = SideEntry(meld_points=100, red_threes_held=1)
    assert errors(entry("brouillette-partners-low", 1, out, team)) == [
        (
            0,
            "cards_left_points",
            "Side 1 went out, but a partner plays on until then and still holds at least one "
            "card: the points of cards left cannot be 0.",
        ),
        (
            1,
            "cards_left_points",
            "Side 2: 2 player(s) still hold at least one card each and only 1 red three(s) are "
            "held, so the cards left are worth at least 5, not 0.",
        ),
    ]


# --- 9. simpson family: red threes are never laid down ----------------------------------------


@pytest.mark.parametrize(
    "variant_id", ["simpson", "brouillette-low", "brouillette-high", "brouillette-partners-high"]
)
def test_red_threes_are_never_laid_down_in_the_simpson_family(variant_id):
    variant = get_variant(variant_id)
    assert not variant.red_threes_laid_down
    assert variant.red_three.held == -500


def test_a_red_three_laid_down_is_refused_in_simpson():
    out = SideEntry(meld_points=400, clean_books=1, dirty_books=1, went_out=True)
    other = SideEntry(meld_points=100, red_threes_down=1, cards_left_points=20)
    assert errors(entry("simpson", 1, out, other)) == [
        (
            1,
            "red_threes_down",
            "Side 2: in Steve Simpson red threes are never laid down, only discarded, so red "
            "threes laid down must be 0 (entered 1); count the ones still held at the end "
            "instead.",
        )
    ]


# --- 10. saskatchewan deal 4: a concealed canasta instead of the 150 points -------------------


SASK_OUT = SideEntry(
    meld_points=700, clean_books=1, dirty_books=1, wild_books=1, cards_left_points=10, went_out=True
)


def test_saskatchewan_deal_4_opens_with_a_concealed_canasta_instead_of_150_points():
    assert get_variant("saskatchewan").concealed_opening is ConcealedOpening.INSTEAD_OF_POINTS
    canasta = SideEntry(meld_points=70, clean_books=1, cards_left_points=30)
    assert totals(entry("saskatchewan", 4, SASK_OUT, canasta)) == [
        700 + 500 + 300 + 1500 + 100 - 10,
        70 + 500 - 30,
    ]


def test_saskatchewan_deal_4_melds_without_a_book_are_refused():
    no_book = SideEntry(meld_points=200, cards_left_points=30)
    assert errors(entry("saskatchewan", 4, SASK_OUT, no_book)) == [
        (
            1,
            "meld_points",
            "Side 2: the first meld of deal 4 must include a concealed book, so a side that "
            "melded has at least one book (entered 200 melded card points and no book).",
        )
    ]


def test_a_house_rule_can_ask_for_the_concealed_canasta_and_the_points():
    both = HouseRules(
        "Both", "saskatchewan", {"concealed_opening": "with_points"}
    ).checked_variant()
    assert both.concealed_opening is ConcealedOpening.WITH_POINTS
    canasta = SideEntry(meld_points=70, clean_books=1, cards_left_points=30)
    assert errors(entry(both, 4, SASK_OUT, canasta)) == [
        (
            1,
            "meld_points",
            "Side 2: 70 melded card points is below the first meld of deal 4, which alone "
            "must reach 150.",
        )
    ]
    assert totals(entry(both, 4, SASK_OUT, replace(canasta, meld_points=150))) == [
        3090,
        150 + 500 - 30,
    ]


# --- the command line gives the same answers ---------------------------------------------------


def run_cli(capsys, body) -> tuple[int, dict]:
    import json

    from scorekeeper.cli import score

    code = score(json.dumps(body))
    return code, json.loads(capsys.readouterr().out)


def test_the_command_line_refuses_a_red_three_laid_down_in_simpson(capsys):
    out = {"meld_points": 400, "clean_books": 1, "dirty_books": 1, "went_out": True}
    code, answer = run_cli(
        capsys,
        {
            "variant": "simpson",
            "deal": 1,
            "sides": [out, {"meld_points": 100, "red_threes_down": 2, "cards_left_points": 20}],
        },
    )
    assert code == 1
    assert answer["errors"] == [
        {
            "side": 1,
            "field": "red_threes_down",
            "message": "Side 2: in Steve Simpson red threes are never laid down, only discarded, "
            "so red threes laid down must be 0 (entered 2); count the ones still held at the end "
            "instead.",
        }
    ]


def test_the_command_line_refuses_three_wild_books_worth_420_with_five_decks(capsys):
    out = {
        "meld_points": 1000,
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "cards_left_points": 10,
        "went_out": True,
    }
    caught = {"meld_points": 420, "wild_books": 3, "cards_left_points": 50}
    code, answer = run_cli(capsys, {"variant": "pagat", "deal": 1, "sides": [out, caught]})
    assert code == 1
    assert [e["message"] for e in answer["errors"]] == [
        "Side 2: 420 melded card points is too few for the books entered, whose cards alone "
        "are worth at least 450."
    ]


def test_the_command_line_scores_brouillette_melds_below_the_first_meld(capsys):
    out = {"meld_points": 400, "clean_books": 1, "dirty_books": 1, "went_out": True}
    code, answer = run_cli(
        capsys,
        {
            "variant": "brouillette-low",
            "deal": 1,
            "sides": [out, {"meld_points": 20, "cards_left_points": 30}],
        },
    )
    assert code == 0
    assert [side["total"] for side in answer["sides"]] == [900, -10]
