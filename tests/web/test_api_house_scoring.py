"""The score API under house rules given inline: special books, red-three books, red threes
laid down by a side that did not go out, going out concealed and black threes worth 100.

Going out concealed needs a table where a side may go out before the partner has reached the
foot: where the partner must be in the foot first, a side of partners always has melds down
before it goes out, and the API refuses it."""

import pytest

from scorekeeper.rules.house_rules import HouseRules

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database

SEVENS = {
    "name": "Sevens",
    "based_on": "pagat",
    "changes": {
        "book_bonus.special_rank": "7",
        "book_bonus.special": 1000,
        "book_bonus.red_three": 1000,
        "red_three.down_not_out": 50,
        "going_out_concealed_bonus": 100,
        "card_points.black_three": 100,
        "going_out_needs_partner_in_foot": False,
    },
}
OUT = {
    "meld_points": 1300,
    "clean_books": 1,
    "special_books": 1,
    "dirty_books": 2,
    "wild_books": 1,
    "red_threes_down": 2,
    "cards_left_points": 15,
    "went_out": True,
    "went_out_concealed": True,
}
CAUGHT = {
    "meld_points": 600,
    "clean_books": 1,
    "dirty_books": 1,
    "red_three_books": 1,
    "red_threes_down": 1,
    "cards_left_points": 200,
}


def score(client, variant, *sides):
    body = {"variant": variant, "deal": 1, "players": 4, "sides": list(sides)}
    return client.post("/api/v1/score", json=body)


def test_an_inline_house_variant_scores_every_new_rule(client):
    response = score(client, SEVENS, OUT, CAUGHT)

    assert response.status_code == 200
    out, caught = response.get_json()["sides"]
    assert out["total"] == 1300 + 500 + 1000 + 600 + 1500 + 200 + 100 + 100 - 15 == 5285
    assert out["breakdown"]["special_books"] == 1000
    assert out["breakdown"]["going_out_concealed"] == 100
    assert caught["total"] == 600 + 500 + 300 + 1000 + 50 - 200 == 2250
    assert caught["breakdown"]["red_three_books"] == 1000
    assert caught["breakdown"]["red_threes"] == 50


def test_going_out_concealed_without_going_out_is_refused_naming_side_and_field(client):
    response = score(client, SEVENS, OUT, {**CAUGHT, "went_out_concealed": True})

    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": 1,
            "field": "went_out_concealed",
            "message": "Side 2 did not go out, so it cannot have gone out concealed.",
        }
    ]


@pytest.mark.parametrize("base", ["pagat", "gamerules", "saskatchewan"])
def test_partners_who_wait_for_a_partners_foot_cannot_have_gone_out_concealed(client, base):
    rules = {
        "name": "Waits for the foot",
        "based_on": base,
        "changes": {"going_out_concealed_bonus": 100},
    }
    caught = {**CAUGHT, "red_three_books": 0, "meld_points": 600}

    response = score(client, rules, OUT | {"special_books": 0, "clean_books": 2}, caught)

    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": 0,
            "field": "went_out_concealed",
            "message": "Side 1 cannot have gone out concealed: in Waits for the foot a side "
            "goes out only once a partner has picked up the foot, which takes melding, so the "
            "side had melds on the table before it went out.",
        }
    ]
    accepted = score(
        client,
        rules,
        OUT | {"special_books": 0, "clean_books": 2, "went_out_concealed": False},
        caught,
    )
    assert accepted.status_code == 200, accepted.get_json()


def test_red_three_books_beyond_the_red_threes_of_the_decks_are_refused(client):
    response = score(client, SEVENS, OUT, {**CAUGHT, "red_threes_down": 2})

    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error["field"] == "red_three_books"
    assert error["message"] == (
        "Together, the sides have 11 red threes (Side 1 2, Side 2 9), counting seven in each "
        "red-three book, but 5 decks hold only 10."
    )


def test_the_new_side_fields_are_refused_where_the_built_in_rules_lack_them(client):
    response = score(client, "pagat", OUT, CAUGHT)

    assert response.status_code == 422
    fields = [(e["side"], e["field"]) for e in response.get_json()["errors"]]
    assert (0, "special_books") in fields
    assert (1, "red_three_books") in fields
    assert (0, "went_out_concealed") in fields


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"red_three.down_not_out": 150}, "variant.red_three.down_not_out"),
        ({"book_bonus.special": 1000}, "variant.book_bonus.special_rank"),
    ],
)
def test_an_inline_variant_breaking_the_new_rules_is_refused_naming_the_parameter(
    client, changes, field
):
    variant = {**SEVENS, "changes": {"going_out_bonus": 100, **changes}}
    assert HouseRules("Sevens", "pagat", changes).problems()

    response = score(client, variant, OUT, CAUGHT)

    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == [field]


def test_the_meld_checker_refuses_a_wild_card_in_a_meld_of_the_special_rank(client):
    body = {"variant": SEVENS, "deal": 1, "rank": "7", "naturals": 6, "jokers": 1}

    data = client.post("/api/v1/check-meld", json=body).get_json()

    assert data["legal"] is False
    assert data["rules"] == ["special-rank-wilds"]
    assert data["reasons"] == [
        "A meld of sevens makes a special book, which is always clean: no twos or jokers may "
        "join it."
    ]
    clean = client.post("/api/v1/check-meld", json={**body, "naturals": 7, "jokers": 0})
    assert clean.get_json()["legal"] is True
