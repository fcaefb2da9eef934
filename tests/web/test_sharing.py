"""Sharing a game: the view and edit links, who may change what, QR codes, the live poll,
new links, and two phones saving the same deal."""

from __future__ import annotations

import logging
import re
import threading
import time

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from game_helpers import DEAL, Links, save, start_game
from sqlalchemy import create_engine, select, text
from sqlalchemy.pool import NullPool
from werkzeug.test import Client

from scorekeeper import capabilities
from scorekeeper.capabilities import TOKEN_LENGTH
from scorekeeper.extensions import db
from scorekeeper.live import feed as feed_module
from scorekeeper.live import poll as poll_module
from scorekeeper.live.poll_front import PollsFromMemory
from scorekeeper.operations.redact import redact
from scorekeeper.qr import QR_CACHE_CONTROL, qr_svg
from scorekeeper.store import links as tokens_module
from scorekeeper.store.games import Deal, Game


def deal_row(app: Flask, links: Links, number: int) -> tuple[int, int] | None:
    """(version, side 2's cards left) of a stored deal."""
    with app.app_context():
        deal = db.session.scalars(
            select(Deal).where(Deal.game_id == links.game_id, Deal.number == number)
        ).first()
        return None if deal is None else (deal.version, deal.sides[1].cards_left_points)


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> Links:
    return start_game(app, client)


# --- the links --------------------------------------------------------------------------


def test_a_new_game_has_two_long_random_different_links(app, client, game):
    assert len(game.edit) == len(game.view) == TOKEN_LENGTH
    assert game.edit != game.view
    other = start_game(app, client, "Saturday")
    assert {other.edit, other.view}.isdisjoint({game.edit, game.view})


def test_the_edit_token_itself_is_not_stored(app, game):
    with app.app_context():
        row = db.session.execute(text("SELECT * FROM game")).mappings().one()
    assert game.edit not in {str(value) for value in row.values()}
    assert row["edit_token_hash"] == capabilities.digest(game.edit)


def test_games_are_not_reachable_by_number(client, game):
    assert client.get(f"/games/{game.game_id}").status_code == 404
    assert client.get(f"/g/{game.game_id}").status_code == 404


def test_an_unknown_or_malformed_token_is_not_found(client, game):
    assert client.get("/g/" + "A" * TOKEN_LENGTH).status_code == 404
    assert client.get("/g/short").status_code == 404
    assert client.get(f"/g/{game.view}x").status_code == 404


def test_the_view_link_shows_the_scoreboard_read_only(client, game):
    assert save(client, game, 1, 0).status_code == 303
    viewer = client.application.test_client()

    page = viewer.get(game.view_path).get_data(as_text=True)

    assert "Us" in page and "4595" in page
    assert "Edit deal" not in page and "Enter deal" not in page
    assert "Delete" not in page
    assert game.edit not in page
    assert qr_images(page) == [f"/g/{game.view}/qr.svg"]


def qr_images(page: str) -> list[str]:
    return re.findall(r'<img class="qr" src="([^"]+)"', page)


def test_the_edit_link_shows_both_links_as_qr_codes(client, game):
    page = client.get(game.edit_path).get_data(as_text=True)

    assert qr_images(page) == [f"/g/{game.view}/qr.svg", f"/g/{game.edit}/qr.svg"]
    assert 'alt="QR code of the view link"' in page and 'alt="QR code of the edit link"' in page
    assert "<script>" not in page and "style=" not in page


@pytest.mark.parametrize("link", ["view", "edit"])
def test_a_links_qr_code_is_an_image_of_that_link_that_phones_keep_unless_it_edits(app, game, link):
    token = getattr(game, link)
    anyone = app.test_client()  # an image request carries no session to vouch for it

    response = anyone.get(f"/g/{token}/qr.svg")

    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    expected = QR_CACHE_CONTROL if link == "view" else "no-store"
    assert response.headers["Cache-Control"] == expected
    assert response.get_data() == qr_svg(f"http://localhost/g/{token}")
    assert response.get_data().startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')


