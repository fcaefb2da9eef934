"""Links come from the configured public address, never from the request's Host header.

A request may name any host (``Host: evil.example``); the share links, their QR codes, the
API's URLs and the redirects must still point at the app's own address.
"""

from __future__ import annotations

import re

import pytest
from flask import url_for
from game_helpers import start_game

from scorekeeper import create_app
from scorekeeper.public_url import DEFAULT_PUBLIC_URL, parse_public_url
from scorekeeper.qr import qr_svg

EVIL = "http://evil.example"
TEST_PUBLIC_URL = "http://localhost"
"""The test apps' public address (tests/conftest.py): the test client's own host."""


def _import_copy(client, token: str, base_url: str):
    """Export the game of ``token`` and import it again through the API."""
    document = client.get(f"/api/v1/games/{token}").get_json()
    return client.post("/api/v1/games", json=document, base_url=base_url)


def _links_in(page: str) -> list[str]:
    return re.findall(r"https?://[^\"'<\s]+", page)


def test_the_share_panel_ignores_the_host_header(app, client):
    game = start_game(app, client)

    page = client.get(game.edit_path, base_url=EVIL).get_data(as_text=True)

    assert "evil.example" not in page
    assert f"{TEST_PUBLIC_URL}/g/{game.view}" in page
    assert f"{TEST_PUBLIC_URL}/g/{game.edit}" in page


@pytest.mark.parametrize("link", ["view", "edit"])
def test_a_qr_code_encodes_the_public_address_whatever_the_host(app, client, link):
    game = start_game(app, client)
    token = getattr(game, link)

    response = client.get(f"/g/{token}/qr.svg", base_url=EVIL)

    assert response.status_code == 200
    assert response.get_data() == qr_svg(f"{TEST_PUBLIC_URL}/g/{token}")


def test_the_api_answers_with_urls_of_the_public_address(app, client):
    game = start_game(app, client)

    response = _import_copy(client, game.edit, EVIL)

    assert response.status_code == 201
    (made,) = response.get_json()["games"]
    assert made["edit_url"].startswith(f"{TEST_PUBLIC_URL}/g/")
    assert made["view_url"].startswith(f"{TEST_PUBLIC_URL}/g/")
    assert "evil.example" not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/house", "get"),  # the URL map's own redirect: a missing trailing slash
        ("/games/new", "post"),
    ],
)
def test_no_redirect_names_the_requests_host(client, path, method):
    data = {"variant": "pagat", "table": "2x4", "name": "x", "start": "1"}
    response = getattr(client, method)(path, base_url=EVIL, data=data)

    assert response.status_code in (303, 308)
    assert "evil.example" not in response.headers["Location"]


def test_the_map_redirect_goes_to_the_public_address(client):
    response = client.get("/house", base_url=EVIL)

    assert response.status_code == 308
    assert response.headers["Location"] == f"{TEST_PUBLIC_URL}/house/"


@pytest.fixture
def public_app(app):
    app.config["PUBLIC_URL"] = "https://scores.example:8443"
    return app


def test_the_test_apps_public_address(app):
    assert app.config["PUBLIC_URL"] == TEST_PUBLIC_URL


def test_with_a_public_url_set_every_link_uses_it(public_app):
    client = public_app.test_client()
    game = start_game(public_app, client)
    public = "https://scores.example:8443"

    page = client.get(game.edit_path).get_data(as_text=True)
    qr = client.get(f"/g/{game.edit}/qr.svg").get_data()
    made = _import_copy(client, game.edit, "http://localhost").get_json()["games"][0]

    game_links = [url for url in _links_in(page) if "/g/" in url]
    assert {f"{public}/g/{game.view}", f"{public}/g/{game.edit}"} <= set(game_links)
    assert all(url.startswith(public + "/") for url in game_links)
    assert qr == qr_svg(f"{public}/g/{game.edit}")
    assert made["edit_url"].startswith(f"{public}/g/")
    assert made["view_url"].startswith(f"{public}/g/")


def test_the_public_url_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://Scores.Example/")

    app = create_app()

    assert app.config["PUBLIC_URL"] == "https://Scores.Example/"
    with app.app_context():  # outside a request too, as the command line builds them
        assert url_for("games.index", _external=True) == "https://scores.example/"


def test_without_one_the_address_is_where_make_run_serves():
    assert create_app().config["PUBLIC_URL"] == DEFAULT_PUBLIC_URL == "http://127.0.0.1:5000"


@pytest.mark.parametrize(
    "value",
    [
        "scores.example",
        "ftp://scores.example",
        "https://",
        "https://scores.example/hf",
        "https://scores.example/?a=1",
        "https://user:pw@scores.example",
        "https://scores.example:99999",
    ],
)
def test_a_wrong_public_url_stops_the_start_naming_the_setting(monkeypatch, value):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", value)

    with pytest.raises(ValueError, match="SCOREKEEPER_PUBLIC_URL"):
        create_app()


def test_a_public_url_keeps_its_port_and_loses_a_final_slash():
    address = parse_public_url("http://LOCALHOST:8080/")

    assert address.url == "http://localhost:8080"


def test_a_sheet_reads_its_style_from_the_public_address_whatever_the_host(make_app, fetched_urls):
    client = make_app(SHEET_RENDER_NICE=0).test_client()
    fetched = fetched_urls

    response = client.get("/sheets/simpson.pdf?size=a4", base_url=EVIL)

    assert response.status_code == 200
    assert f"{TEST_PUBLIC_URL}/static/css/sheet.css" in fetched
    assert not [url for url in fetched if "evil.example" in url]
