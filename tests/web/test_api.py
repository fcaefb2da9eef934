"""The score API contract: POST /api/v1/score and GET /api/v1/variants."""

import json

import pytest

from scorekeeper.rules.variants import all_variants

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database

DEAL = {
    "variant": "pagat",
    "deal": 1,
    "players": 4,
    "stock_ran_out": False,
    "sides": [
        {
            "meld_points": 1210,
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "black_three_books": 0,
            "red_threes_down": 2,
            "red_threes_held": 0,
            "cards_left_points": 15,
            "went_out": True,
            "exact_22": 0,
        },
        {
            "meld_points": 600,
            "clean_books": 1,
            "dirty_books": 1,
            "red_threes_down": 1,
            "red_threes_held": 1,
            "cards_left_points": 120,
        },
    ],
}


def post(client, body):
    return client.post("/api/v1/score", json=body)


def test_scores_a_deal_with_totals_and_breakdown(client):
    response = post(client, DEAL)
    assert response.status_code == 200
    data = response.get_json()
    assert data["variant"] == "pagat" and data["deal"] == 1
    first, second = data["sides"]
    assert first["total"] == 4595
    assert first["breakdown"]["wild_books"] == 1500
    assert first["warnings"] == []
    assert second["total"] == 1280


def test_optional_fields_default_to_zero_and_players_to_the_usual_table(client):
    body = {
        "variant": "simpson",
        "deal": 2,
        "sides": [
            {
                "meld_points": 600,
                "clean_books": 1,
                "dirty_books": 1,
                "went_out": True,
                "exact_22": 1,
            },
            {"meld_points": 200, "red_threes_held": 1, "cards_left_points": 85},
        ],
    }
    data = post(client, body).get_json()
    assert [side["total"] for side in data["sides"]] == [
        600 + 300 + 100 + 100 + 100,
        200 - 500 - 85,
    ]


SIMPSON_OUT = {"meld_points": 400, "clean_books": 1, "dirty_books": 1, "went_out": True}


def test_a_warning_is_returned_with_the_score(client):
    # Simpson: red threes are never laid down, so a player may end holding only red threes.
    body = {
        "variant": "simpson",
        "deal": 1,
        "sides": [SIMPSON_OUT, {"meld_points": 100, "red_threes_held": 1}],
    }
    data = post(client, body).get_json()
    assert [side["total"] for side in data["sides"]] == [900, 100 - 500]
    (warning,) = data["sides"][1]["warnings"]
    assert warning["field"] == "cards_left_points"
    assert warning["message"] == (
        "Side 2: with no points of cards left, every player still holding cards holds only "
        "red threes. Is that right?"
    )


def test_no_cards_left_for_a_side_still_playing_is_refused_where_red_threes_go_down(client):
    body = json.loads(json.dumps(DEAL))
    body["sides"][1]["cards_left_points"] = 0
    response = post(client, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": 1,
            "field": "cards_left_points",
            "message": "Side 2 did not go out, so each of its players still holds at least one "
            "card: the points of cards left cannot be 0.",
        }
    ]


def test_simpson_refuses_red_threes_laid_down_naming_the_rule_and_field(client):
    body = {
        "variant": "simpson",
        "deal": 1,
        "sides": [SIMPSON_OUT, {"meld_points": 100, "red_threes_down": 1, "cards_left_points": 20}],
    }
    response = post(client, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": 1,
            "field": "red_threes_down",
            "message": "Side 2: in Steve Simpson red threes are never laid down, only "
            "discarded, so red threes laid down must be 0 (entered 1); count the ones still "
            "held at the end instead.",
        }
    ]


def test_simpson_breakdown_has_only_the_red_threes_still_held(client):
    body = {
        "variant": "brouillette-high",
        "deal": 1,
        "sides": [SIMPSON_OUT, {"meld_points": 60, "red_threes_held": 2, "cards_left_points": 20}],
    }
    data = post(client, body).get_json()
    assert data["sides"][1]["breakdown"]["red_threes"] == -1000
    assert data["sides"][1]["total"] == 60 - 1000 - 20


def test_twelve_players_play_simpson_and_six_play_pagat_each_for_themselves(client):
    other = {"meld_points": 60, "cards_left_points": 25}
    twelve = {"variant": "simpson", "deal": 1, "players": 12, "sides": [SIMPSON_OUT, *[other] * 11]}
    data = post(client, twelve).get_json()
    assert [side["total"] for side in data["sides"]] == [900] + [35] * 11
    pagat_out = {
        "meld_points": 900,
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "went_out": True,
    }
    six = {"variant": "pagat", "deal": 1, "players": 6, "sides": [pagat_out, *[other] * 5]}
    data = post(client, six).get_json()
    assert [side["total"] for side in data["sides"]] == [4100] + [35] * 5