def test_the_two_links_have_different_codes(app, game):
    anyone = app.test_client()
    codes = {anyone.get(f"/g/{token}/qr.svg").get_data() for token in (game.view, game.edit)}
    assert len(codes) == 2


def test_there_is_no_qr_code_for_an_unknown_or_replaced_link(app, client, game):
    anyone = app.test_client()
    assert anyone.get("/g/" + "A" * TOKEN_LENGTH + "/qr.svg").status_code == 404
    assert anyone.get("/g/short/qr.svg").status_code == 404

    assert client.post(f"{game.edit_path}/links", data={"which": "view"}).status_code == 303

    assert anyone.get(f"{game.view_path}/qr.svg").status_code == 404


@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", "/deals/1"),
        ("post", "/deals/1"),
        ("post", "/deals/1/delete"),
        ("get", "/delete"),
        ("post", "/delete"),
        ("post", "/links"),
    ],
)
def test_the_view_link_cannot_change_anything(app, client, game, method, suffix):
    assert save(client, game, 1, 0).status_code == 303
    before = deal_row(app, game, 1)
    viewer = app.test_client()

    response = getattr(viewer, method)(f"{game.view_path}{suffix}", data={**DEAL, "which": "edit"})

    assert response.status_code == 403
    assert "edit link" in response.get_data(as_text=True)
    assert deal_row(app, game, 1) == before
    with app.app_context():
        assert db.session.get(Game, game.game_id) is not None


def test_tokens_are_compared_in_constant_time(client, game, monkeypatch):
    compared = []
    real = capabilities.hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(capabilities.hmac, "compare_digest", spy)
    client.get(game.view_path)

    wanted = capabilities.digest(game.view)
    assert any(wanted in pair for pair in compared)


def test_the_list_of_games_links_the_keeper_to_the_edit_link_and_others_to_the_view_link(
    app, client, game
):
    watcher = app.test_client()
    assert watcher.get(game.view_path).status_code == 200

    mine = client.get("/").get_data(as_text=True)
    theirs = watcher.get("/").get_data(as_text=True)
    strangers = app.test_client().get("/").get_data(as_text=True)

    assert f"/g/{game.edit}" in mine
    assert f"/g/{game.edit}" not in theirs and f"/g/{game.view}" in theirs
    assert f"/g/{game.view}" not in strangers and "/g/" not in strangers


def test_tokens_never_reach_the_logs():
    line = f'127.0.0.1 - - "POST /g/{"a" * TOKEN_LENGTH}/deals/2 HTTP/1.1" 303 -'
    api = f"GET /api/v1/games/{'B' * TOKEN_LENGTH} 200"

    assert "a" * TOKEN_LENGTH not in redact(line) and "/g/[token]/deals/2" in redact(line)
    assert "B" * TOKEN_LENGTH not in redact(api)


def test_the_request_log_and_error_log_hide_tokens(app, game, caplog):
    from scorekeeper.operations.redact import RedactTokens

    werkzeug_log = logging.getLogger("werkzeug")
    assert any(isinstance(f, RedactTokens) for f in werkzeug_log.filters)
    with caplog.at_level(logging.INFO):
        werkzeug_log.info('%s - - "%s" %s', "127.0.0.1", f"GET /g/{game.edit} HTTP/1.1", "200")
        app.logger.error("Exception on %s [GET]", f"/g/{game.edit}/deals/1")
    assert caplog.records
    assert game.edit not in caplog.text
    assert "/g/[token]" in caplog.text


# --- new links --------------------------------------------------------------------------


