"""Every rule parameter of the spec reaches each page and document derived from it."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from house_helpers import form_values, html, make_house_rules, text

from scorekeeper.extensions import db
from scorekeeper.handbook.params import params
from scorekeeper.house.forms import field_name
from scorekeeper.rules.params import PARAMS
from scorekeeper.rules.variants import PAGAT
from scorekeeper.store.house import HouseVariant


def _row_id(key: str) -> str:
    return "param-" + key.replace(".", "-").replace("_", "-")


@pytest.mark.no_database
def test_every_parameter_is_described_in_the_openapi_document(client: FlaskClient) -> None:
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    house_form, whole = schemas["DealEntry"]["properties"]["variant"]["oneOf"][1:]
    changes = house_form["properties"]["changes"]["properties"]

    assert set(changes) == {param.key for param in PARAMS}
    for param in PARAMS:
        assert changes[param.key]["description"] == param.description(), param.key
    assert changes["red_three.down_not_out"]["description"] == (
        "Each red three laid down by a side that did not go out. Empty: the same as for a "
        "side that went out."
    )
    for name, schema in whole["properties"].items():
        assert schema.get("description"), name
    assert "first_discard_buried" not in whole["required"]
    assert whole["properties"]["first_discard_buried"]["items"]["enum"][0] == "joker"


@pytest.mark.no_database
def test_the_house_form_has_a_field_for_every_parameter_and_hides_deals_past_the_last(
    client: FlaskClient,
) -> None:
    page = html(client.get("/house/new?base=pagat"))

    for param in PARAMS:
        tag = re.search(rf'<div [^>]*id="p-{field_name(param.key)}"[^>]*>', page)
        assert tag, param.key
        assert ("hidden" in tag.group()) == ((param.deal or 0) > PAGAT.deals), param.key
    assert 'data-deals="4" data-max-deals="12"' in page


@pytest.mark.no_database
def test_the_comparison_has_a_row_for_every_parameter(client: FlaskClient) -> None:
    page = html(client.get("/rules/compare"))
    rows = {row.key for row in params()}

    for param in PARAMS:
        row = next(key for key in (param.key, param.field) if key in rows)
        assert f'id="{_row_id(row)}"' in page, param.key
    deck = re.search(r'<tr id="param-deck">.*?</tr>', page, re.S).group()
    assert "standard decks of 54 cards" in deck


@pytest.mark.no_database
def test_no_row_of_the_comparison_is_labelled_twice(client: FlaskClient) -> None:
    page = html(client.get("/rules/compare"))
    labels = re.findall(r'<tr id="param-[a-z0-9-]+">\s*<th scope="row">(?:<a [^>]*>)?([^<]+)', page)

    assert len(labels) == len(list(params()))
    assert len(labels) == len(set(labels))


@pytest.mark.no_database
def test_more_deals_on_the_form_read_the_added_deals_without_a_save(client: FlaskClient) -> None:
    values = form_values(html(client.get("/house/new?base=pagat")))
    values["deals"] = "5"
    values["first_meld__5"] = "200"
    values["first_meld__6"] = "999"  # past the fifth deal: not read

    response = client.post("/house/changes?base=pagat", data=values)

    rows = re.findall(
        r"<tr><th scope=\"row\">(.*?)</th><td class=\"was\">(.*?)</td>"
        r"<td class=\"now\">(.*?)</td></tr>",
        html(response),
    )
    assert rows == [
        ("Deals in a game", "4", "5"),
        ("Minimum first meld, deal 5", "150", "200"),
    ]


def test_rules_of_five_deals_and_first_melds_by_score_are_saved_from_rows(
    app, client: FlaskClient
) -> None:
    slug = make_house_rules(
        client,
        name="Five deals",
        deals=5,
        first_meld__5=200,
        by_score__from__0=0,
        by_score__minimum__0=50,
        by_score__from__1=1500,
        by_score__minimum__1=90,
    )

    with app.app_context():
        row = db.session.scalars(db.select(HouseVariant).filter_by(slug=slug)).one()
        assert dict(row.changes) == {
            "deals": 5,
            "first_meld.5": 200,
            "first_meld_by_score": [
                {"from_score": 0, "minimum": 50},
                {"from_score": 1500, "minimum": 90},
            ],
        }
    page = html(client.get(f"/house/{slug}/edit"))
    assert 'name="by_score__from__1" value="1500"' in page
    # The rows filled, and one more to fill; the rest wait for the script.
    assert len(re.findall(r'<div class="score-row">', page)) == 3


@pytest.mark.parametrize(
    ("score", "minimum", "message"),
    [
        ("1500", "", "Fill in both the running score and its first meld, or neither."),
        ("abc", "90", "Enter a whole number, like 500 or -100."),
    ],
)
def test_a_half_filled_running_score_row_is_refused_on_its_field(
    client: FlaskClient, score: str, minimum: str, message: str
) -> None:
    values = form_values(html(client.get("/house/new?base=pagat")))
    values.update(name="Half", by_score__from__0=score, by_score__minimum__0=minimum)

    response = client.post("/house/new", data=values)

    assert response.status_code == 422
    assert message in text(response)


@pytest.mark.no_database
def test_engine_choices_are_house_rules_too(client: FlaskClient) -> None:
    values = form_values(html(client.get("/house/new?base=pagat")))
    values.pop("first_discard_turned")
    values.pop("card_kind__two")

    response = client.post("/house/changes?base=pagat", data=values)

    rows = re.findall(
        r"<tr><th scope=\"row\">(.*?)</th><td class=\"was\">(.*?)</td>"
        r"<td class=\"now\">(.*?)</td></tr>",
        html(response),
    )
    assert rows == [
        ("A card from the stock starts the discard pile", "yes", "no"),
        ("Buried if turned up to start the pile", "jokers, red threes, twos", "jokers, red threes"),
    ]


def test_more_deals_than_a_game_may_have_are_refused_by_name(client: FlaskClient) -> None:
    values = form_values(html(client.get("/house/new?base=pagat")))
    values.update(name="Too long", deals="13")

    response = client.post("/house/new", data=values)

    assert response.status_code == 422
    assert "Deals in a game must be from 1 to 12 (entered 13)." in text(response)
    # The form keeps the game's four deals on show until the number is one a game can have.
    assert 'data-deals="4"' in html(response)


@pytest.mark.no_database
def test_an_empty_optional_rule_is_worded_by_the_spec(client: FlaskClient) -> None:
    page = text(client.get("/house/new?base=simpson"))

    assert "Wild book bonus Base: not allowed" in page
    assert "Each red three laid down Base: never laid down" in page
    assert (
        "Each red three laid down by a side that did not go out Base: as for a side that went out"
    ) in page


def test_the_going_out_bonus_of_every_deal_keeps_a_deal_given_its_own(
    app, client: FlaskClient
) -> None:
    slug = make_house_rules(
        client, name="Bonus by deal", going_out_bonus=300, going_out_bonus__2=200
    )

    with app.app_context():
        row = db.session.scalars(db.select(HouseVariant).filter_by(slug=slug)).one()
        assert dict(row.changes) == {"going_out_bonus": 300, "going_out_bonus.2": 200}
    page = html(client.get(f"/house/{slug}/edit"))
    assert 'name="going_out_bonus__2" value="200"' in page
    assert 'name="going_out_bonus__3" value="300"' in page
    assert 'data-every-deal id="going_out_bonus"' in page


def test_the_comparison_marks_only_what_a_reader_sees_differ(client: FlaskClient) -> None:
    make_house_rules(client, name="Five deals", deals=5)

    page = html(client.get("/rules/compare?v=pagat&v=house-five-deals"))

    rows = dict(re.findall(r'<tr id="param-([a-z-]+)">(.*?)</tr>', page, flags=re.DOTALL))
    assert 'class="differs"' in rows["deals"]
    assert 'class="differs"' not in rows["going-out-bonus"]
    assert 'class="differs"' not in rows["going-out"]


@pytest.mark.no_database
def test_the_comparison_words_every_choice(client: FlaskClient) -> None:
    page = text(client.get("/rules/compare?v=pagat&v=simpson&v=saskatchewan"))

    assert "one unfinished meld of a rank at a time" in page
    assert "never two melds of one rank" in page
    assert "one-unfinished" not in page and "instead_of_points" not in page
