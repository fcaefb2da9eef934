"""Names and numbers through every way in: the forms, the house-rules file and link, the game
import file and the JSON API apply one rule (``rules.names``) and refuse the same things, with
a message naming the field, on SQLite as on PostgreSQL (which cannot store a NUL byte, nor a
number above 2**31 - 1). What one way accepted, the others accept too: a game made through the
form exports and imports back the same."""

from __future__ import annotations

import base64
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import DEAL, save, start_game
from house_helpers import form_values, html, make_house_rules, text
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.store.games import Deal, Game, GameSide
from scorekeeper.store.house import HouseVariant

NEW_GAME = {
    "variant": "pagat",
    "table": "2x4",
    "name": "Friday",
    "start": "1",
    "side_names-0": "Us",
    "side_names-1": "Them",
}
REFUSED = ["nul\x00", "bell\x07", "escape\x1b", "rlo\u202e"]


def count(app: Flask, model: type) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


# --- the new-game form --------------------------------------------------------------------


@pytest.mark.parametrize("value", REFUSED)
@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("name", "The game name cannot hold control characters."),
        ("side_names-0", "Side names cannot hold control characters."),
    ],
)
def test_the_new_game_form_refuses_control_characters_naming_the_field(
    app: Flask, client: FlaskClient, field: str, message: str, value: str
) -> None:
    response = client.post("/games/new", data={**NEW_GAME, field: value})

    assert response.status_code == 422
    assert message in text(response)
    assert count(app, Game) == 0


def test_the_new_game_form_makes_whitespace_controls_spaces(
    app: Flask, client: FlaskClient
) -> None:
    start_game(app, client, name="\tFriday\tnight\r\n")

    with app.app_context():
        assert db.session.scalars(select(Game.name)).all() == ["Friday night"]


def test_a_game_named_with_tabs_and_newlines_exports_and_imports_back_the_same(
    app: Flask, client: FlaskClient
) -> None:
    links = start_game(
        app, client, "Club\tnight", **{"side_names-0": "Ann\nBob", "side_names-1": "Cy\t"}
    )
    assert save(client, links, 1, 0).status_code == 303
    exported = client.get(f"/api/v1/games/{links.edit}").get_json()
    assert exported["games"][0]["name"] == "Club night"
    assert exported["games"][0]["sides"] == ["Ann Bob", "Cy"]

    imported = client.post("/api/v1/games", json=exported)

    assert imported.status_code == 201, imported.get_json()
    edit_url = imported.get_json()["games"][0]["edit_url"]
    again = client.get("/api/v1/games/" + edit_url.rsplit("/", 1)[-1]).get_json()
    assert without_time(again) == without_time(exported)


def without_time(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "exported_at"}


# --- the deal form and the deleting buttons: numbers a database can hold ----------------------

VERSION_MESSAGE = "its version field must be a whole number from 0 to 2147483647"


@pytest.mark.parametrize("version", ["2147483648", "9" * 5000, "-1", "１"])
def test_a_deal_forms_version_out_of_range_is_refused_naming_the_field(
    app: Flask, client: FlaskClient, version: str
) -> None:
    links = start_game(app, client)

    response = client.post(f"{links.edit_path}/deals/1", data={**DEAL, "version": version})

    assert response.status_code == 400
    assert VERSION_MESSAGE in text(response)
    assert count(app, Deal) == 0


@pytest.mark.parametrize("suffix", ["/deals/1/delete", "/delete"])
def test_deleting_with_a_version_out_of_range_is_refused_naming_the_field(
    app: Flask, client: FlaskClient, suffix: str
) -> None:
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303

    response = client.post(links.edit_path + suffix, data={"version": str(2**31)})

    assert response.status_code == 400
    assert VERSION_MESSAGE in text(response)
    assert (count(app, Game), count(app, Deal)) == (1, 1)


@pytest.mark.parametrize(
    "field", ["sides-0-meld_points", "sides-1-cards_left_points", "sides-0-meld_joker"]
)
def test_a_deal_forms_numbers_out_of_range_are_refused_naming_the_field(
    app: Flask, client: FlaskClient, field: str
) -> None:
    links = start_game(app, client)

    response = save(client, links, 1, 0, **{field: str(2**31)})

    assert response.status_code == 422
    assert f'id="{field}" ' in html(response) and 'aria-invalid="true"' in html(response)
    assert count(app, Deal) == 0


# --- house rules: the form, a file, a link ----------------------------------------------------