def test_a_new_edit_link_replaces_the_old_one(app, client, game):
    response = client.post(f"{game.edit_path}/links", data={"which": "edit"})

    assert response.status_code == 303
    new = re.search(rf"/g/([A-Za-z0-9_-]{{{TOKEN_LENGTH}}})", response.headers["Location"]).group(1)
    assert new != game.edit
    assert client.get(game.edit_path).status_code == 404
    assert client.get(f"/g/{new}/deals/1").status_code == 200
    assert client.get(game.view_path).status_code == 200


def test_a_new_view_link_replaces_the_old_one(app, client, game):
    assert client.post(f"{game.edit_path}/links", data={"which": "view"}).status_code == 303

    assert client.get(game.view_path).status_code == 404
    with app.app_context():
        new = db.session.get(Game, game.game_id).view_token
    assert new != game.view
    assert client.get(f"/g/{new}").status_code == 200


def test_a_rotation_asking_for_neither_link_changes_nothing(app, client, game):
    client.post(f"{game.edit_path}/links", data={"which": "both"})

    assert client.get(game.edit_path).status_code == 200
    assert client.get(game.view_path).status_code == 200


# --- the live scoreboard -----------------------------------------------------------------


def test_the_poll_answers_304_until_the_game_changes(app, client, game):
    # No second of grace and no feed (whose news comes a moment after the commit): every
    # poll reads the database, and sees the change at once.
    app.config["POLL_FRESH_SECONDS"] = 0
    app.config["POLL_FEED"] = False
    first = client.get(f"{game.view_path}/version")
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.get_json() == {"version": 1}

    assert (
        client.get(f"{game.view_path}/version", headers={"If-None-Match": etag}).status_code == 304
    )
    assert save(client, game, 1, 0).status_code == 303
    changed = client.get(f"{game.view_path}/version", headers={"If-None-Match": etag})

    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json() == {"version": 2}


@pytest.mark.parametrize(
    ("method", "held", "status"),
    [
        ("GET", "current", 304),
        ("GET", "stale", 200),
        ("GET", None, 200),
        ("HEAD", None, 200),
        ("HEAD", "current", 304),
    ],
)
def test_a_poll_memory_can_answer_is_answered_in_front_of_the_app_as_the_view_would(
    app, client, game, monkeypatch, method, held, status
):
    app.config["SESSION_COOKIE_SECURE"] = True
    app.config["POLL_FRESH_SECONDS"] = 60  # memory vouches, listening or not, however slow
    path = f"{game.view_path}/version"
    etags = {"current": client.get(path).headers["ETag"], "stale": f'"g{game.game_id}v0"'}
    headers = {"If-None-Match": etags[held]} if held else {}
    feed = app.extensions[poll_module.EXTENSION].feed
    if feed is not None:  # PostgreSQL: the feed empties the memory once, as it starts listening
        assert feed.listening.wait(30)
    front = app.wsgi_app
    while not isinstance(front, PollsFromMemory):  # under the request-id layer
        front = front.wsgi_app
    by_the_view = Client(front.app).open(path, method=method, headers=headers)
    monkeypatch.setitem(
        app.view_functions, "sharing.version", lambda **kw: pytest.fail("the view was asked")
    )

    in_front = client.open(path, method=method, headers=headers)

    assert by_the_view.status_code == in_front.status_code == status
    request_id = in_front.headers["X-Request-ID"]  # added around the app, the poll included
    assert sorted(in_front.headers.items()) == sorted(
        [*by_the_view.headers.items(), ("X-Request-ID", request_id)]
    )
    assert in_front.data == by_the_view.data
    assert in_front.headers["Strict-Transport-Security"]
    if status == 200 and method == "GET":
        assert in_front.get_json() == {"version": 1}


