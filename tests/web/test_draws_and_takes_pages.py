"""Draws and discard-pile pickups that change from deal to deal, and going out only by
melding the last card, through the pages: the house-rules editor saves them, the export gives
them, and the rules page and its quick reference say them."""

from flask.testing import FlaskClient
from house_helpers import form_values, html, make_house_rules, text

VEGAS = {
    **{f"draw_count_by_deal__{deal}": count for deal, count in enumerate((3, 3, 4, 5), start=1)},
    **{f"pile_take_by_deal__{deal}": count for deal, count in enumerate((3, 3, 4, 5), start=1)},
}


def test_the_editor_saves_draws_and_takes_by_deal_and_the_rules_page_says_them(
    client: FlaskClient,
) -> None:
    slug = make_house_rules(client, base="pagat", name="Vegas draws", **VEGAS)

    exported = client.get(f"/house/{slug}/export").get_json()
    rules = text(client.get(f"/rules/house-{slug}"))

    assert exported["changes"] == {
        "draw_count_by_deal": [3, 3, 4, 5],
        "pile_take_by_deal": [3, 3, 4, 5],
    }
    assert "Draw cards from the stock, as many as the deal says (3 / 3 / 4 / 5, deal 1 first)" in (
        rules
    )
    assert "in each deal you take its top 3 / 3 / 4 / 5 cards (deal 1 first)" in rules
    assert "the top 3 / 3 / 4 / 5 cards (deal 1 first)" in rules


def test_pagats_rules_page_keeps_two_cards_and_seven(client: FlaskClient) -> None:
    rules = text(client.get("/rules/pagat"))

    assert "Draw 2 cards from the stock, or take the discard pile instead" in rules
    assert "you take its top 7 cards, or the whole pile if it holds fewer." in rules
    assert "as many as the deal says" not in rules and "(deal 1 first)" not in rules


def test_the_editor_refuses_a_draw_of_too_many_cards_naming_the_field(
    client: FlaskClient,
) -> None:
    page = html(client.get("/house/new?base=pagat"))
    assert 'name="draw_count_by_deal__1"' in page and 'name="pile_take_by_deal__1"' in page

    values = form_values(page) | {"name": "Greedy", **{k: str(v) for k, v in VEGAS.items()}}
    values["draw_count_by_deal__4"] = "11"
    response = client.post("/house/new", data=values)

    assert response.status_code == 422
    assert (
        "Cards drawn from the stock each turn, deal by deal must be a list of at most 12 whole "
        "numbers from 1 to 10, one for each deal, or an empty list."
    ) in text(response)


def test_the_editor_saves_going_out_by_melding_and_the_rules_page_says_it(
    client: FlaskClient,
) -> None:
    assert 'name="going_out_by_melding_only"' in html(client.get("/house/new?base=pagat"))

    slug = make_house_rules(client, base="pagat", name="Meld out", going_out_by_melding_only=True)
    rules = text(client.get(f"/rules/house-{slug}"))

    assert client.get(f"/house/{slug}/export").get_json()["changes"] == {
        "going_out_by_melding_only": True
    }
    assert "You go out by melding your last card: a discard never takes you out" in rules
    assert "must be melded" in rules
    assert "You go out by melding your last card" not in text(client.get("/rules/pagat"))
