"""Rule sets that other score keepers and tables publish, written as house rules and scored
over a whole game through the score API, against totals worked out by hand.

Every rule set starts from the partnership game (pagat: books 500 clean, 300 dirty, 1,500
wild; red threes +100 laid down and -100 held; going out +100; first melds 50/90/120/150;
two clean, two dirty and one wild book to go out) and changes only what its table plays
differently. Two sides, four players, five decks.
"""

from __future__ import annotations

from typing import Any

import pytest

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database

# Two sides' entries that every rule set below reuses.
WENT_OUT = {
    "meld_points": 1210,
    "clean_books": 2,
    "dirty_books": 2,
    "wild_books": 1,
    "red_threes_down": 2,
    "cards_left_points": 15,  # the partner's last cards
    "went_out": True,
}
"""Under pagat: 1210 + 2 x 500 + 2 x 300 + 1500 + 2 x 100 + 100 - 15 = 4595."""
STAYED_IN = {
    "meld_points": 600,
    "clean_books": 1,
    "dirty_books": 1,
    "red_threes_down": 1,
    "red_threes_held": 1,
    "cards_left_points": 120,
}
"""Under pagat: 600 + 500 + 300 + 100 - 100 - 120 = 1280."""


def house(name: str, **changes: Any) -> dict[str, Any]:
    return {"name": name, "based_on": "pagat", "changes": changes}