def test_polls_that_memory_cannot_answer_go_on_to_the_app(app, client, game, monkeypatch):
    app.config["POLL_FRESH_SECONDS"] = 0  # memory vouches for nothing
    app.config["POLL_FEED"] = False
    path = f"{game.view_path}/version"
    etag = client.get(path).headers["ETag"]
    view = app.view_functions["sharing.version"]
    asked = []
    monkeypatch.setitem(
        app.view_functions, "sharing.version", lambda **kw: asked.append(kw) or view(**kw)
    )
    unknown = "/g/" + "Z" * TOKEN_LENGTH + "/version"

    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(path).status_code == 200
    assert client.get(unknown, headers={"If-None-Match": etag}).status_code == 404
    assert client.get("/g/short/version").status_code == 404
    assert client.post(path, headers={"If-None-Match": etag}).status_code == 405
    assert len(asked) == 4


def test_a_poll_within_a_second_is_answered_without_the_database(app, client, game, monkeypatch):
    import scorekeeper.live.poll as poll

    assert client.get(f"{game.view_path}/version").status_code == 200
    feed = app.extensions[poll.EXTENSION].feed
    if feed is not None:  # PostgreSQL: the feed empties the memory once, as it starts listening
        assert feed.listening.wait(30)
        assert client.get(f"{game.view_path}/version").status_code == 200
    monkeypatch.setattr(poll, "resolve", lambda token: pytest.fail("the database was asked"))

    assert client.get(f"{game.view_path}/version").get_json() == {"version": 1}


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def listening_poll(app: Flask, client: FlaskClient, links: Links) -> poll_module.Poll:
    """The app's poll, once its feed listens (PostgreSQL), entries kept for no time at all."""
    app.config["POLL_FRESH_SECONDS"] = 0
    assert client.get(f"{links.view_path}/version").status_code == 200
    state = app.extensions[poll_module.EXTENSION]
    assert state.feed is not None and state.feed.listening.wait(5)
    return state


def polled_version(client: FlaskClient, links: Links) -> int | None:
    response = client.get(f"{links.view_path}/version")
    return response.get_json()["version"] if response.status_code == 200 else None


@pytest.mark.postgresql
def test_a_listening_process_answers_polls_from_memory_changes_included(
    app, client, game, monkeypatch
):
    listening_poll(app, client, game)
    assert polled_version(client, game) == 1  # read while listening: kept
    monkeypatch.setattr(poll_module, "resolve", lambda token: pytest.fail("the database was asked"))
    assert polled_version(client, game) == 1

    assert save(client, game, 1, 0).status_code == 303

    assert wait_for(lambda: polled_version(client, game) == 2)  # the feed told the version


@pytest.mark.postgresql
def test_a_change_notifies_the_new_version_and_a_new_link_only_the_game(app, client, game):
    with psycopg.connect(feed_module.conninfo_of(app), autocommit=True) as listener:
        listener.execute(f"LISTEN {feed_module.CHANNEL}")
        assert save(client, game, 1, 0).status_code == 303
        client.post(f"{game.edit_path}/links", data={"which": "view"})
        heard = [notice.payload for notice in listener.notifies(timeout=5, stop_after=2)]

    assert heard == [f"{game.game_id}:2", f"{game.game_id}"]


@pytest.mark.parametrize(
    ("payload", "change"),
    [("12:5", (12, 5)), ("12", (12, None)), ("12:", None), (":5", None), ("x", None), ("", None)],
)
def test_the_feed_reads_a_game_and_its_version_or_the_game_alone(payload, change):
    assert feed_module.parse_change(payload) == change


@pytest.mark.postgresql
def test_a_replaced_view_link_stops_answering_polls_while_listening(app, client, game):
    listening_poll(app, client, game)
    assert polled_version(client, game) == 1

    client.post(f"{game.edit_path}/links", data={"which": "view"})

    assert wait_for(lambda: polled_version(client, game) is None)


@pytest.mark.postgresql
def test_the_feed_connects_again_after_losing_its_connection(app, client, game):
    state = listening_poll(app, client, game)
    with app.app_context():
        ended = (
            db.session.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = :name"
                ),
                {"name": feed_module.APPLICATION_NAME},
            )
            .scalars()
            .all()
        )
    assert ended == [True]

    assert wait_for(lambda: not state.feed.listening.is_set())
    assert state.feed.listening.wait(5)
    assert save(client, game, 1, 0).status_code == 303
    assert wait_for(lambda: polled_version(client, game) == 2)


