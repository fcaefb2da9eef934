"""A first meld that lays down the whole hand with no minimum (jcj59's "Marva rule") through
the house-rules editor, the export, the rules page, the score API and the OpenAPI document."""

from flask.testing import FlaskClient
from house_helpers import html, make_house_rules, text

RULE = "first_meld_waived_to_empty_hand"
WORDS = "a first meld that lays down every card left in your hand"


def test_the_editor_saves_the_rule_and_the_rules_page_says_it(client: FlaskClient) -> None:
    assert f'name="{RULE}"' in html(client.get("/house/new?base=pagat"))

    slug = make_house_rules(client, base="pagat", name="Marva", **{RULE: True})

    assert client.get(f"/house/{slug}/export").get_json()["changes"] == {RULE: True}
    assert WORDS in text(client.get(f"/rules/house-{slug}"))
    assert WORDS not in text(client.get("/rules/pagat"))


def test_the_score_api_takes_a_short_first_meld_only_under_the_rule(client: FlaskClient) -> None:
    sides = [
        {
            "meld_points": 960,
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "cards_left_points": 15,
            "went_out": True,
        },
        {"meld_points": 75, "cards_left_points": 160},
    ]

    def score(changes: dict[str, object]):
        variant = {"name": "Marva", "based_on": "pagat", "changes": changes}
        body = {"variant": variant, "deal": 2, "players": 4, "sides": sides}
        return client.post("/api/v1/score", json=body)

    refused = score({})
    accepted = score({RULE: True})

    assert refused.status_code == 422
    assert "below the first meld of deal 2" in refused.get_data(as_text=True)
    assert accepted.status_code == 200, accepted.get_data(as_text=True)
    # 960 + 2 x 500 + 2 x 300 + 1500 + 100 - 15 = 4145; 75 - 160 = -85
    assert [side["total"] for side in accepted.get_json()["sides"]] == [4145, -85]


def test_the_openapi_document_describes_the_rule(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_data(as_text=True)

    assert f'"{RULE}"' in document
