"""The session cookie stays small whatever a browser holds: browsers drop a cookie past 4 KB
(Chromium: 4,096 bytes of name and value), and the server answers 431 to headers too large.

The most a browser keeps is 12 card tables and 40 games of its own (``keyring``), and the
biggest answer is an Undo's, which gives the deal's numbers back to its form.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import start_game
from test_games import DEAL_1, game_path, post_deal, start, stored_version

from scorekeeper.extensions import db
from scorekeeper.keyring import REMEMBERED_GAMES, REMEMBERED_TABLES
from scorekeeper.sessions import MAX_FLASHES, fernet_for
from scorekeeper.store.games import Game
from scorekeeper.store.table_service import new_table

MAX_COOKIE_BYTES = 4000
"""What every Set-Cookie of the session may weigh at most, attributes included."""


def session_cookie_bytes(response) -> int | None:  # noqa: ANN001
    """The length of the answer's Set-Cookie header for the session; None when it sets none."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            return len(header.encode())
    return None


def join_tables(app: Flask, browser: FlaskClient, count: int) -> None:
    """``count`` card tables made elsewhere, joined by their edit links."""
    with app.test_request_context(method="POST"):
        made = [new_table(f"Table {number}")[1] for number in range(count)]
        db.session.commit()
    for token in made:
        assert browser.get(f"/t/{token}").status_code == 200


def join_games(app: Flask, browser: FlaskClient, count: int) -> list[int]:
    """``count`` games started on another phone, opened here by their edit links."""
    other_phone = app.test_client()
    game_ids = [start(other_phone, name=f"Game {number}") for number in range(count)]
    for game_id in game_ids:
        assert browser.get(game_path(game_id)).status_code == 200
    return game_ids


@pytest.fixture
def full_keyring(make_app) -> tuple[Flask, FlaskClient, list[int]]:  # noqa: ANN001
    """A browser holding as much as a browser keeps: 12 card tables and 40 games."""
    app = make_app(LIMIT_GAMES="off")
    browser = app.test_client()
    join_tables(app, browser, REMEMBERED_TABLES)
    game_ids = join_games(app, browser, REMEMBERED_GAMES)
    with browser.session_transaction() as session:
        assert len(session["tables"]) == REMEMBERED_TABLES
        assert len(session["games"]) == REMEMBERED_GAMES
    return app, browser, game_ids


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_undo_answer_to_a_browser_holding_12_tables_and_40_games_fits_a_cookie(
    full_keyring,  # noqa: ANN001
    language: str,
) -> None:
    """Messages left unshown before it included, in the language that writes them longest."""
    app, browser, game_ids = full_keyring
    browser.set_cookie("lang", language)
    game_id = game_ids[-1]
    for number in (1, 2):
        post_deal(browser, game_ids[0], number, DEAL_1)
    saved = post_deal(browser, game_id, 1, DEAL_1)
    undone = browser.post(
        f"{game_path(game_id)}/deals/1/undo", data={"version": stored_version(browser, game_id)}
    )

    sizes = {"save": session_cookie_bytes(saved), "undo": session_cookie_bytes(undone)}
    print(f"session cookie with 12 tables and 40 games ({language}): {sizes}")
    assert undone.status_code == 303
    assert sizes["undo"] is not None and sizes["undo"] < MAX_COOKIE_BYTES
    assert sizes["save"] is not None and sizes["save"] < MAX_COOKIE_BYTES
    form = browser.get(undone.headers["Location"]).get_data(as_text=True)
    assert 'name="sides-0-meld_points" value="1210"' in form
    with browser.session_transaction() as session:
        assert len(session["tables"]) == REMEMBERED_TABLES
        assert len(session["games"]) == REMEMBERED_GAMES
    home = browser.get("/").get_data(as_text=True)
    assert all(f'href="{game_path(held)}"' in home for held in game_ids)


def test_a_cookie_sealed_before_the_links_were_packed_keeps_them(app: Flask) -> None:
    """Links kept as JSON text (cookies sealed before) open as before."""
    keeper_game = start_game(app, app.test_client())
    old_session = {"games": [[keeper_game.game_id, keeper_game.edit]]}
    serializer = app.session_interface.serializer
    sealed = fernet_for(app.secret_key).encrypt(serializer.dumps(old_session).encode()).decode()
    returning = app.test_client()
    returning.set_cookie("session", sealed)

    home = returning.get("/").get_data(as_text=True)

    assert f'href="/g/{keeper_game.edit}"' in home
    with returning.session_transaction() as session:
        assert session["games"] == [[keeper_game.game_id, keeper_game.edit]]


def test_two_hundred_saves_without_following_a_redirect_never_outgrow_the_cookie(
    full_keyring,  # noqa: ANN001
) -> None:
    app, browser, game_ids = full_keyring
    largest = number = 0
    for save in range(200):
        game_id = game_ids[save % 8]
        number = save // 8 % 4 + 1
        answer = post_deal(browser, game_id, number, DEAL_1)
        assert answer.status_code == 303, answer.get_data(as_text=True)
        largest = max(largest, session_cookie_bytes(answer) or 0)

    print(f"largest session cookie in 200 saves: {largest} bytes")
    assert largest < MAX_COOKIE_BYTES
    with app.app_context():
        saved = db.session.scalars(db.select(Game).where(Game.id.in_(game_ids[:8]))).all()
        assert sorted(len(game.deals) for game in saved) == [4] * 8
    with browser.session_transaction() as session:
        flashes = session["_flashes"]
        assert len(session["games"]) == REMEMBERED_GAMES
    assert 1 <= len(flashes) <= MAX_FLASHES
    assert flashes[-1] == ("success", f"Deal {number} updated.")
    page = browser.get(game_path(game_ids[7])).get_data(as_text=True)
    assert page.count('class="flash flash-success"') == len(flashes)