def grant_for(game_id: int, version: int) -> tokens_module.Grant:
    return tokens_module.Grant(game_id, capabilities.Role.VIEW, "t" * TOKEN_LENGTH, version)


@pytest.mark.parametrize("heard", ["the game changed", "the feed started over"])
def test_a_version_read_while_news_came_in_is_kept_only_for_its_second(monkeypatch, heard):
    cache = poll_module.PollCache()
    token = "t" * TOKEN_LENGTH
    reads = []

    def resolve(token: str) -> tokens_module.Grant:
        reads.append(token)
        if len(reads) == 1:  # news arrives while the first read is under way
            cache.changed(7, None) if heard == "the game changed" else cache.reset()
        return grant_for(7, len(reads))

    monkeypatch.setattr(poll_module, "resolve", resolve)

    assert cache.get(token, fresh=0, listening=True) == (7, 1)
    assert cache.get(token, fresh=0, listening=True) == (7, 2)  # not trusted: read again
    assert cache.get(token, fresh=0, listening=True) == (7, 2)  # trusted now
    assert len(reads) == 2
    cache.changed(7, None)
    assert cache.get(token, fresh=0, listening=True) == (7, 3)
    assert cache.get(token, fresh=0, listening=False) == (7, 4)  # the feed is deaf: read again


def test_a_version_told_by_the_feed_moves_the_entries_forward_without_a_read(monkeypatch):
    cache = poll_module.PollCache()
    token = "t" * TOKEN_LENGTH
    reads = []
    monkeypatch.setattr(
        poll_module, "resolve", lambda token: reads.append(token) or grant_for(7, 1)
    )
    assert cache.get(token, fresh=0, listening=True) == (7, 1)

    cache.changed(7, 3)

    assert cache.get(token, fresh=0, listening=True) == (7, 3)
    assert len(reads) == 1


def test_a_read_under_way_does_not_take_back_a_version_the_feed_told(monkeypatch):
    cache = poll_module.PollCache()
    token = "t" * TOKEN_LENGTH
    reads = []

    def resolve(token: str) -> tokens_module.Grant:
        reads.append(token)
        if len(reads) == 2:  # the feed tells version 3 while this read finds version 2
            cache.changed(7, 3)
        return grant_for(7, len(reads))

    monkeypatch.setattr(poll_module, "resolve", resolve)
    assert cache.get(token, fresh=0, listening=False) == (7, 1)  # deaf: read every time
    assert cache.get(token, fresh=0, listening=True) == (7, 2)

    assert cache.get(token, fresh=0, listening=True) == (7, 3)
    assert len(reads) == 2


def test_a_poll_with_an_unknown_token_is_not_found(client):
    assert client.get("/g/" + "Z" * TOKEN_LENGTH + "/version").status_code == 404
    assert client.get("/g/short/version").status_code == 404


def test_the_view_page_is_conditional_on_the_game_version(app, client, game):
    viewer = app.test_client()
    first = viewer.get(game.view_path)
    etag = first.headers["ETag"]

    assert viewer.get(game.view_path, headers={"If-None-Match": etag}).status_code == 304
    save(client, game, 1, 0)
    assert viewer.get(game.view_path, headers={"If-None-Match": etag}).status_code == 200


def test_the_page_loads_the_poller_as_a_deferred_file_not_inline(client, game):
    page = client.get(game.view_path).get_data(as_text=True)

    assert re.search(r'<script src="/static/js/live\.js[^"]*" defer></script>', page)
    assert f'data-live-poll="/g/{game.view}/version"' in page
    assert re.search(r"<script>\S", page) is None


# --- two phones, one deal -----------------------------------------------------------------


