"""A save that arrives twice: a phone sends again a deal kept offline when the answer to the
first sending was lost with the network. The server saved it the first time; the second
sending is answered as that save was, writes nothing, and is never taken for another phone's
change. A different deal made from an old version is still refused (409)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import Links, save, start_game
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.store.games import Deal


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> Links:
    return start_game(app, client)


def stored(app: Flask, links: Links) -> list[tuple[int, int, int]]:
    """(number, version, side 2's cards left) of every stored deal."""
    with app.app_context():
        deals = db.session.scalars(select(Deal).where(Deal.game_id == links.game_id)).all()
        return [(deal.number, deal.version, deal.sides[1].cards_left_points) for deal in deals]


def test_a_new_deal_sent_twice_ends_on_the_scoreboard_as_saved(app, client, game):
    assert save(client, game, 1, 0).status_code == 303

    again = save(client, game, 1, 0)

    assert again.status_code == 303
    assert again.headers["Location"].endswith(game.edit_path)
    board = client.get(game.edit_path).get_data(as_text=True)
    assert "Deal 1 saved." in board
    assert ">Undo</button>" in board
    assert stored(app, game) == [(1, 1, 120)]


def test_a_second_phone_sending_the_same_numbers_finds_them_saved(app, client, game):
    assert save(client, game, 1, 0).status_code == 303
    other = app.test_client()

    again = save(other, game, 1, 0)

    assert again.status_code == 303
    assert stored(app, game) == [(1, 1, 120)]


def test_an_edit_sent_twice_is_written_once(app, client, game):
    save(client, game, 1, 0)
    assert save(client, game, 1, 1, **{"sides-1-cards_left_points": "150"}).status_code == 303

    again = save(client, game, 1, 1, **{"sides-1-cards_left_points": "150"})

    assert again.status_code == 303
    assert again.headers["Location"].endswith(f"{game.edit_path}#deal-1")
    assert "Deal 1 updated." in client.get(game.edit_path).get_data(as_text=True)
    assert stored(app, game) == [(1, 2, 150)]


def test_other_numbers_from_an_old_version_are_still_refused(app, client, game):
    save(client, game, 1, 0)

    refused = save(client, game, 1, 0, **{"sides-1-cards_left_points": "205"})

    assert refused.status_code == 409
    assert "Deal 1 was changed on another phone" in refused.get_data(as_text=True)
    assert stored(app, game) == [(1, 1, 120)]
