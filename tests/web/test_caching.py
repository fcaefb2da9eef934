"""Cache-Control and Vary: nothing opened with an edit link is stored, pages without caching of
their own are not stored, the answers with their own caching keep it, and an answer in the
language chosen for the request says what it varies with."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, save, start_game

from scorekeeper.live.poll_front import POLL_CACHE_CONTROL
from scorekeeper.qr import QR_CACHE_CONTROL

EDIT_LINK_ADDRESSES = [
    "",
    "/deals/1",
    "/delete",
    "/sheet",
    "/sheet.html",
    "/sheet.pdf",
    "/export.json",
    "/qr.svg",
]


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> Links:
    links = start_game(app, client)
    assert save(client, links, 1, 0).status_code == 303
    return links


def vary(response) -> set[str]:
    return {value.strip().lower() for value in response.headers.get("Vary", "").split(",") if value}


@pytest.mark.parametrize("suffix", EDIT_LINK_ADDRESSES)
def test_nothing_opened_with_the_edit_link_is_stored(client, game, suffix):
    response = client.get(game.edit_path + suffix)

    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


def test_a_refused_save_with_the_edit_link_is_not_stored_either(client, game):
    # an old version and other numbers: the conflict page
    response = save(client, game, 1, 0, **{"sides-1-cards_left_points": "205"})

    assert response.status_code == 409
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/", "/games/new", "/games/import", "/house/", "/rules/"])
def test_pages_without_caching_of_their_own_are_not_stored(client, game, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


def test_the_list_of_games_that_links_to_edit_links_is_not_stored(client, game):
    response = client.get("/")

    assert game.edit in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"


def test_the_apis_answer_with_an_edit_link_is_not_stored(client, game):
    document = client.get(f"/api/v1/games/{game.edit}").get_json()

    response = client.post("/api/v1/games", json=document)

    assert response.status_code == 201
    assert "edit_url" in response.get_json()["games"][0]
    assert response.headers["Cache-Control"] == "no-store"


def test_the_view_links_scoreboard_keeps_its_revalidation(app, game):
    watcher = app.test_client()

    first = watcher.get(game.view_path)
    again = watcher.get(game.view_path, headers={"If-None-Match": first.headers["ETag"]})

    assert set(first.headers["Cache-Control"].split(", ")) == {"private", "no-cache"}
    assert again.status_code == 304


def test_the_poll_and_the_view_links_qr_code_keep_their_caching(app, game):
    watcher = app.test_client()

    polls = [watcher.get(f"{game.view_path}/version") for _ in range(2)]  # the app, then memory
    qr = watcher.get(f"{game.view_path}/qr.svg")

    assert [poll.headers["Cache-Control"] for poll in polls] == [POLL_CACHE_CONTROL] * 2
    assert qr.headers["Cache-Control"] == QR_CACHE_CONTROL
    assert not vary(qr) & {"accept-language"}
    assert not any(vary(poll) & {"accept-language"} for poll in polls)


def test_static_files_keep_their_own_caching(client):
    with client.get("/static/css/app.css") as response:
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-cache"
        assert "accept-language" not in vary(response)


@pytest.mark.parametrize("path", ["/", "/rules/", "/no-such-page"])
def test_a_page_in_the_browsers_language_varies_with_it_and_the_language_cookie(client, path):
    french = client.get(path, headers={"Accept-Language": "fr"})
    german = client.get(path, headers={"Accept-Language": "de"})

    assert french.get_data() != german.get_data()
    assert {"accept-language", "cookie"} <= vary(french)
    assert {"accept-language", "cookie"} <= vary(german)


def test_the_view_links_scoreboard_varies_with_the_language(app, game):
    watcher = app.test_client()

    response = watcher.get(game.view_path, headers={"Accept-Language": "it"})

    assert response.status_code == 200
    assert {"accept-language", "cookie"} <= vary(response)