def test_brouillette_melded_points_below_zero_are_scored(client):
    # Five players, six decks: an opening of 50, then all twelve black threes melded (-60).
    other = {"meld_points": 0, "cards_left_points": 15}
    body = {
        "variant": "brouillette-low",
        "deal": 1,
        "sides": [SIMPSON_OUT, {"meld_points": -10, "cards_left_points": 15}, *[other] * 3],
    }
    data = post(client, body).get_json()
    assert [side["total"] for side in data["sides"]] == [900, -25, -15, -15, -15]


def test_an_impossible_deal_is_422_naming_side_and_field(client):
    body = json.loads(json.dumps(DEAL))
    body["sides"][1]["went_out"] = True
    response = post(client, body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": None,
            "field": "went_out",
            "message": "Only one side can go out in a deal; 2 are marked (Side 1, Side 2).",
        }
    ]


@pytest.mark.parametrize(
    ("change", "side", "field", "message"),
    [
        ({"variant": "canasta"}, None, "variant", "Unknown variant 'canasta'."),
        ({"deal": "1"}, None, "deal", "deal must be a whole number."),
        ({"deal": 1.5}, None, "deal", "deal must be a whole number."),
        ({"stock_ran_out": "no"}, None, "stock_ran_out", "stock_ran_out must be true or false."),
        ({"colour": "red"}, None, "colour", "Unknown field 'colour'."),
        ({"sides": []}, None, "sides", "sides must be a list of side entries."),
        ({"deal": 7}, None, "deal", "The deal must be a number from 1 to 4, not 7."),
    ],
)
def test_bad_requests_are_refused_with_the_field_named(client, change, side, field, message):
    response = post(client, {**DEAL, **change})
    assert response.status_code == 422
    assert {"side": side, "field": field, "message": message} in response.get_json()["errors"]


def test_bad_side_values_name_the_side(client):
    body = json.loads(json.dumps(DEAL))
    body["sides"][1]["meld_points"] = "600"
    body["sides"][1]["clean_books"] = -1
    body["sides"][0]["wings"] = 2
    errors = post(client, body).get_json()["errors"]
    assert {
        "side": 1,
        "field": "meld_points",
        "message": "meld_points must be a whole number.",
    } in errors
    assert {"side": 0, "field": "wings", "message": "Unknown field 'wings'."} in errors


def test_negative_numbers_are_refused(client):
    body = json.loads(json.dumps(DEAL))
    body["sides"][1]["clean_books"] = -1
    response = post(client, body)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["message"] == (
        "Side 2: clean books cannot be below 0 (entered -1)."
    )


@pytest.mark.parametrize("payload", [b"{not json", b"", b"[1, 2", b"\xff\xfe"])
def test_malformed_json_is_400_not_500(client, payload):
    response = client.post("/api/v1/score", data=payload, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"].startswith("The request body must be")


def test_a_json_array_is_422(client):
    response = post(client, [DEAL])
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["message"] == "The deal must be a JSON object."


def test_variants_lists_every_variant_with_its_parameters(client):
    data = client.get("/api/v1/variants").get_json()
    ids = [v["id"] for v in data["variants"]]
    assert ids == [v.id for v in all_variants()]
    simpson = next(v for v in data["variants"] if v["id"] == "simpson")
    assert simpson["book_bonus"] == {
        "clean": 300,
        "dirty": 100,
        "wild": None,
        "black_three": None,
        "special": None,
        "special_rank": None,
        "red_three": None,
        "lady": None,
    }
    assert simpson["red_three"] == {"down": None, "held": -500, "down_not_out": None}
    assert simpson["exact_22_bonus"] == 100
    assert simpson["first_meld"] == [50, 90, 120, 150]
    assert simpson["going_out"][0] == {"clean": 1, "dirty": 1, "wild": 0}
    saskatchewan = next(v for v in data["variants"] if v["id"] == "saskatchewan")
    assert "book_bonus" in saskatchewan["inferred"]
    assert "source" in saskatchewan


def test_the_command_line_prints_the_same_answer(tmp_path):
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score"],
        input=json.dumps(DEAL),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["sides"][0]["total"] == 4595
    bad = {**DEAL, "deal": 9}
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score"],
        input=json.dumps(bad),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["errors"][0]["field"] == "deal"