def test_the_second_new_deal_is_refused_showing_both_versions(app, client, game):
    other = app.test_client()
    assert save(client, game, 1, 0, **{"sides-1-cards_left_points": "120"}).status_code == 303

    response = save(other, game, 1, 0, **{"sides-1-cards_left_points": "205"})

    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "120" in page and "205" in page
    assert "version 1" in page
    assert deal_row(app, game, 1) == (1, 120)


def test_a_stale_edit_is_refused_and_can_then_be_saved_deliberately(app, client, game):
    other = app.test_client()
    save(client, game, 1, 0)
    assert save(client, game, 1, 1, **{"sides-1-cards_left_points": "150"}).status_code == 303

    stale = save(other, game, 1, 1, **{"sides-1-cards_left_points": "300"})

    assert stale.status_code == 409
    assert deal_row(app, game, 1) == (2, 150)
    page = stale.get_data(as_text=True)
    assert "150" in page and "300" in page
    assert 'name="version" value="2"' in page
    again = save(other, game, 1, 2, **{"sides-1-cards_left_points": "300"})
    assert again.status_code == 303
    assert deal_row(app, game, 1) == (3, 300)


def test_an_edit_made_before_a_deal_was_deleted_and_entered_again_is_refused(app, client, game):
    """Phone A queued an edit of deal 1 made on its first version; phone B deleted the deal
    and entered it again. A's edit, sent at last, must not overwrite B's numbers."""
    other = app.test_client()
    assert save(client, game, 2, 0).status_code == 303
    assert save(client, game, 1, 0, **{"sides-1-cards_left_points": "120"}).status_code == 303
    first_version = deal_row(app, game, 1)[0]
    deleted = other.post(f"{game.edit_path}/deals/1/delete", data={"version": first_version})
    assert deleted.status_code == 303
    assert save(other, game, 1, 0, **{"sides-1-cards_left_points": "295"}).status_code == 303
    entered_again = deal_row(app, game, 1)[0]

    queued = save(client, game, 1, first_version, **{"sides-1-cards_left_points": "240"})

    assert entered_again > first_version
    assert queued.status_code == 409
    assert deal_row(app, game, 1) == (entered_again, 295)
    page = queued.get_data(as_text=True)
    assert "295" in page and "240" in page
    assert f'name="version" value="{entered_again}"' in page


def test_a_deals_versions_grow_through_edits_deletions_and_other_deals(app, client, game):
    versions = []
    for number, based_on in ((1, 0), (2, 0), (1, "stored"), (1, "delete"), (1, 0), (1, "stored")):
        stored = deal_row(app, game, number)
        if based_on == "delete":
            path = f"{game.edit_path}/deals/{number}/delete"
            assert client.post(path, data={"version": stored[0]}).status_code == 303
            continue
        version = stored[0] if based_on == "stored" else based_on
        assert save(client, game, number, version).status_code == 303
        if number == 1:
            versions.append(deal_row(app, game, 1)[0])

    assert versions == sorted(set(versions)), versions
    assert len(versions) == 4


def test_a_save_racing_another_is_refused_by_the_database(app, client, game, monkeypatch):
    import scorekeeper.games.deal_saves as deal_saves

    save(client, game, 1, 0)
    real_write = deal_saves.write_deal

    def write_after_another_phone(stored_game, entry, based_on):
        with db.engine.begin() as connection:  # another phone commits first
            connection.execute(
                text("UPDATE deal SET version = version + 1 WHERE game_id = :g AND number = 1"),
                {"g": stored_game.id},
            )
        return real_write(stored_game, entry, based_on)

    monkeypatch.setattr(deal_saves, "write_deal", write_after_another_phone)
    response = save(client, game, 1, 1, **{"sides-1-cards_left_points": "300"})

    assert response.status_code == 409
    assert deal_row(app, game, 1) == (2, 120)


