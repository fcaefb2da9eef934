"""The two limits on dirty melds (the most wild cards a meld may hold, and a dirty book
closed at seven where clean books grow) through the house-rules editor, the export, the rules
page, the comparison and the OpenAPI document."""

from flask.testing import FlaskClient
from house_helpers import form_values, html, make_house_rules, text

VEGAS_MELDS = {
    "max_meld_size": "none",
    "wild_limit__per_wild": 1,
    "wild_limit__extra": 1,
    "wild_limit__most": 3,
}
ROTH_MELDS = {**VEGAS_MELDS, "wild_limit__most": "none", "max_dirty_meld_size": 7}


def test_the_editor_saves_the_most_wild_cards_and_the_rules_page_says_it(
    client: FlaskClient,
) -> None:
    assert 'name="wild_limit__most"' in html(client.get("/house/new?base=pagat"))

    slug = make_house_rules(client, base="pagat", name="Vegas", **VEGAS_MELDS)

    changes = client.get(f"/house/{slug}/export").get_json()["changes"]
    rules = text(client.get(f"/rules/house-{slug}"))

    assert changes == {
        "max_meld_size": None,
        "wild_limit.per_wild": 1,
        "wild_limit.extra": 1,
        "wild_limit.most": 3,
    }
    assert "A dirty meld holds at most 3 wild cards, however many natural cards it has." in rules
    assert "A dirty meld holds at most" not in text(client.get("/rules/pagat"))


def test_the_editor_saves_a_dirty_book_closed_at_seven_and_the_rules_page_says_it(
    client: FlaskClient,
) -> None:
    slug = make_house_rules(client, base="pagat", name="Roth", **ROTH_MELDS)

    changes = client.get(f"/house/{slug}/export").get_json()["changes"]
    rules = text(client.get(f"/rules/house-{slug}"))

    assert changes["max_dirty_meld_size"] == 7 and "wild_limit.most" not in changes
    assert (
        "A clean meld has no upper size: cards of its rank may still be added after it has "
        "become a book. A meld with a wild card stops at 7 cards: a dirty book is closed."
    ) in rules
    assert "Largest meld with a wild card" in rules


def test_the_editor_refuses_a_cap_it_does_not_offer_naming_the_field(
    client: FlaskClient,
) -> None:
    values = form_values(html(client.get("/house/new?base=pagat")))
    values |= {"name": "Odd", "wild_limit__most": "9", "max_dirty_meld_size": "8"}

    response = client.post("/house/new", data=values)
    said = text(response)

    assert response.status_code == 422
    assert "Most wild cards in a dirty meld" in said
    assert "Largest meld with a wild card" in said
    assert client.get("/house/").status_code == 200
    assert "Odd" not in text(client.get("/house/"))


def test_the_comparison_and_the_openapi_document_name_both_limits(client: FlaskClient) -> None:
    slug = make_house_rules(client, base="pagat", name="Vegas", **VEGAS_MELDS)
    document = client.get("/api/v1/openapi.json").get_data(as_text=True)
    compared = text(client.get(f"/rules/compare?v=pagat&v=house-{slug}"))

    assert '"wild_limit.most"' in document and '"max_dirty_meld_size"' in document
    assert "natural cards ≥ wild cards + 1; at most 3 in a book of 7, and 3 in any meld" in compared
