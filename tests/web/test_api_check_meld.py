"""POST /api/v1/check-meld: is this meld legal, what kind, what points."""

import pytest

# No test here sends a statement to a database (tests/database_use.py): not run on PostgreSQL.
pytestmark = pytest.mark.no_database


def check(client, **body):
    return client.post("/api/v1/check-meld", json=body)


def test_a_dirty_meld_of_kings_is_legal_and_counted(client):
    data = check(client, variant="pagat", deal=1, rank="K", naturals=4, twos=1).get_json()
    assert data["legal"] is True and data["reasons"] == []
    assert (data["kind"], data["size"], data["points"]) == ("dirty", 5, 4 * 10 + 20)
    assert data["first_meld_minimum"] == 50 and data["meets_first_meld"] is True


def test_too_many_wilds_is_refused_with_the_rule_in_words(client):
    data = check(client, variant="pagat", deal=2, rank="9", naturals=3, twos=1, jokers=1).get_json()
    assert data["legal"] is False
    assert data["rules"] == ["too-many-wilds"]
    assert "twice as many natural cards as wild cards" in data["reasons"][0]


def test_a_first_meld_short_of_the_deal_minimum_says_so(client):
    data = check(
        client, variant="simpson", deal=4, rank="5", naturals=3, first_meld=True
    ).get_json()
    assert data["legal"] is False and data["points"] == 15
    assert data["meets_first_meld"] is False and data["first_meld_minimum"] == 150


def test_wild_books_only_where_the_variant_has_them(client):
    assert (
        check(client, variant="pagat", deal=1, rank=None, twos=4, jokers=3).get_json()["kind"]
        == "wild"
    )
    simpson = check(client, variant="simpson", deal=1, rank=None, twos=7).get_json()
    assert simpson["legal"] is False and simpson["rules"] == ["no-wild-melds"]


def test_a_clean_book_of_black_threes_in_brouillette(client):
    data = check(client, variant="brouillette-low", deal=1, rank="3", naturals=7).get_json()
    assert (data["legal"], data["kind"], data["is_book"], data["points"]) == (
        True,
        "black-three",
        True,
        -35,
    )


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        (
            {"variant": "nope", "deal": 1, "rank": "K", "naturals": 3},
            "variant",
            "Unknown variant 'nope'.",
        ),
        (
            {"variant": "pagat", "deal": 0, "rank": "K", "naturals": 3},
            "deal",
            "The deal must be a number from 1 to 4, not 0.",
        ),
        (
            {"variant": "pagat", "deal": 1, "rank": "Z", "naturals": 3},
            "rank",
            "rank must be one of A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, "
            "or null for an all-wild meld.",
        ),
        (
            {"variant": "pagat", "deal": 1, "rank": "K", "naturals": "3"},
            "naturals",
            "naturals must be a whole number.",
        ),
        (
            {"variant": "pagat", "deal": 1, "rank": "K", "naturals": -2},
            "naturals",
            "naturals must be between 0 and 100.",
        ),
        (
            {"variant": "pagat", "deal": 1, "rank": "K", "first_meld": "yes"},
            "first_meld",
            "first_meld must be true or false.",
        ),
        ({"variant": "pagat", "deal": 1, "suit": "hearts"}, "suit", "Unknown field 'suit'."),
    ],
)
def test_bad_requests_name_the_field(client, body, field, message):
    response = client.post("/api/v1/check-meld", json=body)
    assert response.status_code == 422
    assert {"side": None, "field": field, "message": message} in response.get_json()["errors"]


def test_not_json_is_400(client):
    response = client.post("/api/v1/check-meld", data=b"{", content_type="application/json")
    assert response.status_code == 400