@pytest.mark.parametrize("number, version", [(1, 0), (2, 1)], ids=["new deal", "edited deal"])
def test_a_save_for_a_game_deleted_meanwhile_is_not_found_and_writes_nothing(
    app, client, game, monkeypatch, number, version
):
    import scorekeeper.games.deal_saves as deal_saves

    save(client, game, 2, 0)
    real_write = deal_saves.write_deal

    def write_after_the_game_is_deleted(stored_game, entry, based_on):
        with db.engine.begin() as connection:  # the keeper deletes the game on another phone
            connection.execute(text("DELETE FROM game WHERE id = :g"), {"g": stored_game.id})
        return real_write(stored_game, entry, based_on)

    monkeypatch.setattr(deal_saves, "write_deal", write_after_the_game_is_deleted)
    response = save(client, game, number, version)

    assert response.status_code == 404
    with app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM deal")).scalar_one() == 0
        assert db.session.execute(text("SELECT count(*) FROM deal_side")).scalar_one() == 0


@pytest.mark.postgresql
def test_a_save_waiting_for_another_phones_save_is_refused_once_that_one_commits(app, client, game):
    """The two saves meet in the database: the second waits for the deal's row, then finds it
    at a version it was not made from."""
    save(client, game, 1, 0)
    with app.app_context():
        url = db.engine.url
    engine = create_engine(url, poolclass=NullPool)
    answers = []
    with engine.connect() as other_phone:
        other_phone.execute(
            text("UPDATE deal SET version = 2 WHERE game_id = :g AND number = 1"),
            {"g": game.game_id},
        )
        waiting = threading.Thread(
            target=lambda: answers.append(
                save(app.test_client(), game, 1, 1, **{"sides-1-cards_left_points": "300"})
            )
        )
        waiting.start()
        wait_for_a_lock_wait(other_phone)
        other_phone.commit()
    waiting.join(timeout=10)
    engine.dispose()

    assert [response.status_code for response in answers] == [409]
    assert deal_row(app, game, 1) == (2, 120)


def wait_for_a_lock_wait(connection, seconds: float = 10.0) -> None:
    """Until another server process waits for a lock this connection holds."""
    deadline = time.monotonic() + seconds
    query = text(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    while connection.execute(query).scalar_one() == 0:
        assert time.monotonic() < deadline, "the save never waited for the deal's row"
        time.sleep(0.02)


def test_a_malformed_version_is_a_bad_request(app, client, game):
    response = client.post(f"{game.edit_path}/deals/1", data={**DEAL, "version": "two"})

    assert response.status_code == 400
    assert deal_row(app, game, 1) is None


def test_deleting_a_deal_that_changed_meanwhile_is_refused(app, client, game):
    save(client, game, 1, 0)
    save(client, game, 1, 1, **{"sides-1-cards_left_points": "150"})

    response = client.post(f"{game.edit_path}/deals/1/delete", data={"version": "1"})

    assert response.status_code == 409
    assert deal_row(app, game, 1) == (2, 150)
    assert client.post(f"{game.edit_path}/deals/1/delete", data={"version": "2"}).status_code == 303
    assert deal_row(app, game, 1) is None


def test_the_server_can_give_a_keeper_who_lost_the_edit_link_a_new_one(app, client, game):
    result = app.test_cli_runner().invoke(args=["games", "edit-link", str(game.game_id)])

    assert result.exit_code == 0, result.output
    address = result.output.strip()
    assert re.fullmatch(rf"http://localhost/g/[A-Za-z0-9_-]{{{TOKEN_LENGTH}}}", address)
    path = address.removeprefix("http://localhost")
    assert app.test_client().get(f"{path}/deals/1").status_code == 200
    assert client.get(f"{game.edit_path}/deals/1").status_code == 404
    missing = app.test_cli_runner().invoke(args=["games", "edit-link", "999"])
    assert missing.exit_code != 0 and "no game 999" in missing.output
