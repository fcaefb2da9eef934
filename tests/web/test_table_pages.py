"""A card table's page shows its games a page at a time, newest first."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import start_game
from sqlalchemy import select
from test_history import table_token

from scorekeeper.extensions import db
from scorekeeper.rules.variants import get_variant
from scorekeeper.store import game_service
from scorekeeper.store.games import Game
from scorekeeper.store.tables import utcnow
from scorekeeper.tables.views import GAMES_PER_PAGE

GAMES = 2 * GAMES_PER_PAGE + 5


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> str:
    """A table of ``GAMES`` games named "Game 1" (oldest) to "Game 45" (newest); its token."""
    start_game(app, client, name="Game 1")
    token = table_token(client, app)
    pagat = get_variant("pagat")
    with app.app_context(), app.test_request_context(method="POST"):
        first = db.session.scalars(select(Game)).one()
        first.created_at = utcnow() - timedelta(days=GAMES)
        for number in range(2, GAMES + 1):
            game = game_service.start_game(
                pagat, pagat.table_for(2, 4), ["Us", "Them"], name=f"Game {number}"
            )
            game.table_id = first.table_id
            game.created_at = utcnow() - timedelta(days=GAMES - number)
        db.session.commit()
    return token


def shown_games(page: str) -> list[str]:
    return re.findall(r'class="game-link"[^>]*>([^<]+)</a>', page)


def pager_links(page: str) -> dict[str, str]:
    """The pager's links: their label -> their address."""
    found = re.search(r'<nav class="pager".*?</nav>', page, re.S)
    if found is None:
        return {}
    return {
        label: href.replace("&amp;", "&")
        for href, label in re.findall(r'href="([^"]+)">([^<]+)</a>', found.group(0))
    }


def test_the_newest_games_come_first_a_page_at_a_time(client: FlaskClient, table: str) -> None:
    first = client.get(f"/t/{table}").get_data(as_text=True)

    assert shown_games(first) == [f"Game {n}" for n in range(GAMES, GAMES - GAMES_PER_PAGE, -1)]
    assert pager_links(first) == {"Older games": f"/t/{table}?page=2"}

    second = client.get(f"/t/{table}?page=2").get_data(as_text=True)
    assert shown_games(second) == [
        f"Game {n}" for n in range(GAMES - GAMES_PER_PAGE, GAMES - 2 * GAMES_PER_PAGE, -1)
    ]
    assert pager_links(second) == {
        "Newer games": f"/t/{table}?page=1",
        "Older games": f"/t/{table}?page=3",
    }

    last = client.get(f"/t/{table}?page=3").get_data(as_text=True)
    assert shown_games(last) == [f"Game {n}" for n in range(5, 0, -1)]
    assert pager_links(last) == {"Newer games": f"/t/{table}?page=2"}


@pytest.mark.parametrize(
    "asked", ["0", "-1", "4", "two", "1.5", "1e1", "", "\uff12", "9" * 40, "1" * 10]
)
def test_a_page_that_is_no_page_is_refused_naming_the_field(
    client: FlaskClient, table: str, asked: str
) -> None:
    response = client.get(f"/t/{table}", query_string={"page": asked})

    assert response.status_code == 400
    assert "Page: enter a whole number from 1 to 3." in response.get_data(as_text=True)


def test_a_table_of_few_games_has_one_page_and_no_pager(app: Flask, client: FlaskClient) -> None:
    start_game(app, client, name="Only <game>")
    token = table_token(client, app)

    page = client.get(f"/t/{token}?page=1").get_data(as_text=True)

    assert shown_games(page) == ["Only &lt;game&gt;"]
    assert pager_links(page) == {}
    refused = client.get(f"/t/{token}?page=2")
    assert refused.status_code == 400
    assert "Page: enter a whole number from 1 to 1." in refused.get_data(as_text=True)