@pytest.mark.parametrize("field", ["name", "summary"])
@pytest.mark.parametrize("value", REFUSED)
def test_the_house_rules_form_refuses_control_characters_naming_the_field(
    app: Flask, client: FlaskClient, field: str, value: str
) -> None:
    values = {**form_values(html(client.get("/house/new?base=pagat"))), "name": "Ours"}

    response = client.post("/house/new", data={**values, field: value})

    assert response.status_code == 422
    assert f"The {field} cannot hold control characters." in text(response)
    assert count(app, HouseVariant) == 0


def test_house_rules_typed_with_tabs_and_newlines_keep_spaces(
    app: Flask, client: FlaskClient
) -> None:
    slug = make_house_rules(client, name="Our\ttable", summary="Two\nlines")

    exported = client.get(f"/house/{slug}/export").get_json()

    assert (exported["name"], exported["summary"]) == ("Our table", "Two lines")


def shared_rules(**changes: object) -> dict:
    return {"name": "Ours", "based_on": "pagat", "changes": {}, **changes}


def link_token(document: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")


HOSTILE_RULES = [
    (shared_rules(name="Ours\x00"), "The name cannot hold control characters."),
    (shared_rules(summary="nul\x00"), "The summary cannot hold control characters."),
    (shared_rules(summary="half \ud800"), "The summary cannot hold control characters."),
    (shared_rules(changes={"going_out_bonus": 2**31}), "must be from"),
]


@pytest.mark.parametrize(("document", "message"), HOSTILE_RULES)
def test_a_house_rules_file_is_refused_naming_the_field(
    app: Flask, client: FlaskClient, document: dict, message: str
) -> None:
    response = client.post("/house/import", data={"text": json.dumps(document)})

    assert response.status_code == 422
    assert message in text(response)
    assert count(app, HouseVariant) == 0


@pytest.mark.parametrize(("document", "message"), HOSTILE_RULES)
def test_a_house_rules_link_is_refused_naming_the_field(
    app: Flask, client: FlaskClient, document: dict, message: str
) -> None:
    token = link_token(document)

    shown = client.get("/house/shared", query_string={"rules": token})
    saved = client.post("/house/shared", data={"rules": token, "save": "1"})

    assert (shown.status_code, saved.status_code) == (400, 400)
    assert message in text(shown) and message in text(saved)
    assert count(app, HouseVariant) == 0


def test_a_house_rules_file_with_tabs_is_taken_as_the_form_takes_it(
    app: Flask, client: FlaskClient
) -> None:
    document = shared_rules(name="Our\ttable", summary="Two\nlines")

    response = client.post("/house/import", data={"text": json.dumps(document)})

    assert response.status_code == 303
    assert response.headers["Location"] == "/house/our-table"
    exported = client.get("/house/our-table/export").get_json()
    assert (exported["name"], exported["summary"]) == ("Our table", "Two lines")


# --- the JSON API -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ({"name": "x\x00", "based_on": "pagat", "changes": {}}, "variant.name"),
        ({"name": "x", "based_on": "pagat", "changes": {}, "summary": "\x00"}, "variant.summary"),
        ("house-a\x00b", "variant"),
    ],
)
def test_the_score_api_refuses_control_characters_naming_the_field(
    client: FlaskClient, variant: object, field: str
) -> None:
    body = {"variant": variant, "deal": 1, "sides": [{"meld_points": 50}, {"meld_points": 0}]}

    response = client.post("/api/v1/score", json=body)

    assert response.status_code == 422
    assert field in [error["field"] for error in response.get_json()["errors"]]


def test_the_score_api_refuses_numbers_out_of_range_naming_the_field(client: FlaskClient):
    body = {"variant": "pagat", "deal": 1, "sides": [{"meld_points": 2**31}, {"meld_points": 0}]}

    response = client.post("/api/v1/score", json=body)

    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [(error["side"], error["field"]) for error in errors] == [(0, "meld_points")]


def test_the_games_import_refuses_a_nul_byte_naming_the_field(
    app: Flask, client: FlaskClient
) -> None:
    links = start_game(app, client)
    exported = client.get(f"/api/v1/games/{links.edit}").get_json()
    exported["games"][0]["sides"][1] = "Them\x00"

    response = client.post("/api/v1/games", json=exported)

    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": None,
            "field": None,
            "message": "game 1, side 2: must not hold control characters.",
        }
    ]
    assert (count(app, Game), count(app, GameSide)) == (1, 2)
