"""Games of more than eight deals, and games that end when a side reaches a target score."""

import pytest
from sample_deals import PAGAT_CAUGHT, PAGAT_OUT

from scorekeeper.rules.entry import DealEntry
from scorekeeper.rules.game import after_the_end, ends_game, score_game
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.params import param_value
from scorekeeper.rules.share_links import link_token, rules_from_link
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variant_json import house_rules_from_json, variant_from_json
from scorekeeper.rules.variants import BUILT_IN, MAX_DEALS, PAGAT, Variant

# 4595 a deal for the side that went out, 1280 for the side caught (see test_deals_and_first_melds)
TO_10000 = PAGAT.with_changes(
    first_meld=PAGAT.first_meld + (150,) * 8,
    going_out=PAGAT.going_out * 3,
    going_out_bonus=(100,) * 12,
    target_score=10_000,
)
TWELVE_DEALS = TO_10000.with_changes(target_score=None)


def entry(variant: Variant, deal: int, running=None) -> DealEntry:
    return DealEntry(variant, deal, (PAGAT_OUT, PAGAT_CAUGHT), running_scores=running)


def test_every_built_in_variant_plays_its_deals_with_no_target():
    assert MAX_DEALS == 12
    assert {variant.target_score for variant in BUILT_IN.values()} == {None}
    assert {variant.deals for variant in BUILT_IN.values()} <= set(range(1, 9))


def test_a_game_to_10000_ends_after_the_deal_that_reaches_it_and_names_the_winner():
    two = score_game(TO_10000, ("Us", "Them"), [entry(TO_10000, n) for n in (1, 2)])
    three = score_game(TO_10000, ("Us", "Them"), [entry(TO_10000, n) for n in (1, 2, 3)])

    assert (two.totals, two.finished, two.next_deal, two.winners) == ((9190, 2560), False, 3, ())
    assert (three.totals, three.finished, three.ended_after) == ((13785, 3840), True, 3)
    assert (three.next_deal, three.winners, three.ended_at_target) == (None, (0,), True)


def test_a_deal_after_a_side_reached_the_target_is_refused_naming_the_deal():
    third = validate_deal(entry(TO_10000, 3, running=(9190, 2560)))
    fourth = validate_deal(entry(TO_10000, 4, running=(13785, 3840)))

    assert third.ok
    assert [(error.field, error.message) for error in fourth.errors] == [
        (
            "deal",
            "The game ended before deal 4: a side reached the target score of 10000, so no "
            "further deal is played.",
        )
    ]


def test_the_deal_that_reaches_the_target_ends_the_game_and_the_one_before_does_not():
    assert not ends_game(entry(TO_10000, 2, running=(4595, 1280)))
    assert ends_game(entry(TO_10000, 3, running=(9190, 2560)))
    assert not ends_game(entry(TO_10000, 3))  # no running scores: cannot tell
    assert ends_game(entry(TO_10000, 12, running=(0, 0)))


def test_a_twelve_deal_game_ends_after_deal_12_only():
    eleven = score_game(
        TWELVE_DEALS, ("Us", "Them"), [entry(TWELVE_DEALS, n) for n in range(1, 12)]
    )
    twelve = score_game(
        TWELVE_DEALS, ("Us", "Them"), [entry(TWELVE_DEALS, n) for n in range(1, 13)]
    )

    assert (eleven.finished, eleven.next_deal) == (False, 12)
    assert (twelve.finished, twelve.totals, twelve.winners) == (True, (12 * 4595, 12 * 1280), (0,))


def test_a_target_nobody_reaches_ends_the_game_after_its_last_deal():
    far = TO_10000.with_changes(target_score=100_000)
    game = score_game(far, ("Us", "Them"), [entry(far, n) for n in range(1, 13)])

    assert (game.finished, game.ended_after, game.ended_at_target) == (True, 12, False)


ROTH = HouseRules("First to 10000", "pagat", {"deals": 12, "target_score": 10_000})


def test_house_rules_set_the_target_and_a_deal_added_takes_the_last_deals_values():
    variant = ROTH.checked_variant()

    assert (variant.deals, variant.target_score) == (12, 10_000)
    assert variant.first_meld == (50, 90, 120) + (150,) * 9
    assert variant.going_out[11] == PAGAT.going_out[3]
    assert variant.going_out_bonus == (100,) * 12


def test_thirteen_deals_are_refused_naming_the_field():
    problems = HouseRules("Too long", "pagat", {"deals": 13}).problems()

    assert [(p.field, p.message) for p in problems] == [
        ("deals", "Deals in a game must be from 1 to 12 (entered 13).")
    ]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            0,
            "Target score must be more than 0, or empty (entered 0).",
        ),
        (
            -100,
            "Target score cannot be below 0 (entered -100).",
        ),
        (
            10_001,
            "Target score must be a multiple of 5, as every score is (entered 10001).",
        ),
    ],
)
def test_a_target_score_that_cannot_be_played_is_refused_naming_the_field(target, message):
    problems = validate_variant(TO_10000.with_changes(target_score=target))

    assert [(p.field, p.message) for p in problems] == [("target_score", message)]


def test_the_target_score_goes_out_in_json_and_a_share_link_and_comes_back():
    from_file = house_rules_from_json(ROTH.to_json())
    from_link = rules_from_link(link_token(ROTH))
    whole = variant_from_json(ROTH.checked_variant().to_dict())

    assert from_file.changes == from_link.changes == {"deals": 12, "target_score": 10_000}
    assert from_link.checked_variant().target_score == 10_000
    assert whole == ROTH.checked_variant()
    assert param_value(PAGAT, "target_score") is None


def test_a_deal_that_would_end_the_game_before_deals_already_entered_is_refused():
    to_9000 = TO_10000.with_changes(target_score=9000)
    second = entry(to_9000, 2, running=(4595, 1280))  # 9190 after it

    (problem,) = after_the_end(second, [1, 2, 3, 4])

    assert (problem.field, problem.message) == (
        "deal",
        "With these scores a side reaches the target score of 9000 in deal 2, which ends the "
        "game, but deal 3 is already entered: delete the later deals first.",
    )
    assert after_the_end(second, [1, 2]) == ()
    assert after_the_end(entry(TO_10000, 2, running=(4595, 1280)), [1, 2, 3]) == ()
