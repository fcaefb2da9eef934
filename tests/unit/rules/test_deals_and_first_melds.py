"""Games of 1 to 8 deals, a going-out bonus by deal, and first melds by running score."""

import pytest
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.game import score_game
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import PAGAT, ScoreThreshold, Variant

FIVE_DEALS = PAGAT.with_changes(
    first_meld=(50, 90, 120, 150, 150),
    going_out=PAGAT.going_out + PAGAT.going_out[-1:],
    going_out_bonus=(100,) * 5,
)
EIGHT_DEALS = PAGAT.with_changes(
    first_meld=(50,) * 8, going_out=PAGAT.going_out[:1] * 8, going_out_bonus=(100,) * 8
)
RISING_BONUS = PAGAT.with_changes(going_out_bonus=(100, 200, 300, 400))
BY_SCORE = PAGAT.with_changes(
    first_meld_by_score=(
        ScoreThreshold(0, 50),
        ScoreThreshold(1500, 90),
        ScoreThreshold(3000, 120),
    )
)
OPENED_ONLY = SideEntry(meld_points=85, cards_left_points=200)
"""A side that melded 85 points and nothing else; the other side went out."""


def entry(variant: Variant, deal: int, *sides: SideEntry, running=None) -> DealEntry:
    return DealEntry(variant, deal, sides or (PAGAT_OUT, PAGAT_CAUGHT), running_scores=running)


def test_a_five_deal_game_takes_a_fifth_deal_and_refuses_a_sixth_naming_its_range():
    assert validate_deal(entry(FIVE_DEALS, 5)).ok

    error = validate_deal(entry(FIVE_DEALS, 6)).errors[0]

    assert (error.field, error.message) == ("deal", "The deal must be a number from 1 to 5, not 6.")


def test_a_game_ends_after_its_own_number_of_deals():
    five = score_game(FIVE_DEALS, ("Us", "Them"), [entry(FIVE_DEALS, n) for n in range(1, 5)])
    assert (five.finished, five.next_deal, five.winners) == (False, 5, ())

    done = score_game(FIVE_DEALS, ("Us", "Them"), [entry(FIVE_DEALS, n) for n in range(1, 6)])
    assert (done.finished, done.next_deal, done.winners) == (True, None, (0,))
    # 1210 + 2 x 500 + 2 x 300 + 1500 + 2 x 100 + 100 - 15 = 4595 a deal; the caught side
    # 600 + 500 + 300 + 100 - 100 - 120 = 1280
    assert done.totals == (5 * 4595, 5 * 1280)


def test_an_eight_deal_game_is_finished_by_its_eighth_deal_only():
    seven = score_game(EIGHT_DEALS, ("Us", "Them"), [entry(EIGHT_DEALS, n) for n in range(1, 8)])
    eight = score_game(EIGHT_DEALS, ("Us", "Them"), [entry(EIGHT_DEALS, n) for n in range(1, 9)])

    assert (seven.finished, seven.next_deal) == (False, 8)
    assert (eight.finished, eight.totals) == (True, (8 * 4595, 8 * 1280))


def test_the_going_out_bonus_follows_the_deal_over_four_deals():
    deals = [entry(RISING_BONUS, n) for n in range(1, 5)]

    per_deal = [score_deal(deal)[0].breakdown["going_out"] for deal in deals]
    game = score_game(RISING_BONUS, ("Us", "Them"), deals)

    assert per_deal == [100, 200, 300, 400]
    # 4495 a deal before the bonus: 4 x 4495 + 100 + 200 + 300 + 400
    assert game.totals == (18980, 4 * 1280)


def test_the_first_meld_follows_the_running_score():
    assert BY_SCORE.first_meld_for_score(2, 1600) == 90
    assert BY_SCORE.first_meld_for_score(2, 1499) == 50
    assert BY_SCORE.first_meld_for_score(1, 3000) == 120
    assert BY_SCORE.first_meld_for_score(3, -200) == 50  # below every score: the lowest
    assert BY_SCORE.first_meld_for_score(4, None) == 50  # no score given: the smallest
    assert PAGAT.first_meld_for_score(4, 1600) == 150  # no thresholds: by deal


def test_a_side_at_1600_needs_90_to_open():
    refused = validate_deal(entry(BY_SCORE, 2, PAGAT_OUT, OPENED_ONLY, running=(0, 1600)))

    assert [(p.side, p.field, p.message) for p in refused.errors] == [
        (
            1,
            "meld_points",
            "Side 2: 85 melded card points is below the first meld of a side at 1600 points, "
            "which alone must reach 90.",
        )
    ]
    ninety = SideEntry(meld_points=90, cards_left_points=200)
    assert validate_deal(entry(BY_SCORE, 2, PAGAT_OUT, ninety, running=(0, 1600))).ok


def test_a_side_below_the_next_threshold_opens_with_the_lower_minimum():
    assert validate_deal(entry(BY_SCORE, 4, PAGAT_OUT, OPENED_ONLY, running=(0, 1495))).ok


def test_without_running_scores_a_deal_by_score_takes_the_smallest_minimum():
    assert validate_deal(entry(BY_SCORE, 4, PAGAT_OUT, OPENED_ONLY)).ok


def test_running_scores_need_one_score_per_side():
    error = validate_deal(entry(BY_SCORE, 2, running=(0,))).errors[0]

    assert (error.field, error.message) == (
        "running_scores",
        "The running scores must give one score per side (2), not 1.",
    )


@pytest.mark.parametrize("deal", [1, 4])
def test_by_deal_the_running_score_changes_nothing(deal):
    report = validate_deal(entry(PAGAT, deal, PAGAT_OUT, OPENED_ONLY, running=(0, 5000)))

    assert report.ok is (deal == 1)