def entry(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def score(client, rules, number, sides, **extra):
    body = {"variant": rules, "deal": number, "players": 4, "sides": sides, **extra}
    return client.post("/api/v1/score", json=body)


def play(client, rules, deals, *, running_scores=False):
    """Each deal's totals, then the game's; every deal must be accepted."""
    game = [0, 0]
    per_deal = []
    for number, sides in enumerate(deals, start=1):
        extra = {"running_scores": list(game)} if running_scores else {}
        response = score(client, rules, number, list(sides), **extra)
        assert response.status_code == 200, response.get_json()
        totals = [side["total"] for side in response.get_json()["sides"]]
        per_deal.append(totals)
        game = [sum(pair) for pair in zip(game, totals, strict=True)]
    return per_deal, game


def errors(response) -> list[tuple[int | None, str | None]]:
    assert response.status_code == 422, response.get_json()
    return [(error["side"], error["field"]) for error in response.get_json()["errors"]]


def test_the_partnership_game_itself_scores_the_shared_entries_as_worked_out(client):
    per_deal, game = play(client, "pagat", [(WENT_OUT, STAYED_IN)] * 4)

    assert per_deal == [[4595, 1280]] * 4
    assert game == [18380, 5120]


# A published scorer: a red three laid down counts 50, not 100, for a side that did not go out.
HALF_RED_THREES = house("Half red threes", **{"red_three.down_not_out": 50})


def test_a_side_that_did_not_go_out_scores_its_red_threes_at_50(client):
    deals = [
        (WENT_OUT, STAYED_IN),
        (WENT_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
    ]

    per_deal, game = play(client, HALF_RED_THREES, deals)

    # The side that stayed in: 600 + 500 + 300 + 1 x 50 - 100 - 120 = 1230 (1280 under pagat).
    assert per_deal == [[4595, 1230], [4595, 1230], [1230, 4595], [4595, 1230]]
    assert game == [15015, 8285]


# A published scorer: the going-out bonus grows deal by deal, 100, 200, 300, 400.
RISING_BONUS = house(
    "Rising going-out bonus",
    **{
        "going_out_bonus.1": 100,
        "going_out_bonus.2": 200,
        "going_out_bonus.3": 300,
        "going_out_bonus.4": 400,
    },
)


def test_the_going_out_bonus_rises_deal_by_deal(client):
    deals = [
        (WENT_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
    ]

    per_deal, game = play(client, RISING_BONUS, deals)

    # The side that went out: 4495 before its bonus.
    assert per_deal == [[4595, 1280], [1280, 4695], [4795, 1280], [1280, 4895]]
    assert game == [11950, 12150]


def test_one_going_out_bonus_still_sets_every_deal(client):
    rules = house("Flat 300", going_out_bonus=300)

    per_deal, game = play(client, rules, [(WENT_OUT, STAYED_IN)] * 4)

    assert per_deal == [[4795, 1280]] * 4
    assert game == [19180, 5120]


# Tables that play five deals, the fifth opened only with a canasta (a concealed book).
FIVE_DEALS = house("Five deals", deals=5, concealed_book_first_meld_deals=[5])


def test_a_game_of_five_deals_opens_the_fifth_with_a_canasta(client):
    deals = [
        (WENT_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
    ]

    per_deal, game = play(client, FIVE_DEALS, deals)

    assert per_deal == [[4595, 1280], [1280, 4595]] * 2 + [[4595, 1280]]
    assert game == [16345, 13030]


def test_the_fifth_deal_needs_a_book_and_there_is_no_sixth(client):
    no_book = entry(STAYED_IN, clean_books=0, dirty_books=0, meld_points=200)

    assert (1, "meld_points") in errors(score(client, FIVE_DEALS, 5, [WENT_OUT, no_book]))
    assert errors(score(client, FIVE_DEALS, 6, [WENT_OUT, STAYED_IN])) == [(None, "deal")]


# Tables that pay 1,000 for a clean book of sevens, which may never be dirty.
SEVENS = house("Sevens", **{"book_bonus.special_rank": "7", "book_bonus.special": 1000})
SEVENS_OUT = entry(WENT_OUT, clean_books=1, special_books=1)
"""1210 + 500 + 1000 + 2 x 300 + 1500 + 2 x 100 + 100 - 15 = 5095."""
SEVENS_IN = entry(STAYED_IN, clean_books=0, special_books=1)
"""600 + 1000 + 300 + 100 - 100 - 120 = 1780."""


def test_a_book_of_sevens_earns_1000_instead_of_500(client):
    deals = [
        (SEVENS_OUT, STAYED_IN),
        (SEVENS_OUT, SEVENS_IN),
        (SEVENS_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
    ]

    per_deal, game = play(client, SEVENS, deals)

    assert per_deal == [[5095, 1280], [5095, 1780], [1780, 4595], [4595, 1280]]
    assert game == [16565, 8935]


def test_five_decks_hold_too_few_sevens_for_three_books(client):
    # 5 decks hold 20 sevens: two books of seven, not three.
    response = score(client, SEVENS, 1, [entry(SEVENS_OUT, special_books=2), SEVENS_IN])

    assert "special_books" in [field for _side, field in errors(response)]


# Tables where seven red threes make a book worth 1,000 (instead of 100 a card).
RED_THREE_BOOK = house("Red-three book", **{"book_bonus.red_three": 1000})
RED_BOOK_OUT = entry(WENT_OUT, red_threes_down=0, red_three_books=1)
"""1210 + 2 x 500 + 2 x 300 + 1500 + 1000 + 100 - 15 = 5395."""


def test_seven_red_threes_make_a_book_worth_1000(client):
    deals = [
        (RED_BOOK_OUT, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (WENT_OUT, STAYED_IN),
        (RED_BOOK_OUT, STAYED_IN),
    ]

    per_deal, game = play(client, RED_THREE_BOOK, deals)

    assert per_deal == [[5395, 1280], [1280, 4595], [4595, 1280], [5395, 1280]]
    assert game == [16665, 8435]


def test_a_red_three_book_counts_against_the_ten_red_threes(client):
    # 7 in the book and 4 more: five decks hold 10 red threes.
    response = score(client, RED_THREE_BOOK, 1, [RED_BOOK_OUT, entry(STAYED_IN, red_threes_down=3)])

    assert errors(response)


# Tables that add 200 for going out concealed: nothing melded before, all in one turn. Such a
# table lets a player go out before the partner has reached the foot: where the partner must
# be in the foot first, the partner has melded by then and nobody goes out concealed.
CONCEALED = house(
    "Concealed bonus", going_out_concealed_bonus=200, going_out_needs_partner_in_foot=False
)


def test_going_out_concealed_earns_200_more(client):
    concealed = entry(WENT_OUT, went_out_concealed=True)
    deals = [
        (concealed, STAYED_IN),
        (STAYED_IN, WENT_OUT),
        (concealed, STAYED_IN),
        (STAYED_IN, concealed),
    ]

    per_deal, game = play(client, CONCEALED, deals)

    assert per_deal == [[4795, 1280], [1280, 4595], [4795, 1280], [1280, 4795]]
    assert game == [12150, 11950]


def test_only_the_side_that_went_out_can_have_gone_out_concealed(client):
    response = score(client, CONCEALED, 1, [WENT_OUT, entry(STAYED_IN, went_out_concealed=True)])

    assert errors(response) == [(1, "went_out_concealed")]


# Tables whose first meld follows the side's running score, as in Canasta.
BY_SCORE = house(
    "First meld by score",
    first_meld_by_score=[
        {"from_score": -100000, "minimum": 15},
        {"from_score": 0, "minimum": 50},
        {"from_score": 1500, "minimum": 90},
        {"from_score": 3000, "minimum": 120},
        {"from_score": 5000, "minimum": 150},
    ],
)
SMALL = {"meld_points": 20, "cards_left_points": 150}
"""A side that melded only 20 points: 20 - 150 = -130."""


def test_the_first_meld_follows_the_running_score(client):
    deals = [
        (WENT_OUT, entry(SMALL, meld_points=100, cards_left_points=200)),  # 0 and 0: 50
        (WENT_OUT, SMALL),  # 4595 needs 120; -100 needs only 15
        (WENT_OUT, entry(SMALL, cards_left_points=100)),  # 9190 needs 150; -230 needs 15
        (STAYED_IN, WENT_OUT),  # 13785 needs 150; -310 needs 15
    ]

    per_deal, game = play(client, BY_SCORE, deals, running_scores=True)

    assert per_deal == [[4595, -100], [4595, -130], [4595, -80], [1280, 4595]]
    assert game == [15065, 4285]


def test_a_side_far_ahead_needs_the_highest_first_meld(client):
    short = entry(STAYED_IN, meld_points=140, dirty_books=0)

    response = score(client, BY_SCORE, 2, [short, WENT_OUT], running_scores=[5000, 0])

    assert errors(response) == [(0, "meld_points")]
    assert "150" in response.get_json()["errors"][0]["message"]


# Tables that charge 500 for a red three still in hand and 100 for each black three left.
HEAVY_PENALTIES = house(
    "Heavy penalties", **{"red_three.held": -500, "card_points.black_three": 100}
)
PENALISED = entry(STAYED_IN, cards_left_points=215)
"""Two black threes and three low cards left: 600 + 500 + 300 + 100 - 500 - 215 = 785."""


def test_red_threes_held_cost_500_and_black_threes_left_100(client):
    deals = [
        (WENT_OUT, PENALISED),
        (PENALISED, WENT_OUT),
        (WENT_OUT, PENALISED),
        (WENT_OUT, PENALISED),
    ]

    per_deal, game = play(client, HEAVY_PENALTIES, deals)

    assert per_deal == [[4595, 785], [785, 4595], [4595, 785], [4595, 785]]
    assert game == [14570, 6950]


@pytest.mark.parametrize(
    "rules",
    [
        HALF_RED_THREES,
        RISING_BONUS,
        FIVE_DEALS,
        SEVENS,
        RED_THREE_BOOK,
        CONCEALED,
        BY_SCORE,
        HEAVY_PENALTIES,
    ],
    ids=lambda rules: rules["name"],
)
def test_each_rule_set_is_a_house_rules_file_the_app_reads(client, rules):
    response = score(client, rules, 1, [WENT_OUT, STAYED_IN])

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["variant"].startswith("house-")
