"""Odd input that once reached the database or a dict unchecked: a whole variant without
``deals``, and ids, deal numbers and versions beyond what a row can hold. Each is answered
with a page or a message, never a 500, and changes nothing."""

from __future__ import annotations

import base64
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, save, start_game
from sqlalchemy import select
from test_api import DEAL

from scorekeeper.extensions import db
from scorekeeper.rules.variants import get_variant
from scorekeeper.store.games import Deal, Game
from scorekeeper.store.players import Player

MAX_ID = 2**31 - 1
"""The largest id, deal number or version: the columns are 32-bit integers."""
BEYOND = [MAX_ID + 1, 2**63, 2**64 + 1]
"""Past PostgreSQL's integers, then past SQLite's."""


def whole_variant_without_deals() -> dict[str, object]:
    """Pagat's rules as ``GET /api/v1/variants`` lists them, less ``deals``, which
    ``first_meld`` says already."""
    rules = get_variant("pagat").to_dict()
    del rules["deals"]
    return rules


# --- a whole variant without deals ---------------------------------------------------------


def test_the_score_api_reads_a_whole_variant_without_deals(client: FlaskClient):
    response = client.post("/api/v1/score", json={**DEAL, "variant": whole_variant_without_deals()})

    assert response.status_code == 200, response.get_json()
    standard = client.post("/api/v1/score", json=DEAL).get_json()
    assert response.get_json()["sides"] == standard["sides"]


def test_the_meld_checker_api_reads_a_whole_variant_without_deals(client: FlaskClient):
    body = {
        "variant": whole_variant_without_deals(),
        "deal": 1,
        "rank": "K",
        "naturals": 4,
        "twos": 1,
    }

    response = client.post("/api/v1/check-meld", json=body)

    assert response.status_code == 200, response.get_json()
    assert response.get_json()["legal"] is True


def test_house_rules_import_and_share_links_read_a_whole_variant_without_deals(
    client: FlaskClient,
):
    rules = {**whole_variant_without_deals(), "id": "house-no-deals", "name": "No deals"}
    text = json.dumps(rules)

    imported = client.post("/house/import", data={"text": text})
    token = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    shared = client.get(f"/house/shared?rules={token}")

    assert imported.status_code == 303
    assert imported.headers["Location"] == "/house/no-deals"
    assert shared.status_code == 200
    assert "No deals" in shared.get_data(as_text=True)


def test_a_whole_variant_whose_deals_disagree_with_first_meld_is_refused(client: FlaskClient):
    rules = {**whole_variant_without_deals(), "deals": 3}

    response = client.post("/api/v1/score", json={**DEAL, "variant": rules})

    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "side": None,
            "field": "variant.deals",
            "message": "Deals in a game must be the number of values in first_meld (4).",
        }
    ]


# --- numbers beyond a row ------------------------------------------------------------------


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> tuple[str, dict[str, int]]:
    """A table's edit token, and its players' ids by name, after one game of four."""
    data = {"variant": "pagat", "table": "2x4", "start": "1"}
    for index, name in zip((0, 1, 3, 4), ("Ann", "Bob", "Cy", "Dee"), strict=True):
        data[f"player_names-{index}"] = name
    assert client.post("/games/new", data=data).status_code == 303
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'href="/t/([A-Za-z0-9_-]+)"', page).group(1)
    with app.app_context():
        ids = {name: id_ for id_, name in db.session.execute(select(Player.id, Player.name))}
    return token, ids


def names(app: Flask) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(select(Player.name)))


@pytest.mark.parametrize("beyond", BEYOND)
def test_renaming_a_player_beyond_every_id_is_not_found(app, client, table, beyond):
    token, _ids = table

    response = client.post(f"/t/{token}/players/{beyond}/name", data={"name": "Zed"})

    assert response.status_code == 404
    assert names(app) == ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("beyond", [*BEYOND, -1, "1e3", "٣"])
def test_merging_a_player_beyond_every_id_names_the_field(app, client, table, beyond):
    token, ids = table

    for typo, kept in ((beyond, ids["Ann"]), (ids["Ann"], beyond)):
        response = client.post(
            f"/t/{token}/players/merge",
            data={"typo": str(typo), "kept": str(kept)},
            follow_redirects=True,
        )
        assert response.status_code == 200
        assert "Merge: Choose two different players of this table." in response.get_data(
            as_text=True
        )
    assert names(app) == ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("beyond", BEYOND)
def test_playing_again_a_game_beyond_every_id_is_not_found(app, client, table, beyond):
    token, _ids = table

    assert client.post(f"/t/{token}/again/{beyond}").status_code == 404
    with app.app_context():
        assert len(db.session.scalars(select(Game.id)).all()) == 1


@pytest.mark.parametrize("beyond", BEYOND)
def test_deleting_a_deal_beyond_every_number_is_not_found(app, client, beyond):
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303

    response = client.post(f"{links.edit_path}/deals/{beyond}/delete", data={"version": "1"})

    assert response.status_code == 404
    assert deal_count(app, links) == 1


@pytest.mark.parametrize("beyond", BEYOND)
def test_a_version_beyond_every_version_is_a_bad_request(app, client, beyond):
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303

    delete = client.post(f"{links.edit_path}/deals/1/delete", data={"version": str(beyond)})
    edit = save(client, links, 1, beyond)

    assert (delete.status_code, edit.status_code) == (400, 400)
    assert deal_count(app, links) == 1


def test_an_edit_at_the_largest_version_is_a_conflict_not_an_overflow(app, client):
    """The largest version a form may carry: the deal is at another one, so 409; the save
    never computes a version past the largest (PostgreSQL would refuse it)."""
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303

    response = save(client, links, 1, MAX_ID, **{"sides-1-cards_left_points": "240"})

    assert response.status_code == 409
    with app.app_context():
        deal = db.session.scalars(select(Deal).where(Deal.game_id == links.game_id)).one()
        assert (deal.version, deal.sides[1].cards_left_points) == (1, 120)


def deal_count(app: Flask, links: Links) -> int:
    with app.app_context():
        return len(db.session.scalars(select(Deal.id).where(Deal.game_id == links.game_id)).all())
